//===- HostTensorTest.cpp - Random inputs of tlc-run ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HostTensor::fillRandom fills large tensors in parallel chunks; every
// element must be the one a single sequential pass of SplitMix64 (Vigna's
// published generator, written out here from its definition) gives, so
// that seeded inputs do not depend on the host's core count.
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/HostTensor.h"
#include "tlc/runtime/Parallel.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace tlc::runtime;

namespace {

/// SplitMix64 as published: state += 0x9E3779B97F4A7C15, then two
/// xor-shift-multiply rounds and a final xor-shift.
uint64_t splitMix(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The bfloat16 value nearest to finite \p x (ties to the even mantissa):
/// the two neighbours bracketing x (its bits truncated to the top 16, and
/// one bfloat16 step further from zero), compared in double.
double bf16Nearest(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  uint32_t loBits = bits & 0xFFFF0000u, hiBits = loBits + 0x10000u;
  float lo, hi;
  std::memcpy(&lo, &loBits, 4);
  std::memcpy(&hi, &hiBits, 4);
  double dLo = std::fabs(double(x) - lo), dHi = std::fabs(double(hi) - x);
  if (dLo != dHi)
    return dLo < dHi ? lo : hi;
  return (loBits >> 16) & 1 ? hi : lo;
}

} // namespace

TEST_CASE("fillRandom: parallel chunks give the sequential stream") {
  // Three chunks of 2^20 and a ragged tail; int8 (one Box-Muller pair per
  // element, two draws) and uint8 (one draw per element).
  const int64_t n = 3 * (int64_t(1) << 20) + 12345;
  for (const char *name : {"int8", "uint8"}) {
    CAPTURE(name);
    HostTensor t(*lookupDType(name), {n});
    t.fillRandom(/*seed=*/7, /*stream=*/3);
    uint64_t state = 7 * 0x100000001B3ull + 3 * 0x9E3779B97F4A7C15ull;
    bool same = true;
    int64_t firstBad = -1;
    for (int64_t i = 0; i < n && same; ++i) {
      double want;
      if (std::string(name) == "int8") {
        double u = (double(splitMix(state) >> 11) + 0.5) * 0x1.0p-53;
        double v = (double(splitMix(state) >> 11) + 0.5) * 0x1.0p-53;
        double x = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
        want = std::max(-128.0, std::min(127.0, std::round(4.0 * x)));
      } else {
        want = double(splitMix(state) % 256);
      }
      if (t.get(i) != want) {
        same = false;
        firstBad = i;
      }
    }
    CAPTURE(firstBad);
    CHECK(same);
  }
}

TEST_CASE("poison: a NaN no arithmetic produces, told apart from computed NaNs") {
  // The poison's bits, written out from the IEEE formats: quiet NaNs
  // (exponent all ones, top fraction bit set) with a payload.
  struct Case {
    const char *name;
    uint64_t bits;
  };
  for (Case c : {Case{"float16", 0x7e5a}, Case{"bfloat16", 0x7fda},
                 Case{"float32", 0x7fe5a5a5}, Case{"tfloat32", 0x7fe5a5a5},
                 Case{"float64", 0x7ffa5a5a5a5a5a5aull},
                 Case{"float8_e5m2", 0x7d}}) {
    CAPTURE(c.name);
    HostTensor t(*lookupDType(c.name), {3});
    t.poison();
    uint64_t stored = 0;
    std::memcpy(&stored, t.bytes.data(), t.dtype.size);
    CHECK(stored == c.bits);
    CHECK(std::isnan(t.get(0)));
    CHECK(t.isPoisoned(0));
    // A NaN that arithmetic made (0/0) and a number are not the poison.
    volatile double zero = 0.0;
    t.set(1, zero / zero);
    t.set(2, 1.5);
    CHECK(std::isnan(t.get(1)));
    CHECK_FALSE(t.isPoisoned(1));
    CHECK_FALSE(t.isPoisoned(2));
  }
  // e4m3fn has one NaN: any NaN counts as the poison; integers are zeroed
  // and never poisoned.
  HostTensor e4(*lookupDType("float8_e4m3fn"), {1});
  e4.poison();
  CHECK(e4.isPoisoned(0));
  HostTensor i32(*lookupDType("int32"), {1});
  i32.poison();
  CHECK(i32.get(0) == 0);
  CHECK_FALSE(i32.isPoisoned(0));
}

TEST_CASE("fillRandom: float32, float16 and bfloat16 are Box-Muller rounded") {
  // The typed fast paths against the definition: element i is
  // sqrt(-2 ln u) cos(2 pi v) of its two draws, rounded to float and then
  // to the dtype (GCC's _Float16 conversion and bf16Nearest, round to
  // nearest even, as the oracles). Two chunks and a ragged tail.
  const int64_t n = 2 * (int64_t(1) << 20) + 777;
  for (const char *name : {"float32", "float16", "bfloat16"}) {
    CAPTURE(name);
    HostTensor t(*lookupDType(name), {n});
    t.fillRandom(/*seed=*/11, /*stream=*/5);
    uint64_t state = 11 * 0x100000001B3ull + 5 * 0x9E3779B97F4A7C15ull;
    int64_t firstBad = -1;
    for (int64_t i = 0; i < n && firstBad < 0; ++i) {
      double u = (double(splitMix(state) >> 11) + 0.5) * 0x1.0p-53;
      double v = (double(splitMix(state) >> 11) + 0.5) * 0x1.0p-53;
      float x = float(std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v));
      double want = std::string(name) == "float32"   ? double(x)
                    : std::string(name) == "float16" ? double(_Float16(x))
                                                     : bf16Nearest(x);
      if (t.get(i) != want)
        firstBad = i;
    }
    CAPTURE(firstBad);
    CHECK(firstBad < 0);
  }
}

TEST_CASE("poison: every element of a tensor of several chunks") {
  const int64_t n = 3 * (int64_t(1) << 20) + 5;
  for (const char *name : {"float16", "float32", "float8_e4m3fn", "int16"}) {
    CAPTURE(name);
    HostTensor t(*lookupDType(name), {n});
    t.fillRandom(1, 2);
    t.poison();
    bool isFloat = std::string(name) != "int16";
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i)
      bad += isFloat ? !t.isPoisoned(i) : t.get(i) != 0;
    CHECK(bad == 0);
  }
}

TEST_CASE("compareTensors: counts, first failure and errors across chunks") {
  // float32 tensors of 2.5 chunks; planted differences in several chunks,
  // the expected figures computed here in float64 element by element.
  const int64_t n = (int64_t(5) << 19) + 3;
  HostTensor ref(*lookupDType("float32"), {n});
  HostTensor out(*lookupDType("float32"), {n});
  ref.fillRandom(3, 0);
  out.bytes = ref.bytes;
  const int64_t planted[] = {(int64_t(1) << 20) + 17, 99, n - 1,
                             (int64_t(2) << 20) + 1};
  for (int64_t i : planted)
    out.set(i, ref.get(i) + 0.5);
  volatile double zero = 0.0;
  out.set(5000, zero / zero); // a NaN where the reference has a number
  double num = 0, den = 0, maxAbs = 0;
  int64_t mismatches = 0, nans = 0, firstBad = -1;
  for (int64_t i = 0; i < n; ++i) {
    double o = out.get(i), r = ref.get(i);
    if (std::isnan(o)) {
      ++nans;
      firstBad = firstBad < 0 ? i : firstBad;
      continue;
    }
    double d = std::fabs(o - r);
    num += d * d;
    den += r * r;
    maxAbs = std::max(maxAbs, d);
    if (d > 1e-4 + 1e-3 * std::fabs(r)) {
      ++mismatches;
      firstBad = firstBad < 0 ? i : firstBad;
    }
  }
  Comparison c = compareTensors(out, ref, 1e-3, 1e-4);
  CHECK(mismatches == 4);
  CHECK(c.mismatches == mismatches);
  CHECK(c.nans == nans);
  CHECK(c.firstBad == 99);
  CHECK(c.firstBad == firstBad);
  CHECK(c.maxAbsError == maxAbs);
  CHECK(c.relativeError ==
        doctest::Approx(std::sqrt(num / den)).epsilon(1e-12));
}

TEST_CASE(
    "DType::loadMany: values and poison of a run, as element by element") {
  // Bit patterns written here by hand (IEEE-754 half, bfloat16, single,
  // double; e4m3fn and int8 through the per-element fallback), decoded in
  // one run, against the values the encodings stand for.
  struct Case {
    const char *name;
    std::vector<uint64_t> bits;
    std::vector<double> values; // NaN: a NaN
    std::vector<bool> poison;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Case cases[] = {
      {"float16",
       {0x3c00, 0xc000, 0x0001, 0x7c00, 0x7e5a, 0x7e00, 0x8000},
       {1.0, -2.0, 0x1p-24, inf, nan, nan, -0.0},
       {false, false, false, false, true, false, false}},
      {"bfloat16",
       {0x3f80, 0xc040, 0x7fda, 0x7fc0, 0x0001},
       {1.0, -3.0, nan, nan, 0x1p-133},
       {false, false, true, false, false}},
      {"float32",
       {0x3f800000, 0x7fe5a5a5, 0x7fc00000, 0xff800000, 0x00000001},
       {1.0, nan, nan, -inf, 0x1p-149},
       {false, true, false, false, false}},
      {"tfloat32", {0x40000000, 0x7fe5a5a5}, {2.0, nan}, {false, true}},
      {"float64",
       {0x3ff0000000000000ull, 0x7ffa5a5a5a5a5a5aull, 0x7ff8000000000000ull},
       {1.0, nan, nan},
       {false, true, false}},
      {"float8_e4m3fn",
       {0x38, 0x7f, 0xb8},
       {1.0, nan, -1.0},
       {false, true, false}},
      {"int8", {0x05, 0xfe}, {5.0, -2.0}, {false, false}},
  };
  for (const Case &c : cases) {
    CAPTURE(c.name);
    DType dt = *lookupDType(c.name);
    size_t n = c.bits.size();
    std::vector<uint8_t> raw(n * dt.size);
    for (size_t i = 0; i < n; ++i)
      std::memcpy(raw.data() + i * dt.size, &c.bits[i], dt.size);
    std::vector<double> values(n);
    std::unique_ptr<bool[]> poison(new bool[n]);
    dt.loadMany(raw.data(), int64_t(n), values.data(), poison.get());
    for (size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      if (std::isnan(c.values[i]))
        CHECK(std::isnan(values[i]));
      else
        CHECK(values[i] == c.values[i]);
      CHECK(std::signbit(values[i]) == std::signbit(c.values[i]));
      CHECK(poison[i] == c.poison[i]);
    }
  }
}

TEST_CASE("compareTensors: unwritten and computed NaNs counted per side") {
  // float16 over 1.5 chunks, elements planted in both chunks: poison in
  // both, in the reference only, in the output only; a NaN each side
  // computed; the counts written down by hand.
  const int64_t n = (int64_t(3) << 19) + 5;
  HostTensor ref(*lookupDType("float16"), {n});
  HostTensor out(*lookupDType("float16"), {n});
  ref.fillRandom(7, 0);
  out.bytes = ref.bytes;
  volatile double zero = 0.0;
  HostTensor poisonOne(*lookupDType("float16"), {1});
  poisonOne.poison();
  auto poisonAt = [&](HostTensor &t, int64_t i) {
    std::memcpy(t.bytes.data() + 2 * i, poisonOne.bytes.data(), 2);
  };
  for (int64_t i : {int64_t(3), (int64_t(1) << 20) + 2}) { // both
    poisonAt(ref, i);
    poisonAt(out, i);
  }
  poisonAt(ref, 10);                     // reference only
  poisonAt(out, (int64_t(1) << 20) + 9); // output only
  poisonAt(out, 11);                     // output only
  ref.set(20, zero / zero);              // computed by the reference
  out.set(20, zero / zero);
  out.set(n - 1, zero / zero); // computed by the output only
  Comparison c = compareTensors(out, ref, 1e-2, 1e-2);
  CHECK(c.bothUnwritten == 2);
  CHECK(c.refOnlyUnwritten == 1);
  CHECK(c.outOnlyUnwritten == 2);
  CHECK(c.refComputedNaNs == 1);
  CHECK(c.outComputedNaNs == 1);
  // NaN where the reference is a number: the two output-only poisons and
  // the computed NaN; the reference-only poison is a mismatch.
  CHECK(c.nans == 3);
  CHECK(c.mismatches == 1);
  CHECK(c.firstBad == 10);
}

TEST_CASE("compareTensors: a per-element magnitude widens atol") {
  // Element k passes when |out - ref| <= atol + scale |magnitude[k]|:
  // differences of 0.5 at k = 1 and 2; the magnitudes allow 0.6 at k = 1
  // and 0.4 at k = 2 (scale 0.1); a non-finite magnitude (k = 3) adds
  // nothing; a negative one counts by its absolute value (k = 4).
  HostTensor ref(*lookupDType("float32"), {5});
  HostTensor out(*lookupDType("float32"), {5});
  HostTensor mag(*lookupDType("float32"), {5});
  const double refs[5] = {1, 2, 3, 4, 5}, outs[5] = {1, 2.5, 3.5, 4.5, 5.5},
               mags[5] = {0, 6, 4, INFINITY, -6};
  for (int64_t k = 0; k < 5; ++k) {
    ref.set(k, refs[k]);
    out.set(k, outs[k]);
    mag.set(k, mags[k]);
  }
  Comparison plain = compareTensors(out, ref, 0, 1e-3);
  CHECK(plain.mismatches == 4);
  Comparison c = compareTensors(out, ref, 0, 1e-3, &mag, 0.1);
  CHECK(c.mismatches == 2);
  CHECK(c.firstBad == 2);
  CHECK(c.maxAbsError == 0.5);
}

TEST_CASE("HostTensor: zeroed on construction, deep copies") {
  // Larger than one chunk, so zeroing and copying run on several threads.
  HostTensor t(*lookupDType("float32"), {(int64_t(5) << 20) + 3});
  CHECK(std::all_of(t.bytes.begin(), t.bytes.end(),
                    [](uint8_t b) { return b == 0; }));
  t.fillRandom(1, 2);
  HostTensor copy = t;
  CHECK(copy.bytes == t.bytes);
  copy.set(7, 123.0);
  CHECK(t.get(7) != 123.0);
  HostTensor assigned(*lookupDType("float16"), {2});
  assigned = t;
  CHECK(assigned.dtype.name == "float32");
  CHECK(assigned.shape == t.shape);
  CHECK(assigned.bytes == t.bytes);
}

TEST_CASE("parallelCopy: large and ragged copies are memcpy") {
  for (size_t bytes : {size_t(0), size_t(15), size_t(17) << 20,
                       (size_t(33) << 20) + 9}) {
    CAPTURE(bytes);
    std::vector<uint8_t> src(bytes), dst(bytes, 0xEE);
    for (size_t i = 0; i < bytes; ++i)
      src[i] = uint8_t((i * 2654435761u) >> 13);
    parallelCopy(dst.data(), src.data(), bytes);
    CHECK(dst == src);
  }
}

TEST_CASE("sortRows: each row a multiset, poison and NaNs kept, rows apart") {
  // Two rows of top-k indices in the order atomics placed them; the same
  // sets in another order sort to the same bytes, a different set does not.
  HostTensor a(*lookupDType("int32"), {2, 4}), b = a, c = a;
  int32_t av[] = {7, 1, 5, 3, 2, 9, 0, 4}, bv[] = {3, 5, 1, 7, 0, 4, 9, 2},
          cv[] = {3, 5, 1, 7, 0, 4, 9, 8};
  std::memcpy(a.bytes.data(), av, sizeof av);
  std::memcpy(b.bytes.data(), bv, sizeof bv);
  std::memcpy(c.bytes.data(), cv, sizeof cv);
  a.sortRows();
  b.sortRows();
  c.sortRows();
  CHECK(a.bytes == b.bytes);
  CHECK(a.bytes != c.bytes);
  for (int64_t i = 0; i < 4; ++i)
    CHECK(a.get(i) == double(std::vector<int>{1, 3, 5, 7}[size_t(i)]));
  // An element does not move to another row.
  for (int64_t i = 4; i < 8; ++i)
    CHECK(a.get(i) == double(std::vector<int>{0, 2, 4, 9}[size_t(i - 4)]));
  // Floats: numbers ascending, then computed NaNs, then the poison.
  HostTensor f(*lookupDType("float32"), {5});
  f.poison();
  volatile double zero = 0.0;
  f.set(1, 2.5);
  f.set(2, zero / zero);
  f.set(4, -1.0);
  f.sortRows();
  CHECK(f.get(0) == -1.0);
  CHECK(f.get(1) == 2.5);
  CHECK(std::isnan(f.get(2)));
  CHECK_FALSE(f.isPoisoned(2));
  CHECK(f.isPoisoned(3));
  CHECK(f.isPoisoned(4));
}

TEST_CASE("FillSpec: distributions of tlc-run --fill") {
  auto parse = [](const char *s) { return FillSpec::parse(s); };
  for (const char *bad : {"uniform(1,0)", "normal(0)", "gauss(0,1)",
                          "randint(0.5,3)", "const(x)", "uniform(0,1",
                          "normal(0,-1)"}) {
    CAPTURE(bad);
    auto r = parse(bad);
    CHECK_FALSE(bool(r));
    if (!r)
      llvm::consumeError(r.takeError());
  }
  // uniform(-1, 0): every value in [-1, 0), mean near -0.5 (2^16 draws:
  // standard error 0.0011).
  auto u = parse("uniform(-1, 0)");
  REQUIRE(bool(u));
  HostTensor t(*lookupDType("float32"), {1 << 16});
  t.fill(*u, 3, 1);
  double sum = 0;
  bool inRange = true;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    inRange &= t.get(i) >= -1.0 && t.get(i) <= 0.0;
    sum += t.get(i);
  }
  CHECK(inRange);
  CHECK(std::fabs(sum / double(t.numElements()) + 0.5) < 0.01);
  // randint(2, 5) on int32: only 2, 3 and 4, each about a third.
  auto r = parse("randint(2,5)");
  REQUIRE(bool(r));
  HostTensor k(*lookupDType("int32"), {30000});
  k.fill(*r, 3, 2);
  int counts[8] = {};
  for (int64_t i = 0; i < k.numElements(); ++i) {
    double v = k.get(i);
    REQUIRE(v >= 0);
    REQUIRE(v < 8);
    ++counts[int(v)];
  }
  CHECK(counts[0] + counts[1] + counts[5] + counts[6] + counts[7] == 0);
  for (int v = 2; v < 5; ++v)
    CHECK(std::abs(counts[v] - 10000) < 500);
  // normal(10, 0.5): mean and spread; const(-3): every element.
  auto n = parse("normal(10,0.5)");
  REQUIRE(bool(n));
  t.fill(*n, 3, 1);
  double s1 = 0, s2 = 0;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    s1 += t.get(i);
    s2 += t.get(i) * t.get(i);
  }
  double mean = s1 / double(t.numElements());
  CHECK(std::fabs(mean - 10) < 0.01);
  CHECK(std::fabs(std::sqrt(s2 / double(t.numElements()) - mean * mean) - 0.5) <
        0.01);
  auto c = parse("const(-3)");
  REQUIRE(bool(c));
  k.fill(*c, 0, 0);
  CHECK(k.get(0) == -3);
  CHECK(k.get(29999) == -3);
  // The same seed and stream give the same values; another stream others.
  HostTensor x(*lookupDType("float32"), {1000}), y = x, z = x;
  x.fill(*u, 7, 4);
  y.fill(*u, 7, 4);
  z.fill(*u, 7, 5);
  CHECK(x.bytes == y.bytes);
  CHECK(x.bytes != z.bytes);
}
