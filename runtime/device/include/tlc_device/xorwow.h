//===- xorwow.h - curand's XORWOW per-thread generator ----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generator behind `T.rng_init(..., generator="curandStateXORWOW_t")`:
// Marsaglia's xorwow ("Xorshift RNGs", J. Stat. Software 8(14), 2003, p. 5),
// a 160-bit xorshift (five 32-bit words) whose output is summed with a Weyl
// sequence d += 362437, seeded, split and drawn from as curand's device API
// documents it: `init(seed, subsequence, offset)` is `curand_init` (the
// seed's two halves salted and multiplied into the five words and d, then
// a skip of 2^67 values per subsequence and of `offset` values), `next()`
// `curand`, `uniform()` / `uniformDouble()` / `normal()` / `normalDouble()`
// `curand_uniform` (one draw), `curand_uniform_double` (two draws as a
// 53-bit fraction), `curand_normal` and `curand_normal_double`
// (Box-Muller, the sine half first, the cosine half kept: rng_normal.h).
//
// Skipping: the xorshift step is linear over GF(2), a 160x160 bit matrix A
// whose characteristic polynomial P has degree 160 (primitive: the period
// is 2^160 - 1). By Cayley-Hamilton A^n = (x^n mod P)(A), so a skip of n is
// x^n mod P by square-and-multiply of polynomials over GF(2) (five words
// each) and then that polynomial of A applied to the state by Horner's rule
// (160 steps). P is the Berlekamp-Massey polynomial of the generator's
// output bits; x^(2^67) mod P is 67 squarings of x. Both are constants
// here; tests/lit/Target/Cpp/rng-streams.py checks the streams they give
// against 160x160 GF(2) matrix powers in NumPy and against libcurand.
//
// Plain C++, included like philox.h by the CUDA, HIP, sim and CPU code.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_XORWOW_H
#define TLC_DEVICE_XORWOW_H

#ifdef TLC_DEVICE
#define TLC_XORWOW_FN TLC_DEVICE
#else
#include <cmath>
#include <cstdint>
#define TLC_XORWOW_FN inline
#endif

#include "tlc_device/rng_normal.h"

namespace tlc {

/// A polynomial over GF(2) of degree below 160, bit i of word i / 32 the
/// coefficient of x^i; also the five words of an xorshift state.
struct XorwowWords {
  unsigned int w[5];
};

/// The generator of curandStateXORWOW_t, its fields but the kept normals.
struct XorwowGenerator {
  unsigned int d;
  XorwowWords v;

  /// The xorshift step on \p s (the linear part, d untouched).
  static TLC_XORWOW_FN void step(XorwowWords &s) {
    unsigned int t = s.w[0] ^ (s.w[0] >> 2);
    s.w[0] = s.w[1];
    s.w[1] = s.w[2];
    s.w[2] = s.w[3];
    s.w[3] = s.w[4];
    s.w[4] = (s.w[4] ^ (s.w[4] << 4)) ^ (t ^ (t << 1));
  }

  /// \p a * \p b mod P, bit by bit from b's top coefficient.
  static TLC_XORWOW_FN XorwowWords mulMod(const XorwowWords &a,
                                          const XorwowWords &b) {
    // P(x) = x^160 + the low 160 bits below.
    const unsigned int p[5] = {0x00060001u, 0x08610030u, 0x00062121u,
                               0x0f3c0035u, 0x00000f0eu};
    XorwowWords r = {{0, 0, 0, 0, 0}};
    for (int i = 159; i >= 0; --i) {
      unsigned int top = r.w[4] >> 31;
      for (int k = 4; k > 0; --k)
        r.w[k] = (r.w[k] << 1) | (r.w[k - 1] >> 31);
      r.w[0] <<= 1;
      unsigned int reduce = 0u - top;
      unsigned int add = 0u - ((b.w[i >> 5] >> (i & 31)) & 1u);
      for (int k = 0; k < 5; ++k)
        r.w[k] ^= (p[k] & reduce) ^ (a.w[k] & add);
    }
    return r;
  }

  /// \p base ^ \p n mod P.
  static TLC_XORWOW_FN XorwowWords powMod(XorwowWords base,
                                          unsigned long long n) {
    XorwowWords r = {{1, 0, 0, 0, 0}};
    while (n) {
      if (n & 1)
        r = mulMod(r, base);
      n >>= 1;
      if (n)
        base = mulMod(base, base);
    }
    return r;
  }

  /// Replaces the xorshift state by c(A) applied to it (Horner's rule).
  TLC_XORWOW_FN void apply(const XorwowWords &c) {
    XorwowWords acc = {{0, 0, 0, 0, 0}};
    for (int i = 159; i >= 0; --i) {
      step(acc);
      if ((c.w[i >> 5] >> (i & 31)) & 1u)
        for (int k = 0; k < 5; ++k)
          acc.w[k] ^= v.w[k];
    }
    v = acc;
  }

  /// curand_init(seed, subsequence, offset).
  TLC_XORWOW_FN void init(unsigned long long seed,
                          unsigned long long subsequence,
                          unsigned long long offset) {
    unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u;
    unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
    unsigned int t0 = 1099087573u * s0;
    unsigned int t1 = 2591861531u * s1;
    d = 6615241u + t1 + t0;
    v.w[0] = 123456789u + t0;
    v.w[1] = 362436069u ^ t0;
    v.w[2] = 521288629u + t1;
    v.w[3] = 88675123u ^ t1;
    v.w[4] = 5783321u + t0;
    if (subsequence) {
      // x^(2^67) mod P: one subsequence; d moves by a multiple of 2^32.
      const XorwowWords x67 = {
          {0x26294934u, 0x77bbc248u, 0x1a87dad0u, 0x930052d4u, 0x947e6dd2u}};
      apply(powMod(x67, subsequence));
    }
    if (offset) {
      const XorwowWords x = {{2u, 0, 0, 0, 0}};
      apply(powMod(x, offset));
      d += 362437u * (unsigned int)offset;
    }
  }

  /// curand(): the next uint32 of the stream.
  TLC_XORWOW_FN unsigned int next() {
    step(v);
    d += 362437u;
    return v.w[4] + d;
  }

  /// curand_uniform(): (0, 1], x * 2^-32 + 2^-33 in float.
  TLC_XORWOW_FN float uniform() { return rngUniformOfBits(next()); }

  /// curand_uniform_double() of an XORWOW state: two draws as a 53-bit
  /// fraction in (0, 1).
  TLC_XORWOW_FN double uniformDouble() {
    const double inv53 = 1.1102230246251565e-16; // 2^-53
    unsigned int x = next();
    unsigned int y = next();
    return rngFraction53(x, y, inv53, inv53 / 2.0);
  }
};

/// One thread's state (curandStateXORWOW_t's fields).
struct XorwowState : RngWithNormals<XorwowGenerator> {};

} // namespace tlc

#undef TLC_XORWOW_FN

#endif // TLC_DEVICE_XORWOW_H
