//===- cpu/gemm.h - Matrix multiply of CPU kernels --------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `gemm` (T.gemm on the CPU target): packed operands and a register-blocked,
/// vectorised micro-kernel that keeps the loop nest's per-element k order, so
/// results are those of the plain loop nest bit for bit (fused multiply-adds
/// only where every product is exact in the accumulator, which rounds the
/// same way: see productsExact).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_GEMM_H
#define TLC_DEVICE_CPU_GEMM_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#endif

#include "tlc_device/cpu/types.h"
#include "tlc_device/cpu/view.h"

namespace tlc {
namespace cpu {

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

/// Element (r, c) of the two innermost dimensions of \p v (the leading
/// indices 0), zero outside the underlying buffer.
template <typename T, int R>
inline T loadMatrix(const View<T, R> &v, int64_t r, int64_t c) {
  static_assert(R >= 2, "a matrix view has rank >= 2");
  int64_t idx[R] = {};
  idx[R - 2] = r;
  idx[R - 1] = c;
  return load(v, idx);
}

/// True when the \p rows x \p cols matrix at the origin of the two
/// innermost dimensions of \p v (leading indices 0) lies inside the
/// underlying buffer, so that element (r, c) is
/// `v.base[v.origin + r * v.stride[R - 2] + c * v.stride[R - 1]]`.
template <typename T, int R>
inline bool matrixInBounds(const View<T, R> &v, int64_t rows, int64_t cols) {
  for (int d = 0; d < R - 2; ++d)
    if (v.lo[d] > 0 || v.hi[d] <= 0)
      return false;
  return v.lo[R - 2] <= 0 && v.hi[R - 2] >= rows && v.lo[R - 1] <= 0 &&
         v.hi[R - 1] >= cols;
}

namespace detail {

/// Rows of the gemm micro-kernel's register tile.
constexpr int kGemmRows = 6;

/// acc + a * b (float vectors of \p VB bytes) as one fused multiply-add:
/// the vfmadd builtins on x86-64 (expanded in the function they are inlined
/// into, which is compiled for AVX-512 or AVX2 + FMA and runs only where
/// gemmHasFusedMultiplyAdd), std::fma per lane elsewhere. Only for exact
/// products.
template <int VB, typename V>
__attribute__((always_inline)) inline V fusedMultiplyAdd(V a, V b, V acc) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  if constexpr (VB == 64)
    return __builtin_ia32_vfmaddps512_mask(a, b, acc, (unsigned short)0xffff,
                                           4 /* current rounding */);
  else if constexpr (VB == 32)
    return __builtin_ia32_vfmaddps256(a, b, acc);
#endif
  for (int l = 0; l < VB / 4; ++l)
    acc[l] = std::fma(a[l], b[l], acc[l]);
  return acc;
}

/// The micro-kernel of gemm with vectors of \p VB bytes: for every
/// kGemmRows x NR tile of C (NR = two vectors of Acc), loads the tile into
/// registers, adds `a[i][kk] * b[kk][j]` for kk = 0, 1, ..., k-1 in that
/// order (a product rounded to Acc, then a sum rounded to Acc: the code is
/// compiled with -ffp-contract=off, so never fused), and stores it back.
/// Each element of C therefore sees exactly the sums of the loop nest
/// `acc += a * b`; only the order in which elements are computed changes.
/// \p pa holds A row-major (`pa[i*k + kk]`) with zero rows up to a
/// multiple of kGemmRows (the micro-kernel broadcasts its elements from
/// kGemmRows row streams), \p pb holds B in panels of NR columns
/// (`pb[q*k*NR + kk*NR + c]`), zero padded; \p c is m x n with row stride
/// \p ldc.
///
/// With \p Fused (float, 32- or 64-byte vectors; only when productsExact
/// holds for the packed operands) `acc + a * b` is one fused multiply-add:
/// its product is exact, so rounding the sum once is the same as rounding
/// the product (to itself) and then the sum. Same bits, half the operations.
template <typename Acc, int VB, bool Fused = false>
__attribute__((always_inline)) inline void
gemmTiles(const Acc *__restrict pa, const Acc *__restrict pb, Acc *__restrict c,
          int64_t ldc, int64_t m, int64_t n, int64_t k) {
  typedef Acc V __attribute__((vector_size(VB)));
  constexpr int L = VB / int(sizeof(Acc));
  constexpr int MR = kGemmRows, NR = 2 * L;
  for (int64_t j0 = 0; j0 < n; j0 += NR) {
    const Acc *bp = pb + (j0 / NR) * k * NR;
    const int64_t nr = std::min<int64_t>(NR, n - j0);
    for (int64_t i0 = 0; i0 < m; i0 += MR) {
      const Acc *ap = pa + i0 * k;
      const int64_t mr = std::min<int64_t>(MR, m - i0);
      bool full = mr == MR && nr == NR;
      Acc edge[MR][NR];
      V acc[MR][2];
      if (full) {
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(&acc[r][0], c + (i0 + r) * ldc + j0, VB);
          __builtin_memcpy(&acc[r][1], c + (i0 + r) * ldc + j0 + L, VB);
        }
      } else {
        for (int r = 0; r < MR; ++r)
          for (int j = 0; j < NR; ++j)
            edge[r][j] =
                (r < mr && j < nr) ? c[(i0 + r) * ldc + j0 + j] : Acc();
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(&acc[r][0], &edge[r][0], VB);
          __builtin_memcpy(&acc[r][1], &edge[r][L], VB);
        }
      }
      for (int64_t kk = 0; kk < k; ++kk) {
        V b0, b1;
        __builtin_memcpy(&b0, bp + kk * NR, VB);
        __builtin_memcpy(&b1, bp + kk * NR + L, VB);
#pragma GCC unroll 16
        for (int r = 0; r < MR; ++r) {
          Acc a = ap[r * k + kk];
          if constexpr (Fused) {
            const V av = a - V{}; // a broadcast (x - +0 is x, -0 included)
            acc[r][0] = fusedMultiplyAdd<VB>(av, b0, acc[r][0]);
            acc[r][1] = fusedMultiplyAdd<VB>(av, b1, acc[r][1]);
          } else {
            acc[r][0] = acc[r][0] + a * b0;
            acc[r][1] = acc[r][1] + a * b1;
          }
        }
      }
      if (full) {
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(c + (i0 + r) * ldc + j0, &acc[r][0], VB);
          __builtin_memcpy(c + (i0 + r) * ldc + j0 + L, &acc[r][1], VB);
        }
      } else {
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(&edge[r][0], &acc[r][0], VB);
          __builtin_memcpy(&edge[r][L], &acc[r][1], VB);
        }
        for (int r = 0; r < mr; ++r)
          for (int j = 0; j < nr; ++j)
            c[(i0 + r) * ldc + j0 + j] = edge[r][j];
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TLC_CPU_GEMM_DISPATCH 1
template <typename Acc>
__attribute__((target("avx512f"))) void
gemmTiles512(const Acc *pa, const Acc *pb, Acc *c, int64_t ldc, int64_t m,
             int64_t n, int64_t k) {
  gemmTiles<Acc, 64>(pa, pb, c, ldc, m, n, k);
}
template <typename Acc>
__attribute__((target("avx2"))) void
gemmTiles256(const Acc *pa, const Acc *pb, Acc *c, int64_t ldc, int64_t m,
             int64_t n, int64_t k) {
  gemmTiles<Acc, 32>(pa, pb, c, ldc, m, n, k);
}
/// The fused micro-kernels (float accumulators, exact products).
__attribute__((target("avx512f"))) inline void
gemmTilesFused512(const float *pa, const float *pb, float *c, int64_t ldc,
                  int64_t m, int64_t n, int64_t k) {
  gemmTiles<float, 64, true>(pa, pb, c, ldc, m, n, k);
}
__attribute__((target("avx2,fma"))) inline void
gemmTilesFused256(const float *pa, const float *pb, float *c, int64_t ldc,
                  int64_t m, int64_t n, int64_t k) {
  gemmTiles<float, 32, true>(pa, pb, c, ldc, m, n, k);
}
#endif

/// The vector width (bytes) of the micro-kernel this host runs: 64 with
/// AVX-512, 32 with AVX2, else 16. The arithmetic is the same for every
/// width (no fused multiply-add), so results do not depend on the host.
inline int gemmVectorBytes() {
#ifdef TLC_CPU_GEMM_DISPATCH
  static const int bytes =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("f16c") ? 64
      : __builtin_cpu_supports("avx2")                                    ? 32
                                                                          : 16;
  return bytes;
#else
  return 16;
#endif
}

/// True when the host has the fused multiply-add of the micro-kernel of
/// width gemmVectorBytes() (AVX-512F has it; AVX2 hosts need FMA3).
inline bool gemmHasFusedMultiplyAdd() {
#ifdef TLC_CPU_GEMM_DISPATCH
  static const bool fma =
      gemmVectorBytes() == 64 ||
      (gemmVectorBytes() == 32 && __builtin_cpu_supports("fma"));
  return fma;
#else
  return false;
#endif
}

/// Significand bits (with the implicit one) of the operand types whose
/// products gemm may fuse: two of them multiply exactly in float when the
/// sum is at most 24 and the product lies in float's normal range.
template <typename T> constexpr int exactSignificandBits() {
  if constexpr (std::is_same_v<T, f16>)
    return 11;
  else if constexpr (std::is_same_v<T, bf16>)
    return 8;
  return 0;
}

/// The largest finite and the smallest nonzero magnitude (as float bit
/// patterns without sign, which compare as signed integers) among \p n
/// floats; {0, INT32_MAX} when none is finite and nonzero. In vectors of
/// \p VB bytes (GCC does not vectorise the scalar loop's selects).
template <int VB, typename I = int32_t>
__attribute__((always_inline)) inline void
magnitudeRangeImpl(const float *x, int64_t n, int32_t &largest,
                   int32_t &smallest) {
  // (I, not int32_t: GCC drops a dependent vector_size on a non-dependent
  // type.)
  typedef I VI __attribute__((vector_size(VB)));
  constexpr int L = VB / 4;
  const VI zero = {}, big = zero + std::numeric_limits<int32_t>::max(),
           inf = zero + 0x7f800000;
  VI hi = zero, lo = big;
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    VI u;
    __builtin_memcpy(&u, x + i, VB);
    u &= big;
    VI finite = u < inf ? u : zero;
    VI nonzero = u != zero ? u : big;
    hi = hi > finite ? hi : finite;
    lo = lo < nonzero ? lo : nonzero;
  }
  int32_t h = 0, l = std::numeric_limits<int32_t>::max();
  for (int j = 0; j < L; ++j) {
    h = std::max(h, int32_t(hi[j]));
    l = std::min(l, int32_t(lo[j]));
  }
  for (; i < n; ++i) {
    int32_t u;
    std::memcpy(&u, x + i, 4);
    u &= std::numeric_limits<int32_t>::max();
    if (u < 0x7f800000)
      h = std::max(h, u);
    if (u != 0)
      l = std::min(l, u);
  }
  largest = h;
  smallest = l;
}

#ifdef TLC_CPU_GEMM_DISPATCH
__attribute__((target("avx512f"))) inline void
magnitudeRange512(const float *x, int64_t n, int32_t &largest,
                  int32_t &smallest) {
  magnitudeRangeImpl<64>(x, n, largest, smallest);
}
__attribute__((target("avx2"))) inline void
magnitudeRange256(const float *x, int64_t n, int32_t &largest,
                  int32_t &smallest) {
  magnitudeRangeImpl<32>(x, n, largest, smallest);
}
#endif

/// magnitudeRangeImpl on the widest vectors the host has.
inline void magnitudeRange(const float *x, int64_t n, int32_t &largest,
                           int32_t &smallest) {
#ifdef TLC_CPU_GEMM_DISPATCH
  if (gemmVectorBytes() == 64)
    return magnitudeRange512(x, n, largest, smallest);
  if (gemmVectorBytes() == 32)
    return magnitudeRange256(x, n, largest, smallest);
#endif
  magnitudeRangeImpl<16>(x, n, largest, smallest);
}

/// True when every product of an element of \p a (\p na floats) and one
/// of \p b is exact in float, given operands of at most \p bits
/// significand bits together (<= 24): the largest finite product must not
/// exceed FLT_MAX and the smallest nonzero one must be at least FLT_MIN (a
/// normal float holds 24 bits). Zeros, infinities and NaNs multiply the
/// same way fused or not. \p alwaysInRange skips the scan (f16 x f16:
/// 65504^2 < FLT_MAX and 2^-24 * 2^-24 >= FLT_MIN).
inline bool productsExact(const float *a, int64_t na, const float *b,
                          int64_t nb, bool alwaysInRange) {
  if (alwaysInRange)
    return true;
  int32_t aHi, aLo, bHi, bLo;
  magnitudeRange(a, na, aHi, aLo);
  magnitudeRange(b, nb, bHi, bLo);
  if (aHi == 0 || bHi == 0)
    return true; // one side has no finite nonzero element
  auto value = [](int32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return double(f);
  };
  return value(aHi) * value(bHi) <= double(std::numeric_limits<float>::max()) &&
         value(aLo) * value(bLo) >= double(std::numeric_limits<float>::min());
}

/// Copies the \p rows x \p cols matrix of \p v (transposed when \p trans:
/// element (r, c) is v's (c, r)) into \p dst in panels of \p P rows
/// (`dst[p*cols*P + c*P + r%P]`), converted to Acc and zero padded to a
/// multiple of P rows; reads outside v's buffer give zero.
/// The most rows of a panel packPanels converts through its row buffer
/// (kGemmRows for A, two 64-byte vectors of the narrowest accumulator for
/// B), and the columns it converts at a time.
constexpr int64_t kPackRows = 32, kPackCols = 16;

/// packPanels of a matrix whose rows are contiguous (\p base, row stride
/// \p sr): blocks of kPackCols columns of a panel's rows are converted row
/// by row into a small buffer (contiguous, so the conversion vectorises),
/// then written out column by column (contiguous writes). \p FixedP > 0
/// is the panel height P known at compile time (\p P otherwise).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/// dst[j] = the float value of binary16 bits src[j], j < n, by the F16C
/// conversion (vcvtph2ps: exact, as halfBitsToFloat; a signalling NaN comes
/// out quiet, which the gemm's first operation does to it anyway).
__attribute__((target("avx512f,f16c"))) inline void
halfRunToFloat512(float *dst, const uint16_t *src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16)
    _mm512_storeu_ps(dst + j, _mm512_cvtph_ps(_mm256_loadu_si256(
                                  reinterpret_cast<const __m256i *>(src + j))));
  for (; j < n; ++j)
    dst[j] = halfBitsToFloat(src[j]);
}
#endif

/// dst[j] = Acc(src[j]) for j < n; with \p Wide (inlined into the AVX-512
/// packing), f16 -> float by the F16C instruction.
template <bool Wide, typename Acc, typename T>
__attribute__((always_inline)) inline void convertRun(Acc *dst, const T *src,
                                                      int64_t n) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  if constexpr (Wide && std::is_same_v<Acc, float> && std::is_same_v<T, f16>) {
    halfRunToFloat512(dst, reinterpret_cast<const uint16_t *>(src), n);
    return;
  }
#endif
  for (int64_t j = 0; j < n; ++j)
    dst[j] = cast<Acc>(src[j]);
}

template <typename Acc, int FixedP, bool Wide, typename T>
__attribute__((always_inline)) inline void
packRowBlocks(Acc *dst, const T *base, int64_t sr, int64_t rows, int64_t cols,
              int64_t P = FixedP) {
  if constexpr (FixedP > 0)
    P = FixedP;
  int64_t panels = (rows + P - 1) / P;
  Acc tmp[kPackRows][kPackCols];
  for (int64_t p = 0; p < panels; ++p) {
    Acc *out = dst + p * cols * P;
    int64_t n = std::min<int64_t>(P, rows - p * P);
    for (int64_t r = n; r < P; ++r)
      for (int64_t c = 0; c < kPackCols; ++c)
        tmp[r][c] = Acc();
    int64_t c0 = 0;
    for (; c0 + kPackCols <= cols; c0 += kPackCols) {
      for (int64_t r = 0; r < n; ++r)
        convertRun<Wide>(&tmp[r][0], base + (p * P + r) * sr + c0, kPackCols);
      for (int64_t c = 0; c < kPackCols; ++c)
        for (int64_t r = 0; r < P; ++r)
          out[(c0 + c) * P + r] = tmp[r][c];
    }
    for (; c0 < cols; ++c0)
      for (int64_t r = 0; r < P; ++r)
        out[c0 * P + r] =
            r < n ? cast<Acc>(base[(p * P + r) * sr + c0]) : Acc();
  }
}

template <typename Acc, bool Wide, typename T, int R>
__attribute__((always_inline)) inline void
packPanelsImpl(Acc *dst, const View<T, R> &v, bool trans, int64_t rows,
               int64_t cols, int64_t P) {
  int64_t panels = (rows + P - 1) / P;
  // Packed 4-bit elements (fp4, int4: two a byte) have no address of their
  // own: they are read through the view (loadMatrix), never by pointer.
  constexpr bool addressable =
      std::is_same_v<typename ElementRef<T>::type, T &>;
  bool inside = addressable && (trans ? matrixInBounds(v, cols, rows)
                                      : matrixInBounds(v, rows, cols));
  const T *base = v.base + v.origin;
  int64_t sr = v.stride[R - 2], sc = v.stride[R - 1];
  if (trans)
    std::swap(sr, sc);
  if (inside && sr == 1) {
    // Rows adjacent in memory (B in its usual layout): read and write
    // contiguously, P rows at a time.
    for (int64_t p = 0; p < panels; ++p) {
      Acc *out = dst + p * cols * P;
      int64_t n = std::min<int64_t>(P, rows - p * P);
      for (int64_t c = 0; c < cols; ++c) {
        convertRun<Wide>(out + c * P, base + p * P + c * sc, n);
        for (int64_t r = n; r < P; ++r)
          out[c * P + r] = Acc();
      }
    }
    return;
  }
  if (inside && sc == 1 && P <= kPackRows) {
    // Rows contiguous in memory (A in its usual layout, B transposed).
    if (P == kGemmRows)
      packRowBlocks<Acc, kGemmRows, Wide>(dst, base, sr, rows, cols);
    else if (P == 16)
      packRowBlocks<Acc, 16, Wide>(dst, base, sr, rows, cols);
    else if (P == 32)
      packRowBlocks<Acc, 32, Wide>(dst, base, sr, rows, cols);
    else
      packRowBlocks<Acc, 0, Wide>(dst, base, sr, rows, cols, P);
    return;
  }
  for (int64_t p = 0; p < panels; ++p) {
    Acc *out = dst + p * cols * P;
    for (int64_t r = 0; r < P; ++r) {
      int64_t row = p * P + r;
      if (row >= rows) {
        for (int64_t c = 0; c < cols; ++c)
          out[c * P + r] = Acc();
      } else if (inside) {
        const T *src = base + row * sr;
        for (int64_t c = 0; c < cols; ++c)
          out[c * P + r] = cast<Acc>(src[c * sc]);
      } else {
        for (int64_t c = 0; c < cols; ++c)
          out[c * P + r] =
              cast<Acc>(trans ? loadMatrix(v, c, row) : loadMatrix(v, row, c));
      }
    }
  }
}

#ifdef TLC_CPU_GEMM_DISPATCH
template <typename Acc, typename T, int R>
__attribute__((target("avx512f,f16c"))) void
packPanels512(Acc *dst, const View<T, R> &v, bool trans, int64_t rows,
              int64_t cols, int64_t P) {
  packPanelsImpl<Acc, true>(dst, v, trans, rows, cols, P);
}
#endif

/// packPanelsImpl, compiled for AVX-512 where the micro-kernel uses it (the
/// conversions are the same operations, on wider vectors).
template <typename Acc, typename T, int R>
inline void packPanels(Acc *dst, const View<T, R> &v, bool trans, int64_t rows,
                       int64_t cols, int64_t P) {
#ifdef TLC_CPU_GEMM_DISPATCH
  if (gemmVectorBytes() == 64)
    return packPanels512<Acc>(dst, v, trans, rows, cols, P);
#endif
  packPanelsImpl<Acc, false>(dst, v, trans, rows, cols, P);
}

} // namespace detail

/// T.gemm on the host: C[m, n] (+)= op(A)[m, k] * op(B)[k, n] over the two
/// innermost dimensions of each view, accumulated in Acc and rounded to C's
/// type once at the end.
///
/// The order of the arithmetic is that of the loop nest
///
///     for i, j:  acc = clear ? 0 : Acc(C[i][j])
///                for kk = 0 .. k-1:  acc = acc + Acc(A[i][kk]) * Acc(B[kk][j])
///                C[i][j] = TC(acc)
///
/// with every product and every sum rounded to Acc (never fused), bit for
/// bit: operands are converted to Acc once (into packed panels), and a
/// register-blocked, vectorised micro-kernel computes kGemmRows x (two
/// vectors) tiles of C, each element still summing its k products in k
/// order. Reads outside a view's buffer give zero and writes there are
/// dropped (the guards of global memory).
///
/// With \p tf32 (f32 operands) each operand is first read as tf32, as the
/// CUDA mma.sync/wgmma .tf32 instructions read the f32 bit patterns TileLang
/// gives them: the 13 low mantissa bits are dropped (truncation toward
/// zero). The products of two tf32 values are exact in f32.
///
/// With \p roundEvery > 0, K is taken in slices of that many, C being
/// stored (rounded to its type) after each: an f16 accumulator as the CUDA
/// mma.sync .f16 instructions keep it, rounded after every k16 step.
template <typename Acc, typename TA, int RA, typename TB, int RB, typename TC,
          int RC>
inline void gemm(const View<TA, RA> &a, const View<TB, RB> &b,
                 const View<TC, RC> &c, int64_t m, int64_t n, int64_t k,
                 bool transA, bool transB, bool clear, bool tf32 = false,
                 int64_t roundEvery = 0) {
  if (m <= 0 || n <= 0)
    return;
  if (roundEvery > 0 && k > roundEvery) {
    const int ka = transA ? RA - 2 : RA - 1, kb = transB ? RB - 1 : RB - 2;
    for (int64_t k0 = 0; k0 < k; k0 += roundEvery) {
      int64_t ao[RA] = {}, as[RA], bo[RB] = {}, bs[RB];
      for (int d = 0; d < RA; ++d)
        as[d] = a.shape[d];
      for (int d = 0; d < RB; ++d)
        bs[d] = b.shape[d];
      int64_t kc = std::min(roundEvery, k - k0);
      ao[ka] = k0, as[ka] = kc, bo[kb] = k0, bs[kb] = kc;
      gemm<Acc>(region(a, ao, as), region(b, bo, bs), c, m, n, kc, transA,
                transB, clear && k0 == 0, tf32, 0);
    }
    return;
  }
  k = std::max<int64_t>(k, 0);
  const int vb = detail::gemmVectorBytes();
  const int64_t MR = detail::kGemmRows;
  const int64_t NR = 2 * vb / int64_t(sizeof(Acc));
  thread_local std::vector<Acc> sa, sb, sc;
  const int64_t mPad = (m + MR - 1) / MR * MR;
  sa.resize(size_t(mPad * k));
  sb.resize(size_t((n + NR - 1) / NR * NR * k));
  // A row-major: op(A)^T packed as one panel of k rows (a plain conversion
  // when A's rows are contiguous), then the padding rows.
  if (k > 0)
    detail::packPanels<Acc>(sa.data(), a, !transA, k, m, k);
  std::fill(sa.begin() + m * k, sa.end(), Acc());
  // B's panels are of columns: pack op(B)^T, whose rows are B's columns.
  detail::packPanels<Acc>(sb.data(), b, !transB, n, k, NR);
  if constexpr (std::is_same_v<Acc, float>) {
    if (tf32)
      for (std::vector<float> *panel : {&sa, &sb})
        for (float &x : *panel) {
          uint32_t bits;
          std::memcpy(&bits, &x, 4);
          bits &= 0xffffe000u;
          std::memcpy(&x, &bits, 4);
        }
  }

  // C: worked on in place when it is of type Acc, inside its buffer and
  // contiguous along rows; otherwise through row-major scratch.
  Acc *cp;
  int64_t ldc;
  bool direct = false;
  if constexpr (std::is_same_v<TC, Acc>)
    direct = matrixInBounds(c, m, n) && c.stride[RC - 1] == 1;
  if (direct) {
    cp = reinterpret_cast<Acc *>(c.base + c.origin);
    ldc = c.stride[RC - 2];
    if (clear)
      for (int64_t i = 0; i < m; ++i)
        std::fill(cp + i * ldc, cp + i * ldc + n, Acc());
  } else {
    sc.resize(size_t(m) * size_t(n));
    cp = sc.data();
    ldc = n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        sc[i * n + j] = clear ? Acc() : cast<Acc>(loadMatrix(c, i, j));
  }
#ifdef TLC_CPU_GEMM_DISPATCH
  bool fused = false;
  // Operands whose products are exact in float (f16, bf16; f32 read as
  // tf32): fused multiply-adds give the loop nest's bits (productsExact).
  if constexpr (std::is_same_v<Acc, float>) {
    constexpr int bitsA =
        std::is_same_v<TA, float> ? 11 : detail::exactSignificandBits<TA>();
    constexpr int bitsB =
        std::is_same_v<TB, float> ? 11 : detail::exactSignificandBits<TB>();
    constexpr bool typesExact =
        bitsA > 0 && bitsB > 0 && bitsA + bitsB <= 24 &&
        (std::is_same_v<TA, float> == std::is_same_v<TB, float>);
    constexpr bool bothHalf =
        std::is_same_v<TA, f16> && std::is_same_v<TB, f16>;
    const bool readExact = tf32 || !std::is_same_v<TA, float>;
    fused = typesExact && readExact && detail::gemmHasFusedMultiplyAdd() &&
            detail::productsExact(sa.data(), m * k, sb.data(),
                                  int64_t(sb.size()), bothHalf);
    if (fused && vb == 64)
      detail::gemmTilesFused512(sa.data(), sb.data(), cp, ldc, m, n, k);
    else if (fused)
      detail::gemmTilesFused256(sa.data(), sb.data(), cp, ldc, m, n, k);
  }
  if (fused)
    ;
  else if (vb == 64)
    detail::gemmTiles512<Acc>(sa.data(), sb.data(), cp, ldc, m, n, k);
  else if (vb == 32)
    detail::gemmTiles256<Acc>(sa.data(), sb.data(), cp, ldc, m, n, k);
  else
#endif
    detail::gemmTiles<Acc, 16>(sa.data(), sb.data(), cp, ldc, m, n, k);
  if (direct)
    return;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx[RC] = {};
      idx[RC - 2] = i;
      idx[RC - 1] = j;
      store(c, idx, cast<TC>(sc[i * n + j]));
    }
}

//===----------------------------------------------------------------------===//
// Block-scaled tcgen05 MMA (T.tcgen05_gemm_blockscaled) and its scale factors
//===----------------------------------------------------------------------===//
//
// The CPU model of what sm_100a does with E8M0 scale factors: a shared
// [rows, 4] uint8 tile (row r's four scale factors, one a K block) is
// permuted in 512-byte groups of 128 rows (T.tcgen05_sf_warp_transpose:
// the 32-bit word 4m + k of a group becomes word 32k + m), then copied to
// tensor memory (T.tcgen05_cp_warpx4: tcgen05.cp .32x128b.warpx4 puts
// group g's row 32k + m in column 4g + k of lane m, each warp's lanes a
// copy), from where the MMA reads row r's factor sf_id. The CPU's tensor
// memory tile [128, 4 * groups] holds row r's factor s at
// [r % 128, 4 * (r / 128) + s]: the copy undoes the permutation.

/// The word permutation of T.tcgen05_sf_warp_transpose on a [rows, 4]
/// uint8 view (leading indices 0), rows a multiple of 128.
template <int R> inline void sfWarpTranspose(const View<uint8_t, R> &v) {
  int64_t rows = v.shape[R - 2];
  for (int64_t g = 0; g < rows / 128; ++g) {
    uint8_t in[128][4];
    for (int64_t w = 0; w < 128; ++w)
      for (int64_t s = 0; s < 4; ++s)
        in[w][s] = loadMatrix(v, 128 * g + w, s);
    for (int64_t m = 0; m < 32; ++m)
      for (int64_t k = 0; k < 4; ++k)
        for (int64_t s = 0; s < 4; ++s) {
          int64_t idx[R] = {};
          idx[R - 2] = 128 * g + 4 * m + k;
          idx[R - 1] = s;
          store(v, idx, in[32 * k + m][s]);
        }
  }
}

/// T.tcgen05_cp_warpx4 from the permuted [rows, 4] shared tile \p src
/// into columns [colOffset, colOffset + 4 * rows / 128) of the tensor
/// memory tile \p dst ([128, cols]; the emitter checks the columns).
template <int RS, int RD>
inline void tcgen05CopyScaleFactors(const View<uint8_t, RS> &src,
                                    const View<uint8_t, RD> &dst,
                                    int64_t colOffset = 0) {
  int64_t rows = src.shape[RS - 2];
  for (int64_t g = 0; g < rows / 128; ++g)
    for (int64_t m = 0; m < 32; ++m)
      for (int64_t k = 0; k < 4; ++k)
        for (int64_t s = 0; s < 4; ++s) {
          int64_t idx[RD] = {};
          idx[RD - 2] = 32 * k + m;
          idx[RD - 1] = colOffset + 4 * g + s;
          store(dst, idx, loadMatrix(src, 128 * g + 4 * m + k, s));
        }
}

/// T.tcgen05_gemm_blockscaled: C[m, n] (+)= sum over k of (A[i, k] *
/// 2^(sfa - 127)) * (B[k, j] * 2^(sfb - 127)) in float, with sfa row i's
/// factor \p sfaId of \p sfa and sfb column j's factor \p sfbId of
/// \p sfb (tensor memory tiles as tcgen05CopyScaleFactors writes them;
/// E8M0 255 is NaN), the products added in k order.
template <typename TA, int RA, typename TB, int RB, typename TC, int RC, int RS,
          int RT>
inline void gemmBlockScaled(const View<TA, RA> &a, const View<TB, RB> &b,
                            const View<TC, RC> &c, const View<uint8_t, RS> &sfa,
                            const View<uint8_t, RT> &sfb, int64_t m, int64_t n,
                            int64_t k, bool transA, bool transB, bool clear,
                            int64_t sfaId, int64_t sfbId) {
  auto scale = [](uint8_t e) {
    return e == 255 ? std::numeric_limits<float>::quiet_NaN()
                    : std::ldexp(1.0f, int(e) - 127);
  };
  for (int64_t i = 0; i < m; ++i) {
    float sa = scale(loadMatrix(sfa, i % 128, 4 * (i / 128) + sfaId));
    for (int64_t j = 0; j < n; ++j) {
      float sb = scale(loadMatrix(sfb, j % 128, 4 * (j / 128) + sfbId));
      float acc = clear ? 0.0f : cast<float>(loadMatrix(c, i, j));
      for (int64_t kk = 0; kk < k; ++kk) {
        float x =
            cast<float>(transA ? loadMatrix(a, kk, i) : loadMatrix(a, i, kk));
        float y =
            cast<float>(transB ? loadMatrix(b, j, kk) : loadMatrix(b, kk, j));
        acc += (x * sa) * (y * sb);
      }
      int64_t idx[RC] = {};
      idx[RC - 2] = i;
      idx[RC - 1] = j;
      store(c, idx, cast<TC>(acc));
    }
  }
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_GEMM_H
