//===- CppEmitterBarriers.cpp - The GPU's barriers on the CPU target ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TileLang orders the shared-memory accesses of a kernel's threads itself:
// a thread reading what another thread of the block wrote since the last
// barrier gets a barrier placed before the read, whether or not the
// program wrote one (T.sync_threads is optional). The GPU lowering does
// this in tile-insert-barriers; the CPU target runs per-thread code one
// thread after the other, once per phase between barriers, so without the
// same barriers a thread read the shared tile before the other threads of
// its phase had written it (a silent wrong answer: the Hadamard transform
// example exchanging rows through shared memory). The kernel is emitted
// from a copy with tile-insert-barriers' `tile.barrier` ops, which end a
// phase among the threads running them, as on the GPU.
//
// Kernels with mbarrier waits run their threads as fibers and order their
// thread groups themselves: they are emitted as written.
//
// The same copy carries the target-independent rewrites the GPU lowering
// starts with and the CPU target needs too: tile-rotate-pipelines (an
// explicitly staged T.Pipelined as TileLang's rotated schedule) and
// tile-lower-im2col (T.im2col as its element loop).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

/// Whether the CPU target runs \p func's kernels thread by thread (they
/// read the thread index) without fibers (no mbarrier wait).
static bool runsThreadByThread(tile::FuncOp func) {
  bool perThread = false, mbarrierWait = false;
  func.walk([&](Operation *op) {
    if (isa<tile::ThreadBindingOp>(op))
      perThread = true;
    if (auto in = dyn_cast<tile::IntrinsicOp>(op))
      if (in.getCallee() == "T.barrier_wait" ||
          in.getCallee() == "T.mbarrier_wait_parity")
        mbarrierWait = true;
  });
  return perThread && !mbarrierWait;
}

FailureOr<OwningOpRef<ModuleOp>>
tlc::target::detail::withSharedMemoryBarriers(tile::FuncOp func) {
  bool threads = runsThreadByThread(func), im2col = false, staged = false;
  func.walk([&](tile::IntrinsicOp op) {
    im2col |= op.getCallee() == "T.im2col";
  });
  func.walk([&](tile::PipelinedOp op) {
    staged |= op.getStage() && op.getOrder();
  });
  if (!threads && !im2col && !staged)
    return OwningOpRef<ModuleOp>();
  OpBuilder b(func.getContext());
  OwningOpRef<ModuleOp> copy = ModuleOp::create(func.getLoc());
  if (auto parent = func->getParentOfType<ModuleOp>())
    for (NamedAttribute a : parent->getAttrs())
      if (a.getName() != "sym_name")
        (*copy)->setAttr(a.getName(), a.getValue());
  b.setInsertionPointToEnd(copy->getBody());
  b.clone(*func.getOperation());
  PassManager pm(func.getContext());
  pm.enableVerifier(false);
  // Per-range fragment copies first: a repeated statement of a staged
  // loop takes its place in the schedule the rotation reads.
  if (threads)
    pm.addPass(tile::createTileSplitRangeFragments());
  if (staged)
    pm.addPass(tile::createTileRotatePipelines());
  if (im2col)
    pm.addPass(tile::createTileLowerIm2col());
  if (threads)
    pm.addPass(tile::createTileInsertBarriers());
  if (failed(pm.run(*copy)))
    return failure();
  // A rewrite that could not lower the function said why at the op.
  for (auto f : copy->getOps<tile::FuncOp>())
    if (tile::hasLoweringFailed(f))
      return failure();
  // A barrier placed between a per-thread view (`tile.region` at the thread
  // index) and the copy using it would make the CPU target keep the view
  // across phases: each barrier goes up past the operations before it that
  // touch no memory, which it need not follow.
  (*copy)->walk([](tile::BarrierOp barrier) {
    Operation *prev = barrier->getPrevNode();
    while (prev && prev->getNumRegions() == 0 && isMemoryEffectFree(prev))
      prev = prev->getPrevNode();
    Operation *first = prev ? prev->getNextNode()
                            : &barrier->getBlock()->front();
    if (first != barrier.getOperation())
      barrier->moveBefore(first);
  });
  return copy;
}
