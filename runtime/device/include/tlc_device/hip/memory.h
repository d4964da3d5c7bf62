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
// bufferLoad<Bytes>: a raw buffer load (buffer_load_ushort / _dword /
// _dwordx2 / _dwordx4) through a resource over a whole tensor: an access
// wholly past the resource's num_records reads zero without touching
// memory (CDNA3 ISA, buffer range checking), so a ragged tile's chunks
// outside the tensor need no element path.
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

/// A raw buffer resource (stride 0) over the \p bytes bytes at \p base;
/// \p base and \p bytes are wavefront-uniform (the resource lives in
/// scalar registers). Word 3 is 0x00020000: DATA_FORMAT (bits 15..18) 4,
/// 32-bit, the value CDNA buffer resources for untyped loads carry.
TLC_DEVICE __amdgpu_buffer_rsrc_t bufferResource(const void *base, int bytes) {
  return __builtin_amdgcn_make_buffer_rsrc(const_cast<void *>(base), 0, bytes,
                                           0x00020000);
}

template <int Bytes> struct BufferLoad;
template <> struct BufferLoad<2> {
  static TLC_DEVICE uint16_t load(__amdgpu_buffer_rsrc_t r, unsigned off) {
    return __builtin_amdgcn_raw_buffer_load_b16(r, off, 0, 0);
  }
};
template <> struct BufferLoad<4> {
  static TLC_DEVICE uint32_t load(__amdgpu_buffer_rsrc_t r, unsigned off) {
    return __builtin_amdgcn_raw_buffer_load_b32(r, off, 0, 0);
  }
};
template <> struct BufferLoad<8> {
  static TLC_DEVICE uint2 load(__amdgpu_buffer_rsrc_t r, unsigned off) {
    return __builtin_bit_cast(
        uint2, __builtin_amdgcn_raw_buffer_load_b64(r, off, 0, 0));
  }
};
template <> struct BufferLoad<16> {
  static TLC_DEVICE uint4 load(__amdgpu_buffer_rsrc_t r, unsigned off) {
    return __builtin_bit_cast(
        uint4, __builtin_amdgcn_raw_buffer_load_b128(r, off, 0, 0));
  }
};

/// Copies the \p Bytes bytes at byte \p offset of \p r's range to \p dst,
/// or zeros when the access lies past the range (an offset of 0x80000000
/// for a resource of fewer bytes: the printer's out-of-bounds chunks).
template <int Bytes>
TLC_DEVICE void bufferLoad(void *dst, __amdgpu_buffer_rsrc_t r,
                           unsigned offset) {
  using V = typename VectorOf<Bytes>::type;
  *reinterpret_cast<V *>(dst) = BufferLoad<Bytes>::load(r, offset);
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_MEMORY_H
