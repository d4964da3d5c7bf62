//===- Operators.h - Helpers of the Python operators (private)  -*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the files implementing Python's operators on trace-time values
// (Operators.cpp, Comparisons.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_OPERATORS_H
#define TLC_LIB_EVAL_OPERATORS_H

#include "Interpreter.h"

namespace tlc::eval {

/// The operator as Python spells it in its TypeError messages.
llvm::StringRef pySpelling(syntax::BinaryOp op);
llvm::StringRef pySpelling(syntax::CmpOp op);

/// True for values taking part in IR arithmetic: IR expressions, element
/// references and local variables.
bool isIRScalar(Value v);

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_OPERATORS_H
