//===- SourceEncodingTest.cpp - PEP 263 decoding unit tests ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Data-driven: each case gives the bytes of a file and what CPython makes of
// them (`ast.parse(bytes)`, Python 3.11): the decoded text, or the message of
// its SyntaxError. The whole-table comparison against Python's codecs is the
// ctest `syntax-codec-diff` (tests/scripts/codec_diff.py).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tlc/Syntax/Parser.h"
#include "tlc/Syntax/SourceEncoding.h"

#include <doctest/doctest.h>

using namespace tlc;
using namespace tlc::syntax;

namespace {

struct Case {
  const char *bytes;
  /// The decoded text; nullptr: the same as `bytes`.
  const char *text;
  /// The diagnostics, joined with "; ".
  const char *diags;
};

const Case cases[] = {
    // Line 1 and line 2 (after a shebang or a blank line) declare.
    {"# -*- coding: latin-1 -*-\nx = '\xe9'\n",
     "# -*- coding: latin-1 -*-\nx = '\xc3\xa9'\n", ""},
    {"#!/usr/bin/python3\n# vim: set fileencoding=koi8-r :\nx = '\xc1\xe1'\n",
     "#!/usr/bin/python3\n# vim: set fileencoding=koi8-r :\n"
     "x = '\xd0\xb0\xd0\x90'\n",
     ""},
    {"\n#coding=cp1252\nx = '\x80'\n", "\n#coding=cp1252\nx = '\xe2\x82\xac'\n",
     ""},
    {"   # coding:\t latin1\nx = '\xff'\n",
     "   # coding:\t latin1\nx = '\xc3\xbf'\n", ""},
    // Names as Python's codec registry spells them.
    {"# coding: ISO-8859-15\nx = '\xa4'\n",
     "# coding: ISO-8859-15\nx = '\xe2\x82\xac'\n", ""},
    {"# coding: windows-1251\nx = '\xc0'\n",
     "# coding: windows-1251\nx = '\xd0\x90'\n", ""},
    {"# coding: KOI8_R\nx = '\xa3\xb3'\n",
     "# coding: KOI8_R\nx = '\xd1\x91\xd0\x81'\n", ""},
    {"# coding: latin-1-foo\nx = '\xe9'\n",
     "# coding: latin-1-foo\nx = '\xc3\xa9'\n", ""},
    {"# coding: utf-8-sig\nx = 1\n", nullptr, ""},
    {"# coding: ascii\nx = 'a'\n", nullptr, ""},
    // Not a declaration: code on line 1, or not in a comment, or line 3.
    {"x = 1\n# coding: latin-1\ny = '\xe9'\n", nullptr,
     "invalid UTF-8 byte in string literal"},
    {"x = 'coding: latin-1 \xe9'\n", nullptr,
     "invalid UTF-8 byte in string literal"},
    {"#\n#\n# coding: latin-1\nx = '\xe9'\n", nullptr,
     "invalid UTF-8 byte in string literal"},
    {"# coding = latin-1\nx = '\xe9'\n", nullptr,
     "invalid UTF-8 byte in string literal"},
    // Errors CPython reports.
    {"# coding: uft-8\nx = 1\n", nullptr, "unknown encoding: uft-8"},
    {"\xef\xbb\xbf# coding: utf8\nx = 1\n", nullptr,
     "encoding problem: utf8 with BOM"},
    {"\xef\xbb\xbf# coding: latin-1\nx = 1\n", nullptr,
     "encoding problem: iso-8859-1 with BOM"},
    {"\xef\xbb\xbf# coding: UTF_8\nx = 1\n", "# coding: UTF_8\nx = 1\n", ""},
    // The BOM is not part of the text (CPython's col_offset of `x` is 0).
    {"\xef\xbb\xbfx = 1\n", "x = 1\n", ""},
    {"# coding: ascii\nx = '\xe9'\n", "# coding: ascii\nx = '\xef\xbf\xbd'\n",
     "'ascii' codec can't decode byte 0xe9: ordinal not in range(128)"},
    {"# coding: cp1252\nx = '\x81\x8d'\n",
     "# coding: cp1252\nx = '\xef\xbf\xbd\xef\xbf\xbd'\n",
     "'charmap' codec can't decode byte 0x81: character maps to "
     "<undefined>"},
    // Known to Python, not decoded by tlc.
    {"# coding: shift_jis\nx = 1\n", nullptr,
     "encoding 'shift_jis' is not supported by tlc (only UTF-8 and "
     "single-byte encodings that extend ASCII)"},
};

} // namespace

TEST_CASE("PEP 263 coding declarations decode the file as CPython does") {
  for (const Case &c : cases) {
    CAPTURE(c.bytes);
    auto tree = parseFile(c.bytes, "t.py");
    CHECK(tree->source().str() == std::string(c.text ? c.text : c.bytes));
    CHECK(test::messages(*tree) == c.diags);
  }
}

TEST_CASE("decoded offsets are UTF-8 bytes of the decoded text") {
  // CPython's col_offset of `y = 1` is 10 (é is two UTF-8 bytes), not 9.
  auto tree = parseFile("# coding: latin-1\nx = '\xe9'; y = 1\n");
  std::vector<Node> body;
  for (Node stmt : tree->root().children(Field::body))
    body.push_back(stmt);
  REQUIRE(body.size() == 2);
  uint32_t lineStart = tree->lines().getLineStart(1);
  CHECK(body[1].range().begin - lineStart == 10);
  // The unknown encoding is reported at the name, in file bytes.
  auto bad = parseFile("# coding: nope\n");
  REQUIRE(bad->diagnostics().size() == 1);
  CHECK(bad->diagnostics()[0].range.begin == 10);
  CHECK(bad->diagnostics()[0].range.end == 14);
}

TEST_CASE("parse() of decoded text ignores the declaration (like a str)") {
  auto tree = parse("# coding: latin-1\nx = '\xc3\xa9'\n");
  CHECK(tree->source().str() == "# coding: latin-1\nx = '\xc3\xa9'\n");
  CHECK(test::messages(*tree) == "");
}

TEST_CASE("codec names resolve like Python's registry") {
  CHECK(canonicalEncodingName("Latin-1") == "latin_1");
  CHECK(canonicalEncodingName("iso8859-1") == "latin_1");
  CHECK(canonicalEncodingName("cp65001") == "utf_8");
  CHECK(canonicalEncodingName("mac-roman") == "mac_roman");
  CHECK(canonicalEncodingName("--koi8--u--") == "koi8_u");
  CHECK(canonicalEncodingName("utf-16") == "utf_16");
  CHECK(canonicalEncodingName("uft-8") == "");
  CHECK(isSupportedEncoding("cp437"));
  CHECK(!isSupportedEncoding("utf_16"));
}
