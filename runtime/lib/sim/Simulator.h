//===- Simulator.h - SIMT execution of simulated CUDA kernels ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The core of the `sim` device. Global memory lives in an Arena (one
// reserved range, allocations with red zones, so memcheck knows every
// buffer). A launch runs the grid's blocks on worker OS threads; a worker
// runs one block at a time, each CUDA thread a Fiber, round robin until
// every thread blocks (barrier, warp collective) or exits. A cooperative
// launch (T.sync_grid) has a worker per block, every block resident at
// once, and the workers take turns between grid barriers (Grid.cpp):
//
//   * barriers (bar.sync id, count) release when their count has arrived;
//   * the grid barrier releases when every thread of every block has;
//   * warp collectives (shuffles, votes, ldmatrix, mma) run once all lanes
//     of their mask have arrived at the same one;
//   * cp.async copies wait in their thread's queue until a wait covers
//     their group.
//
// Every access to shared memory is checked against a per-byte shadow with
// vector clocks advanced by barriers (racecheck: read-after-write,
// write-after-read, write-after-write between threads with no barrier
// between them; reads of bytes a cp.async is still writing), every access
// to global or shared memory against the
// buffers' bounds (memcheck), every non-atomic access to global memory
// against the other accesses of the launch (GlobalShadow.h: blocks are
// ordered only by fences with atomics and by grid barriers, threads of a
// block by its barriers), and a block whose threads
// can no longer make progress is reported with where each one waits
// (synccheck). A kernel compiled with TLC_SIM_INITCHECK tracks the
// definedness of every value (tlc_sim/initcheck.h); an undefined value is
// reported where it is used: a branch, an address, a divisor, an atomic's
// operand (reported by the kernel's run-time library), a store to global
// memory (checked by the worker after the store) (initcheck). A launch
// whose blocks perform atomics on global memory (or every launch, with
// OrderCheck::Always) runs twice, its blocks in opposite orders, and
// results that differ are reported (ordercheck).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_SIM_SIMULATOR_H
#define TLC_RUNTIME_SIM_SIMULATOR_H

#include "Arena.h"
#include "SharedRedZones.h"
#include "tlc_sim/abi.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tlc::runtime::sim {

class GlobalShadow;

/// One finding of the checkers. Places are `where` values (tlc_sim/abi.h).
struct Finding {
  /// racecheck, memcheck, initcheck, synccheck, trap.
  std::string checker;
  /// What happened and who did it, with `{0}` / `{1}` where the places go.
  std::string message;
  uint64_t where = 0, otherWhere = 0;
  /// How many times the same finding (checker and places) occurred.
  uint64_t count = 1;
};

/// One launch of a kernel entry.
struct LaunchConfig {
  void (*invoke)(void **args) = nullptr;
  void **args = nullptr;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned dynamicSharedMemory = 0;
  unsigned numWorkers = 1;
  /// Seconds after which the launch is stopped as too large to simulate
  /// (0: no limit); the finding says how far it got and suggests sizes.
  double timeLimit = 0;
  /// Runs the launch twice, its blocks handed out first to last and then
  /// last to first, from the same global memory, and reports bytes whose
  /// results differ (ordercheck): blocks that communicate through global
  /// memory with nothing ordering them. Atomics: only a launch whose first
  /// run performed an atomic on global memory runs again (the global
  /// racecheck sees every other exchange between blocks, not atomics). The
  /// two runs compared use one worker, so that their orders are exact.
  enum class OrderCheck { Off, Atomics, Always };
  OrderCheck orderCheck = OrderCheck::Atomics;
  /// A cooperative launch (T.sync_grid): every block resident at once, on
  /// a worker of its own (numWorkers is not used), the blocks taking turns
  /// between grid barriers in the order they are handed out. The caller
  /// checks that the grid could be resident on the simulated GPU.
  bool cooperative = false;
  /// Blocks per thread-block cluster along x, y, z (the grid a multiple of
  /// it): the blocks of each cluster are resident together, on a worker
  /// each, taking turns (numWorkers is not used); the clusters run one
  /// after another.
  unsigned cluster[3] = {1, 1, 1};
  /// Bytes between shared buffers that no access may touch (memcheck), in
  /// dynamicSharedMemory, which includes them (SharedRedZones.h); null: none.
  const SharedRedZonePlan *redZones = nullptr;
};

/// Runs launches of one loaded kernel shared object.
class Simulator {
public:
  explicit Simulator(const tlc_sim_kernel_api &kernel);

  /// Runs \p config to completion (or until a block traps or deadlocks);
  /// returns the findings (empty when the launch was clean).
  std::vector<Finding> launch(const LaunchConfig &config);

  /// The table the kernel's shared object was bound to.
  static const tlc_sim_host_api &hostApi();

private:
  /// One run of \p config, its blocks handed out last to first when
  /// \p reverse; \p globals receives its global racecheck's records.
  /// One run of the launch; \p atomics, if given, says whether a block
  /// performed an atomic on global memory.
  std::vector<Finding> run(const LaunchConfig &config, bool reverse,
                           std::unique_ptr<GlobalShadow> *globals,
                           bool *atomics = nullptr);
  const tlc_sim_kernel_api &kernel;
};

} // namespace tlc::runtime::sim

#endif // TLC_RUNTIME_SIM_SIMULATOR_H
