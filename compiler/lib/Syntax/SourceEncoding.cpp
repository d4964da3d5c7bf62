//===- SourceEncoding.cpp - PEP 263 source decoding -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Syntax/SourceEncoding.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

using namespace tlc;
using namespace tlc::syntax;

namespace {

/// One single-byte code page: the code points of bytes 0x80-0xFF.
struct CodePage {
  const char *codec;
  uint16_t high[128];
};

const CodePage codePages[] = {
#define TLC_CODEPAGE(name, ...) {#name, __VA_ARGS__},
#include "CodePages.inc"
};

/// Normalized name -> codec, sorted by name (the generator sorts).
struct EncodingName {
  const char *name;
  const char *codec;
};

const EncodingName encodingNames[] = {
#define TLC_ENCODING_NAME(name, codec) {name, codec},
#include "CodePages.inc"
};

/// Python's codec-search normalization: lowercase, and every run of
/// characters other than letters, digits and '.' becomes one '_' (none at
/// the start).
std::string normalizeName(llvm::StringRef name) {
  std::string out;
  bool pending = false;
  for (char c : name) {
    if (llvm::isAlnum(c) || c == '.') {
      if (pending && !out.empty())
        out.push_back('_');
      out.push_back(llvm::toLower(c));
      pending = false;
    } else {
      pending = true;
    }
  }
  return out;
}

/// CPython's tokenizer shortcut: the first 12 characters lowercased with
/// '_' as '-'; "utf-8" and "utf-8-..." are UTF-8, the Latin-1 spellings
/// (and those followed by '-...') are "iso-8859-1"; anything else is kept
/// as written.
std::string tokenizerNormalName(llvm::StringRef name) {
  std::string head;
  for (char c : name.take_front(12))
    head.push_back(c == '_' ? '-' : llvm::toLower(c));
  llvm::StringRef h = head;
  if (h == "utf-8" || h.starts_with("utf-8-"))
    return "utf-8";
  for (llvm::StringRef latin : {"latin-1", "iso-8859-1", "iso-latin-1"})
    if (h == latin || (h.starts_with(latin) && h.size() > latin.size() &&
                       h[latin.size()] == '-'))
      return "iso-8859-1";
  return name.str();
}

const CodePage *findCodePage(llvm::StringRef codec) {
  for (const CodePage &page : codePages)
    if (codec == page.codec)
      return &page;
  return nullptr;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

/// Decodes `bytes` with a single-byte codec (`page` null: Latin-1, or
/// ASCII when `ascii`). The first undefined byte gives a diagnostic.
void decodeSingleByte(llvm::StringRef bytes, const CodePage *page, bool ascii,
                      DecodedSource &out) {
  out.text.clear();
  out.text.reserve(bytes.size() + bytes.size() / 4);
  bool reported = false;
  for (char ch : bytes) {
    auto b = static_cast<unsigned char>(ch);
    uint32_t cp = b;
    if (b >= 0x80) {
      if (ascii)
        cp = 0;
      else if (page)
        cp = page->high[b - 0x80];
    }
    if (cp == 0 && b != 0) {
      if (!reported) {
        reported = true;
        Diagnostic d;
        auto at = static_cast<uint32_t>(out.text.size());
        d.range = TextRange{at, at + 3};
        llvm::raw_string_ostream os(d.message);
        os << "'" << (ascii ? "ascii" : "charmap")
           << "' codec can't decode byte "
           << llvm::format("0x%02x", static_cast<unsigned>(b));
        if (ascii)
          os << ": ordinal not in range(128)";
        else
          os << ": character maps to <undefined>";
        out.diagnostics.push_back(std::move(d));
      }
      cp = 0xFFFD;
    }
    appendUtf8(out.text, cp);
  }
}

} // namespace

std::optional<CodingDeclaration>
syntax::findCodingDeclaration(llvm::StringRef bytes) {
  uint32_t lineStart = 0;
  if (bytes.starts_with("\xEF\xBB\xBF"))
    lineStart = 3;
  for (int lineNo = 0; lineNo < 2 && lineStart <= bytes.size(); ++lineNo) {
    size_t nl = bytes.find('\n', lineStart);
    llvm::StringRef line = bytes.slice(lineStart, nl);
    // Only a line whose first non-blank character is '#' can declare.
    size_t hash = line.find_first_not_of(" \t\f");
    if (hash != llvm::StringRef::npos && line[hash] == '#') {
      for (size_t at = line.find("coding", hash); at != llvm::StringRef::npos;
           at = line.find("coding", at + 1)) {
        size_t after = at + 6;
        if (after >= line.size() || (line[after] != ':' && line[after] != '='))
          continue;
        size_t begin = after + 1;
        while (begin < line.size() &&
               (line[begin] == ' ' || line[begin] == '\t'))
          ++begin;
        size_t end = begin;
        while (end < line.size() &&
               (llvm::isAlnum(line[end]) || line[end] == '-' ||
                line[end] == '_' || line[end] == '.'))
          ++end;
        if (end == begin)
          continue;
        CodingDeclaration decl;
        decl.name = line.slice(begin, end);
        decl.range = TextRange{static_cast<uint32_t>(lineStart + begin),
                               static_cast<uint32_t>(lineStart + end)};
        return decl;
      }
    }
    // Line 2 is looked at only when line 1 is blank or a comment.
    if (hash != llvm::StringRef::npos && line[hash] != '#' &&
        line[hash] != '\r')
      return std::nullopt;
    if (nl == llvm::StringRef::npos)
      break;
    lineStart = static_cast<uint32_t>(nl + 1);
  }
  return std::nullopt;
}

std::string syntax::canonicalEncodingName(llvm::StringRef name) {
  std::string key = normalizeName(name);
  auto *end = std::end(encodingNames);
  auto *it = std::lower_bound(
      std::begin(encodingNames), end, key,
      [](const EncodingName &e, const std::string &k) { return k > e.name; });
  if (it != end && key == it->name)
    return it->codec;
  return "";
}

bool syntax::isSupportedEncoding(llvm::StringRef codec) {
  return codec == "utf_8" || codec == "utf_8_sig" || codec == "latin_1" ||
         codec == "ascii" || findCodePage(codec);
}

DecodedSource syntax::decodeSource(llvm::StringRef bytes) {
  DecodedSource out;
  std::optional<CodingDeclaration> decl = findCodingDeclaration(bytes);
  auto keepBytes = [&](const TextRange &range, std::string message) {
    out.text = bytes.str();
    Diagnostic d;
    d.range = range;
    d.message = std::move(message);
    out.diagnostics.push_back(std::move(d));
    return std::move(out);
  };
  bool bom = bytes.starts_with("\xEF\xBB\xBF");
  if (bom && decl && tokenizerNormalName(decl->name) != "utf-8")
    return keepBytes(decl->range,
                     "encoding problem: " + tokenizerNormalName(decl->name) +
                         " with BOM");
  if (bom || !decl) {
    // CPython tokenizes without the BOM; its columns do not count it.
    out.text = bytes.drop_front(bom ? 3 : 0).str();
    return out;
  }
  std::string normal = tokenizerNormalName(decl->name);
  if (normal == "utf-8") {
    out.text = bytes.str();
    return out;
  }
  std::string codec = canonicalEncodingName(normal);
  if (codec.empty())
    return keepBytes(decl->range, "unknown encoding: " + normal);
  if (!isSupportedEncoding(codec))
    return keepBytes(decl->range, "encoding '" + decl->name.str() +
                                      "' is not supported by tlc (only "
                                      "UTF-8 and single-byte encodings "
                                      "that extend ASCII)");
  out.encoding = codec;
  if (codec == "utf_8" || codec == "utf_8_sig") {
    out.text = bytes.str();
    return out;
  }
  const CodePage *page = findCodePage(codec);
  decodeSingleByte(bytes, page, codec == "ascii", out);
  return out;
}
