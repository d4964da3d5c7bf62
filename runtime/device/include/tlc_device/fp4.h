//===- fp4.h - The 4-bit element types (e2m1, int4) -------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Plain C++ shared by every target: included by the CUDA and HIP code tlc
// generates (after the language's common.h, which defines TLC_DEVICE), by
// the CPU target's cpu.h and by the runtime.
//
// `float4_e2m1fn` is the OCP MX e2m1 format: 1 sign, 2 exponent (bias 1)
// and 1 mantissa bit, no infinity or NaN; the 16 codes are
// +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}, bit 3 the sign. In memory two values
// share a byte, element 2k in the low nibble and 2k + 1 in the high one
// (torch's float4_e2m1fn_x2, CUDA's __nv_fp4x2_e2m1).
//
// Conversions from float round to nearest even and saturate to +-6 (PTX's
// cvt.rn.satfinite.e2m1x2.f32); NaN becomes +6, as cuda_fp4.h's
// conversion gives. Registers hold one code per byte; shared and global
// memory hold packed pairs, written through `E2M1Ref`, which changes only
// its nibble (atomically where other threads may write the other one).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_FP4_H
#define TLC_DEVICE_FP4_H

#ifdef TLC_DEVICE
#define TLC_FP4_FN TLC_DEVICE
#else
#include <cstdint>
#include <cstring>
#define TLC_FP4_FN inline
#endif

namespace tlc {
namespace fp4 {

/// float -> e2m1 code (0..15): round to nearest even, saturate to +-6, NaN
/// to +6. Integer arithmetic on the float's bits.
TLC_FP4_FN uint8_t e2m1FromFloat(float x) {
  // A union, not memcpy: NVRTC has neither <cstring> nor __builtin_memcpy,
  // and every compiler that builds this header (nvcc, NVRTC, hipcc, clang,
  // gcc) defines reading the other member.
  union {
    float f;
    uint32_t u;
  } bits;
  bits.f = x;
  uint32_t u = bits.u;
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u)
    return 0x7u;
  uint8_t sign = uint8_t((u >> 28) & 0x8u);
  if (a >= 0x40c00000u) // |x| >= 6 (infinity included)
    return uint8_t(sign | 0x7u);
  int e = int(a >> 23) - 127;
  uint32_t mant = (a & 0x7fffffu) | (a >= 0x00800000u ? 0x800000u : 0u);
  // |x| = mant * 2^(e - 23). A normal e2m1 (|x| >= 1, e >= 0) keeps one
  // fraction bit; below 1 the values are multiples of 0.5 (code = count).
  int shift = e >= 0 ? 22 : 22 - e;
  uint32_t q = 0;
  if (shift < 32) {
    q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u)))
      ++q;
  }
  uint32_t code;
  if (e >= 0) {
    if (q == 4u) // rounded up into the next binade
      q = 2u, ++e;
    code = e > 2 ? 0x7u : uint32_t(e + 1) << 1 | (q - 2u);
  } else {
    code = q; // 0, 0.5 or (rounded up) 1.0, which is code 2
  }
  return uint8_t(sign | code);
}

/// e2m1 code (low 4 bits of \p c) -> float (exact).
TLC_FP4_FN float e2m1ToFloat(uint8_t c) {
  uint32_t e = (c >> 1) & 3u, m = c & 1u;
  float v = e == 0 ? 0.5f * float(m)
                   : float(1u << (e - 1)) * (1.0f + 0.5f * float(m));
  return (c & 0x8u) ? -v : v;
}

/// Element \p i of packed storage \p bytes.
TLC_FP4_FN uint8_t loadE2M1(const uint8_t *bytes, long long i) {
  return uint8_t((bytes[i >> 1] >> ((i & 1) * 4)) & 0xfu);
}

/// A reference to element \p index of packed e2m1 storage: reads give the
/// code, assignments of a code (or of another reference) replace only that
/// nibble. \p Atomic: the byte's other nibble may be written by another
/// thread at the same time (shared and global memory).
template <bool Atomic> struct E2M1Ref {
  uint8_t *bytes;
  long long index;

  TLC_FP4_FN operator uint8_t() const { return loadE2M1(bytes, index); }
  TLC_FP4_FN const E2M1Ref &operator=(uint8_t code) const {
    unsigned shift = unsigned(index & 1) * 4;
    uint8_t *p = bytes + (index >> 1);
    if (Atomic) {
#ifdef TLC_DEVICE
      // The aligned 32-bit word holding the byte.
      unsigned long long addr = (unsigned long long)p;
      unsigned *word = (unsigned *)(addr & ~3ull);
      shift += unsigned(addr & 3u) * 8;
#ifdef TLC_DEVICE_HIP_ATOMIC_H
      tlc::hip::atomicAndOf(word, ~(0xfu << shift));
      tlc::hip::atomicOrOf(word, unsigned(code & 0xfu) << shift);
#else
      atomicAnd(word, ~(0xfu << shift));
      atomicOr(word, unsigned(code & 0xfu) << shift);
#endif
#else
      __atomic_fetch_and(p, uint8_t(~(0xfu << shift)), __ATOMIC_RELAXED);
      __atomic_fetch_or(p, uint8_t((code & 0xfu) << shift), __ATOMIC_RELAXED);
#endif
    } else {
      *p = uint8_t((*p & ~(0xfu << shift)) | ((code & 0xfu) << shift));
    }
    return *this;
  }
  template <bool A>
  TLC_FP4_FN const E2M1Ref &operator=(const E2M1Ref<A> &other) const {
    return *this = uint8_t(other);
  }
  TLC_FP4_FN const E2M1Ref &operator=(const E2M1Ref &other) const {
    return *this = uint8_t(other);
  }
};

//===----------------------------------------------------------------------===//
// int4 and uint4
//===----------------------------------------------------------------------===//
//
// TileLang's `int4` (two's complement, -8..7) and `uint4` (0..15) share
// the e2m1 storage: two a byte in memory (element 2k in the low nibble, as
// torch stores int4 in int8 bytes), one code a byte in registers, through
// the same nibble references. Values are computed in `int` and wrap modulo
// 16 when they become 4-bit again (as the MLIR arith ops on i4 do).

/// The value of int4 code \p c (its low 4 bits), sign extended.
TLC_FP4_FN int int4FromCode(uint8_t c) { return int((c & 0xfu) ^ 0x8u) - 8; }
/// The value of uint4 code \p c (its low 4 bits).
TLC_FP4_FN int uint4FromCode(uint8_t c) { return int(c & 0xfu); }
/// The 4-bit code of integer \p v: its value modulo 16.
TLC_FP4_FN uint8_t int4ToCode(long long v) { return uint8_t(v & 0xf); }
/// \p x rounded toward zero and saturated to [\p lo, \p hi] (NaN is 0),
/// as the CPU target converts floats to every integer type.
TLC_FP4_FN int int4FromFloat(float x, int lo, int hi) {
  if (!(x == x))
    return 0;
  if (x <= float(lo))
    return lo;
  if (x >= float(hi))
    return hi;
  return int(x);
}

/// The nibble that holds byte slot \p slot of a tile stored in the padded
/// form Blackwell's tcgen05.mma .kind::f8f6f4 reads 4-bit operands in: a
/// slot per element (the tile's swizzled panels, laid out as for 8-bit
/// elements), each 16-byte chunk holding its 16 codes packed in its first
/// 8 bytes (element 2k in the low nibble) and 8 bytes of padding after.
TLC_FP4_FN long long paddedNibble(long long slot) {
  return (slot & ~15ll) * 2 + (slot & 15);
}

/// The reference to element \p i of packed storage \p p.
template <bool Atomic, typename P>
TLC_FP4_FN E2M1Ref<Atomic> e2m1At(P *p, long long i) {
  return E2M1Ref<Atomic>{(uint8_t *)p, i};
}

} // namespace fp4
} // namespace tlc

#undef TLC_FP4_FN

#endif // TLC_DEVICE_FP4_H
