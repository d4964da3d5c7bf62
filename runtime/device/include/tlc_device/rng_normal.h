//===- rng_normal.h - Normal draws of the T.rng_* generators ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the per-thread generators of philox.h, xorwow.h and mrg32k3a.h
/// share: `normal()` / `normalDouble()` (curand_normal and
/// curand_normal_double, Box-Muller on a pair of inputs, the sine half
/// returned and the cosine half kept for the next call) and curand's
/// conversions of 32-bit draws to floating point (rngUniformOfBits,
/// rngFraction53).
///
/// A state is RngWithNormals<its generator, how the generator's draws
/// become Box-Muller inputs>: two or four 32-bit draws for Philox and
/// XORWOW (RngNormalInputsOfBits), two uniforms for MRG32k3a.
///
/// Plain C++, reached through philox.h, xorwow.h and mrg32k3a.h by the CUDA
/// and HIP code tlc generates (after the language's common.h, which defines
/// TLC_DEVICE), by the sim device, and by the CPU target's kernels (spliced
/// into their tlc_cpu.h).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_RNG_NORMAL_H
#define TLC_DEVICE_RNG_NORMAL_H

#ifdef TLC_DEVICE
#define TLC_RNG_NORMAL_FN TLC_DEVICE
#else
#include <cmath>
#include <cstdint>
#define TLC_RNG_NORMAL_FN inline
#endif

#if defined(__CUDACC__) && !defined(__HIP__)
#define TLC_RNG_NORMAL_FMAF(a, b, c) fmaf(a, b, c)
#define TLC_RNG_NORMAL_FMA(a, b, c) fma(a, b, c)
#else
#define TLC_RNG_NORMAL_FMAF(a, b, c) __builtin_fmaf(a, b, c)
#define TLC_RNG_NORMAL_FMA(a, b, c) __builtin_fma(a, b, c)
#endif

namespace tlc {

/// curand_uniform() of a generator of 32-bit draws (Philox, XORWOW) for the
/// draw \p x: x * 2^-32 + 2^-33 in float, in (0, 1].
TLC_RNG_NORMAL_FN float rngUniformOfBits(unsigned int x) {
  return TLC_RNG_NORMAL_FMAF((float)x, 2.3283064e-10f, 2.3283064e-10f / 2.0f);
}

/// Two 32-bit draws as a 53-bit fraction (curand's high-quality double):
/// (\p x ^ \p y << 21) * \p scale + \p add.
TLC_RNG_NORMAL_FN double rngFraction53(unsigned int x, unsigned int y,
                                       double scale, double add) {
  unsigned long long z =
      (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return TLC_RNG_NORMAL_FMA((double)z, scale, add);
}

/// The inputs of curand_normal() / curand_normal_double() of a generator
/// of 32-bit draws (Philox, XORWOW).
struct RngNormalInputsOfBits {
  /// The next draw x as a uniform, the one after, y, as the angle
  /// y * 2 pi 2^-32 + pi 2^-32 (radians).
  template <typename Generator>
  static TLC_RNG_NORMAL_FN void floats(Generator &g, float &u, float &angle) {
    unsigned int x = g.next();
    unsigned int y = g.next();
    u = rngUniformOfBits(x);
    angle =
        TLC_RNG_NORMAL_FMAF((float)y, 1.4629181e-09f, 1.4629181e-09f / 2.0f);
  }

  /// Two 53-bit fractions of the next four draws: u in (0, 1), the angle
  /// in half turns (multiples of pi) in (0, 2).
  template <typename Generator>
  static TLC_RNG_NORMAL_FN void doubles(Generator &g, double &u,
                                        double &halfTurns) {
    unsigned int x0 = g.next(), x1 = g.next(), y0 = g.next(), y1 = g.next();
    const double inv53 = 1.1102230246251565e-16; // 2^-53
    u = rngFraction53(x0, x1, inv53, inv53 / 2.0);
    halfTurns = rngFraction53(y0, y1, inv53 * 2.0, inv53);
  }
};

/// The generator \p Generator (`init(seed, subsequence, offset)`, `next()`,
/// `uniform()`, `uniformDouble()`) with `normal()` and `normalDouble()` on
/// the inputs \p Inputs gives, and the second value of the last pair of
/// each precision, kept after the generator's own fields.
template <typename Generator, typename Inputs = RngNormalInputsOfBits>
struct RngWithNormals : Generator {
  /// Whether `extra` / `extraDouble` hold the second value of a pair.
  bool hasExtra, hasExtraDouble;
  float extra;
  double extraDouble;

  /// curand_init(seed, subsequence, offset): the generator's, and no value
  /// kept.
  TLC_RNG_NORMAL_FN void init(unsigned long long seed,
                              unsigned long long subsequence,
                              unsigned long long offset) {
    hasExtra = hasExtraDouble = false;
    extra = 0.0f;
    extraDouble = 0.0;
    Generator::init(seed, subsequence, offset);
  }

  /// curand_normal(): Box-Muller on u in (0, 1] and an angle in radians;
  /// the sine half is returned, the cosine half kept for the next call
  /// (curand's order, measured against curand on an H200:
  /// tests/bench/CUDA/curand_philox_check.py).
  TLC_RNG_NORMAL_FN float normal() {
    if (hasExtra) {
      hasExtra = false;
      return extra;
    }
    float u, angle;
    Inputs::floats(static_cast<Generator &>(*this), u, angle);
    float s = sqrtf(-2.0f * logf(u));
    extra = cosf(angle) * s;
    hasExtra = true;
    return sinf(angle) * s;
  }

  /// curand_normal_double(): Box-Muller on u in (0, 1] and an angle in
  /// half turns; the sine half first, the cosine half kept.
  TLC_RNG_NORMAL_FN double normalDouble() {
    if (hasExtraDouble) {
      hasExtraDouble = false;
      return extraDouble;
    }
    double u, halfTurns;
    Inputs::doubles(static_cast<Generator &>(*this), u, halfTurns);
    double s = sqrt(-2.0 * log(u));
    const double pi = 3.14159265358979323846;
    extraDouble = cos(pi * halfTurns) * s;
    hasExtraDouble = true;
    return sin(pi * halfTurns) * s;
  }
};

} // namespace tlc

#undef TLC_RNG_NORMAL_FMAF
#undef TLC_RNG_NORMAL_FMA
#undef TLC_RNG_NORMAL_FN

#endif // TLC_DEVICE_RNG_NORMAL_H
