//===- grid.h - Grid-wide barrier (T.sync_grid) -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.sync_grid: every thread of every block waits until all have arrived.
// Cooperative groups' grid barrier, valid only in a cooperative launch
// (hipModuleLaunchCooperativeKernel), which the manifest's `"cooperative": true`
// asks the runtime for; the runtime refuses a grid whose blocks cannot all
// be resident at once (they would wait forever). Included by generated
// sources that call it only.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_GRID_H
#define TLC_DEVICE_HIP_GRID_H

#include <hip/hip_cooperative_groups.h>

namespace tlc {
namespace hip {

/// T.sync_grid.
__device__ __forceinline__ void syncGrid() {
  cooperative_groups::this_grid().sync();
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_GRID_H
