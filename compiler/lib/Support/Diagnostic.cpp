//===- Diagnostic.cpp - Source diagnostics --------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/Diagnostic.h"
#include "tlc/Support/LineIndex.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tlc;

llvm::StringRef tlc::getSeverityName(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  case Severity::Remark:
    return "remark";
  }
  return "error";
}

bool tlc::operator==(const Diagnostic &a, const Diagnostic &b) {
  if (a.severity != b.severity || a.range != b.range ||
      a.message != b.message || a.notes.size() != b.notes.size())
    return false;
  for (size_t i = 0; i < a.notes.size(); ++i)
    if (a.notes[i].range != b.notes[i].range ||
        a.notes[i].message != b.notes[i].message)
      return false;
  return true;
}

/// Prints one `file:line:col: kind: message` line plus the source excerpt.
static void printOne(llvm::raw_ostream &os, Severity severity,
                     TextRange range, llvm::StringRef message,
                     llvm::StringRef fileName, const LineIndex &lines,
                     const DiagnosticPrintOptions &options) {
  LinePosition pos = lines.toUtf8(range.begin);
  os << fileName << ':' << pos.line + 1 << ':' << pos.column + 1 << ": "
     << getSeverityName(severity) << ": " << message << '\n';
  if (!options.showSourceLine)
    return;
  llvm::StringRef lineText = lines.getLineText(pos.line);
  // Keep huge lines readable: show at most 200 bytes around the caret.
  uint32_t shown = 0;
  if (lineText.size() > 240 && pos.column > 120)
    shown = pos.column - 120;
  llvm::StringRef excerpt = lineText.substr(shown, 240);
  os << excerpt << '\n';
  std::string underline;
  for (uint32_t i = shown; i < pos.column && i - shown < excerpt.size(); ++i)
    underline.push_back(lineText[i] == '\t' ? '\t' : ' ');
  underline.push_back('^');
  uint32_t lineEnd = lines.getLineEnd(pos.line);
  uint32_t end = std::min(range.end, lineEnd);
  for (uint32_t i = range.begin + 1; i < end && underline.size() < 240; ++i) {
    unsigned char c = static_cast<unsigned char>(lines.getText()[i]);
    if ((c & 0xC0) != 0x80)
      underline.push_back('~');
  }
  os << underline << '\n';
}

void tlc::printDiagnostic(llvm::raw_ostream &os, const Diagnostic &diag,
                          llvm::StringRef fileName, const LineIndex &lines,
                          const DiagnosticPrintOptions &options) {
  printOne(os, diag.severity, diag.range, diag.message, fileName, lines,
           options);
  for (const RelatedInfo &note : diag.notes)
    printOne(os, Severity::Note, note.range, note.message, fileName, lines,
             options);
}

void tlc::printDiagnostics(llvm::raw_ostream &os,
                           llvm::ArrayRef<Diagnostic> diags,
                           llvm::StringRef fileName, const LineIndex &lines,
                           const DiagnosticPrintOptions &options) {
  for (const Diagnostic &diag : diags)
    printDiagnostic(os, diag, fileName, lines, options);
}

bool tlc::hasErrors(llvm::ArrayRef<Diagnostic> diags) {
  return std::any_of(diags.begin(), diags.end(), [](const Diagnostic &d) {
    return d.severity == Severity::Error;
  });
}
