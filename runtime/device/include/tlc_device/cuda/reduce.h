//===- reduce.h - Warp and block all-reductions -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Butterfly all-reductions for T.reduce_* across threads. A reduction group
// is `Threads` threads spaced `Stride` apart in threadIdx.x (the reduced
// fragment dimension's span and stride in thread space); every thread of the
// group ends with the combined value. Exchange partners are `tid XOR off`
// for off = Stride, 2*Stride, .. (Threads/2)*Stride: offsets under 32 use
// `shfl.sync.bfly`, larger ones a shared-memory workspace of blockDim.x
// values with barriers, so every thread of the block must call it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_REDUCE_H
#define TLC_DEVICE_CUDA_REDUCE_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// Combiners. Each has `T operator()(T, T)`.
struct SumOp {
  template <typename T> TLC_DEVICE T operator()(T a, T b) const {
    return a + b;
  }
};
struct MaxOp {
  template <typename T> TLC_DEVICE T operator()(T a, T b) const {
    return a > b ? a : b;
  }
  TLC_DEVICE float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct MinOp {
  template <typename T> TLC_DEVICE T operator()(T a, T b) const {
    return a < b ? a : b;
  }
  TLC_DEVICE float operator()(float a, float b) const { return fminf(a, b); }
};
struct AbsMaxOp {
  TLC_DEVICE float operator()(float a, float b) const {
    return fmaxf(fabsf(a), fabsf(b));
  }
};
struct BitAndOp {
  template <typename T> TLC_DEVICE T operator()(T a, T b) const {
    return a & b;
  }
};
struct BitOrOp {
  template <typename T> TLC_DEVICE T operator()(T a, T b) const {
    return a | b;
  }
};
struct BitXorOp {
  template <typename T> TLC_DEVICE T operator()(T a, T b) const {
    return a ^ b;
  }
};

/// `__shfl_xor_sync` over the full warp for 2/4/8-byte values.
template <typename T> TLC_DEVICE T shuffleXor(T value, unsigned offset) {
  return __shfl_xor_sync(0xffffffffu, value, offset);
}
template <> TLC_DEVICE half shuffleXor<half>(half value, unsigned offset) {
  return bitCast<half>(static_cast<unsigned short>(
      __shfl_xor_sync(0xffffffffu, bitCast<unsigned short>(value), offset)));
}
template <>
TLC_DEVICE bfloat16 shuffleXor<bfloat16>(bfloat16 value, unsigned offset) {
  return bitCast<bfloat16>(static_cast<unsigned short>(
      __shfl_xor_sync(0xffffffffu, bitCast<unsigned short>(value), offset)));
}

/// All-reduce within a warp over groups of \p Threads lanes spaced
/// \p Stride apart (Threads * Stride <= 32, both powers of two). Every lane
/// of the warp must call it.
template <typename Op, int Threads, int Stride = 1, typename T>
TLC_DEVICE T warpAllReduce(T value) {
  static_assert(Threads >= 1 && (Threads & (Threads - 1)) == 0,
                "Threads must be a power of two");
  static_assert(Stride >= 1 && (Stride & (Stride - 1)) == 0,
                "Stride must be a power of two");
  static_assert(Threads * Stride <= 32, "the group must fit in a warp");
  Op op;
#pragma unroll
  for (int offset = Stride; offset < Threads * Stride; offset *= 2)
    value = op(value, shuffleXor(value, offset));
  return value;
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_REDUCE_H
