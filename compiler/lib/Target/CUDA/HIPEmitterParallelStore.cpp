//===- HIPEmitterParallelStore.cpp - Vector LDS stores of T.Parallel (HIP) ===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An epilogue `C_s[i, j] = acc[i, j] * alpha` over an MFMA accumulator runs
// each thread over its registers, and a lane of the CDNA C layouts holds
// runs of 4 consecutive columns. Stored element by element, that is one
// ds_write_b32 (f32) or ds_write_b16 (f16) per register. When every run of
// loop.vec registers lands on consecutive, aligned LDS elements, the HIP
// printer runs the body over the run's registers with each such store
// writing a register slot, then stores the slots as one vector
// (ds_write_b64 / ds_write_b128). The bank-conflict analysis models the
// same instruction (SharedAccessLoops.cpp: planParallel).
//
// Deferring a store past the run is only valid when nothing in the body
// reads or writes that tile otherwise: such loops keep the element stores.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

FailureOr<Emitter::VectorAccess>
Emitter::ldsVectorStoreAccess(StoreOp store, const FragmentInfo &loop,
                              ArrayRef<unsigned> varDim,
                              ArrayRef<std::string> idx) {
  unsigned last = loop.shape.size() - 1;
  SmallVector<std::string> at;
  SmallVector<std::optional<IndexRange>> ranges;
  for (Value i : store.getIndices()) {
    unsigned d = varDim[cast<BlockArgument>(i).getArgNumber()];
    at.push_back(idx[d]);
    if (d == last)
      ranges.push_back(IndexRange{0, loop.shape[d] - loop.vec, loop.vec});
    else
      ranges.push_back(IndexRange{0, loop.shape[d] - 1, 1});
  }
  return vectorAccess(store.getBuffer(), at, store, ranges, loop.vec);
}

SmallVector<StoreOp> Emitter::ldsVectorStores(ParallelOp op,
                                              const FragmentInfo &loop,
                                              ArrayRef<unsigned> varDim) {
  SmallVector<StoreOp> stores;
  if (!lang.isHip() || loop.vec < 2 || loop.shape.empty() ||
      varDim.size() != op.getInductionVars().size() ||
      loop.shape.size() != varDim.size())
    return stores;
  unsigned last = loop.shape.size() - 1;
  Block &body = op.getBody().front();
  auto qualifies = [&](StoreOp s) {
    Value root = rootOf(s.getBuffer());
    auto rootType = cast<BufferType>(root.getType());
    auto type = cast<BufferType>(s.getBuffer().getType());
    if (!isSharedScope(scopeOf(root)) || !rootType.isStatic() ||
        type.getRank() != rootType.getRank() || type.getRank() == 0 ||
        !hasUnitInnerStride(root))
      return false;
    int64_t bytes = loop.vec * getElementStorageBytes(type.getElementType());
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return false;
    // The vector's elements stay consecutive in a swizzled tile.
    auto sw = ldsSwizzle.find(root);
    if (sw != ldsSwizzle.end() && sw->second.vec % loop.vec != 0)
      return false;
    // Indices: loop variables, the last one on the layout's vector
    // dimension and no other on it.
    ValueRange indices = s.getIndices();
    for (auto [k, i] : llvm::enumerate(indices)) {
      auto arg = dyn_cast<BlockArgument>(i);
      if (!arg || arg.getOwner() != &body)
        return false;
      bool onLast = varDim[arg.getArgNumber()] == last;
      if (onLast != (k + 1 == indices.size()))
        return false;
    }
    // Proven in bounds and aligned at every run (no element path).
    SmallVector<std::string> names;
    for (unsigned d = 0; d <= last; ++d)
      names.push_back("c" + std::to_string(d));
    FailureOr<VectorAccess> a = ldsVectorStoreAccess(s, loop, varDim, names);
    return succeeded(a) && a->condition(loop.vec).empty();
  };
  for (Operation &o : body)
    if (auto s = dyn_cast<StoreOp>(&o); s && qualifies(s))
      stores.push_back(s);
  // Nothing else in the body may touch a deferred store's tile.
  llvm::DenseMap<Value, int> accesses;
  op.getBody().walk([&](Operation *o) {
    if (auto l = dyn_cast<LoadOp>(o))
      ++accesses[rootOf(l.getBuffer())];
    else if (auto s = dyn_cast<StoreOp>(o))
      ++accesses[rootOf(s.getBuffer())];
    else if (o->getNumRegions() == 0 && !isMemoryEffectFree(o))
      for (Value v : o->getOperands())
        if (isa<BufferType>(v.getType()))
          accesses[rootOf(v)] += 2;
  });
  llvm::erase_if(
      stores, [&](StoreOp s) { return accesses[rootOf(s.getBuffer())] != 1; });
  return stores;
}
