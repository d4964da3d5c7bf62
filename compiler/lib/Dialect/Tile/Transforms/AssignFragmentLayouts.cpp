//===- AssignFragmentLayouts.cpp - Record the fragments' layouts ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-assign-fragment-layouts: chooses every fragment's (thread, register)
// layout for the CUDA/HIP code (FragmentLayouts.h) and records it on the
// fragment's allocation or view, so that the planning passes after it and
// the printers read one answer.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/FragmentLayouts.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Layout/EnumerationLimit.h"

#include "mlir/IR/Diagnostics.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEASSIGNFRAGMENTLAYOUTS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// Whether the printer would refuse to lay out \p kernel before choosing
/// layouts: a thread count it cannot partition over, a fragment of no
/// static positive shape, or a register tile past what layouts enumerate
/// (the printer reports each when it prints the kernel).
static bool isOutsideLayouts(KernelOp kernel, int64_t &threads) {
  std::optional<int64_t> count = kernel.getStaticNumThreads();
  if (!count || *count < 1 || *count > 1024)
    return true;
  threads = *count;
  return kernel
      .walk([](AllocOp alloc) {
        auto t = cast<BufferType>(alloc.getType());
        bool registers = t.getScope() == MemoryScope::Fragment ||
                         t.getScope() == MemoryScope::Local;
        if (!registers)
          return WalkResult::advance();
        if (!t.isStatic() ||
            llvm::any_of(t.getShape(), [](int64_t e) { return e <= 0; }))
          return WalkResult::interrupt();
        return layout::numElementsSaturated(t.getShape()) >
                       layout::kMaxEnumeratedInputs
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct TileAssignFragmentLayoutsPass final
    : tlc::tile::impl::TileAssignFragmentLayoutsBase<
          TileAssignFragmentLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringRef name = getGpuTarget(module, this->target);
    std::optional<FragmentLayoutTarget> layoutTarget =
        getFragmentLayoutTarget(name);
    if (!layoutTarget)
      return; // no GPU target: the CPU target keeps every element
    forEachGpuKernel(module, name, [&](FuncOp func, KernelOp kernel) {
      int64_t threads = 0;
      if (!getUnboundTileParameters(func).empty() ||
          isOutsideLayouts(kernel, threads))
        return;
      // Quiet: a kernel that cannot be laid out is left unrecorded and its
      // printer reports why, once, when it prints it.
      ScopedDiagnosticHandler quiet(&getContext(),
                                    [](Diagnostic &) { return success(); });
      FailureOr<llvm::DenseMap<Value, FragmentHome>> homes =
          getFragmentHomes(kernel, threads, layoutTarget->name);
      if (failed(homes))
        return;
      llvm::DenseMap<Value, ThreadRange> ranges;
      for (auto &[fragment, home] : *homes)
        ranges[fragment] = home.range;
      SmallVector<std::pair<Operation *, Attribute>> chosen;
      IndexIntervals intervals;
      auto record = [&](Value v, const layout::Fragment &f, Operation *,
                        int64_t) {
        chosen.push_back({v.getDefiningOp(), encodeFragment(&getContext(), f)});
        return success();
      };
      if (failed(assignFragmentLayouts(kernel, *layoutTarget, ranges, threads,
                                       intervals, record)))
        return;
      for (auto &[op, attr] : chosen)
        op->setAttr(kFragmentLayoutAttr, attr);
      kernel->setAttr(kFragmentLayoutsAssigned, UnitAttr::get(&getContext()));
    });
  }
};
} // namespace
