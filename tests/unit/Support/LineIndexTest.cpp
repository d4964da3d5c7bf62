//===- LineIndexTest.cpp - LineIndex unit tests ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/LineIndex.h"

#include <doctest/doctest.h>

#include <string>

using namespace tlc;

namespace {

/// Checks offset -> (line, utf8 col, utf16 col) and both inverse mappings.
void check(const std::string &text, uint32_t offset, uint32_t line,
           uint32_t utf8Col, uint32_t utf16Col) {
  LineIndex index(text);
  CAPTURE(text);
  CAPTURE(offset);
  CHECK(index.toUtf8(offset) == LinePosition{line, utf8Col});
  CHECK(index.toUtf16(offset) == LinePosition{line, utf16Col});
  uint32_t clamped = std::min<uint32_t>(offset, text.size());
  CHECK(index.fromUtf8({line, utf8Col}) == clamped);
  CHECK(index.fromUtf16({line, utf16Col}) == clamped);
}

} // namespace

TEST_CASE("LineIndex: ASCII and line terminators") {
  check("", 0, 0, 0, 0);
  check("abc", 2, 0, 2, 2);
  check("abc\ndef", 4, 1, 0, 0);
  check("abc\ndef", 6, 1, 2, 2);
  check("a\r\nb", 3, 1, 0, 0);
  check("a\rb", 2, 1, 0, 0);
  check("a\n\nb", 3, 2, 0, 0);
  check("abc\n", 4, 1, 0, 0);
}

TEST_CASE("LineIndex: UTF-8 vs UTF-16 columns") {
  // é is 2 bytes / 1 unit; 中 is 3 bytes / 1 unit; 😀 is 4 bytes / 2 units.
  check("\xC3\xA9x", 2, 0, 2, 1);
  check("\xE4\xB8\xADx", 3, 0, 3, 1);
  check("\xF0\x9F\x98\x80x", 4, 0, 4, 2);
  check("a\xF0\x9F\x98\x80\xF0\x9F\x98\x80z", 9, 0, 9, 5);
  check("x\n\xF0\x9F\x98\x80=1", 6, 1, 4, 2);
}

TEST_CASE("LineIndex: clamping") {
  LineIndex index("ab\ncd");
  CHECK(index.toUtf8(100) == LinePosition{1, 2});
  CHECK(index.fromUtf8({0, 100}) == 2u);  // end of line 0, before '\n'
  CHECK(index.fromUtf8({7, 0}) == 5u);    // past last line: end of text
  CHECK(index.fromUtf16({0, 100}) == 2u);
  CHECK(index.getNumLines() == 2u);
  CHECK(index.getLineText(1) == "cd");
  CHECK(index.getLine(2) == 0u);
  CHECK(index.getLine(3) == 1u);
  // A UTF-16 column inside a surrogate pair maps to the character start.
  LineIndex astral("\xF0\x9F\x98\x80x");
  CHECK(astral.fromUtf16({0, 1}) == 0u);
  CHECK(astral.fromUtf16({0, 2}) == 4u);
  // Invalid UTF-8 bytes count as one unit each.
  LineIndex invalid("\xFF\xFEx");
  CHECK(invalid.toUtf16(2) == LinePosition{0, 2});
}
