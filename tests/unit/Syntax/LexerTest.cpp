//===- LexerTest.cpp - Tokenizer unit tests -------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Data-driven: each case gives a source and the expected significant tokens
// (`Kind` or `Kind:text` for names, numbers, strings and f-string parts),
// plus the expected diagnostics. Every case also checks losslessness.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tlc/Syntax/Parser.h"

#include <doctest/doctest.h>

using namespace tlc;
using namespace tlc::syntax;

namespace {

/// Checks the significant tokens of `source` and its diagnostics.
void check(const std::string &source, const std::string &want,
           const std::string &wantDiags = "") {
  auto tree = parse(source, "t.py");
  std::string got;
  uint32_t expectOffset = 0;
  for (const Token &t : tree->tokens()) {
    CHECK(t.range.begin == expectOffset); // contiguous, covering every byte
    expectOffset = t.range.end;
    if (isTrivia(t.kind))
      continue;
    if (!got.empty())
      got += ' ';
    got += getTokenKindName(t.kind).str();
    switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Number:
    case TokenKind::String:
    case TokenKind::FStringStart:
    case TokenKind::FStringMiddle:
    case TokenKind::FStringEnd:
    case TokenKind::Unknown:
      got += ":" + source.substr(t.range.begin, t.range.end - t.range.begin);
      break;
    default:
      break;
    }
  }
  CAPTURE(source);
  CHECK(expectOffset == source.size());
  CHECK(tree->print() == source);
  CHECK(got == want);
  CHECK(test::messages(*tree) == wantDiags);
}

} // namespace

TEST_CASE("Lexer: indentation") {
  check("if x:\n    y\nz\n",
        "KwIf Name:x Colon Newline Indent Name:y Newline Dedent Name:z "
        "Newline EndOfFile");
  // Blank and comment-only lines never change indentation.
  check("if x:\n\n  # c\n    y\n",
        "KwIf Name:x Colon Newline Indent Name:y Newline Dedent EndOfFile");
  // Two dedents at once; dedents at EOF without a trailing newline.
  check("if a:\n if b:\n  c\nd",
        "KwIf Name:a Colon Newline Indent KwIf Name:b Colon Newline Indent "
        "Name:c Newline Dedent Dedent Name:d Newline EndOfFile");
  // A tab counts to the next multiple of 8.
  check("if a:\n\tb\n        c\n",
        "KwIf Name:a Colon Newline Indent Name:b Newline Name:c Newline "
        "Dedent EndOfFile",
        "inconsistent use of tabs and spaces in indentation");
  check("if a:\n    b\n  c\n",
        "KwIf Name:a Colon Newline Indent Name:b Newline Dedent Name:c "
        "Newline EndOfFile",
        "unindent does not match any outer indentation level");
  // Form feed resets the column.
  check("\f  x\n", "Indent Name:x Newline Dedent EndOfFile",
        "unexpected indent");
}

TEST_CASE("Lexer: line continuation and brackets") {
  check("x = 1 + \\\n  2\n",
        "Name:x Equal Number:1 Plus Number:2 Newline EndOfFile");
  check("f(a,\n  b)\n",
        "Name:f LParen Name:a Comma Name:b RParen Newline EndOfFile");
  check("x = \\", "Name:x Equal Unknown:\\ Newline EndOfFile",
        "expected expression; invalid syntax; unexpected EOF while parsing");
  check("a\\b\n", "Name:a Unknown:\\ Name:b Newline EndOfFile",
        "invalid syntax; unexpected character after line continuation "
        "character");
  check("x = (1,\n", "Name:x Equal LParen Number:1 Comma Newline EndOfFile",
        "'(' was never closed; expected ')'");
  check("x = )\n", "Name:x Equal RParen Newline EndOfFile",
        "expected expression; invalid syntax; unmatched ')'");
  // An unclosed bracket is closed before a statement keyword at the
  // indentation of the line that opened it.
  check("f(a[\ndef g(): pass\n",
        "Name:f LParen Name:a LSquare Newline KwDef Name:g LParen RParen "
        "Colon KwPass Newline EndOfFile",
        "'(' was never closed; expected expression; expected ']'; "
        "expected ')'");
}

TEST_CASE("Lexer: string prefixes") {
  check("r'a\\'' b'x' Rb'y' bR\"z\" u'q' F'w' fR'e'\n",
        "String:r'a\\'' String:b'x' String:Rb'y' String:bR\"z\" String:u'q' "
        "FStringStart:F' FStringMiddle:w FStringEnd:' FStringStart:fR' "
        "FStringMiddle:e FStringEnd:' Newline EndOfFile");
  check("'''a\n'b'\n''' \"x\"\n",
        "String:'''a\n'b'\n''' String:\"x\" Newline EndOfFile");
  check("ur'x'\n", "Name:ur String:'x' Newline EndOfFile", "invalid syntax");
  check("'abc\n", "String:'abc Newline EndOfFile",
        "unterminated string literal");
  check("'''abc\n", "String:'''abc\n Newline EndOfFile",
        "unterminated triple-quoted string literal");
}

TEST_CASE("Lexer: f-strings (PEP 701)") {
  check("f'a{b}c'\n",
        "FStringStart:f' FStringMiddle:a LBrace Name:b RBrace "
        "FStringMiddle:c FStringEnd:' Newline EndOfFile");
  check("f'{x!r:>{w}}'\n",
        "FStringStart:f' LBrace Name:x Exclamation Name:r Colon "
        "FStringMiddle:> LBrace Name:w RBrace RBrace FStringEnd:' Newline "
        "EndOfFile");
  // Quote reuse and nesting.
  check("f\"{d[\"k\"]} {f'{1}'}\"\n",
        "FStringStart:f\" LBrace Name:d LSquare String:\"k\" RSquare RBrace "
        "FStringMiddle:  LBrace FStringStart:f' LBrace Number:1 RBrace "
        "FStringEnd:' RBrace FStringEnd:\" Newline EndOfFile");
  check("f'{{x}}'\n",
        "FStringStart:f' FStringMiddle:{{x}} FStringEnd:' Newline EndOfFile");
  check("f'{x=}'\n",
        "FStringStart:f' LBrace Name:x Equal RBrace FStringEnd:' Newline "
        "EndOfFile");
  check("f'{a!=b}'\n",
        "FStringStart:f' LBrace Name:a NotEqual Name:b RBrace FStringEnd:' "
        "Newline EndOfFile");
  check("f'''{\nx\n}'''\n",
        "FStringStart:f''' LBrace Name:x RBrace FStringEnd:''' Newline "
        "EndOfFile");
  check("f'\\N{DASH}{x}'\n",
        "FStringStart:f' FStringMiddle:\\N{DASH} LBrace Name:x RBrace "
        "FStringEnd:' Newline EndOfFile");
  check("f'a}'\n", "FStringStart:f' FStringMiddle:a} FStringEnd:' Newline "
                   "EndOfFile",
        "f-string: single '}' is not allowed");
  check("f'abc\n", "FStringStart:f' FStringMiddle:abc FStringEnd: Newline "
                   "EndOfFile",
        "unterminated f-string literal");
}

TEST_CASE("Lexer: numbers") {
  check("1_000 0x_FF 0o17 0b1_0 1.5 .5 5. 1e10 1E-5 1_0.0_1e+1_0 3j 1.5J\n",
        "Number:1_000 Number:0x_FF Number:0o17 Number:0b1_0 Number:1.5 "
        "Number:.5 Number:5. Number:1e10 Number:1E-5 Number:1_0.0_1e+1_0 "
        "Number:3j Number:1.5J Newline EndOfFile",
        "invalid syntax"); // juxtaposed literals
  check("00 0_0 0.5 09.5 09j\n",
        "Number:00 Number:0_0 Number:0.5 Number:09.5 Number:09j Newline "
        "EndOfFile",
        "invalid syntax");
  check("012\n", "Number:012 Newline EndOfFile",
        "leading zeros in decimal integer literals are not permitted; use an "
        "0o prefix for octal integers");
  check("1__0\n", "Number:1_ Name:_0 Newline EndOfFile",
        "invalid decimal literal; invalid syntax");
  check("0x\n", "Number:0x Newline EndOfFile", "invalid hexadecimal literal");
  check("0b12\n", "Number:0b12 Newline EndOfFile", "invalid binary literal");
  check("1abc\n", "Number:1 Name:abc Newline EndOfFile",
        "invalid decimal literal; invalid syntax");
  check("x = 1if y else 2\n",
        "Name:x Equal Number:1 KwIf Name:y KwElse Number:2 Newline EndOfFile");
}

TEST_CASE("Lexer: invalid characters and bytes") {
  check("a $ b\n", "Name:a Unknown:$ Name:b Newline EndOfFile",
        "invalid syntax; invalid character '$'");
  check(std::string("a\0b\n", 4), "Name:a Unknown:" + std::string(1, '\0') +
                        " Name:b Newline EndOfFile",
        "invalid syntax; source code cannot contain null bytes");
  check("x = \xff\n", "Name:x Equal Unknown:\xff Newline EndOfFile",
        "expected expression; invalid syntax; invalid UTF-8 byte");
  check("\xef\xbb\xbfx\n", "Name:x Newline EndOfFile");
  check("π = 1\n", "Name:π Equal Number:1 Newline EndOfFile");
  // Identifiers are XID_Start XID_Continue* (CPython: "invalid character
  // '€' (U+20AC)"); a combining mark may continue a name, not start it.
  check("€ = 2\n", "Name:€ Equal Number:2 Newline EndOfFile",
        "invalid character '€' (U+20AC)");
  check("a€b€ = 2\n", "Name:a€b€ Equal Number:2 Newline EndOfFile",
        "invalid character '€' (U+20AC)");
  check("e\u0301 = \u0301\n",
        "Name:e\u0301 Equal Name:\u0301 Newline EndOfFile",
        "invalid character '\u0301' (U+0301)");
  check("x\u00b7\U0001d7ce\u2118 = 1\n",
        "Name:x\u00b7\U0001d7ce\u2118 Equal Number:1 Newline EndOfFile");
  check("x = '\xff'\n", "Name:x Equal String:'\xff' Newline EndOfFile",
        "invalid UTF-8 byte in string literal");
  // A backslash before a non-ASCII character escapes the whole character
  // (CPython: "\\\u041f" is two characters; test_utf8source.py).
  check("x = '\\\xd0\x9f'\n",
        "Name:x Equal String:'\\\xd0\x9f' Newline EndOfFile");
  check("x = f'\\\xd0\x9f'\n", "Name:x Equal FStringStart:f' "
        "FStringMiddle:\\\xd0\x9f FStringEnd:' Newline EndOfFile");
  // In a raw f-string too, a backslash keeps the quote after it.
  check("fr'\\'\\\"'\n", "FStringStart:fr' FStringMiddle:\\'\\\" "
        "FStringEnd:' Newline EndOfFile");
  check("x = '\\\xd0'\n", "Name:x Equal String:'\\\xd0' Newline EndOfFile",
        "invalid UTF-8 byte in string literal");
}
