//===- Diagnostic.h - Source diagnostics ------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Plain-data diagnostics with byte ranges into one source text, and a printer
// in the clang style:
//
//   file.py:3:14: error: expected ')'
//       T.copy(A[by *
//                    ^
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SUPPORT_DIAGNOSTIC_H
#define TLC_SUPPORT_DIAGNOSTIC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tlc {

class LineIndex;

/// How serious a diagnostic is.
enum class Severity : uint8_t { Error, Warning, Note, Remark };

/// Returns "error", "warning", "note" or "remark".
llvm::StringRef getSeverityName(Severity severity);

/// A half-open byte range [begin, end) into one source text.
struct TextRange {
  /// First byte of the range.
  uint32_t begin = 0;
  /// One past the last byte of the range.
  uint32_t end = 0;

  /// Number of bytes covered.
  uint32_t size() const { return end - begin; }
  /// True when the range covers no byte (a position).
  bool empty() const { return begin == end; }
  /// True when `offset` lies in [begin, end).
  bool contains(uint32_t offset) const {
    return offset >= begin && offset < end;
  }
  /// Ranges compare by value.
  friend bool operator==(const TextRange &a, const TextRange &b) {
    return a.begin == b.begin && a.end == b.end;
  }
  /// Ranges compare by value.
  friend bool operator!=(const TextRange &a, const TextRange &b) {
    return !(a == b);
  }
};

/// A secondary message attached to a diagnostic ("note: opened here").
struct RelatedInfo {
  /// Where the note points, in the same source text as its diagnostic.
  TextRange range;
  /// The note's text, without a trailing period.
  std::string message;
};

/// One message about a source text. Plain data: copyable, comparable.
struct Diagnostic {
  /// Error, warning, note or remark.
  Severity severity = Severity::Error;
  /// The bytes the message is about; may be empty (a position).
  TextRange range;
  /// The message, lowercase first letter, no trailing period (clang style).
  std::string message;
  /// Related locations, printed as notes after the main message.
  std::vector<RelatedInfo> notes;

  /// Diagnostics compare by value (used by the incremental-vs-full tests).
  friend bool operator==(const Diagnostic &a, const Diagnostic &b);
};

/// Options of printDiagnostic.
struct DiagnosticPrintOptions {
  /// Print the source line and a caret/tilde underline after each message.
  bool showSourceLine = true;
};

/// Prints `diag` as `fileName:line:col: severity: message` (1-based line,
/// 1-based column in UTF-8 bytes, like clang), then, unless disabled, the
/// source line and an underline (`^` at the start, `~` over the rest of the
/// range on that line); then each note the same way.
void printDiagnostic(llvm::raw_ostream &os, const Diagnostic &diag,
                     llvm::StringRef fileName, const LineIndex &lines,
                     const DiagnosticPrintOptions &options = {});

/// Prints every diagnostic of `diags` with printDiagnostic.
void printDiagnostics(llvm::raw_ostream &os,
                      llvm::ArrayRef<Diagnostic> diags,
                      llvm::StringRef fileName, const LineIndex &lines,
                      const DiagnosticPrintOptions &options = {});

/// True when some diagnostic of `diags` is an error.
bool hasErrors(llvm::ArrayRef<Diagnostic> diags);

} // namespace tlc

#endif // TLC_SUPPORT_DIAGNOSTIC_H
