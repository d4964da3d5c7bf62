//===- mrg32k3a.h - curand's MRG32k3a per-thread generator ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generator behind `T.rng_init(..., generator="curandStateMRG32k3a_t")`:
// L'Ecuyer's combined multiple recursive generator MRG32k3a ("Good
// parameters and implementations for combined multiple recursive random
// number generators", Operations Research 47(1), 1999; the streams of
// L'Ecuyer, Simard, Chen, Kelton, Operations Research 50(6), 2002):
//   x1[n] = (1403580 x1[n-2] - 810728 x1[n-3]) mod m1, m1 = 2^32 - 209,
//   x2[n] = (527612 x2[n-1] - 1370589 x2[n-3]) mod m2, m2 = 2^32 - 22853,
//   z[n] = x1[n] - x2[n] mod m1, taken in 1..m1.
// Seeded, split and drawn from as curand's device API documents it:
// `init(seed, subsequence, offset)` is `curand_init` (both components start
// at 12345 in each word; a nonzero seed's salted halves multiply them mod
// m), then a skip of 2^76 values per subsequence and of `offset` values;
// `next()` is `curand` (z scaled by 1.000000048662 to 32 bits),
// `uniform()` / `uniformDouble()` z * 2.3283065498378288e-10 in float /
// double, `normal()` / `normalDouble()` Box-Muller on two uniforms (the
// sine half first, the cosine half kept: rng_normal.h).
//
// Skipping is by powers of each component's 3x3 companion matrix mod m
// (square and multiply); A1^(2^76) and A2^(2^76) are the constants of
// L'Ecuyer et al.'s streams (A1p76, A2p76). tests/lit/Target/Cpp/
// rng-streams.py checks the streams against NumPy and libcurand.
//
// Plain C++, included like philox.h by the CUDA, HIP, sim and CPU code.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_MRG32K3A_H
#define TLC_DEVICE_MRG32K3A_H

#ifdef TLC_DEVICE
#define TLC_MRG_FN TLC_DEVICE
#else
#include <cmath>
#include <cstdint>
#define TLC_MRG_FN inline
#endif

#include "tlc_device/rng_normal.h"

namespace tlc {

/// A 3x3 matrix over the integers mod m (m < 2^32).
struct Mrg32k3aMatrix {
  unsigned int a[3][3];
};

/// The generator of curandStateMRG32k3a_t, its fields but the kept
/// normals.
struct Mrg32k3aGenerator {
  unsigned int s1[3], s2[3];

  static constexpr unsigned int m1 = 4294967087u;
  static constexpr unsigned int m2 = 4294944443u;

  /// \p x * \p y mod \p m.
  static TLC_MRG_FN unsigned int mulMod(unsigned int x, unsigned int y,
                                        unsigned int m) {
    return (unsigned int)((unsigned long long)x * y % m);
  }

  /// \p x * \p y mod \p m.
  static TLC_MRG_FN Mrg32k3aMatrix matMul(const Mrg32k3aMatrix &x,
                                          const Mrg32k3aMatrix &y,
                                          unsigned int m) {
    Mrg32k3aMatrix r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        unsigned long long s = 0;
        for (int k = 0; k < 3; ++k)
          s += mulMod(x.a[i][k], y.a[k][j], m);
        r.a[i][j] = (unsigned int)(s % m);
      }
    return r;
  }

  /// Replaces \p s by (\p x ^ \p n) \p s mod \p m.
  static TLC_MRG_FN void skip(Mrg32k3aMatrix x, unsigned long long n,
                              unsigned int *s, unsigned int m) {
    while (n) {
      if (n & 1) {
        unsigned long long t[3];
        for (int i = 0; i < 3; ++i)
          t[i] = ((unsigned long long)mulMod(x.a[i][0], s[0], m) +
                  mulMod(x.a[i][1], s[1], m) + mulMod(x.a[i][2], s[2], m)) %
                 m;
        for (int i = 0; i < 3; ++i)
          s[i] = (unsigned int)t[i];
      }
      n >>= 1;
      if (n)
        x = matMul(x, x, m);
    }
  }

  /// curand_init(seed, subsequence, offset).
  TLC_MRG_FN void init(unsigned long long seed, unsigned long long subsequence,
                       unsigned long long offset) {
    for (int i = 0; i < 3; ++i)
      s1[i] = s2[i] = 12345u;
    if (seed != 0) {
      unsigned int x1 = (unsigned int)seed ^ 0x55555555u;
      unsigned int x2 = (unsigned int)(seed >> 32) ^ 0xAAAAAAAAu;
      s1[0] = mulMod(x1, s1[0], m1);
      s1[1] = mulMod(x2, s1[1], m1);
      s1[2] = mulMod(x1, s1[2], m1);
      s2[0] = mulMod(x2, s2[0], m2);
      s2[1] = mulMod(x1, s2[1], m2);
      s2[2] = mulMod(x2, s2[2], m2);
    }
    // A1^(2^76) and A2^(2^76): one subsequence.
    const Mrg32k3aMatrix a1p76 = {{{82758667u, 1871391091u, 4127413238u},
                                   {3672831523u, 69195019u, 1871391091u},
                                   {3672091415u, 3528743235u, 69195019u}}};
    const Mrg32k3aMatrix a2p76 = {{{1511326704u, 3759209742u, 1610795712u},
                                   {4292754251u, 1511326704u, 3889917532u},
                                   {3859662829u, 4292754251u, 3708466080u}}};
    skip(a1p76, subsequence, s1, m1);
    skip(a2p76, subsequence, s2, m2);
    const Mrg32k3aMatrix a1 = {
        {{0, 1, 0}, {0, 0, 1}, {m1 - 810728u, 1403580u, 0}}};
    const Mrg32k3aMatrix a2 = {
        {{0, 1, 0}, {0, 0, 1}, {m2 - 1370589u, 0, 527612u}}};
    skip(a1, offset, s1, m1);
    skip(a2, offset, s2, m2);
  }

  /// One step of both components: z in 1..m1.
  TLC_MRG_FN double raw() {
    unsigned long long p1 =
        (1403580ull * s1[1] + 810728ull * (m1 - s1[0])) % m1;
    s1[0] = s1[1];
    s1[1] = s1[2];
    s1[2] = (unsigned int)p1;
    unsigned long long p2 =
        (527612ull * s2[2] + 1370589ull * (m2 - s2[0])) % m2;
    s2[0] = s2[1];
    s2[1] = s2[2];
    s2[2] = (unsigned int)p2;
    return p1 > p2 ? (double)(p1 - p2) : (double)(p1 + m1 - p2);
  }

  /// curand(): z scaled to 32 bits.
  TLC_MRG_FN unsigned int next() {
    return (unsigned int)(raw() * 1.000000048662);
  }

  /// curand_uniform(): z / m1 (curand's 2.3283065498378288e-10) in float.
  TLC_MRG_FN float uniform() { return (float)(raw() * 2.3283065498378288e-10); }

  /// curand_uniform_double().
  TLC_MRG_FN double uniformDouble() { return raw() * 2.3283065498378288e-10; }
};

/// The inputs of curand_normal() / curand_normal_double() of MRG32k3a.
struct Mrg32k3aNormalInputs {
  /// Two float uniforms, the second scaled by 2 pi (in float) as the angle.
  static TLC_MRG_FN void floats(Mrg32k3aGenerator &g, float &u, float &angle) {
    u = g.uniform();
    angle = g.uniform() * 6.2831855f;
  }

  /// Two double uniforms, the second doubled as the angle in half turns.
  static TLC_MRG_FN void doubles(Mrg32k3aGenerator &g, double &u,
                                 double &halfTurns) {
    u = g.uniformDouble();
    halfTurns = g.uniformDouble() * 2.0;
  }
};

/// One thread's state (curandStateMRG32k3a_t's fields).
struct Mrg32k3aState : RngWithNormals<Mrg32k3aGenerator, Mrg32k3aNormalInputs> {
};

} // namespace tlc

#undef TLC_MRG_FN

#endif // TLC_DEVICE_MRG32K3A_H
