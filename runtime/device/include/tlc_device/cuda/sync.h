//===- sync.h - Named-barrier arrive, proxy fences, PDL ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Synchronisation instructions of tile.intrinsic that CUDA C++ has no
// builtin for: `bar.arrive` (T.named_barrier_arrive), `fence.proxy.async`
// (T.fence_proxy_async) and programmatic dependent launch's
// `griddepcontrol` (T.pdl_trigger / T.pdl_sync). The sm_90 instructions
// compile to nothing on older architectures, where no async proxy exists
// and grids are never launched programmatically (each starts after the
// previous one has finished, which is what griddepcontrol.wait waits for).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_SYNC_H
#define TLC_DEVICE_CUDA_SYNC_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// bar.arrive \p id, \p numThreads: counts the calling warp at named
/// barrier \p id without waiting (the producer side of a bar.sync).
TLC_DEVICE void namedBarrierArrive(unsigned id, unsigned numThreads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(numThreads) : "memory");
}

/// fence.proxy.async.shared::cta: orders this thread's generic-proxy
/// accesses of shared memory with later async-proxy ones (TMA, wgmma).
TLC_DEVICE void fenceProxyAsync() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

/// griddepcontrol.launch_dependents: lets the next grid of the stream
/// start its prologue.
TLC_DEVICE void pdlLaunchDependents() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// griddepcontrol.wait: waits until the grids this one depends on have
/// finished and their memory is visible.
TLC_DEVICE void pdlWaitPrimary() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_SYNC_H
