//===- FuzzParser.cpp - Fuzz target: parser and incremental reparse -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Input: three 16-bit little-endian numbers (edit offset, bytes removed
// mod 64, bytes inserted mod 64), then the file, whose last "inserted"
// bytes are the inserted text instead. Checks: the file decodes (PEP 263)
// and parses; the tree prints back to its text; reparse() after the edit
// equals parse() of the edited text (dump: tokens, nodes, diagnostics).
//
//===----------------------------------------------------------------------===//

#include "tlc/Syntax/Parser.h"
#include "tlc/Syntax/Reparse.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tlc;
using namespace tlc::syntax;

static void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz-parser: %s\n", what);
    std::abort();
  }
}

/// True unless \p text is ASCII and its first two lines name no coding.
[[maybe_unused]] static bool mayNeedDecoding(llvm::StringRef text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80)
      return true;
  size_t end = 0;
  for (int line = 0; line < 2 && end < text.size(); ++line) {
    end = std::min(text.find_first_of("\r\n", end), text.size());
    if (end < text.size())
      end += text.substr(end).starts_with("\r\n") ? 2 : 1;
  }
  return text.take_front(end).contains("coding");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 6)
    return 0;
  auto u16 = [&](size_t i) {
    return uint32_t(data[i]) | uint32_t(data[i + 1]) << 8;
  };
  uint32_t at = u16(0), removed = u16(2) % 64, inserted = u16(4) % 64;
  llvm::StringRef rest(reinterpret_cast<const char *>(data) + 6, size - 6);
  // The inserted text is the last `inserted` bytes, the file the others.
  inserted = std::min<uint32_t>(inserted, rest.size());
  llvm::StringRef text = rest.drop_back(inserted);
  llvm::StringRef insert = rest.take_back(inserted);

  // parseFile() decodes, then parse()s the decoded text. Fuzzing, it runs
  // only where the decoding can do something (a non-ASCII byte or a coding
  // declaration); elsewhere it is parse(text), which runs below (a third
  // of a run's time went to it). The replay programs always run it.
#ifdef TLC_FUZZING
  if (mayNeedDecoding(text))
#endif
  {
    auto fromFile = parseFile(text, "fuzz.py");
    check(fromFile->print() == fromFile->source(),
          "parseFile() is not lossless");
  }

  auto tree = parse(text, "fuzz.py");
  check(tree->print() == text, "print() differs from the text");
  TextEdit edit;
  at = text.empty() ? 0 : at % (text.size() + 1);
  edit.range = TextRange{at, std::min<uint32_t>(at + removed, text.size())};
  edit.newText = insert.str();
  auto incremental = reparse(tree, edit);
  auto full = parse(applyEdit(text, edit), "fuzz.py");
  check(incremental->print() == full->print(), "reparse text differs");
  check(incremental->dump() == full->dump(),
        "reparse() differs from a full parse");
  return 0;
}
