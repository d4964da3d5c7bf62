//===- SourceEncoding.h - PEP 263 source decoding ---------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The bytes of a Python file become UTF-8 text before lexing, as CPython
// does it (PEP 263, PEP 3120):
//
// * The encoding is UTF-8 unless a coding declaration names another: a
//   comment on line 1, or on line 2 when line 1 is blank or only a comment,
//   that contains `coding:` or `coding=` followed by a name of the
//   characters [-A-Za-z0-9_.] (`# -*- coding: latin-1 -*-`,
//   `# vim: set fileencoding=koi8-r :`).
// * A UTF-8 byte-order mark is removed (CPython's columns on line 1 do not
//   count it) and allows only a declaration that CPython normalizes to
//   exactly "utf-8" (`utf-8`, `UTF_8`, `utf-8-sig`; not `utf8`): anything
//   else is the error "encoding problem: NAME with BOM" (bytes kept).
// * Names are looked up like Python's codec registry (case, '-'/'_' runs
//   and the aliases of `encodings.aliases`). UTF-8, ASCII, Latin-1 and the
//   62 ASCII-compatible single-byte code pages of Python's `encodings`
//   (cp1252, koi8-r, iso8859-15, mac-roman, ...) are decoded; the other
//   encodings Python knows (UTF-16, Shift JIS, GBK, ...) get "encoding
//   'NAME' is not supported by tlc"; a name Python does not know gets
//   "unknown encoding: NAME".
//
// Positions: every offset of the resulting tree (tokens, diagnostics,
// `--emit=ast` columns) is a byte offset into the decoded UTF-8 text, which
// is what CPython's `ast` col_offset counts too. Lines are the same as in
// the file (the supported encodings map '\n' and '\r' to themselves), and a
// UTF-8 file without a BOM is not changed at all, so its offsets are file
// offsets (with a BOM, 3 less on line 1 than in the file). The
// language server never decodes: its documents are already text, and
// CPython also ignores the declaration of a `str` source.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SYNTAX_SOURCEENCODING_H
#define TLC_SYNTAX_SOURCEENCODING_H

#include "tlc/Support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace syntax {

/// A coding declaration found in the first two lines of a file.
struct CodingDeclaration {
  /// The name as written (`latin-1`).
  llvm::StringRef name;
  /// Where the name is, as byte offsets into the file.
  TextRange range;
};

/// Finds the coding declaration of `bytes` as CPython's tokenizer does
/// (lines end at '\n'), or nothing.
std::optional<CodingDeclaration> findCodingDeclaration(llvm::StringRef bytes);

/// The canonical codec name (Python's module name: `utf_8`, `latin_1`,
/// `koi8_r`) of an encoding name as a declaration may spell it, or "" when
/// Python knows no such encoding.
std::string canonicalEncodingName(llvm::StringRef name);

/// True when canonicalEncodingName() `codec` can be decoded by
/// decodeSource().
bool isSupportedEncoding(llvm::StringRef codec);

/// The result of decodeSource().
struct DecodedSource {
  /// UTF-8 text to lex; the file's bytes unchanged (less a BOM) when they
  /// were not decoded (UTF-8, or an encoding that cannot be decoded).
  std::string text;
  /// Canonical codec name used (`utf_8` without a declaration).
  std::string encoding = "utf_8";
  /// Problems with the declaration or the decoding, with ranges in `text`.
  std::vector<Diagnostic> diagnostics;
};

/// Decodes the bytes of a Python file to UTF-8 (see the file comment).
/// Never fails: an unknown or unsupported encoding leaves the bytes as they
/// are with a diagnostic, and a byte the encoding does not define becomes
/// U+FFFD with a diagnostic at it (only the first one is reported, as
/// CPython stops at the first).
DecodedSource decodeSource(llvm::StringRef bytes);

} // namespace syntax
} // namespace tlc

#endif // TLC_SYNTAX_SOURCEENCODING_H
