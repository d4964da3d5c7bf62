//===- Literal.cpp - Decoding of Python literals --------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"
#include "tlc/Syntax/StringLiteral.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>

using namespace tlc;
using namespace tlc::syntax;
using detail::Chunk;
using detail::RawNode;

static void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

/// Decodes a literal body; `fstring` also turns `{{`/`}}` into braces.
/// Newlines are normalised to "\n" as Python's source reader does.
static void decodeBody(llvm::StringRef body, bool raw, bool bytes,
                       bool fstring, std::string &out) {
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\r') {
      out.push_back('\n');
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      continue;
    }
    if (fstring && (c == '{' || c == '}') && i + 1 < body.size() &&
        body[i + 1] == c) {
      out.push_back(c);
      ++i;
      continue;
    }
    if (c != '\\' || raw || i + 1 >= body.size()) {
      out.push_back(c);
      continue;
    }
    char e = body[++i];
    switch (e) {
    case '\n':
      break;
    case '\r':
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      break;
    case '\\':
    case '\'':
    case '"':
      out.push_back(e);
      break;
    case 'a':
      out.push_back('\a');
      break;
    case 'b':
      out.push_back('\b');
      break;
    case 'f':
      out.push_back('\f');
      break;
    case 'n':
      out.push_back('\n');
      break;
    case 'r':
      out.push_back('\r');
      break;
    case 't':
      out.push_back('\t');
      break;
    case 'v':
      out.push_back('\v');
      break;
    case 'x': {
      unsigned value = 0, n = 0;
      while (n < 2 && i + 1 < body.size() && llvm::isHexDigit(body[i + 1])) {
        value = value * 16 + llvm::hexDigitValue(body[++i]);
        ++n;
      }
      if (bytes)
        out.push_back(static_cast<char>(value));
      else
        appendUtf8(out, value);
      break;
    }
    case 'u':
    case 'U': {
      if (bytes) {
        out.push_back('\\');
        out.push_back(e);
        break;
      }
      unsigned want = e == 'u' ? 4 : 8, n = 0;
      uint32_t value = 0;
      while (n < want && i + 1 < body.size() &&
             llvm::isHexDigit(body[i + 1])) {
        value = value * 16 + llvm::hexDigitValue(body[++i]);
        ++n;
      }
      appendUtf8(out, value > 0x10FFFF ? 0xFFFD : value);
      break;
    }
    default:
      if (e >= '0' && e <= '7') {
        unsigned value = e - '0', n = 1;
        while (n < 3 && i + 1 < body.size() && body[i + 1] >= '0' &&
               body[i + 1] <= '7') {
          value = value * 8 + (body[++i] - '0');
          ++n;
        }
        if (bytes)
          out.push_back(static_cast<char>(value & 0xFF));
        else
          appendUtf8(out, value);
      } else {
        // Unknown escapes (and \N{...}, which needs the Unicode name
        // database) are kept as written.
        out.push_back('\\');
        out.push_back(e);
      }
    }
  }
}

/// Decodes one complete string token; sets `bytes`.
static void decodeString(llvm::StringRef tok, std::string &out, bool &bytes) {
  size_t q = tok.find_first_of("'\"");
  if (q == llvm::StringRef::npos)
    return;
  llvm::StringRef prefix = tok.take_front(q);
  bool raw = prefix.contains_insensitive("r");
  bytes = prefix.contains_insensitive("b");
  llvm::StringRef rest = tok.drop_front(q);
  char quote = rest[0];
  size_t qlen = rest.size() >= 6 && rest[1] == quote && rest[2] == quote ? 3 : 1;
  llvm::StringRef body = rest.drop_front(qlen);
  llvm::StringRef closing = qlen == 3 ? llvm::StringRef(rest.data(), 3)
                                      : llvm::StringRef(rest.data(), 1);
  if (body.ends_with(closing))
    body = body.drop_back(qlen);
  decodeBody(body, raw, bytes, false, out);
}

bool syntax::decodeStringLiteral(llvm::StringRef tok, std::string &out) {
  size_t q = tok.find_first_of("'\"");
  if (q == llvm::StringRef::npos || tok.back() != tok[q])
    return false;
  std::string text;
  bool bytes = false;
  decodeString(tok, text, bytes);
  if (bytes)
    return false;
  out = std::move(text);
  return true;
}

static void decodeNumber(llvm::StringRef tok, LiteralValue &v) {
  std::string digits;
  for (char c : tok)
    if (c != '_')
      digits.push_back(c);
  char last = digits.empty() ? 0 : digits.back();
  bool hex = digits.size() > 1 && digits[0] == '0' &&
             (digits[1] | 0x20) == 'x';
  if (last == 'j' || last == 'J') {
    v.kind = LiteralValue::Kind::Complex;
    digits.pop_back();
    v.floatValue = std::strtod(digits.c_str(), nullptr);
    return;
  }
  if (!hex && digits.find_first_of(".eE") != std::string::npos) {
    v.kind = LiteralValue::Kind::Float;
    v.floatValue = std::strtod(digits.c_str(), nullptr);
    return;
  }
  v.kind = LiteralValue::Kind::Int;
  v.text = digits;
  unsigned base = 10;
  llvm::StringRef body = digits;
  if (body.size() > 1 && body[0] == '0') {
    char b = body[1] | 0x20;
    if (b == 'x' || b == 'o' || b == 'b') {
      base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      body = body.drop_front(2);
    }
  }
  uint64_t value = 0;
  for (char c : body) {
    unsigned d = llvm::hexDigitValue(c);
    if (d >= base)
      break;
    if (value > (static_cast<uint64_t>(INT64_MAX) - d) / base) {
      v.overflow = true;
      return;
    }
    value = value * base + d;
  }
  v.intValue = static_cast<int64_t>(value);
}

LiteralValue Node::literal() const {
  LiteralValue v;
  const RawNode *r = raw();
  if (!r || r->kind != NodeKind::Constant)
    return v;
  const Chunk &c = tree->getChunk(chunk);
  llvm::StringRef src(tree->text);
  uint32_t base = chunkBase();
  auto tokText = [&](uint32_t i) {
    return src.substr(base + c.tokens[i].offset, c.tokens[i].length);
  };
  for (uint32_t i = r->firstTok; i < r->endTok; ++i) {
    TokenKind k = c.tokens[i].kind;
    switch (k) {
    case TokenKind::KwNone:
      v.kind = LiteralValue::Kind::None;
      return v;
    case TokenKind::KwTrue:
      v.kind = LiteralValue::Kind::True;
      return v;
    case TokenKind::KwFalse:
      v.kind = LiteralValue::Kind::False;
      return v;
    case TokenKind::Ellipsis:
      v.kind = LiteralValue::Kind::Ellipsis;
      return v;
    case TokenKind::Number:
      decodeNumber(tokText(i), v);
      return v;
    case TokenKind::String: {
      bool bytes = false;
      decodeString(tokText(i), v.text, bytes);
      v.kind = bytes ? LiteralValue::Kind::Bytes : LiteralValue::Kind::Str;
      break;
    }
    case TokenKind::FStringMiddle:
      decodeBody(tokText(i), r->flags & kRawFlag, false, true, v.text);
      v.kind = LiteralValue::Kind::Str;
      break;
    default:
      break;
    }
  }
  return v;
}
