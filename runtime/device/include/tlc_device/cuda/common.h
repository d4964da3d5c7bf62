//===- common.h - Basics of tlc's CUDA device helpers -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tlc's own device-side headers for the CUDA C++ that `tlc-build
// --target=cuda:*` generates (compiled by nvcc or NVRTC). The generated code
// stays thin and calls these helpers for the hardware instructions:
//
//   memory.h    16/8/4-byte vector loads and stores, predicated variants
//   cp_async.h  cp.async global->shared copies, commit / wait groups
//   ldmatrix.h  ldmatrix x1/x2/x4 (+ .trans)
//   mma.h       mma.sync m16n8k16 (f16/bf16), m16n8k32 (s8, fp8)
//   reduce.h    warp shuffle and block all-reductions
//   convert.h   f32 <-> f16 / bf16 / fp8 conversions
//   atomic.h    atomics on f32/f16/bf16/integers, float max/min, ordered
//               loads and stores
//   sync.h      bar.arrive, fence.proxy.async, griddepcontrol (PDL)
//   warp.h      __match_all_sync as a value
//
// Everything is in namespace tlc::cuda and force-inlined.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_COMMON_H
#define TLC_DEVICE_CUDA_COMMON_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#if defined(__CUDACC__) && (__CUDACC_VER_MAJOR__ >= 12)
#include <cuda_fp8.h>
#define TLC_CUDA_HAS_FP8_TYPES 1
#endif

#ifndef __CUDACC_RTC__
#include <cstdint>
#else
// NVRTC has no <cstdint>; these are the widths the helpers use.
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#endif

/// Every helper is a force-inlined device function.
#define TLC_DEVICE __device__ __forceinline__
/// TileLang's name for the same qualifiers, for source the program imports
/// (T.import_source, T.Kernel(prelude=...)).
#ifndef TL_DEVICE
#define TL_DEVICE __forceinline__ __device__
#endif

/// The architecture the code is being compiled for (0 in host passes).
#ifdef __CUDA_ARCH__
#define TLC_CUDA_ARCH __CUDA_ARCH__
#else
#define TLC_CUDA_ARCH 0
#endif

namespace tlc {
namespace cuda {

using half = ::__half;
using bfloat16 = ::__nv_bfloat16;

/// The 32-bit shared-state-space address of a generic pointer into shared
/// memory, as cp.async / ldmatrix operands take it.
TLC_DEVICE uint32_t sharedAddress(const void *ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

/// Lane index within the warp.
TLC_DEVICE unsigned laneId() { return threadIdx.x & 31u; }

/// Reinterprets the bits of \p value as \p To (same size).
template <typename To, typename From> TLC_DEVICE To bitCast(const From &value) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  To out;
  memcpy(&out, &value, sizeof(To));
  return out;
}

/// Block-wide barrier (`__syncthreads`).
TLC_DEVICE void syncThreads() { __syncthreads(); }

/// Named barrier \p id over \p numThreads threads (a multiple of 32): the
/// barrier of a subset of warps, e.g. one warpgroup.
TLC_DEVICE void namedBarrierSync(unsigned id, unsigned numThreads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(numThreads) : "memory");
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_COMMON_H
