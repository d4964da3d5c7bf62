//===- Cluster.cpp - Thread-block clusters (sim) --------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A cluster launch (`__cluster_dims__`, the manifest's launch "cluster")
// groups the grid's blocks into clusters whose blocks are resident
// together and reach each other's shared memory (PTX ISA, "Cluster of
// Cooperative Thread Arrays"). Here each rank of the cluster has a worker
// of its own (its own OS thread, so its own shared memory), and the
// workers take turns as the blocks of a cooperative launch do (Grid.cpp):
// the block whose turn it is runs until none of its threads can, then the
// turn passes to the next block of the cluster that has not exited. One
// block runs at a time, so a run is deterministic. The clusters of the
// grid run one after another; the blocks of cluster c are those whose
// block index divided by the cluster dims is c's index, rank r the block
// at (r % X, r / X % Y, r / (X Y)) within it (%cluster_ctarank).
//
// The cluster barrier (barrier.cluster.arrive / wait): a phase completes
// when every thread of the cluster that has not exited has arrived; a wait
// returns once the phase the thread arrived at has completed. A thread
// that arrives twice without waiting, or waits without arriving, is
// reported (synccheck), as the PTX ISA leaves both undefined. A round of
// turns in which no block ran a thread is a deadlock of the cluster,
// reported with where the threads of the last block wait.
//
// Ordering (racecheck): a release arrival (cluster barrier arrive not
// relaxed, or an mbarrier arrival from a block of the cluster) records
// the arriving thread's clock (an mbarrier arrival: and what it acquired
// of its block's threads, cumulatively); the thread whose wait returns learns
// it, per thread of every block of the cluster (clusterKnows). A global access
// of a peer is ordered before the running block's thread when that thread
// learnt a clock at or after the access's (beforeAcross); a thread of the
// same block learns it as from a barrier. mapa of a peer that has not
// started or has exited is reported (memcheck): its shared memory is not
// there.
//
// TMA multicast (bulkCopyCluster): the issuer lands its own block's copy
// as any TMA copy; each other masked block gets the copy queued with what
// the issuer had acquired of that block's threads, and lands it when its
// own threads cannot run (racecheck: the bytes' last accesses by its
// threads must be among them; bytes a copy wrote that no thread read
// before the multicast overwrites them are reported too).
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include <algorithm>

using namespace tlc::runtime::sim;

void Worker::runClusters() {
  ClusterState &cs = *launch.cluster;
  clusterRank = cs.nextRank.fetch_add(1);
  if (clusterRank >= cs.size)
    return;
  const LaunchConfig &c = *launch.config;
  {
    std::lock_guard<std::mutex> lock(cs.mutex);
    cs.shared[clusterRank] = shared;
    cs.sharedShadow[clusterRank] =
        shadowMap ? shadowMap->sharedShadow : nullptr;
  }
  unsigned clusters[3] = {c.grid[0] / cs.dims[0], c.grid[1] / cs.dims[1],
                          c.grid[2] / cs.dims[2]};
  unsigned in[3] = {clusterRank % cs.dims[0],
                    clusterRank / cs.dims[0] % cs.dims[1],
                    clusterRank / (cs.dims[0] * cs.dims[1])};
  for (uint64_t k = 0; k < cs.numClusters; ++k) {
    if (!waitClusterTurn(k))
      break;
    uint64_t at = launch.reverse ? cs.numClusters - 1 - k : k;
    uint64_t idx[3] = {at % clusters[0], at / clusters[0] % clusters[1],
                       at / (uint64_t(clusters[0]) * clusters[1])};
    uint64_t b[3];
    for (int d = 0; d < 3; ++d)
      b[d] = idx[d] * cs.dims[d] + in[d];
    runBlock(b[0] + uint64_t(c.grid[0]) * (b[1] + uint64_t(c.grid[1]) * b[2]));
    clusterExit();
    if (blockAborted || launch.aborted)
      break;
  }
}

bool Worker::waitClusterTurn(uint64_t k) {
  ClusterState &cs = *launch.cluster;
  std::unique_lock<std::mutex> lock(cs.mutex);
  // Polled: an abort (a finding of another worker) does not notify.
  while (!launch.aborted && !(cs.cluster == k && cs.turn == clusterRank))
    cs.wake[clusterRank].wait_for(lock, std::chrono::milliseconds(100));
  if (!launch.aborted)
    cs.started[clusterRank] = true;
  return !launch.aborted;
}

/// The next rank after \p from, cyclically, whose block has not exited
/// (\p from itself when none has).
static unsigned nextLive(const ClusterState &cs, unsigned from) {
  for (unsigned i = 1; i <= cs.size; ++i) {
    unsigned r = (from + i) % cs.size;
    if (!cs.done[r])
      return r;
  }
  return from;
}

bool Worker::clusterYield() {
  ClusterState &cs = *launch.cluster;
  {
    std::lock_guard<std::mutex> lock(cs.mutex);
    cs.idle = clusterProgress ? 0 : cs.idle + 1;
    clusterProgress = false;
    unsigned live = 0;
    for (unsigned r = 0; r < cs.size; ++r)
      live += !cs.done[r];
    // Every live block had a turn and none could run a thread.
    if (cs.idle > live)
      return false;
    cs.give(nextLive(cs, clusterRank));
  }
  return waitClusterTurn(cs.cluster);
}

void Worker::clusterExit() {
  ClusterState &cs = *launch.cluster;
  std::lock_guard<std::mutex> lock(cs.mutex);
  cs.done[clusterRank] = true;
  cs.idle = 0;
  if (std::find(cs.done.begin(), cs.done.end(), false) != cs.done.end()) {
    cs.give(nextLive(cs, clusterRank));
    return;
  }
  // The cluster is done: the next one starts from rank 0.
  ++cs.cluster;
  cs.barrier = ClusterBarrier();
  cs.done.assign(cs.size, false);
  cs.started.assign(cs.size, false);
  cs.releases.clear();
  cs.give(0);
}

/// Completes the cluster barrier \p b's phase when every thread of its
/// \p blocks blocks that has not exited has arrived (with its lock held).
static void completePhase(ClusterBarrier &b, unsigned blocks,
                          unsigned numThreads) {
  uint64_t all = uint64_t(blocks) * numThreads;
  if (b.arrived == 0 || b.arrived + b.exited < all)
    return;
  ++b.phase;
  b.arrived = 0;
  // The slot of the next phase held phase - 1's arrivals, which every
  // thread has waited for (it arrived at this phase after its wait).
  b.arrivals[b.phase % 2].assign(all, 0);
}

void Worker::clusterArrive(bool relaxed, uint64_t where) {
  Thread &t = *current;
  if (t.clusterArrivals > t.clusterWaits)
    trap("synccheck",
         "barrier.cluster.arrive by " + threadName(t.linear) +
             " at {0} twice without a barrier.cluster.wait between",
         where);
  std::unique_lock<std::mutex> lock = clusterLock();
  ClusterBarrier &b = clusterBarrier();
  uint64_t all = uint64_t(clusterSize()) * numThreads;
  std::vector<uint32_t> &slot = b.arrivals[b.phase % 2];
  if (slot.size() != all)
    slot.assign(all, 0);
  slot[size_t(clusterRank) * numThreads + t.linear] =
      relaxed ? 0 : clock[t.linear];
  if (!relaxed)
    ++clock[t.linear]; // accesses after the arrival are not released by it
  ++t.clusterArrivals;
  ++b.arrived;
  completePhase(b, clusterSize(), numThreads);
}

void Worker::clusterWait(uint64_t where) {
  Thread &t = *current;
  if (t.clusterWaits >= t.clusterArrivals)
    trap("synccheck",
         "barrier.cluster.wait by " + threadName(t.linear) +
             " at {0} without a barrier.cluster.arrive before it (it would "
             "wait for its own arrival)",
         where);
  ++t.clusterWaits;
  t.state = State::AtClusterBarrier;
  t.where = where;
  if (resolveClusterWaits() && t.state == State::Runnable)
    return;
  yield();
}

bool Worker::resolveClusterWaits() {
  std::unique_lock<std::mutex> lock = clusterLock();
  ClusterBarrier &b = clusterBarrier();
  bool resolved = false;
  for (Thread &t : threads) {
    // Thread t waits for the phase it arrived at, clusterArrivals - 1.
    if (t.state != State::AtClusterBarrier || b.phase < t.clusterArrivals)
      continue;
    t.state = State::Runnable;
    resolved = true;
    const std::vector<uint32_t> &slot = b.arrivals[(t.clusterArrivals - 1) % 2];
    if (!slot.empty())
      clusterAcquire(t.linear, slot);
  }
  return resolved;
}

void Worker::clusterAcquire(unsigned t, const std::vector<uint32_t> &clocks) {
  size_t row = size_t(clusterSize()) * numThreads;
  if (launch.cluster) {
    if (clusterKnows.size() != size_t(numThreads) * row)
      clusterKnows.assign(size_t(numThreads) * row, 0);
    uint32_t *known = &clusterKnows[size_t(t) * row];
    for (size_t i = 0; i < row && i < clocks.size(); ++i)
      known[i] = std::max(known[i], clocks[i]);
  }
  // Threads of its own block: as after a barrier with them.
  if (clocks.size() < size_t(clusterRank + 1) * numThreads)
    return;
  needOverlay();
  const uint32_t *own = &clocks[size_t(clusterRank) * numThreads];
  for (unsigned u = 0; u < numThreads; ++u)
    if (u != t && own[u]) {
      uint32_t &k = overlay[size_t(t) * numClocks + u];
      k = std::max(k, own[u]);
    }
}

void Worker::clusterThreadExited() {
  std::unique_lock<std::mutex> lock = clusterLock();
  ClusterBarrier &b = clusterBarrier();
  ++b.exited;
  completePhase(b, clusterSize(), numThreads);
}

void *Worker::mapShared(const void *address, uint32_t rank, uint64_t where) {
  auto a = reinterpret_cast<uintptr_t>(address);
  auto base = reinterpret_cast<uintptr_t>(shared);
  if (a < base || a - base >= sharedBytes) {
    report("memcheck",
           "mapa.shared::cluster of an address outside the block's shared "
           "memory by " +
               threadName(current->linear) + " at {0}",
           where);
    return nullptr;
  }
  if (!launch.cluster) {
    if (rank == 0)
      return const_cast<void *>(address);
    report("memcheck",
           "mapa.shared::cluster to block " + std::to_string(rank) +
               " of a cluster of one block by " + threadName(current->linear) +
               " at {0}",
           where);
    return nullptr;
  }
  ClusterState &cs = *launch.cluster;
  std::lock_guard<std::mutex> lock(cs.mutex);
  if (rank >= cs.size || !cs.started[rank] || cs.done[rank]) {
    report("memcheck",
           "mapa.shared::cluster to block " + std::to_string(rank) +
               " of the cluster by " + threadName(current->linear) +
               " at {0}: " +
               (rank >= cs.size
                    ? "the cluster has " + std::to_string(cs.size) + " blocks"
                : cs.done[rank]
                    ? std::string("that block has exited, its shared "
                                  "memory is gone (a cluster barrier "
                                  "before the exit keeps it)")
                    : std::string("that block has not started (a cluster "
                                  "barrier after its initialisation "
                                  "orders the access after it)")),
           where);
    return nullptr;
  }
  return cs.shared[rank] + (a - base);
}

void Worker::mbarrierReleaseCluster(const uint64_t *bar, uint64_t where) {
  (void)where;
  auto a = reinterpret_cast<uintptr_t>(bar);
  if (!launch.cluster) {
    mbarrierRelease(bar);
    return;
  }
  ClusterState &cs = *launch.cluster;
  std::lock_guard<std::mutex> lock(cs.mutex);
  for (unsigned r = 0; r < cs.size; ++r) {
    auto base = reinterpret_cast<uintptr_t>(cs.shared[r]);
    if (a < base || a - base >= sharedBytes)
      continue;
    if (r == clusterRank)
      break; // the block's own barrier: mbarrierRelease below
    std::vector<uint32_t> &known = cs.releases[{r, a - base}];
    known.resize(size_t(cs.size) * numThreads);
    // Cumulative: what the arriving thread acquired of its block's threads
    // (a __syncwarp, a barrier before the arrival) is released with it.
    unsigned t = current->linear;
    for (unsigned u = 0; u < numThreads; ++u) {
      uint32_t &k = known[size_t(clusterRank) * numThreads + u];
      k = std::max(k, knows(t, u));
    }
    ++clock[t];
    return;
  }
  mbarrierRelease(bar);
}

bool Worker::clusterOrdered(unsigned me, uint64_t block, unsigned thread,
                            uint64_t clock) const {
  if (!launch.cluster || clusterKnows.empty() || thread >= numThreads)
    return false;
  const ClusterState &cs = *launch.cluster;
  const LaunchConfig &c = *launch.config;
  uint64_t b[3] = {block % c.grid[0], block / c.grid[0] % c.grid[1],
                   block / (uint64_t(c.grid[0]) * c.grid[1])};
  const uint32_t *mine = threads[0].indices.block;
  unsigned rank = 0;
  for (int d = 2; d >= 0; --d) {
    if (b[d] / cs.dims[d] != mine[d] / cs.dims[d])
      return false; // another cluster
    rank = rank * cs.dims[d] + unsigned(b[d] % cs.dims[d]);
  }
  size_t row = size_t(cs.size) * numThreads;
  return clusterKnows[size_t(me) * row + size_t(rank) * numThreads + thread] >=
         clock;
}

void Worker::bulkCopyCluster(const tlc_sim_bulk_piece *pieces, uint32_t count,
                             uint64_t *bar, uint32_t ctaMask, uint64_t where) {
  unsigned size = launch.cluster ? launch.cluster->size : 1;
  if (ctaMask == 0 || (size < 32 && (ctaMask >> size) != 0))
    trap("memcheck",
         "TMA multicast by " + threadName(current->linear) +
             " at {0} with the cta mask " + std::to_string(ctaMask) +
             ", which names no block or a rank outside the cluster of " +
             std::to_string(size) + " blocks",
         where);
  if (ctaMask & (1u << clusterRank))
    bulkCopy(pieces, count, bar, where);
  if (!launch.cluster)
    return;
  auto base = reinterpret_cast<uintptr_t>(shared);
  auto offsetOf = [&](const void *p) {
    return reinterpret_cast<uintptr_t>(p) - base;
  };
  if (offsetOf(bar) >= sharedBytes)
    trap("memcheck",
         "TMA multicast by " + threadName(current->linear) +
             " at {0} with an mbarrier outside the block's shared memory",
         where);
  unsigned t = current->linear;
  ClusterState &cs = *launch.cluster;
  for (unsigned r = 0; r < cs.size; ++r) {
    if (r == clusterRank || !(ctaMask & (1u << r)))
      continue;
    RemoteBulkCopy c;
    c.issuerRank = clusterRank;
    c.issuer = t;
    c.where = where;
    c.bytes = 0;
    // What the issuer acquired of the receiver's threads: the releases
    // that order their reads of the destination before the copy.
    c.known.assign(numThreads, 0);
    size_t row = size_t(cs.size) * numThreads;
    if (clusterKnows.size() == size_t(numThreads) * row)
      for (unsigned u = 0; u < numThreads; ++u)
        c.known[u] = clusterKnows[size_t(t) * row + size_t(r) * numThreads + u];
    for (uint32_t p = 0; p < count; ++p) {
      tlc_sim_bulk_piece piece = pieces[p];
      size_t offset = offsetOf(piece.dst);
      if (offset + piece.bytes > sharedBytes)
        trap("memcheck",
             "TMA multicast destination is not inside the block's " +
                 std::to_string(sharedBytes) + " bytes of shared memory, by " +
                 threadName(t) + " at {0}",
             where);
      if (piece.src && !access(piece.src, piece.bytes, TLC_SIM_LOAD, -1, where))
        piece.src = nullptr;
      c.bytes += piece.bytes;
      c.pieces.push_back(piece); // dst: an offset until the receiver is known
    }
    std::lock_guard<std::mutex> lock(cs.mutex);
    if (!cs.started[r] || cs.done[r]) {
      report("memcheck",
             "TMA multicast to block " + std::to_string(r) +
                 " of the cluster by " + threadName(t) + " at {0}: " +
                 (cs.done[r] ? "that block has exited, its shared memory is "
                               "gone"
                             : "that block has not started (a cluster "
                               "barrier after its initialisation orders the "
                               "copy after it)"),
             where);
      continue;
    }
    for (tlc_sim_bulk_piece &piece : c.pieces)
      piece.dst = cs.shared[r] + offsetOf(piece.dst);
    c.bar = reinterpret_cast<uint64_t *>(cs.shared[r] + offsetOf(bar));
    cs.incoming[r].push_back(std::move(c));
  }
}

bool Worker::hasIncoming() {
  if (!launch.cluster)
    return false;
  ClusterState &cs = *launch.cluster;
  std::lock_guard<std::mutex> lock(cs.mutex);
  return !cs.incoming[clusterRank].empty();
}

void Worker::landIncoming() {
  ClusterState &cs = *launch.cluster;
  std::vector<RemoteBulkCopy> landing;
  {
    std::lock_guard<std::mutex> lock(cs.mutex);
    landing = std::move(cs.incoming[clusterRank]);
    cs.incoming[clusterRank].clear();
  }
  for (const RemoteBulkCopy &c : landing) {
    std::string issuer = "thread " + std::to_string(c.issuer) + " of block " +
                         std::to_string(c.issuerRank) + " of the cluster";
    // The copy may overwrite bytes only when the issuer acquired the
    // release of every access of this block's threads to them (the
    // consumers' arrivals on the issuer's empty barrier), and no copy may
    // be writing them or have written them unread.
    bool reported = false;
    for (const tlc_sim_bulk_piece &piece : c.pieces) {
      size_t offset = static_cast<unsigned char *>(piece.dst) - shared;
      for (uint32_t i = 0; i < piece.bytes && !reported; ++i) {
        const ShadowByte &sh = shadow[offset + i];
        std::string what;
        uint64_t other = sh.writeWhere;
        if (sh.flags & kPending) {
          what = "while an earlier TMA copy is still writing it";
        } else if (sh.writer != kNone && sh.writer < numThreads &&
                   c.known[sh.writer] < sh.writeClock) {
          what = "after a write by " + threadName(sh.writer) +
                 " at {1} that the issuer has not acquired "
                 "(write-after-write hazard)";
        } else if (sh.writer != kNone && sh.writer >= numThreads &&
                   (sh.flags & kWritten) && sh.reader[0] == kNone &&
                   sh.reader[1] == kNone) {
          what = "that an earlier TMA copy at {1} wrote and no thread of the "
                 "block has read (write-after-write hazard)";
        } else {
          for (int r = 0; r < 2 && what.empty(); ++r)
            if (sh.reader[r] != kNone && sh.reader[r] < numThreads &&
                c.known[sh.reader[r]] < sh.readClock[r]) {
              what = "after a read by " + threadName(sh.reader[r]) +
                     " at {1} that the issuer has not acquired (no release "
                     "of it reached the issuer: write-after-read hazard)";
              other = sh.readWhere[r];
            }
        }
        if (!what.empty()) {
          report("racecheck",
                 "TMA multicast by " + issuer +
                     " at {0} to shared memory at "
                     "offset " +
                     std::to_string(offset + i) + " of block " +
                     std::to_string(clusterRank) + " of the cluster " + what,
                 c.where, other);
          reported = true;
        }
      }
    }
    if (!landCopy(c.pieces, c.bar, c.bytes, issuer, c.where))
      return;
  }
}

int Worker::windowOf(const void *address, size_t &offset) const {
  if (!launch.cluster)
    return -1;
  const ClusterState &cs = *launch.cluster;
  auto a = reinterpret_cast<uintptr_t>(address);
  for (unsigned r = 0; r < cs.size; ++r) {
    auto base = reinterpret_cast<uintptr_t>(cs.shared[r]);
    if (cs.shared[r] && a >= base && a - base < sharedBytes) {
      offset = a - base;
      return int(r);
    }
  }
  return -1;
}

void Worker::bulkCopyShared(void *dst, const void *src, uint32_t bytes,
                            uint64_t *bar, uint64_t where) {
  const std::string what = "cp.async.bulk.shared::cluster.shared::cta by " +
                           threadName(current->linear) + " at {0}";
  auto base = reinterpret_cast<uintptr_t>(shared);
  auto s = reinterpret_cast<uintptr_t>(src);
  if (s < base || s - base + bytes > sharedBytes) {
    trap("memcheck",
         what + ": the source (" + std::to_string(bytes) +
             " bytes) is not inside the block's " +
             std::to_string(sharedBytes) + " bytes of shared memory",
         where);
    return;
  }
  if (!launch.cluster) {
    // A cluster of one block: shared::cluster is the block's own window.
    auto d = reinterpret_cast<uintptr_t>(dst);
    auto b = reinterpret_cast<uintptr_t>(bar);
    if (d < base || d - base + bytes > sharedBytes || b < base ||
        b - base + 8 > sharedBytes) {
      trap("memcheck",
           what + ": the destination or the mbarrier is outside the "
                  "block's shared memory (a cluster of one block)",
           where);
      return;
    }
    tlc_sim_bulk_piece piece{dst, src, bytes};
    bulkCopy(&piece, 1, bar, where);
    return;
  }
  ClusterState &cs = *launch.cluster;
  size_t dstOffset = 0, barOffset = 0;
  int rank, barRank;
  {
    std::lock_guard<std::mutex> lock(cs.mutex);
    rank = windowOf(dst, dstOffset);
    barRank = windowOf(bar, barOffset);
  }
  if (rank < 0 || dstOffset + bytes > sharedBytes) {
    trap("memcheck",
         what + ": the destination (" + std::to_string(bytes) +
             " bytes) is not inside the shared memory of a block of the "
             "cluster (each has " +
             std::to_string(sharedBytes) + " bytes)",
         where);
    return;
  }
  if (barRank != rank || barOffset + 8 > sharedBytes) {
    trap("memcheck",
         what + ": the mbarrier is not in the shared memory of block " +
             std::to_string(rank) +
             " of the cluster, whose shared memory the copy writes",
         where);
    return;
  }
  if (unsigned(rank) == clusterRank) {
    tlc_sim_bulk_piece piece{dst, src, bytes};
    bulkCopy(&piece, 1, bar, where);
    return;
  }
  if (!access(src, bytes, TLC_SIM_LOAD, -1, where))
    return;
  RemoteBulkCopy c;
  c.issuerRank = clusterRank;
  c.issuer = current->linear;
  c.where = where;
  c.bytes = bytes;
  // The source is read now (the issuer may reuse it once the copy has read
  // it; a receiver's wait orders only the landing).
  c.data = std::make_shared<std::vector<unsigned char>>(
      static_cast<const unsigned char *>(src),
      static_cast<const unsigned char *>(src) + bytes);
  c.known.assign(numThreads, 0);
  size_t row = size_t(cs.size) * numThreads;
  unsigned t = current->linear;
  if (clusterKnows.size() == size_t(numThreads) * row)
    for (unsigned u = 0; u < numThreads; ++u)
      c.known[u] =
          clusterKnows[size_t(t) * row + size_t(rank) * numThreads + u];
  std::lock_guard<std::mutex> lock(cs.mutex);
  if (!cs.started[rank] || cs.done[rank]) {
    report("memcheck",
           what + " into block " + std::to_string(rank) + " of the cluster: " +
               (cs.done[rank] ? "that block has exited, its shared memory is "
                                "gone"
                              : "that block has not started"),
           where);
    return;
  }
  c.pieces.push_back({cs.shared[rank] + dstOffset, c.data->data(), bytes});
  c.bar = reinterpret_cast<uint64_t *>(cs.shared[rank] + barOffset);
  cs.incoming[rank].push_back(std::move(c));
}
