//===- philox.h - Philox4x32-10 per-thread generator ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generator behind TileLang's `T.rng_init` / `T.rng_rand` /
// `T.rng_rand_float` with curand's default state type,
// curandStatePhilox4_32_10_t: the counter-based Philox4x32 bijection with
// 10 rounds (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy
// as 1, 2, 3", SC 2011), keyed by the 64-bit seed, over a 128-bit counter
// whose upper 64 bits are the subsequence and lower 64 bits count blocks of
// four outputs. The state and the draws follow curand's documented device
// API: `init(seed, subsequence, offset)` is `curand_init`, `next()` is
// `curand`, `uniform()` / `uniformDouble()` / `normal()` / `normalDouble()`
// are `curand_uniform`, `curand_uniform_double`, `curand_normal` and
// `curand_normal_double` (Box-Muller on pairs, the second value of a pair
// kept for the next call: rng_normal.h).
//
// Plain C++ shared by every target: included by the CUDA and HIP code tlc
// generates (after the language's common.h, which defines TLC_DEVICE), by
// the sim device, and by the CPU target's kernels, so each computes the
// same uint32 stream; floats agree to the rounding of each target's
// log/sqrt/sin/cos.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_PHILOX_H
#define TLC_DEVICE_PHILOX_H

#ifdef TLC_DEVICE
#define TLC_PHILOX_FN TLC_DEVICE
#else
#include <cmath>
#include <cstdint>
#define TLC_PHILOX_FN inline
#endif

#if defined(__CUDACC__) && !defined(__HIP__)
#define TLC_PHILOX_FMA(a, b, c) fma(a, b, c)
#else
#define TLC_PHILOX_FMA(a, b, c) __builtin_fma(a, b, c)
#endif

#include "tlc_device/rng_normal.h"

namespace tlc {

/// Four 32-bit words: a Philox counter or one block of outputs.
struct PhiloxWords {
  unsigned int w[4];
};

/// The high 32 bits of the 64-bit product \p a * \p b.
TLC_PHILOX_FN unsigned int philoxMulHi(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * b) >> 32);
}

/// Philox4x32-10 of \p ctr under the key (\p k0, \p k1): ten rounds, each
/// two 32x32->64 multiplications (multipliers 0xD2511F53 and 0xCD9E8D57)
/// and a word permutation, the key bumped by the Weyl constants 0x9E3779B9
/// and 0xBB67AE85 between rounds.
TLC_PHILOX_FN PhiloxWords philox4x32x10(PhiloxWords ctr, unsigned int k0,
                                        unsigned int k1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    unsigned int p0 = ctr.w[0], p2 = ctr.w[2];
    unsigned int hi0 = philoxMulHi(0xD2511F53u, p0);
    unsigned int hi1 = philoxMulHi(0xCD9E8D57u, p2);
    PhiloxWords next;
    next.w[0] = hi1 ^ ctr.w[1] ^ k0;
    next.w[1] = 0xCD9E8D57u * p2;
    next.w[2] = hi0 ^ ctr.w[3] ^ k1;
    next.w[3] = 0xD2511F53u * p0;
    ctr = next;
  }
  return ctr;
}

/// The generator of curandStatePhilox4_32_10_t, its fields but the kept
/// normals. 8-byte aligned like the whole state (its double): nvcc then
/// pairs the 32-bit accesses of the state in local memory (`output.w[index]`
/// keeps it there) as it does for one struct.
struct alignas(8) PhiloxGenerator {
  PhiloxWords ctr;
  PhiloxWords output;
  unsigned int key0, key1;
  /// Index in `output` of the next value (0..3).
  unsigned int index;

  /// Adds \p n to the 128-bit counter starting at word \p at (0: the
  /// block count, 2: the subsequence).
  TLC_PHILOX_FN void advance(unsigned long long n, int at) {
    unsigned long long lo =
        ((unsigned long long)ctr.w[at + 1] << 32 | ctr.w[at]) + n;
    bool carry = lo < n;
    ctr.w[at] = (unsigned int)lo;
    ctr.w[at + 1] = (unsigned int)(lo >> 32);
    for (int i = at + 2; carry && i < 4; ++i)
      carry = ++ctr.w[i] == 0;
  }

  /// curand_init(seed, subsequence, offset): the stream of \p seed from
  /// value \p offset of subsequence \p subsequence (2^66 values apart).
  TLC_PHILOX_FN void init(unsigned long long seed,
                          unsigned long long subsequence,
                          unsigned long long offset) {
    for (int i = 0; i < 4; ++i)
      ctr.w[i] = 0;
    key0 = (unsigned int)seed;
    key1 = (unsigned int)(seed >> 32);
    advance(subsequence, 2);
    index = (unsigned int)(offset & 3);
    advance(offset >> 2, 0);
    output = philox4x32x10(ctr, key0, key1);
  }

  /// curand(): the next uint32 of the stream.
  TLC_PHILOX_FN unsigned int next() {
    unsigned int r = output.w[index];
    if (++index == 4) {
      advance(1, 0);
      output = philox4x32x10(ctr, key0, key1);
      index = 0;
    }
    return r;
  }

  /// curand_uniform(): (0, 1], x * 2^-32 + 2^-33 in float.
  TLC_PHILOX_FN float uniform() { return rngUniformOfBits(next()); }

  /// curand_uniform_double() of a Philox state: one draw, x * 2^-32 +
  /// 2^-32 in double (curand's two-draw 53-bit form is only its normals').
  TLC_PHILOX_FN double uniformDouble() {
    const double inv32 = 2.3283064365386963e-10; // 2^-32
    return TLC_PHILOX_FMA((double)next(), inv32, inv32);
  }
};

/// One thread's state (curandStatePhilox4_32_10_t's fields).
struct PhiloxState : RngWithNormals<PhiloxGenerator> {};

} // namespace tlc

#undef TLC_PHILOX_FMA
#undef TLC_PHILOX_FN

#endif // TLC_DEVICE_PHILOX_H
