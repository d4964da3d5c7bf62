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
// Which stores, at which width, is tile-plan-parallel-vectors' decision
// (VectorPlan.h: deferring a store past the run is only valid when nothing
// in the body reads or writes that tile otherwise); this file follows it
// and refuses a plan it cannot follow.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/VectorPlan.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

FailureOr<Emitter::VectorAccess>
Emitter::ldsVectorStoreAccess(StoreOp store, const FragmentInfo &loop,
                              ArrayRef<unsigned> varDim,
                              ArrayRef<std::string> idx, int64_t width) {
  unsigned last = loop.shape.size() - 1;
  SmallVector<std::string> at;
  SmallVector<std::optional<IndexRange>> ranges;
  for (Value i : store.getIndices()) {
    unsigned d = varDim[cast<BlockArgument>(i).getArgNumber()];
    at.push_back(idx[d]);
    if (d == last)
      ranges.push_back(IndexRange{0, loop.shape[d] - width, width});
    else
      ranges.push_back(IndexRange{0, loop.shape[d] - 1, 1});
  }
  return vectorAccess(store.getBuffer(), at, store, ranges, width);
}

FailureOr<SmallVector<StoreOp>>
Emitter::parallelVectorStores(ParallelOp op, const FragmentInfo *loop,
                              ArrayRef<unsigned> varDim,
                              ArrayRef<int64_t> bound, int64_t &width) {
  width = 1;
  SmallVector<StoreOp> stores;
  // The loop's partition (checked by checkParallelPlans).
  FailureOr<std::optional<ParallelPlan>> planned = getParallelPlan(op);
  if (failed(planned))
    return failure();
  ParallelPlan plan = *planned ? std::move(**planned) : chooseParallelPlan(op);
  SmallVector<AccessVector> vectors;
  if (isModulePlanned(op, kVectorsPlanned)) {
    FailureOr<SmallVector<AccessVector>> recorded = getParallelVectors(op);
    if (failed(recorded))
      return failure();
    vectors = std::move(*recorded);
  } else if (loop && bound.empty()) {
    vectors = chooseParallelVectors(op, plan, loop->shape, loop->vec,
                                    lang.isHip(), sharedStorage, intervals);
  }
  if (vectors.empty())
    return stores;
  auto refuse = [&](Operation *at, const Twine &why) {
    at->emitError() << "T.Parallel vector plan: " << why
                    << " (tile-plan-parallel-vectors)";
    return failure();
  };
  // One run of registers a loop: every vector of it has that width, which
  // divides the runs of consecutive registers of this printer's layout.
  for (const AccessVector &v : vectors) {
    if (v.width != vectors.front().width)
      return refuse(v.access, "vectors of " + Twine(v.width) + " and " +
                                  Twine(vectors.front().width) +
                                  " elements in one loop");
    if (!loop || !bound.empty())
      return refuse(v.access, "the " + lang.name +
                                  " target vectorises only loops a whole "
                                  "fragment partitions");
    if (loop->vec % v.width != 0)
      return refuse(v.access, "the partitioning fragment's layout holds " +
                                  Twine(loop->vec) +
                                  " consecutive elements in consecutive "
                                  "registers; vectors of " +
                                  Twine(v.width) + " do not divide them");
    std::string why = checkParallelVector(
        op, v, plan, loop->shape, lang.isHip(), sharedStorage, intervals);
    if (!why.empty())
      return refuse(v.access, why);
    // And this printer's own addressing proves it.
    SmallVector<std::string> names;
    for (unsigned d = 0; d < loop->shape.size(); ++d)
      names.push_back("c" + std::to_string(d));
    FailureOr<VectorAccess> a = ldsVectorStoreAccess(
        cast<StoreOp>(v.access), *loop, varDim, names, v.width);
    if (failed(a))
      return failure();
    if (!a->condition(v.width).empty())
      return refuse(v.access, "the " + lang.name +
                                  " printer's addressing does not prove "
                                  "the vectors aligned");
    stores.push_back(cast<StoreOp>(v.access));
  }
  width = vectors.front().width;
  return stores;
}
