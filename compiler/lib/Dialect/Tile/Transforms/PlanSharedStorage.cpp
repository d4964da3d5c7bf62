//===- PlanSharedStorage.cpp - The --tile-plan-shared-storage pass
//---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Records how the CUDA and HIP printers store each shared allocation of a
// lowered kernel (SharedStoragePlan.h): the choice of chooseSharedStorage,
// read back by planSharedStorage and checked by the printer.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/SharedStoragePlan.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"

#include "mlir/IR/Builders.h"

#include "llvm/Support/MathExtras.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANSHAREDSTORAGE
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static constexpr llvm::StringLiteral kStorage = "tile.storage";

static bool isSharedAlloc(Operation *op) {
  auto alloc = dyn_cast<AllocOp>(op);
  if (!alloc)
    return false;
  MemoryScope scope = cast<BufferType>(alloc.getType()).getScope();
  return scope == MemoryScope::Shared || scope == MemoryScope::SharedDyn;
}

void tlc::tile::recordSharedStorage(
    KernelOp kernel, const DenseMap<Value, SharedStorage> &plan) {
  Builder b(kernel.getContext());
  kernel.walk([&](AllocOp alloc) {
    alloc->removeAttr(kStorage);
    auto it = plan.find(alloc.getResult());
    if (it == plan.end() || !isSharedAlloc(alloc))
      return;
    const SharedStorage &s = it->second;
    SmallVector<NamedAttribute> fields;
    auto field = [&](StringRef name, Attribute value) {
      fields.push_back(b.getNamedAttr(name, value));
    };
    switch (s.kind) {
    case SharedStorage::Kind::Linear:
      return;
    case SharedStorage::Kind::RowSwizzle:
    case SharedStorage::Kind::Panels:
      field("kind", b.getStringAttr(s.kind == SharedStorage::Kind::Panels
                                        ? "panels"
                                        : "row_swizzle"));
      field("chunks", b.getI64IntegerAttr(s.chunks));
      break;
    case SharedStorage::Kind::LdsSwizzle:
      field("kind", b.getStringAttr("lds_swizzle"));
      field("vec", b.getI64IntegerAttr(s.lds.vec));
      field("per_phase", b.getI64IntegerAttr(s.lds.perPhase));
      field("max_phase", b.getI64IntegerAttr(s.lds.maxPhase));
      break;
    }
    alloc->setAttr(kStorage, b.getDictionaryAttr(fields));
  });
}

/// The storage \p attr records for \p root, or an error text.
static FailureOr<SharedStorage> readStorage(Attribute attr, Value root,
                                            const SharedStorageTarget &target,
                                            std::string &why) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto kind = dict ? dict.getAs<StringAttr>("kind") : StringAttr();
  if (!kind) {
    why = "tile.storage must be a dictionary with a string `kind`";
    return failure();
  }
  auto integer = [&](StringRef name) -> std::optional<int64_t> {
    auto value = dict.getAs<IntegerAttr>(name);
    if (!value) {
      why = ("tile.storage " + kind.getValue() + " needs an integer `" + name +
             "`")
                .str();
      return std::nullopt;
    }
    return value.getInt();
  };
  auto type = cast<BufferType>(root.getType());
  int64_t rowBytes = type.getRank()
                         ? type.getShape().back() *
                               getElementStorageBytes(type.getElementType())
                         : 0;
  SharedStorage s;
  if (kind.getValue() == "row_swizzle") {
    std::optional<int64_t> chunks = integer("chunks");
    if (!chunks)
      return failure();
    if (*chunks != rowBytes / 16 || rowBytes % 16 ||
        !(*chunks == 2 || *chunks == 4 || (*chunks > 0 && *chunks % 8 == 0))) {
      why = "a row swizzle of " + std::to_string(*chunks) +
            " chunks on rows of " + std::to_string(rowBytes) +
            " bytes (it permutes a row's own 16-byte chunks: 2, 4 or a "
            "multiple of 8 of them)";
      return failure();
    }
    s.kind = SharedStorage::Kind::RowSwizzle;
    s.chunks = *chunks;
    return s;
  }
  if (kind.getValue() == "panels") {
    std::optional<int64_t> chunks = integer("chunks");
    if (!chunks)
      return failure();
    auto swizzle =
        root.getDefiningOp()->getAttrOfType<IntegerAttr>("tile.swizzle");
    if (target.hip || !swizzle || swizzle.getInt() != *chunks * 16 ||
        !(*chunks == 2 || *chunks == 4 || *chunks == 8)) {
      why = "descriptor panels of " + std::to_string(*chunks * 16) +
            "-byte rows on a buffer whose descriptors read " +
            (target.hip || !swizzle
                 ? std::string("none")
                 : std::to_string(swizzle.getInt()) + "-byte panels");
      return failure();
    }
    s.kind = SharedStorage::Kind::Panels;
    s.chunks = *chunks;
    return s;
  }
  if (kind.getValue() == "lds_swizzle") {
    std::optional<int64_t> vec = integer("vec");
    std::optional<int64_t> perPhase = vec ? integer("per_phase") : std::nullopt;
    std::optional<int64_t> maxPhase =
        perPhase ? integer("max_phase") : std::nullopt;
    if (!maxPhase)
      return failure();
    auto pow2 = [](int64_t x) { return x > 0 && llvm::isPowerOf2_64(x); };
    int64_t cols = type.getRank() ? type.getShape().back() : 0;
    if (!target.hip || !pow2(*vec) || !pow2(*perPhase) || !pow2(*maxPhase) ||
        cols % (*vec * *maxPhase)) {
      why = "an LDS swizzle (vec " + std::to_string(*vec) + ", per_phase " +
            std::to_string(*perPhase) + ", max_phase " +
            std::to_string(*maxPhase) + ") " +
            (target.hip ? "that does not permute rows of " +
                              std::to_string(cols) + " elements"
                        : "on a CUDA target");
      return failure();
    }
    s.kind = SharedStorage::Kind::LdsSwizzle;
    s.lds.vec = *vec;
    s.lds.perPhase = *perPhase;
    s.lds.maxPhase = *maxPhase;
    return s;
  }
  why = ("unknown tile.storage kind '" + kind.getValue() + "'").str();
  return failure();
}

FailureOr<DenseMap<Value, SharedStorage>> tlc::tile::getRecordedSharedStorage(
    KernelOp kernel, const SharedStorageTarget &target, bool quiet) {
  DenseMap<Value, SharedStorage> plan;
  auto malformed = [&](Operation *op, const Twine &why) {
    if (!quiet)
      op->emitError() << "malformed shared storage plan: " << why
                      << " (tile-plan-shared-storage)";
    return WalkResult::interrupt();
  };
  WalkResult walk = kernel.walk([&](AllocOp alloc) {
    Attribute attr = alloc->getAttr(kStorage);
    if (!attr)
      return WalkResult::advance();
    if (!isSharedAlloc(alloc) || !cast<BufferType>(alloc.getType()).isStatic())
      return malformed(alloc, "tile.storage on an allocation that is no "
                              "static shared buffer");
    std::string why;
    FailureOr<SharedStorage> s =
        readStorage(attr, alloc.getResult(), target, why);
    if (failed(s))
      return malformed(alloc, why);
    plan[alloc.getResult()] = *s;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // What wgmma / tcgen05 descriptors read must be stored in their panels.
  for (auto &[root, s] : chooseSharedStorage(kernel, target)) {
    if (s.kind != SharedStorage::Kind::Panels)
      continue;
    auto it = plan.find(root);
    if (it == plan.end() || it->second.kind != SharedStorage::Kind::Panels) {
      (void)malformed(root.getDefiningOp(),
                      "matrix descriptors read this buffer in panels of " +
                          Twine(s.chunks * 16) +
                          "-byte rows, and the plan stores it otherwise");
      return failure();
    }
  }
  return plan;
}

namespace {
struct TilePlanSharedStoragePass final
    : tlc::tile::impl::TilePlanSharedStorageBase<TilePlanSharedStoragePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<SharedStorageTarget> printer =
        parseSharedStorageTarget(getGpuTarget(module, target));
    if (!printer)
      return;
    llvm::StringRef planned =
        forEachGpuKernel(module, target, [&](FuncOp, KernelOp kernel) {
          // Kernels tile-plan-shared-memory placed (the printer's input).
          if (kernel->hasAttr("tile.shared_bytes"))
            recordSharedStorage(kernel, chooseSharedStorage(kernel, *printer));
        });
    if (!planned.empty())
      markModulePlanned(module, kStoragePlanned);
  }
};
} // namespace
