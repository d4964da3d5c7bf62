//===- PlanTcgen05.cpp - The --tile-plan-tcgen05 pass ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Places the tensor memory of an sm_100a kernel and marks the gemms that
// accumulate into it as tcgen05.mma, with their shared operands stored in
// the swizzled panels the instruction's descriptors read (Passes.td has
// the contract).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/DescriptorRegions.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANTCGEN05
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// Columns of one CTA's tensor memory (PTX ISA, "Tensor Memory").
static constexpr int64_t kTmemColumns = 512;
/// Lanes of one CTA's tensor memory.
static constexpr int64_t kTmemLanes = 128;

/// The matrix shape of \p t without leading unit dimensions.
static SmallVector<int64_t> matrixShape(BufferType t) {
  SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
  while (s.size() > 2 && s.front() == 1)
    s.erase(s.begin());
  return s;
}

/// The allocation whose whole [rows, cols] tile \p v is: the allocation
/// itself, or a region of it that selects one tile by its leading
/// dimensions (`A_shared[k % stages, :, :]`); null for anything else.
static AllocOp wholeTileAlloc(Value v) {
  if (auto alloc = v.getDefiningOp<AllocOp>())
    return alloc;
  auto region = v.getDefiningOp<RegionOp>();
  if (!region)
    return {};
  auto alloc = region.getSource().getDefiningOp<AllocOp>();
  auto src = cast<BufferType>(region.getSource().getType());
  auto dst = cast<BufferType>(v.getType());
  unsigned rank = src.getRank();
  if (!alloc || rank < 3 || dst.getRank() != rank || !src.isStatic() ||
      !dst.isStatic())
    return {};
  ArrayRef<int64_t> offsets = region.getStaticOffsets();
  for (unsigned d = 0; d < rank; ++d) {
    bool lead = d + 2 < rank;
    if (lead ? dst.getShape()[d] != 1
             : dst.getShape()[d] != src.getShape()[d] || offsets[d] != 0)
      return {};
  }
  return alloc;
}

/// The allocation \p v is (a region of), through regions.
static AllocOp operandAlloc(Value v) {
  while (auto region = v.getDefiningOp<RegionOp>())
    v = region.getSource();
  return v.getDefiningOp<AllocOp>();
}

/// The swizzle (row bytes) of the panels a static shared tile is stored
/// in for a descriptor, where the operand \p v of a gemm starts where a
/// descriptor can: the whole tile, one tile of its leading dimensions
/// (`A_shared[k % stages, :, :]`), or a part of its K (`A_shared[:, 0:64]`,
/// with or without a stage). \p kMajor: the operand's K is its last
/// dimension. Nothing otherwise; \p why then says why where \p v is a
/// region the descriptors cannot start at. The descriptors of a region are
/// the tile's (its panels, leading and stride byte offsets) started at the
/// region's first element, as for wgmma (tile-plan-wgmma): its M/N must be
/// the tile's whole M/N, and its K must start on an 8-row group of the
/// swizzle (an M/N-major operand's K is its rows; the descriptor's base
/// offset stays 0), or at a panel's first column, or inside one panel on
/// 16 bytes (a K-major operand, as the instructions' K steps are).
static std::optional<int64_t> operandSwizzle(Value v, bool kMajor,
                                             std::string *why = nullptr) {
  AllocOp alloc = operandAlloc(v);
  if (!alloc)
    return std::nullopt;
  auto t = cast<BufferType>(alloc.getType());
  auto vt = cast<BufferType>(v.getType());
  if (!isSharedScope(t.getScope()) || !t.isStatic() || !vt.isStatic() ||
      t.getRank() < 2 || vt.getRank() != t.getRank())
    return std::nullopt;
  ArrayRef<int64_t> shape = t.getShape().take_back(2);
  unsigned bits = getElementStorageBytes(t.getElementType()) * 8;
  std::optional<layout::SwizzleMode> mode = layout::widestSwizzle(shape, bits);
  if (!mode)
    return std::nullopt;
  int64_t rowBytes = layout::swizzleBytes(*mode);
  if (v == alloc.getResult())
    return rowBytes;
  unsigned rank = t.getRank();
  for (unsigned d = 0; d + 2 < rank; ++d)
    if (vt.getShape()[d] != 1)
      return std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> start =
      getRegionMatrixStart(v, alloc.getResult(), why);
  if (!start)
    return std::nullopt;
  auto [r0, c0] = *start;
  auto refuse = [&](const std::string &text) -> std::optional<int64_t> {
    if (why)
      *why = text;
    return std::nullopt;
  };
  int64_t rows = vt.getShape()[rank - 2], cols = vt.getShape()[rank - 1];
  // M/N whole: the instructions read all of the tile's M (128 lanes) or N.
  if (kMajor ? (r0 != 0 || rows != shape[0]) : (c0 != 0 || cols != shape[1]))
    return refuse("the region does not take the whole M/N of its tile");
  int64_t elemBytes = bits / 8, width = rowBytes / elemBytes;
  if (!kMajor) {
    if (r0 % 8)
      return refuse("the region starts at row " + std::to_string(r0) +
                    " of its tile, not on an 8-row group of the " +
                    std::to_string(rowBytes) + "-byte swizzle");
    return rowBytes;
  }
  if (c0 % width == 0)
    return rowBytes;
  if ((c0 * elemBytes) % 16 == 0 && c0 % width + cols <= width)
    return rowBytes;
  return refuse("the region starts at column " + std::to_string(c0) +
                " of its tile, inside a " + std::to_string(rowBytes) +
                "-byte swizzle panel of " + std::to_string(width) +
                " columns, and leaves it");
}

/// Why \p gemm (accumulating in tensor memory) cannot be a tcgen05.mma as
/// the printer generates it, or "" when it can.
static std::string whyNotTcgen05(GemmOp gemm) {
  auto a = cast<BufferType>(gemm.getA().getType());
  auto b = cast<BufferType>(gemm.getB().getType());
  auto c = cast<BufferType>(gemm.getC().getType());
  Type ab = a.getElementType();
  bool is16 = ab.isF16() || ab.isBF16();
  // .kind::f8f6f4: e4m3, e5m2, and e2m1 stored in the padded form (16
  // codes in the first 8 bytes of each 16).
  bool isF8F6F4 = isa<Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType>(ab);
  bool subByte = isa<Float4E2M1FNType>(ab);
  if (!(is16 || isF8F6F4) || b.getElementType() != ab ||
      !c.getElementType().isF32())
    return "f16/bf16 operands, or e4m3/e5m2/e2m1 ones, with an f32 "
           "accumulator only";
  if (!c.isStatic() || !wholeTileAlloc(gemm.getC()) ||
      matrixShape(c).size() != 2)
    return "the accumulator must be a whole static tensor memory tile (or "
           "one stage of a [stages, lanes, columns] one)";
  int64_t rows = matrixShape(c)[0];
  if (rows != kTmemLanes)
    return "the accumulator has " + std::to_string(rows) +
           " rows; tlc's tcgen05.mma takes 128 (M = 128 per CTA)";
  std::string whyB;
  if (!operandSwizzle(gemm.getB(), gemm.getTransposeB(), &whyB))
    return whyB.empty() ? "B must be a whole static shared tile (or a K "
                          "range of one) whose rows a 32-, 64- or 128-byte "
                          "swizzle covers"
                        : "the matrix descriptors cannot address operand "
                          "B: " +
                              whyB;
  bool aInTmem = a.getScope() == MemoryScope::TensorMemory;
  if (aInTmem) {
    if (!is16 || gemm.getTransposeA() || !a.isStatic() ||
        !gemm.getA().getDefiningOp<AllocOp>())
      return "an A operand in tensor memory must be a whole 16-bit tile "
             "stored [M, K]";
    if (gemm->hasAttr("tile.use_2cta"))
      return "an A operand in tensor memory with use_2cta";
  } else if (std::string whyA;
             !operandSwizzle(gemm.getA(), !gemm.getTransposeA(), &whyA)) {
    return whyA.empty() ? "A must be a whole static shared tile (or a K "
                          "range of one) whose rows a 32-, 64- or 128-byte "
                          "swizzle covers, or a tensor memory tile"
                        : "the matrix descriptors cannot address operand "
                          "A: " +
                              whyA;
  }
  if (gemm->hasAttr("tile.use_2cta") && matrixShape(c)[1] > 256)
    return "use_2cta with more than 256 accumulator columns";
  // The descriptors' MN-major bit is valid for 8- and 16-bit types only
  // (PTX ISA, instruction descriptor, "Transpose A/B Matrix").
  if (subByte && (gemm.getTransposeA() || !gemm.getTransposeB()))
    return "fp4 (e2m1) operands must be K-major (A [M, K], B [N, K]): "
           "tcgen05.mma reads 4-bit types K-major only";
  return "";
}

/// The argument of \p op for parameter \p param, or null.
static Value paramArg(IntrinsicOp op, StringRef param) {
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < op.getParams().size() &&
        cast<StringAttr>(op.getParams()[i]).getValue() == param)
      return v;
  return {};
}

/// Whether \p v is a constant (a flag known when building).
static bool isConstantFlag(Value v) { return matchPattern(v, m_Constant()); }

/// Whether the tcgen05 intrinsic \p op runs on the CTA pair: its
/// `use_2cta` argument is the constant true (false is as if absent).
static bool usesCtaPair(IntrinsicOp op) {
  Value v = paramArg(op, "use_2cta");
  return v && matchPattern(v, m_One());
}

static bool isBlockScaledGemm(IntrinsicOp op) {
  return op.getCallee() == "T.tcgen05_gemm_blockscaled";
}

/// The tensor memory tiles of E8M0 scale factors (tcgen05.cp's
/// destinations, the block-scaled MMA's SFA / SFB): one 32-bit column an
/// element (four factors of a row, one per K block, packed in it), as
/// TileLang sizes them.
static llvm::SmallPtrSet<Operation *, 4> scaleFactorTiles(KernelOp kernel) {
  llvm::SmallPtrSet<Operation *, 4> tiles;
  kernel.walk([&](IntrinsicOp op) {
    SmallVector<Value, 2> sf;
    if (op.getCallee() == "T.tcgen05_cp_warpx4")
      sf.push_back(paramArg(op, "tmem_dst"));
    if (isBlockScaledGemm(op))
      sf.append({paramArg(op, "SFA_tmem"), paramArg(op, "SFB_tmem")});
    for (Value v : sf)
      if (auto alloc = v ? v.getDefiningOp<AllocOp>() : AllocOp())
        tiles.insert(alloc);
  });
  return tiles;
}

/// Why the T.tcgen05_gemm_blockscaled \p op cannot be a tcgen05.mma
/// .kind::mxf8f6f4.block_scale as the printer generates it, or "".
static std::string whyNotBlockScaled(IntrinsicOp op) {
  Value a = paramArg(op, "A"), b = paramArg(op, "B"), c = paramArg(op, "C");
  if (!a || !b || !c)
    return "needs A, B and C";
  for (StringRef p :
       {"k_start", "sf_a_granularity_k", "sf_b_granularity_k", "wg_wait"})
    if (paramArg(op, p))
      return (p + "= is not generated (sf_a_id / sf_b_id select the scale "
                  "factors)")
          .str();
  if (Value pair = paramArg(op, "use_2cta"); pair && !isConstantFlag(pair))
    return "use_2cta must be a constant (it picks cta_group::1 or ::2)";
  auto ta = cast<BufferType>(a.getType()), tb = cast<BufferType>(b.getType()),
       tc = cast<BufferType>(c.getType());
  auto fp8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  if (!fp8(ta.getElementType()) || !fp8(tb.getElementType()) ||
      !tc.getElementType().isF32())
    return "e4m3/e5m2 operands (MXFP8) with an f32 accumulator only";
  if (tc.getScope() != MemoryScope::TensorMemory || !tc.isStatic() ||
      tc.getRank() != 2 || !c.getDefiningOp<AllocOp>() ||
      tc.getShape()[0] != kTmemLanes)
    return "the accumulator must be a whole static [128, N] tensor memory "
           "tile";
  if (!wholeTileAlloc(a) || !wholeTileAlloc(b) || !operandSwizzle(a, true) ||
      !operandSwizzle(b, true))
    return "A and B must be whole static shared tiles whose rows a 32-, 64- "
           "or 128-byte swizzle covers";
  // Four factors a 32-bit column for each 128 rows of A (M) or B (N).
  for (auto [p, rows] :
       {std::pair<StringRef, int64_t>{"SFA_tmem", tc.getShape()[0]},
        {"SFB_tmem", tc.getShape()[1]}}) {
    Value sf = paramArg(op, p);
    auto t = sf ? dyn_cast<BufferType>(sf.getType()) : BufferType();
    int64_t cols = (rows + kTmemLanes - 1) / kTmemLanes * 4;
    if (!t || t.getScope() != MemoryScope::TensorMemory || !t.isStatic() ||
        t.getRank() != 2 || !t.getElementType().isUnsignedInteger(8) ||
        !sf.getDefiningOp<AllocOp>() || t.getShape()[1] < cols)
      return (p + " must be a whole [128, cols >= " + Twine(cols) +
              "] uint8 tensor memory tile (four factors a column for each " +
              "128 of the " + Twine(rows) + " rows)")
          .str();
  }
  return "";
}

/// The 32-bit columns a tensor memory tile of type \p t takes: its
/// second-to-last dimension is the lanes, the last one packed into
/// columns, and leading dimensions (`[stages, lanes, cols]`) are that many
/// such tiles side by side.
static int64_t tmemColumns(BufferType t) {
  int64_t bits = getElementStorageBytes(t.getElementType()) * 8;
  int64_t perStage = llvm::divideCeil(t.getShape().back() * bits, 32);
  int64_t stages = 1;
  for (int64_t e : t.getShape().drop_back(2))
    stages *= e;
  return stages * perStage;
}

SmallVector<std::pair<AllocOp, int64_t>>
tlc::tile::planTcgen05Panels(KernelOp kernel) {
  SmallVector<std::pair<AllocOp, int64_t>> panels;
  kernel.walk([&](GemmOp gemm) {
    auto c = cast<BufferType>(gemm.getC().getType());
    if (c.getScope() != MemoryScope::TensorMemory ||
        !whyNotTcgen05(gemm).empty())
      return;
    for (auto [v, kMajor] :
         {std::pair<Value, bool>{gemm.getA(), !gemm.getTransposeA()},
          {gemm.getB(), gemm.getTransposeB()}}) {
      if (!isSharedScope(cast<BufferType>(v.getType()).getScope()))
        continue; // A in tensor memory (the TS form)
      panels.push_back({operandAlloc(v), *operandSwizzle(v, kMajor)});
    }
  });
  kernel.walk([&](IntrinsicOp op) {
    if (!isBlockScaledGemm(op) || !whyNotBlockScaled(op).empty())
      return;
    for (Value v : {paramArg(op, "A"), paramArg(op, "B")})
      panels.push_back({wholeTileAlloc(v), *operandSwizzle(v, true)});
  });
  return panels;
}

namespace {
struct TilePlanTcgen05Pass final
    : tlc::tile::impl::TilePlanTcgen05Base<TilePlanTcgen05Pass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachKernelOfArch(module, target, "sm_100a", [&](KernelOp kernel) {
      if (failed(planKernel(kernel, b)))
        markLoweringFailed(kernel->getParentOfType<FuncOp>());
    });
  }

  LogicalResult planKernel(KernelOp kernel, Builder &b) {
    int64_t next = 0;
    bool ok = true;
    llvm::SmallPtrSet<Operation *, 4> sfTiles = scaleFactorTiles(kernel);
    kernel.walk([&](AllocOp alloc) {
      auto t = cast<BufferType>(alloc.getType());
      if (t.getScope() != MemoryScope::TensorMemory)
        return;
      if (!t.isStatic() || t.getRank() < 2 ||
          t.getShape()[t.getRank() - 2] > kTmemLanes) {
        alloc.emitError() << "tensor memory has " << kTmemLanes
                          << " lanes: a shared.tmem tile is [stages..., "
                             "lanes <= "
                          << kTmemLanes << ", columns] of static shape";
        ok = false;
        return;
      }
      int64_t bits = getElementStorageBytes(t.getElementType()) * 8;
      if (t.getRank() > 2 && t.getShape().back() * bits % 32) {
        alloc.emitError() << "each stage of a tensor memory tile of stages "
                             "takes whole 32-bit columns: "
                          << t.getShape().back() << " elements of " << bits
                          << " bits do not";
        ok = false;
        return;
      }
      int64_t cols =
          sfTiles.contains(alloc) ? t.getShape().back() : tmemColumns(t);
      if (next + cols > kTmemColumns) {
        alloc.emitError() << "this tensor memory tile takes " << cols
                          << " columns after " << next
                          << " others take; a CTA has " << kTmemColumns;
        ok = false;
        return;
      }
      alloc->setAttr("tile.tmem_col", b.getI64IntegerAttr(next));
      alloc->setAttr("tile.tmem_cols", b.getI64IntegerAttr(cols));
      next += cols;
    });
    if (!ok)
      return failure();
    if (next)
      kernel->setAttr("tile.tmem_alloc_cols",
                      b.getI64IntegerAttr(std::max<int64_t>(
                          32, int64_t(llvm::PowerOf2Ceil(next)))));
    kernel.walk([&](GemmOp gemm) {
      auto c = cast<BufferType>(gemm.getC().getType());
      if (c.getScope() != MemoryScope::TensorMemory)
        return;
      std::string why = whyNotTcgen05(gemm);
      if (!why.empty()) {
        gemm.emitError() << "T.gemm into tensor memory (tcgen05.mma): " << why;
        ok = false;
        return;
      }
      gemm->setAttr("tile.instr", b.getStringAttr("tcgen05"));
      // A pair of CTAs computes use_2cta gemms: both allocate their tensor
      // memory together (tcgen05.alloc.cta_group::2).
      if (gemm->hasAttr("tile.use_2cta"))
        kernel->setAttr("tile.tmem_2cta", b.getUnitAttr());
      // `clear_accum=cond` known at run time: the evaluator clears C in
      // `if cond` before the gemm; tcgen05.mma's first step overwrites D
      // where cond holds instead (the thread issuing it may not reach all
      // of tensor memory).
      if (auto branch = dyn_cast_or_null<IfOp>(gemm->getPrevNode());
          branch && !branch.elseBlock() &&
          llvm::hasSingleElement(*branch.thenBlock())) {
        auto clear = dyn_cast<ClearOp>(branch.thenBlock()->front());
        if (clear && clear.getDst() == gemm.getC()) {
          clear->setAttr("tile.tcgen05_clear", b.getUnitAttr());
          gemm->setAttr("tile.clear_if", b.getUnitAttr());
        }
      }
    });
    kernel.walk([&](IntrinsicOp op) {
      // The pair's block-scaled MMAs and scale-factor copies
      // (use_2cta=True): the pair allocates its tensor memory together, and
      // every tcgen05 instruction of the kernel is cta_group::2 (the PTX
      // ISA allows one .cta_group a kernel).
      if ((isBlockScaledGemm(op) || op.getCallee() == "T.tcgen05_cp_warpx4") &&
          usesCtaPair(op))
        kernel->setAttr("tile.tmem_2cta", b.getUnitAttr());
      if (!isBlockScaledGemm(op))
        return;
      std::string why = whyNotBlockScaled(op);
      if (!why.empty()) {
        op.emitError() << "T.tcgen05_gemm_blockscaled (tcgen05.mma "
                          ".kind::mxf8f6f4.block_scale): "
                       << why;
        ok = false;
      }
    });
    if (!ok)
      return failure();
    for (auto [alloc, bytes] : planTcgen05Panels(kernel)) {
      alloc->setAttr("tile.swizzle", b.getI64IntegerAttr(bytes));
      alloc->setAttr("tile.align", b.getI64IntegerAttr(1024));
    }
    return success();
  }
};
} // namespace
