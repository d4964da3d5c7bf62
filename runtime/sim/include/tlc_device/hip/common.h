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
/// LDS pointers are host pointers here (the device header's address space 3).
#define TLC_HIP_LDS_SPACE
/// TileLang's name for the same qualifiers (imported program source).
#ifndef TL_DEVICE
#define TL_DEVICE inline
#endif

namespace tlc {
namespace hip {

using half = _Float16;
struct bfloat16 {
  uint16_t bits;
};
/// gfx950's 8-value bf16 MFMA operand, as the bits: the device header's
/// type is a vector of __bf16, which the host compiler moves through
/// float conversions (libcalls the simulated kernel cannot link).
typedef short bf16x8 __attribute__((ext_vector_type(8)));

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
/// wavefront that the block has takes part (a block of 32 threads is a
/// wavefront whose EXEC holds lanes 0..31; reading lane 32 or above there
/// reads a stale register, which the simulator reports).
TLC_SIM_PRIMITIVE inline uint32_t shuffleXor32(uint32_t value,
                                               unsigned offset) {
  return sim::shuffle<3>(sim::warpLanes(), value, int(offset & 63u), 64,
                         TLC_SIM_HERE);
}

} // namespace hip
} // namespace tlc

//===----------------------------------------------------------------------===//
// DPP (CDNA3 ISA, "Data Parallel Processing" of VOP_DPP; GFX9 DPP_CTRL):
// lane l of a VALU instruction reads its source operand from another lane
// of its row of 16 (rows: lanes 16 r .. 16 r + 15; banks: the 4-lane
// quarters of a row):
//   quad_perm (0x00-0xFF)    lane 4 q + i reads 4 q + ((ctrl >> 2 i) & 3)
//   row_shl:n (0x101-0x10F)  lane i of a row reads lane i + n of the row
//   row_shr:n (0x111-0x11F)  lane i of a row reads lane i - n of the row
//   row_mirror (0x140)       lane i of a row reads lane 15 - i
//   row_half_mirror (0x141)  lane i of a half-row reads lane 7 - i
//   row_bcast:15 (0x142)     lanes of row r + 1 read lane 15 of row r
//   row_bcast:31 (0x143)     lanes of rows 2 and 3 read lane 31
// (the two broadcasts are GFX9's, CDNA's included: "broadcast 15th thread
// of each row to next row", "broadcast thread 31 to rows 2 and 3"; row 0,
// and rows 0 and 1, have no source here: invalid, as outside a row).
// A source outside the row is invalid: the lane writes 0 under bound_ctrl,
// else keeps its old value. Lanes outside row_mask / bank_mask are not
// written (keep old). __builtin_amdgcn_update_dpp(old, src, ctrl, row_mask,
// bank_mask, bound_ctrl) is v_mov_b32_dpp with that old value. Other
// controls (rotates, wavefront shifts) trap: nothing uses them.
// __builtin_amdgcn_readlane(v, l) is v_readlane_b32: lane l's v in every
// lane (l uniform; lane l must be one the block has).
//===----------------------------------------------------------------------===//

namespace tlc {
namespace sim {
/// The lane that \p lane reads under DPP control \p ctrl, -1 when the
/// source lies outside the row, -2 for a control not simulated.
inline int dppSource(int lane, int ctrl) {
  int row = lane & ~15, i = lane & 15;
  if (ctrl >= 0 && ctrl <= 0xFF)
    return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10F)
    return i + (ctrl & 15) < 16 ? row + i + (ctrl & 15) : -1;
  if (ctrl >= 0x111 && ctrl <= 0x11F)
    return i - (ctrl & 15) >= 0 ? row + i - (ctrl & 15) : -1;
  if (ctrl == 0x140)
    return row + 15 - i;
  if (ctrl == 0x141)
    return (lane & ~7) + 7 - (lane & 7);
  if (ctrl == 0x142)
    return row >= 16 ? row - 1 : -1;
  if (ctrl == 0x143)
    return row >= 32 ? 31 : -1;
  return -2;
}
} // namespace sim
} // namespace tlc

TLC_SIM_PRIMITIVE inline int __builtin_amdgcn_update_dpp(int old, int src,
                                                         int ctrl, int rowMask,
                                                         int bankMask,
                                                         bool boundCtrl) {
  int lane = int(tlc::sim::linearThread() % 64u);
  uint64_t lanes = tlc::sim::warpLanes();
  int from = tlc::sim::dppSource(lane, ctrl);
  if (from == -2)
    tlc::sim::api->trap("this DPP control is not simulated", TLC_SIM_HERE);
  // A source lane the block does not have is as invalid as one outside the
  // row (EXEC holds only the block's lanes).
  bool valid = from >= 0 && (lanes >> from & 1u);
  int read = tlc::sim::shuffle<0>(lanes, src, valid ? from : lane, 64,
                                  TLC_SIM_HERE);
  bool written =
      (rowMask >> (lane / 16) & 1) && (bankMask >> (lane % 16 / 4) & 1);
  if (!written)
    return old;
  return valid ? read : boundCtrl ? 0 : old;
}

TLC_SIM_PRIMITIVE inline int __builtin_amdgcn_readlane(int value, int lane) {
  return tlc::sim::shuffle<0>(tlc::sim::warpLanes(), value, lane & 63, 64,
                              TLC_SIM_HERE);
}

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
// and _bf8_bf8 (CDNA3; also _fp8_bf8 and _bf8_fp8, srcA in the first named
// format and srcB in the second) take the lanes of the 16x16x32 int8 one, the 8
// bytes of a 64-bit operand being CDNA3's FNUZ fp8 values: sign, 4 (fp8)
// or 5 (bf8) exponent bits with bias 8 or 16, 3 or 2 mantissa bits,
// subnormals at exponent 0, no infinities and 0x80 the only NaN. Their
// 32x32 forms take the lanes of 32x32x8 with 8 values per lane:
// v_mfma_i32_32x32x8i8 (CDNA2; 4 int8 in 32 bits) A[l % 32][4 (l / 32) +
// v], v_mfma_i32_32x32x16_i8 and v_mfma_f32_32x32x16_fp8_fp8 / _bf8_bf8
// (CDNA3; 8 bytes in 64 bits) A[l % 32][8 (l / 32) + v], B likewise, C/D
// in 16 registers as the 32x32x8 f32 ones. The f32 instructions take one
// value per lane: v_mfma_f32_16x16x4f32 A[l % 16][l / 16], B[l / 16][l %
// 16], C/D as 16x16x16f16's; v_mfma_f32_32x32x2f32 A[l % 32][l / 32], B[l
// / 32][l % 32], C/D as 32x32x8f16's. v_mfma_f64_16x16x4f64 (CDNA2
// onwards) takes A and B as 16x16x4f32 does but lays out its 64-bit C/D
// differently: register v of lane l is C/D[i = 4 v + l / 16][j = l % 16]
// (AMD's matrix instruction calculator: 64-bit outputs are one row per
// register pair; IREE's MFMA_F64_16x16x4_F64 layout agrees); its sums are
// formed in long double and rounded to f64 once (products of doubles are
// not exact in double; the hardware's internal precision is not
// modelled). gfx950 (CDNA4) adds v_mfma_f32_16x16x32_f16 / _bf16 and
// 32x32x16_f16 / _bf16, 8 values per lane with the lanes of the 8-bit
// CDNA3 instructions (A[l % M][8 (l / M) + v]). Every one of them is an
// instance of `MfmaShape<T, M, PerLane, F64Out>` below (the tile size, the
// values per lane, the arithmetic type and the result layout); the
// builtins only decode elements.
//===----------------------------------------------------------------------===//

typedef float tlc_sim_floatx4 __attribute__((ext_vector_type(4)));
typedef float tlc_sim_floatx16 __attribute__((ext_vector_type(16)));
typedef _Float16 tlc_sim_halfx4 __attribute__((ext_vector_type(4)));
typedef short tlc_sim_shortx4 __attribute__((ext_vector_type(4)));
typedef int tlc_sim_intx2 __attribute__((ext_vector_type(2)));
typedef int tlc_sim_intx4 __attribute__((ext_vector_type(4)));
typedef int tlc_sim_intx16 __attribute__((ext_vector_type(16)));
typedef double tlc_sim_doublex4 __attribute__((ext_vector_type(4)));
typedef _Float16 tlc_sim_halfx8 __attribute__((ext_vector_type(8)));
typedef tlc::hip::bf16x8 tlc_sim_bf16x8;

namespace tlc {
namespace sim {

/// The lane layout of one \p M x \p M MFMA whose lanes hold \p PerLane
/// values of A and B each (K = 64 PerLane / M), over values of type \p T
/// (double for the f32-result instructions, long double for the f64 one,
/// int64_t for the integer ones): lane l holds A[l % M][PerLane (l / M) +
/// v], B[PerLane (l / M) + v][l % M] and, in accumulator register v,
/// C/D[cRow(l, v)][l % M] (the 64-bit result layout when \p F64Out). Every
/// instruction above is one instance; `run` computes D = A B + C for the
/// wavefront with products and sums in \p T.
template <typename T, int M, int PerLane, bool F64Out = false>
struct MfmaShape {
  static_assert(M == 16 || M == 32, "CDNA MFMA tiles are 16x16 or 32x32");
  static_assert(!F64Out || M == 16, "the f64 MFMA tile is 16x16");
  static constexpr int K = 64 / M * PerLane, Regs = M * M / 64;

  /// One lane's operands and result, exchanged through warpCollective.
  struct Lane {
    T a[PerLane], b[PerLane], c[Regs], d[Regs];
  };

  static constexpr int kOf(int l, int v) { return PerLane * (l / M) + v; }
  static constexpr int cRow(int l, int v) {
    return F64Out    ? 4 * v + l / 16
           : M == 16 ? 4 * (l / 16) + v
                     : 8 * (v / 4) + 4 * (l / 32) + v % 4;
  }

  TLC_SIM_UNCHECKED static void run(void *const *lanes, uint64_t, uint32_t,
                                    uint64_t) {
    T A[M][K], B[K][M], C[M][M];
    for (int l = 0; l < 64; ++l) {
      const Lane *me = static_cast<const Lane *>(lanes[l]);
      for (int v = 0; v < PerLane; ++v) {
        A[l % M][kOf(l, v)] = me->a[v];
        B[kOf(l, v)][l % M] = me->b[v];
      }
      for (int v = 0; v < Regs; ++v)
        C[cRow(l, v)][l % M] = me->c[v];
    }
    for (int l = 0; l < 64; ++l) {
      Lane *me = static_cast<Lane *>(lanes[l]);
      for (int v = 0; v < Regs; ++v) {
        int i = cRow(l, v), j = l % M;
        T sum = C[i][j];
        for (int k = 0; k < K; ++k)
          sum += A[i][k] * B[k][j];
        me->d[v] = sum;
      }
    }
  }
};

/// Issues one MFMA of shape `MfmaShape<T, M, PerLane, F64Out>` for the
/// calling lane: \p elemA(operand, v) is element v of srcA as a \p T,
/// \p elemB of srcB (they differ where the instruction names two formats,
/// as v_mfma_f32_16x16x32_fp8_bf8 does); the result registers are D
/// rounded once to the accumulator's element type (f32 or f64, or int32
/// wrapping modulo 2^32 as the integer adder does).
template <typename T, int M, int PerLane, bool F64Out = false, typename Operand,
          typename Acc, typename ElemA, typename ElemB>
TLC_SIM_UNCHECKED Acc mfma(const char *name, const Operand &a, const Operand &b,
                           Acc c, ElemA elemA, ElemB elemB, uint64_t where) {
  using Shape = MfmaShape<T, M, PerLane, F64Out>;
  typename Shape::Lane me{};
  for (int v = 0; v < PerLane; ++v) {
    me.a[v] = elemA(a, v);
    me.b[v] = elemB(b, v);
  }
  for (int v = 0; v < Shape::Regs; ++v)
    me.c[v] = T(c[v]);
  api->warpCollective(name, ~uint64_t(0), &Shape::run, &me, where);
  Acc d;
  for (int v = 0; v < Shape::Regs; ++v) {
    if constexpr (std::is_integral_v<T>)
      d[v] = int32_t(uint32_t(uint64_t(me.d[v])));
    else if constexpr (F64Out)
      d[v] = double(me.d[v]);
    else
      d[v] = float(me.d[v]);
  }
  return d;
}

/// The same with one element type for both operands.
template <typename T, int M, int PerLane, bool F64Out = false, typename Operand,
          typename Acc, typename Elem>
TLC_SIM_UNCHECKED Acc mfma(const char *name, const Operand &a, const Operand &b,
                           Acc c, Elem elem, uint64_t where) {
  return mfma<T, M, PerLane, F64Out>(name, a, b, c, elem, elem, where);
}

inline double bf16Value(short bits) {
  uint32_t u = uint32_t(uint16_t(bits)) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// The one f32 value of an operand (v is 0).
inline double floatElem(const float &x, int) { return double(x); }
/// The one f64 value of an operand (v is 0).
inline long double doubleElem(const double &x, int) { return x; }
/// Element v of an 8-value f16 or bf16 operand vector (gfx950).
inline double half8Elem(const tlc_sim_halfx8 &x, int v) {
  return double(float(x[v]));
}
inline double bf16x8Elem(const tlc_sim_bf16x8 &x, int v) {
  return bf16Value(x[v]);
}
/// Element v of a 4-value f16 or bf16 operand vector.
inline double halfElem(const tlc_sim_halfx4 &x, int v) {
  return double(float(x[v]));
}
inline double bf16Elem(const tlc_sim_shortx4 &x, int v) {
  return bf16Value(x[v]);
}
/// Byte v of a packed int8 operand, sign-extended.
inline int64_t int8Elem(uint64_t x, int v) {
  return int8_t(uint8_t(x >> (8 * v)));
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
/// Byte v of a packed fp8 (\p Bf8 false) or bf8 operand.
template <bool Bf8> inline double fnuzElem(uint64_t x, int v) {
  return fnuzValue(uint8_t(x >> (8 * v)), Bf8);
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
  return tlc::sim::mfma<double, 16, 4>("v_mfma_f32_16x16x16f16", a, b, c,
                                       &tlc::sim::halfElem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x16bf16_1k(tlc_sim_shortx4 a, tlc_sim_shortx4 b,
                                          tlc_sim_floatx4 c, int cbsz, int abid,
                                          int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 4>("v_mfma_f32_16x16x16bf16_1k", a, b, c,
                                       &tlc::sim::bf16Elem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x8f16(tlc_sim_halfx4 a, tlc_sim_halfx4 b,
                                     tlc_sim_floatx16 c, int cbsz, int abid,
                                     int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 4>("v_mfma_f32_32x32x8f16", a, b, c,
                                       &tlc::sim::halfElem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x8bf16_1k(tlc_sim_shortx4 a, tlc_sim_shortx4 b,
                                         tlc_sim_floatx16 c, int cbsz, int abid,
                                         int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 4>("v_mfma_f32_32x32x8bf16_1k", a, b, c,
                                       &tlc::sim::bf16Elem, TLC_SIM_HERE);
}

TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x4f32(float a, float b, tlc_sim_floatx4 c,
                                     int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 1>("v_mfma_f32_16x16x4f32", a, b, c,
                                       &tlc::sim::floatElem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x2f32(float a, float b, tlc_sim_floatx16 c,
                                     int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 1>("v_mfma_f32_32x32x2f32", a, b, c,
                                       &tlc::sim::floatElem, TLC_SIM_HERE);
}

TLC_SIM_PRIMITIVE inline tlc_sim_doublex4
__builtin_amdgcn_mfma_f64_16x16x4f64(double a, double b, tlc_sim_doublex4 c,
                                     int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<long double, 16, 1, true>(
      "v_mfma_f64_16x16x4f64", a, b, c, &tlc::sim::doubleElem, TLC_SIM_HERE);
}

TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_f16(tlc_sim_halfx8 a, tlc_sim_halfx8 b,
                                       tlc_sim_floatx4 c, int cbsz, int abid,
                                       int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 8>("v_mfma_f32_16x16x32_f16", a, b, c,
                                       &tlc::sim::half8Elem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_bf16(tlc_sim_bf16x8 a, tlc_sim_bf16x8 b,
                                        tlc_sim_floatx4 c, int cbsz, int abid,
                                        int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 8>("v_mfma_f32_16x16x32_bf16", a, b, c,
                                       &tlc::sim::bf16x8Elem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_f16(tlc_sim_halfx8 a, tlc_sim_halfx8 b,
                                       tlc_sim_floatx16 c, int cbsz, int abid,
                                       int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 8>("v_mfma_f32_32x32x16_f16", a, b, c,
                                       &tlc::sim::half8Elem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_bf16(tlc_sim_bf16x8 a, tlc_sim_bf16x8 b,
                                        tlc_sim_floatx16 c, int cbsz, int abid,
                                        int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 8>("v_mfma_f32_32x32x16_bf16", a, b, c,
                                       &tlc::sim::bf16x8Elem, TLC_SIM_HERE);
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
  return tlc::sim::mfma<int64_t, 16, 4>(
      "v_mfma_i32_16x16x16i8", uint64_t(uint32_t(a)), uint64_t(uint32_t(b)), c,
      &tlc::sim::int8Elem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_intx4
__builtin_amdgcn_mfma_i32_16x16x32_i8(long a, long b, tlc_sim_intx4 c, int cbsz,
                                      int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<int64_t, 16, 8>("v_mfma_i32_16x16x32_i8", uint64_t(a),
                                        uint64_t(b), c, &tlc::sim::int8Elem,
                                        TLC_SIM_HERE);
}

TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(long a, long b, tlc_sim_floatx4 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 8>(
      "v_mfma_f32_16x16x32_fp8_fp8", uint64_t(a), uint64_t(b), c,
      &tlc::sim::fnuzElem<false>, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(long a, long b, tlc_sim_floatx4 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 8>("v_mfma_f32_16x16x32_bf8_bf8",
                                       uint64_t(a), uint64_t(b), c,
                                       &tlc::sim::fnuzElem<true>, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(long a, long b, tlc_sim_floatx4 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 8>(
      "v_mfma_f32_16x16x32_fp8_bf8", uint64_t(a), uint64_t(b), c,
      &tlc::sim::fnuzElem<false>, &tlc::sim::fnuzElem<true>, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx4
__builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(long a, long b, tlc_sim_floatx4 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 16, 8>(
      "v_mfma_f32_16x16x32_bf8_fp8", uint64_t(a), uint64_t(b), c,
      &tlc::sim::fnuzElem<true>, &tlc::sim::fnuzElem<false>, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_intx16
__builtin_amdgcn_mfma_i32_32x32x8i8(int a, int b, tlc_sim_intx16 c, int cbsz,
                                    int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<int64_t, 32, 4>(
      "v_mfma_i32_32x32x8i8", uint64_t(uint32_t(a)), uint64_t(uint32_t(b)), c,
      &tlc::sim::int8Elem, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_intx16
__builtin_amdgcn_mfma_i32_32x32x16_i8(long a, long b, tlc_sim_intx16 c,
                                      int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<int64_t, 32, 8>("v_mfma_i32_32x32x16_i8", uint64_t(a),
                                        uint64_t(b), c, &tlc::sim::int8Elem,
                                        TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(long a, long b, tlc_sim_floatx16 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 8>(
      "v_mfma_f32_32x32x16_fp8_fp8", uint64_t(a), uint64_t(b), c,
      &tlc::sim::fnuzElem<false>, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(long a, long b, tlc_sim_floatx16 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 8>("v_mfma_f32_32x32x16_bf8_bf8",
                                       uint64_t(a), uint64_t(b), c,
                                       &tlc::sim::fnuzElem<true>, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(long a, long b, tlc_sim_floatx16 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 8>(
      "v_mfma_f32_32x32x16_fp8_bf8", uint64_t(a), uint64_t(b), c,
      &tlc::sim::fnuzElem<false>, &tlc::sim::fnuzElem<true>, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline tlc_sim_floatx16
__builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(long a, long b, tlc_sim_floatx16 c,
                                           int cbsz, int abid, int blgp) {
  tlc::sim::plainMfma(cbsz, abid, blgp, TLC_SIM_HERE);
  return tlc::sim::mfma<double, 32, 8>(
      "v_mfma_f32_32x32x16_bf8_fp8", uint64_t(a), uint64_t(b), c,
      &tlc::sim::fnuzElem<true>, &tlc::sim::fnuzElem<false>, TLC_SIM_HERE);
}

//===----------------------------------------------------------------------===//
// gfx950's transposing LDS reads ds_read_b64_tr_b16 / ds_read_b64_tr_b8
// (__builtin_amdgcn_ds_read_tr16_b64_v4i16 / _tr8_b64_v2i32). With n = 64 /
// E elements of E bits in a lane's 8 bytes, each row of 16 lanes reads an
// n x 16 block: lane j's 8-byte address holds chunk j of it (block row j /
// (16 / n), columns n (j % (16 / n)) .. + n - 1) and lane j receives column
// j: element v of its result is element j % n of the chunk that lane (16 /
// n) v + j / n of its row read. Every lane reads its own 8 bytes (an
// ordinary checked load, 8-byte aligned); the exchange needs the whole
// wavefront. (The 16-bit rule as Modular's gfx950 kernels use the
// instruction, `ds_read_tr16_b64_row`: "each 16-lane row loads a 4x16 tile
// ... each lane gets a column"; the 8-bit one as Triton's
// `chooseDsReadB64TrLayout` addresses it for MFMA operands: 16 / n lanes
// along the non-K dimension, n along K, each lane ending with n consecutive
// k of its own column. Neither is an AMD ISA table; nothing here ran on
// hardware. tests/lit/Target/HIP/Inputs/tr_lanes.py checks this model
// against NumPy tables of both rules.)
//===----------------------------------------------------------------------===//

namespace tlc {
namespace sim {
struct TransposeLane {
  uint64_t chunk, result;
};
template <int Bits>
TLC_SIM_UNCHECKED inline void transposeRun(void *const *lanes, uint64_t,
                                           uint32_t, uint64_t) {
  constexpr int n = 64 / Bits, across = 16 / n;
  constexpr uint64_t mask = (uint64_t(1) << Bits) - 1;
  for (int l = 0; l < 64; ++l) {
    auto *me = static_cast<TransposeLane *>(lanes[l]);
    int row = l & ~15, j = l & 15;
    uint64_t out = 0;
    for (int v = 0; v < n; ++v) {
      uint64_t from =
          static_cast<TransposeLane *>(lanes[row + across * v + j / n])->chunk;
      out |= ((from >> (Bits * (j % n))) & mask) << (Bits * v);
    }
    me->result = out;
  }
}
/// The exchange of the lanes' chunks for E = \p Bits (the caller's place
/// reported).
template <int Bits>
TLC_SIM_PRIMITIVE inline uint64_t transposeChunks(uint64_t chunk,
                                                  const char *name) {
  if (warpLanes() != ~uint64_t(0))
    api->trap(Bits == 16 ? "ds_read_b64_tr_b16 needs the whole wavefront"
                         : "ds_read_b64_tr_b8 needs the whole wavefront",
              TLC_SIM_HERE);
  TransposeLane me{chunk, 0};
  api->warpCollective(name, ~uint64_t(0), &transposeRun<Bits>, &me,
                      TLC_SIM_HERE);
  return me.result;
}
/// Traps at the caller: \p what.
TLC_SIM_PRIMITIVE inline void transposeMisaligned(const char *what) {
  api->trap(what, TLC_SIM_HERE);
}
/// One lane's transposing read at \p chunk: its checked 8-byte load (an
/// instrumented access, as the kernel's own), then the exchange.
template <int Bits> inline uint64_t readTransposed(const void *chunk) {
  const char *name = Bits == 16 ? "ds_read_b64_tr_b16" : "ds_read_b64_tr_b8";
  if (reinterpret_cast<uintptr_t>(chunk) % 8 != 0)
    transposeMisaligned(
        Bits == 16 ? "ds_read_b64_tr_b16 needs an 8-byte aligned address"
                   : "ds_read_b64_tr_b8 needs an 8-byte aligned address");
  uint64_t mine = *static_cast<const uint64_t *>(chunk);
  return transposeChunks<Bits>(mine, name);
}
} // namespace sim
} // namespace tlc

inline tlc_sim_shortx4
__builtin_amdgcn_ds_read_tr16_b64_v4i16(const tlc_sim_shortx4 *chunk) {
  uint64_t out = tlc::sim::readTransposed<16>(chunk);
  tlc_sim_shortx4 v;
  std::memcpy(&v, &out, 8);
  return v;
}

inline tlc_sim_intx2
__builtin_amdgcn_ds_read_tr8_b64_v2i32(const tlc_sim_intx2 *chunk) {
  uint64_t out = tlc::sim::readTransposed<8>(chunk);
  tlc_sim_intx2 v;
  std::memcpy(&v, &out, 8);
  return v;
}

//===----------------------------------------------------------------------===//
// Raw buffer loads (CDNA3 ISA, "Buffer Instructions", range checking): a
// resource with stride 0 holds a base address and num_records bytes; a
// load at byte offset voffset + soffset (unsigned) is in range when offset
// + size <= num_records and then reads memory, else it returns zero and
// reads nothing. Loads of several dwords (_dwordx2 / _dwordx4) are range
// checked per component ("Load/store-Dword-x{2,3,4} range-check per
// component"; LLVM's AMDGPUUsage: each 32-bit word independently, offsets
// unsigned and saturating): a load straddling num_records reads its dwords
// in range and zero for the rest.
//===----------------------------------------------------------------------===//

struct __amdgpu_buffer_rsrc_t {
  const char *base;
  uint32_t numRecords;
};
typedef unsigned tlc_sim_uintx2 __attribute__((ext_vector_type(2)));
typedef unsigned tlc_sim_uintx4 __attribute__((ext_vector_type(4)));

namespace tlc {
namespace sim {
/// Traps at the caller: \p what of a buffer access is not simulated.
TLC_SIM_PRIMITIVE inline void bufferUnsimulated(const char *what) {
  api->trap(what, TLC_SIM_HERE);
}
/// The load of \p T at \p voffset + \p soffset of \p r: each component
/// (the whole value up to a dword, else each dword) read from memory when
/// it lies in range, zero past it (the reads are ordinary, checked ones).
template <typename T>
inline T bufferLoad(__amdgpu_buffer_rsrc_t r, int voffset, int soffset,
                    int aux) {
  if (aux != 0)
    bufferUnsimulated("buffer loads with cache bits are not simulated");
  uint64_t off = uint64_t(uint32_t(voffset)) + uint32_t(soffset);
  if (off + sizeof(T) <= r.numRecords) // wholly in range: one load
    return *reinterpret_cast<const T *>(r.base + off);
  if constexpr (sizeof(T) <= 4) {
    return T{};
  } else {
    uint32_t words[sizeof(T) / 4] = {};
    for (unsigned p = 0; p < sizeof(T) / 4; ++p)
      if (off + 4 * p + 4 <= r.numRecords)
        words[p] = *reinterpret_cast<const uint32_t *>(r.base + off + 4 * p);
    T out;
    std::memcpy(&out, words, sizeof(T));
    return out;
  }
}
} // namespace sim
} // namespace tlc

inline __amdgpu_buffer_rsrc_t __builtin_amdgcn_make_buffer_rsrc(void *base,
                                                                short stride,
                                                                int numRecords,
                                                                int flags) {
  if (stride != 0)
    tlc::sim::bufferUnsimulated(
        "buffer resources with a stride are not simulated");
  (void)flags;
  return {static_cast<const char *>(base), uint32_t(numRecords)};
}

inline uint16_t __builtin_amdgcn_raw_buffer_load_b16(__amdgpu_buffer_rsrc_t r,
                                                     int voffset, int soffset,
                                                     int aux) {
  return tlc::sim::bufferLoad<uint16_t>(r, voffset, soffset, aux);
}
inline uint32_t __builtin_amdgcn_raw_buffer_load_b32(__amdgpu_buffer_rsrc_t r,
                                                     int voffset, int soffset,
                                                     int aux) {
  return tlc::sim::bufferLoad<uint32_t>(r, voffset, soffset, aux);
}
inline tlc_sim_uintx2
__builtin_amdgcn_raw_buffer_load_b64(__amdgpu_buffer_rsrc_t r, int voffset,
                                     int soffset, int aux) {
  return tlc::sim::bufferLoad<tlc_sim_uintx2>(r, voffset, soffset, aux);
}
inline tlc_sim_uintx4
__builtin_amdgcn_raw_buffer_load_b128(__amdgpu_buffer_rsrc_t r, int voffset,
                                      int soffset, int aux) {
  return tlc::sim::bufferLoad<tlc_sim_uintx4>(r, voffset, soffset, aux);
}

#endif // TLC_DEVICE_HIP_COMMON_H
