//===- cpu/fibers.h - Fibers and mbarriers of CPU kernels -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Threads that wait for each other: the fibers (ucontext) a block's
/// branches run as when they hold mbarrier waits or named barriers of part
/// of the block, their deterministic scheduler and deadlock report, and the
/// mbarrier and named-barrier operations.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_FIBERS_H
#define TLC_DEVICE_CPU_FIBERS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include <ucontext.h>

#include "tlc_device/cpu/launch.h"
#include "tlc_device/cpu/threads.h"
#include "tlc_device/cpu/view.h"

namespace tlc {
namespace cpu {

//===----------------------------------------------------------------------===//
// Thread groups that wait for each other: fibers and mbarriers
//===----------------------------------------------------------------------===//
//
// A kernel whose threads wait for each other (mbarrier waits, named
// barriers of part of the block: hand-written warp-specialised kernels)
// cannot run its branches one after the other: the producer's branch waits
// for the consumer's arrivals and the other way round. There each branch
// on the thread index that holds such a wait runs as a fiber (ucontext) of
// the block's host thread, with the threads that take it; the fibers run
// one at a time and switch only where one waits, so a block runs the same
// way every time. A wait no fiber can end (no arrival or fiber completion
// over a whole round of the waiting fibers) is reported as a deadlock.

/// The fibers of the block that a host thread runs, and their scheduler.
class Fibers {
public:
  struct Fiber {
    ucontext_t context;
    std::function<void()> body;
    char *stack = nullptr;
    bool done = false;
    int group = 0;
    /// The wait the fiber gave way at last.
    const char *waitLoc = nullptr;
    const char *waitWhat = nullptr;
  };

  /// The scheduler of the calling host thread.
  static Fibers &current() {
    thread_local Fibers f;
    return f;
  }
  ~Fibers() {
    for (char *s : freeStacks)
      std::free(s);
  }

  /// Forgets the fibers a block that failed left behind (never resumed:
  /// the frames they refer to are gone); each block starts with this.
  void reset() {
    for (auto &f : fibers)
      if (f->stack)
        freeStacks.push_back(f->stack);
    fibers.clear();
    running = nullptr;
  }

  /// A new group of fibers that the caller joins.
  int newGroup() { return ++lastGroup; }

  /// Starts \p body as a fiber of \p group; it first runs when the caller
  /// waits (join or wait).
  void spawn(int group, std::function<void()> body) {
    auto f = std::make_unique<Fiber>();
    f->body = std::move(body);
    f->group = group;
    if (!freeStacks.empty()) {
      f->stack = freeStacks.back();
      freeStacks.pop_back();
    } else {
      f->stack = static_cast<char *>(std::malloc(kStackBytes));
    }
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = f->stack;
    f->context.uc_stack.ss_size = kStackBytes;
    f->context.uc_link = &mainContext;
    makecontext(&f->context, &Fibers::entry, 0);
    fibers.push_back(std::move(f));
    ++progress;
  }

  /// Something a waiter may be waiting for happened (an arrival).
  void madeProgress() { ++progress; }

  /// Waits until \p ready() holds: a fiber gives way to the others; the
  /// block's own code runs the fibers until it does. False (with \p st
  /// failed) on a deadlock or another error.
  template <typename Ready>
  bool waitUntil(Status &st, const char *loc, const char *what,
                 const Ready &ready) {
    if (running) {
      while (!ready()) {
        if (st.hasFailed())
          return false;
        running->waitLoc = loc;
        running->waitWhat = what;
        swapcontext(&running->context, &mainContext);
      }
      return !st.hasFailed();
    }
    // In a cluster launch a peer block may end the wait too (a remote
    // arrival): when no fiber of this block can go on, the block sleeps
    // until a block of the cluster makes progress, and only a wait of
    // every running block of the cluster is a deadlock.
    ClusterShared *cluster = currentCluster().shared;
    while (true) {
      uint64_t seen = 0;
      if (cluster) {
        std::lock_guard<std::mutex> lock(cluster->mutex);
        seen = cluster->progressCount();
      }
      if (ready())
        break;
      if (st.hasFailed()) {
        drain();
        return false;
      }
      if (!fibers.empty() && runRound())
        continue;
      if (cluster) {
        std::unique_lock<std::mutex> lock(cluster->mutex);
        if (cluster->stall(lock, seen))
          continue;
      }
      // Name a waiting fiber's wait rather than the join.
      for (const auto &f : fibers)
        if (!f->done && f->waitLoc) {
          loc = f->waitLoc;
          what = f->waitWhat;
          break;
        }
      char msg[320];
      std::snprintf(msg, sizeof msg,
                    "deadlock: %s waits for an arrival that none of the "
                    "%s's threads can make any more",
                    what, cluster ? "cluster" : "block");
      st.fail(loc, msg);
      drain();
      return false;
    }
    return !st.hasFailed();
  }

  /// Waits until every fiber of \p group has finished.
  void join(Status &st, const char *loc, int group) {
    waitUntil(st, loc, "a branch", [&] {
      for (const auto &f : fibers)
        if (f->group == group && !f->done)
          return false;
      return true;
    });
    reap();
  }

private:
  static constexpr size_t kStackBytes = size_t(8) << 20;

  static void entry() {
    Fibers &self = current();
    Fiber *f = self.running;
    f->body();
    f->done = true;
    ++self.progress;
    // uc_link returns to mainContext.
  }

  /// Resumes every unfinished fiber once; false when none made progress.
  bool runRound() {
    uint64_t before = progress;
    for (size_t i = 0; i < fibers.size(); ++i) {
      Fiber *f = fibers[i].get();
      if (f->done)
        continue;
      running = f;
      swapcontext(&mainContext, &f->context);
      running = nullptr;
    }
    reap();
    return progress != before;
  }

  /// Lets the fibers run to their end once the block has failed (each
  /// returns at its next wait).
  void drain() {
    while (true) {
      bool any = false;
      for (size_t i = 0; i < fibers.size(); ++i) {
        Fiber *f = fibers[i].get();
        if (f->done)
          continue;
        any = true;
        running = f;
        swapcontext(&mainContext, &f->context);
        running = nullptr;
      }
      if (!any)
        break;
    }
    reap();
  }

  void reap() {
    if (running)
      return;
    for (auto &f : fibers)
      if (f->done && f->stack) {
        freeStacks.push_back(f->stack);
        f->stack = nullptr;
      }
    fibers.erase(
        std::remove_if(fibers.begin(), fibers.end(),
                       [](const std::unique_ptr<Fiber> &f) { return f->done; }),
        fibers.end());
  }

  ucontext_t mainContext;
  std::vector<std::unique_ptr<Fiber>> fibers;
  std::vector<char *> freeStacks;
  Fiber *running = nullptr;
  uint64_t progress = 0;
  int lastGroup = 0;
};

/// An mbarrier (PTX ISA, "mbarrier"): the pending arrivals of the current
/// phase (bits 0-19), the arrival count (bits 20-39), the number of the
/// current phase modulo 8 (bits 40-42; bit 40 its parity) and its pending
/// transaction bytes (bits 43-63, two's complement, within the PTX ISA's
/// +-(2^20 - 1): a complete_tx may come before its expect_tx, as a peer's
/// multicast may), in the 64-bit word of a T.alloc_barrier element.
namespace mbarrier {
constexpr uint64_t kCountMask = (uint64_t(1) << 20) - 1;
constexpr uint64_t kPhaseMask = 7;
constexpr uint64_t kTxMask = (uint64_t(1) << 21) - 1;
inline uint64_t pending(uint64_t b) { return b & kCountMask; }
inline uint64_t expected(uint64_t b) { return b >> 20 & kCountMask; }
/// The current phase's number modulo 8.
inline uint64_t phaseNumber(uint64_t b) { return b >> 40 & kPhaseMask; }
inline uint64_t phase(uint64_t b) { return b >> 40 & 1; }
inline int64_t tx(uint64_t b) {
  int64_t t = int64_t(b >> 43 & kTxMask);
  return t >= int64_t(1) << 20 ? t - (int64_t(1) << 21) : t;
}
inline uint64_t make(uint64_t pending, uint64_t expected, uint64_t phase,
                     int64_t tx) {
  return pending | expected << 20 | (phase & kPhaseMask) << 40 |
         (uint64_t(tx) & kTxMask) << 43;
}
} // namespace mbarrier

/// Holds the cluster's mutex in a cluster launch, where a peer block may
/// touch the same mbarrier (nothing otherwise: a block is one host thread).
struct ClusterLock {
  std::unique_lock<std::mutex> lock;
  ClusterShared *shared = currentCluster().shared;
  ClusterLock() {
    if (shared)
      lock = std::unique_lock<std::mutex>(shared->mutex);
  }
};

/// mbarrier.init: \p count arrivals complete each phase; phase 0.
inline void mbarrierInit(uint64_t *bar, int64_t count) {
  *bar = mbarrier::make(uint64_t(count), uint64_t(count), 0, 0);
}

/// Completes the current phase when its arrivals and bytes are all in
/// (the cluster's lock held where there is one).
inline void mbarrierSettle(ClusterLock &held, uint64_t *bar) {
  uint64_t b = *bar;
  if (mbarrier::pending(b) == 0 && mbarrier::tx(b) == 0)
    *bar = mbarrier::make(mbarrier::expected(b), mbarrier::expected(b),
                          mbarrier::phaseNumber(b) + 1, 0);
  Fibers::current().madeProgress();
  if (held.shared)
    held.shared->progressLocked();
}

/// mbarrier.arrive: one arrival of the calling thread.
inline void mbarrierArrive(Status &st, const char *loc, uint64_t *bar) {
  ClusterLock held;
  uint64_t b = *bar;
  if (mbarrier::pending(b) == 0) {
    st.fail(loc, "an mbarrier arrival beyond the barrier's arrival count");
    return;
  }
  *bar = b - 1;
  mbarrierSettle(held, bar);
}

/// mbarrier.expect_tx: the current phase also waits for \p bytes.
inline void mbarrierExpectTx(uint64_t *bar, uint64_t bytes) {
  ClusterLock held;
  uint64_t b = *bar;
  *bar = mbarrier::make(mbarrier::pending(b), mbarrier::expected(b),
                        mbarrier::phaseNumber(b),
                        mbarrier::tx(b) + int64_t(bytes));
}

/// complete_tx (a TMA copy's completion): \p bytes of the current phase's
/// expected transaction bytes have arrived. The CPU target completes a
/// copy where it is issued, so the bytes must have been expected first.
inline void mbarrierCompleteTx(Status &st, const char *loc, uint64_t *bar,
                               uint64_t bytes) {
  ClusterLock held;
  uint64_t b = *bar;
  if (mbarrier::tx(b) < int64_t(bytes)) {
    st.fail(loc, "a TMA copy completes more bytes on its mbarrier than the "
                 "phase expects (T.mbarrier_expect_tx before the copy)");
    return;
  }
  *bar = mbarrier::make(mbarrier::pending(b), mbarrier::expected(b),
                        mbarrier::phaseNumber(b),
                        mbarrier::tx(b) - int64_t(bytes));
  mbarrierSettle(held, bar);
}

/// complete_tx of a copy another block issued (T.copy_cluster, the
/// response of T.clc_try_cancel_multicast): it may come before the
/// block's own expect_tx of the phase (the pending bytes go negative
/// until then, as the PTX ISA allows).
inline void mbarrierCompleteTxRemote(uint64_t *bar, uint64_t bytes) {
  ClusterLock held;
  uint64_t b = *bar;
  *bar = mbarrier::make(mbarrier::pending(b), mbarrier::expected(b),
                        mbarrier::phaseNumber(b),
                        mbarrier::tx(b) - int64_t(bytes));
  mbarrierSettle(held, bar);
}

/// mbarrier.try_wait.parity: whether the phase of parity \p parity has
/// completed (the current phase has the other parity).
inline bool mbarrierPhaseDone(const uint64_t *bar, uint64_t parity) {
  ClusterLock held;
  return mbarrier::phase(*bar) != (parity & 1);
}

/// The phase each group of a block's threads last waited for on each of
/// the block's mbarriers (the number modulo 8), for mbarrierWaitBegin.
struct MbarrierWaits {
  struct Entry {
    const uint64_t *bar;
    int64_t group;
    uint64_t phase;
  };
  std::vector<Entry> last;
};

/// The phase that a wait for parity \p parity on \p bar by the threads
/// starting at thread \p group waits for, relative to the current phase
/// (-1: completed already, 0: the current one). On a GPU a waiting thread
/// polls the barrier all along and sees each phase complete; the PTX ISA
/// names the phase by its parity: the current phase or the one before it.
/// The CPU runs a block's arrivals and its wait one after the other while
/// a peer block's arrivals may complete more than one phase in between
/// (TileLang's test_tilelang_language_cluster barrier_kernel: 4 x 128
/// arrivals on a barrier of 256, block 0 waits for parity 0). So a wait is
/// for the earlier of the PTX ISA's phase and the next phase of that
/// parity after the one these threads waited for last: a wait for the
/// phase a thread goes on to after its previous wait is not missed because
/// the barrier has gone past it.
inline int64_t mbarrierWaitBegin(MbarrierWaits &waits, const uint64_t *bar,
                                 uint64_t parity, int64_t group) {
  uint64_t b;
  {
    ClusterLock held;
    b = *bar;
  }
  uint64_t now = mbarrier::phaseNumber(b);
  // The PTX ISA's phase: the current one when it has this parity, else
  // the one before it (completed).
  int64_t target = mbarrier::phase(b) == (parity & 1) ? 0 : -1;
  MbarrierWaits::Entry *entry = nullptr;
  for (MbarrierWaits::Entry &e : waits.last)
    if (e.bar == bar && e.group == group)
      entry = &e;
  if (target == 0) {
    // The next phase of this parity after the last one waited for (before
    // the first wait: phase -2, so parity 0 waits for phase 0 and parity 1
    // for phase -1, which has completed), relative to now in -4..3 (a
    // barrier that went more than 4 phases past it keeps the PTX ISA's).
    uint64_t next = (entry ? entry->phase : uint64_t(6)) + 1;
    if ((next & 1) != (parity & 1))
      ++next;
    int64_t rel = int64_t((next - now + 4) & mbarrier::kPhaseMask) - 4;
    target = std::min<int64_t>(target, rel);
  }
  uint64_t waited = uint64_t(int64_t(now) + target) & mbarrier::kPhaseMask;
  if (entry)
    entry->phase = waited;
  else
    waits.last.push_back({bar, group, waited});
  return int64_t(waited);
}

/// Whether phase number \p waited (modulo 8, from mbarrierWaitBegin) of
/// \p bar has completed: the current phase is 1..4 phases past it.
inline bool mbarrierWaitDone(const uint64_t *bar, int64_t waited) {
  ClusterLock held;
  uint64_t now = mbarrier::phaseNumber(*bar);
  uint64_t ahead = (now - uint64_t(waited)) & mbarrier::kPhaseMask;
  return ahead >= 1 && ahead <= 4;
}

//===----------------------------------------------------------------------===//
// Distributed shared memory
//===----------------------------------------------------------------------===//

/// The address in block \p rank of the cluster of what \p local is in the
/// calling block's shared memory (mapa.shared::cluster): the same offset
/// in that block's allocation of the same buffer, once the block has made
/// it. Outside a cluster launch only rank 0 (the block itself) exists. On
/// an error (\p st failed) \p local.
template <typename T>
inline T *clusterPeer(Status &st, const char *loc, T *local, int64_t rank) {
  ClusterContext &c = currentCluster();
  char what[200];
  if (rank < 0 || rank >= c.size) {
    std::snprintf(what, sizeof what,
                  "block rank %lld is outside the cluster of %lld block(s)",
                  (long long)rank, (long long)c.size);
    st.fail(loc, what);
    return local;
  }
  if (!c.shared || rank == c.rank)
    return local;
  size_t slot = 0, offset = 0;
  bool found;
  {
    std::lock_guard<std::mutex> lock(c.shared->mutex);
    found = c.shared->find(c.rank, local, slot, offset);
  }
  if (!found) {
    st.fail(loc, "an access to another block of the cluster names memory "
                 "that is not the block's shared memory");
    return local;
  }
  const char *p = nullptr;
  if (!Fibers::current().waitUntil(
          st, loc, "an access to another block's shared memory", [&] {
            std::lock_guard<std::mutex> lock(c.shared->mutex);
            p = c.shared->at(rank, slot, offset);
            return p != nullptr;
          }))
    return local;
  return reinterpret_cast<T *>(const_cast<char *>(p));
}

/// \p v's window in block \p rank of the cluster (clusterPeer).
template <typename T, int R>
inline View<T, R> peerView(Status &st, const char *loc, View<T, R> v,
                           int64_t rank) {
  v.base = clusterPeer(st, loc, v.base, rank);
  return v;
}

//===----------------------------------------------------------------------===//
// Cluster launch control
//===----------------------------------------------------------------------===//
//
// clusterlaunchcontrol.try_cancel on the CPU: the request claims the next
// cluster of the launch's queue that has not started (which is then never
// started) and writes the response: on the CPU, the words {x, y, z,
// canceled} (the first block of the claimed cluster; the GPU's 16 bytes are
// opaque and only read through the query instructions, which decode these
// here); canceled is 0 when every cluster has started. The write completes
// 16 transaction bytes on the mbarrier, in every block of the cluster with
// multicast.

/// T.clc_try_cancel(response, bar) (\p multicast: _multicast).
inline void clcTryCancel(Status &st, const char *loc, void *response,
                         uint64_t *bar, bool multicast) {
  LaunchQueue *queue = currentLaunchQueue();
  int64_t claimed = queue ? queue->claim() : -1;
  uint32_t words[4] = {0, 0, 0, 0};
  if (claimed >= 0) {
    int64_t first[3];
    queue->firstBlock(claimed, first);
    for (int d = 0; d < 3; ++d)
      words[d] = uint32_t(first[d]);
    words[3] = 1;
  }
  int64_t blocks = multicast ? currentCluster().size : 1;
  for (int64_t r = 0; r < blocks; ++r) {
    void *to = multicast ? clusterPeer(st, loc, response, r) : response;
    uint64_t *done = multicast ? clusterPeer(st, loc, bar, r) : bar;
    if (st.hasFailed())
      return;
    {
      ClusterLock held;
      std::memcpy(to, words, sizeof words);
    }
    mbarrierCompleteTxRemote(done, sizeof words);
  }
}

/// clusterlaunchcontrol.query_cancel of the response at \p response:
/// \p what 0 is_canceled (0 or 1), 1..3 the first block's x, y, z.
inline int32_t clcQuery(const void *response, int what) {
  uint32_t words[4];
  {
    ClusterLock held;
    std::memcpy(words, response, sizeof words);
  }
  return what == 0 ? int32_t(words[3] != 0) : int32_t(words[what - 1]);
}

/// The threads of \p active that reach a named barrier (bar.sync id, n)
/// arrive together, and go on once \p count threads have arrived.
struct NamedBarriers {
  int64_t arrived[16] = {};
  uint64_t generation[16] = {};
};

/// bar.arrive id, count (T.named_barrier_arrive): \p threads threads arrive
/// at named barrier \p id and go on without waiting; the barrier completes,
/// releasing the threads that wait on it (namedBarrierSync), once \p count
/// threads have arrived, and starts over.
inline bool namedBarrierArrive(Status &st, const char *loc, NamedBarriers &nb,
                               int id, int64_t count, int64_t threads) {
  if (id < 0 || id > 15 || count <= 0) {
    st.fail(loc, "a named barrier needs an id in 0..15 and a positive "
                 "thread count");
    return false;
  }
  nb.arrived[id] += threads;
  if (nb.arrived[id] > count) {
    st.fail(loc, "more threads arrive at a named barrier than its thread "
                 "count");
    return false;
  }
  if (nb.arrived[id] == count) {
    nb.arrived[id] = 0;
    ++nb.generation[id];
    Fibers::current().madeProgress();
  }
  return true;
}

/// bar.sync id, count (T.sync_threads with an id): arrives as
/// namedBarrierArrive does, then waits until the barrier completes.
inline bool namedBarrierSync(Status &st, const char *loc, NamedBarriers &nb,
                             int id, int64_t count, int64_t threads) {
  uint64_t gen = id >= 0 && id <= 15 ? nb.generation[id] : 0;
  if (!namedBarrierArrive(st, loc, nb, id, count, threads))
    return false;
  if (nb.generation[id] != gen) // the last arrival completed it
    return true;
  return Fibers::current().waitUntil(
      st, loc, "a named barrier (T.sync_threads with an id)",
      [&] { return nb.generation[id] != gen; });
}

/// The number of threads of \p active (all \p n without a mask).
/// The first thread of \p active (0 when every thread is).
inline int64_t firstThread(const Lanes<uint8_t> *active, int64_t n) {
  if (active)
    for (int64_t t = 0; t < n; ++t)
      if ((*active)[t])
        return t;
  return 0;
}

inline int64_t countThreads(const Lanes<uint8_t> *active, int64_t n) {
  if (!active)
    return n;
  int64_t c = 0;
  for (int64_t t = 0; t < n; ++t)
    c += (*active)[t] ? 1 : 0;
  return c;
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_FIBERS_H
