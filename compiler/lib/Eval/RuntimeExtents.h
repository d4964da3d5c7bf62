//===- RuntimeExtents.h - Region extents known only at run time -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A slice whose extent has no symbolic form (`Q[s:e, h, :]`, s and e read
// from memory) is an unknown (`?`) extent of its region; its value when
// the kernel runs is `e - s`, an `index` IR value, kept beside the
// RegionObj for T.copy (which lowers such copies element by element).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_RUNTIMEEXTENTS_H
#define TLC_LIB_EVAL_RUNTIMEEXTENTS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace tlc::eval {

struct RegionObj;

/// The run-time extent of each dimension of \p r whose extent is unknown
/// (null elsewhere; empty when \p r has none).
llvm::SmallVector<mlir::Value, 4> &regionRuntimeExtents(const RegionObj *r);

/// Drops what regionRuntimeExtents holds for \p r (a region just made).
void forgetRuntimeExtents(const RegionObj *r);

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_RUNTIMEEXTENTS_H
