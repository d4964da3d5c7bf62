//===- Worker.h - One simulated block at a time (sim) -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A Worker runs the blocks of a launch on one OS thread, one block at a
// time, each CUDA thread a Fiber (Simulator.h describes the scheduling and
// the checkers); in a cooperative launch it runs one block, resident with
// all the others (Grid.cpp). Worker.cpp holds the scheduler and the
// synchronisation (barriers, mbarriers, warp collectives, deadlocks);
// WorkerMemory.cpp the memory checks and the asynchronous copies
// (cp.async, TMA); Fences.cpp and Grid.cpp the ordering between blocks.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_SIM_WORKER_H
#define TLC_RUNTIME_SIM_WORKER_H

#include "Arena.h"
#include "Fiber.h"
#include "GlobalShadow.h"
#include "Simulator.h"

#include <atomic>
#include <cstddef>
#include <chrono>
#include <condition_variable>
#include <csetjmp>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace tlc::runtime::sim {

inline constexpr uint16_t kNone = 0xFFFF;

/// The transaction count of an mbarrier word (tlc_device/cuda/tma.h: bits
/// 32-62, a signed 31-bit count: bytes may complete before they are
/// expected), and its bound in the PTX ISA (2^20 - 1 either way).
inline constexpr int64_t kMaxTxCount = (int64_t(1) << 20) - 1;
inline int64_t mbarrierTxCount(uint64_t w) {
  int64_t tx = int64_t((w >> 32) & 0x7FFFFFFFu);
  return tx & 0x40000000 ? tx - 0x80000000LL : tx;
}
inline uint64_t withTxCount(uint64_t w, int64_t tx) {
  return (w & ~(uint64_t(0x7FFFFFFFu) << 32)) |
         ((uint64_t(tx) & 0x7FFFFFFFu) << 32);
}
inline constexpr unsigned kMaxFindings = 16;
inline constexpr size_t kFiberStack = 256 << 10;
/// Accesses up to this far below a block's shared memory are reported as
/// shared underruns (the kernel's access hooks pass them on).
inline constexpr uintptr_t kSharedUnderrun = TLC_SIM_SHARED_UNDERRUN;
/// The guard page below each stack of a worker's pool.
inline constexpr size_t kStackGuard = 4096;

enum class State {
  Runnable,
  AtBarrier,
  AtCollective,
  AtMbarrier,
  AtGridBarrier,
  AtClusterBarrier,
  Done
};

/// A cp.async waiting in its thread's queue.
struct Copy {
  unsigned char *dst;
  const unsigned char *src;
  uint32_t bytes, srcBytes;
  uint64_t group;
  uint64_t where;
};

/// A TMA copy in flight: issued, not landed.
struct BulkCopy {
  std::vector<tlc_sim_bulk_piece> pieces;
  uint64_t *bar;
  uint64_t bytes;
  unsigned issuer;
  uint64_t where;
};

/// A TMA multicast (cp.async.bulk.tensor ... .multicast::cluster) that a
/// block of the cluster issued into another block's shared memory: queued
/// for the receiving block, which lands it (its own shadow, clocks and
/// mbarrier) when none of its threads can run, as its own copies.
struct RemoteBulkCopy {
  /// Destinations in the receiver's shared memory.
  std::vector<tlc_sim_bulk_piece> pieces;
  /// The receiver's mbarrier (the issuer's offset).
  uint64_t *bar;
  uint64_t bytes;
  /// The issuing block's rank and thread.
  unsigned issuerRank, issuer;
  /// The source bytes of a DSMEM copy, read at issue (pieces point here).
  std::shared_ptr<std::vector<unsigned char>> data;
  /// Per thread of the receiver: the clock of it that the issuer had
  /// acquired (a release arrival of it on the issuer's mbarriers, the
  /// cluster barrier) when it issued the copy.
  std::vector<uint32_t> known;
  uint64_t where;
};

/// Clock slots of the copy engine: the TMA copies completing on one
/// mbarrier write as one agent of their own, whose writes a thread knows
/// only through a wait on that mbarrier.
inline constexpr unsigned kCopyAgents = 16;

struct Thread {
  /// At an mbarrier wait: the barrier and the parity waited for.
  const uint64_t *mbarrier = nullptr;
  uint32_t parity = 0;
  std::unique_ptr<Fiber> fiber;
  unsigned linear = 0;
  tlc_sim_indices indices{};
  State state = State::Done;
  uint64_t where = 0;
  unsigned barrier = 0;
  // Warp collective being waited at.
  const char *op = nullptr;
  uint64_t mask = 0;
  tlc_sim_warp_fn fn = nullptr;
  void *data = nullptr;
  // cp.async queue: copies, and the number of groups committed so far.
  std::vector<Copy> copies;
  uint64_t committed = 0;
  /// Cluster barrier phases arrived at and waited for (Cluster.cpp).
  uint64_t clusterArrivals = 0, clusterWaits = 0;
  /// An index fault was reported for the shared access that comes next:
  /// it is not checked again.
  bool indexFaulted = false;
};

/// The shadow of one byte of shared memory.
struct ShadowByte {
  uint32_t writeClock;
  uint16_t writer;
  uint16_t flags;
  uint32_t readClock[2];
  uint16_t reader[2];
  uint32_t pad;
  uint64_t writeWhere;
  uint64_t readWhere[2];
};
/// kPending: a cp.async (or, with kBulk, a TMA copy) is writing the byte.
enum : uint16_t { kWritten = 1, kPending = 2, kBulk = 4 };
/// The leading bytes of a ShadowByte that decide the racecheck's verdict
/// (clocks, threads, flags; not the places).
inline constexpr size_t kShadowHistory = offsetof(ShadowByte, pad);
static_assert(offsetof(ShadowByte, reader) + sizeof(ShadowByte::reader) ==
                  kShadowHistory,
              "the history is contiguous");

struct Barrier {
  unsigned expected = 0;
  /// Threads waiting at it.
  std::vector<unsigned> arrived;
  /// Threads counted by bar.arrive, which went on without waiting.
  std::vector<unsigned> arrivedOnly;
};

class Worker;
/// The worker of the calling OS thread (during a launch).
extern thread_local Worker *currentWorker;

/// Where a simulated thread faulted (SIGSEGV/SIGBUS in kernel code: an
/// access far outside any buffer, a fiber stack overflow): the handler
/// jumps back to the worker's scheduler, which reports it.
struct Fault {
  sigjmp_buf jump;
  bool armed = false;
  uintptr_t address = 0;
  uint64_t pc = 0;
  int signal = 0;
};
/// The fault record of the running block (during a launch).
extern thread_local Fault *currentFault;

struct ReleaseLog;
/// A thread's acquisition: the first \p count releases of \p log.
struct Acquired {
  const ReleaseLog *log;
  size_t count;
};
/// What a __threadfence followed by an atomic released: the block, the
/// clock of each of its threads that the fencing thread knew at the fence,
/// and the releases of other blocks it had acquired by then (passed on:
/// release/acquire chains through several blocks and atomics).
struct Release {
  uint64_t block;
  std::vector<uint32_t> clocks;
  std::vector<Acquired> inherited;
};
/// The releases on one global address, in the order of their atomics.
struct ReleaseLog {
  std::deque<Release> entries;
};

/// Global accesses a block makes between two checks of the time limit and
/// of an abort that do not wait for its threads to block (a thread spinning
/// on a flag never does); in a cooperative launch, in one turn before it
/// passes the turn on (Grid.cpp).
inline constexpr uint64_t kSlice = uint64_t(1) << 20;

/// The grid barrier of a cooperative launch (T.sync_grid; Grid.cpp). Every
/// block has a worker, an OS thread, of its own, so that all are resident
/// at once; the workers take turns in the order the blocks were handed out,
/// each running its block until it waits at the grid barrier or exits (or
/// has made kSlice global accesses), so a run is as deterministic as blocks
/// run one at a time.
struct GridState {
  std::mutex mutex;
  /// Per position: notified when the turn passes to it (only the block
  /// that may run wakes).
  std::unique_ptr<std::condition_variable[]> wake;
  /// The position, in the hand-out order, of the block that may run.
  uint64_t turn = 0;
  /// Passes the turn to \p position (with the mutex held).
  void give(uint64_t position) {
    turn = position;
    wake[position].notify_one();
  }
  /// Grid barriers completed; blocks waiting at the next one; blocks
  /// exited.
  uint64_t completed = 0, waiting = 0, exited = 0;
  /// Per position: its block has exited; it waits at the next barrier.
  std::vector<bool> done, arrived;
  /// Per linear block, the clocks of its threads when it arrived at grid
  /// barrier k (slot k % 2): its accesses up to them happen before what
  /// any block does after barrier k. (A block that passed barrier k reads
  /// slot k % 2; barrier k + 2, the next to write it, is reached only once
  /// every block has passed barrier k + 1.)
  std::vector<std::vector<uint32_t>> arrivals[2];
  /// The first block waiting at the next barrier, where it waits; the last
  /// block that exited.
  uint64_t waiter = 0, waitWhere = 0, exitedBlock = 0;
};

/// The cluster barrier (barrier.cluster) of one cluster (Cluster.cpp):
/// phases completed, arrivals in the current phase, threads of the cluster
/// that have exited; per phase parity, per rank * threads + thread, the
/// clock of a thread's release arrival (0: none, or relaxed). A thread
/// arrives at phase p + 2 only after every thread has waited for phase p,
/// so two slots suffice.
struct ClusterBarrier {
  uint64_t phase = 0, arrived = 0, exited = 0;
  std::vector<uint32_t> arrivals[2];
};

/// The blocks of one cluster of a cluster launch (Cluster.cpp): a worker,
/// an OS thread, per rank, so that they are resident together, each with
/// its own shared memory. They take turns as the blocks of a cooperative
/// launch do: the block of the rank whose turn it is runs until none of
/// its threads can (they wait at the cluster barrier, at an mbarrier a
/// peer may complete, or have exited), then passes the turn on; a whole
/// round of turns in which no block ran a thread is a deadlock. The
/// clusters run one after another, in the hand-out order.
struct ClusterState {
  std::mutex mutex;
  /// Per rank: notified when the turn passes to it.
  std::unique_ptr<std::condition_variable[]> wake;
  /// Blocks per cluster along x, y, z, and in all; clusters in the grid.
  unsigned dims[3] = {1, 1, 1};
  unsigned size = 1;
  uint64_t numClusters = 0;
  /// The next rank a worker takes.
  std::atomic<unsigned> nextRank{0};
  /// The cluster being run (its position in the hand-out order) and the
  /// rank whose turn it is.
  uint64_t cluster = 0;
  unsigned turn = 0;
  void give(unsigned rank) {
    turn = rank;
    wake[rank].notify_one();
  }
  /// Per rank: its block of the running cluster has started / exited.
  std::vector<bool> started, done;
  /// Per rank: its worker's shared memory, and that memory's definedness
  /// shadow (initcheck; null without it).
  std::vector<unsigned char *> shared;
  std::vector<unsigned char *> sharedShadow;
  /// Turns passed on in a row by blocks that ran no thread.
  unsigned idle = 0;
  ClusterBarrier barrier;
  /// Per (rank, barrier offset in its shared memory): per rank * threads +
  /// thread, the clock of that thread's last release arrival from the
  /// cluster on that mbarrier.
  std::map<std::pair<unsigned, uint64_t>, std::vector<uint32_t>> releases;
  /// Per rank: TMA multicasts from the other blocks not landed yet.
  std::vector<std::vector<RemoteBulkCopy>> incoming;
};

/// State shared by the workers of one launch.
struct LaunchState {
  const LaunchConfig *config;
  const tlc_sim_kernel_api *kernel;
  std::atomic<uint64_t> nextBlock{0}, blocksDone{0};
  /// Blocks are handed out last to first (the order check's second run).
  bool reverse = false;
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  std::atomic<bool> aborted{false};
  std::mutex mutex;
  std::vector<Finding> findings;
  std::map<std::tuple<std::string, uint64_t, uint64_t>, size_t> seen;
  /// The racecheck of global memory.
  std::unique_ptr<GlobalShadow> globals;
  /// Whether a block performed an atomic on global memory (ordercheck).
  std::atomic<bool> globalAtomics{false};
  /// Fence + atomic releases per global address (Fences.cpp).
  std::mutex releaseMutex;
  std::map<uintptr_t, ReleaseLog> releases;
  /// The grid barrier of a cooperative launch (null for other launches).
  std::unique_ptr<GridState> grid;
  /// The running cluster of a cluster launch (null for other launches).
  std::unique_ptr<ClusterState> cluster;

  void add(Finding f, bool fatal) {
    std::lock_guard<std::mutex> lock(mutex);
    // initcheck findings are warnings: they never end the launch.
    bool warning = f.checker == "initcheck";
    auto key = std::make_tuple(f.checker, f.where, f.otherWhere);
    auto it = seen.find(key);
    if (it != seen.end()) {
      ++findings[it->second].count;
    } else if ((warning ? warnings : errors) < kMaxFindings) {
      seen[key] = findings.size();
      findings.push_back(std::move(f));
      ++(warning ? warnings : errors);
    }
    if (fatal || errors >= kMaxFindings)
      aborted = true;
  }
  unsigned warnings = 0, errors = 0;
};

inline std::string tuple3(const uint32_t v[3]) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
         std::to_string(v[2]) + ")";
}

class Worker : public Ordering {
public:
  explicit Worker(LaunchState &launch);
  ~Worker();
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  /// Whether every fiber stack could be mapped.
  bool valid() const;
  /// Runs blocks until the grid is done or the launch aborted.
  void run();
  /// Ends the launch (once) with a "too large to simulate" finding.
  void reportTooLarge(const std::string &why);
  /// Seconds since the launch began.
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         launch.start)
        .count();
  }
  /// Seconds since the running block began.
  double blockSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         blockStart)
        .count();
  }

  bool before(unsigned me, unsigned thread, uint64_t clock) const override {
    return knows(me, thread) >= clock;
  }
  bool beforeAcross(unsigned me, uint64_t block, unsigned thread,
                    uint64_t clock) const override;

  // The host API, for the calling fiber.
  const tlc_sim_indices *indices() { return &current->indices; }
  bool access(const void *address, uint32_t bytes, int kind, int32_t thread,
              uint64_t where);
  void barrierArrive(uint32_t id, uint32_t count, uint64_t where);
  /// mbarrier.try_wait.parity in a loop: blocks until the phase completed.
  void mbarrierWait(const uint64_t *bar, uint32_t parity, uint64_t where);
  /// mbarrier.arrive's release: the caller's accesses so far happen before
  /// what a thread does after a wait on \p bar returns.
  void mbarrierRelease(const uint64_t *bar);
  /// The acquire of a wait on \p bar that returned in thread \p t.
  void mbarrierAcquire(unsigned t, const uint64_t *bar);
  /// Makes the threads whose mbarrier phase completed runnable; whether
  /// there was one.
  bool resolveMbarriers();
  void warpCollective(const char *op, uint64_t mask, tlc_sim_warp_fn fn,
                      void *data, uint64_t where);
  void cpAsync(void *dst, const void *src, uint32_t bytes, uint32_t srcBytes,
               uint64_t where);
  void cpAsyncCommit() { ++current->committed; }
  void cpAsyncWait(int32_t pending, uint64_t where);
  void bulkCopy(const tlc_sim_bulk_piece *pieces, uint32_t count, uint64_t *bar,
                uint64_t where);
  /// The same copy into the shared memory of every block of the cluster
  /// whose rank is set in \p ctaMask, each completing on its mbarrier at
  /// \p bar's offset (Cluster.cpp).
  /// A DSMEM bulk copy (tlc_sim_host_api::bulkCopyShared).
  void bulkCopyShared(void *dst, const void *src, uint32_t bytes, uint64_t *bar,
                      uint64_t where);
  /// The rank of the block of the running cluster whose shared window holds
  /// \p address (its offset in \p offset), or -1 (cluster mutex held).
  int windowOf(const void *address, size_t &offset) const;
  void bulkCopyCluster(const tlc_sim_bulk_piece *pieces, uint32_t count,
                       uint64_t *bar, uint32_t ctaMask, uint64_t where);
  [[noreturn]] void trap(const std::string &checker, const std::string &message,
                         uint64_t where, uint64_t otherWhere = 0);
  /// An undefined value decided a branch, formed an address or divided.
  void uninitUse(uint64_t where);
  /// __threadfence by the calling thread (Fences.cpp).
  void threadFence();
  /// The calling thread's atomic on \p address was performed: it acquires
  /// the releases before it.
  void atomicAcquire(const void *address);
  /// T.sync_grid by the calling thread (Grid.cpp).
  void gridArrive(uint64_t where);
  /// Whether thread \p thread of block \p block, at \p clock, arrived at a
  /// grid barrier that the running block has passed since (Grid.cpp).
  bool gridOrdered(uint64_t block, unsigned thread, uint64_t clock) const;
  // Thread-block clusters (Cluster.cpp), for the calling thread.
  const uint32_t *clusterDims() const { return clusterDimsOfLaunch; }
  void clusterArrive(bool relaxed, uint64_t where);
  void clusterWait(uint64_t where);
  void *mapShared(const void *address, uint32_t rank, uint64_t where);
  void mbarrierReleaseCluster(const uint64_t *bar, uint64_t where);
  /// Whether thread \p thread of block \p block, at \p clock, released
  /// (cluster barrier, remote mbarrier arrival) what thread \p me of the
  /// running block has acquired since.
  bool clusterOrdered(unsigned me, uint64_t block, unsigned thread,
                      uint64_t clock) const;

  /// memcheck of an element index outside its shared buffer (the sim's
  /// rewrite of the kernel source, SharedRedZones.h): reported with the
  /// buffer's extent.
  void sharedIndexFault(const char *name, int64_t index, uint32_t elemBytes,
                        uint32_t extentBytes, uint32_t offset, int kind,
                        uint64_t where);

private:
  void runBlock(uint64_t linearBlock);
  /// A cluster launch: runs this worker's rank of every cluster in turn.
  void runClusters();
  /// Waits until the running cluster is \p k and it is this rank's turn;
  /// false when the launch was aborted meanwhile.
  bool waitClusterTurn(uint64_t k);
  /// No thread of the running block can run: passes the turn to the next
  /// block of the cluster and waits until it comes back; false when a
  /// whole round of turns ran no thread (a deadlock of the cluster) or the
  /// launch was aborted.
  bool clusterYield();
  /// The running block has exited: passes the turn on (the next cluster
  /// starts when every block of this one has exited).
  void clusterExit();
  /// Makes the threads whose cluster barrier phase completed runnable;
  /// whether there was one.
  bool resolveClusterWaits();
  /// The running thread \p t has exited: the cluster barrier no longer
  /// waits for it.
  void clusterThreadExited();
  /// Thread \p t acquires the cluster's releases \p clocks (per rank *
  /// threads + thread).
  void clusterAcquire(unsigned t, const std::vector<uint32_t> &clocks);
  /// A cooperative launch (Grid.cpp). Waits until the block of position
  /// gridPosition may run (its turn, after the barriers it passed have
  /// completed); false when the launch was aborted meanwhile.
  bool waitTurn();
  /// Every thread of the running block waits at the grid barrier: arrives
  /// there, passes the turn on, and once the barrier has opened and the
  /// turn is back, releases the threads; false when the launch was aborted.
  bool gridBarrier();
  /// The running block has exited (or was abandoned): passes the turn on.
  void gridExit();
  /// The running block has made kSlice global accesses since the last
  /// check: ends the launch when it has outlasted the time limit, abandons
  /// the block when the launch was aborted, and in a cooperative launch
  /// passes the turn on (gridSliceEnd).
  void sliceEnd();
  /// Passes the turn to the next block that can run (one may be spinning
  /// on a flag another sets) and waits until it comes back (Grid.cpp).
  void gridSliceEnd();
  /// The block is abandoned where its calling thread is (the launch ends).
  [[noreturn]] void abandonBlock();
  /// What reportTooLarge says of a block (or cooperative launch) that has
  /// outlasted the time limit; the seconds it has run.
  std::string stillRunning(double seconds) const;
  static void threadMain(void *arg);
  /// Suspends the calling fiber until the scheduler resumes it.
  void yield() {
    settleWrite(current->linear);
    main.switchFrom(*current->fiber);
  }
  /// A global write-after-write found at a store, reported only if the
  /// store changes the bytes (threads of a replicated fragment that store
  /// the same value do not race in effect): checked after the store, at
  /// the thread's next access or when it blocks or exits.
  struct PendingWrite {
    bool armed = false;
    const unsigned char *address = nullptr;
    uint32_t bytes = 0;
    unsigned char before[16];
    Finding finding;
  };
  void settleWrite(unsigned t) {
    if (t < pendingStores.size() && pendingStores[t].buffer)
      settleStore(t);
    if (t >= pendingWrites.size() || !pendingWrites[t].armed)
      return;
    PendingWrite &p = pendingWrites[t];
    p.armed = false;
    if (std::memcmp(p.address, p.before, p.bytes) != 0)
      launch.add(std::move(p.finding), /*fatal=*/false);
  }
  [[noreturn]] void exitThread();

  /// A store to global memory whose bytes' definedness is checked once it
  /// has happened (at the thread's next access, or when it blocks or exits):
  /// an undefined value stored to global memory is reported (initcheck).
  struct PendingStore {
    const Arena::Buffer *buffer = nullptr;
    uintptr_t address = 0;
    uint32_t bytes = 0;
    uint64_t where = 0;
  };
  void settleStore(unsigned t);
  /// The definedness shadow of \p bytes at \p address in global memory,
  /// null when the kernel has none.
  unsigned char *globalShadow(const void *address) const {
    auto a = reinterpret_cast<uintptr_t>(address);
    return arenaShadow && a - arenaBase < arenaSize
               ? arenaShadow + (a - arenaBase)
               : nullptr;
  }
  /// Before the simulator calls kernel code (a warp collective's function)
  /// with \p bytes at \p data, which it wrote on the calling fiber's
  /// stack: marks them and the call's parameters defined.
  void defineForCall(const void *data, size_t bytes);
  /// Copies the definedness of a copy of \p bytes from global \p src
  /// (null: zeros) to shared memory at \p offset (cp.async, TMA).
  void copyDefinedness(size_t offset, const void *src, uint32_t bytes);

  /// What thread \p t knows of the clock of thread (or copy agent) \p u.
  uint32_t knows(unsigned t, unsigned u) const {
    if (t == u)
      return clock[t];
    uint32_t k = base[u];
    if (!overlay.empty())
      k = std::max(k, overlay[size_t(t) * numClocks + u]);
    return k;
  }
  /// The overlay, allocated on first use.
  void needOverlay() {
    if (overlay.empty())
      overlay.assign(size_t(numThreads) * numClocks, 0);
  }
  /// The copy agent of TMA copies completing on \p bar.
  unsigned copyAgent(const uint64_t *bar);
  /// Performs every TMA copy in flight and completes its bytes on its
  /// mbarrier.
  void landBulkCopies();
  /// Writes \p pieces (a copy of \p bytes by the copy agent of \p bar),
  /// then completes the bytes on \p bar; false when that aborted the block.
  bool landCopy(const std::vector<tlc_sim_bulk_piece> &pieces, uint64_t *bar,
                uint64_t bytes, const std::string &issuer, uint64_t where);
  /// Whether TMA multicasts of the cluster's other blocks wait to land
  /// here.
  bool hasIncoming();
  /// Lands them (racecheck against what their issuers had acquired).
  void landIncoming();
  bool ordered(unsigned t, uint16_t other, uint32_t otherClock) const {
    return other == kNone || other == t || knows(t, other) >= otherClock;
  }
  /// Resumes \p participants after a barrier, each learning what every
  /// participant and every one of \p senders (bar.arrive) knew.
  void release(const std::vector<unsigned> &participants,
               const std::vector<unsigned> &senders = {});

  /// What is missing between two accesses, the earlier one by \p other.
  std::string noOrder(unsigned other) const {
    return other >= numThreads
               ? " with no wait on the copy's mbarrier between them"
               : " with no barrier between them";
  }
  std::string threadName(unsigned t) const {
    if (t >= numThreads)
      return "the TMA copy engine";
    return "thread " + tuple3(threads[t].indices.thread) + " of block " +
           tuple3(threads[t].indices.block);
  }
  void report(const std::string &checker, const std::string &message,
              uint64_t where, uint64_t otherWhere = 0) {
    Finding f;
    f.checker = checker;
    f.message = message;
    f.where = where;
    f.otherWhere = otherWhere;
    launch.add(std::move(f), /*fatal=*/false);
  }
  /// memcheck of the red zones between shared buffers (LaunchConfig::
  /// redZones): false, and reported, when the access touches one.
  bool checkRedZones(unsigned t, size_t offset, uint32_t bytes, int kind,
                     uint64_t where);
  /// A shared memory offset as the printed kernel addresses it.
  std::string printedOffset(size_t offset) const {
    return std::to_string(
        launch.config->redZones
            ? launch.config->redZones->printedOffset(uint32_t(offset))
            : offset);
  }
  void checkShared(unsigned t, size_t offset, uint32_t bytes, int kind,
                   uint64_t where);
  void checkGlobal(unsigned t, const Arena::Buffer &b, uintptr_t address,
                   uint32_t bytes, int kind, uint64_t where);
  void completeCopy(Thread &t, const Copy &c);
  void reportDeadlock();
  /// With no thread runnable: completes every `activemask` collective with
  /// the lanes of its warp that wait at it from the same place (the lanes
  /// that are converged there; the others are blocked elsewhere or have
  /// exited). Whether any was completed.
  bool resolveActiveMasks();

  LaunchState &launch;
  Fiber main;
  std::vector<Thread> threads;
  unsigned numThreads = 0;
  Thread *current = nullptr;
  bool blockAborted = false;
  /// The linear index of the running block.
  uint64_t currentBlock = 0;
  /// A cooperative launch: the running block's position in the hand-out
  /// order, the grid barriers it has passed, its threads waiting at the
  /// next one.
  uint64_t gridPosition = 0, gridPassed = 0;
  /// A cluster launch: this worker's rank, the launch's cluster dims, and
  /// per thread of the running block, what it knows of the clocks of each
  /// thread of each block of the cluster (numThreads x size x numThreads);
  /// whether the block ran a thread since its last turn.
  unsigned clusterRank = 0;
  uint32_t clusterDimsOfLaunch[3] = {1, 1, 1};
  std::vector<uint32_t> clusterKnows;
  bool clusterProgress = false;
  /// Outside a cluster launch, the block's own cluster barrier (a cluster
  /// of one block).
  ClusterBarrier ownCluster;
  /// The cluster barrier of the running block; its blocks and the lock
  /// guarding it (none for a cluster of one).
  ClusterBarrier &clusterBarrier() {
    return launch.cluster ? launch.cluster->barrier : ownCluster;
  }
  unsigned clusterSize() const {
    return launch.cluster ? launch.cluster->size : 1;
  }
  std::unique_lock<std::mutex> clusterLock() {
    return launch.cluster ? std::unique_lock<std::mutex>(launch.cluster->mutex)
                          : std::unique_lock<std::mutex>();
  }
  /// Global accesses since the last sliceEnd().
  uint64_t sliceAccesses = 0;
  unsigned gridWaiting = 0;
  /// Per thread: its last store's write-after-write, to be settled.
  std::vector<PendingWrite> pendingWrites;
  /// When the running block began (its own time limit).
  std::chrono::steady_clock::time_point blockStart;
  unsigned char *shared = nullptr;
  uint32_t sharedBytes = 0;
  std::vector<ShadowByte> shadow;
  // Vector clocks (threads, then the copy agents): own clocks, what every
  // thread knows after the last full barrier, and per-thread knowledge from
  // partial (named) barriers and mbarrier waits (numThreads x numClocks).
  std::vector<uint32_t> clock, base, overlay;
  unsigned numClocks = 0;
  /// The mbarrier of each copy agent in use.
  std::vector<const uint64_t *> agentBars;
  /// TMA copies in flight, oldest first.
  std::vector<BulkCopy> bulkCopies;
  /// Per mbarrier: what its arrivers knew when they arrived (release);
  /// a wait that returns learns it (acquire).
  std::map<const uint64_t *, std::vector<uint32_t>> mbarrierClocks;
  Barrier barriers[16];
  /// Threads per warp (32) or wavefront (64) of the kernel's language.
  unsigned warpSize = 32;
  /// Lanes of each warp waiting at a warp collective.
  std::vector<unsigned> warpArrived;
  /// Per thread: its last global store, to be checked for definedness.
  std::vector<PendingStore> pendingStores;

  // Ordering between blocks (Fences.cpp). Per thread: what it knew at its
  // last __threadfence (empty: none this block) of its block's clocks and
  // of other blocks' releases, and the releases its atomics acquired; the
  // releases every thread knows (a full barrier).
  std::vector<std::vector<uint32_t>> fenceClocks;
  std::vector<std::vector<Acquired>> fenceAcquired;
  std::vector<std::vector<Acquired>> threadAcquired;
  std::vector<Acquired> blockAcquired;
  /// An atomic on global \p address by thread \p t, after a fence:
  /// appends its release (called before the atomic is performed).
  void atomicRelease(unsigned t, uintptr_t address);
  /// A barrier of \p participants: each learns what the others acquired.
  void shareAcquired(const std::vector<unsigned> &participants);

  // Definedness (tlc_sim/initcheck.h), when the kernel tracks it: the
  // kernel's map for this OS thread, the fibers' stacks in one pool with
  // one shadow, each fiber's context, and the arena's shadow.
  tlc_sim_shadow_map *shadowMap = nullptr;
  char *stackPool = nullptr;
  unsigned char *stackPoolShadow = nullptr;
  size_t stackPoolBytes = 0;
  std::vector<unsigned char> contexts;
  unsigned char *arenaShadow = nullptr;
  uintptr_t arenaBase = 0;
  size_t arenaSize = 0;
};

} // namespace tlc::runtime::sim

#endif // TLC_RUNTIME_SIM_WORKER_H
