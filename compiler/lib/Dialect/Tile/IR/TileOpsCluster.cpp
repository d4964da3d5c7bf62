//===- TileOpsCluster.cpp - Cluster launch control ops --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of `tile.clc_try_cancel` and `tile.clc_query` (Blackwell cluster
// launch control): the response is four 32-bit words of shared memory, the
// completion an mbarrier, and each query has its fixed result type.
//
//===----------------------------------------------------------------------===//

#include "TileOpsDetail.h"

using namespace mlir;
using namespace tlc::tile;

/// Checks that \p value is a static shared buffer of four 32-bit integers
/// (a `[4]` buffer or a region of one, such as `[1, 4]`): the 16 bytes of a
/// cluster launch control response.
static LogicalResult verifyResponse(Operation *op, Value value) {
  auto type = cast<BufferType>(value.getType());
  if (!isSharedScope(type.getScope()))
    return op->emitOpError("the response must be in shared memory, not '")
           << stringifyMemoryScope(type.getScope()) << "'";
  auto elem = dyn_cast<IntegerType>(type.getElementType());
  if (!elem || elem.getWidth() != 32)
    return op->emitOpError("the response must be of 32-bit integers, not ")
           << type.getElementType();
  if (!type.isStatic())
    return op->emitOpError("the response must have a static shape");
  int64_t n = 1;
  for (int64_t d : type.getShape())
    n *= d;
  if (n != 4)
    return op->emitOpError("the response must hold 4 words (16 bytes), not ")
           << n;
  return success();
}

LogicalResult ClcTryCancelOp::verify() {
  if (failed(verifyResponse(*this, getResponse())))
    return failure();
  auto bar = cast<BufferType>(getMbarrier().getType());
  // An mbarrier is a 64-bit word of shared memory: TileLang also passes
  // one element of a shared uint64 buffer (upstream issue 2602's test).
  auto word = dyn_cast<IntegerType>(bar.getElementType());
  bool sharedWord =
      isSharedScope(bar.getScope()) && word && word.getWidth() == 64;
  if (!isBarrierScope(bar.getScope()) && !sharedWord)
    return emitOpError("completes on an mbarrier (a T.alloc_barrier or "
                       "T.alloc_cluster_barrier element, or a 64-bit word of "
                       "shared memory), not a '")
           << stringifyMemoryScope(bar.getScope()) << "' "
           << bar.getElementType() << " buffer";
  if (!bar.isStatic() || bar.getRank() != 1 || bar.getShape()[0] != 1)
    return emitOpError("completes on one mbarrier (a [1] region), not ")
           << bar.getShapeString();
  return success();
}

LogicalResult ClcQueryOp::verify() {
  if (failed(verifyResponse(*this, getResponse())))
    return failure();
  unsigned width = getKind() == ClcQueryKind::IsCanceled ? 1 : 32;
  auto type = dyn_cast<IntegerType>(getValue().getType());
  if (!type || type.getWidth() != width)
    return emitOpError("'")
           << stringifyClcQueryKind(getKind()) << "' gives an i" << width
           << ", not " << getValue().getType();
  return success();
}
