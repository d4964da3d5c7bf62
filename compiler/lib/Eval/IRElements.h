//===- IRElements.h - Element access shared by the IR files -----*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What IRElements.cpp (element reads and writes) gives the other files that
// turn IR-valued Python into operations.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_IRELEMENTS_H
#define TLC_LIB_EVAL_IRELEMENTS_H

#include "IRGen.h"

namespace tlc::eval {

/// `X[T.Ramp(b, s, n)]` read as a value: TVM's vector load of the n lanes,
/// gathered into one vector. A null value when \p r is not such a
/// reference.
mlir::Value rampLoad(Interpreter &in, RegionObj *r, Node at);

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_IRELEMENTS_H
