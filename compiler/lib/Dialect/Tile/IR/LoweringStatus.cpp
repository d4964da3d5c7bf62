//===- LoweringStatus.cpp - What no target can build ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The `what` option of a `tlc.*` intrinsic, or a placeholder.
static StringRef whatOf(IntrinsicOp op) {
  if (DictionaryAttr options = op.getOptionsAttr())
    if (auto what = options.getAs<StringAttr>("what"))
      return what.getValue();
  return "an unknown object";
}

LogicalResult tlc::tile::checkBuildable(ModuleOp module) {
  bool failed = false;
  for (FuncOp func : module.getOps<FuncOp>()) {
    if (hasLoweringFailed(func))
      continue;
    bool funcFailed = false;
    func.walk([&](IntrinsicOp op) {
      StringRef callee = op.getCallee();
      if (callee == "tlc.unmodelled_call")
        op.emitError("cannot build this kernel: it calls '")
            << whatOf(op)
            << "', an object from outside TileLang that tlc does not model";
      else if (callee == "tlc.raised")
        op.emitError("cannot build this kernel: tracing its body raised ")
            << "here (" << whatOf(op) << "), so the rest was never traced";
      else if (callee == "tlc.unknown_value")
        op.emitError("cannot build this kernel: it uses a value from "
                     "outside TileLang that tlc cannot evaluate (")
            << whatOf(op) << ")";
      else
        return;
      funcFailed = true;
    });
    if (funcFailed) {
      markLoweringFailed(func);
      failed = true;
    }
  }
  return failure(failed);
}
