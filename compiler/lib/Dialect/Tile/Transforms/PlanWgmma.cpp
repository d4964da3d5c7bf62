//===- PlanWgmma.cpp - The --tile-plan-wgmma pass -------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses wgmma.mma_async for the gemms of an sm_90a kernel that it can
// compute and lays out their shared operands for its matrix descriptors
// (Passes.td has the contract). The choice is the layout library's
// (layout::selectGemmInstr on the sm_90 family), so the layouts layout
// inference reports are those of the instruction the printer generates,
// narrowed to the operands the printer reads through descriptors.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/SharedLayouts.h"
#include "tlc/Layout/WgmmaLayouts.h"

#include "llvm/ADT/DenseSet.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANWGMMA
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The matrix shape of \p t without leading unit dimensions.
static SmallVector<int64_t> matrixShape(BufferType t) {
  SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
  while (s.size() > 2 && s.front() == 1)
    s.erase(s.begin());
  return s;
}

/// The swizzle (row bytes) a shared operand allocation of \p gemm gets, or
/// nothing when \p v is not one wgmma can read. \p mnStep: as
/// layout::makeWgmmaOperandLayout's (the layout inference gives the buffer).
static std::optional<int64_t> operandSwizzle(Value v, int64_t mnStep = 0) {
  auto alloc = v.getDefiningOp<AllocOp>();
  auto t = cast<BufferType>(v.getType());
  if (!alloc || !isSharedScope(t.getScope()) || !t.isStatic() ||
      matrixShape(t).size() != 2)
    return std::nullopt;
  unsigned bits = getElementStorageBytes(t.getElementType()) * 8;
  layout::Layout l = layout::makeWgmmaOperandLayout(t.getShape(), bits, mnStep);
  switch (l.getKind()) {
  case layout::LayoutKind::Swizzle32B:
    return 32;
  case layout::LayoutKind::Swizzle64B:
    return 64;
  case layout::LayoutKind::Swizzle128B:
    return 128;
  default:
    return std::nullopt;
  }
}

/// The step of \p gemm's instruction starts along B's contiguous N when B
/// is N-major (stored [K, N]) in a block of \p threads threads, else 0.
static int64_t bMnStep(GemmOp gemm, int64_t threads);

/// Whether \p v is a whole static 2-D fragment that wgmma can take as its
/// register A operand of a \p gemm (16-bit elements, stored [M, K]).
static bool isRegisterA(GemmOp gemm, Value v) {
  auto t = cast<BufferType>(v.getType());
  Type e = t.getElementType();
  return v.getDefiningOp<AllocOp>() && t.getScope() == MemoryScope::Fragment &&
         t.isStatic() && t.getRank() == 2 && (e.isF16() || e.isBF16()) &&
         !gemm.getTransposeA();
}

/// Whether \p gemm in a kernel of \p threads threads takes wgmma.
static bool takesWgmma(GemmOp gemm, int64_t threads) {
  auto a = cast<BufferType>(gemm.getA().getType());
  auto b = cast<BufferType>(gemm.getB().getType());
  auto c = cast<BufferType>(gemm.getC().getType());
  Type ab = a.getElementType(), acc = c.getElementType();
  bool is16 = ab.isF16() || ab.isBF16();
  bool isFp8 = isa<Float8E4M3FNType, Float8E5M2Type>(ab);
  if (!(is16 || isFp8) || b.getElementType() != ab || !acc.isF32())
    return false;
  SmallVector<int64_t> as = matrixShape(a), cs = matrixShape(c);
  if (!a.isStatic() || !c.isStatic() || as.size() != 2 || cs.size() != 2)
    return false;
  layout::GemmConfig cfg;
  cfg.arch = layout::GemmArch::SM90;
  cfg.transA = gemm.getTransposeA();
  cfg.transB = gemm.getTransposeB();
  cfg.m = cs[0];
  cfg.n = cs[1];
  cfg.k = cfg.transA ? as[0] : as[1];
  cfg.abBits = is16 ? 16 : 8;
  cfg.accBits = 32;
  cfg.threads = threads;
  cfg.policy = toLayoutWarpPolicy(gemm.getPolicy());
  if (layout::selectGemmInstr(cfg) != layout::GemmInstr::WGMMA)
    return false;
  llvm::Expected<layout::WarpPartition> p = layout::gemmWarpPartition(cfg);
  if (!p) {
    llvm::consumeError(p.takeError());
    return false;
  }
  int64_t groups = p->warpRows / 4;
  if (groups == 0 || cfg.m % (groups * 64) || cfg.n % (p->warpCols * 8))
    return false;
  return (operandSwizzle(gemm.getA()) || isRegisterA(gemm, gemm.getA())) &&
         operandSwizzle(gemm.getB(), bMnStep(gemm, threads));
}

static int64_t bMnStep(GemmOp gemm, int64_t threads) {
  auto a = cast<BufferType>(gemm.getA().getType());
  auto c = cast<BufferType>(gemm.getC().getType());
  SmallVector<int64_t> as = matrixShape(a), cs = matrixShape(c);
  if (gemm.getTransposeB() || as.size() != 2 || cs.size() != 2)
    return 0;
  Type ab = a.getElementType();
  layout::GemmConfig cfg;
  cfg.arch = layout::GemmArch::SM90;
  cfg.transA = gemm.getTransposeA();
  cfg.m = cs[0];
  cfg.n = cs[1];
  cfg.k = cfg.transA ? as[0] : as[1];
  cfg.abBits = ab.isF16() || ab.isBF16() ? 16 : 8;
  cfg.threads = threads;
  cfg.policy = toLayoutWarpPolicy(gemm.getPolicy());
  llvm::Expected<layout::WarpPartition> p = layout::gemmWarpPartition(cfg);
  if (!p) {
    llvm::consumeError(p.takeError());
    return 0;
  }
  if (p->warpCols <= 0 || cfg.n % p->warpCols)
    return 0;
  return layout::wgmmaInstructionN(cfg.n / p->warpCols);
}

SmallVector<GemmOp> tlc::tile::selectWgmmaGemms(KernelOp kernel) {
  std::optional<int64_t> threads = kernel.getStaticNumThreads();
  if (!threads || isPassConfigOn(kernel, "tl.disable_wgmma"))
    return {};
  SmallVector<GemmOp> gemms;
  kernel.walk([&](GemmOp gemm) { gemms.push_back(gemm); });
  // A buffer is laid out for one instruction: a gemm reading it with
  // mma.sync keeps every other gemm on it on mma.sync too.
  llvm::DenseSet<Operation *> chosen;
  for (GemmOp gemm : gemms) {
    // A gemm under T.ws / `if tx < c` runs on the warpgroups of its range.
    std::optional<ThreadRange> r = threadRangeOf(gemm, *threads);
    if (!r ||
        (r->condition && (r->lo % 128 || r->count() % 128 || r->count() <= 0)))
      continue;
    if (takesWgmma(gemm, r->count()))
      chosen.insert(gemm);
  }
  for (bool changed = true; changed;) {
    changed = false;
    llvm::DenseSet<Value> mmaBuffers;
    for (GemmOp gemm : gemms)
      if (!chosen.count(gemm))
        for (Value v : {gemm.getA(), gemm.getB()})
          mmaBuffers.insert(v);
    for (GemmOp gemm : gemms)
      if (chosen.count(gemm) &&
          (mmaBuffers.count(gemm.getA()) || mmaBuffers.count(gemm.getB()))) {
        chosen.erase(gemm);
        changed = true;
      }
  }
  // A kernel mixing wgmma and mma.sync gemms keeps mma.sync everywhere for
  // now: on the simulator such a kernel (flash attention's P.V on mma.sync
  // next to a wgmma Q.K^T, before P.V could take A from registers) got NaN
  // rows in its P.V product (not investigated further).
  if (chosen.size() != gemms.size())
    return {};
  return gemms;
}

SmallVector<std::pair<AllocOp, int64_t>>
tlc::tile::planWgmmaPanels(KernelOp kernel) {
  SmallVector<std::pair<AllocOp, int64_t>> panels;
  int64_t threads = kernel.getStaticNumThreads().value_or(0);
  for (GemmOp gemm : selectWgmmaGemms(kernel))
    for (Value v : {gemm.getA(), gemm.getB()}) {
      if (!isSharedScope(cast<BufferType>(v.getType()).getScope()))
        continue; // a register A operand (the RS form)
      std::optional<ThreadRange> r = threadRangeOf(gemm, threads);
      int64_t step = v == gemm.getB() && r ? bMnStep(gemm, r->count()) : 0;
      panels.push_back({v.getDefiningOp<AllocOp>(), *operandSwizzle(v, step)});
    }
  // A hand-written descriptor (T.initialize_wgmma_descriptor) reads its
  // buffer through the hardware swizzle: a buffer laid out as one panel
  // of swizzled rows (its row is the swizzle's 32, 64 or 128 bytes) is
  // stored that way, starting on a 1024-byte boundary as the swizzle's
  // address bits need. Other buffers keep their layout; the program's
  // descriptor bits are its own.
  kernel.walk([&](IntrinsicOp op) {
    if (op.getCallee() != "T.initialize_wgmma_descriptor" ||
        op.getArgs().size() < 2)
      return;
    Value v = op.getArgs()[1];
    auto type = dyn_cast<BufferType>(v.getType());
    auto alloc = v.getDefiningOp<AllocOp>();
    if (!type || !alloc || !isSharedScope(type.getScope()) ||
        !type.isStatic() || type.getRank() != 2)
      return;
    std::optional<layout::Layout> l = decodeLayout(alloc->getAttr("layout"));
    if (!l)
      return;
    int64_t bytes = l->getKind() == layout::LayoutKind::Swizzle32B    ? 32
                    : l->getKind() == layout::LayoutKind::Swizzle64B  ? 64
                    : l->getKind() == layout::LayoutKind::Swizzle128B ? 128
                                                                      : 0;
    int64_t rowBytes =
        type.getShape()[1] * getElementStorageBytes(type.getElementType());
    if (!bytes || rowBytes != bytes)
      return;
    panels.push_back({alloc, bytes});
  });
  return panels;
}

namespace {
struct TilePlanWgmmaPass final
    : tlc::tile::impl::TilePlanWgmmaBase<TilePlanWgmmaPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel, b); });
  }

  void planKernel(KernelOp kernel, Builder &b) {
    for (GemmOp gemm : selectWgmmaGemms(kernel))
      gemm->setAttr("tile.instr", b.getStringAttr("wgmma"));
    for (auto [alloc, bytes] : planWgmmaPanels(kernel)) {
      alloc->setAttr("tile.swizzle", b.getI64IntegerAttr(bytes));
      alloc->setAttr("tile.align", b.getI64IntegerAttr(1024));
    }
  }
};
} // namespace
