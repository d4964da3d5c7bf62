//===- Reparse.h - Incremental reparsing ------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Applies a text edit to a parsed file and reparses only the top-level
// statements the edit touched (extending as long as the lexer state does not
// resynchronise, e.g. after an unclosed triple-quoted string). All other
// statements are shared with the old tree (same chunk objects). The result
// is always identical to parse() of the edited text.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SYNTAX_REPARSE_H
#define TLC_SYNTAX_REPARSE_H

#include "tlc/Syntax/SyntaxTree.h"

#include <memory>
#include <string>

namespace tlc {
namespace syntax {

/// Replace the bytes `range` of the old text by `newText`.
struct TextEdit {
  /// Byte range in the old text (clamped to it).
  TextRange range;
  /// The replacement text.
  std::string newText;
};

/// Returns the tree of `old`'s text with `edit` applied, sharing unchanged
/// top-level statements with `old`. Equal (dump(), print(), diagnostics) to
/// parse() of the edited text. `old` is left untouched. Thread-safe.
std::shared_ptr<const SyntaxTree>
reparse(const std::shared_ptr<const SyntaxTree> &old, const TextEdit &edit);

/// Applies `edit` to `text` (clamping the range) and returns the result.
std::string applyEdit(llvm::StringRef text, const TextEdit &edit);

} // namespace syntax
} // namespace tlc

#endif // TLC_SYNTAX_REPARSE_H
