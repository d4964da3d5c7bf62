//===- SymExprTest.cpp - Symbolic integer expressions ---------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Each case builds an expression with a tiny RPN language and compares its
// printed canonical form with a hand-written expectation. Constant cases
// follow CPython's // and % (floor) semantics.
//
//===----------------------------------------------------------------------===//

#include "tlc/Eval/SymExpr.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <doctest/doctest.h>

using namespace tlc::eval;

namespace {

/// Evaluates a whitespace-separated RPN program: integers, identifiers
/// (symbols) and the operators + - * // % cdiv min max neg.
SymExpr rpn(SymContext &ctx, llvm::StringRef program) {
  llvm::SmallVector<SymExpr, 8> stack;
  llvm::SmallVector<llvm::StringRef, 16> tokens;
  program.split(tokens, ' ', -1, false);
  for (llvm::StringRef t : tokens) {
    int64_t v;
    if (!t.getAsInteger(10, v)) {
      stack.push_back(ctx.constant(v));
      continue;
    }
    if (t == "neg") {
      SymExpr a = stack.pop_back_val();
      stack.push_back(ctx.neg(a));
      continue;
    }
    if (llvm::isAlpha(t[0]) && t != "cdiv" && t != "min" && t != "max") {
      stack.push_back(ctx.symbol(t));
      continue;
    }
    SymExpr b = stack.pop_back_val();
    SymExpr a = stack.pop_back_val();
    if (t == "+")
      stack.push_back(ctx.add(a, b));
    else if (t == "-")
      stack.push_back(ctx.sub(a, b));
    else if (t == "*")
      stack.push_back(ctx.mul(a, b));
    else if (t == "//")
      stack.push_back(ctx.floorDiv(a, b));
    else if (t == "%")
      stack.push_back(ctx.mod(a, b));
    else if (t == "cdiv")
      stack.push_back(ctx.ceilDiv(a, b));
    else if (t == "min")
      stack.push_back(ctx.min(a, b));
    else if (t == "max")
      stack.push_back(ctx.max(a, b));
  }
  return stack.back();
}

/// The single check helper: \p program prints as \p expected.
void check(llvm::StringRef program, llvm::StringRef expected) {
  SymContext ctx;
  // Create symbols in a fixed order so that term order is deterministic.
  for (const char *s : {"M", "N", "K", "bx", "block_M", "block_K"})
    ctx.symbol(s);
  SymExpr e = rpn(ctx, program);
  CHECK_MESSAGE(e.str() == expected.str(), program.str());
}

} // namespace

TEST_CASE("constants fold with Python semantics") {
  check("7 2 //", "3");
  check("-7 2 //", "-4");
  check("7 -2 //", "-4");
  check("-7 2 %", "1");
  check("7 -2 %", "-1");
  check("7 2 cdiv", "4");
  check("-7 2 cdiv", "-3");
  check("3 5 min", "3");
  check("3 5 max", "5");
  check("4096 128 cdiv", "32");
  check("1 0 //", "<invalid>");
  check("1 0 %", "<invalid>");
  check("9223372036854775807 1 +", "<invalid>");
}

TEST_CASE("symbols print by name") {
  check("block_M", "block_M");
  check("M 128 //", "M // 128");
  check("block_M block_K *", "block_M * block_K");
  check("M 2 *", "M * 2");
  check("M neg", "-M");
  check("M 1 + 128 //", "(M + 1) // 128");
  check("N 128 cdiv", "ceildiv(N, 128)");
  check("M N min", "min(M, N)");
}

TEST_CASE("linear forms simplify") {
  check("bx 1 + block_M * bx block_M * -", "block_M");
  check("M N + M -", "N");
  check("M 2 * M -", "M");
  check("bx 128 * 64 +", "bx * 128 + 64");
  check("M M -", "0");
  check("M 0 *", "0");
  check("M 1 *", "M");
  check("M 3 + 2 *", "M * 2 + 6");
}

TEST_CASE("division identities are exact") {
  check("bx 128 * 64 + 128 //", "bx");
  check("bx 128 * 200 + 128 //", "bx + 1");
  check("bx 128 * 64 + 128 %", "64");
  check("M 128 // 2 //", "M // 256");
  check("M 128 * 128 cdiv", "M");
  check("M 128 * 1 + 128 cdiv", "M + 1");
  check("M M //", "1");
  check("M M %", "0");
  check("M 64 % 64 %", "M % 64");
}

TEST_CASE("min and max decide constant differences") {
  check("M M 1 + min", "M");
  check("M M 1 + max", "M + 1");
  check("M M max", "M");
  check("N M min", "min(M, N)");
}

TEST_CASE("a leading negative term keeps its floor division or modulo") {
  // `-(M // 2) * 2` is not `-M // 2 * 2` ((-M) // 2 * 2): the printed form
  // is read back as Python (T.Layout's index maps), so the minus must not
  // reach the dividend.
  check("63 M 2 // - 2 *", "-(M // 2) * 2 + 126");
  check("M 4 % neg", "-(M % 4)");
  check("M 8 // neg 1 +", "-(M // 8) + 1");
  check("M N * neg", "-(M * N)");
  check("M neg", "-M");
  check("M 3 * neg", "-M * 3");
}

TEST_CASE("uniquing makes structural equality pointer equality") {
  SymContext ctx;
  SymExpr a = rpn(ctx, "M 128 // 2 *");
  SymExpr b = rpn(ctx, "M 128 // M 128 // +");
  CHECK(a == b);
  CHECK(ctx.equal(rpn(ctx, "M 1 +"), rpn(ctx, "M 2 +")) == false);
  CHECK(!ctx.equal(rpn(ctx, "M"), rpn(ctx, "N")).has_value());
  CHECK(ctx.lessThan(rpn(ctx, "M"), rpn(ctx, "M 1 +")) == true);
  SymExpr fresh1 = ctx.freshSymbol("i"), fresh2 = ctx.freshSymbol("i");
  CHECK(fresh1 != fresh2);
  CHECK(fresh1.str() == "i");
}

TEST_CASE("substitution re-simplifies") {
  SymContext ctx;
  SymExpr e = rpn(ctx, "M 128 cdiv N *");
  SymExpr r = ctx.substitute(e, [&](const SymNode *n) {
    if (n->name == "M")
      return ctx.constant(1000);
    return SymExpr();
  });
  CHECK(r.str() == "N * 8");
}

TEST_CASE("common factors cancel in floor division") {
  check("block_M 64 * 1024 //", "block_M // 16");
  check("M 4 * 8 + 12 //", "(M + 2) // 3");
  check("M 6 * 4 //", "M * 3 // 2");
}
