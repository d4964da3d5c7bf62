//===- atomic.h - Atomic adds (HIP, sim) ------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `sim` device's tlc_device/hip/atomic.h: atomicAddTo<T> as the
// simulator's checked atomic update (tlc_sim/builtins.h), f16/bf16 added in
// f32 and rounded like the device's compare-and-swap loop; atomicMaxOf,
// atomicMinOf (a NaN in memory is replaced), atomicOrOf, atomicLoadFrom and
// atomicStoreTo as checked atomic accesses.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_ATOMIC_H
#define TLC_DEVICE_HIP_ATOMIC_H

#include "tlc_device/hip/convert.h"

namespace tlc {
namespace hip {

template <typename T> TLC_SIM_PRIMITIVE T atomicAddTo(T *address, T value) {
  return sim::atomicUpdate(
      address, [&](T old) { return T(old + value); }, TLC_SIM_HERE);
}
template <>
TLC_SIM_PRIMITIVE inline half atomicAddTo<half>(half *address, half value) {
  return sim::atomicUpdate(
      address, [&](half old) { return toHalf(toFloat(old) + toFloat(value)); },
      TLC_SIM_HERE);
}
template <>
TLC_SIM_PRIMITIVE inline bfloat16 atomicAddTo<bfloat16>(bfloat16 *address,
                                                        bfloat16 value) {
  return sim::atomicUpdate(
      address,
      [&](bfloat16 old) { return toBFloat16(toFloat(old) + toFloat(value)); },
      TLC_SIM_HERE);
}

template <typename T> TLC_SIM_PRIMITIVE T atomicMaxOf(T *address, T value) {
  return sim::atomicUpdate(
      address, [&](T old) { return (value > old || old != old) ? value : old; },
      TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicMinOf(T *address, T value) {
  return sim::atomicUpdate(
      address, [&](T old) { return (value < old || old != old) ? value : old; },
      TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicOrOf(T *address, T value) {
  return sim::atomicUpdate(
      address, [&](T old) { return T(old | value); }, TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicAndOf(T *address, T value) {
  return sim::atomicUpdate(
      address, [&](T old) { return T(old & value); }, TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicLoadFrom(const T *address) {
  return sim::atomicUpdate(
      const_cast<T *>(address), [&](T old) { return old; }, TLC_SIM_HERE);
}
template <typename T>
TLC_SIM_PRIMITIVE void atomicStoreTo(T *address, T value) {
  sim::atomicUpdate(
      address, [&](T) { return value; }, TLC_SIM_HERE);
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_ATOMIC_H
