//===- grid.h - Grid-wide barrier, T.sync_grid (sim) ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sim device's tlc_device/hip/grid.h. On the GPU, HIP's grid barrier
// (ROCm's __ockl_grid_sync, what this_grid().sync() calls) waits for every
// thread of every workgroup of a cooperative launch
// (hipModuleLaunchCooperativeKernel); here it is the simulator's grid
// barrier, which keeps every block of such a launch resident at once
// (runtime/lib/sim/Grid.cpp) and orders the global accesses before it, in
// any block, before those after it (racecheck).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_GRID_H
#define TLC_DEVICE_HIP_GRID_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

/// T.sync_grid.
TLC_SIM_PRIMITIVE inline void syncGrid() { sim::api->gridSync(TLC_SIM_HERE); }

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_GRID_H
