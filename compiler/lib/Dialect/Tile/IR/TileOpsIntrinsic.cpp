//===- TileOpsIntrinsic.cpp - Intrinsic calls and pointer views -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of `tile.intrinsic` (a TileLang primitive without a tile-level op
// of its own) and `tile.make_tensor` (a global tensor over a raw pointer).
//
//===----------------------------------------------------------------------===//

#include "TileOpsDetail.h"

using namespace mlir;
using namespace tlc::tile;

LogicalResult IntrinsicOp::verify() {
  StringRef callee = getCallee();
  if (!callee.starts_with("T.") && !callee.starts_with("tilelang."))
    return emitOpError("callee must name a TileLang primitive (`T.name`), "
                       "got '")
           << callee << "'";
  if (getResults().size() > 1)
    return emitOpError("has at most one result, got ")
           << getResults().size();
  ArrayAttr params = getParams();
  if (!params.empty() && params.size() != getArgs().size())
    return emitOpError("names ")
           << params.size() << " parameters for " << getArgs().size()
           << " operands";
  return success();
}

LogicalResult MakeTensorOp::verify() {
  auto type = cast<BufferType>(getResult().getType());
  if (type.getScope() != MemoryScope::Global)
    return emitOpError("makes a global tensor, not a '")
           << stringifyMemoryScope(type.getScope()) << "' buffer";
  auto ptrType = cast<IntegerType>(getPtr().getType());
  if (ptrType.getWidth() != 64)
    return emitOpError("expects a 64-bit address, got ") << ptrType;
  return success();
}
