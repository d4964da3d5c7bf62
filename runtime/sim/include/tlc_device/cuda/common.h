//===- common.h - Basics of tlc's CUDA device helpers (sim) -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `sim` device's version of tlc_device/cuda/common.h: the same names,
// for host compilation. The helpers that are plain CUDA C++ (atomic.h,
// convert.h, reduce.h, swizzle.h, warp.h) are compiled from the artifact's
// own copies on top of this; the ones written with PTX (cp_async.h,
// fast_math.h, ldmatrix.h, memory.h, mma.h, sync.h) have simulator versions next to
// this file, written from the PTX ISA's definitions.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_COMMON_H
#define TLC_DEVICE_CUDA_COMMON_H

#include "tlc_sim/builtins.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#define TLC_CUDA_HAS_FP8_TYPES 1

#define TLC_DEVICE inline __attribute__((always_inline))
/// TileLang's name for the same qualifiers (imported program source).
#ifndef TL_DEVICE
#define TL_DEVICE inline
#endif
/// The simulator compiles the device side once, as no architecture.
#define TLC_CUDA_ARCH 0

namespace tlc {
namespace cuda {

using half = ::__half;
using bfloat16 = ::__nv_bfloat16;

/// Offset of \p ptr in the block's shared memory (the shared window of the
/// generic address space starts at `smem` here).
TLC_DEVICE uint32_t sharedAddress(const void *ptr) {
  return static_cast<uint32_t>(static_cast<const unsigned char *>(ptr) - sim::sharedBase());
}

/// Lane index within the warp.
TLC_DEVICE unsigned laneId() { return sim::linearThread() & 31u; }

/// Reinterprets the bits of \p value as \p To (same size).
template <typename To, typename From> TLC_DEVICE To bitCast(const From &value) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  To out;
  std::memcpy(&out, &value, sizeof(To));
  return out;
}

/// Block-wide barrier (`__syncthreads`).
TLC_SIM_PRIMITIVE inline void syncThreads() {
  sim::api->barrier(0, 0, TLC_SIM_HERE);
}

/// bar.sync \p id, \p numThreads.
TLC_SIM_PRIMITIVE inline void namedBarrierSync(unsigned id,
                                               unsigned numThreads) {
  sim::api->barrier(id, numThreads, TLC_SIM_HERE);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_COMMON_H
