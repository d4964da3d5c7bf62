//===- DeferredFloat.h - Float arithmetic on symbolic integers --*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Python float arithmetic on a symbolic integer: `(1.0 / dim) ** 0.5` where
// `dim` is a parameter of a factory's default instance (a factory no call
// site binds). Python computes a float from the run-time value of `dim`,
// so the operation and its operands are kept in an opaque value and
// evaluated in IR where the value is used (Interpreter::toScalar), as the
// kernel would compute it from its symbolic parameter.
//
// The opaque object stores the two operands and the operator in its
// `shape` slots (it is no torch tensor: `hasShape` stays false) and is
// recognised by its description.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_DEFERREDFLOAT_H
#define TLC_LIB_EVAL_DEFERREDFLOAT_H

#include "tlc/Eval/Value.h"
#include "tlc/Syntax/SyntaxTree.h"

#include <optional>

namespace tlc {
namespace eval {

/// One deferred operation `lhs op rhs`.
struct DeferredFloat {
  syntax::BinaryOp op;
  Value lhs, rhs;
};

/// True for the operators a deferred float keeps: Python's float `+`, `-`,
/// `*`, `/` and `**`.
bool isDeferrableFloatOp(syntax::BinaryOp op);

/// An opaque value standing for `lhs op rhs` (one operand symbolic or
/// itself deferred, the other a number, a symbol or deferred).
Value makeDeferredFloat(Heap &heap, syntax::BinaryOp op, Value lhs, Value rhs);

/// The operation \p v stands for, if it is a deferred float.
std::optional<DeferredFloat> getDeferredFloat(Value v);

} // namespace eval
} // namespace tlc

#endif // TLC_LIB_EVAL_DEFERREDFLOAT_H
