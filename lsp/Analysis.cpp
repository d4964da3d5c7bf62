//===- Analysis.cpp - The Analyzer interface ------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

tlc::lsp::Analyzer::~Analyzer() = default;
