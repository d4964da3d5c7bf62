//===- cpu/atomic.h - Atomics of CPU kernels --------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Atomic add and atomic read-modify-write on every element type (a
/// compare-and-swap loop on the storage bits where the hardware has no
/// instruction), on raw pointers and on views (guarded or checked).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_ATOMIC_H
#define TLC_DEVICE_CPU_ATOMIC_H

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tlc_device/cpu/view.h"

namespace tlc {
namespace cpu {

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// Atomically adds \p value to \p *ptr (compare-and-swap on the storage
/// bits; the sum is computed in float for the small formats) and returns
/// the previous value.
template <typename T> inline T atomicAdd(T *ptr, T value) {
  if constexpr (std::is_integral_v<T>) {
    return __atomic_fetch_add(ptr, value, __ATOMIC_RELAXED);
  } else {
    using Bits = std::conditional_t<
        sizeof(T) == 8, uint64_t,
        std::conditional_t<sizeof(T) == 4, uint32_t,
                           std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;
    static_assert(sizeof(Bits) == sizeof(T), "unexpected storage size");
    Bits *bits = reinterpret_cast<Bits *>(ptr);
    Bits oldBits = __atomic_load_n(bits, __ATOMIC_RELAXED);
    while (true) {
      T oldValue, newValue;
      std::memcpy(static_cast<void *>(&oldValue), &oldBits, sizeof(T));
      if constexpr (std::is_floating_point_v<T>)
        newValue = oldValue + value;
      else
        newValue = T(float(oldValue) + float(value));
      Bits newBits;
      std::memcpy(&newBits, &newValue, sizeof(T));
      if (__atomic_compare_exchange_n(bits, &oldBits, newBits, /*weak=*/false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return oldValue;
    }
  }
}

/// Atomic add into global memory at \p idx; dropped (returning zero)
/// outside the buffer, like a guarded GPU atomic.
template <typename T, int R>
inline T atomicAddGuarded(const View<T, R> &v, const int64_t (&idx)[R], T value) {
  if (!v.inBounds(idx))
    return T();
  return atomicAdd(&v.at(idx), value);
}

/// Atomic add into an on-chip buffer; out of range is a reported error.
template <typename T, int R>
inline T atomicAddChecked(Status &st, const char *loc, const View<T, R> &v,
                          const int64_t (&idx)[R], T value) {
  if (!v.inBounds(idx)) {
    st.fail(loc, "index out of range of an on-chip buffer");
    return T();
  }
  return atomicAdd(&v.at(idx), value);
}

/// Atomically replaces \p *ptr by \p update(old) (compare-and-swap on the
/// storage bits) and returns the old value: the ordered atomics
/// (T.atomic_load/store/max/min/or), whose order the blocks' host threads
/// need no more than this.
template <typename T, typename F> inline T atomicUpdate(T *ptr, F update) {
  using Bits = std::conditional_t<
      sizeof(T) == 8, uint64_t,
      std::conditional_t<
          sizeof(T) == 4, uint32_t,
          std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;
  static_assert(sizeof(Bits) == sizeof(T), "unexpected storage size");
  Bits *bits = reinterpret_cast<Bits *>(ptr);
  Bits oldBits = __atomic_load_n(bits, __ATOMIC_SEQ_CST);
  while (true) {
    T oldValue;
    std::memcpy(static_cast<void *>(&oldValue), &oldBits, sizeof(T));
    T newValue = update(oldValue);
    Bits newBits;
    std::memcpy(&newBits, &newValue, sizeof(T));
    if (newBits == oldBits ||
        __atomic_compare_exchange_n(bits, &oldBits, newBits, /*weak=*/false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      return oldValue;
  }
}

/// atomicUpdate in global memory at \p idx; dropped (returning zero)
/// outside the buffer, like a guarded GPU atomic.
template <typename T, int R, typename F>
inline T atomicUpdateGuarded(const View<T, R> &v, const int64_t (&idx)[R],
                             F update) {
  if (!v.inBounds(idx))
    return T();
  return atomicUpdate(&v.at(idx), update);
}

/// atomicUpdate of an on-chip buffer; out of range is a reported error.
template <typename T, int R, typename F>
inline T atomicUpdateChecked(Status &st, const char *loc, const View<T, R> &v,
                             const int64_t (&idx)[R], F update) {
  if (!v.inBounds(idx)) {
    st.fail(loc, "index out of range of an on-chip buffer");
    return T();
  }
  return atomicUpdate(&v.at(idx), update);
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_ATOMIC_H
