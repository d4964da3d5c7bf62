//===- IndexExprTest.cpp - Tests for index expressions --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parse -> simplify -> print cases given as strings, evaluation against
// hand-computed values, and a differential test against CPython: random
// expressions are printed, evaluated by /usr/bin/python3 (whose `//`, `%`,
// `^`, `<<`, `>>` are the reference semantics) and compared with
// IndexExpr::evaluate, before and after simplify(), and with
// CompiledIndexExpr::evaluate at negative inputs too.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/IndexExpr.h"

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <random>
#include <sstream>

using namespace tlc::layout;
using tlc::layout::test::runPython;

namespace {
const std::vector<std::string> kNames = {"i", "j", "k", "rep"};

IndexExpr parse(const std::string &text) {
  llvm::Expected<IndexExpr> e = parseIndexExpr(text, kNames);
  if (!e) {
    FAIL_CHECK("parse error: " << llvm::toString(e.takeError()));
    return IndexExpr::constant(0);
  }
  return *e;
}

/// Parses \p input, simplifies with i in [0,ei), j in [0,ej), k in [0,ek)
/// (0 = unbounded) and compares the printed result with \p expected.
void checkSimplify(const std::string &input, const std::string &expected,
                   int64_t ei = 0, int64_t ej = 0, int64_t ek = 0) {
  VarRanges ranges(3);
  if (ei)
    ranges[0] = IndexRange::extent(ei);
  if (ej)
    ranges[1] = IndexRange::extent(ej);
  if (ek)
    ranges[2] = IndexRange::extent(ek);
  IndexExpr e = parse(input);
  CHECK_MESSAGE(simplify(e, ranges).str() == expected, "input: " << input);
}

void checkPrint(const std::string &input, const std::string &expected) {
  CHECK_MESSAGE(parse(input).str() == expected, "input: " << input);
}

void checkEval(const std::string &input, std::vector<int64_t> inputs,
               std::optional<int64_t> expected) {
  CHECK_MESSAGE(parse(input).evaluate(inputs) == expected,
                "input: " << input);
}

void checkParseError(const std::string &input, const std::string &message) {
  llvm::Expected<IndexExpr> e = parseIndexExpr(input, kNames);
  REQUIRE(!e);
  CHECK(llvm::toString(e.takeError()) == message);
}
} // namespace

TEST_CASE("IndexExpr: printing uses Python precedence") {
  checkPrint("4 * (i % 8) + j // 2", "4 * (i % 8) + j // 2");
  checkPrint("(i + j) * 2", "2 * (i + j)");
  checkPrint("i - (j - k)", "i - (j - k)");
  checkPrint("i - j - k", "i - j - k");
  checkPrint("i // 8 % 2", "(i // 8) % 2");
  checkPrint("i ^ j & 7", "i ^ j & 7");
  checkPrint("(i ^ j) & 7", "(i ^ j) & 7");
  checkPrint("i xor j", "i ^ j");
  checkPrint("i floordiv 4 mod 2", "(i // 4) % 2");
  checkPrint("-i + 3", "-i + 3");
  checkPrint("i - 3", "i - 3");
  checkPrint("i + -4 * j", "i - 4 * j");
  checkPrint("i << 2 + j", "i << 2 + j");
  checkPrint("(i << 2) + j", "(i << 2) + j");
  checkPrint("2 * 3 + i", "6 + i");
}

TEST_CASE("IndexExpr: evaluation uses floor semantics") {
  checkEval("i // 4", {-1}, -1);
  checkEval("i % 4", {-1}, 3);
  checkEval("i % -4", {5}, -3);
  checkEval("i // j", {5, 0}, std::nullopt);
  checkEval("i ^ j", {5, 3}, 6);
  checkEval("i >> 2", {-5}, -2);
  checkEval("i << 3", {3}, 24);
  checkEval("rep * 10 + k", {0, 0, 7, 2}, 27);
  checkEval("k", {1}, std::nullopt);
  // Results outside int64 are undefined, not wrapped (CPython's ints do not
  // wrap; a wrapped index would read as a valid place).
  checkEval("i * 4", {int64_t(1) << 61}, std::nullopt);
  checkEval("i + j", {INT64_MAX, 1}, std::nullopt);
  checkEval("i << 2", {int64_t(1) << 61}, std::nullopt);
  checkEval("i * 4", {int64_t(1) << 60}, int64_t(1) << 62);
}

TEST_CASE("IndexExpr: parse errors carry the offset") {
  checkParseError("i + q", "4: unknown name 'q'");
  checkParseError("(i + j", "6: expected ')'");
  checkParseError("i +", "3: expected an expression");
  checkParseError("i $ j", "2: unexpected '$'");
}

TEST_CASE("IndexExpr: simplification") {
  // Exact identities, no ranges needed.
  checkSimplify("i + 0", "i");
  checkSimplify("(8 * i + 16) // 8", "i + 2");
  checkSimplify("(8 * i + 17) % 8", "1");
  checkSimplify("i // 4 // 2", "i // 8");
  checkSimplify("(i % 64) // 8", "(i // 8) % 8");
  checkSimplify("i % 64 % 8", "i % 8");
  checkSimplify("2 * i + 3 * i - i", "4 * i");
  checkSimplify("i << 3", "8 * i");
  checkSimplify("i >> 3", "i // 8");
  checkSimplify("i & 7", "i % 8");
  checkSimplify("(4 * i + 2 * j) // 2", "2 * i + j");
  checkSimplify("(4 * i + 2 * j + 1) % 2", "1");
  checkSimplify("8 * (i // 8) + i % 8", "i");
  checkSimplify("4 * ((i // 4) % 2) + i % 4", "i % 8");
  // Range-based rewrites.
  checkSimplify("(8 * i + j) // 8", "i", 0, 8);
  checkSimplify("(8 * i + j) % 8", "j", 0, 8);
  checkSimplify("(8 * i + j) // 8", "i + j // 8", 0, 9);
  checkSimplify("i % 16", "i", 16);
  checkSimplify("i // 16", "0", 16);
  checkSimplify("(i % 16) // 8 * 2 + (j % 8) // 2 * 0", "2 * (i // 8)", 16,
                8);
  checkSimplify("32 * ((i // 64) % 2) + 4 * (i % 8) + (j % 8) // 2",
                "32 * (i // 64) + 4 * (i % 8) + j // 2", 128, 8);
  checkSimplify("(16 * i + j // 8) % 128", "16 * (i % 8) + j // 8", 128, 128);
  checkSimplify("(16 * i + j // 8) // 128", "i // 8", 128, 128);
  checkSimplify("(16 * i + j) % 128", "(16 * i + j) % 128", 128, 128);
  checkSimplify("i ^ 0 * j", "i");
  checkSimplify("(i % 8) ^ (j // 8)", "i % 8", 0, 8);
}

//===----------------------------------------------------------------------===//
// Differential test against CPython
//===----------------------------------------------------------------------===//

namespace {
/// The Python line `pts = [(i, j, k), ...]` binding \p points.
std::string pointsAssignment(llvm::ArrayRef<std::array<int64_t, 3>> points) {
  std::ostringstream os;
  os << "pts = [";
  for (auto &p : points)
    os << "(" << p[0] << "," << p[1] << "," << p[2] << "),";
  os << "]\n";
  return os.str();
}

/// Builds a random expression over i, j, k with small positive divisors.
IndexExpr randomExpr(std::mt19937 &rng, int depth) {
  std::uniform_int_distribution<int> pick(0, 9);
  if (depth == 0 || pick(rng) < 2) {
    int leaf = pick(rng);
    if (leaf < 3)
      return IndexExpr::var(leaf, kNames[leaf]);
    return IndexExpr::constant(std::uniform_int_distribution<int>(-9, 40)(rng));
  }
  IndexExpr a = randomExpr(rng, depth - 1);
  int positive = std::uniform_int_distribution<int>(1, 16)(rng);
  switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
  case 0:
    return a + randomExpr(rng, depth - 1);
  case 1:
    return a - randomExpr(rng, depth - 1);
  case 2:
    return a * randomExpr(rng, depth - 1);
  case 3:
    return floorDiv(a, positive);
  case 4:
    return floorMod(a, positive);
  case 5:
    return bitXor(a, randomExpr(rng, depth - 1));
  case 6:
    return bitAnd(a, IndexExpr::constant(positive));
  case 7:
    return shiftRight(a, IndexExpr::constant(positive % 5));
  case 8:
    return shiftLeft(a, IndexExpr::constant(positive % 4));
  default:
    return IndexExpr::constant(positive) * a + randomExpr(rng, depth - 1);
  }
}
} // namespace

TEST_CASE("IndexExpr: printed formulas evaluate identically in CPython") {
  std::mt19937 rng(12345);
  const int64_t ei = 24, ej = 16, ek = 7;
  VarRanges ranges = {IndexRange::extent(ei), IndexRange::extent(ej),
                      IndexRange::extent(ek)};
  std::vector<std::pair<IndexExpr, IndexExpr>> cases;
  for (int n = 0; n < 300; ++n) {
    IndexExpr e = randomExpr(rng, 4);
    cases.push_back({e, simplify(e, ranges)});
  }
  // One Python line per expression: a list of its values over the sample
  // points, for the original and the simplified expression.
  std::vector<std::array<int64_t, 3>> points;
  for (int64_t i = 0; i < ei; i += 5)
    for (int64_t j = 0; j < ej; j += 3)
      for (int64_t k = 0; k < ek; k += 2)
        points.push_back({i, j, k});
  std::ostringstream script;
  script << pointsAssignment(points);
  for (auto &[orig, simp] : cases) {
    script << "print(' '.join(str(" << orig.str()
           << ") for (i, j, k) in pts))\n";
    script << "print(' '.join(str(" << simp.str()
           << ") for (i, j, k) in pts))\n";
  }
  std::optional<std::string> out = runPython(script.str());
  REQUIRE(out);
  std::istringstream lines(*out);
  for (auto &[orig, simp] : cases) {
    for (const IndexExpr *e : {&orig, &simp}) {
      std::string line;
      REQUIRE(std::getline(lines, line));
      std::istringstream values(line);
      for (auto &p : points) {
        int64_t expected = 0;
        values >> expected;
        std::optional<int64_t> got = e->evaluate({p[0], p[1], p[2]});
        REQUIRE(got);
        CHECK_MESSAGE(*got == expected, "expr " << e->str() << " (from "
                                                << orig.str() << ") at ("
                                                << p[0] << "," << p[1] << ","
                                                << p[2] << ")");
        CHECK(CompiledIndexExpr(*e).evaluate({p[0], p[1], p[2]}) == expected);
      }
    }
  }
}

TEST_CASE("CompiledIndexExpr: evaluates as CPython at negative inputs") {
  // The compiled form turns `// 2**k` into a shift and `% 2**k` into a mask;
  // both must keep floor semantics for negative dividends.
  std::mt19937 rng(777);
  std::vector<IndexExpr> exprs;
  for (int n = 0; n < 300; ++n)
    exprs.push_back(randomExpr(rng, 4));
  exprs.push_back(parse("(i - 20) // 8 + (j - 9) % 16 * 3"));
  exprs.push_back(parse("(i * -3) // 1 + (k - 5) % 1 + (j - 15) >> 2"));
  std::vector<std::array<int64_t, 3>> points;
  for (int64_t i = -24; i < 24; i += 7)
    for (int64_t j = -16; j < 16; j += 5)
      for (int64_t k = -7; k < 7; k += 3)
        points.push_back({i, j, k});
  std::ostringstream script;
  script << pointsAssignment(points);
  for (const IndexExpr &e : exprs)
    script << "print(' '.join(str(" << e.str() << ") for (i, j, k) in pts))\n";
  std::optional<std::string> out = runPython(script.str());
  REQUIRE(out);
  std::istringstream lines(*out);
  for (const IndexExpr &e : exprs) {
    std::string line;
    REQUIRE(std::getline(lines, line));
    std::istringstream values(line);
    CompiledIndexExpr compiled(e);
    for (auto &p : points) {
      int64_t expected = 0;
      values >> expected;
      CHECK_MESSAGE(compiled.evaluate({p[0], p[1], p[2]}) == expected,
                    "expr " << e.str() << " at (" << p[0] << "," << p[1]
                            << "," << p[2] << ")");
    }
  }
  // Missing inputs and undefined operations are std::nullopt, as in
  // IndexExpr::evaluate.
  CHECK(!CompiledIndexExpr(parse("i + k")).evaluate({1, 2}));
  CHECK(!CompiledIndexExpr(parse("i // j")).evaluate({1, 0}));
  CHECK(!CompiledIndexExpr(parse("i << j")).evaluate({1, 63}));
  CHECK(!CompiledIndexExpr(parse("i * j")).evaluate({INT64_MAX, 2}));
  CHECK(!CompiledIndexExpr(parse("i + j")).evaluate({INT64_MIN, -1}));
  CHECK(!CompiledIndexExpr().evaluate({1}));
}
