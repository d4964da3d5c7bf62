//===- DiagnosticTest.cpp - Diagnostic printer unit tests -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/Diagnostic.h"
#include "tlc/Support/LineIndex.h"

#include "llvm/Support/raw_ostream.h"

#include <doctest/doctest.h>

using namespace tlc;

namespace {

void check(const std::string &text, TextRange range, const std::string &want) {
  LineIndex lines(text);
  Diagnostic diag;
  diag.range = range;
  diag.message = "bad thing";
  std::string out;
  llvm::raw_string_ostream os(out);
  printDiagnostic(os, diag, "f.py", lines);
  CHECK(os.str() == want);
}

} // namespace

TEST_CASE("Diagnostic: printed like clang") {
  check("x = (1,\ny = 2\n", TextRange{4, 5},
        "f.py:1:5: error: bad thing\nx = (1,\n    ^\n");
  check("a\nfoo bar\n", TextRange{6, 9},
        "f.py:2:5: error: bad thing\nfoo bar\n    ^~~\n");
  check("", TextRange{0, 0}, "f.py:1:1: error: bad thing\n\n^\n");
}
