//===- ThreadUniformity.cpp - Values every thread of a block shares -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace tlc::tile {
namespace {
/// The walk behind mayVaryAcrossThreads. Register buffers are resolved
/// optimistically (a buffer under examination counts as uniform), which gives
/// the least fixed point for `v = v + 1` cycles.
class ThreadVariance {
public:
  bool varies(Value v, unsigned depth = 0) {
    if (depth > 64)
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (isa_and_nonnull<ParallelOp>(owner))
        return true;
      if (auto loop = dyn_cast_or_null<ForOp>(owner))
        return varies(loop.getLowerBound(), depth + 1) ||
               varies(loop.getUpperBound(), depth + 1) ||
               varies(loop.getStep(), depth + 1);
      if (auto loop = dyn_cast_or_null<PipelinedOp>(owner))
        return varies(loop.getLowerBound(), depth + 1) ||
               varies(loop.getUpperBound(), depth + 1);
      return false; // block indices, function parameters
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      return true;
    if (isa<ThreadBindingOp>(def))
      return true;
    // Instruction-like primitives that read the thread's position or
    // exchange values between threads (lane, warp and warp-group indices,
    // elections, shuffles, warp votes and reductions, atomics' previous
    // values, random numbers, raw loads) differ between threads; the others
    // (T.any_of over uniform memory, block votes, math) are uniform where
    // their operands are.
    if (auto in = dyn_cast<IntrinsicOp>(def)) {
      llvm::StringRef c = in.getCallee();
      if (llvm::is_contained({"T.get_lane_idx", "T.get_warp_idx",
                              "T.get_warp_idx_sync", "T.get_warp_group_idx",
                              "T.shuffle_elect", "T.tvm_warp_shuffle",
                              "T.ballot", "T.ballot_sync", "T.any_sync",
                              "T.all_sync", "T.activemask", "T.rand"},
                             c) ||
          c.starts_with("T.shfl_") || c.starts_with("T.warp_reduce_") ||
          c.starts_with("T.match_") || c.starts_with("T.atomic_") ||
          c.starts_with("T.rng_") || c.starts_with("T.ldg") ||
          c.starts_with("T.lds") || c.starts_with("T.ds_read_tr"))
        return true;
    }
    if (auto load = dyn_cast<LoadOp>(def)) {
      for (Value index : load.getIndices())
        if (varies(index, depth + 1))
          return true;
      auto type = cast<BufferType>(load.getBuffer().getType());
      MemoryScope scope = type.getScope();
      if (scope == MemoryScope::Local || scope == MemoryScope::LocalVar ||
          scope == MemoryScope::Fragment)
        return registerBufferVaries(getRootBuffer(load.getBuffer()),
                                    scope == MemoryScope::Fragment, depth);
      return false;
    }
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return varies(operand, depth + 1);
    });
  }

private:
  /// True when some write of the register buffer \p root (through views)
  /// may store a thread-dependent value.
  /// Outside T.Parallel a fragment is read only where every thread holds
  /// all of it (fully replicated), so the tile operations that write one
  /// (reductions, copies) leave the same values in every thread; scalar
  /// stores are still examined.
  bool registerBufferVaries(Value root, bool fragment, unsigned depth) {
    if (!examining.insert(root).second)
      return false;
    llvm::SmallVector<Value, 4> worklist{root};
    while (!worklist.empty()) {
      Value buffer = worklist.pop_back_val();
      for (Operation *user : buffer.getUsers()) {
        if (isa<LoadOp>(user))
          continue;
        if (isa<ViewOp, RegionOp>(user)) {
          worklist.push_back(user->getResult(0));
          continue;
        }
        if (auto store = dyn_cast<StoreOp>(user)) {
          if (varies(store.getValue(), depth + 1) ||
              llvm::any_of(store.getIndices(),
                           [&](Value i) { return varies(i, depth + 1); }) ||
              store->getParentOfType<ParallelOp>())
            return true;
          continue;
        }
        if (auto fill = dyn_cast<FillOp>(user)) {
          if (varies(fill.getValue(), depth + 1))
            return true;
          continue;
        }
        if (isa<ClearOp>(user) || fragment)
          continue;
        return true; // written by a tile operation (copy, gemm, reduce ...)
      }
    }
    return false;
  }

  llvm::SmallPtrSet<Value, 8> examining;
};
} // namespace

bool mayVaryAcrossThreads(Value v) { return ThreadVariance().varies(v); }

namespace {
/// A half-open interval of thread indices; empty when hi <= lo.
struct Interval {
  int64_t lo, hi;
};

/// The factor k when \p v is threadIdx.x / k (k = 1: threadIdx.x itself),
/// through integer casts, divisions by constants and the warp / warp-group
/// index intrinsics with their default sizes.
std::optional<int64_t> threadIndexScale(Value v) {
  int64_t scale = 1;
  while (Operation *d = v.getDefiningOp()) {
    if (auto tb = dyn_cast<ThreadBindingOp>(d))
      return tb.getDim() == 0 ? std::optional(scale) : std::nullopt;
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(d)) {
      v = d->getOperand(0);
      continue;
    }
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(d)) {
      APInt c;
      if (!matchPattern(d->getOperand(1), m_ConstantInt(&c)) ||
          c.getSExtValue() <= 0)
        return std::nullopt;
      scale *= c.getSExtValue();
      v = d->getOperand(0);
      continue;
    }
    if (auto in = dyn_cast<IntrinsicOp>(d)) {
      if (!in.getArgs().empty())
        return std::nullopt; // a warp size other than the default
      if (in.getCallee() == "T.get_warp_group_idx")
        return scale * 128;
      if (in.getCallee() == "T.get_warp_idx" ||
          in.getCallee() == "T.get_warp_idx_sync")
        return scale * 32;
      return std::nullopt;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// \p p with its operands swapped (`c < x` is `x > c`).
arith::CmpIPredicate swapPredicate(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ule:
    return P::uge;
  case P::ugt:
    return P::ult;
  case P::uge:
    return P::ule;
  default:
    return p; // eq, ne
  }
}

/// The threads of [0, threads) for which \p cond holds (\p negate: does
/// not hold), when they form one interval.
std::optional<Interval> conditionInterval(Value cond, bool negate,
                                          int64_t threads, unsigned depth = 0) {
  if (depth > 8)
    return std::nullopt;
  Operation *d = cond.getDefiningOp();
  if (!d)
    return std::nullopt;
  auto clip = [&](Interval i) -> std::optional<Interval> {
    i.lo = std::max<int64_t>(i.lo, 0);
    i.hi = std::min<int64_t>(i.hi, threads);
    return i;
  };
  // and / or: intersections and contiguous unions (De Morgan for negate).
  if (isa<arith::AndIOp, arith::OrIOp>(d)) {
    bool intersect = isa<arith::AndIOp>(d) != negate;
    // A conjunct the same for every thread (`cta_id == 0 and tx < 64`)
    // decides whether the block runs the branch, not which of its threads
    // do: the branch's threads are the other conjunct's.
    auto side = [&](Value v) -> std::optional<Interval> {
      if (intersect && !mayVaryAcrossThreads(v))
        return Interval{0, threads};
      return conditionInterval(v, negate, threads, depth + 1);
    };
    std::optional<Interval> a = side(d->getOperand(0));
    std::optional<Interval> b = side(d->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    if (intersect)
      return clip({std::max(a->lo, b->lo), std::min(a->hi, b->hi)});
    if (a->hi <= a->lo)
      return b;
    if (b->hi <= b->lo)
      return a;
    if (a->lo > b->hi || b->lo > a->hi)
      return std::nullopt; // two pieces
    return clip({std::min(a->lo, b->lo), std::max(a->hi, b->hi)});
  }
  // A constant: every thread or none.
  if (IntegerAttr c; matchPattern(cond, m_Constant(&c)))
    return (c.getValue().getBoolValue() != negate)
               ? Interval{0, threads}
               : Interval{0, 0};
  auto cmp = dyn_cast<arith::CmpIOp>(d);
  if (!cmp)
    return std::nullopt;
  APInt c;
  arith::CmpIPredicate pred = cmp.getPredicate();
  std::optional<int64_t> scale = threadIndexScale(cmp.getLhs());
  if (!scale || !matchPattern(cmp.getRhs(), m_ConstantInt(&c))) {
    // `c <= tx` and the like: the same comparison with tx on the left.
    scale = threadIndexScale(cmp.getRhs());
    if (!scale || !matchPattern(cmp.getLhs(), m_ConstantInt(&c)))
      return std::nullopt;
    pred = swapPredicate(pred);
  }
  int64_t k = c.getSExtValue(), s = *scale;
  // In units of the scaled index x = tx / s: the interval [a, b) of x.
  int64_t a = 0, b = (threads + s - 1) / s;
  switch (pred) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    b = k;
    break;
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    b = k + 1;
    break;
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    a = k;
    break;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    a = k + 1;
    break;
  case arith::CmpIPredicate::eq:
    a = k;
    b = k + 1;
    break;
  default:
    return std::nullopt;
  }
  Interval in{a * s, b * s};
  if (!negate)
    return clip(in);
  // The complement of [lo, hi) in [0, threads) is one interval only when
  // the range touches an end.
  if (in.lo <= 0)
    return clip({in.hi, threads});
  if (in.hi >= threads)
    return clip({0, in.lo});
  return std::nullopt;
}
} // namespace

/// The else branch of `u and t` with `u` the same for every thread (`elif`
/// after `if tx < 64 and cta_id == 0`): every thread where u is false, the
/// threads of `not t` where it holds; nothing for other conditions.
static std::optional<std::pair<Interval, Interval>>
uniformConjunctElse(Value cond, int64_t threads) {
  auto both = cond.getDefiningOp<arith::AndIOp>();
  if (!both)
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    Value u = both->getOperand(i), t = both->getOperand(1 - i);
    if (mayVaryAcrossThreads(u))
      continue;
    std::optional<Interval> notT = conditionInterval(t, true, threads);
    if (!notT)
      return std::nullopt;
    return std::make_pair(*notT, Interval{0, threads});
  }
  return std::nullopt;
}

std::optional<ThreadRange> threadRangeOf(Operation *op, int64_t threads,
                                         Operation **unrecognised) {
  ThreadRange range{0, threads, nullptr};
  // Where a branch's threads depend on a block-uniform value, the range
  // under each of its values; the op has a range when they all agree.
  SmallVector<Interval, 2> alternatives;
  // Intervals of threads the else branches of two-sided conditions leave
  // out.
  SmallVector<Interval, 2> holes;
  Operation *child = op;
  for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p);
       child = p, p = p->getParentOp()) {
    auto ifOp = dyn_cast<IfOp>(p);
    if (!ifOp || !mayVaryAcrossThreads(ifOp.getCondition()))
      continue;
    bool inElse = child->getParentRegion() != &ifOp.getThenRegion();
    std::optional<Interval> in =
        conditionInterval(ifOp.getCondition(), inElse, threads);
    std::optional<std::pair<Interval, Interval>> either;
    if (!in && inElse)
      either = uniformConjunctElse(ifOp.getCondition(), threads);
    if (!in && !either && inElse) {
      // The else branch of `64 <= tx < 96`: every thread but an interval
      // inside the block, subtracted once the conditions around it have
      // narrowed the range (`elif 128 <= tx < 256` after it).
      if (std::optional<Interval> hole =
              conditionInterval(ifOp.getCondition(), false, threads)) {
        holes.push_back(*hole);
        if (!range.condition)
          range.condition = p;
        continue;
      }
    }
    if (!in && !either) {
      if (unrecognised)
        *unrecognised = p;
      return std::nullopt;
    }
    if (!range.condition)
      range.condition = p;
    if (either && !alternatives.empty()) {
      // Two such branches: four combinations; not followed.
      if (unrecognised)
        *unrecognised = p;
      return std::nullopt;
    }
    std::optional<Interval> alt;
    if (either) {
      alt = Interval{std::max(range.lo, either->second.lo),
                     std::min(range.hi, either->second.hi)};
      in = either->first;
    }
    range.lo = std::max(range.lo, in->lo);
    range.hi = std::min(range.hi, in->hi);
    for (Interval &a : alternatives) {
      a.lo = std::max(a.lo, in->lo);
      a.hi = std::min(a.hi, in->hi);
    }
    if (alt)
      alternatives.push_back(*alt);
  }
  // Each range less the holes: one interval where every hole cuts an end
  // off it (or misses it); two pieces are no range.
  auto subtractHoles = [&](Interval &r) {
    for (bool changed = true; changed;) {
      changed = false;
      for (const Interval &h : holes) {
        if (h.hi <= h.lo || h.hi <= r.lo || h.lo >= r.hi)
          continue;
        if (h.lo <= r.lo) {
          r.lo = h.hi;
          changed = true;
        } else if (h.hi >= r.hi) {
          r.hi = h.lo;
          changed = true;
        }
      }
      if (r.hi <= r.lo)
        return true;
    }
    return llvm::none_of(holes, [&](const Interval &h) {
      return h.lo > r.lo && h.hi < r.hi && h.hi > h.lo;
    });
  };
  Interval narrowed{range.lo, range.hi};
  if (!subtractHoles(narrowed)) {
    if (unrecognised)
      *unrecognised = range.condition;
    return std::nullopt;
  }
  range.lo = narrowed.lo;
  range.hi = narrowed.hi;
  if (range.hi < range.lo)
    range.hi = range.lo;
  for (Interval a : alternatives) {
    if (!subtractHoles(a)) {
      if (unrecognised)
        *unrecognised = range.condition;
      return std::nullopt;
    }
    if (a.hi < a.lo)
      a.hi = a.lo;
    if (a.lo != range.lo || a.hi != range.hi) {
      if (unrecognised)
        *unrecognised = range.condition;
      return std::nullopt;
    }
  }
  return range;
}

std::optional<ThreadRange> getBranchRange(Operation *ifOp, Region &region,
                                          int64_t threads) {
  auto op = dyn_cast<IfOp>(ifOp);
  if (!op || region.empty() || region.front().empty() ||
      !mayVaryAcrossThreads(op.getCondition()))
    return std::nullopt;
  std::optional<ThreadRange> r =
      threadRangeOf(&region.front().front(), threads);
  if (!r || !r->condition || r->count() <= 0 || !r->warpAligned())
    return std::nullopt;
  return r;
}

bool ordersThreadsWithMbarriers(Operation *kernel) {
  WalkResult found = kernel->walk([](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op))
      if (isBarrierScope(cast<BufferType>(alloc.getType()).getScope()))
        return WalkResult::interrupt();
    if (auto in = dyn_cast<IntrinsicOp>(op)) {
      StringRef c = in.getCallee();
      if (c == "T.create_list_of_mbarrier" || c.starts_with("T.mbarrier_") ||
          c == "T.barrier_wait" || c == "T.barrier_arrive" ||
          c == "T.ptx_arrive_barrier")
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

bool isSharedStorageSync(Operation *op) {
  auto i = dyn_cast<IntrinsicOp>(op);
  if (!i || i.getCallee() != "T.tvm_storage_sync")
    return false;
  StringRef scope;
  if (DictionaryAttr d = i.getOptionsAttr())
    if (auto a = d.getAs<StringAttr>("scope"))
      scope = a.getValue();
  return scope == "shared" || scope == "shared.dyn";
}

Operation *findUseAcrossBarriers(Block &body, ArrayRef<Operation *> barriers) {
  if (barriers.empty())
    return nullptr;
  // The stretch of each op of the body: the number of barriers before it.
  llvm::DenseMap<Operation *, unsigned> stretch;
  unsigned n = 0;
  for (Operation &o : body) {
    if (n < barriers.size() && &o == barriers[n])
      ++n;
    stretch[&o] = n;
  }
  for (Operation &o : body)
    for (Value v : o.getResults())
      for (Operation *user : v.getUsers()) {
        Operation *top = body.findAncestorOpInBlock(*user);
        if (top && stretch.lookup(top) != stretch.lookup(&o))
          return user;
      }
  return nullptr;
}

} // namespace tlc::tile
