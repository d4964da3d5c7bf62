//===- Analysis.cpp - Choice of the default analyzer ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds without the evaluator library use the static analyzer; otherwise
// EvalAnalyzer.cpp defines createDefaultAnalyzer().
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#ifndef TLC_LSP_HAVE_EVAL
std::unique_ptr<tlc::lsp::Analyzer> tlc::lsp::createDefaultAnalyzer() {
  return createStaticAnalyzer();
}
#endif
