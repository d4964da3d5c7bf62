//===- Diagnostics.cpp - Diagnostics of one document version --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Features.h"

using namespace tlc;
using namespace tlc::lsp;

/// The LSP severity of a compiler severity.
static DiagSeverity toSeverity(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return DiagSeverity::Error;
  case Severity::Warning:
    return DiagSeverity::Warning;
  case Severity::Note:
    return DiagSeverity::Information;
  case Severity::Remark:
    return DiagSeverity::Hint;
  }
  return DiagSeverity::Error;
}

/// Converts one diagnostic of `doc`'s text.
static Diag convert(const Document &doc, const Diagnostic &d,
                    const std::string &source) {
  Diag diag;
  diag.range = doc.toRange(d.range);
  diag.severity = toSeverity(d.severity);
  diag.source = source;
  diag.message = d.message;
  for (const RelatedInfo &note : d.notes)
    diag.related.push_back(
        DiagRelated{Location{doc.getUri(), doc.toRange(note.range)},
                    note.message});
  return diag;
}

std::vector<Diag> tlc::lsp::computeDiagnostics(const Document &doc,
                                               const AnalysisFacts *facts) {
  std::vector<Diag> result;
  for (const Diagnostic &d : doc.getTree()->diagnostics())
    result.push_back(convert(doc, d, "tlc-syntax"));
  if (facts)
    for (const Diagnostic &d : facts->diagnostics)
      result.push_back(convert(doc, d, facts->source));
  return result;
}
