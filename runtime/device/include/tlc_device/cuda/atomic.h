//===- atomic.h - Atomic read-modify-write operations -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.atomic_add / atomic_max / atomic_min on global or shared memory. f16 and
// bf16 adds use the native instructions (sm_70 / sm_80); float max / min
// are compare-and-swap loops that order values like fmaxf / fminf.
// Every function returns the old value.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_ATOMIC_H
#define TLC_DEVICE_CUDA_ATOMIC_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// *address += value.
template <typename T> TLC_DEVICE T atomicAddTo(T *address, T value) {
  return atomicAdd(address, value);
}
template <> TLC_DEVICE half atomicAddTo<half>(half *address, half value) {
  return atomicAdd(address, value);
}
template <>
TLC_DEVICE bfloat16 atomicAddTo<bfloat16>(bfloat16 *address, bfloat16 value) {
  return atomicAdd(address, value);
}

/// Two adjacent halves at once (\p address aligned to 4 bytes).
TLC_DEVICE __half2 atomicAddHalf2(__half2 *address, __half2 value) {
  return atomicAdd(address, value);
}

/// *address = max(*address, value).
template <typename T> TLC_DEVICE T atomicMaxOf(T *address, T value) {
  return atomicMax(address, value);
}
template <> TLC_DEVICE float atomicMaxOf<float>(float *address, float value) {
  unsigned *bits = reinterpret_cast<unsigned *>(address);
  unsigned old = *bits;
  while (true) {
    float current = __uint_as_float(old);
    if (!(value > current) && !(current != current))
      return current; // Already at least as large (NaN is replaced).
    unsigned assumed = old;
    old = atomicCAS(bits, assumed, __float_as_uint(value));
    if (old == assumed)
      return current;
  }
}

/// *address = min(*address, value).
template <typename T> TLC_DEVICE T atomicMinOf(T *address, T value) {
  return atomicMin(address, value);
}
template <> TLC_DEVICE float atomicMinOf<float>(float *address, float value) {
  unsigned *bits = reinterpret_cast<unsigned *>(address);
  unsigned old = *bits;
  while (true) {
    float current = __uint_as_float(old);
    if (!(value < current) && !(current != current))
      return current;
    unsigned assumed = old;
    old = atomicCAS(bits, assumed, __float_as_uint(value));
    if (old == assumed)
      return current;
  }
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_ATOMIC_H
