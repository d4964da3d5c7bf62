//===- Parser.h - Python 3.12 parser entry point ----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The parser never fails: it always returns a tree, plus diagnostics for
// whatever it could not parse. Unparsable spans become Error nodes; recovery
// happens at statement and bracket boundaries, so the code around a typo
// still has a normal tree.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SYNTAX_PARSER_H
#define TLC_SYNTAX_PARSER_H

#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace tlc {
namespace syntax {

/// Maximum nesting depth of brackets/expressions/blocks; deeper input gets
/// a "too deeply nested" diagnostic instead of a stack overflow.
constexpr unsigned kMaxNestingDepth = 200;

/// Parses `text` (Python 3.12, UTF-8) into a lossless tree. `fileName` is
/// only recorded for printing diagnostics. Never fails; inputs of 4 GiB or
/// more are truncated with a diagnostic. Thread-safe (no shared state).
std::shared_ptr<const SyntaxTree> parse(llvm::StringRef text,
                                        llvm::StringRef fileName = "");

/// Parses the bytes of a Python file: decodes them to UTF-8 as CPython
/// does (PEP 263 coding declarations, BOM; see SourceEncoding.h), then
/// parse()s the decoded text, whose offsets are the tree's offsets. The
/// decoding's diagnostics are part of the tree's. For text that is already
/// decoded (an editor's document), use parse().
std::shared_ptr<const SyntaxTree> parseFile(llvm::StringRef bytes,
                                            llvm::StringRef fileName = "");

} // namespace syntax
} // namespace tlc

#endif // TLC_SYNTAX_PARSER_H
