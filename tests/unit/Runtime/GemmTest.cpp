//===- GemmTest.cpp - T.gemm of the CPU target ----------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tlc::cpu::gemm against the definition of T.gemm written out as the
// plain loop nest (per element of C: start from C or zero, add
// A[i][k] * B[k][j] in k order in the accumulator type, round once), on
// ragged sizes, transposes, leading unit dimensions, views that reach past
// the end of their buffer (zero reads, dropped writes) and 8-bit integers.
// The helper reorders the loops and converts operands once; the results
// must be bit for bit those of the loop nest.
//
//===----------------------------------------------------------------------===//

#include "tlc_device/cpu.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace tlc::cpu;

namespace {

/// The loop nest of the definition over two dense row-major matrices
/// (A is m x k, or k x m when transposed; B is k x n, or n x k).
template <typename Acc, typename TA, typename TB, typename TC>
std::vector<TC> reference(const std::vector<TA> &a, const std::vector<TB> &b,
                          std::vector<TC> c, int64_t m, int64_t n, int64_t k,
                          bool ta, bool tb, bool clear) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      Acc acc = clear ? Acc() : cast<Acc>(c[i * n + j]);
      for (int64_t kk = 0; kk < k; ++kk)
        acc += cast<Acc>(ta ? a[kk * m + i] : a[i * k + kk]) *
               cast<Acc>(tb ? b[j * k + kk] : b[kk * n + j]);
      c[i * n + j] = cast<TC>(acc);
    }
  return c;
}

template <typename T> std::vector<T> randomHalf(size_t count, std::mt19937 &g) {
  std::normal_distribution<float> d;
  std::vector<T> v(count);
  for (T &x : v)
    x = cast<T>(d(g));
  return v;
}

} // namespace

TEST_CASE("cpu gemm: f16 operands, f32 accumulator, ragged sizes") {
  std::mt19937 g(7);
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (bool clear : {false, true}) {
        const int64_t m = 37, n = 29, k = 19;
        std::vector<f16> a = randomHalf<f16>(m * k, g);
        std::vector<f16> b = randomHalf<f16>(k * n, g);
        std::vector<float> c(m * n);
        std::normal_distribution<float> d;
        for (float &x : c)
          x = d(g);
        std::vector<float> want =
            reference<float>(a, b, c, m, n, k, ta, tb, clear);
        // A with a leading unit dimension, as T.gemm(A[0:1, ...]) gives.
        View<f16, 3> va =
            denseView<f16, 3>(a.data(), {1, ta ? k : m, ta ? m : k});
        View<f16, 2> vb = denseView<f16, 2>(b.data(), {tb ? n : k, tb ? k : n});
        View<float, 2> vc = denseView<float, 2>(c.data(), {m, n});
        gemm<float>(va, vb, vc, m, n, k, ta, tb, clear);
        CAPTURE(ta);
        CAPTURE(tb);
        CAPTURE(clear);
        bool same = true;
        for (int64_t e = 0; e < m * n; ++e)
          same &= c[e] == want[e];
        CHECK(same);
      }
}

TEST_CASE("cpu gemm: a window past the buffer reads zero, drops writes") {
  // A 6 x 4 matrix seen through an 8 x 4 window at row 2: rows 4..7 of the
  // window lie outside and count as zero; C's window also hangs over.
  std::mt19937 g(3);
  std::vector<bf16> a = randomHalf<bf16>(6 * 4, g),
                    b = randomHalf<bf16>(4 * 5, g);
  View<bf16, 2> whole = denseView<bf16, 2>(a.data(), {6, 4});
  View<bf16, 2> va = region(whole, {2, 0}, {8, 4});
  View<bf16, 2> vb = denseView<bf16, 2>(b.data(), {4, 5});
  std::vector<float> c(6 * 5, 1.0f);
  View<float, 2> vcWhole = denseView<float, 2>(c.data(), {6, 5});
  View<float, 2> vc = region(vcWhole, {2, 0}, {8, 5});
  gemm<float>(va, vb, vc, 8, 5, 4, false, false, false);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 5; ++j) {
      float want = 1.0f;
      if (i >= 2)
        for (int64_t kk = 0; kk < 4; ++kk)
          want += cast<float>(a[i * 4 + kk]) * cast<float>(b[kk * 5 + j]);
      CAPTURE(i);
      CAPTURE(j);
      CHECK(c[i * 5 + j] == want);
    }
}

TEST_CASE("cpu gemm: int8 operands, int32 accumulator") {
  std::mt19937 g(11);
  std::uniform_int_distribution<int> d(-128, 127);
  const int64_t m = 16, n = 24, k = 40;
  std::vector<int8_t> a(m * k), b(k * n);
  for (int8_t &x : a)
    x = int8_t(d(g));
  for (int8_t &x : b)
    x = int8_t(d(g));
  std::vector<int32_t> c(m * n, 5);
  std::vector<int32_t> want =
      reference<int32_t>(a, b, c, m, n, k, false, true /*B is n x k*/, false);
  // The reference reads B as n x k when transposed: lay b out that way.
  View<int8_t, 2> va = denseView<int8_t, 2>(a.data(), {m, k});
  View<int8_t, 2> vb = denseView<int8_t, 2>(b.data(), {n, k});
  View<int32_t, 2> vc = denseView<int32_t, 2>(c.data(), {m, n});
  gemm<int32_t>(va, vb, vc, m, n, k, false, true, false);
  CHECK(c == want);
  // Extremes: -128 * -128 * 40 fits the int32 accumulator.
  std::fill(a.begin(), a.end(), int8_t(-128));
  std::fill(b.begin(), b.end(), int8_t(-128));
  gemm<int32_t>(va, vb, vc, m, n, k, false, true, true);
  CHECK(c[0] == 128 * 128 * 40);
}

TEST_CASE("cpu gemm: register tiles, edges and strided C, bit for bit") {
  // Sizes on both sides of every micro-kernel tile (6 rows, two vectors of
  // 4, 8 or 16 floats by host), f32 operands (products that round), and C
  // a window of a wider buffer (row stride > n), worked on in place.
  std::mt19937 g(5);
  std::normal_distribution<float> d;
  for (int64_t m : {1, 5, 6, 7, 13, 64})
    for (int64_t n : {1, 15, 16, 17, 33, 64})
      for (int64_t k : {0, 1, 31}) {
        std::vector<float> a(m * k), b(k * n);
        for (float &x : a)
          x = d(g);
        for (float &x : b)
          x = d(g);
        const int64_t ld = n + 3;
        std::vector<float> c(m * ld);
        for (float &x : c)
          x = d(g);
        std::vector<float> cDense(m * n);
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j)
            cDense[i * n + j] = c[i * ld + j];
        std::vector<float> want =
            reference<float>(a, b, cDense, m, n, k, false, false, false);
        View<float, 2> va = denseView<float, 2>(a.data(), {m, k});
        View<float, 2> vb = denseView<float, 2>(b.data(), {k, n});
        View<float, 2> whole = denseView<float, 2>(c.data(), {m, ld});
        View<float, 2> vc = region(whole, {0, 0}, {m, n});
        std::vector<float> pad(c.begin(), c.end());
        gemm<float>(va, vb, vc, m, n, k, false, false, false);
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(k);
        bool same = true, untouched = true;
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j)
            same &= c[i * ld + j] == want[i * n + j];
          for (int64_t j = n; j < ld; ++j)
            untouched &= c[i * ld + j] == pad[i * ld + j];
        }
        CHECK(same);
        CHECK(untouched);
      }
}

TEST_CASE("cpu gemm: double and int32 accumulators through the tiles") {
  std::mt19937 g(9);
  std::normal_distribution<double> d;
  const int64_t m = 19, n = 23, k = 17;
  std::vector<double> a(m * k), b(n * k), c(m * n);
  for (double &x : a)
    x = d(g);
  for (double &x : b)
    x = d(g);
  for (double &x : c)
    x = d(g);
  std::vector<double> want =
      reference<double>(a, b, c, m, n, k, false, true, false);
  View<double, 2> va = denseView<double, 2>(a.data(), {m, k});
  View<double, 2> vb = denseView<double, 2>(b.data(), {n, k});
  View<double, 2> vc = denseView<double, 2>(c.data(), {m, n});
  gemm<double>(va, vb, vc, m, n, k, false, true, false);
  CHECK(c == want);
}

TEST_CASE("cpu gemm: f32 operands read as tf32 (truncated), bit for bit") {
  // The loop nest over operands whose 13 low mantissa bits are cleared
  // (what the CUDA tensor cores read of f32 bits given to .tf32 mma): the
  // tf32 flag must equal it exactly, every transpose, and differ from the
  // plain f32 product.
  auto truncate = [](std::vector<float> v) {
    for (float &x : v) {
      uint32_t bits;
      std::memcpy(&bits, &x, 4);
      bits &= 0xffffe000u;
      std::memcpy(&x, &bits, 4);
    }
    return v;
  };
  std::mt19937 g(13);
  std::normal_distribution<float> d;
  const int64_t m = 13, n = 21, k = 37;
  std::vector<float> a(m * k), b(k * n), c0(m * n);
  for (float &x : a)
    x = d(g);
  for (float &x : b)
    x = d(g);
  for (float &x : c0)
    x = d(g);
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      CAPTURE(ta);
      CAPTURE(tb);
      std::vector<float> want = reference<float>(truncate(a), truncate(b), c0,
                                                 m, n, k, ta, tb, false);
      std::vector<float> full =
          reference<float>(a, b, c0, m, n, k, ta, tb, false);
      View<float, 2> va =
          denseView<float, 2>(a.data(), {ta ? k : m, ta ? m : k});
      View<float, 2> vb =
          denseView<float, 2>(b.data(), {tb ? n : k, tb ? k : n});
      std::vector<float> c = c0;
      View<float, 2> vc = denseView<float, 2>(c.data(), {m, n});
      gemm<float>(va, vb, vc, m, n, k, ta, tb, false, /*tf32=*/true);
      CHECK(c == want);
      CHECK(c != full);
    }
}

TEST_CASE("cpu gemm: an f16 accumulator rounded every 16 k (mma.sync .f16)") {
  // The loop nest with C stored to f16 after each slice of 16 k (a ragged
  // last slice), every transpose, a leading unit dimension on A: equal bit
  // for bit; and different from rounding once at the end.
  std::mt19937 g(17);
  const int64_t m = 21, n = 19, k = 45;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      CAPTURE(ta);
      CAPTURE(tb);
      std::vector<f16> a = randomHalf<f16>(m * k, g);
      std::vector<f16> b = randomHalf<f16>(k * n, g);
      std::vector<f16> c0 = randomHalf<f16>(m * n, g);
      std::vector<f16> want = c0;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          for (int64_t k0 = 0; k0 < k; k0 += 16) {
            float acc = cast<float>(want[i * n + j]);
            for (int64_t kk = k0; kk < std::min<int64_t>(k, k0 + 16); ++kk)
              acc += cast<float>(ta ? a[kk * m + i] : a[i * k + kk]) *
                     cast<float>(tb ? b[j * k + kk] : b[kk * n + j]);
            want[i * n + j] = cast<f16>(acc);
          }
      std::vector<f16> once =
          reference<float>(a, b, c0, m, n, k, ta, tb, false);
      View<f16, 3> va =
          denseView<f16, 3>(a.data(), {1, ta ? k : m, ta ? m : k});
      View<f16, 2> vb = denseView<f16, 2>(b.data(), {tb ? n : k, tb ? k : n});
      std::vector<f16> c = c0;
      View<f16, 2> vc = denseView<f16, 2>(c.data(), {m, n});
      gemm<float>(va, vb, vc, m, n, k, ta, tb, false, false, 16);
      bool same = true, differs = false;
      for (int64_t e = 0; e < m * n; ++e) {
        same &= cast<float>(c[e]) == cast<float>(want[e]);
        differs |= cast<float>(c[e]) != cast<float>(once[e]);
      }
      CHECK(same);
      CHECK(differs);
    }
}

TEST_CASE("cpu gemm: contiguous-row packing, all transpositions, bit for bit") {
  // f16 and bf16 operands in every layout: A's rows (and B's when
  // transposed) are contiguous and packed through the row buffer in blocks
  // of 16 columns; k on both sides of that block, m and n on both sides of
  // the panel heights (6; 16 or 32 by host).
  std::mt19937 g(9);
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (int64_t m : {1, 6, 7, 33})
        for (int64_t n : {5, 32, 33})
          for (int64_t k : {1, 15, 16, 17, 40}) {
            auto a = randomHalf<f16>(size_t(m * k), g);
            auto b = randomHalf<bf16>(size_t(k * n), g);
            std::vector<float> c(size_t(m * n));
            for (size_t i = 0; i < c.size(); ++i)
              c[i] = float(i % 7) - 3;
            std::vector<float> want =
                reference<float>(a, b, c, m, n, k, ta, tb, false);
            View<f16, 2> va = ta ? denseView<f16, 2>(a.data(), {k, m})
                                 : denseView<f16, 2>(a.data(), {m, k});
            View<bf16, 2> vb = tb ? denseView<bf16, 2>(b.data(), {n, k})
                                  : denseView<bf16, 2>(b.data(), {k, n});
            gemm<float>(va, vb, denseView<float, 2>(c.data(), {m, n}), m, n,
                        k, ta, tb, false);
            CAPTURE(ta);
            CAPTURE(tb);
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            CHECK(c == want);
          }
}

#ifdef TLC_CPU_GEMM_DISPATCH
TEST_CASE("cpu gemm: fused micro-kernels, every width the host has, bit for "
          "bit") {
  // The vfmadd kernels against the unfused ones on exact products (f16
  // values), called directly so that a host with AVX-512 also runs the
  // 256-bit form; packed as gemm packs (A row-major, padded to 6 rows; B
  // in panels of two vectors' columns).
  std::mt19937 g(11);
  for (int vb : {32, 64}) {
    if (vb == 64 && !__builtin_cpu_supports("avx512f"))
      continue;
    if (vb == 32 &&
        !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")))
      continue;
    const int64_t nr = 2 * vb / 4;
    for (int64_t m : {1, 6, 13})
      for (int64_t n : {int64_t(1), nr, nr + 3})
        for (int64_t k : {1, 64}) {
          const int64_t mp = (m + 5) / 6 * 6, np = (n + nr - 1) / nr * nr;
          std::vector<float> pa(mp * k), pb(np * k);
          for (int64_t i = 0; i < m * k; ++i)
            pa[i] = cast<float>(randomHalf<f16>(1, g)[0]);
          for (int64_t q = 0; q < np / nr; ++q)
            for (int64_t kk = 0; kk < k; ++kk)
              for (int64_t c = 0; c < nr; ++c)
                pb[q * k * nr + kk * nr + c] =
                    q * nr + c < n ? cast<float>(randomHalf<f16>(1, g)[0]) : 0;
          std::vector<float> c0(m * n);
          for (float &x : c0)
            x = cast<float>(randomHalf<f16>(1, g)[0]);
          std::vector<float> fused = c0, plain = c0;
          if (vb == 64) {
            detail::gemmTilesFused512(pa.data(), pb.data(), fused.data(), n, m,
                                      n, k);
            detail::gemmTiles512<float>(pa.data(), pb.data(), plain.data(), n,
                                        m, n, k);
          } else {
            detail::gemmTilesFused256(pa.data(), pb.data(), fused.data(), n, m,
                                      n, k);
            detail::gemmTiles256<float>(pa.data(), pb.data(), plain.data(), n,
                                        m, n, k);
          }
          CAPTURE(vb);
          CAPTURE(m);
          CAPTURE(n);
          CAPTURE(k);
          CHECK(std::memcmp(fused.data(), plain.data(), 4 * m * n) == 0);
        }
  }
}
#endif

TEST_CASE("cpu gemm: productsExact's range scan") {
  // Products of bf16-like magnitudes: in float's normal range, below
  // FLT_MIN, above FLT_MAX; zeros, infinities and NaNs do not count; 19
  // elements (a vector tail on every width).
  auto run = [](float small, float big, float x) {
    std::vector<float> a(19, 1.0f), b(19, 1.0f);
    a[3] = small;
    a[17] = big;
    b[18] = x;
    b[0] = 0.0f;
    b[5] = std::numeric_limits<float>::infinity();
    b[6] = std::numeric_limits<float>::quiet_NaN();
    return detail::productsExact(a.data(), 19, b.data(), 19, false);
  };
  CHECK(run(0x1p-60f, 0x1p60f, 0x1p-60f));
  CHECK_FALSE(run(0x1p-60f, 0x1p60f, 0x1p-70f)); // 2^-130 < FLT_MIN
  CHECK_FALSE(run(0x1p-60f, 0x1p60f, -0x1p70f)); // 2^130 > FLT_MAX
  CHECK_FALSE(run(-0x1p-100f, 1.0f, 0x1p-30f));  // the tail element
  CHECK(detail::productsExact(nullptr, 0, nullptr, 0, false));
}
