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
// storeXorRuns: such a store into an LDS tile whose XOR swizzle keeps
// shorter runs (the chunk's runs permuted in registers).
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
#include "tlc_device/hip/reduce.h"

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

#if defined(__gfx950__)
/// gfx950's ds_read_b64_tr_b16 into dst[0..3] (16-bit elements). Each
/// group of 16 lanes reads a 4 x 16 block: lane j of the group addresses
/// the block's 8-byte chunk j (row j / 4, columns 4 (j % 4) .. + 3; \p
/// chunk, 8-byte aligned) and receives column j, the block's rows 0..3.
template <typename T>
TLC_DEVICE void readTransposedB16(T *dst, const T *chunk) {
  static_assert(sizeof(T) == 2, "ds_read_b64_tr_b16 reads 16-bit elements");
  typedef short Short4 __attribute__((ext_vector_type(4)));
  Short4 v = __builtin_amdgcn_ds_read_tr16_b64_v4i16(
      (TLC_HIP_LDS_SPACE Short4 *)(chunk));
  __builtin_memcpy(dst, &v, 8);
}

/// gfx950's ds_read_b64_tr_b8 into dst[0..7] (8-bit elements). Each group
/// of 16 lanes reads an 8 x 16 block: lane j of the group addresses the
/// block's 8-byte chunk j (row j / 2, columns 8 (j % 2) .. + 7; \p chunk,
/// 8-byte aligned) and receives column j, the block's rows 0..7.
template <typename T> TLC_DEVICE void readTransposedB8(T *dst, const T *chunk) {
  static_assert(sizeof(T) == 1, "ds_read_b64_tr_b8 reads 8-bit elements");
  typedef int Int2 __attribute__((ext_vector_type(2)));
  Int2 v =
      __builtin_amdgcn_ds_read_tr8_b64_v2i32((TLC_HIP_LDS_SPACE Int2 *)(chunk));
  __builtin_memcpy(dst, &v, 8);
}

/// T.ds_read_tr16_b64: readTransposedB16 of the 8 bytes at \p chunk as one
/// 64-bit value (element v in bits 16 v .. 16 v + 15).
TLC_DEVICE uint64_t readTransposed64B16(const void *chunk) {
  typedef short Short4 __attribute__((ext_vector_type(4)));
  Short4 v = __builtin_amdgcn_ds_read_tr16_b64_v4i16(
      (TLC_HIP_LDS_SPACE Short4 *)(chunk));
  uint64_t out;
  __builtin_memcpy(&out, &v, 8);
  return out;
}

/// T.ds_read_tr8_b64: readTransposedB8 of the 8 bytes at \p chunk as one
/// 64-bit value (element v in bits 8 v .. 8 v + 7).
TLC_DEVICE uint64_t readTransposed64B8(const void *chunk) {
  typedef int Int2 __attribute__((ext_vector_type(2)));
  Int2 v =
      __builtin_amdgcn_ds_read_tr8_b64_v2i32((TLC_HIP_LDS_SPACE Int2 *)(chunk));
  uint64_t out;
  __builtin_memcpy(&out, &v, 8);
  return out;
}
#endif

/// One step of readDppTransposed: lanes l and l ^ D exchange the elements
/// of their 8 bytes (x, y) at positions j whose bit D differs from the
/// lane's, in units of U = D x element bits. A lane keeps the unit at offset
/// `keep` of each 2U-bit block (U when its bit D is set, else 0) and sends
/// the other; the partner's units land where the sent ones were. Shifts by
/// lane-dependent amounts rather than selects of two expressions, which the
/// compiler turns into exec-masked branches.
template <unsigned D, unsigned U>
TLC_DEVICE void dppTransposeStep(uint32_t &x, uint32_t &y, int lane) {
  const bool bit = lane & D;
  if constexpr (U == 32) {
    const uint32_t got = dppXor32<D, false>(bit ? x : y);
    x = bit ? got : x;
    y = bit ? y : got;
  } else {
    constexpr uint32_t R = U == 16 ? 0x0000ffffu : 0x00ff00ffu;
    const uint32_t keep = bit ? U : 0, away = U - keep;
    const uint32_t t =
        dppXor32<D, false>(((x >> away) & R) | (((y >> away) & R) << U));
    x = (((x >> keep) & R) << keep) | ((t & R) << away);
    y = (((y >> keep) & R) << keep) | (((t >> U) & R) << away);
  }
}

/// Every CDNA architecture (gfx90a and gfx942 have no transposing LDS
/// read): the lanes of readTransposedB16 / B8 from one ds_read_b64 per lane
/// and DPP exchanges. With n = 8 / sizeof(T) elements in 8 bytes, lane j of
/// each row of 16 lanes addresses the n x 16 block's chunk of row j % n,
/// columns n (j / n) .. + n - 1 (\p chunk, 8-byte aligned), so each group
/// of n lanes holds an n x n sub-block, one row a lane; the group transposes
/// it (lanes l and l ^ d swap the elements whose position differs from the
/// lane in bit d, for d = n / 2 .. 1) and lane j ends with column j, the
/// block's rows 0..n - 1. \p lane is the lane in the wavefront; the whole
/// group must run it.
template <typename T>
TLC_DEVICE void readDppTransposed(T *dst, const T *chunk, int lane) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2,
                "the DPP transpose moves 8- or 16-bit elements");
  const uint2 v = *reinterpret_cast<const uint2 *>(chunk);
  uint32_t x = v.x, y = v.y;
  if constexpr (sizeof(T) == 2) {
    dppTransposeStep<2, 32>(x, y, lane);
    dppTransposeStep<1, 16>(x, y, lane);
  } else {
    dppTransposeStep<4, 32>(x, y, lane);
    dppTransposeStep<2, 16>(x, y, lane);
    dppTransposeStep<1, 8>(x, y, lane);
  }
  const uint32_t out[2] = {x, y};
  __builtin_memcpy(dst, out, 8);
}

/// The \p Bytes bytes at \p src as one vector (one global_load).
template <int Bytes>
TLC_DEVICE typename VectorOf<Bytes>::type loadVector(const void *src) {
  return *reinterpret_cast<const typename VectorOf<Bytes>::type *>(src);
}

/// Stores the chunk \p v (Bytes of 8 or 16, a whole number of runs) of a
/// row into \p tile, an LDS tile stored in the XOR swizzle of runs of
/// \p RunBytes (xorSwizzledIndex: run r of a row at run r ^ phase):
/// \p index is where the swizzle puts the chunk's first element. A chunk
/// of k runs starting at a multiple of k lands whole in the aligned slot
/// of its runs XOR the phase's high bits, its runs permuted by XOR with
/// the phase's low bits (index % chunk / run); so it is one ds_write_b64 /
/// _b128 of \p v with its runs swapped in registers, instead of k
/// ds_write of one run each. The tile's rows are a multiple of \p Bytes.
template <int Bytes, int RunBytes, typename T>
TLC_DEVICE void storeXorRuns(T *tile, int index,
                             typename VectorOf<Bytes>::type v) {
  static_assert(Bytes == 8 || Bytes == 16, "chunks of 8 or 16 bytes");
  static_assert(RunBytes == 4 || RunBytes == 8, "runs of 4 or 8 bytes");
  static_assert(RunBytes < Bytes, "a chunk of several runs");
  constexpr int ChunkElems = Bytes / int(sizeof(T));
  constexpr int RunElems = RunBytes / int(sizeof(T));
  int within = index % ChunkElems;
  unsigned low = unsigned(within / RunElems); // phase % runs per chunk
  T *slot = tile + (index - within);
  if constexpr (Bytes == 16 && RunBytes == 8) {
    if (low & 1u)
      v = uint4{v.z, v.w, v.x, v.y};
  } else if constexpr (Bytes == 16) { // runs of one dword: v[i] -> i ^ low
    if (low & 2u)
      v = uint4{v.z, v.w, v.x, v.y};
    if (low & 1u)
      v = uint4{v.y, v.x, v.w, v.z};
  } else { // 8 bytes, runs of one dword
    if (low & 1u)
      v = uint2{v.y, v.x};
  }
  *reinterpret_cast<typename VectorOf<Bytes>::type *>(slot) = v;
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

/// The \p Bytes bytes at byte \p offset of \p r's range as one vector, or
/// zeros past the range (bufferLoad's load).
template <int Bytes>
TLC_DEVICE typename VectorOf<Bytes>::type
bufferLoadVector(__amdgpu_buffer_rsrc_t r, unsigned offset) {
  return BufferLoad<Bytes>::load(r, offset);
}

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
