//===- LineIndex.cpp - Byte offset <-> line/column mapping ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/LineIndex.h"

#include <algorithm>
#include <cstring>

using namespace tlc;

LineIndex::LineIndex(llvm::StringRef text) : text(text) {
  const char *data = text.data();
  size_t size = text.size();
  lineStarts.reserve(size / 32 + 1);
  // Built for every version of an edited file: without '\r', memchr finds
  // the line ends (several times faster than a byte loop).
  if (!std::memchr(data, '\r', size)) {
    for (const char *p = data, *end = data + size;
         (p = static_cast<const char *>(std::memchr(p, '\n', end - p)));)
      lineStarts.push_back(static_cast<uint32_t>(++p - data));
    return;
  }
  for (size_t i = 0; i < size; ++i) {
    char c = data[i];
    if (c == '\n') {
      lineStarts.push_back(static_cast<uint32_t>(i + 1));
    } else if (c == '\r') {
      if (i + 1 < size && data[i + 1] == '\n')
        ++i;
      lineStarts.push_back(static_cast<uint32_t>(i + 1));
    }
  }
}

uint32_t LineIndex::getLineStart(uint32_t line) const {
  if (line >= lineStarts.size())
    return static_cast<uint32_t>(text.size());
  return lineStarts[line];
}

uint32_t LineIndex::getLineEnd(uint32_t line) const {
  if (line >= lineStarts.size())
    return static_cast<uint32_t>(text.size());
  uint32_t end = line + 1 < lineStarts.size()
                     ? lineStarts[line + 1]
                     : static_cast<uint32_t>(text.size());
  uint32_t start = lineStarts[line];
  if (end > start && text[end - 1] == '\n')
    --end;
  if (end > start && text[end - 1] == '\r')
    --end;
  return end;
}

llvm::StringRef LineIndex::getLineText(uint32_t line) const {
  uint32_t start = getLineStart(line);
  return text.slice(start, getLineEnd(line));
}

uint32_t LineIndex::getLine(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  return static_cast<uint32_t>(it - lineStarts.begin()) - 1;
}

LinePosition LineIndex::toUtf8(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  uint32_t line = getLine(offset);
  return {line, offset - lineStarts[line]};
}

/// Length of the UTF-8 sequence introduced by `lead`, or 1 when invalid.
static unsigned utf8Length(unsigned char lead) {
  if (lead < 0xC2)
    return 1;
  if (lead < 0xE0)
    return 2;
  if (lead < 0xF0)
    return 3;
  if (lead < 0xF5)
    return 4;
  return 1;
}

/// Length of the well-formed-enough UTF-8 character at `i` (never past
/// `end`; invalid sequences count as single bytes).
static unsigned charLength(llvm::StringRef text, uint32_t i, uint32_t end) {
  unsigned len = utf8Length(static_cast<unsigned char>(text[i]));
  if (i + len > end)
    return 1;
  for (unsigned k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
      return 1;
  return len;
}

LinePosition LineIndex::toUtf16(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  uint32_t line = getLine(offset);
  uint32_t end = getLineEnd(line);
  uint32_t column = 0;
  for (uint32_t i = lineStarts[line]; i < offset;) {
    unsigned len = charLength(text, i, end > i ? end : i + 1);
    column += len == 4 ? 2 : 1;
    i += len;
  }
  return {line, column};
}

uint32_t LineIndex::fromUtf8(LinePosition pos) const {
  if (pos.line >= lineStarts.size())
    return static_cast<uint32_t>(text.size());
  uint32_t start = lineStarts[pos.line];
  uint32_t end = getLineEnd(pos.line);
  return std::min(start + std::min(pos.column, end - start), end);
}

uint32_t LineIndex::fromUtf16(LinePosition pos) const {
  if (pos.line >= lineStarts.size())
    return static_cast<uint32_t>(text.size());
  uint32_t i = lineStarts[pos.line];
  uint32_t end = getLineEnd(pos.line);
  uint32_t column = 0;
  while (i < end) {
    unsigned len = charLength(text, i, end);
    unsigned units = len == 4 ? 2 : 1;
    if (column + units > pos.column)
      break;
    column += units;
    i += len;
  }
  return i;
}
