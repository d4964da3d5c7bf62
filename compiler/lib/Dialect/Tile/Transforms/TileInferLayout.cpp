//===- TileInferLayout.cpp - The --tile-infer-layout pass -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs layout inference (LayoutInference.h) on every `tile.kernel` of the
// module and attaches the results: `layout` on `tile.alloc`, `loop_layout`
// on `tile.parallel`.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEINFERLAYOUT
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc::tile;

namespace {
struct TileInferLayoutPass final
    : tlc::tile::impl::TileInferLayoutBase<TileInferLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string name = target;
    if (name.empty())
      if (auto attr = module->getAttrOfType<StringAttr>("tile.target"))
        name = attr.getValue().str();
    if (name.empty())
      name = "sm_80";
    std::optional<LayoutTarget> layoutTarget = parseLayoutTarget(name);
    if (!layoutTarget) {
      // The CPU target has no layouts; anything else is a usage error.
      if (llvm::StringRef(name).ends_with("cpu"))
        return;
      module.emitError() << "unknown layout target '" << name << "'";
      return signalPassFailure();
    }
    MLIRContext *context = &getContext();
    bool failedAny = false;
    module.walk([&](KernelOp kernel) {
      FailureOr<KernelLayouts> layouts =
          inferKernelLayouts(kernel, *layoutTarget);
      if (failed(layouts)) {
        failedAny = true;
        return;
      }
      for (auto &[value, fragment] : layouts->fragments)
        value.getDefiningOp()->setAttr("layout",
                                       encodeFragment(context, fragment));
      for (auto &[value, layout] : layouts->shared)
        value.getDefiningOp()->setAttr("layout", encodeLayout(context, layout));
      for (auto &[op, fragment] : layouts->loops)
        op->setAttr("loop_layout", encodeFragment(context, fragment));
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
