//===- IndexNode.h - Node of an index expression (private) ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_LAYOUT_INDEXNODE_H
#define TLC_LIB_LAYOUT_INDEXNODE_H

#include "tlc/Layout/IndexExpr.h"

namespace tlc {
namespace layout {

/// One immutable expression node. Private to the library: clients only see
/// IndexExpr.
struct IndexNode {
  /// The operator.
  IndexKind kind = IndexKind::Const;
  /// Constant value (Const) or input id (Var).
  int64_t value = 0;
  /// Printed name (Var).
  std::string name;
  /// Operands (binary kinds).
  IndexExpr lhs, rhs;

  /// Creates a node without any folding.
  static IndexExpr make(IndexKind kind, int64_t value, std::string name,
                        IndexExpr lhs, IndexExpr rhs);
};

} // namespace layout
} // namespace tlc

#endif // TLC_LIB_LAYOUT_INDEXNODE_H
