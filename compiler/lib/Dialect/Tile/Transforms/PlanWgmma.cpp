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
#include "tlc/Dialect/Tile/Transforms/DescriptorRegions.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/SharedLayouts.h"
#include "tlc/Layout/WgmmaLayouts.h"

#include "llvm/ADT/DenseMap.h"
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

/// The buffer \p v views (through regions).
static Value rootBuffer(Value v) {
  while (auto region = v.getDefiningOp<RegionOp>())
    v = region.getSource();
  return v;
}

/// The swizzle (row bytes) of the descriptor panels a shared operand \p v
/// of a gemm is read through (the panels of its allocation), or nothing
/// when wgmma cannot read it; \p why then says why where \p v is a region
/// of a larger tile (a pipeline stage `A[s, :, :]`, a K split `A[:, 0:64]`).
/// \p kMajor: the operand's K is its last dimension. \p mnStep: as
/// layout::makeWgmmaOperandLayout's (the layout inference gives the buffer).
static std::optional<int64_t> operandSwizzle(Value v, bool kMajor,
                                             int64_t mnStep = 0,
                                             std::string *why = nullptr) {
  Value root = rootBuffer(v);
  auto alloc = root.getDefiningOp<AllocOp>();
  auto t = cast<BufferType>(root.getType());
  auto vt = cast<BufferType>(v.getType());
  if (!alloc || !isSharedScope(t.getScope()) || !t.isStatic() ||
      t.getRank() < 2 || matrixShape(vt).size() != 2 ||
      (root == v && matrixShape(t).size() != 2))
    return std::nullopt;
  // A tile past the elements layouts enumerate is far past shared memory
  // (an error at its allocation); no descriptor layout is formed for it
  // (found by tlc-fuzz-eval: a (2^62, 64) operand).
  if (layout::numElementsSaturated(t.getShape()) >
      layout::kMaxEnumeratedInputs)
    return std::nullopt;
  unsigned bits = getElementStorageBytes(t.getElementType()) * 8;
  layout::Layout l = layout::makeWgmmaOperandLayout(t.getShape(), bits, mnStep);
  int64_t rowBytes = 0;
  switch (l.getKind()) {
  case layout::LayoutKind::Swizzle32B:
    rowBytes = 32;
    break;
  case layout::LayoutKind::Swizzle64B:
    rowBytes = 64;
    break;
  case layout::LayoutKind::Swizzle128B:
    rowBytes = 128;
    break;
  default:
    return std::nullopt;
  }
  if (root == v)
    return rowBytes;
  // A region: its descriptors are the allocation's (the same panels,
  // leading and stride byte offsets), started at the region's first
  // element. The allocation's panels hold 8-row swizzle atoms of
  // `rowBytes` rows, [stages..., rows, cols] one tile after the other; a
  // whole stage starts on an atom (tiles of whole atoms). In the last two
  // dimensions the region must start where the descriptor's start address
  // can: on an 8-row group (the swizzle pattern's repeat, so the
  // descriptor's base offset stays 0: PTX ISA, matrix descriptor), and at
  // a panel's first column, or for the K of a K-major operand inside one
  // panel on a 16-byte boundary (as the instructions' K steps are).
  int64_t rank = t.getRank();
  std::optional<std::pair<int64_t, int64_t>> start =
      getRegionMatrixStart(v, root, why);
  if (!start)
    return std::nullopt;
  auto [r0, c0] = *start;
  int64_t elemBytes = bits / 8, width = rowBytes / elemBytes;
  int64_t cols = vt.getShape()[rank - 1];
  auto refuse = [&](const std::string &text) -> std::optional<int64_t> {
    if (why)
      *why = text;
    return std::nullopt;
  };
  if (r0 % 8)
    return refuse("the region starts at row " + std::to_string(r0) +
                  " of its tile, not on an 8-row group of the " +
                  std::to_string(rowBytes) + "-byte swizzle");
  if (c0 % width == 0)
    return rowBytes;
  if (kMajor && (c0 * elemBytes) % 16 == 0 && c0 % width + cols <= width)
    return rowBytes;
  return refuse("the region starts at column " + std::to_string(c0) +
                " of its tile, inside a " + std::to_string(rowBytes) +
                "-byte swizzle panel of " + std::to_string(width) + " columns" +
                (kMajor ? " and leaves it" : " on its M/N dimension"));
}

/// The layout library's configuration of \p gemm on \p threads threads
/// (tile shapes, transposes, operand and accumulator widths, warp policy),
/// or nothing where A or the accumulator is not a static 2-D tile. The
/// choice of wgmma and the descriptor panels of its operands both start
/// from here.
static std::optional<layout::GemmConfig> wgmmaConfig(GemmOp gemm,
                                                     int64_t threads) {
  auto a = cast<BufferType>(gemm.getA().getType());
  auto c = cast<BufferType>(gemm.getC().getType());
  SmallVector<int64_t> as = matrixShape(a), cs = matrixShape(c);
  if (!a.isStatic() || !c.isStatic() || as.size() != 2 || cs.size() != 2)
    return std::nullopt;
  Type ab = a.getElementType();
  layout::GemmConfig cfg;
  cfg.arch = layout::GemmArch::SM90;
  cfg.transA = gemm.getTransposeA();
  cfg.transB = gemm.getTransposeB();
  cfg.m = cs[0];
  cfg.n = cs[1];
  cfg.k = cfg.transA ? as[0] : as[1];
  cfg.abBits = ab.isF16() || ab.isBF16() ? 16 : 8;
  cfg.accBits = c.getElementType().isF16() ? 16 : 32;
  cfg.threads = threads;
  cfg.policy = toLayoutWarpPolicy(gemm.getPolicy());
  return cfg;
}

/// The step of \p gemm's instruction starts along B's contiguous N when B
/// is N-major (stored [K, N]) in a block of \p threads threads, else 0
/// (layout::WgmmaGrid::bMnStep).
static int64_t bMnStep(GemmOp gemm, int64_t threads) {
  std::optional<layout::GemmConfig> cfg = wgmmaConfig(gemm, threads);
  if (!cfg)
    return 0;
  llvm::Expected<layout::WgmmaGrid> grid = layout::wgmmaGrid(*cfg);
  if (!grid) {
    llvm::consumeError(grid.takeError());
    return 0;
  }
  return grid->bMnStep;
}

/// A wgmma operand in shared memory: the buffer view, whether it is stored
/// K-major, and the step its instructions start at along its contiguous
/// M/N (bMnStep for an N-major B, else 0).
struct SharedOperand {
  Value value;
  bool kMajor;
  int64_t mnStep;
};

/// \p gemm's operands in shared memory (a register A is left out) in a block
/// of \p threads threads, A first.
static SmallVector<SharedOperand, 2> sharedOperands(GemmOp gemm,
                                                    int64_t threads) {
  std::optional<ThreadRange> r = threadRangeOf(gemm, threads);
  int64_t step = r ? bMnStep(gemm, r->count()) : 0;
  SmallVector<SharedOperand, 2> operands;
  for (SharedOperand o :
       {SharedOperand{gemm.getA(), !gemm.getTransposeA(), 0},
        SharedOperand{gemm.getB(), gemm.getTransposeB(), step}})
    if (isSharedScope(cast<BufferType>(o.value.getType()).getScope()))
      operands.push_back(o);
  return operands;
}

/// Whether \p v is a whole static 2-D fragment that wgmma can take as its
/// register A operand of a \p gemm (16-bit elements, stored [M, K]).
static bool isRegisterA(GemmOp gemm, Value v) {
  auto t = cast<BufferType>(v.getType());
  Type e = t.getElementType();
  return v.getDefiningOp<AllocOp>() && t.getScope() == MemoryScope::Fragment &&
         t.isStatic() && t.getRank() == 2 && (e.isF16() || e.isBF16()) &&
         !gemm.getTransposeA();
}

/// Why a gemm keeps mma.sync: the condition that failed, and whether it
/// is a region operand the descriptors cannot address (a T.gemm says so
/// in a remark; the other conditions are the usual ones).
struct WgmmaRefusal {
  std::string why;
  bool region = false;
};

/// Whether \p gemm in a kernel of \p threads threads takes wgmma; where it
/// does not, \p why says which condition failed.
static bool takesWgmma(GemmOp gemm, int64_t threads,
                       WgmmaRefusal *why = nullptr) {
  auto refuse = [&](const Twine &text) {
    if (why)
      why->why = text.str();
    return false;
  };
  auto a = cast<BufferType>(gemm.getA().getType());
  auto b = cast<BufferType>(gemm.getB().getType());
  auto c = cast<BufferType>(gemm.getC().getType());
  Type ab = a.getElementType(), acc = c.getElementType();
  bool is16 = ab.isF16() || ab.isBF16();
  bool isFp8 = isa<Float8E4M3FNType, Float8E5M2Type>(ab);
  // f16 inputs may accumulate in f16 (`.f16.f16.f16`), A from shared memory
  // or registers.
  bool f16Acc = ab.isF16() && acc.isF16();
  if (!(is16 || isFp8) || b.getElementType() != ab ||
      !(acc.isF32() || f16Acc)) {
    return refuse("dtypes: wgmma takes f16/bf16 or e4m3/e5m2 operands of one "
                  "type with a float32 accumulator, or f16 ones with a "
                  "float16 one");
  }
  std::optional<layout::GemmConfig> cfg = wgmmaConfig(gemm, threads);
  if (!cfg)
    return refuse("shapes: A and the accumulator must be static 2-D tiles");
  std::string shape = "M = " + std::to_string(cfg->m) +
                      ", N = " + std::to_string(cfg->n) +
                      ", K = " + std::to_string(cfg->k) + " on " +
                      std::to_string(threads) + " threads";
  if (layout::selectGemmInstr(*cfg) != layout::GemmInstr::WGMMA)
    return refuse("shapes: " + shape +
                  " is no wgmma gemm (M a multiple of 64 on whole "
                  "warpgroups, K a multiple of the instruction's " +
                  std::to_string(is16 ? 16 : 32) + ", 8-bit operands K-major)");
  llvm::Expected<layout::WgmmaGrid> grid = layout::wgmmaGrid(*cfg);
  if (!grid) {
    llvm::consumeError(grid.takeError());
    return refuse("thread range: " + shape + " has no warp partition");
  }
  if (!grid->wholeTiles())
    return refuse("thread range: the warpgroup tiles of " + shape +
                  " are not multiples of 64 x 8");
  std::string whyA, whyB;
  bool aOk = isRegisterA(gemm, gemm.getA()) ||
             operandSwizzle(gemm.getA(), !cfg->transA, 0, &whyA);
  bool bOk = operandSwizzle(gemm.getB(), cfg->transB, grid->bMnStep, &whyB)
                 .has_value();
  if (aOk && bOk)
    return true;
  if (!whyA.empty() || !whyB.empty()) {
    if (why)
      why->region = true;
    return refuse("the matrix descriptors cannot address operand " +
                  Twine(!whyA.empty() ? "A: " + whyA : "B: " + whyB));
  }
  return refuse(
      "operand layouts: operand " + Twine(!aOk ? "A" : "B") +
      " is not a static shared tile (or a region of one) whose rows a 128-, "
      "64- or 32-byte swizzle covers" +
      (!aOk ? ", nor a whole 16-bit fragment stored [M, K]" : ""));
}

/// selectWgmmaGemms(); \p why, where given, receives the reason each gemm
/// kept off wgmma has.
static SmallVector<GemmOp>
selectWgmma(KernelOp kernel, llvm::DenseMap<Operation *, WgmmaRefusal> *why) {
  std::optional<int64_t> threads = kernel.getStaticNumThreads();
  SmallVector<GemmOp> gemms;
  kernel.walk([&](GemmOp gemm) { gemms.push_back(gemm); });
  auto refuseAll = [&](StringRef text) {
    if (why)
      for (GemmOp gemm : gemms)
        why->try_emplace(gemm, WgmmaRefusal{text.str(), false});
  };
  if (!threads) {
    refuseAll("thread range: the block's thread count is not static");
    return {};
  }
  if (isPassConfigOn(kernel, "tl.disable_wgmma")) {
    refuseAll("the pass configs set tl.disable_wgmma");
    return {};
  }
  // A buffer is laid out for one instruction: a gemm reading it with
  // mma.sync keeps every other gemm on it on mma.sync too.
  llvm::DenseSet<Operation *> chosen;
  for (GemmOp gemm : gemms) {
    // A gemm under T.ws / `if tx < c` runs on the warpgroups of its range.
    std::optional<ThreadRange> r = threadRangeOf(gemm, *threads);
    if (!r || (r->condition &&
               (r->lo % 128 || r->count() % 128 || r->count() <= 0))) {
      if (why)
        (*why)[gemm] = {"thread range: the gemm runs on threads that are not "
                        "whole warpgroups",
                        false};
      continue;
    }
    WgmmaRefusal reason;
    if (takesWgmma(gemm, r->count(), &reason))
      chosen.insert(gemm);
    else if (why)
      (*why)[gemm] = reason;
  }
  for (bool changed = true; changed;) {
    changed = false;
    llvm::DenseSet<Value> mmaBuffers;
    for (GemmOp gemm : gemms)
      if (!chosen.count(gemm))
        for (Value v : {gemm.getA(), gemm.getB()})
          mmaBuffers.insert(rootBuffer(v));
    for (GemmOp gemm : gemms)
      if (chosen.count(gemm) && (mmaBuffers.count(rootBuffer(gemm.getA())) ||
                                 mmaBuffers.count(rootBuffer(gemm.getB())))) {
        chosen.erase(gemm);
        if (why)
          (*why)[gemm] = {"operand layouts: another gemm reads its shared "
                          "operands with mma.sync",
                          false};
        changed = true;
      }
  }
  // A shared buffer is stored with one swizzle (planWgmmaPanels gives its
  // panels the first wgmma gemm's): a gemm whose descriptors need another
  // (flash attention's backward: K read K-major in 128-byte rows, then as
  // an N-major B whose instructions start every 32 columns, inside those
  // rows) cannot take wgmma.
  llvm::DenseMap<Operation *, int64_t> bufferSwizzle;
  for (GemmOp gemm : gemms) {
    if (!chosen.count(gemm))
      continue;
    for (auto [v, kMajor, mnStep] : sharedOperands(gemm, *threads)) {
      std::optional<int64_t> sw = operandSwizzle(v, kMajor, mnStep);
      auto alloc = rootBuffer(v).getDefiningOp<AllocOp>();
      if (!sw || !alloc)
        continue;
      auto [it, first] = bufferSwizzle.try_emplace(alloc, *sw);
      if (first || it->second == *sw)
        continue;
      chosen.erase(gemm);
      if (why)
        (*why)[gemm] = {"operand layouts: '" + bufferDisplayName(v) +
                            "' is stored in " + std::to_string(it->second) +
                            "-byte swizzle panels for another gemm, and this "
                            "gemm's descriptors need " +
                            std::to_string(*sw) + "-byte ones",
                        false};
      break;
    }
  }
  // A kernel mixing wgmma and mma.sync gemms keeps mma.sync everywhere for
  // now: on the simulator such a kernel (flash attention's P.V on mma.sync
  // next to a wgmma Q.K^T, before P.V could take A from registers) got NaN
  // rows in its P.V product (not investigated further).
  if (chosen.size() != gemms.size()) {
    refuseAll("another gemm of the kernel keeps mma.sync (a kernel does not "
              "mix the two yet)");
    return {};
  }
  return gemms;
}

SmallVector<GemmOp> tlc::tile::selectWgmmaGemms(KernelOp kernel) {
  return selectWgmma(kernel, nullptr);
}

SmallVector<std::pair<AllocOp, int64_t>>
tlc::tile::planWgmmaPanels(KernelOp kernel) {
  SmallVector<std::pair<AllocOp, int64_t>> panels;
  int64_t threads = kernel.getStaticNumThreads().value_or(0);
  llvm::DenseSet<Operation *> seen;
  for (GemmOp gemm : selectWgmmaGemms(kernel)) {
    for (auto [v, kMajor, mnStep] : sharedOperands(gemm, threads)) {
      auto alloc = rootBuffer(v).getDefiningOp<AllocOp>();
      if (seen.insert(alloc).second)
        panels.push_back({alloc, *operandSwizzle(v, kMajor, mnStep)});
    }
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
    llvm::DenseMap<Operation *, WgmmaRefusal> why;
    SmallVector<GemmOp> chosen = selectWgmma(kernel, &why);
    for (GemmOp gemm : chosen)
      gemm->setAttr("tile.instr", b.getStringAttr("wgmma"));
    // Why each gemm keeps mma.sync, for T.wgmma_gemm's refusal; a T.gemm
    // whose region operand the descriptors cannot address says so.
    kernel.walk([&](GemmOp gemm) {
      auto it = why.find(gemm);
      if (it == why.end() || !chosen.empty())
        return;
      gemm->setAttr("tile.wgmma_why", b.getStringAttr(it->second.why));
      if (it->second.region && !gemm->hasAttr("tile.wgmma_only"))
        gemm.emitRemark() << "T.gemm uses mma.sync, not wgmma: "
                          << it->second.why;
    });
    for (auto [alloc, bytes] : planWgmmaPanels(kernel)) {
      alloc->setAttr("tile.swizzle", b.getI64IntegerAttr(bytes));
      alloc->setAttr("tile.align", b.getI64IntegerAttr(1024));
    }
  }
};
} // namespace
