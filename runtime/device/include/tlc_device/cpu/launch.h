//===- cpu/launch.h - Block scheduling of CPU kernels -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The block scheduler (`launch`: the blocks of a grid on a pool of host
/// threads), cooperative launches with their grid-wide barrier (T.sync_grid),
/// thread-block clusters (their barrier, their blocks' shared memory) and
/// the launch queue that cluster launch control cancels blocks from.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_LAUNCH_H
#define TLC_DEVICE_CPU_LAUNCH_H

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "tlc_device/cpu/view.h"

namespace tlc {
namespace cpu {

//===----------------------------------------------------------------------===//
// Launch queues and cluster launch control
//===----------------------------------------------------------------------===//

/// The clusters of a launch (blocks, for a launch without clusters), handed
/// out in order, once each, both to the launcher, which starts them, and to
/// cluster launch control (T.clc_try_cancel), which cancels one that has
/// not started so that the asking block does its work instead.
class LaunchQueue {
public:
  LaunchQueue(int64_t gx, int64_t gy, int64_t gz, int64_t cx, int64_t cy,
              int64_t cz)
      : nx(gx / cx), ny(gy / cy), cx(cx), cy(cy), cz(cz),
        total(nx * ny * (gz / cz)) {}
  /// The next cluster not yet started or canceled; -1 when none is left.
  int64_t claim() {
    int64_t c = next.fetch_add(1);
    return c < total ? c : -1;
  }
  /// No cluster may be claimed any more (all run at once).
  void exhaust() { next.store(total); }
  /// The block index of cluster \p c's first block (rank 0).
  void firstBlock(int64_t c, int64_t (&xyz)[3]) const {
    xyz[0] = c % nx * cx;
    xyz[1] = c / nx % ny * cy;
    xyz[2] = c / (nx * ny) * cz;
  }

private:
  std::atomic<int64_t> next{0};
  int64_t nx, ny, cx, cy, cz, total;
};

/// The queue of the launch the calling host thread runs a block of.
inline LaunchQueue *&currentLaunchQueue() {
  static thread_local LaunchQueue *queue = nullptr;
  return queue;
}

/// Sets the calling host thread's launch queue for its lifetime.
struct LaunchQueueScope {
  LaunchQueue *saved;
  explicit LaunchQueueScope(LaunchQueue *q) : saved(currentLaunchQueue()) {
    currentLaunchQueue() = q;
  }
  ~LaunchQueueScope() { currentLaunchQueue() = saved; }
  LaunchQueueScope(const LaunchQueueScope &) = delete;
  LaunchQueueScope &operator=(const LaunchQueueScope &) = delete;
};

//===----------------------------------------------------------------------===//
// Block scheduling
//===----------------------------------------------------------------------===//

/// Runs \p body(bx, by, bz) for every block of the grid \p gx x \p gy x
/// \p gz, on up to \p workers host threads (in sequence when <= 1). Stops
/// handing out blocks once \p st has failed.
template <typename Body>
inline void launch(Status &st, int workers, int64_t gx, int64_t gy, int64_t gz,
                   const Body &body) {
  if (gx <= 0 || gy <= 0 || gz <= 0)
    return;
  int64_t total = gx * gy * gz;
  // Blocks are claimed from the launch's queue, which cluster launch
  // control (T.clc_try_cancel) also claims from.
  LaunchQueue queue(gx, gy, gz, 1, 1, 1);
  auto runBlock = [&](int64_t b) {
    int64_t x = b % gx, y = (b / gx) % gy, z = b / (gx * gy);
    body(x, y, z);
  };
  auto work = [&] {
    LaunchQueueScope scope(&queue);
    for (int64_t b = queue.claim(); b >= 0 && !st.hasFailed();
         b = queue.claim())
      runBlock(b);
  };
  if (workers <= 1 || total == 1) {
    work();
    return;
  }
  int n = int(std::min<int64_t>(workers, total));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
}

/// The grid-wide barrier of a cooperative launch (T.sync_grid): every block
/// runs on a host thread of its own, all at once, as a cooperative CUDA
/// launch keeps every block resident. A block that returns while others
/// wait at the barrier breaks it: those waits fail (on a GPU they would
/// never end).
class GridBarrier {
public:
  explicit GridBarrier(int64_t total) : total(total) {}
  /// Waits until every block of the grid has arrived; false when one
  /// returned instead.
  bool sync() {
    std::unique_lock<std::mutex> lock(mutex);
    if (broken)
      return false;
    int64_t generation = passed;
    if (++arrived + exited == total) {
      if (exited)
        broken = true;
      arrived = 0;
      ++passed;
      changed.notify_all();
      return !broken;
    }
    changed.wait(lock, [&] { return passed != generation || broken; });
    return !broken;
  }
  /// A block returned.
  void exit() {
    std::lock_guard<std::mutex> lock(mutex);
    ++exited;
    if (arrived > 0 && arrived + exited == total) {
      broken = true;
      changed.notify_all();
    }
  }

private:
  std::mutex mutex;
  std::condition_variable changed;
  int64_t total, arrived = 0, exited = 0, passed = 0;
  bool broken = false;
};

/// The barrier of the cooperative launch the calling host thread runs a
/// block of (null outside one).
inline GridBarrier *&currentGridBarrier() {
  static thread_local GridBarrier *grid = nullptr;
  return grid;
}

/// The most blocks a cooperative launch runs (one host thread each).
constexpr int64_t kMaxCooperativeBlocks = 4096;

/// launch() for a kernel that calls T.sync_grid: every block at once, each
/// on its own host thread, sharing one GridBarrier.
template <typename Body>
inline void launchCooperative(Status &st, const char *loc, int64_t gx,
                              int64_t gy, int64_t gz, const Body &body) {
  if (gx <= 0 || gy <= 0 || gz <= 0)
    return;
  int64_t total = gx * gy * gz;
  if (total > kMaxCooperativeBlocks) {
    char what[160];
    std::snprintf(what, sizeof what,
                  "a kernel that calls T.sync_grid runs every block at once; "
                  "%lld blocks are more than the CPU target runs (%lld)",
                  (long long)total, (long long)kMaxCooperativeBlocks);
    st.fail(loc, what);
    return;
  }
  GridBarrier grid(total);
  // Every block has started: cluster launch control cancels none.
  LaunchQueue queue(gx, gy, gz, 1, 1, 1);
  queue.exhaust();
  std::vector<std::thread> blocks;
  blocks.reserve(size_t(total));
  for (int64_t b = 0; b < total; ++b)
    blocks.emplace_back([&, b] {
      LaunchQueueScope scope(&queue);
      currentGridBarrier() = &grid;
      body(b % gx, (b / gx) % gy, b / (gx * gy));
      grid.exit();
    });
  for (std::thread &t : blocks)
    t.join();
}

//===----------------------------------------------------------------------===//
// Thread-block clusters
//===----------------------------------------------------------------------===//
//
// The blocks of a cluster run at once, each on a host thread of its own.
// What they share lives in one ClusterShared, under one mutex: the cluster
// barrier (barrier.cluster), the shared memory each block has allocated
// (so that a block reaches a peer's buffers: distributed shared memory,
// remote mbarrier arrivals), and a progress count. A block that waits for
// something only a peer can do (an arrival on its mbarrier, the cluster
// barrier, a peer's allocation) sleeps until the count moves; when every
// block still running waits so, none can make progress any more: the
// waits fail as a deadlock, as on a GPU they would never end.

/// The state the blocks of one running cluster share.
class ClusterShared {
public:
  explicit ClusterShared(int64_t blocks)
      : blocks(blocks), live(blocks), memory(size_t(blocks)) {}

  /// The mutex every access to shared state of the cluster holds
  /// (mbarrier words, the barrier, the memory table).
  std::mutex mutex;

  /// Something a waiting block may wait for happened (\p mutex held):
  /// every waiting block looks again, so none counts as stalled.
  void progressLocked() {
    ++progress;
    stalled = 0;
    changed.notify_all();
  }
  /// The progress count now (\p mutex held).
  uint64_t progressCount() const { return progress; }

  /// Waits (\p lock held on \p mutex) until the progress count moves from
  /// \p seen, the count when the caller last found it could not go on;
  /// false when every running block waits so since the last progress (a
  /// deadlock) or the cluster broke.
  bool stall(std::unique_lock<std::mutex> &lock, uint64_t seen) {
    if (progress != seen)
      return true;
    if (broken)
      return false;
    if (++stalled >= live) {
      broken = true;
      changed.notify_all();
      return false;
    }
    changed.wait(lock, [&] { return progress != seen || broken; });
    return !broken;
  }

  /// barrier.cluster.arrive: the phase the arrival belongs to.
  int64_t arrive() {
    std::lock_guard<std::mutex> lock(mutex);
    int64_t phase = completed;
    if (++arrived + exited == blocks) {
      arrived = 0;
      ++completed;
    }
    progressLocked();
    return phase;
  }
  /// barrier.cluster.wait for \p phase; false on a deadlock.
  bool wait(int64_t phase) {
    std::unique_lock<std::mutex> lock(mutex);
    while (completed <= phase)
      if (!stall(lock, progress))
        return false;
    return true;
  }
  /// Whether a block of the cluster has returned.
  bool anyExited() {
    std::lock_guard<std::mutex> lock(mutex);
    return exited > 0;
  }

  /// The calling block (\p rank) has finished: it makes no more progress.
  void exit() {
    std::lock_guard<std::mutex> lock(mutex);
    ++exited;
    --live;
    // The waiting blocks look again, and find a deadlock if it is one.
    progressLocked();
  }
  /// Waits until every block of the cluster has finished (their shared
  /// memory stays valid until then, as a GPU keeps a cluster's blocks
  /// resident while a peer may access them).
  void waitAllExited() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return live == 0; });
  }

  /// Block \p rank's shared allocation number memory[rank].size().
  void publish(int64_t rank, const void *base, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    memory[size_t(rank)].push_back({static_cast<const char *>(base), bytes});
    progressLocked();
  }
  /// The slot of block \p rank's allocation holding \p p and the offset of
  /// \p p in it; false when no allocation holds it (\p mutex held).
  bool find(int64_t rank, const void *p, size_t &slot, size_t &offset) const {
    const char *c = static_cast<const char *>(p);
    const auto &list = memory[size_t(rank)];
    for (size_t i = list.size(); i-- > 0;)
      if (c >= list[i].first &&
          c < list[i].first + std::max<size_t>(list[i].second, 1)) {
        slot = i;
        offset = size_t(c - list[i].first);
        return true;
      }
    return false;
  }
  /// The address of allocation \p slot of block \p rank at \p offset, or
  /// null while that block has not allocated it (\p mutex held).
  const char *at(int64_t rank, size_t slot, size_t offset) const {
    const auto &list = memory[size_t(rank)];
    return slot < list.size() ? list[slot].first + offset : nullptr;
  }

  const int64_t blocks;

private:
  std::condition_variable changed;
  int64_t live, stalled = 0, arrived = 0, exited = 0, completed = 0;
  uint64_t progress = 0;
  bool broken = false;
  std::vector<std::vector<std::pair<const char *, size_t>>> memory;
};

/// The cluster the calling host thread runs a block of.
struct ClusterContext {
  ClusterShared *shared = nullptr;
  /// The block's rank in its cluster (x fastest) and the cluster's size.
  int64_t rank = 0, size = 1;
  /// The phase of an arrival not yet waited for (-1: none).
  int64_t pending = -1;
  /// Whether the block has finished (ClusterShared::exit).
  bool exited = false;
};
inline ClusterContext &currentCluster() {
  static thread_local ClusterContext cluster;
  return cluster;
}

/// The block has finished: tells the cluster, then waits for its peers
/// (which may still access its shared memory). Once per block.
inline void clusterExit() {
  ClusterContext &c = currentCluster();
  if (!c.shared || c.exited)
    return;
  c.exited = true;
  c.shared->exit();
  c.shared->waitAllExited();
}

/// Declared after each shared buffer of a cluster kernel's block: its
/// destructor runs before the buffer's, at the end of the block, and ends
/// the block for the cluster (clusterExit: waiting for the other blocks,
/// which may still access the buffer) before the buffer is freed.
struct ClusterExitGuard {
  ClusterExitGuard() = default;
  ClusterExitGuard(const ClusterExitGuard &) = delete;
  ClusterExitGuard &operator=(const ClusterExitGuard &) = delete;
  ~ClusterExitGuard() { clusterExit(); }
};

/// Makes shared allocation \p base (\p bytes long) of the calling block
/// reachable from the other blocks of its cluster (nothing outside one).
inline void clusterPublish(const void *base, size_t bytes) {
  ClusterContext &c = currentCluster();
  if (c.shared)
    c.shared->publish(c.rank, base, bytes);
}

/// launch() for a kernel of thread-block clusters whose blocks work
/// together (the cluster barrier, their rank, each other's shared memory
/// and mbarriers): the clusters one after the other, the blocks of each at
/// once, each on a host thread of its own (the GPU schedules a cluster's
/// blocks together). The grid's extents must be multiples of the
/// cluster's (as cudaLaunchKernelEx requires).
template <typename Body>
inline void launchClusters(Status &st, const char *loc, int64_t gx,
                           int64_t gy, int64_t gz, int64_t cx, int64_t cy,
                           int64_t cz, const Body &body) {
  if (gx <= 0 || gy <= 0 || gz <= 0)
    return;
  if (gx % cx || gy % cy || gz % cz) {
    char what[200];
    std::snprintf(what, sizeof what,
                  "the grid (%lld, %lld, %lld) is not a multiple of the "
                  "cluster dimensions (%lld, %lld, %lld)",
                  (long long)gx, (long long)gy, (long long)gz, (long long)cx,
                  (long long)cy, (long long)cz);
    st.fail(loc, what);
    return;
  }
  int64_t size = cx * cy * cz;
  LaunchQueue queue(gx, gy, gz, cx, cy, cz);
  for (int64_t c = queue.claim(); c >= 0; c = queue.claim()) {
    int64_t first[3];
    queue.firstBlock(c, first);
    ClusterShared shared(size);
    std::vector<std::thread> blocks;
    blocks.reserve(size_t(size));
    for (int64_t r = 0; r < size; ++r)
      blocks.emplace_back([&, r] {
        LaunchQueueScope scope(&queue);
        ClusterContext &ctx = currentCluster();
        ctx = ClusterContext{&shared, r, size, -1, false};
        body(first[0] + r % cx, first[1] + (r / cx) % cy,
             first[2] + r / (cx * cy));
        clusterExit();
        ctx = ClusterContext();
      });
    for (std::thread &t : blocks)
      t.join();
    if (st.hasFailed())
      return;
  }
}

/// T.cluster_arrive (\p wait false), T.cluster_wait (\p arrive false) and
/// T.cluster_sync (both) for the calling block. A block outside a cluster
/// launch is a cluster of one: the barrier completes at once.
inline void clusterBarrier(Status &st, const char *loc, bool arrive,
                           bool wait) {
  ClusterContext &c = currentCluster();
  if (arrive) {
    if (c.pending >= 0) {
      st.fail(loc, "T.cluster_arrive: the block arrived already and has not "
                   "waited (an arrival without T.cluster_wait)");
      return;
    }
    c.pending = c.shared ? c.shared->arrive() : 0;
  }
  if (!wait)
    return;
  if (c.pending < 0) {
    st.fail(loc, "T.cluster_wait without a T.cluster_arrive before it");
    return;
  }
  int64_t phase = c.pending;
  c.pending = -1;
  if (c.shared && !c.shared->wait(phase))
    st.fail(loc, c.shared->anyExited()
                     ? "cluster barrier: a block of the cluster returned "
                       "without arriving (on a GPU the others would wait "
                       "forever)"
                     : "deadlock: the cluster barrier waits for a block of "
                       "the cluster that waits for something no block can "
                       "do any more");
}

/// T.sync_grid: waits for every block of the cooperative launch.
inline void syncGrid(Status &st, const char *loc) {
  GridBarrier *grid = currentGridBarrier();
  if (!grid)
    st.fail(loc, "T.sync_grid outside a cooperative launch");
  else if (!grid->sync())
    st.fail(loc, "T.sync_grid: a block of the grid returned without "
                 "reaching this barrier (every block must reach each grid "
                 "barrier; on a GPU the others would wait forever)");
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_LAUNCH_H
