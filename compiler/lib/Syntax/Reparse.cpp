//===- Reparse.cpp - Incremental reparsing --------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A chunk boundary is a column-0 token that starts a logical line, where the
// tokenizer state is empty. Reparsing restarts at the chunk before the one
// holding the edit (that one can see the first token of the next chunk, e.g.
// an `else`), and stops at the first new boundary that falls past the edit
// onto an old boundary: from there the text, and so the parse, is the same.
//
//===----------------------------------------------------------------------===//

#include "tlc/Syntax/Reparse.h"
#include "tlc/Syntax/Parser.h"

#include "ParserImpl.h"

#include <algorithm>

using namespace tlc;
using namespace tlc::syntax;

std::string syntax::applyEdit(llvm::StringRef text, const TextEdit &edit) {
  uint32_t size = static_cast<uint32_t>(text.size());
  uint32_t begin = std::min(edit.range.begin, size);
  uint32_t end = std::min(std::max(edit.range.end, begin), size);
  std::string out;
  out.reserve(size - (end - begin) + edit.newText.size());
  out.append(text.data(), begin);
  out.append(edit.newText);
  out.append(text.data() + end, size - end);
  return out;
}

std::shared_ptr<const SyntaxTree>
syntax::reparse(const std::shared_ptr<const SyntaxTree> &old,
                const TextEdit &edit) {
  llvm::StringRef oldText = old->source();
  uint32_t size = static_cast<uint32_t>(oldText.size());
  uint32_t begin = std::min(edit.range.begin, size);
  uint32_t end = std::min(std::max(edit.range.end, begin), size);
  std::string text = applyEdit(oldText, edit);
  if (text.size() >= 0xFFFFFFF0ull)
    return parse(text, old->fileName());
  int64_t delta = static_cast<int64_t>(edit.newText.size()) -
                  static_cast<int64_t>(end - begin);
  uint64_t newEditEnd = begin + edit.newText.size();

  const auto &oldChunks = TreeBuilder::getChunks(*old);
  const auto &offsets = TreeBuilder::getChunkOffsets(*old);
  size_t holder =
      std::upper_bound(offsets.begin(), offsets.end(), begin) - offsets.begin();
  holder = holder == 0 ? 0 : holder - 1;
  size_t restart = holder == 0 ? 0 : holder - 1;

  std::vector<std::shared_ptr<const detail::Chunk>> chunks(
      oldChunks.begin(), oldChunks.begin() + restart);
  ParserImpl parser(text, offsets.empty() ? 0 : offsets[restart]);
  while (!parser.done()) {
    chunks.push_back(parser.parseChunk());
    if (parser.done())
      break;
    uint64_t next = parser.offset();
    if (next < newEditEnd)
      continue;
    // The end of the file is no place to splice: the old end-of-file chunk
    // was parsed with an empty tokenizer state, which a line continuation
    // just before the end leaves pending (found by tlc-fuzz-parser).
    if (next >= text.size())
      continue;
    int64_t oldOffset = static_cast<int64_t>(next) - delta;
    if (oldOffset < static_cast<int64_t>(end))
      continue;
    auto it = std::lower_bound(offsets.begin(), offsets.end(),
                               static_cast<uint32_t>(oldOffset));
    if (it != offsets.end() && *it == static_cast<uint32_t>(oldOffset)) {
      chunks.insert(chunks.end(), oldChunks.begin() + (it - offsets.begin()),
                    oldChunks.end());
      break;
    }
  }
  return TreeBuilder::build(std::move(text), old->fileName(),
                            std::move(chunks));
}
