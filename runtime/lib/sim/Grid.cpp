//===- Grid.cpp - The grid barrier of a cooperative launch (sim) ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.sync_grid waits for every thread of every block of the launch, which
// only a cooperative launch (cuLaunchCooperativeKernel,
// hipModuleLaunchCooperativeKernel) makes possible: all its blocks are
// resident at once. Here every block of such a launch has a worker of its
// own, and the workers take turns (GridState): the block of position 0 in
// the hand-out order runs until all its threads wait at the grid barrier
// (or it exits), then the block of position 1, and so on; when the last
// block arrives the barrier opens and the turns start again from position
// 0. One block runs at a time, as when blocks share one worker, so a run is
// deterministic and the order check's two runs (first to last, last to
// first) are exact orders. A turn also ends after kSlice global accesses,
// passing to the next block that has not arrived: the blocks of a
// cooperative launch may wait for each other without the barrier (spinning
// on a flag another block sets), which the GPU allows because they are all
// resident, and a block that spins forever is stopped at the time limit
// instead of hanging the launch.
//
// Every block of the grid must reach each grid barrier: on the GPU the
// barrier counts arriving blocks, and one that exited never arrives (a
// hang). A block that exits while others wait at the barrier, or a block
// that arrives after another exited, is reported (synccheck), as is a
// block whose threads do not all reach it (a deadlock of the block).
//
// The barrier orders memory: a block arriving records the clock of each
// of its threads; the global racecheck (GlobalShadow, through
// beforeAcross) takes an access of another block at or before that clock
// as ordered before what a block does after the barrier. Threads of one
// block are ordered by it as by __syncthreads.
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include <optional>

using namespace tlc::runtime::sim;

namespace {

/// The next position after \p from, cyclically, whose block can run: it
/// has neither exited nor arrived at the barrier (\p from itself when no
/// other can).
uint64_t nextTurn(const GridState &g, uint64_t from) {
  uint64_t n = g.done.size();
  for (uint64_t i = 1; i <= n; ++i) {
    uint64_t p = (from + i) % n;
    if (!g.done[p] && !g.arrived[p])
      return p;
  }
  return from;
}

/// The block indices of linear block \p b of grid \p grid.
std::string blockName(const unsigned grid[3], uint64_t b) {
  uint32_t block[3] = {uint32_t(b % grid[0]), uint32_t(b / grid[0] % grid[1]),
                       uint32_t(b / (uint64_t(grid[0]) * grid[1]))};
  return "block " + tuple3(block);
}

} // namespace

void Worker::gridArrive(uint64_t where) {
  Thread &t = *current;
  if (!launch.grid)
    trap("synccheck",
         "T.sync_grid (a grid-wide barrier) by " + threadName(t.linear) +
             " at {0} in a launch that is not cooperative: its blocks are "
             "not all resident at once, so the barrier would never open "
             "(the manifest's launch must say \"cooperative\": true)",
         where);
  t.state = State::AtGridBarrier;
  t.where = where;
  ++gridWaiting;
  yield();
}

bool Worker::waitTurn() {
  GridState &g = *launch.grid;
  std::unique_lock<std::mutex> lock(g.mutex);
  // Polled: an abort (a finding of another worker) does not notify.
  while (!launch.aborted &&
         !(g.turn == gridPosition && g.completed >= gridPassed))
    g.wake[gridPosition].wait_for(lock, std::chrono::milliseconds(100));
  return !launch.aborted;
}

bool Worker::gridBarrier() {
  GridState &g = *launch.grid;
  const unsigned *grid = launch.config->grid;
  std::vector<uint32_t> &arrival = g.arrivals[(gridPassed + 1) % 2]
                                             [currentBlock];
  arrival.assign(clock.begin(), clock.begin() + numThreads);
  std::optional<Finding> stuck;
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    if (g.exited) {
      Finding f;
      f.checker = "synccheck";
      f.message = blockName(grid, currentBlock) + " waits at T.sync_grid at " +
                  "{0}, which " + blockName(grid, g.exitedBlock) +
                  " never reaches: it has exited (every block of a " +
                  "cooperative launch must reach each grid barrier, or the " +
                  "barrier never opens)";
      f.where = threads[0].where;
      stuck = std::move(f);
    } else {
      if (g.waiting == 0) {
        g.waiter = currentBlock;
        g.waitWhere = threads[0].where;
      }
      ++g.waiting;
      g.arrived[gridPosition] = true;
      if (g.waiting == g.done.size()) {
        ++g.completed;
        g.waiting = 0;
        g.arrived.assign(g.arrived.size(), false);
        g.give(nextTurn(g, g.done.size() - 1));
      } else {
        g.give(nextTurn(g, gridPosition));
      }
    }
  }
  if (stuck) {
    launch.add(std::move(*stuck), /*fatal=*/true);
    blockAborted = true;
    return false;
  }
  ++gridPassed;
  if (!waitTurn())
    return false;
  // The barrier opened: the block's threads go on, each knowing what every
  // other one did (as after __syncthreads).
  gridWaiting = 0;
  std::vector<unsigned> all(numThreads);
  for (unsigned t = 0; t < numThreads; ++t)
    all[t] = t;
  release(all);
  return true;
}

void Worker::gridExit() {
  GridState &g = *launch.grid;
  std::optional<Finding> stuck;
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    g.done[gridPosition] = true;
    ++g.exited;
    g.exitedBlock = currentBlock;
    if (g.waiting && !launch.aborted) {
      Finding f;
      f.checker = "synccheck";
      f.message =
          blockName(launch.config->grid, currentBlock) +
          " exited without reaching T.sync_grid, where " +
          blockName(launch.config->grid, g.waiter) +
          (g.waiting > 1 ? " and " + std::to_string(g.waiting - 1) + " more"
                         : std::string()) +
          " wait at {0} (every block of a cooperative launch must reach "
          "each grid barrier, or the barrier never opens)";
      f.where = g.waitWhere;
      stuck = std::move(f);
    }
    g.give(nextTurn(g, gridPosition));
  }
  if (stuck)
    launch.add(std::move(*stuck), /*fatal=*/true);
}

void Worker::gridSliceEnd() {
  GridState &g = *launch.grid;
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    g.give(nextTurn(g, gridPosition));
  }
  if (!waitTurn())
    abandonBlock(); // the launch was aborted meanwhile
}

bool Worker::gridOrdered(uint64_t block, unsigned thread,
                         uint64_t clock) const {
  if (!launch.grid || gridPassed == 0)
    return false;
  const std::vector<uint32_t> &arrival =
      launch.grid->arrivals[gridPassed % 2][block];
  return thread < arrival.size() && arrival[thread] >= clock;
}
