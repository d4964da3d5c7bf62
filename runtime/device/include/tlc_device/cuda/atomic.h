//===- atomic.h - Atomic read-modify-write operations -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.atomic_add / atomic_max / atomic_min / atomic_or on global or shared
// memory. f16 and bf16 adds use the native instructions (sm_70 / sm_80);
// float max / min are compare-and-swap loops that order values like fmaxf /
// fminf. Every read-modify-write returns the old value. T.atomic_load /
// atomic_store are single volatile accesses between fences (at least as
// strong as every memory order TileLang names).
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

/// *address |= value (32- and 64-bit integers).
template <typename T> TLC_DEVICE T atomicOrOf(T *address, T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "atomic_or needs a 32- or 64-bit integer");
  if constexpr (sizeof(T) == 4)
    return static_cast<T>(atomicOr(reinterpret_cast<unsigned *>(address),
                                   static_cast<unsigned>(value)));
  else
    return static_cast<T>(
        atomicOr(reinterpret_cast<unsigned long long *>(address),
                 static_cast<unsigned long long>(value)));
}

/// The unsigned integer of \p Bytes bytes.
template <int Bytes> struct BitsOf;
template <> struct BitsOf<1> { using type = uint8_t; };
template <> struct BitsOf<2> { using type = uint16_t; };
template <> struct BitsOf<4> { using type = uint32_t; };
template <> struct BitsOf<8> { using type = unsigned long long; };

/// One indivisible read of *address, ordered after every earlier access of
/// the thread and before every later one.
template <typename T> TLC_DEVICE T atomicLoadFrom(const T *address) {
  using Bits = typename BitsOf<sizeof(T)>::type;
  __threadfence();
  Bits bits = *reinterpret_cast<const volatile Bits *>(address);
  __threadfence();
  return bitCast<T>(bits);
}

/// One indivisible write of *address, ordered like atomicLoadFrom.
template <typename T> TLC_DEVICE void atomicStoreTo(T *address, T value) {
  using Bits = typename BitsOf<sizeof(T)>::type;
  __threadfence();
  *reinterpret_cast<volatile Bits *>(address) = bitCast<Bits>(value);
  __threadfence();
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_ATOMIC_H
