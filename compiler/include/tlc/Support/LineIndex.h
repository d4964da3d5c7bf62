//===- LineIndex.h - Byte offset <-> line/column mapping --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A LineIndex maps byte offsets of a text to (line, column) positions and
// back. Columns are available in UTF-8 bytes (what compilers print) and in
// UTF-16 code units (what the Language Server Protocol uses by default).
// Line terminators are "\n", "\r\n" and a lone "\r", as in Python and LSP.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SUPPORT_LINEINDEX_H
#define TLC_SUPPORT_LINEINDEX_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace tlc {

/// A zero-based (line, column) position. Whether `column` counts UTF-8 bytes
/// or UTF-16 code units depends on the LineIndex function that produced it.
struct LinePosition {
  /// Zero-based line number.
  uint32_t line = 0;
  /// Zero-based column (UTF-8 bytes or UTF-16 code units).
  uint32_t column = 0;

  /// Positions compare by value.
  friend bool operator==(const LinePosition &a, const LinePosition &b) {
    return a.line == b.line && a.column == b.column;
  }
  /// Positions compare by value.
  friend bool operator!=(const LinePosition &a, const LinePosition &b) {
    return !(a == b);
  }
};

/// Maps byte offsets of one text to line/column positions and back.
///
/// The index keeps a StringRef to the text it was built from (needed for
/// UTF-16 columns): the text must outlive the index. All queries clamp
/// out-of-range input (an offset past the end maps to the end; a line past
/// the last maps to the end of the text; a column past the end of its line
/// maps to the end of that line, before its terminator). Invalid UTF-8
/// bytes count as one UTF-16 code unit each. Immutable after construction,
/// so it is safe to query from several threads.
class LineIndex {
public:
  /// An index of the empty text.
  LineIndex() = default;
  /// Builds the index of `text` in one linear scan.
  explicit LineIndex(llvm::StringRef text);

  /// The number of lines; a text ending with a terminator has an empty last
  /// line, so this is always at least 1.
  uint32_t getNumLines() const {
    return static_cast<uint32_t>(lineStarts.size());
  }
  /// Byte offset where zero-based line `line` starts (clamped).
  uint32_t getLineStart(uint32_t line) const;
  /// Byte offset of the end of zero-based line `line`, before its
  /// terminator (clamped).
  uint32_t getLineEnd(uint32_t line) const;
  /// The text of zero-based line `line` without its terminator.
  llvm::StringRef getLineText(uint32_t line) const;
  /// Zero-based line containing byte `offset` (clamped to the text size).
  uint32_t getLine(uint32_t offset) const;

  /// Byte offset -> (line, UTF-8 byte column), both zero-based.
  LinePosition toUtf8(uint32_t offset) const;
  /// Byte offset -> (line, UTF-16 code unit column), both zero-based. An
  /// offset inside a multi-byte character counts the character as started.
  LinePosition toUtf16(uint32_t offset) const;
  /// (line, UTF-8 byte column) -> byte offset (clamped to the line).
  uint32_t fromUtf8(LinePosition pos) const;
  /// (line, UTF-16 column) -> byte offset (clamped to the line). A column in
  /// the middle of a surrogate pair maps to the start of that character.
  uint32_t fromUtf16(LinePosition pos) const;

  /// The text this index was built from.
  llvm::StringRef getText() const { return text; }

private:
  llvm::StringRef text;
  /// Byte offset where each line starts; lineStarts[0] == 0.
  std::vector<uint32_t> lineStarts{0};
};

} // namespace tlc

#endif // TLC_SUPPORT_LINEINDEX_H
