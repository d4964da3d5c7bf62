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
/// and thread-block clusters with their cluster barrier.
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
  auto runBlock = [&](int64_t b) {
    int64_t x = b % gx, y = (b / gx) % gy, z = b / (gx * gy);
    body(x, y, z);
  };
  if (workers <= 1 || total == 1) {
    for (int64_t b = 0; b < total && !st.hasFailed(); ++b)
      runBlock(b);
    return;
  }
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t b = next++; b < total && !st.hasFailed(); b = next++)
      runBlock(b);
  };
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
  std::vector<std::thread> blocks;
  blocks.reserve(size_t(total));
  for (int64_t b = 0; b < total; ++b)
    blocks.emplace_back([&, b] {
      currentGridBarrier() = &grid;
      body(b % gx, (b / gx) % gy, b / (gx * gy));
      grid.exit();
    });
  for (std::thread &t : blocks)
    t.join();
}

/// The hardware barrier of a thread-block cluster (barrier.cluster.arrive /
/// .wait, PTX ISA): a block's arrival completes the current phase when
/// every block of the cluster has arrived; a wait ends once the phase of
/// the block's last arrival has completed. The CPU target runs a block as
/// one executor, so a block arrives once (its threads' arrivals are one
/// statement). A block that returns while others wait breaks the barrier.
class ClusterBarrier {
public:
  explicit ClusterBarrier(int64_t blocks) : blocks(blocks) {}
  /// Arrives; the phase the arrival belongs to.
  int64_t arrive() {
    std::lock_guard<std::mutex> lock(mutex);
    int64_t phase = completed;
    if (++arrived + exited == blocks)
      complete();
    return phase;
  }
  /// Waits for \p phase to complete; false when a block returned first.
  bool wait(int64_t phase) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return completed > phase || broken; });
    return completed > phase;
  }
  /// A block returned.
  void exit() {
    std::lock_guard<std::mutex> lock(mutex);
    ++exited;
    if (arrived > 0 && arrived + exited == blocks) {
      broken = true;
      changed.notify_all();
    }
  }

private:
  void complete() {
    arrived = 0;
    ++completed;
    changed.notify_all();
  }
  std::mutex mutex;
  std::condition_variable changed;
  int64_t blocks, arrived = 0, exited = 0, completed = 0;
  bool broken = false;
};

/// The cluster the calling host thread runs a block of.
struct ClusterContext {
  ClusterBarrier *barrier = nullptr;
  /// The block's rank in its cluster (x fastest) and the cluster's size.
  int64_t rank = 0, size = 1;
  /// The phase of an arrival not yet waited for (-1: none).
  int64_t pending = -1;
};
inline ClusterContext &currentCluster() {
  static thread_local ClusterContext cluster;
  return cluster;
}

/// launch() for a kernel of thread-block clusters that synchronise
/// (T.cluster_arrive / wait / sync): the clusters one after the other, the
/// blocks of each at once, each on a host thread of its own (the GPU
/// schedules a cluster's blocks together). The grid's extents must be
/// multiples of the cluster's (as cudaLaunchKernelEx requires).
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
  for (int64_t z0 = 0; z0 < gz; z0 += cz)
    for (int64_t y0 = 0; y0 < gy; y0 += cy)
      for (int64_t x0 = 0; x0 < gx; x0 += cx) {
        ClusterBarrier barrier(size);
        std::vector<std::thread> blocks;
        blocks.reserve(size_t(size));
        for (int64_t r = 0; r < size; ++r)
          blocks.emplace_back([&, r] {
            ClusterContext &c = currentCluster();
            c = ClusterContext{&barrier, r, size, -1};
            body(x0 + r % cx, y0 + (r / cx) % cy, z0 + r / (cx * cy));
            barrier.exit();
            c = ClusterContext();
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
    c.pending = c.barrier ? c.barrier->arrive() : 0;
  }
  if (!wait)
    return;
  if (c.pending < 0) {
    st.fail(loc, "T.cluster_wait without a T.cluster_arrive before it");
    return;
  }
  int64_t phase = c.pending;
  c.pending = -1;
  if (c.barrier && !c.barrier->wait(phase))
    st.fail(loc, "cluster barrier: a block of the cluster returned without "
                 "arriving (on a GPU the others would wait forever)");
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
