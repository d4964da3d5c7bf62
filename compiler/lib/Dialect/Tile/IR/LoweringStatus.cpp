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

/// The TileLang name that makes \p op Ascend-only (BuiltinsAscend.def),
/// or empty.
static std::string ascendOnly(Operation *op) {
  if (auto alloc = dyn_cast<AllocOp>(op)) {
    switch (cast<BufferType>(alloc.getType()).getScope()) {
    case MemoryScope::AscendL1:
      return "T.alloc_l1";
    case MemoryScope::AscendL0A:
      return "T.alloc_l0a";
    case MemoryScope::AscendL0B:
      return "T.alloc_l0b";
    case MemoryScope::AscendL0C:
      return "T.alloc_l0c";
    case MemoryScope::AscendUB:
      return "T.alloc_ub";
    default:
      return "";
    }
  }
  auto intrinsic = dyn_cast<IntrinsicOp>(op);
  if (!intrinsic)
    return "";
  StringRef callee = intrinsic.getCallee();
  if (callee == "tlc.ascend")
    return whatOf(intrinsic).str();
  static const char *const names[] = {
      "T.set_hf32_mode",        "T.dual_copy", "T.ascend_sync_inter_wait",
      "T.ascend_sync_inter_arrive", "T.set_atomic", "T.set_atomic_none"};
  if (callee.starts_with("T.simd.") || callee.starts_with("T.ascend_") ||
      llvm::is_contained(names, callee))
    return callee.str();
  return "";
}

LogicalResult tlc::tile::checkBuildable(ModuleOp module) {
  bool failed = false;
  for (FuncOp func : module.getOps<FuncOp>()) {
    if (hasLoweringFailed(func))
      continue;
    // A kernel written for TileLang's Ascend back end: one error, at the
    // first Ascend-only name.
    Operation *ascendAt = nullptr;
    std::string ascendName;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      std::string name = ascendOnly(op);
      if (name.empty())
        return WalkResult::advance();
      ascendAt = op;
      ascendName = name;
      return WalkResult::interrupt();
    });
    if (ascendAt) {
      ascendAt->emitError("cannot build this kernel: it is written for "
                          "Huawei Ascend NPUs (")
          << ascendName
          << ", TileLang's Ascend back end), which tlc does not target; "
             "--check and the language server analyse it";
      markLoweringFailed(func);
      failed = true;
      continue;
    }
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
      else if (callee == "tlc.unbuildable")
        op.emitError("cannot build this kernel: ") << whatOf(op);
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
