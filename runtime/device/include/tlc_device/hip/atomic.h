//===- atomic.h - Atomic adds (HIP) -----------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// atomicAddTo<T>: device-scope relaxed atomic add of 32/64-bit integers and
// floats (global_atomic_add / _add_f32 where the target has it, a CAS loop
// otherwise, as clang lowers __hip_atomic_fetch_add), and of f16/bf16 by a
// compare-and-swap of the aligned 32-bit word holding the element.
// atomicMaxOf / atomicMinOf / atomicOrOf (T.atomic_max/min/or): integers
// by global_atomic_smax & co., floats by a compare-and-swap loop in which a
// NaN in memory is replaced; atomicLoadFrom / atomicStoreTo: one indivisible
// access between device-scope fences.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_ATOMIC_H
#define TLC_DEVICE_HIP_ATOMIC_H

#include "tlc_device/hip/convert.h"

namespace tlc {
namespace hip {

template <typename T> TLC_DEVICE T atomicAddTo(T *address, T value) {
  return __hip_atomic_fetch_add(address, value, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}

/// An f16/bf16 add through its 32-bit word.
template <typename T> TLC_DEVICE T atomicAddHalfWord(T *address, T value) {
  uintptr_t a = reinterpret_cast<uintptr_t>(address);
  uint32_t *word = reinterpret_cast<uint32_t *>(a & ~uintptr_t(3));
  unsigned shift = (a & 2) ? 16 : 0;
  uint32_t old =
      __hip_atomic_load(word, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  while (true) {
    T current = bitCast<T>(uint16_t(old >> shift));
    float sum = toFloat(current) + toFloat(value);
    T next;
    if constexpr (sizeof(T) == 2 && __is_same(T, half))
      next = toHalf(sum);
    else
      next = toBFloat16(sum);
    uint32_t desired = (old & ~(0xffffu << shift)) |
                       uint32_t(bitCast<uint16_t>(next)) << shift;
    if (__hip_atomic_compare_exchange_strong(word, &old, desired,
                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                             __HIP_MEMORY_SCOPE_AGENT))
      return current;
  }
}
template <> TLC_DEVICE half atomicAddTo<half>(half *address, half value) {
  return atomicAddHalfWord(address, value);
}
template <>
TLC_DEVICE bfloat16 atomicAddTo<bfloat16>(bfloat16 *address, bfloat16 value) {
  return atomicAddHalfWord(address, value);
}

template <typename T, bool Max>
TLC_DEVICE T atomicExtremum(T *address, T value) {
  if constexpr (__is_same(T, float) || __is_same(T, double)) {
    T old =
        __hip_atomic_load(address, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    while (true) {
      if (!(Max ? value > old : value < old) && !(old != old))
        return old; // Already at least as far (a NaN is replaced).
      if (__hip_atomic_compare_exchange_strong(
              address, &old, value, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
              __HIP_MEMORY_SCOPE_AGENT))
        return old;
    }
  } else if constexpr (Max) {
    return __hip_atomic_fetch_max(address, value, __ATOMIC_RELAXED,
                                  __HIP_MEMORY_SCOPE_AGENT);
  } else {
    return __hip_atomic_fetch_min(address, value, __ATOMIC_RELAXED,
                                  __HIP_MEMORY_SCOPE_AGENT);
  }
}
template <typename T> TLC_DEVICE T atomicMaxOf(T *address, T value) {
  return atomicExtremum<T, true>(address, value);
}
template <typename T> TLC_DEVICE T atomicMinOf(T *address, T value) {
  return atomicExtremum<T, false>(address, value);
}
template <typename T> TLC_DEVICE T atomicOrOf(T *address, T value) {
  return __hip_atomic_fetch_or(address, value, __ATOMIC_RELAXED,
                               __HIP_MEMORY_SCOPE_AGENT);
}
template <typename T> TLC_DEVICE T atomicAndOf(T *address, T value) {
  return __hip_atomic_fetch_and(address, value, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}
template <typename T> TLC_DEVICE T atomicLoadFrom(const T *address) {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  T value =
      __hip_atomic_load(address, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  return value;
}
template <typename T> TLC_DEVICE void atomicStoreTo(T *address, T value) {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  __hip_atomic_store(address, value, __ATOMIC_RELAXED,
                     __HIP_MEMORY_SCOPE_AGENT);
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_ATOMIC_H
