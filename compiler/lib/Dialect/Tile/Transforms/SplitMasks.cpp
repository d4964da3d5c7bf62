//===- SplitMasks.cpp - The --tile-split-masks pass -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Index-set splitting of mask initialisations in pipelined loops (Passes.td
// has the contract): a `T.Parallel` that writes `select(cond(i, j), a, b)`
// into every element of a fragment, where cond compares affine expressions
// of the parallel indices and values fixed for the iteration, is guarded by
// a condition on the iteration alone under which cond holds for every
// (i, j); under it the fragment is filled with `a` and the per-element
// compares and selects are not run. Attention's causal mask is true on
// every key block below the diagonal, its sequence-end mask on every block
// before the last.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILESPLITMASKS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {
/// Builds, before a parallel loop, the bounds of the integer expressions
/// of its body and the values of its body that do not depend on the loop.
class MaskBounds {
public:
  MaskBounds(ParallelOp loop, OpBuilder &b) : loop(loop), b(b) {}

  /// Whether \p v depends on the loop's indices or on memory read in it.
  bool varies(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == &loop.getBody().front();
    Operation *def = v.getDefiningOp();
    if (!loop->isProperAncestor(def))
      return false;
    if (def->getNumRegions() || !isPure(def) ||
        !isa<arith::ArithDialect>(def->getDialect()))
      return true;
    return llvm::any_of(def->getOperands(), [&](Value o) { return varies(o); });
  }

  /// \p v (which does not vary) as a value available before the loop: the
  /// value itself, or a clone of the pure arithmetic computing it.
  Value hoist(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !loop->isProperAncestor(def))
      return v;
    if (Value done = hoisted.lookup(v))
      return done;
    IRMapping map;
    for (Value o : def->getOperands())
      map.map(o, hoist(o));
    Operation *copy = b.clone(*def, map);
    for (auto [from, to] : llvm::zip(def->getResults(), copy->getResults()))
      hoisted[from] = to;
    return hoisted.lookup(v);
  }

  /// The least and greatest value of the integer \p v over the loop's
  /// index space, as values before the loop; nullopt when \p v is not an
  /// expression this bounds (+, -, * by a constant, / by a positive
  /// constant, min, max of indices and loop-invariant values).
  std::optional<std::pair<Value, Value>> bounds(Value v) {
    Location loc = loop.getLoc();
    if (!varies(v)) {
      Value h = hoist(v);
      return std::make_pair(h, h);
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      OpFoldResult ext = loop.getMixedExtents()[arg.getArgNumber()];
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value last;
      if (auto attr = dyn_cast<Attribute>(ext))
        last = arith::ConstantIndexOp::create(
            b, loc, cast<IntegerAttr>(attr).getInt() - 1);
      else
        last = b.createOrFold<arith::SubIOp>(
            loc, cast<Value>(ext), arith::ConstantIndexOp::create(b, loc, 1));
      return std::make_pair(zero, last);
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumOperands() != 2)
      return std::nullopt;
    Value x = def->getOperand(0), y = def->getOperand(1);
    // Multiplication and division by a constant: the sign decides.
    auto constantOf = [](Value c) -> std::optional<int64_t> {
      APInt value;
      if (!matchPattern(c, m_ConstantInt(&value)))
        return std::nullopt;
      return value.getSExtValue();
    };
    if (isa<arith::MulIOp>(def)) {
      if (constantOf(x))
        std::swap(x, y);
      std::optional<int64_t> c = constantOf(y);
      auto bx = c ? bounds(x) : std::nullopt;
      if (!bx)
        return std::nullopt;
      Value lo = b.createOrFold<arith::MulIOp>(loc, bx->first, y);
      Value hi = b.createOrFold<arith::MulIOp>(loc, bx->second, y);
      return *c >= 0 ? std::make_pair(lo, hi) : std::make_pair(hi, lo);
    }
    if (isa<arith::FloorDivSIOp>(def)) {
      std::optional<int64_t> c = constantOf(y);
      auto bx = c && *c > 0 ? bounds(x) : std::nullopt;
      if (!bx)
        return std::nullopt;
      return std::make_pair(
          b.createOrFold<arith::FloorDivSIOp>(loc, bx->first, y),
          b.createOrFold<arith::FloorDivSIOp>(loc, bx->second, y));
    }
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MaxSIOp>(def))
      return std::nullopt;
    auto bx = bounds(x), by = bounds(y);
    if (!bx || !by)
      return std::nullopt;
    if (isa<arith::AddIOp>(def))
      return std::make_pair(
          b.createOrFold<arith::AddIOp>(loc, bx->first, by->first),
          b.createOrFold<arith::AddIOp>(loc, bx->second, by->second));
    if (isa<arith::SubIOp>(def))
      return std::make_pair(
          b.createOrFold<arith::SubIOp>(loc, bx->first, by->second),
          b.createOrFold<arith::SubIOp>(loc, bx->second, by->first));
    if (isa<arith::MinSIOp>(def))
      return std::make_pair(
          b.createOrFold<arith::MinSIOp>(loc, bx->first, by->first),
          b.createOrFold<arith::MinSIOp>(loc, bx->second, by->second));
    return std::make_pair(
        b.createOrFold<arith::MaxSIOp>(loc, bx->first, by->first),
        b.createOrFold<arith::MaxSIOp>(loc, bx->second, by->second));
  }

  /// A condition before the loop under which the i1 \p cond is true at
  /// every point of the index space; null when none is found.
  Value alwaysTrue(Value cond) {
    Location loc = loop.getLoc();
    if (!varies(cond))
      return hoist(cond);
    Operation *def = cond.getDefiningOp();
    if (auto both = dyn_cast_or_null<arith::AndIOp>(def)) {
      Value l = alwaysTrue(both.getLhs());
      Value r = l ? alwaysTrue(both.getRhs()) : Value();
      return r ? b.createOrFold<arith::AndIOp>(loc, l, r) : Value();
    }
    auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
    if (!cmp)
      return Value();
    using P = arith::CmpIPredicate;
    P pred = cmp.getPredicate();
    if (pred != P::sge && pred != P::sgt && pred != P::sle && pred != P::slt)
      return Value();
    auto l = bounds(cmp.getLhs());
    auto r = l ? bounds(cmp.getRhs()) : std::nullopt;
    if (!r)
      return Value();
    // lhs >= rhs everywhere when its least value is at least rhs's
    // greatest; lhs <= rhs when its greatest is at most rhs's least.
    if (pred == P::sge || pred == P::sgt)
      return b.createOrFold<arith::CmpIOp>(loc, pred, l->first, r->second);
    return b.createOrFold<arith::CmpIOp>(loc, pred, l->second, r->first);
  }

private:
  ParallelOp loop;
  OpBuilder &b;
  llvm::DenseMap<Value, Value> hoisted;
};

/// The element store of \p loop when its body writes one fragment element
/// per point, at exactly the loop's indices, with pure arithmetic before it.
static StoreOp maskStore(ParallelOp loop) {
  Block &body = loop.getBody().front();
  StoreOp store;
  for (Operation &op : body) {
    if (auto s = dyn_cast<StoreOp>(op)) {
      if (store)
        return nullptr;
      store = s;
      continue;
    }
    if (op.getNumRegions() || !isPure(&op) || !op.getDialect() ||
        !isa<arith::ArithDialect>(op.getDialect()))
      return nullptr;
  }
  if (!store || store->getNextNode())
    return nullptr;
  auto type = cast<BufferType>(store.getBuffer().getType());
  if (type.getScope() != MemoryScope::Fragment || !type.isStatic() ||
      !store.getBuffer().getDefiningOp<AllocOp>() ||
      !llvm::equal(store.getIndices(), body.getArguments()) ||
      !llvm::equal(type.getShape(), loop.getStaticExtents()) ||
      llvm::any_of(loop.getStaticExtents(),
                   [](int64_t e) { return ShapedType::isDynamic(e); }))
    return nullptr;
  return store;
}

/// When the op after \p branch (past index arithmetic) is a wgmma gemm
/// that accumulates into \p frag, which the branch's then side fills with
/// +0.0: marks both so that the CUDA printer drops the fill and gives the
/// gemm's first k step scale-d = 0 where the guard holds (wgmma then
/// writes C = A * B, the same values, without 64 moves per thread).
static void foldIntoGemm(IfOp branch, Value frag, Value fillValue) {
  FloatAttr zero;
  if (!matchPattern(fillValue, m_Constant(&zero)) ||
      !zero.getValue().isPosZero())
    return;
  Operation *next = branch->getNextNode();
  while (next && !next->getNumRegions() && isPure(next) && next->getDialect() &&
         isa<arith::ArithDialect>(next->getDialect()))
    next = next->getNextNode();
  auto gemm = dyn_cast_or_null<GemmOp>(next);
  auto instr = gemm ? gemm->getAttrOfType<StringAttr>("tile.instr") : nullptr;
  if (!gemm || !instr || instr.getValue() != "wgmma" || gemm.getClearAccum() ||
      gemm.getC() != frag)
    return;
  Builder b(branch.getContext());
  branch->setAttr("tile.split_mask_scale_d", b.getUnitAttr());
  gemm->setAttr("tile.scale_d_mask", b.getUnitAttr());
}

/// Whether \p v depends on at least two of \p loop's indices (a mask over
/// both axes of the tile, such as attention's causal diagonal, rather than
/// one bound of one axis such as the end of the sequence).
static bool usesTwoIndices(ParallelOp loop, Value v) {
  llvm::SmallPtrSet<Value, 4> used;
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Value, 16> seen;
  Block *body = &loop.getBody().front();
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      if (arg.getOwner() == body)
        used.insert(arg);
      continue;
    }
    Operation *def = x.getDefiningOp();
    if (def && loop->isProperAncestor(def))
      llvm::append_range(work, def->getOperands());
  }
  return used.size() >= 2;
}

/// Where the split is on by default (no `tlc.split_masks` given): a mask
/// over both axes of the tile (causal) initialising the accumulator of a
/// wgmma gemm with a reduction of at most 128 (attention at head dimension
/// 64 or 128). Measured on the H200 (+11.5 %) and an H100 (+5-10 %) for
/// causal D64 (docs/perf/hopper.md, "split masks by default for causal
/// attention at head dimension 64"); causal D128 measured 0.95-0.98 before
/// perf32 took the split loop's Q descriptor off the vector registers, and
/// its unsplit loop still selects 98 mask values a thread per iteration
/// (perf37: on by default there too, the staged call times it).
static bool splitsByDefault(ParallelOp loop, StoreOp store,
                            arith::SelectOp select) {
  if (!usesTwoIndices(loop, select.getCondition()))
    return false;
  Operation *next = loop->getNextNode();
  while (next && !next->getNumRegions() && isPure(next) && next->getDialect() &&
         isa<arith::ArithDialect>(next->getDialect()))
    next = next->getNextNode();
  auto gemm = dyn_cast_or_null<GemmOp>(next);
  auto instr = gemm ? gemm->getAttrOfType<StringAttr>("tile.instr") : nullptr;
  if (!gemm || !instr || instr.getValue() != "wgmma" || gemm.getClearAccum() ||
      gemm.getC() != store.getBuffer())
    return false;
  auto a = dyn_cast<BufferType>(gemm.getA().getType());
  if (!a || a.getShape().size() != 2)
    return false;
  int64_t k = a.getShape()[gemm.getTransposeA() ? 0 : 1];
  return !ShapedType::isDynamic(k) && k <= 128;
}

/// Splits \p loop when it is a mask initialisation (and, with
/// \p onlyDefault, one of splitsByDefault's); true when it did.
static bool splitMask(ParallelOp loop, bool foldFill, bool splitLoop,
                      bool onlyDefault) {
  StoreOp store = maskStore(loop);
  if (!store)
    return false;
  auto select = store.getValue().getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != store->getBlock())
    return false;
  if (onlyDefault && !splitsByDefault(loop, store, select))
    return false;
  OpBuilder b(loop);
  MaskBounds mask(loop, b);
  if (mask.varies(select.getTrueValue()))
    return false;
  // Build the guard; drop what was built and is not used (all of it when
  // there is none).
  Operation *before = loop->getPrevNode();
  auto dropUnused = [&](Operation *after) {
    SmallVector<Operation *> built;
    for (Operation *op = after->getPrevNode(); op != before;
         op = op->getPrevNode())
      built.push_back(op);
    for (Operation *op : built)
      if (op->use_empty())
        op->erase();
  };
  Value guard = mask.alwaysTrue(select.getCondition());
  if (!guard || !guard.getType().isInteger(1)) {
    dropUnused(loop);
    return false;
  }
  Value fillValue = mask.hoist(select.getTrueValue());
  auto branch = IfOp::create(b, loop.getLoc(), guard, /*withElse=*/true);
  branch->setAttr("tile.split_mask", b.getUnitAttr());
  OpBuilder inThen = OpBuilder::atBlockEnd(branch.thenBlock());
  FillOp::create(inThen, loop.getLoc(), store.getBuffer(), fillValue);
  dropUnused(branch);
  loop->moveBefore(branch.elseBlock(), branch.elseBlock()->end());
  if (foldFill)
    foldIntoGemm(branch, store.getBuffer(), fillValue);
  if (splitLoop)
    branch->setAttr("tile.split_mask_loop", b.getUnitAttr());
  return true;
}

struct TileSplitMasksPass final
    : tlc::tile::impl::TileSplitMasksBase<TileSplitMasksPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      // tlc.split_masks=fill keeps the fill (no scale-d fold) and =branch
      // the branch in every iteration (no loop split); a false value turns
      // the split off, no value leaves it to splitsByDefault.
      std::optional<StringRef> config =
          getPassConfig(kernel, "tlc.split_masks");
      bool fill = config && *config == "fill";
      bool branch = config && *config == "branch";
      bool onlyDefault = !force && !config;
      if (!force && config && !fill && !branch &&
          !isPassConfigOn(kernel, "tlc.split_masks"))
        return;
      SmallVector<ParallelOp> loops;
      kernel.walk([&](PipelinedOp pipe) {
        for (Operation &op : pipe.getBody().front())
          if (auto loop = dyn_cast<ParallelOp>(op))
            loops.push_back(loop);
      });
      for (ParallelOp loop : loops)
        splitMask(loop, !fill, !fill && !branch, onlyDefault);
    });
  }
};
} // namespace
