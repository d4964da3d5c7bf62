//===- grid.h - Grid-wide barrier (T.sync_grid) -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.sync_grid: every thread of every block waits until all have arrived.
// The grid barrier of HIP's cooperative groups (this_grid().sync() is
// ROCm's device library function __ockl_grid_sync, in ockl.bc, which the
// HIP target links: the sources are compiled without ROCm's headers, so
// it is declared here). Valid only in a cooperative launch
// (hipModuleLaunchCooperativeKernel), which the manifest's `"cooperative":
// true` asks the runtime for; the runtime refuses a grid whose blocks
// cannot all be resident at once (they would wait forever). Included by
// generated sources that call it only.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_GRID_H
#define TLC_DEVICE_HIP_GRID_H

#include "tlc_device/hip/common.h"

extern "C" __device__ __attribute__((convergent)) void __ockl_grid_sync(void);

namespace tlc {
namespace hip {

/// T.sync_grid.
TLC_DEVICE void syncGrid() { __ockl_grid_sync(); }

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_GRID_H
