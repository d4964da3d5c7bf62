//===- sync.h - Named-barrier arrive, proxy fences, PDL (sim) ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sim device's tlc_device/cuda/sync.h. The simulator runs one grid at a
// time and has no async proxy, so the fence and griddepcontrol are no-ops
// (as on the GPU without a programmatic launch). bar.arrive counts at the
// simulator's named barrier without waiting.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_SYNC_H
#define TLC_DEVICE_CUDA_SYNC_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

TLC_SIM_PRIMITIVE inline void namedBarrierArrive(unsigned id,
                                                 unsigned numThreads) {
  sim::api->barrier(id | TLC_SIM_BARRIER_ARRIVE_ONLY, numThreads, TLC_SIM_HERE);
}
TLC_DEVICE void fenceProxyAsync() {}
TLC_DEVICE void pdlLaunchDependents() {}
TLC_DEVICE void pdlWaitPrimary() {}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_SYNC_H
