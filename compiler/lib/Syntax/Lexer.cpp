//===- Lexer.cpp - Python 3.12 tokenizer ----------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

#include <cstring>

using namespace tlc;
using namespace tlc::syntax;

TokenKind syntax::classifyWord(llvm::StringRef word) {
  auto is = [&](const char *kw) { return word == kw; };
  switch (word.size()) {
  case 2:
    if (is("if"))
      return TokenKind::KwIf;
    if (is("in"))
      return TokenKind::KwIn;
    if (is("is"))
      return TokenKind::KwIs;
    if (is("or"))
      return TokenKind::KwOr;
    if (is("as"))
      return TokenKind::KwAs;
    break;
  case 3:
    if (is("def"))
      return TokenKind::KwDef;
    if (is("for"))
      return TokenKind::KwFor;
    if (is("not"))
      return TokenKind::KwNot;
    if (is("and"))
      return TokenKind::KwAnd;
    if (is("del"))
      return TokenKind::KwDel;
    if (is("try"))
      return TokenKind::KwTry;
    break;
  case 4:
    if (is("None"))
      return TokenKind::KwNone;
    if (is("True"))
      return TokenKind::KwTrue;
    if (is("else"))
      return TokenKind::KwElse;
    if (is("elif"))
      return TokenKind::KwElif;
    if (is("from"))
      return TokenKind::KwFrom;
    if (is("pass"))
      return TokenKind::KwPass;
    if (is("with"))
      return TokenKind::KwWith;
    break;
  case 5:
    if (is("False"))
      return TokenKind::KwFalse;
    if (is("class"))
      return TokenKind::KwClass;
    if (is("while"))
      return TokenKind::KwWhile;
    if (is("yield"))
      return TokenKind::KwYield;
    if (is("raise"))
      return TokenKind::KwRaise;
    if (is("break"))
      return TokenKind::KwBreak;
    if (is("async"))
      return TokenKind::KwAsync;
    if (is("await"))
      return TokenKind::KwAwait;
    break;
  case 6:
    if (is("return"))
      return TokenKind::KwReturn;
    if (is("import"))
      return TokenKind::KwImport;
    if (is("lambda"))
      return TokenKind::KwLambda;
    if (is("except"))
      return TokenKind::KwExcept;
    if (is("global"))
      return TokenKind::KwGlobal;
    if (is("assert"))
      return TokenKind::KwAssert;
    break;
  case 7:
    if (is("finally"))
      return TokenKind::KwFinally;
    break;
  case 8:
    if (is("continue"))
      return TokenKind::KwContinue;
    if (is("nonlocal"))
      return TokenKind::KwNonlocal;
    break;
  default:
    break;
  }
  return TokenKind::Name;
}

static bool isIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c >= 0x80;
}
static bool isIdentChar(unsigned char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }

namespace {
struct CodePointRange {
  uint32_t first, last;
};
const CodePointRange xidStart[] = {
#define TLC_XID_START
#include "UnicodeIdent.inc"
};
const CodePointRange xidContinue[] = {
#define TLC_XID_CONTINUE
#include "UnicodeIdent.inc"
};
} // namespace

/// True when non-ASCII `cp` may start (or, `start` false, continue) an
/// identifier.
static bool isIdentifierCodePoint(uint32_t cp, bool start) {
  llvm::ArrayRef<CodePointRange> ranges =
      start ? llvm::ArrayRef(xidStart) : llvm::ArrayRef(xidContinue);
  const CodePointRange *it = std::upper_bound(
      ranges.begin(), ranges.end(), cp,
      [](uint32_t c, const CodePointRange &r) { return c < r.first; });
  return it != ranges.begin() && cp <= (it - 1)->last;
}

/// Decodes the valid UTF-8 sequence of `len` bytes at `p`.
static uint32_t decodeUtf8(const char *p, unsigned len) {
  auto b = [&](unsigned k) { return static_cast<unsigned char>(p[k]); };
  if (len == 2)
    return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (len == 3)
    return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) |
         ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

Lexer::Lexer(llvm::StringRef text, uint32_t start,
             std::vector<Diagnostic> &diags)
    : buf(text.data()), size(static_cast<uint32_t>(text.size())), pos(start),
      diags(diags) {}

void Lexer::error(uint32_t begin, uint32_t end, const llvm::Twine &message) {
  Diagnostic diag;
  diag.severity = Severity::Error;
  diag.range = TextRange{begin, end};
  diag.message = message.str();
  diags.push_back(std::move(diag));
}

unsigned Lexer::validUtf8Length(uint32_t at) const {
  unsigned char c = static_cast<unsigned char>(buf[at]);
  unsigned len;
  if (c < 0x80)
    return 1;
  if (c < 0xC2)
    return 0;
  if (c < 0xE0)
    len = 2;
  else if (c < 0xF0)
    len = 3;
  else if (c < 0xF5)
    len = 4;
  else
    return 0;
  if (at + len > size)
    return 0;
  for (unsigned k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(buf[at + k]) & 0xC0) != 0x80)
      return 0;
  unsigned char c1 = static_cast<unsigned char>(buf[at + 1]);
  if ((c == 0xE0 && c1 < 0xA0) || (c == 0xF0 && c1 < 0x90) ||
      (c == 0xF4 && c1 >= 0x90) || (c == 0xED && c1 >= 0xA0))
    return 0;
  return len;
}

LexToken Lexer::next() {
  if (queueHead < queue.size()) {
    LexToken tok = queue[queueHead++];
    if (queueHead == queue.size()) {
      queue.clear();
      queueHead = 0;
    }
    return tok;
  }
  if (pos >= size)
    return lexAtEnd();
  if (pos == 0 && size >= 3 && static_cast<unsigned char>(buf[0]) == 0xEF &&
      static_cast<unsigned char>(buf[1]) == 0xBB &&
      static_cast<unsigned char>(buf[2]) == 0xBF) {
    pos = 3;
    return LexToken{0, 3, TokenKind::Bom};
  }
  if (!modes.empty()) {
    Mode &top = modes.back();
    if (top.kind == ModeKind::FString || top.kind == ModeKind::Spec)
      return lexFStringText(top);
  } else if (atLineStart) {
    return lexLineStart();
  }
  return lexNormal();
}

LexToken Lexer::lexAtEnd() {
  if (!modes.empty()) {
    // Report the outermost unclosed construct, then forget them all.
    const Mode &outer = modes.front();
    if (outer.kind == ModeKind::FString)
      error(outer.openOffset, outer.openOffset + outer.openLength,
            "unterminated f-string literal");
    else
      error(outer.openOffset, outer.openOffset + 1,
            llvm::Twine("'") + llvm::Twine(buf[outer.openOffset]) + "' was never closed");
    modes.clear();
  }
  if (!atLineStart) {
    atLineStart = true;
    return LexToken{pos, 0, TokenKind::Newline};
  }
  if (indents.size() > 1) {
    indents.pop_back();
    altIndents.pop_back();
    return LexToken{pos, 0, TokenKind::Dedent};
  }
  return LexToken{pos, 0, TokenKind::EndOfFile};
}

LexToken Lexer::lexLineStart() {
  uint32_t begin = pos;
  uint32_t col = 0, alt = 0;
  while (pos < size) {
    char c = buf[pos];
    if (c == ' ') {
      ++col;
      ++alt;
    } else if (c == '\t') {
      col = (col / 8 + 1) * 8;
      ++alt;
    } else if (c == '\f') {
      col = alt = 0;
    } else {
      break;
    }
    ++pos;
  }
  if (pos >= size)
    return begin < pos ? make(TokenKind::Whitespace, begin) : lexAtEnd();
  char c = buf[pos];
  bool blank = c == '#' || c == '\n' || c == '\r';
  if (!blank) {
    atLineStart = false;
    currentIndent = col;
    if (col > indents.back()) {
      if (alt <= altIndents.back())
        error(pos, pos, "inconsistent use of tabs and spaces in indentation");
      if (indents.size() >= 100)
        error(pos, pos, "too many levels of indentation");
      indents.push_back(col);
      altIndents.push_back(alt);
      queue.push_back(LexToken{pos, 0, TokenKind::Indent});
    } else if (col < indents.back()) {
      while (indents.size() > 1 && col < indents.back()) {
        indents.pop_back();
        altIndents.pop_back();
        queue.push_back(LexToken{pos, 0, TokenKind::Dedent});
      }
      if (col != indents.back())
        error(pos, pos,
              "unindent does not match any outer indentation level");
      else if (alt != altIndents.back())
        error(pos, pos, "inconsistent use of tabs and spaces in indentation");
    } else if (alt != altIndents.back()) {
      error(pos, pos, "inconsistent use of tabs and spaces in indentation");
    }
  }
  if (begin < pos)
    return make(TokenKind::Whitespace, begin);
  if (!queue.empty())
    return next();
  return lexNormal();
}

LexToken Lexer::lexNewline(uint32_t begin) {
  if (buf[pos] == '\r' && pos + 1 < size && buf[pos + 1] == '\n')
    pos += 2;
  else
    ++pos;
  if (!modes.empty()) {
    if (shouldRecoverBrackets(pos)) {
      atLineStart = true;
      return make(TokenKind::Newline, begin);
    }
    return make(TokenKind::NonLogicalNewline, begin);
  }
  if (atLineStart)
    return make(TokenKind::NonLogicalNewline, begin);
  atLineStart = true;
  return make(TokenKind::Newline, begin);
}

/// Inside brackets, a line starting with a statement-only keyword (never
/// valid there), or an identifier dedented below the line that opened the
/// outermost bracket, ends the statement: report the unclosed bracket and
/// close them all. Valid Python never triggers this.
bool Lexer::shouldRecoverBrackets(uint32_t lineStart) {
  for (const Mode &mode : modes)
    if (mode.kind != ModeKind::Paren && mode.kind != ModeKind::Square &&
        mode.kind != ModeKind::Brace)
      return false;
  uint32_t p = lineStart, col = 0;
  while (p < size && (buf[p] == ' ' || buf[p] == '\t' || buf[p] == '\f')) {
    col = buf[p] == '\t' ? (col / 8 + 1) * 8 : buf[p] == '\f' ? 0 : col + 1;
    ++p;
  }
  uint32_t wordEnd = p;
  while (wordEnd < size && isIdentChar(static_cast<unsigned char>(buf[wordEnd])))
    ++wordEnd;
  if (wordEnd == p || isDigit(buf[p]))
    return false;
  uint32_t limit = modes.front().lineIndent;
  if (col > limit)
    return false;
  bool recover = false;
  switch (classifyWord(llvm::StringRef(buf + p, wordEnd - p))) {
  case TokenKind::KwDef:
  case TokenKind::KwClass:
  case TokenKind::KwReturn:
  case TokenKind::KwImport:
  case TokenKind::KwWhile:
  case TokenKind::KwWith:
  case TokenKind::KwTry:
  case TokenKind::KwExcept:
  case TokenKind::KwFinally:
  case TokenKind::KwRaise:
  case TokenKind::KwDel:
  case TokenKind::KwPass:
  case TokenKind::KwBreak:
  case TokenKind::KwContinue:
  case TokenKind::KwGlobal:
  case TokenKind::KwNonlocal:
  case TokenKind::KwAssert:
  case TokenKind::KwElif:
    recover = true;
    break;
  default:
    break;
  }
  if (!recover)
    return false;
  const Mode &outer = modes.front();
  error(outer.openOffset, outer.openOffset + 1,
        llvm::Twine("'") + llvm::Twine(buf[outer.openOffset]) + "' was never closed");
  modes.clear();
  return true;
}

LexToken Lexer::lexNormal() {
  uint32_t begin = pos;
  char c = buf[pos];
  switch (c) {
  case ' ':
  case '\t':
  case '\f':
    while (pos < size && (buf[pos] == ' ' || buf[pos] == '\t' ||
                          buf[pos] == '\f'))
      ++pos;
    return make(TokenKind::Whitespace, begin);
  case '#':
    while (pos < size && buf[pos] != '\n' && buf[pos] != '\r')
      ++pos;
    return make(TokenKind::Comment, begin);
  case '\n':
  case '\r':
    return lexNewline(begin);
  case '\\':
    ++pos;
    if (pos < size && (buf[pos] == '\n' || buf[pos] == '\r')) {
      if (buf[pos] == '\r' && pos + 1 < size && buf[pos + 1] == '\n')
        ++pos;
      ++pos;
      return make(TokenKind::LineContinuation, begin);
    }
    error(begin, pos,
          pos >= size ? "unexpected EOF while parsing"
                      : "unexpected character after line continuation "
                        "character");
    return make(TokenKind::Unknown, begin);
  case '"':
  case '\'':
    return lexString(begin, begin, false, false, false);
  case '0':
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7':
  case '8':
  case '9':
    return lexNumber(begin);
  case '.':
    if (pos + 1 < size && isDigit(buf[pos + 1]))
      return lexNumber(begin);
    return lexOperator(begin);
  default:
    break;
  }
  if (isIdentStart(static_cast<unsigned char>(c)))
    return lexName(begin);
  return lexOperator(begin);
}

LexToken Lexer::lexName(uint32_t begin) {
  while (pos < size) {
    unsigned char c = static_cast<unsigned char>(buf[pos]);
    if (c < 0x80) {
      if (!isIdentChar(c))
        break;
      ++pos;
      continue;
    }
    unsigned len = validUtf8Length(pos);
    if (len == 0) {
      if (pos == begin)
        return lexUnknown(begin);
      break;
    }
    // Like CPython, the token takes every non-ASCII character; the first
    // that cannot be part of an identifier (XID_Start first, XID_Continue
    // after) is an error, once per name.
    uint32_t cp = decodeUtf8(buf + pos, len);
    if (!badIdentifierChar &&
        !isIdentifierCodePoint(cp, /*start=*/pos == begin)) {
      badIdentifierChar = true;
      std::string hex = llvm::utohexstr(cp);
      hex.insert(0, hex.size() < 4 ? 4 - hex.size() : 0, '0');
      error(pos, pos + len,
            llvm::Twine("invalid character '") +
                llvm::StringRef(buf + pos, len) + "' (U+" + hex + ")");
    }
    pos += len;
  }
  badIdentifierChar = false;
  uint32_t len = pos - begin;
  if (len <= 3 && pos < size && (buf[pos] == '"' || buf[pos] == '\'')) {
    // A string prefix: any case-insensitive mix of r with one of b/u/f.
    bool raw = false, isBytes = false, isF = false, isU = false, ok = true;
    for (uint32_t i = begin; i < pos; ++i) {
      switch (buf[i] | 0x20) {
      case 'r':
        ok &= !raw;
        raw = true;
        break;
      case 'b':
        ok &= !isBytes && !isF && !isU;
        isBytes = true;
        break;
      case 'f':
        ok &= !isBytes && !isF && !isU;
        isF = true;
        break;
      case 'u':
        ok &= !isBytes && !isF && !isU && !raw && len == 1;
        isU = true;
        break;
      default:
        ok = false;
      }
    }
    if (ok)
      return lexString(begin, pos, isF, raw, isBytes);
  }
  return make(classifyWord(llvm::StringRef(buf + begin, len)), begin);
}

LexToken Lexer::lexNumber(uint32_t begin) {
  auto digits = [&](auto isOk) -> bool {
    // Digits with single underscores between them; returns false when the
    // run is malformed (trailing/double underscore). Empty runs return true.
    bool okRun = true;
    while (pos < size) {
      if (isOk(buf[pos])) {
        ++pos;
      } else if (buf[pos] == '_') {
        if (pos + 1 < size && isOk(buf[pos + 1])) {
          ++pos;
        } else {
          okRun = false;
          ++pos;
          break;
        }
      } else {
        break;
      }
    }
    return okRun;
  };
  auto isDec = [](char c) { return c >= '0' && c <= '9'; };
  bool ok = true;
  bool isFloat = false;
  char c = buf[pos];
  if (c == '0' && pos + 1 < size &&
      ((buf[pos + 1] | 0x20) == 'x' || (buf[pos + 1] | 0x20) == 'o' ||
       (buf[pos + 1] | 0x20) == 'b')) {
    char base = buf[pos + 1] | 0x20;
    pos += 2;
    if (pos < size && buf[pos] == '_')
      ++pos;
    uint32_t digitsStart = pos;
    if (base == 'x')
      ok = digits([](char d) {
        return isDigit(d) || ((d | 0x20) >= 'a' && (d | 0x20) <= 'f');
      });
    else if (base == 'o')
      ok = digits([](char d) { return d >= '0' && d <= '7'; });
    else
      ok = digits([](char d) { return d == '0' || d == '1'; });
    if (pos == digitsStart)
      ok = false;
    if (!ok || (pos < size && isDigit(buf[pos]))) {
      while (pos < size && isIdentChar(static_cast<unsigned char>(buf[pos])))
        ++pos;
      error(begin, pos,
            llvm::Twine("invalid ") +
                (base == 'x'   ? "hexadecimal"
                 : base == 'o' ? "octal"
                               : "binary") +
                " literal");
      return make(TokenKind::Number, begin);
    }
  } else {
    if (c != '.') {
      ok = digits(isDec);
      if (ok && buf[begin] == '0') {
        bool allZero = true;
        for (uint32_t i = begin; i < pos; ++i)
          allZero &= buf[i] == '0' || buf[i] == '_';
        bool fractional = pos < size && (buf[pos] == '.' ||
                                         (buf[pos] | 0x20) == 'e' ||
                                         (buf[pos] | 0x20) == 'j');
        if (!allZero && !fractional)
          error(begin, pos,
                "leading zeros in decimal integer literals are not "
                "permitted; use an 0o prefix for octal integers");
      }
    }
    if (ok && pos < size && buf[pos] == '.') {
      isFloat = true;
      ++pos;
      if (pos < size && isDigit(buf[pos]))
        ok = digits(isDec);
    }
    if (ok && pos < size && (buf[pos] | 0x20) == 'e') {
      uint32_t save = pos;
      ++pos;
      if (pos < size && (buf[pos] == '+' || buf[pos] == '-'))
        ++pos;
      if (pos < size && isDigit(buf[pos])) {
        ok = digits(isDec);
        isFloat = true;
      } else {
        pos = save;
        ok = false;
        ++pos;
      }
    }
    if (ok && pos < size && (buf[pos] | 0x20) == 'j')
      ++pos;
    (void)isFloat;
  }
  if (!ok) {
    error(begin, pos, "invalid decimal literal");
    return make(TokenKind::Number, begin);
  }
  if (pos < size && isIdentStart(static_cast<unsigned char>(buf[pos]))) {
    // `1if x else y` is accepted (with a warning) by CPython for keywords.
    uint32_t end = pos;
    while (end < size && isIdentChar(static_cast<unsigned char>(buf[end])))
      ++end;
    llvm::StringRef word(buf + pos, end - pos);
    bool keyword = false;
    for (const char *kw : {"and", "else", "for", "if", "in", "is", "not",
                           "or"})
      keyword |= word.starts_with(kw);
    if (!keyword)
      error(begin, end, "invalid decimal literal");
  }
  return make(TokenKind::Number, begin);
}

LexToken Lexer::lexString(uint32_t begin, uint32_t prefixEnd, bool isF,
                          bool raw, bool isBytes) {
  pos = prefixEnd;
  char quote = buf[pos];
  bool triple = pos + 2 < size && buf[pos + 1] == quote &&
                buf[pos + 2] == quote;
  pos += triple ? 3 : 1;
  if (isF) {
    uint32_t indent = modes.empty() ? currentIndent : modes.front().lineIndent;
    modes.push_back(Mode{ModeKind::FString, quote, triple, raw, begin,
                         pos - begin, indent});
    return make(TokenKind::FStringStart, begin);
  }
  while (true) {
    if (pos >= size) {
      error(begin, begin + 1,
            triple ? "unterminated triple-quoted string literal"
                   : "unterminated string literal");
      return make(TokenKind::String, begin);
    }
    char c = buf[pos];
    if (c == quote) {
      if (!triple) {
        ++pos;
        break;
      }
      if (pos + 2 < size && buf[pos + 1] == quote && buf[pos + 2] == quote) {
        pos += 3;
        break;
      }
      ++pos;
      continue;
    }
    if (c == '\\') {
      // The escaped character is skipped here when it is ASCII; a non-ASCII
      // one is a whole UTF-8 sequence, left to the check below.
      ++pos;
      if (pos < size && static_cast<unsigned char>(buf[pos]) < 0x80) {
        ++pos;
        if (buf[pos - 1] == '\r' && pos < size && buf[pos] == '\n')
          ++pos;
      }
      continue;
    }
    if ((c == '\n' || c == '\r') && !triple) {
      error(begin, pos, "unterminated string literal");
      return make(TokenKind::String, begin);
    }
    if (c == 0) {
      error(pos, pos + 1, "source code cannot contain null bytes");
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      unsigned len = validUtf8Length(pos);
      if (len == 0) {
        error(pos, pos + 1, "invalid UTF-8 byte in string literal");
        len = 1;
      }
      pos += len;
      continue;
    }
    ++pos;
  }
  (void)raw;
  (void)isBytes;
  return make(TokenKind::String, begin);
}

void Lexer::popFString() {
  while (!modes.empty() && modes.back().kind != ModeKind::FString)
    modes.pop_back();
  if (!modes.empty())
    modes.pop_back();
}

LexToken Lexer::lexFStringText(Mode &mode) {
  // Quote information lives on the nearest FString mode.
  const Mode *str = &mode;
  for (size_t i = modes.size(); i-- > 0;)
    if (modes[i].kind == ModeKind::FString) {
      str = &modes[i];
      break;
    }
  char quote = str->quote;
  bool triple = str->triple, raw = str->raw;
  bool inSpec = mode.kind == ModeKind::Spec;
  uint32_t begin = pos;
  while (true) {
    if (pos >= size) {
      if (begin < pos)
        return make(TokenKind::FStringMiddle, begin);
      error(str->openOffset, str->openOffset + str->openLength,
            "unterminated f-string literal");
      popFString();
      return LexToken{pos, 0, TokenKind::FStringEnd};
    }
    char c = buf[pos];
    if (c == quote && (!triple || (pos + 2 < size && buf[pos + 1] == quote &&
                                   buf[pos + 2] == quote))) {
      if (begin < pos)
        return make(TokenKind::FStringMiddle, begin);
      if (inSpec)
        error(pos, pos + 1, "f-string: expecting '}'");
      popFString();
      pos += triple ? 3 : 1;
      return make(TokenKind::FStringEnd, begin);
    }
    if ((c == '\n' || c == '\r') && !triple) {
      if (begin < pos)
        return make(TokenKind::FStringMiddle, begin);
      error(str->openOffset, str->openOffset + str->openLength,
            "unterminated f-string literal");
      popFString();
      return LexToken{pos, 0, TokenKind::FStringEnd};
    }
    if (c == '\\') {
      // Raw or not, a backslash takes the next character along (a quote
      // does not end the string), except a brace.
      if (!raw && pos + 2 < size && buf[pos + 1] == 'N' &&
          buf[pos + 2] == '{') {
        pos += 3;
        while (pos < size && buf[pos] != '}' && buf[pos] != quote &&
               buf[pos] != '\n')
          ++pos;
        if (pos < size && buf[pos] == '}')
          ++pos;
        continue;
      }
      ++pos;
      if (pos < size && buf[pos] != '{' && buf[pos] != '}' &&
          static_cast<unsigned char>(buf[pos]) < 0x80) {
        if (buf[pos] == '\r' && pos + 1 < size && buf[pos + 1] == '\n')
          ++pos;
        ++pos;
      }
      continue;
    }
    if (c == '{') {
      if (pos + 1 < size && buf[pos + 1] == '{' && !inSpec) {
        pos += 2;
        continue;
      }
      if (begin < pos)
        return make(TokenKind::FStringMiddle, begin);
      modes.push_back(Mode{ModeKind::FExpr, quote, triple, raw, pos, 1,
                           str->lineIndent});
      ++pos;
      return make(TokenKind::LBrace, begin);
    }
    if (c == '}') {
      if (inSpec) {
        if (begin < pos)
          return make(TokenKind::FStringMiddle, begin);
        modes.pop_back(); // Spec
        if (!modes.empty() && modes.back().kind == ModeKind::FExpr)
          modes.pop_back();
        ++pos;
        return make(TokenKind::RBrace, begin);
      }
      if (pos + 1 < size && buf[pos + 1] == '}') {
        pos += 2;
        continue;
      }
      error(pos, pos + 1, "f-string: single '}' is not allowed");
      ++pos;
      continue;
    }
    if (c == 0)
      error(pos, pos + 1, "source code cannot contain null bytes");
    else if (static_cast<unsigned char>(c) >= 0x80) {
      unsigned len = validUtf8Length(pos);
      if (len == 0) {
        error(pos, pos + 1, "invalid UTF-8 byte in string literal");
        len = 1;
      }
      pos += len;
      continue;
    }
    ++pos;
  }
}

void Lexer::closeBracket(uint32_t begin, char closer) {
  ModeKind want = closer == ')'   ? ModeKind::Paren
                  : closer == ']' ? ModeKind::Square
                                  : ModeKind::Brace;
  if (!modes.empty() && modes.back().kind == want) {
    modes.pop_back();
    return;
  }
  if (closer == '}' && !modes.empty() && modes.back().kind == ModeKind::FExpr) {
    modes.pop_back();
    return;
  }
  // Look for a matching opener below the top (not across an f-string).
  for (size_t i = modes.size(); i-- > 0;) {
    ModeKind kind = modes[i].kind;
    if (kind == want) {
      error(begin, begin + 1,
            llvm::Twine("closing parenthesis '") + llvm::Twine(closer) +
                "' does not match opening parenthesis '" +
                llvm::Twine(buf[modes.back().openOffset]) + "'");
      modes.resize(i);
      return;
    }
    if (kind != ModeKind::Paren && kind != ModeKind::Square &&
        kind != ModeKind::Brace)
      break;
  }
  if (modes.empty())
    error(begin, begin + 1, llvm::Twine("unmatched '") + llvm::Twine(closer) + "'");
  else
    error(begin, begin + 1,
          llvm::Twine("closing parenthesis '") + llvm::Twine(closer) +
              "' does not match opening parenthesis '" +
              llvm::Twine(buf[modes.back().openOffset]) + "'");
}

LexToken Lexer::lexOperator(uint32_t begin) {
  char c = buf[pos];
  char c1 = pos + 1 < size ? buf[pos + 1] : 0;
  char c2 = pos + 2 < size ? buf[pos + 2] : 0;
  auto op = [&](unsigned len, TokenKind kind) {
    pos += len;
    return make(kind, begin);
  };
  auto open = [&](ModeKind kind, TokenKind tok) {
    uint32_t indent = modes.empty() ? currentIndent : modes.front().lineIndent;
    modes.push_back(Mode{kind, 0, false, false, begin, 1, indent});
    return op(1, tok);
  };
  switch (c) {
  case '(':
    return open(ModeKind::Paren, TokenKind::LParen);
  case '[':
    return open(ModeKind::Square, TokenKind::LSquare);
  case '{':
    return open(ModeKind::Brace, TokenKind::LBrace);
  case ')':
    closeBracket(begin, c);
    return op(1, TokenKind::RParen);
  case ']':
    closeBracket(begin, c);
    return op(1, TokenKind::RSquare);
  case '}':
    closeBracket(begin, c);
    return op(1, TokenKind::RBrace);
  case ':':
    if (!modes.empty() && modes.back().kind == ModeKind::FExpr) {
      Mode spec = modes.back();
      spec.kind = ModeKind::Spec;
      modes.push_back(spec);
      return op(1, TokenKind::Colon);
    }
    return c1 == '=' ? op(2, TokenKind::ColonEqual) : op(1, TokenKind::Colon);
  case ',':
    return op(1, TokenKind::Comma);
  case ';':
    return op(1, TokenKind::Semi);
  case '+':
    return c1 == '=' ? op(2, TokenKind::PlusEqual) : op(1, TokenKind::Plus);
  case '-':
    if (c1 == '>')
      return op(2, TokenKind::RArrow);
    return c1 == '=' ? op(2, TokenKind::MinEqual) : op(1, TokenKind::Minus);
  case '*':
    if (c1 == '*')
      return c2 == '=' ? op(3, TokenKind::DoubleStarEqual)
                       : op(2, TokenKind::DoubleStar);
    return c1 == '=' ? op(2, TokenKind::StarEqual) : op(1, TokenKind::Star);
  case '/':
    if (c1 == '/')
      return c2 == '=' ? op(3, TokenKind::DoubleSlashEqual)
                       : op(2, TokenKind::DoubleSlash);
    return c1 == '=' ? op(2, TokenKind::SlashEqual) : op(1, TokenKind::Slash);
  case '|':
    return c1 == '=' ? op(2, TokenKind::VBarEqual) : op(1, TokenKind::VBar);
  case '&':
    return c1 == '=' ? op(2, TokenKind::AmperEqual) : op(1, TokenKind::Amper);
  case '<':
    if (c1 == '<')
      return c2 == '=' ? op(3, TokenKind::LeftShiftEqual)
                       : op(2, TokenKind::LeftShift);
    if (c1 == '>') {
      error(begin, begin + 2, "invalid syntax");
      return op(2, TokenKind::NotEqual);
    }
    return c1 == '=' ? op(2, TokenKind::LessEqual) : op(1, TokenKind::Less);
  case '>':
    if (c1 == '>')
      return c2 == '=' ? op(3, TokenKind::RightShiftEqual)
                       : op(2, TokenKind::RightShift);
    return c1 == '=' ? op(2, TokenKind::GreaterEqual)
                     : op(1, TokenKind::Greater);
  case '=':
    return c1 == '=' ? op(2, TokenKind::EqEqual) : op(1, TokenKind::Equal);
  case '!':
    return c1 == '=' ? op(2, TokenKind::NotEqual)
                     : op(1, TokenKind::Exclamation);
  case '.':
    if (c1 == '.' && c2 == '.')
      return op(3, TokenKind::Ellipsis);
    return op(1, TokenKind::Dot);
  case '%':
    return c1 == '=' ? op(2, TokenKind::PercentEqual)
                     : op(1, TokenKind::Percent);
  case '~':
    return op(1, TokenKind::Tilde);
  case '^':
    return c1 == '=' ? op(2, TokenKind::CircumflexEqual)
                     : op(1, TokenKind::Circumflex);
  case '@':
    return c1 == '=' ? op(2, TokenKind::AtEqual) : op(1, TokenKind::At);
  default:
    return lexUnknown(begin);
  }
}

LexToken Lexer::lexUnknown(uint32_t begin) {
  unsigned char c = static_cast<unsigned char>(buf[pos]);
  if (c == 0) {
    ++pos;
    error(begin, pos, "source code cannot contain null bytes");
  } else if (c >= 0x80) {
    unsigned len = validUtf8Length(pos);
    if (len == 0) {
      ++pos;
      error(begin, pos, "invalid UTF-8 byte");
    } else {
      pos += len;
      error(begin, pos, "invalid character in identifier");
    }
  } else {
    ++pos;
    if (c >= 0x20 && c < 0x7f)
      error(begin, pos, llvm::Twine("invalid character '") +
                            llvm::Twine(static_cast<char>(c)) + "'");
    else
      error(begin, pos, "invalid non-printable character");
  }
  return make(TokenKind::Unknown, begin);
}
