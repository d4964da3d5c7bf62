//===- PlanCopies.cpp - The --tile-plan-copies pass -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses how the threads of a block carry out each tile.copy between
// memories on the CUDA and HIP targets (CopyPlan.h: chunk size, vector,
// cp.async or element path, HIP's whole-chunk LDS stores, zero-filling
// instructions) and records it on the copy for the GPU printer.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/CopyPlan.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"

#include "tlc/Dialect/Tile/IR/BoundsGuards.h"
#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANCOPIES
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

using LdsSwizzles = llvm::DenseMap<Value, layout::XorSwizzle>;

namespace {
/// One side of a copy: its root buffer and the copy's (non-unit)
/// dimensions in it.
struct Side {
  Value root;
  BufferType type;
  SmallVector<unsigned> dims;
};
} // namespace

static Value rootOfView(Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

static MemoryScope scopeOfRoot(Value root) {
  return cast<BufferType>(root.getType()).getScope();
}

/// The side \p buffer of a copy with its non-unit dimensions, or nullopt
/// when a dimension is not static.
static std::optional<Side> sideOf(Value buffer, SmallVector<int64_t> &ext) {
  Side side{rootOfView(buffer), cast<BufferType>(buffer.getType()), {}};
  ext.clear();
  for (unsigned d = 0; d < side.type.getRank(); ++d) {
    Dim dim = side.type.getDim(d);
    if (!dim.isStatic())
      return std::nullopt;
    if (dim.getValue() == 1)
      continue;
    side.dims.push_back(d);
    ext.push_back(dim.getValue());
  }
  return side;
}

bool tlc::tile::isPlannedCopy(CopyOp copy) {
  if (copy->hasAttr("tile.tma"))
    return false;
  SmallVector<int64_t> srcExt, dstExt;
  for (Value v : {copy.getSrc(), copy.getDst()}) {
    MemoryScope s = scopeOfRoot(rootOfView(v));
    if (s == MemoryScope::Fragment || s == MemoryScope::TensorMemory)
      return false;
  }
  return sideOf(copy.getSrc(), srcExt) && sideOf(copy.getDst(), dstExt) &&
         srcExt == dstExt;
}

bool tlc::tile::isAsyncCopyContext(CopyOp copy) {
  if (copy->hasAttr("tile.async_copy"))
    return true;
  auto pipe = dyn_cast_or_null<PipelinedOp>(copy->getParentOp());
  return pipe && copy->hasAttr("tile.prefetch") &&
         pipe->hasAttr("tile.stages") && !pipe->hasAttr("tile.tma_barriers");
}

bool tlc::tile::fitsBufferResource(Value root) {
  auto type = cast<BufferType>(root.getType());
  if (type.getScope() != MemoryScope::Global || getParamStrides(root))
    return false;
  // The resource's num_records and offsets are 32-bit: under 2 GiB,
  // 0x80000000 lies past every in-range offset. Symbolic extents are
  // multiplied in at run time.
  int64_t bytes = getElementStorageBytes(type.getElementType());
  for (unsigned d = 0; d < type.getRank(); ++d) {
    Dim dim = type.getDim(d);
    if (!dim.isStatic())
      continue;
    if (__builtin_mul_overflow(bytes, dim.getValue(), &bytes) ||
        bytes >= (int64_t(1) << 31))
      return false;
  }
  return true;
}

bool tlc::tile::keepsLdsRuns(const LdsSwizzles &lds, Value root, int64_t vec) {
  auto it = lds.find(root);
  return it == lds.end() || it->second.maxPhase == 1 ||
         it->second.vec % vec == 0;
}

/// HIP: the run bytes of \p root's LDS swizzle when a chunk of \p vec
/// elements is several runs stored whole, permuted (8- or 16-byte chunks
/// of 4- or 8-byte runs, rows of whole chunks); else 0.
static int64_t permutedRunBytes(const LdsSwizzles &lds, Value root,
                                int64_t vec) {
  auto it = lds.find(root);
  if (it == lds.end() || it->second.maxPhase == 1)
    return 0;
  auto type = cast<BufferType>(root.getType());
  int64_t bytes = getElementStorageBytes(type.getElementType());
  int64_t run = it->second.vec * bytes, chunk = vec * bytes;
  if ((chunk != 8 && chunk != 16) || (run != 4 && run != 8) || run >= chunk ||
      chunk % run != 0 || !type.hasStaticShape() ||
      type.getShape().back() % vec != 0)
    return 0;
  return run;
}

CopyChoice tlc::tile::chooseCopy(CopyOp copy, const CopyTarget &target,
                                 const LdsSwizzles &lds) {
  SmallVector<int64_t> extents;
  std::optional<Side> src = sideOf(copy.getSrc(), extents);
  std::optional<Side> dst = sideOf(copy.getDst(), extents);
  assert(src && dst && "chooseCopy on a copy isPlannedCopy refuses");
  Type srcElem = src->type.getElementType();
  Type dstElem = dst->type.getElementType();
  bool sameType = srcElem == dstElem;
  CopyChoice choice;
  // Chunks of 16 bytes where the innermost extent allows and no
  // conversion happens.
  int64_t vec = 1;
  if (sameType && !extents.empty()) {
    vec = std::max<int64_t>(1, 16 / getElementStorageBytes(srcElem));
    while (vec > 1 && extents.back() % vec != 0)
      vec /= 2;
  }
  // A chunk is contiguous only where the copy's last dimension is the
  // innermost one of both sides (not a column `G[b, s0:s1, h]`) and that
  // dimension's stride is 1 (not a transposed view's).
  for (const Side *side : {&*src, &*dst})
    if ((!side->dims.empty() &&
         side->dims.back() + 1 != side->type.getRank()) ||
        !hasUnitInnerStride(side->root))
      vec = 1;
  // A HIP LDS tile swizzled in shorter runs keeps only those contiguous:
  // smaller chunks, except that whole chunks may be stored into it with
  // their runs permuted.
  for (const Side *side : {&*src, &*dst})
    while (vec > 1 && !keepsLdsRuns(lds, side->root, vec)) {
      if (side == &*dst && sameType && target.hip &&
          (choice.xorRunBytes = permutedRunBytes(lds, dst->root, vec)))
        break;
      vec /= 2;
    }
  choice.vec = vec;
  int64_t vecBytes = vec * getElementStorageBytes(dstElem);
  // (Packed fp4 / int4 go element by element: vectors count bytes.)
  bool vector = sameType && vec > 1 && !isPackedNibble(srcElem) &&
                (vecBytes == 4 || vecBytes == 8 || vecBytes == 16);
  if (!vector) {
    choice.xorRunBytes = 0;
    return choice;
  }
  // cp.async reads global memory (`.shared.global`): a shared source is a
  // synchronous copy even where the copy is asynchronous.
  bool async = target.asyncCopy && isAsyncCopyContext(copy) &&
               isSharedScope(scopeOfRoot(dst->root)) &&
               scopeOfRoot(src->root) == MemoryScope::Global;
  choice.instr = async ? CopyInstr::CpAsync : CopyInstr::Vector;
  // What an out-of-range read gives: zero unless T.annotate_safe_value
  // registers another value (tile-legalize-bounds' `tile.bounds`).
  std::optional<BoundsGuard> guard = getBoundsGuard(copy, src->root);
  bool zeroSafe = !guard || guard->readsZero();
  if (async)
    choice.zeroFill = zeroSafe;
  else if (target.hip)
    choice.zeroFill = zeroSafe &&
                      scopeOfRoot(src->root) == MemoryScope::Global &&
                      fitsBufferResource(src->root);
  return choice;
}

llvm::StringRef tlc::tile::stringifyCopyInstr(CopyInstr instr) {
  switch (instr) {
  case CopyInstr::Element:
    return "element";
  case CopyInstr::Vector:
    return "vector";
  case CopyInstr::CpAsync:
    return "cp.async";
  }
  llvm_unreachable("unknown copy instruction");
}

void tlc::tile::setCopyChoice(CopyOp copy, const CopyChoice &choice) {
  Builder b(copy.getContext());
  copy->setAttr("tile.instr",
                b.getStringAttr(stringifyCopyInstr(choice.instr)));
  copy->setAttr("tile.vec", b.getI64IntegerAttr(choice.vec));
  if (choice.xorRunBytes)
    copy->setAttr("tile.xor_runs", b.getI64IntegerAttr(choice.xorRunBytes));
  if (choice.zeroFill)
    copy->setAttr("tile.zero_fill", b.getUnitAttr());
}

FailureOr<std::optional<CopyChoice>> tlc::tile::getCopyChoice(CopyOp copy) {
  Attribute instrAttr = copy->getAttr("tile.instr");
  if (!instrAttr)
    return std::optional<CopyChoice>();
  auto instr = dyn_cast<StringAttr>(instrAttr);
  auto vec = copy->getAttrOfType<IntegerAttr>("tile.vec");
  Attribute runs = copy->getAttr("tile.xor_runs");
  CopyChoice choice;
  std::optional<CopyInstr> kind;
  if (instr)
    for (CopyInstr k :
         {CopyInstr::Element, CopyInstr::Vector, CopyInstr::CpAsync})
      if (instr.getValue() == stringifyCopyInstr(k))
        kind = k;
  if (!kind || !vec || vec.getInt() < 1 || !llvm::isPowerOf2_64(vec.getInt()) ||
      (runs &&
       (!isa<IntegerAttr>(runs) || (cast<IntegerAttr>(runs).getInt() != 4 &&
                                    cast<IntegerAttr>(runs).getInt() != 8)))) {
    copy.emitError("malformed copy plan: tile.instr must be \"element\", "
                   "\"vector\" or \"cp.async\" with tile.vec a power of two "
                   "and tile.xor_runs 4 or 8 (tile-plan-copies)");
    return failure();
  }
  choice.instr = *kind;
  choice.vec = vec.getInt();
  choice.xorRunBytes = runs ? cast<IntegerAttr>(runs).getInt() : 0;
  choice.zeroFill = copy->hasAttr("tile.zero_fill");
  return std::optional<CopyChoice>(choice);
}

namespace {
struct TilePlanCopiesPass final
    : tlc::tile::impl::TilePlanCopiesBase<TilePlanCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringRef name = getGpuTarget(module, target);
    CopyTarget copyTarget;
    copyTarget.hip = name.starts_with("hip:");
    copyTarget.asyncCopy = name.starts_with("cuda:");
    forEachGpuKernel(module, target, [&](FuncOp, KernelOp kernel) {
      LdsSwizzles lds;
      if (copyTarget.hip)
        lds = planLdsSwizzles(kernel);
      kernel.walk([&](CopyOp copy) {
        if (isPlannedCopy(copy))
          setCopyChoice(copy, chooseCopy(copy, copyTarget, lds));
      });
    });
  }
};
} // namespace
