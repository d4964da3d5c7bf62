//===- memory.h - Vector copies (HIP) ---------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// copyVector<Bytes>: one load and one store of 1 to 16 bytes (global_load /
// ds_write _b32 .. _b128 on CDNA); CDNA has no asynchronous global -> LDS
// copy the printer uses, so pipelined producers are these copies too.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_MEMORY_H
#define TLC_DEVICE_HIP_MEMORY_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

template <int Bytes> struct VectorOf;
template <> struct VectorOf<1> { using type = uint8_t; };
template <> struct VectorOf<2> { using type = uint16_t; };
template <> struct VectorOf<4> { using type = uint32_t; };
template <> struct VectorOf<8> { using type = uint2; };
template <> struct VectorOf<16> { using type = uint4; };

template <int Bytes> TLC_DEVICE void copyVector(void *dst, const void *src) {
  using V = typename VectorOf<Bytes>::type;
  *reinterpret_cast<V *>(dst) = *reinterpret_cast<const V *>(src);
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_MEMORY_H
