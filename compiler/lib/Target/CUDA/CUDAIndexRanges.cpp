//===- CUDAIndexRanges.cpp - Alignment and width of index values ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the printer derives from the intervals of index values
// (tile::IndexIntervals): a vector alignment test is dropped only where
// the divisors prove it, and the C++ width of `index` values is 32-bit
// unless a constant or extent needs more.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/VectorPlan.h"

#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

bool Emitter::provenAligned(const RootAccess &access, int64_t vec) {
  if (vec <= 1)
    return true;
  auto type = cast<BufferType>(access.root.getType());
  unsigned rank = access.indices.size();
  if (access.ranges.size() != rank || rank == 0)
    return false;
  if (getParamStrides(access.root)) {
    // A strided parameter: each index times its stride. A vector runs along
    // a unit innermost stride only (hasUnitInnerStride); a symbolic stride
    // proves nothing unless its index is 0.
    std::optional<SmallVector<int64_t>> st = getStaticStrides(access.root);
    for (unsigned d = 0; d < rank; ++d) {
      const std::optional<IndexRange> &r = access.ranges[d];
      if (r && r->div == 0 && r->lo == 0)
        continue;
      int64_t div = r ? r->div : 1;
      if (!st ||
          !(div == 0 || (*st)[d] % vec == 0 || (div * (*st)[d]) % vec == 0))
        return false;
    }
    return hasUnitInnerStride(access.root);
  }
  // Through the storage planSharedStorage chose (VectorPlan.h: the same
  // proof tile-plan-parallel-vectors makes).
  auto stored = sharedStorage.find(access.root);
  return isProvenAligned(type, access.ranges, vec,
                         stored == sharedStorage.end() ? nullptr
                                                       : &stored->second);
}

void Emitter::chooseIndexWidth() {
  // 32-bit unless a constant or a static extent of the function needs more;
  // the global element offset of a large buffer is widened where it is
  // formed (linearIndex).
  const int64_t int32Max = (int64_t(1) << 31) - 1;
  wideIndex = false;
  func.walk([&](Operation *op) {
    IntegerAttr cst;
    for (Value r : op->getResults()) {
      if (isa<IndexType>(r.getType()) && matchPattern(r, m_Constant(&cst)) &&
          (cst.getInt() > int32Max || cst.getInt() < -int32Max))
        wideIndex = true;
      if (auto bt = dyn_cast<BufferType>(r.getType()))
        for (int64_t e : bt.getShape())
          if (e > int32Max)
            wideIndex = true;
    }
  });
  for (Value arg : func.getArguments())
    if (auto bt = dyn_cast<BufferType>(arg.getType()))
      for (unsigned d = 0; d < bt.getRank(); ++d)
        if (bt.getDim(d).isStatic() && bt.getDim(d).getValue() > int32Max)
          wideIndex = true;
}
