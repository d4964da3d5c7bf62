//===- mfma.h - Matrix fused multiply-add (HIP, CDNA) -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mfmaF32x16x16x16(acc, a, b): one v_mfma_f32_16x16x16f16 (f16 operands)
// or v_mfma_f32_16x16x16bf16_1k (bf16) of the calling wavefront, with
// acc[0..3] this lane's accumulator registers and a, b its four srcA and
// srcB elements (the lane layouts are in the printer, HIPEmitterGemm.cpp).
//
// mfmaF32x32x32x8(acc, a, b): one v_mfma_f32_32x32x8f16 (f16) or
// v_mfma_f32_32x32x8bf16_1k (bf16), acc[0..15] this lane's 16 accumulator
// registers, a and b its four srcA and srcB elements.
//
// The same two steps on f32 operands (f32 / tf32 A and B: a and b are
// four floats of the lane, k = 4 (lane / T) + v as above) issue four
// v_mfma_f32_16x16x4f32 / v_mfma_f32_32x32x2f32, each on value v of every
// lane: instruction v sums A[i][4 g + v] B[4 g + v][j] over the lane
// groups g, so the four cover the step's K with the operand lanes of the
// 16-bit steps (gfx90a, gfx942 and gfx950 all have both; the products are
// exact f32, not tf32). mfmaF32x16x16x16 with an f16 accumulator (acc of
// type half, f16 a and b) widens the lane's accumulators to f32, issues
// the instruction and rounds each back to f16 once (nearest even): CDNA
// has no MFMA that accumulates in f16.
//
// mfmaF32x16x16x16 with a bf16 accumulator (acc of type bfloat16, bf16 a
// and b) does the same: widened to f32 around the instruction, each
// rounded back to bf16 once (nearest even). No CDNA MFMA accumulates in
// bf16 either.
//
// mfmaF64x16x16x16(acc, a, b): f64 A and B into f64 accumulators with the
// lanes of the 16-bit steps (4 values of k = 4 (lane / 16) + v), four
// v_mfma_f64_16x16x4f64 each taking value v of every lane (gfx90a,
// gfx942, gfx950). Its result layout is not the f32 16x16 one: register r
// of lane l holds D[4 r + l / 16][l % 16] (AMD's matrix instruction
// calculator, "64b outputs ... one row (register-pair) tall"; IREE's
// MFMA_F64_16x16x4_F64 accumulator layout says the same), so the printer
// hands lane l the column 4 (l % 4) + (l % 16) / 4 of B's tile as srcA
// row: D[4 r + g][j] is then C[j][4 g + r], the f32 accumulator layout.
//
// mfmaF32x16x16x32(acc, a, b) / mfmaF32x32x32x16(acc, a, b) on f16 or
// bf16: a and b this lane's 8 values at k = 8 (lane / T) + v, T the tile
// (the lanes of k_pack 2's step). gfx950 (CDNA4) has
// v_mfma_f32_16x16x32_f16 / _bf16 and v_mfma_f32_32x32x16_f16 / _bf16 for
// them (A[l % T][8 (l / T) + v]: IREE's MFMA_F32_16x16x32_F16 /
// 32x32x16 layouts, as the 8-bit 16x16x32 / 32x32x16 instructions of
// CDNA3); elsewhere it is two 16x16x16 / 32x32x8 instructions over values
// 0..3, then 4..7, the same products in the same order as k_pack 2's two
// steps.
//
// dp4a(a, b, c) / dp4a(unsigned ...): T.dp4a, c plus the dot product of
// the four bytes of a and b (signed, or unsigned), wrapping modulo 2^32:
// v_dot4_i32_i8 / v_dot4_u32_u8 (__builtin_amdgcn_sdot4 / udot4 without
// clamping), which gfx90a, gfx942 and gfx950 have.
//
// mfmaI32x16x16x32(acc, a, b): an int8 16x16x32 step with int32
// accumulators, a and b this lane's 8 values (k = 8 (lane / 16) + v). CDNA3
// (gfx942, gfx950) has v_mfma_i32_16x16x32_i8 for it; CDNA2 (gfx90a) only
// v_mfma_i32_16x16x16i8, so there it is two of those, the first over
// values 0..3 of every lane and the second over 4..7: each pairs A's and
// B's values of the same k, and integer sums do not depend on the order.
//
// mfmaF32x16x16x32<E5M2>(acc, a, b): an fp8 16x16x32 step with f32
// accumulators, a and b this lane's 8 OCP fp8 values (e4m3fn, or e5m2 when
// E5M2), the lanes of the int8 step. gfx942 (CDNA3) has
// v_mfma_f32_16x16x32_fp8_fp8 / _bf8_bf8, but reads its operands as the
// FNUZ formats, whose exponent bias is one more than OCP's (8 for e4m3, 16
// for e5m2): the OCP bit pattern of every finite value reads as half of
// it. So the OCP bits are passed unchanged except -0 (FNUZ NaN 0x80) made
// +0 and NaN (and e5m2's infinities, which FNUZ lacks) made 0x80, and the
// instruction computes (A B + C / 4) with C scaled by 1/4 before and the
// result by 4 after (exact: powers of two, outside f32's subnormals).
// Every other architecture (gfx90a has no fp8 MFMA; gfx950 reads OCP
// formats, not checked here) converts the values to f16, exactly, and
// issues two v_mfma_f32_16x16x16f16 as the int8 step does on CDNA2.
// With Fnuz the values are FNUZ already (float8_e4m3fnuz / e5m2fnuz
// tensors): gfx942 passes them unchanged and unscaled. With E5M2B unlike
// E5M2, b holds the other format (an e4m3 x e5m2 gemm): gfx942 issues
// v_mfma_f32_16x16x32_fp8_bf8 (a e4m3, b e5m2) or _bf8_fp8, whose first
// named format is srcA's; both read as half their value, so the scaling is
// the same.
//
// mfmaI32x32x32x16(acc, a, b) and mfmaF32x32x32x16<E5M2>(acc, a, b): the
// 32x32 forms of the two 8-bit steps (K = 16, a and b this lane's 8 values
// at k = 8 (lane / 32) + v, acc[0..15] as mfmaF32x32x32x8's): CDNA3's
// v_mfma_i32_32x32x16_i8 and v_mfma_f32_32x32x16_fp8_fp8 / _bf8_bf8 (FNUZ,
// scaled as above); on CDNA2 two v_mfma_i32_32x32x8i8 (values 0..3, then
// 4..7), and for fp8 elsewhere two v_mfma_f32_32x32x8f16 of the values
// converted to f16.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_MFMA_H
#define TLC_DEVICE_HIP_MFMA_H

#include "tlc_device/hip/common.h"
#include "tlc_device/hip/convert.h"

namespace tlc {
namespace hip {

typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef _Float16 halfx4 __attribute__((ext_vector_type(4)));
typedef short shortx4 __attribute__((ext_vector_type(4)));

TLC_DEVICE void mfmaF32x16x16x16(float *acc, const half *a, const half *b) {
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  halfx4 x = {a[0], a[1], a[2], a[3]}, y = {b[0], b[1], b[2], b[3]};
  c = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, c, 0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}
TLC_DEVICE void mfmaF32x16x16x16(float *acc, const bfloat16 *a,
                                 const bfloat16 *b) {
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  shortx4 x = {short(a[0].bits), short(a[1].bits), short(a[2].bits),
               short(a[3].bits)};
  shortx4 y = {short(b[0].bits), short(b[1].bits), short(b[2].bits),
               short(b[3].bits)};
  c = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(x, y, c, 0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}

TLC_DEVICE int dp4a(int a, int b, int c) {
  return __builtin_amdgcn_sdot4(a, b, c, false);
}
TLC_DEVICE unsigned dp4a(unsigned a, unsigned b, unsigned c) {
  return __builtin_amdgcn_udot4(a, b, c, false);
}

typedef float floatx16 __attribute__((ext_vector_type(16)));

TLC_DEVICE void mfmaF32x32x32x8(float *acc, const half *a, const half *b) {
  floatx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = acc[v];
  halfx4 x = {a[0], a[1], a[2], a[3]}, y = {b[0], b[1], b[2], b[3]};
  c = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, c, 0, 0, 0);
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v];
}
TLC_DEVICE void mfmaF32x32x32x8(float *acc, const bfloat16 *a,
                                const bfloat16 *b) {
  floatx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = acc[v];
  shortx4 x = {short(a[0].bits), short(a[1].bits), short(a[2].bits),
               short(a[3].bits)};
  shortx4 y = {short(b[0].bits), short(b[1].bits), short(b[2].bits),
               short(b[3].bits)};
  c = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(x, y, c, 0, 0, 0);
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v];
}

TLC_DEVICE void mfmaF32x16x16x16(float *acc, const float *a, const float *b) {
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  for (int v = 0; v < 4; ++v)
    c = __builtin_amdgcn_mfma_f32_16x16x4f32(a[v], b[v], c, 0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}
TLC_DEVICE void mfmaF32x32x32x8(float *acc, const float *a, const float *b) {
  floatx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = acc[v];
  for (int v = 0; v < 4; ++v)
    c = __builtin_amdgcn_mfma_f32_32x32x2f32(a[v], b[v], c, 0, 0, 0);
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v];
}
/// One v_mfma_f32_16x16x4f32 / _32x32x2f32 on the lane's one value of A
/// and of B (T.tvm_mfma's f32 shapes, TileLang's k_dim 4).
TLC_DEVICE void mfmaF32x16x16x4(float *acc, const float *a, const float *b) {
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  c = __builtin_amdgcn_mfma_f32_16x16x4f32(a[0], b[0], c, 0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}
TLC_DEVICE void mfmaF32x32x32x2(float *acc, const float *a, const float *b) {
  floatx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = acc[v];
  c = __builtin_amdgcn_mfma_f32_32x32x2f32(a[0], b[0], c, 0, 0, 0);
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v];
}

/// A 16x16x16 f16 step into f16 accumulators: the lane's four widened to
/// f32 for v_mfma_f32_16x16x16f16, then each rounded back once.
TLC_DEVICE void mfmaF32x16x16x16(half *acc, const half *a, const half *b) {
  float c[4] = {float(acc[0]), float(acc[1]), float(acc[2]), float(acc[3])};
  mfmaF32x16x16x16(c, a, b);
  for (int v = 0; v < 4; ++v)
    acc[v] = half(c[v]);
}

/// The bf16 form: the lane's four widened to f32, rounded back once each.
TLC_DEVICE void mfmaF32x16x16x16(bfloat16 *acc, const bfloat16 *a,
                                 const bfloat16 *b) {
  float c[4] = {toFloat(acc[0]), toFloat(acc[1]), toFloat(acc[2]),
                toFloat(acc[3])};
  mfmaF32x16x16x16(c, a, b);
  for (int v = 0; v < 4; ++v)
    acc[v] = toBFloat16(c[v]);
}

typedef double doublex4 __attribute__((ext_vector_type(4)));

/// f64: four v_mfma_f64_16x16x4f64, value v of every lane in the v-th; the
/// result registers are laid out as the file comment says.
TLC_DEVICE void mfmaF64x16x16x16(double *acc, const double *a,
                                 const double *b) {
  doublex4 c = {acc[0], acc[1], acc[2], acc[3]};
  for (int v = 0; v < 4; ++v)
    c = __builtin_amdgcn_mfma_f64_16x16x4f64(a[v], b[v], c, 0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}

#if defined(__gfx950__)
typedef _Float16 halfx8 __attribute__((ext_vector_type(8)));
TLC_DEVICE halfx8 packHalf8(const half *v) {
  halfx8 x;
  for (int e = 0; e < 8; ++e)
    x[e] = v[e];
  return x;
}
typedef short shortx8 __attribute__((ext_vector_type(8)));
/// The bits of 8 bf16 values as the instruction's operand vector (built as
/// integers and cast whole: no __bf16 arithmetic or conversion; bf16x8 is
/// common.h's).
TLC_DEVICE bf16x8 packBf16x8(const bfloat16 *v) {
  shortx8 x;
  for (int e = 0; e < 8; ++e)
    x[e] = short(v[e].bits);
  return __builtin_bit_cast(bf16x8, x);
}
#endif

TLC_DEVICE void mfmaF32x16x16x32(float *acc, const half *a, const half *b) {
#if defined(__gfx950__)
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  c = __builtin_amdgcn_mfma_f32_16x16x32_f16(packHalf8(a), packHalf8(b), c, 0,
                                             0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
#else
  mfmaF32x16x16x16(acc, a, b);
  mfmaF32x16x16x16(acc, a + 4, b + 4);
#endif
}
TLC_DEVICE void mfmaF32x16x16x32(float *acc, const bfloat16 *a,
                                 const bfloat16 *b) {
#if defined(__gfx950__)
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  c = __builtin_amdgcn_mfma_f32_16x16x32_bf16(packBf16x8(a), packBf16x8(b), c,
                                              0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
#else
  mfmaF32x16x16x16(acc, a, b);
  mfmaF32x16x16x16(acc, a + 4, b + 4);
#endif
}
TLC_DEVICE void mfmaF32x32x32x16(float *acc, const half *a, const half *b) {
#if defined(__gfx950__)
  floatx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = acc[v];
  c = __builtin_amdgcn_mfma_f32_32x32x16_f16(packHalf8(a), packHalf8(b), c, 0,
                                             0, 0);
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v];
#else
  mfmaF32x32x32x8(acc, a, b);
  mfmaF32x32x32x8(acc, a + 4, b + 4);
#endif
}
TLC_DEVICE void mfmaF32x32x32x16(float *acc, const bfloat16 *a,
                                 const bfloat16 *b) {
#if defined(__gfx950__)
  floatx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = acc[v];
  c = __builtin_amdgcn_mfma_f32_32x32x16_bf16(packBf16x8(a), packBf16x8(b), c,
                                              0, 0, 0);
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v];
#else
  mfmaF32x32x32x8(acc, a, b);
  mfmaF32x32x32x8(acc, a + 4, b + 4);
#endif
}

typedef int intx4 __attribute__((ext_vector_type(4)));

/// Elements first .. first + n - 1 (n <= 8) of \p v packed little-endian,
/// one byte each: an int8 MFMA operand register.
TLC_DEVICE unsigned long long packInt8(const int8_t *v, int first, int n) {
  unsigned long long bits = 0;
  for (int e = 0; e < n; ++e)
    bits |= (unsigned long long)(uint8_t)v[first + e] << (8 * e);
  return bits;
}

TLC_DEVICE void mfmaI32x16x16x32(int *acc, const int8_t *a, const int8_t *b) {
  intx4 c = {acc[0], acc[1], acc[2], acc[3]};
#if defined(__gfx90a__)
  c = __builtin_amdgcn_mfma_i32_16x16x16i8(int(packInt8(a, 0, 4)),
                                           int(packInt8(b, 0, 4)), c, 0, 0, 0);
  c = __builtin_amdgcn_mfma_i32_16x16x16i8(int(packInt8(a, 4, 4)),
                                           int(packInt8(b, 4, 4)), c, 0, 0, 0);
#else
  c = __builtin_amdgcn_mfma_i32_16x16x32_i8(long(packInt8(a, 0, 8)),
                                            long(packInt8(b, 0, 8)), c, 0, 0, 0);
#endif
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}

typedef int intx16 __attribute__((ext_vector_type(16)));

TLC_DEVICE void mfmaI32x32x32x16(int *acc, const int8_t *a, const int8_t *b) {
  intx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = acc[v];
#if defined(__gfx90a__)
  c = __builtin_amdgcn_mfma_i32_32x32x8i8(int(packInt8(a, 0, 4)),
                                          int(packInt8(b, 0, 4)), c, 0, 0, 0);
  c = __builtin_amdgcn_mfma_i32_32x32x8i8(int(packInt8(a, 4, 4)),
                                          int(packInt8(b, 4, 4)), c, 0, 0, 0);
#else
  c = __builtin_amdgcn_mfma_i32_32x32x16_i8(long(packInt8(a, 0, 8)),
                                            long(packInt8(b, 0, 8)), c, 0, 0, 0);
#endif
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v];
}

/// uint8 operands of the int8 steps. The instructions multiply signed
/// bytes; an unsigned byte u is (u ^ 0x80) + 128 with u ^ 0x80 read as
/// signed. So with a = a' + 128 alpha and b = b' + 128 beta (alpha, beta 1
/// for an unsigned operand, else 0), sum a b = sum a' b' + 128 beta sum a'
/// + 128 alpha sum b' + 128^2 alpha beta K: the step on (a', b'), twice
/// the step on (a', 64...) and on (64..., b') where needed, and the
/// constant 2^14 K (K = 32 per 16x16 step, 16 per 32x32 one) added to
/// every accumulator; exact modulo 2^32 like the signed step.
template <typename T>
TLC_DEVICE void flipInt8(int8_t *out, const T *v, bool flip) {
  for (int e = 0; e < 8; ++e)
    out[e] = int8_t(uint8_t(v[e]) ^ (flip ? 0x80u : 0u));
}
/// The steps above around one signed step \p step of \p N accumulators, K
/// = \p K products each.
template <bool AUnsigned, bool BUnsigned, int N, unsigned K, typename Step,
          typename TA, typename TB>
TLC_DEVICE void mfmaI32Unsigned(Step step, int *acc, const TA *a,
                                const TB *b) {
  int8_t x[8], y[8], ones[8];
  flipInt8(x, a, AUnsigned);
  flipInt8(y, b, BUnsigned);
  for (int e = 0; e < 8; ++e)
    ones[e] = 64;
  step(acc, x, y);
  for (int twice = 0; twice < 2; ++twice) {
    if (BUnsigned)
      step(acc, x, ones);
    if (AUnsigned)
      step(acc, ones, y);
  }
  if (AUnsigned && BUnsigned)
    for (int v = 0; v < N; ++v)
      acc[v] = int(unsigned(acc[v]) + (1u << 14) * K);
}
template <bool AUnsigned, bool BUnsigned, typename TA, typename TB>
TLC_DEVICE void mfmaI32x16x16x32(int *acc, const TA *a, const TB *b) {
  mfmaI32Unsigned<AUnsigned, BUnsigned, 4, 32>(
      [](int *c, const int8_t *x, const int8_t *y) {
        mfmaI32x16x16x32(c, x, y);
      },
      acc, a, b);
}
template <bool AUnsigned, bool BUnsigned, typename TA, typename TB>
TLC_DEVICE void mfmaI32x32x32x16(int *acc, const TA *a, const TB *b) {
  mfmaI32Unsigned<AUnsigned, BUnsigned, 16, 16>(
      [](int *c, const int8_t *x, const int8_t *y) {
        mfmaI32x32x32x16(c, x, y);
      },
      acc, a, b);
}

/// OCP fp8 bits as the FNUZ bits of half the value (see the file comment).
template <bool E5M2> TLC_DEVICE long packFnuz(const uint8_t *v) {
  unsigned long long bits = 0;
  for (int e = 0; e < 8; ++e) {
    unsigned x = v[e];
    bool special = E5M2 ? (x & 0x7cu) == 0x7cu : (x & 0x7fu) == 0x7fu;
    x = special ? 0x80u : (x & 0x7fu) == 0 ? 0u : x;
    bits |= (unsigned long long)x << (8 * e);
  }
  return long(bits);
}
/// FNUZ fp8 bits as they are (the instruction's own format).
TLC_DEVICE long packBytes(const uint8_t *v) {
  unsigned long long bits = 0;
  for (int e = 0; e < 8; ++e)
    bits |= (unsigned long long)v[e] << (8 * e);
  return long(bits);
}
/// An fp8 value (OCP, or FNUZ when Fnuz) as f16 (exact: every value of the
/// four formats is an f16, FNUZ's 0x80 a NaN).
template <bool E5M2, bool Fnuz> TLC_DEVICE half fp8ToHalf(uint8_t x) {
  if (Fnuz)
    return half(E5M2 ? fp8E5M2FnuzToFloat(x) : fp8E4M3FnuzToFloat(x));
  if (E5M2) // e5m2 is the top byte of an f16
    return bitCast<half>(uint16_t(uint16_t(x) << 8));
  return half(fp8E4M3ToFloat(x));
}

/// One gfx942 fp8 MFMA of \p Rows x \p Rows tiles on the packed bytes: srcA
/// in e5m2 (bf8) when E5M2A, srcB when E5M2B (FNUZ formats).
template <bool E5M2A, bool E5M2B, typename Acc>
TLC_DEVICE Acc mfmaFp8x16(long a, long b, Acc c) {
#if defined(__gfx942__)
  if constexpr (E5M2A && E5M2B)
    return __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a, b, c, 0, 0, 0);
  else if constexpr (E5M2A)
    return __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(a, b, c, 0, 0, 0);
  else if constexpr (E5M2B)
    return __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(a, b, c, 0, 0, 0);
  else
    return __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, 0, 0, 0);
#else
  return c;
#endif
}
template <bool E5M2A, bool E5M2B, typename Acc>
TLC_DEVICE Acc mfmaFp8x32(long a, long b, Acc c) {
#if defined(__gfx942__)
  if constexpr (E5M2A && E5M2B)
    return __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(a, b, c, 0, 0, 0);
  else if constexpr (E5M2A)
    return __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(a, b, c, 0, 0, 0);
  else if constexpr (E5M2B)
    return __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(a, b, c, 0, 0, 0);
  else
    return __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, c, 0, 0, 0);
#else
  return c;
#endif
}

template <bool E5M2, bool Fnuz = false, bool E5M2B = E5M2>
TLC_DEVICE void mfmaF32x16x16x32(float *acc, const uint8_t *a,
                                 const uint8_t *b) {
#if defined(__gfx942__)
  if constexpr (Fnuz) { // the instruction's own formats: no scaling
    floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
    c = mfmaFp8x16<E5M2, E5M2B>(packBytes(a), packBytes(b), c);
    acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
    return;
  }
  floatx4 c = {acc[0] * 0.25f, acc[1] * 0.25f, acc[2] * 0.25f, acc[3] * 0.25f};
  c = mfmaFp8x16<E5M2, E5M2B>(packFnuz<E5M2>(a), packFnuz<E5M2B>(b), c);
  acc[0] = c[0] * 4.0f, acc[1] = c[1] * 4.0f, acc[2] = c[2] * 4.0f,
  acc[3] = c[3] * 4.0f;
#else
  for (int step = 0; step < 2; ++step) { // values 0..3, then 4..7
    half x[4], y[4];
    for (int v = 0; v < 4; ++v) {
      x[v] = fp8ToHalf<E5M2, Fnuz>(a[4 * step + v]);
      y[v] = fp8ToHalf<E5M2B, Fnuz>(b[4 * step + v]);
    }
    mfmaF32x16x16x16(acc, x, y);
  }
#endif
}

template <bool E5M2, bool Fnuz = false, bool E5M2B = E5M2>
TLC_DEVICE void mfmaF32x32x32x16(float *acc, const uint8_t *a,
                                 const uint8_t *b) {
#if defined(__gfx942__)
  floatx16 c;
  for (int v = 0; v < 16; ++v)
    c[v] = Fnuz ? acc[v] : acc[v] * 0.25f;
  if constexpr (Fnuz) { // the instruction's own formats: no scaling
    c = mfmaFp8x32<E5M2, E5M2B>(packBytes(a), packBytes(b), c);
    for (int v = 0; v < 16; ++v)
      acc[v] = c[v];
    return;
  }
  c = mfmaFp8x32<E5M2, E5M2B>(packFnuz<E5M2>(a), packFnuz<E5M2B>(b), c);
  for (int v = 0; v < 16; ++v)
    acc[v] = c[v] * 4.0f;
#else
  for (int step = 0; step < 2; ++step) { // values 0..3, then 4..7
    half x[4], y[4];
    for (int v = 0; v < 4; ++v) {
      x[v] = fp8ToHalf<E5M2, Fnuz>(a[4 * step + v]);
      y[v] = fp8ToHalf<E5M2B, Fnuz>(b[4 * step + v]);
    }
    mfmaF32x32x32x8(acc, x, y);
  }
#endif
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_MFMA_H
