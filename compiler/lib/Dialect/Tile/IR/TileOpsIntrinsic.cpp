//===- TileOpsIntrinsic.cpp - Intrinsic calls and pointer views -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of `tile.intrinsic` (a TileLang primitive without a tile-level op
// of its own), `tile.make_tensor` (a global tensor over a raw pointer) and
// `tile.view` (a buffer seen with another shape or dtype).
//
//===----------------------------------------------------------------------===//

#include "TileOpsDetail.h"

using namespace mlir;
using namespace tlc::tile;

LogicalResult IntrinsicOp::verify() {
  StringRef callee = getCallee();
  if (!callee.starts_with("T.") && !callee.starts_with("tilelang.") &&
      callee != "tlc.unknown_value" && callee != "tlc.unmodelled_call" &&
      callee != "tlc.raised" && callee != "tlc.ascend" &&
      callee != "tlc.unbuildable")
    return emitOpError("callee must name a TileLang primitive (`T.name`) or "
                       "be `tlc.unknown_value`, `tlc.unmodelled_call`, "
                       "`tlc.raised`, `tlc.ascend` or `tlc.unbuildable`, got '")
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

/// Bits of one element of \p type (vectors count all lanes).
static int64_t elementBits(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getNumElements() * elementBits(vec.getElementType());
  return type.getIntOrFloatBitWidth();
}

LogicalResult ViewOp::verify() {
  auto src = cast<BufferType>(getSource().getType());
  auto dst = cast<BufferType>(getResult().getType());
  if (src.getScope() != dst.getScope())
    return emitOpError("keeps the memory scope: '")
           << stringifyMemoryScope(src.getScope()) << "' to '"
           << stringifyMemoryScope(dst.getScope()) << "'";
  if (!src.isStatic() || !dst.isStatic())
    return success();
  auto numElements = [](BufferType b) {
    int64_t n = 1;
    for (int64_t d : b.getShape())
      n *= d;
    return n;
  };
  int64_t srcBits = numElements(src) * elementBits(src.getElementType());
  int64_t dstBits = numElements(dst) * elementBits(dst.getElementType());
  if (srcBits != dstBits)
    return emitOpError("views ")
           << srcBits << " bits of " << src.getShapeString() << " as "
           << dstBits << " bits of " << dst.getShapeString();
  return success();
}
