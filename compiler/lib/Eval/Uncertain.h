//===- Uncertain.h - Values tlc only bounds (private) -----------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Values whose Python result depends on objects tlc does not model (a
// module outside TileLang, an opaque call result), which tlc must not
// decide:
// - A comparison with such a value is unknown; its result is an opaque
//   value described kUnmodelledComparison (a comparison of symbolic
//   integers stays "unknown condition", as before).
// - A list built by a comprehension whose filter was unknown keeps every
//   such element (so iterating it still traces every candidate), but holds
//   more than Python's list may: its equality, truth and length are
//   unknown. The mark is kept beside the ListObj, per evaluating thread,
//   and cleared when an Interpreter starts (Comparisons.cpp).
// An `assert` on either is not checked and says so (a remark).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_UNCERTAIN_H
#define TLC_LIB_EVAL_UNCERTAIN_H

#include "tlc/Eval/Value.h"

#include "llvm/ADT/StringRef.h"

namespace tlc::eval {

/// The description of the opaque result of a comparison with a value tlc
/// does not model.
inline constexpr llvm::StringLiteral kUnmodelledComparison =
    "comparison with a value";

/// Marks the list \p list as holding more elements than Python's may.
void markUncertain(Value list);
/// True for a non-empty list marked by markUncertain.
bool isUncertain(Value v);
/// Drops every mark (a new evaluation starts).
void forgetUncertainValues();
/// True when \p v is a value tlc does not model, an uncertain list, or a
/// tuple or list holding one.
bool involvesUnmodelled(Value v);
/// The `if` branches being run on an assumption (their condition is a
/// value tlc does not model) around the code evaluated now, per evaluating
/// thread. A call past the maximum depth there raises RecursionError
/// (the assumption may be what recurses, isinstance of an opaque node in
/// a tree visitor), which the outermost such branch ends as not analysed.
unsigned &assumedBranchDepth();

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_UNCERTAIN_H
