//===- StringLiteral.h - Decoding one Python string literal -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The decoding of a string literal's escapes, as the parser's Constant
// nodes use it, for text that is not a parsed file (a `-D name='...'`
// value on tlc-build's command line).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SYNTAX_STRINGLITERAL_H
#define TLC_SYNTAX_STRINGLITERAL_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tlc {
namespace syntax {

/// Decodes one Python string literal token (`'a\nb'`, `"it's"`, `r'\d'`,
/// triple-quoted) into \p out as UTF-8, its escapes as CPython reads them;
/// false (and \p out untouched) when \p tok is not a str literal (no
/// closing quote, or a bytes literal).
bool decodeStringLiteral(llvm::StringRef tok, std::string &out);

} // namespace syntax
} // namespace tlc

#endif // TLC_SYNTAX_STRINGLITERAL_H
