//===- common.h - HIP language and wavefront primitives (sim) ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `sim` device's version of tlc_device/hip/common.h: generated HIP C++
// compiled for the host, each thread a fiber of the simulator, wavefronts
// of 64 (the translation unit defines TLC_SIM_WARP_SIZE 64 before
// tlc_sim/builtins.h). The language (keywords, indices, __syncthreads,
// atomics, math) is tlc_sim/builtins.h; this file adds the 16-bit types,
// the wavefront shuffle the reductions use, and the AMDGPU MFMA builtins the
// device headers call, each computed lane by lane from the CDNA3 ISA's
// definition of its operand and result layouts (not from tlc's layout
// tables, so running on sim checks the printer's lane mappings).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_COMMON_H
#define TLC_DEVICE_HIP_COMMON_H

#include "tlc_sim/builtins.h"

static_assert(TLC_SIM_WARP_SIZE == 64, "HIP sources simulate wavefronts of 64");

#define TLC_DEVICE inline

namespace tlc {
namespace hip {

using half = _Float16;
struct bfloat16 {
  uint16_t bits;
};

template <typename To, typename From> TLC_DEVICE To bitCast(const From &value) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  To out;
  std::memcpy(&out, &value, sizeof(To));
  return out;
}

/// v_exp_f32 (fast_math): 2^x, here exp2f.
TLC_DEVICE float fastExp2(float x) { return exp2f(x); }

TLC_DEVICE unsigned laneId() { return sim::linearThread() % 64u; }

/// ds_bpermute_b32 with lane `laneId() ^ offset`: every lane of the
/// wavefront takes part.
TLC_SIM_PRIMITIVE inline uint32_t shuffleXor32(uint32_t value,
                                               unsigned offset) {
  return sim::shuffle<3>(~uint64_t(0), value, int(offset & 63u), 64,
                         TLC_SIM_HERE);
}

} // namespace hip
} // namespace tlc

//===----------------------------------------------------------------------===//
// MFMA (CDNA3 ISA, section 7 "Matrix Arithmetic Instructions"): D = A B + C
// of a 64-lane wavefront. For the 16x16xK (K = 16 f16/bf16, 4 values per
// lane) instructions lane l holds A[i = l % 16][k = 4 (l / 16) + v] and
// B[k = 4 (l / 16) + v][j = l % 16] in element v of its operand vector,
// and C/D[i = 4 (l / 16) + v][j = l % 16] in accumulator register v. For
// 32x32x8 (f16 and bf16_1k, 4 values per lane) lane l holds A[i = l %
// 32][k = 4 (l / 32) + v], B[k = 4 (l / 32) + v][j = l % 32] and, in
// register v of its 16, C/D[i = 8 (v / 4) + 4 (l / 32) + v % 4][j = l % 32].
// Products are exact and sums are formed in double, then rounded to f32 once.
// The 8-bit integer instructions follow the same rule with more values per
// lane: v_mfma_i32_16x16x16i8 (CDNA2; 4 int8 packed in a 32-bit srcA/srcB, byte
// v is element v) has lane l's A[l % 16][4 (l / 16) + v], and
// v_mfma_i32_16x16x32_i8 (CDNA3; 8 int8 packed in 64 bits) A[l % 16][8 (l
// / 16) + v], B likewise, C/D as the 16x16 f32 ones; sums are exact and
// wrap modulo 2^32 as the integer adder does. v_mfma_f32_16x16x32_fp8_fp8
// and _bf8_bf8 (CDNA3) take the lanes of the 16x16x32 int8 one, the 8
// bytes of a 64-bit operand being CDNA3's FNUZ fp8 values: sign, 4 (fp8)
// or 5 (bf8) exponent bits with bias 8 or 16, 3 or 2 mantissa bits,
// subnormals at exponent 0, no infinities and 0x80 the only NaN. Their
// 32x32 forms take the lanes of 32x32x8 with 8 values per lane:
// v_mfma_i32_32x32x8i8 (CDNA2; 4 int8 in 32 bits) A[l % 32][4 (l / 32) +
// v], v_mfma_i32_32x32x16_i8 and v_mfma_f32_32x32x16_fp8_fp8 / _bf8_bf8
// (CDNA3; 8 bytes in 64 bits) A[l % 32][8 (l / 32) + v], B likewise, C/D
// in 16 registers as the 32x32x8 f32 ones.
//===----------------------------------------------------------------------===//

typedef float tlc_sim_floatx4 __attribute__((ext_vector_type(4)));
typedef float tlc_sim_floatx16 __attribute__((ext_vector_type(16)));
typedef _Float16 tlc_sim_halfx4 __attribute__((ext_vector_type(4)));
typedef short tlc_sim_shortx4 __attribute__((ext_vector_type(4)));
typedef int tlc_sim_intx4 __attribute__((ext_vector_type(4)));
typedef int tlc_sim_intx16 __attribute__((ext_vector_type(16)));

namespace tlc {
namespace sim {

struct MfmaLane {
  double a[4], b[4], c[16];
  float d[16];
};

/// One MFMA over the lanes: \p M x \p M output, K = 4 * 64 / M.
template <int M>
TLC_SIM_UNCHECKED void mfmaRun(void *const *lanes, uint64_t, uint32_t,
                               uint64_t) {
  constexpr int K = 4 * 64 / M, Regs = M * M / 64;
  double A[M][K], B[K][M], C[M][M];
  auto cRow = [](int l, int v) {
    return M == 16 ? 4 * (l / 16) + v : 8 * (v / 4) + 4 * (l / 32) + v % 4;
  };
  for (int l = 0; l < 64; ++l) {
    const MfmaLane *me = static_cast<const MfmaLane *>(lanes[l]);
    for (int v = 0; v < 4; ++v) {
      int k = 4 * (l / M) + v;
      A[l % M][k] = me->a[v];
      B[k][l % M] = me->b[v];
    }
    for (int v = 0; v < Regs; ++v)
      C[cRow(l, v)][l % M] = me->c[v];
  }
  for (int l = 0; l < 64; ++l) {
    MfmaLane *me = static_cast<MfmaLane *>(lanes[l]);
    for (int v = 0; v < Regs; ++v) {
      int i = cRow(l, v), j = l % M;
      double sum = C[i][j];
      for (int k = 0; k < K; ++k)
        sum += A[i][k] * B[k][j];
      me->d[v] = float(sum);
    }
  }
}

inline double bf16Value(short bits) {
  uint32_t u = uint32_t(uint16_t(bits)) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

template <int M, typename Vec, typename Acc, typename Conv>
TLC_SIM_UNCHECKED Acc mfma(const char *name, Vec a, Vec b, Acc c, Conv conv,
                           uint64_t where) {
  MfmaLane me{};
  for (int v = 0; v < 4; ++v) {
    me.a[v] = conv(a[v]);
    me.b[v] = conv(b[v]);
  }
  constexpr int Regs = M * M / 64;
  for (int v = 0; v < Regs; ++v)
    me.c[v] = c[v];
  api->warpCollective(name, ~uint64_t(0), &mfmaRun<M>, &me, where);
  Acc d;
  for (int v = 0; v < Regs; ++v)
    d[v] = me.d[v];
  return d;
}

/// Row of C/D in accumulator register \p v of lane \p l of an \p M x \p M
/// MFMA (the column is l % M).
template <int M> constexpr int mfmaCRow(int l, int v) {
  return M == 16 ? 4 * (l / 16) + v : 8 * (v / 4) + 4 * (l / 32) + v % 4;
}

struct MfmaLaneI8 {
  int32_t a[8], b[8], c[16], d[16];
};

/// One \p M x \p M integer MFMA with \p PerLane int8 values of A and B per
/// lane (K = 64 PerLane / M).
template <int M, int PerLane>
TLC_SIM_UNCHECKED void mfmaI8Run(void *const *lanes, uint64_t, uint32_t,
                                 uint64_t) {
  constexpr int K = 64 / M * PerLane, Regs = M * M / 64;
  int64_t A[M][K], B[K][M], C[M][M];
  for (int l = 0; l < 64; ++l) {
    const MfmaLaneI8 *me = static_cast<const MfmaLaneI8 *>(lanes[l]);
    for (int v = 0; v < PerLane; ++v) {
      int k = PerLane * (l / M) + v;
      A[l % M][k] = me->a[v];
      B[k][l % M] = me->b[v];
    }
    for (int v = 0; v < Regs; ++v)
      C[mfmaCRow<M>(l, v)][l % M] = me->c[v];
  }
  for (int l = 0; l < 64; ++l) {
    MfmaLaneI8 *me = static_cast<MfmaLaneI8 *>(lanes[l]);
    for (int v = 0; v < Regs; ++v) {
      int i = mfmaCRow<M>(l, v), j = l % M;
      int64_t sum = C[i][j];
      for (int k = 0; k < K; ++k)
        sum += A[i][k] * B[k][j];
      me->d[v] = int32_t(uint32_t(uint64_t(sum)));
    }
  }
}

/// \p a and \p b hold \p PerLane int8 values, byte v being element v.
template <int M, int PerLane, typename Packed, typename Acc>
TLC_SIM_UNCHECKED Acc mfmaI8(const char *name, Packed a, Packed b, Acc c,
                             uint64_t where) {
  MfmaLaneI8 me{};
  for (int v = 0; v < PerLane; ++v) {
    me.a[v] = int8_t(uint8_t(uint64_t(a) >> (8 * v)));
    me.b[v] = int8_t(uint8_t(uint64_t(b) >> (8 * v)));
  }
  constexpr int Regs = M * M / 64;
  for (int v = 0; v < Regs; ++v)
    me.c[v] = c[v];
  api->warpCollective(name, ~uint64_t(0), &mfmaI8Run<M, PerLane>, &me, where);
  Acc d;
  for (int v = 0; v < Regs; ++v)
    d[v] = me.d[v];
  return d;
}

/// A CDNA3 FNUZ fp8 (\p Bf8: e5m2, bias 16; else e4m3, bias 8) value.
inline double fnuzValue(uint8_t x, bool bf8) {
  if (x == 0x80)
    return __builtin_nan("");
  int mbits = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
  int e = (x & 0x7f) >> mbits, m = x & ((1 << mbits) - 1);
  double v = e == 0 ? std::ldexp(double(m), 1 - bias - mbits)
                    : std::ldexp(double(m + (1 << mbits)), e - bias - mbits);
  return x & 0x80 ? -v : v;
}

struct MfmaLaneF8 {
  double a[8], b[8], c[16];
  float d[16];
};

/// One \p M x \p M fp8 MFMA (K = 512 / M): exact products, sums in
/// double, one rounding.
template <int M>
TLC_SIM_UNCHECKED void mfmaF8Run(void *const *lanes, uint64_t, uint32_t,
                                 uint64_t) {
  constexpr int K = 64 / M * 8, Regs = M * M / 64;
  double A[M][K], B[K][M], C[M][M];
  for (int l = 0; l < 64; ++l) {
    const MfmaLaneF8 *me = static_cast<const MfmaLaneF8 *>(lanes[l]);
    for (int v = 0; v < 8; ++v) {
      int k = 8 * (l / M) + v;
      A[l % M][k] = me->a[v];
      B[k][l % M] = me->b[v];
    }
    for (int v = 0; v < Regs; ++v)
      C[mfmaCRow<M>(l, v)][l % M] = me->c[v];
  }
  for (int l = 0; l < 64; ++l) {
    MfmaLaneF8 *me = static_cast<MfmaLaneF8 *>(lanes[l]);
    for (int v = 0; v < Regs; ++v) {
      int i = mfmaCRow<M>(l, v), j = l % M;
      double sum = C[i][j];
      for (int k = 0; k < K; ++k)
        sum += A[i][k] * B[k][j];
      me->d[v] = float(sum);
    }
  }
}

template <int M, typename Acc>
TLC_SIM_UNCHECKED Acc mfmaF8(const char *name, long a, long b, Acc c, bool bf8,
                             uint64_t where) {
  MfmaLaneF8 me{};
  for (int v = 0; v < 8; ++v) {
    me.a[v] = fnuzValue(uint8_t(uint64_t(a) >> (8 * v)), bf8);
    me.b[v] = fnuzValue(uint8_t(uint64_t(b) >> (8 * v)), bf8);
  }
  constexpr int Regs = M * M / 64;
  for (int v = 0; v < Regs; ++v)
    me.c[v] = c[v];
  api->warpCollective(name, ~uint64_t(0), &mfmaF8Run<M>, &me, where);
  Acc d;
  for (int v = 0; v < Regs; ++v)
    d[v] = me.d[v];
  return d;
}

} // namespace sim
} // namespace tlc

namespace tlc {
namespace sim {
/// The modifiers (cbsz, abid, blgp: broadcasts between lane blocks) are
/// not simulated; the printer passes 0, anything else traps.
TLC_SIM_UNCHECKED inline void plainMfma(int cbsz, int abid, int blgp,
                                        uint64_t where) {
  if (cbsz || abid || blgp)
    api->trap("v_mfma with cbsz/abid/blgp is not simulated", where);
}
} // namespace sim
} // namespace tlc

TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x16f16(tlc_sim_halfx4 a, tlc_sim_halfx4 b,
                                      tlc_sim_floatx4 c, int cbsz, int abid,
                                      int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<16>(
      "v_mfma_f32_16x16x16f16", a, b, c,
      [](_Float16 x) { return double(float(x)); }, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x16bf16_1k(tlc_sim_shortx4 a, tlc_sim_shortx4 b,
                                          tlc_sim_floatx4 c, int cbsz, int abid,
                                          int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<16>("v_mfma_f32_16x16x16bf16_1k", a, b, c,
                            &tlc::sim::bf16Value, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x8f16(tlc_sim_halfx4 a, tlc_sim_halfx4 b,
                                     tlc_sim_floatx16 c, int cbsz, int abid,
                                     int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<32>(
      "v_mfma_f32_32x32x8f16", a, b, c,
      [](_Float16 x) { return double(float(x)); }, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x8bf16_1k(tlc_sim_shortx4 a, tlc_sim_shortx4 b,
                                         tlc_sim_floatx16 c, int cbsz, int abid,
                                         int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<32>("v_mfma_f32_32x32x8bf16_1k", a, b, c,
                            &tlc::sim::bf16Value, TLC_SIM_HERE);
}

// v_dot4_i32_i8 / v_dot4_u32_u8 (CDNA3 ISA, VOP3P): D = C + the sum of
// the products of the four bytes of A and B, sign- or zero-extended; with
// clamp false the sum wraps modulo 2^32. One lane's own operation.
TLC_SIM_PRIMITIVE inline int __builtin_amdgcn_sdot4(int a, int b, int c,
                                                    bool clamp) {
  if (clamp)
    tlc::sim::api->trap("v_dot4_i32_i8 with clamp is not simulated",
                        TLC_SIM_HERE);
  uint32_t sum = uint32_t(c);
  for (int v = 0; v < 4; ++v)
    sum += uint32_t(int32_t(int8_t(uint8_t(uint32_t(a) >> (8 * v)))) *
                    int32_t(int8_t(uint8_t(uint32_t(b) >> (8 * v)))));
  return int32_t(sum);
}
TLC_SIM_PRIMITIVE inline unsigned
__builtin_amdgcn_udot4(unsigned a, unsigned b, unsigned c, bool clamp) {
  if (clamp)
    tlc::sim::api->trap("v_dot4_u32_u8 with clamp is not simulated",
                        TLC_SIM_HERE);
  unsigned sum = c;
  for (int v = 0; v < 4; ++v)
    sum += ((a >> (8 * v)) & 0xffu) * ((b >> (8 * v)) & 0xffu);
  return sum;
}

TLC_SIM_PRIMITIVE inline tlc_sim_intx4
__builtin_amdgcn_mfma_i32_16x16x16i8(int a, int b, tlc_sim_intx4 c, int cbsz,
                                     int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaI8<16, 4>("v_mfma_i32_16x16x16i8", uint32_t(a), uint32_t(b),
                             c, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_intx4
__builtin_amdgcn_mfma_i32_16x16x32_i8(long a, long b, tlc_sim_intx4 c, int cbsz,
                                      int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaI8<16, 8>("v_mfma_i32_16x16x32_i8", uint64_t(a), uint64_t(b),
                             c, TLC_SIM_HERE);
}

TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(long a, long b, tlc_sim_floatx4 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaF8<16>("v_mfma_f32_16x16x32_fp8_fp8", a, b, c, false,
                          TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(long a, long b, tlc_sim_floatx4 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaF8<16>("v_mfma_f32_16x16x32_bf8_bf8", a, b, c, true,
                          TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_intx16
__builtin_amdgcn_mfma_i32_32x32x8i8(int a, int b, tlc_sim_intx16 c, int cbsz,
                                    int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaI8<32, 4>("v_mfma_i32_32x32x8i8", uint32_t(a),
                                 uint32_t(b), c, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_intx16
__builtin_amdgcn_mfma_i32_32x32x16_i8(long a, long b, tlc_sim_intx16 c,
                                      int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaI8<32, 8>("v_mfma_i32_32x32x16_i8", uint64_t(a),
                                 uint64_t(b), c, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(long a, long b, tlc_sim_floatx16 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaF8<32>("v_mfma_f32_32x32x16_fp8_fp8", a, b, c, false,
                              TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(long a, long b, tlc_sim_floatx16 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfmaF8<32>("v_mfma_f32_32x32x16_bf8_bf8", a, b, c, true,
                              TLC_SIM_HERE);
}

#endif // TLC_DEVICE_HIP_COMMON_H
