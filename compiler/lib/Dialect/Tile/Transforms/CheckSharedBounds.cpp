//===- CheckSharedBounds.cpp - The --tile-check-shared-bounds pass --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reports element accesses of shared, fragment and local buffers that leave
// the buffer on every run (Passes.td has the rules). IndexIntervals filters: an index whose
// interval lies inside its extent is fine. Any other index is compiled into
// a small expression over its varying leaves (loop, block and thread
// indices) and evaluated at every combination of their values, so that only
// an index some iteration really takes outside the buffer is reported.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILECHECKSHAREDBOUNDS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {
/// The most index combinations evaluated for one access.
constexpr int64_t kMaxCombinations = int64_t(1) << 20;

/// The values a varying leaf takes: lo, lo + step, ..., up to hi.
struct LeafRange {
  int64_t lo = 0, hi = 0, step = 1;
  int64_t count() const { return (hi - lo) / step + 1; }
};

/// The values of the loop, block or thread index \p v (an arithmetic
/// progression), when its bounds and step are constants and it takes at
/// least one value; nullopt for any other value.
std::optional<LeafRange> leafRange(Value v) {
  std::optional<IndexVariableRange> range = getIndexVariableRange(v);
  if (!range)
    return std::nullopt;
  std::optional<int64_t> l = getConstantIntValue(range->lower);
  std::optional<int64_t> u = getConstantIntValue(range->upper);
  std::optional<int64_t> s = getConstantIntValue(range->step);
  if (!l || !u || !s || *s < 1 || *u <= *l)
    return std::nullopt;
  return LeafRange{*l, *l + (*u - 1 - *l) / *s * *s, *s};
}

/// One index expression compiled for repeated evaluation: nodes in
/// post-order over constants, leaves and binary integer operations.
class IndexProgram {
public:
  /// Compiles \p v; false when some part of it is not integer arithmetic
  /// over constants and leaves with known ranges.
  bool compile(Value v) { return node(v).has_value(); }

  llvm::ArrayRef<LeafRange> getLeaves() const { return leafRanges; }

  /// The value at the leaf values \p at; nullopt on a division by zero.
  std::optional<int64_t> evaluate(llvm::ArrayRef<int64_t> at) const {
    llvm::SmallVector<int64_t, 16> values(nodes.size());
    for (auto [i, n] : llvm::enumerate(nodes)) {
      int64_t a = n.lhs >= 0 ? values[n.lhs] : 0;
      int64_t b = n.rhs >= 0 ? values[n.rhs] : 0;
      switch (n.kind) {
      case Kind::Constant:
        values[i] = n.value;
        break;
      case Kind::Leaf:
        values[i] = at[n.value];
        break;
      case Kind::Add:
        values[i] = a + b;
        break;
      case Kind::Sub:
        values[i] = a - b;
        break;
      case Kind::Mul:
        values[i] = a * b;
        break;
      case Kind::Div:
      case Kind::FloorDiv:
      case Kind::CeilDiv:
      case Kind::Rem: {
        if (b == 0)
          return std::nullopt;
        int64_t q = a / b, r = a % b;
        if (n.kind == Kind::Div)
          values[i] = q;
        else if (n.kind == Kind::Rem)
          values[i] = r;
        else if (n.kind == Kind::FloorDiv)
          values[i] = (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
        else
          values[i] = (r != 0 && ((r < 0) == (b < 0))) ? q + 1 : q;
        break;
      }
      case Kind::Min:
        values[i] = std::min(a, b);
        break;
      case Kind::Max:
        values[i] = std::max(a, b);
        break;
      }
    }
    return values.back();
  }

private:
  enum class Kind {
    Constant,
    Leaf,
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    CeilDiv,
    Rem,
    Min,
    Max
  };
  struct Node {
    Kind kind;
    int64_t value = 0; // the constant, or the leaf's position
    int lhs = -1, rhs = -1;
  };

  std::optional<int> push(Node n) {
    nodes.push_back(n);
    return int(nodes.size()) - 1;
  }

  std::optional<int> node(Value v) {
    if (nodes.size() > 256)
      return std::nullopt;
    IntegerAttr cst;
    if (matchPattern(v, m_Constant(&cst)) && cst.getType().isIntOrIndex())
      return push({Kind::Constant, cst.getInt()});
    if (std::optional<LeafRange> r = leafRange(v)) {
      auto [it, inserted] = leafIndex.try_emplace(v, leafRanges.size());
      if (inserted)
        leafRanges.push_back(*r);
      return push({Kind::Leaf, int64_t(it->second)});
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(def))
      return node(def->getOperand(0));
    std::optional<Kind> kind =
        llvm::TypeSwitch<Operation *, std::optional<Kind>>(def)
            .Case<arith::AddIOp>([](auto) { return Kind::Add; })
            .Case<arith::SubIOp>([](auto) { return Kind::Sub; })
            .Case<arith::MulIOp>([](auto) { return Kind::Mul; })
            .Case<arith::DivSIOp>([](auto) { return Kind::Div; })
            .Case<arith::FloorDivSIOp>([](auto) { return Kind::FloorDiv; })
            .Case<arith::CeilDivSIOp>([](auto) { return Kind::CeilDiv; })
            .Case<arith::RemSIOp>([](auto) { return Kind::Rem; })
            .Case<arith::MinSIOp>([](auto) { return Kind::Min; })
            .Case<arith::MaxSIOp>([](auto) { return Kind::Max; })
            .Default([](Operation *) { return std::nullopt; });
    if (!kind)
      return std::nullopt;
    std::optional<int> a = node(def->getOperand(0));
    if (!a)
      return std::nullopt;
    std::optional<int> b = node(def->getOperand(1));
    if (!b)
      return std::nullopt;
    return push({*kind, 0, *a, *b});
  }

  std::vector<Node> nodes;
  llvm::SmallVector<LeafRange> leafRanges;
  llvm::DenseMap<Value, unsigned> leafIndex;
};

/// Whether every run of \p op's kernel executes \p op: each op between it
/// and its kernel is a loop that runs at least once.
bool alwaysExecuted(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (isa<KernelOp>(p))
      return true;
    if (!isa<ParallelOp, ForOp, PipelinedOp>(p) || p->getNumRegions() != 1 ||
        p->getRegion(0).empty())
      return false;
    // Each loop variable takes at least one value (T.serial / T.Pipelined:
    // the first block argument is the induction variable).
    Block &body = p->getRegion(0).front();
    unsigned vars = isa<ParallelOp>(p) ? body.getNumArguments() : 1;
    if (body.getNumArguments() < vars)
      return false;
    for (unsigned i = 0; i < vars; ++i)
      if (!leafRange(body.getArgument(i)))
        return false;
  }
  return false;
}

/// Whether the value \p load reads may be needed only on one side of a
/// choice: it reaches an `arith.select` operand or a boolean and/or (which
/// TileLang's generated code short-circuits) through arithmetic.
bool feedsChoice(Operation *load) {
  llvm::SmallVector<Value> work(load->getResults());
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<arith::SelectOp>(user))
        return true;
      if (isa<arith::AndIOp, arith::OrIOp>(user) &&
          user->getResult(0).getType().isInteger(1))
        return true;
      if (user->getDialect() != load->getContext()->getLoadedDialect("arith") ||
          user->getNumResults() != 1 || !seen.insert(user).second ||
          seen.size() > 64)
        continue;
      work.push_back(user->getResult(0));
    }
  }
  return false;
}

/// The least and greatest value of \p program over every combination of
/// its leaves; nullopt past kMaxCombinations or on a division by zero.
std::optional<std::pair<int64_t, int64_t>>
valueRange(const IndexProgram &program) {
  llvm::ArrayRef<LeafRange> leaves = program.getLeaves();
  int64_t total = 1;
  for (const LeafRange &l : leaves) {
    total *= l.count();
    if (total > kMaxCombinations)
      return std::nullopt;
  }
  llvm::SmallVector<int64_t> at;
  for (const LeafRange &l : leaves)
    at.push_back(l.lo);
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  while (true) {
    std::optional<int64_t> x = program.evaluate(at);
    if (!x)
      return std::nullopt;
    lo = std::min(lo, *x);
    hi = std::max(hi, *x);
    size_t d = 0;
    for (; d < at.size(); ++d) {
      at[d] += leaves[d].step;
      if (at[d] <= leaves[d].hi)
        break;
      at[d] = leaves[d].lo;
    }
    if (d == at.size())
      return std::make_pair(lo, hi);
  }
}

/// The name of the buffer \p alloc makes, from its location.
std::string bufferName(Operation *alloc) {
  if (auto n = dyn_cast<NameLoc>(alloc->getLoc()))
    return ("'" + n.getName().getValue() + "'").str();
  auto type = dyn_cast<BufferType>(alloc->getResult(0).getType());
  return type && isSharedScope(type.getScope()) ? "the shared buffer"
                                                 : "the buffer";
}

/// Whether \p s is a scope of on-chip buffers that the generated code
/// indexes without any check: shared memory, a fragment's registers, a
/// thread's local array or T.alloc_var.
bool isCheckedScope(MemoryScope s) {
  return isSharedScope(s) || s == MemoryScope::Fragment ||
         s == MemoryScope::Local || s == MemoryScope::LocalVar;
}

/// What an access outside a buffer of scope \p s does, for the message.
llvm::StringRef outsideEffect(MemoryScope s) {
  return isSharedScope(s)
             ? "the access lands in other shared memory or past its end"
             : "the access reads or writes registers or local memory of "
               "something else";
}

/// The checked allocation \p buffer is (the result of a `tile.alloc` itself,
/// not a view), when it has no empty dimension (already an error at the
/// allocation); a null op otherwise.
AllocOp checkedSharedAlloc(Value buffer) {
  auto alloc = buffer.getDefiningOp<AllocOp>();
  auto type = dyn_cast<BufferType>(buffer.getType());
  if (!alloc || !type || !isCheckedScope(type.getScope()) ||
      llvm::any_of(type.getShape(), [](int64_t e) {
        return !ShapedType::isDynamic(e) && e <= 0;
      }))
    return nullptr;
  return alloc;
}

/// Attaches the note that shows \p alloc's allocation to \p diag.
void noteAllocation(InFlightDiagnostic &diag, AllocOp alloc) {
  diag.attachNote(alloc->getLoc())
      << bufferName(alloc) << " is allocated here with shape "
      << cast<BufferType>(alloc.getType()).getShapeString();
}

/// Checks one access of \p buffer at \p indices; emits and returns false
/// for one that leaves it.
bool checkAccess(Operation *op, Value buffer, ValueRange indices,
                 IndexIntervals &intervals) {
  AllocOp alloc = checkedSharedAlloc(buffer);
  if (!alloc)
    return true;
  auto type = cast<BufferType>(buffer.getType());
  if (indices.size() != type.getShape().size())
    return true;
  if (!alwaysExecuted(op) || (isa<LoadOp>(op) && feedsChoice(op)))
    return true;
  for (auto [d, index] : llvm::enumerate(indices)) {
    int64_t extent = type.getShape()[d];
    if (ShapedType::isDynamic(extent))
      continue;
    std::optional<IndexInterval> interval = intervals.of(index);
    if (interval && interval->lo >= 0 && interval->hi < extent)
      continue;
    IndexProgram program;
    if (!program.compile(index))
      continue;
    std::optional<std::pair<int64_t, int64_t>> range = valueRange(program);
    if (!range || (range->first >= 0 && range->second < extent))
      continue;
    InFlightDiagnostic diag =
        op->emitError()
        << (isa<StoreOp>(op) ? "write" : "read") << " outside "
        << bufferName(alloc) << ": the index of dimension " << d
        << " takes the values " << range->first << " to " << range->second
        << " here, but the dimension has " << extent
        << " elements (TileLang does not check this either: "
        << outsideEffect(type.getScope()) << ")";
    noteAllocation(diag, alloc);
    return false;
  }
  return true;
}

/// Checks the region \p region of a shared buffer: its elements must lie
/// inside the buffer wherever its offsets take values (a region is the
/// operand of a T.copy, T.gemm or other tile op, which accesses every
/// element of it: TileLang guards only global memory, so the part past a
/// shared buffer is read or written anyway). Emits and returns false for
/// one that leaves it.
bool checkRegion(RegionOp region, IndexIntervals &intervals) {
  Value buffer = region.getSource();
  AllocOp alloc = checkedSharedAlloc(buffer);
  auto result = dyn_cast<BufferType>(region.getType());
  if (!alloc || !result)
    return true;
  auto type = cast<BufferType>(buffer.getType());
  // Regions of fragments and local buffers are checked by the tile ops'
  // own shape rules.
  if (!isSharedScope(type.getScope()) ||
      result.getShape().size() != type.getShape().size())
    return true;
  // Only a region every run accesses: it and each op using it run on every
  // run of the kernel.
  if (region->use_empty() || !alwaysExecuted(region) ||
      llvm::any_of(region->getUsers(),
                   [](Operation *u) { return !alwaysExecuted(u); }))
    return true;
  for (auto [d, offset] : llvm::enumerate(region.getMixedOffsets())) {
    int64_t extent = type.getShape()[d];
    int64_t size = result.getShape()[d];
    if (ShapedType::isDynamic(extent) || ShapedType::isDynamic(size) ||
        size <= 0)
      continue;
    std::optional<std::pair<int64_t, int64_t>> range;
    if (std::optional<int64_t> c = getConstantIntValue(offset)) {
      range = std::make_pair(*c, *c);
    } else {
      Value v = cast<Value>(offset);
      std::optional<IndexInterval> interval = intervals.of(v);
      if (interval && interval->lo >= 0 && interval->hi + size <= extent)
        continue;
      IndexProgram program;
      if (!program.compile(v))
        continue;
      range = valueRange(program);
    }
    if (!range || (range->first >= 0 && range->second + size <= extent))
      continue;
    InFlightDiagnostic diag =
        region->emitError()
        << "region outside " << bufferName(alloc) << ": in dimension " << d
        << (range->first == range->second
                ? " it starts at index " + std::to_string(range->first)
                : " its start takes the values " +
                      std::to_string(range->first) + " to " +
                      std::to_string(range->second) + " here")
        << " and spans " << size << " elements"
        << ", but the dimension has " << extent
        << " elements (TileLang guards only global memory: the elements "
           "outside the buffer are accessed in other shared memory or past its "
           "end)";
    noteAllocation(diag, alloc);
    return false;
  }
  return true;
}

struct TileCheckSharedBoundsPass
    : public tile::impl::TileCheckSharedBoundsBase<TileCheckSharedBoundsPass> {
  void runOnOperation() override {
    if (failed(checkSharedBounds(getOperation())))
      signalPassFailure();
  }
};
} // namespace

LogicalResult tlc::tile::checkSharedBounds(Operation *root) {
  IndexIntervals intervals;
  bool ok = true;
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      ok &= checkAccess(op, load.getBuffer(), load.getIndices(), intervals);
    else if (auto store = dyn_cast<StoreOp>(op))
      ok &= checkAccess(op, store.getBuffer(), store.getIndices(), intervals);
    else if (auto region = dyn_cast<RegionOp>(op))
      ok &= checkRegion(region, intervals);
  });
  return success(ok);
}
