//===- grid.h - Grid-wide barrier, T.sync_grid (sim) ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sim device's tlc_device/cuda/grid.h. On the GPU, cooperative groups'
// this_grid().sync() is a barrier of every thread of every block of a
// cooperative launch (cuLaunchCooperativeKernel); here it is the
// simulator's grid barrier, which keeps every block of such a launch
// resident at once (runtime/lib/sim/Grid.cpp) and orders the global
// accesses before it, in any block, before those after it (racecheck).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_GRID_H
#define TLC_DEVICE_CUDA_GRID_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// T.sync_grid.
TLC_SIM_PRIMITIVE inline void syncGrid() { sim::api->gridSync(TLC_SIM_HERE); }

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_GRID_H
