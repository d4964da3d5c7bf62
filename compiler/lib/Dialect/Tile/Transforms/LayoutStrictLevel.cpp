//===- LayoutStrictLevel.cpp - Layout inference: strict level -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Setting a buffer's layout (a conflict names both ops that asked for
// one), and the strict level: T.annotate_layout, gemm operands and
// accumulators (mma.sync, wgmma, MFMA, per thread range), tensor memory
// copies, and fragments used outside every loop.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

#include "tlc/Layout/Propagation.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"

#include <deque>
#include <vector>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using layout::Fragment;
using layout::IndexExpr;
using layout::InferLevel;
using layout::Layout;
using namespace tlc::tile::detail;

//===----------------------------------------------------------------------===//
// Setting layouts
//===----------------------------------------------------------------------===//

/// Short description of an op for diagnostics: `'tile.gemm'`.
static std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

/// The threads [lo, hi) holding elements of \p f; std::nullopt when its
/// slots cannot be enumerated.
static std::optional<std::pair<int64_t, int64_t>>
heldThreads(const layout::Fragment &f) {
  llvm::Expected<std::vector<std::vector<int64_t>>> table = f.invertTable();
  if (!table) {
    llvm::consumeError(table.takeError());
    return std::nullopt;
  }
  int64_t regs = std::max<int64_t>(f.getRegsPerThread(), 1);
  int64_t lo = -1, hi = -1;
  for (int64_t slot = 0, e = int64_t(table->size()); slot < e; ++slot)
    if (!(*table)[slot].empty()) {
      if (lo < 0)
        lo = slot / regs;
      hi = slot / regs + 1;
    }
  if (lo < 0)
    return std::nullopt;
  return std::make_pair(lo, hi);
}

/// What tells apart two fragments whose short labels read the same: the
/// threads holding them, their replication, their registers per thread or,
/// failing those, where the elements are placed.
static std::string fragmentDifference(const layout::Fragment &have,
                                      const layout::Fragment &want) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto a = heldThreads(have), b = heldThreads(want);
  if (a && b && *a != *b) {
    os << "the existing layout is held by threads " << a->first << ".."
       << a->second - 1 << ", the needed one by threads " << b->first << ".."
       << b->second - 1;
    return s;
  }
  if (have.getReplicate() != want.getReplicate()) {
    os << "the existing layout holds each element " << have.getReplicate()
       << " time(s), the needed one " << want.getReplicate() << " time(s)";
    return s;
  }
  if (have.getRegsPerThread() != want.getRegsPerThread()) {
    os << "the existing layout keeps " << have.getRegsPerThread()
       << " registers per thread, the needed one "
       << want.getRegsPerThread();
    return s;
  }
  os << "same threads, replication and registers per thread, but the "
        "elements sit on different threads or registers";
  return s;
}

LogicalResult Solver::conflict(unsigned buf, Operation *by,
                               llvm::StringRef existing,
                               llvm::StringRef incoming, llvm::StringRef why) {
  BufferInfo &b = buffers[buf];
  std::string name = bufferDisplayName(b.root);
  Operation *setter = b.setter;
  InFlightDiagnostic diag = by->emitError()
                            << "layout conflict on '" << name << "': "
                            << opName(by) << " needs " << incoming << ", but "
                            << (setter ? opName(setter) : "an earlier op")
                            << " gave it " << existing;
  if (!why.empty())
    diag << " (" << why << ")";
  if (setter)
    diag.attachNote(setter->getLoc())
        << opName(setter) << " gave '" << name << "' the layout " << existing
        << " here";
  return failure();
}

void Solver::enqueueUsers(unsigned buf, unsigned except) {
  for (unsigned user : buffers[buf].users)
    if (user != except && !queued[user]) {
      queued[user] = true;
      queue.push_back(user);
    }
}

LogicalResult Solver::setFragment(unsigned buf, Fragment f, Operation *by,
                                  InferLevel level, bool readOnly) {
  BufferInfo &b = buffers[buf];
  if (!b.fragment) {
    b.fragment = std::move(f);
    b.setter = by;
    b.level = level;
    return success();
  }
  if (b.fragment->isEquivalentTo(f))
    return success();
  // A read is satisfied when every thread already holds what it reads.
  if (readOnly && b.fragment->contains(f))
    return success();
  InferLevel mergeLevel =
      (b.pinned || level == InferLevel::Strict) ? InferLevel::Strict : level;
  llvm::Expected<Fragment> merged =
      layout::mergeFragments(*b.fragment, f, mergeLevel);
  if (!merged) {
    llvm::consumeError(merged.takeError());
    std::string have = b.fragment->shortLabel(), want = f.shortLabel();
    return conflict(buf, by, have, want,
                    have == want ? fragmentDifference(*b.fragment, f) : "");
  }
  if (!merged->isEquivalentTo(*b.fragment)) {
    b.fragment = std::move(*merged);
    b.setter = by;
  }
  return success();
}

LogicalResult Solver::setShared(unsigned buf, Layout l, Operation *by,
                                InferLevel level) {
  BufferInfo &b = buffers[buf];
  if (!b.shared) {
    b.shared = std::move(l);
    b.setter = by;
    b.level = level;
    return success();
  }
  if (b.shared->isEquivalentTo(l))
    return success();
  // An annotation wins over what an op would pick (TileLang's mma path
  // reuses an existing shared layout).
  if (b.pinned)
    return success();
  llvm::Expected<Layout> merged = layout::mergeSharedLayouts(*b.shared, l);
  if (!merged) {
    std::string why = llvm::toString(merged.takeError());
    return conflict(buf, by, b.shared->shortLabel(), l.shortLabel(), "");
  }
  b.shared = std::move(*merged);
  return success();
}

//===----------------------------------------------------------------------===//
// Strict level
//===----------------------------------------------------------------------===//

LogicalResult Solver::applyAnnotation(AnnotateLayoutOp op) {
  std::optional<unsigned> id = rootBuffer(op.getBuffer(), false);
  if (!id)
    return success();
  BufferInfo &b = buffers[*id];
  Attribute attr = op.getLayout();
  if (b.isFragment) {
    std::optional<Fragment> f = decodeFragment(attr);
    if (!f) {
      op.emitWarning() << "layout inference ignores this annotation: not a "
                          "fragment layout";
      return success();
    }
    if (f->getInputShape() != llvm::ArrayRef<int64_t>(b.shape))
      return op.emitError() << "annotated fragment shape does not match the "
                               "buffer";
    if (llvm::Error err = f->verify(threads))
      return op.emitError() << "annotated fragment does not fit a block of "
                            << threads << " threads: "
                            << llvm::toString(std::move(err));
    if (failed(setFragment(*id, *f, op, InferLevel::Strict)))
      return failure();
    b.pinned = true;
    return success();
  }
  std::optional<Layout> l = decodeLayout(attr);
  // The tilelang.layout constructors that depend on the buffer: resolved
  // here, where its shape and element width are known.
  auto name = dyn_cast<StringAttr>(attr);
  if (!l && name && b.shape.size() >= 2 && b.bits) {
    auto swizzle = [&](layout::SwizzleMode mode) -> std::optional<Layout> {
      llvm::Expected<Layout> s =
          layout::makeSwizzledLayout(b.shape, b.bits, mode);
      if (s)
        return std::move(*s);
      llvm::consumeError(s.takeError());
      return std::nullopt;
    };
    llvm::StringRef n = name.getValue();
    if (n == "make_swizzled_layout" || n == "make_volta_swizzled_layout")
      l = layout::makeGemmABLayoutSm80(b.shape, b.bits, /*kInner=*/true);
    else if (n == "make_wgmma_swizzled_layout" ||
             n == "make_tcgen05mma_swizzled_layout")
      l = layout::makeGemmABLayoutHopper(b.shape, b.bits);
    else if (n == "make_full_bank_swizzled_layout")
      l = swizzle(layout::SwizzleMode::B128);
    else if (n == "make_half_bank_swizzled_layout")
      l = swizzle(layout::SwizzleMode::B64);
    else if (n == "make_quarter_bank_swizzled_layout")
      l = swizzle(layout::SwizzleMode::B32);
  }
  if (!l && name && name.getValue() == "make_linear_layout")
    l = Layout::linear(b.shape);
  if (!l) {
    op.emitWarning() << "layout inference ignores this annotation: unknown "
                        "shared-memory layout";
    return success();
  }
  if (l->getInputShape() != llvm::ArrayRef<int64_t>(b.shape))
    return op.emitError() << "annotated layout shape does not match the "
                             "buffer";
  if (failed(setShared(*id, *l, op, InferLevel::Strict)))
    return failure();
  b.pinned = true;
  return success();
}

layout::WarpPolicy tlc::tile::toLayoutWarpPolicy(GemmWarpPolicy policy) {
  switch (policy) {
  case GemmWarpPolicy::Square:
    return layout::WarpPolicy::Square;
  case GemmWarpPolicy::FullRow:
    return layout::WarpPolicy::FullRow;
  case GemmWarpPolicy::FullCol:
    return layout::WarpPolicy::FullCol;
  }
  return layout::WarpPolicy::Square;
}

std::optional<std::pair<layout::WarpPolicy, Fragment>>
tlc::tile::matchAnnotatedAccumulator(const layout::GemmConfig &config,
                                     llvm::ArrayRef<int64_t> shape,
                                     const Fragment &given) {
  layout::GemmConfig c = config;
  for (layout::WarpPolicy p :
       {config.policy, layout::WarpPolicy::FullRow, layout::WarpPolicy::FullCol,
        layout::WarpPolicy::Square}) {
    c.policy = p;
    llvm::Expected<layout::OperandLayout> l = layout::layoutForGemmOperand(
        c, layout::GemmOperand::C, layout::OperandScope::Fragment, shape);
    if (!l) {
      llvm::consumeError(l.takeError());
      continue;
    }
    if (l->fragment && l->fragment->isEquivalentTo(given))
      return std::make_pair(p, std::move(*l->fragment));
  }
  return std::nullopt;
}

/// The last two extents of a gemm operand, ignoring leading unit
/// dimensions; std::nullopt when symbolic or not a matrix.
static std::optional<std::pair<int64_t, int64_t>> matrixOf(Value v) {
  BufferType type = getBufferType(v);
  if (!type || !type.isStatic())
    return std::nullopt;
  llvm::ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() < 2)
    return std::nullopt;
  for (int64_t e : shape.drop_back(2))
    if (e != 1)
      return std::nullopt;
  return std::make_pair(shape.end()[-2], shape.back());
}


LogicalResult Solver::inferGemm(GemmOp op) {
  std::optional<std::pair<int64_t, int64_t>> a = matrixOf(op.getA());
  std::optional<std::pair<int64_t, int64_t>> b = matrixOf(op.getB());
  std::optional<std::pair<int64_t, int64_t>> c = matrixOf(op.getC());
  if (!a || !b || !c)
    return success();
  layout::GemmConfig config;
  config.arch = target.arch;
  config.transA = op.getTransposeA();
  config.transB = op.getTransposeB();
  config.m = c->first;
  config.n = c->second;
  config.k = config.transA ? a->first : a->second;
  config.abBits = elementBitWidth(getBufferType(op.getA()).getElementType());
  config.accBits = elementBitWidth(getBufferType(op.getC()).getElementType());
  config.policy = toLayoutWarpPolicy(op.getPolicy());
  config.threads = threads;
  int64_t firstThread = 0;
  bool inRange = false;
  if (std::optional<std::pair<int64_t, int64_t>> range =
          warpGroupRange(op, threads);
      range && range->first + range->second <= threads) {
    firstThread = range->first;
    config.threads = range->second;
    inRange = true;
  }
  // An accumulator the program annotated with the C layout of another warp
  // grid than the gemm's policy gives (TileLang's WGMMA atom emitter lays
  // out its `block_row_warps x block_col_warps` warps, 4 x 1, where a
  // Square policy gives 2 x 2): the gemm takes that grid, for all three
  // operands.
  if (std::optional<unsigned> cid = rootBuffer(op.getC(), true);
      cid && !inRange && op.getC().getDefiningOp<AllocOp>() &&
      buffers[*cid].pinned && buffers[*cid].fragment)
    if (auto match = matchAnnotatedAccumulator(config, buffers[*cid].shape,
                                               *buffers[*cid].fragment))
      config.policy = match->first;

  struct Operand {
    Value value;
    layout::GemmOperand which;
  };
  for (Operand operand : {Operand{op.getC(), layout::GemmOperand::C},
                          Operand{op.getA(), layout::GemmOperand::A},
                          Operand{op.getB(), layout::GemmOperand::B}}) {
    std::optional<unsigned> id = rootBuffer(operand.value, true);
    if (!id)
      continue;
    BufferInfo &buf = buffers[*id];
    bool isRegion = !operand.value.getDefiningOp<AllocOp>();
    if (buf.isFragment && isRegion)
      continue; // A region of a fragment: not a whole-buffer layout.
    // A sub-tile of a larger shared buffer (`A_shared[:, k0:k0 + 16]`):
    // the buffer gets the swizzle of a gemm over its whole extent, as
    // TileLang lays out the buffer, not the slice.
    layout::GemmConfig whole = config;
    // The CTA pair's MMA (`use_2cta`): each CTA's B holds half of C's
    // columns.
    if (operand.which == layout::GemmOperand::B &&
        op->hasAttr("tile.use_2cta") && config.n % 2 == 0)
      whole.n = config.n / 2;
    if (!buf.isFragment && isRegion && buf.shape.size() == 2) {
      if (operand.which == layout::GemmOperand::A) {
        whole.m = buf.shape[config.transA ? 1 : 0];
        whole.k = buf.shape[config.transA ? 0 : 1];
      } else if (operand.which == layout::GemmOperand::B) {
        whole.n = buf.shape[config.transB ? 0 : 1];
        whole.k = buf.shape[config.transB ? 1 : 0];
      }
    }
    llvm::Expected<layout::OperandLayout> l = layout::layoutForGemmOperand(
        whole, operand.which,
        buf.isFragment ? layout::OperandScope::Fragment
                       : layout::OperandScope::Shared,
        buf.shape);
    // A shared B of another width than A (mixed FP8/FP6/FP4 codes): its
    // layout follows its own elements, as TileLang lays out each operand
    // (makeGemmABLayout of the operand's bits), for the instruction the
    // gemm takes. So one B tile shared by an f4 x f8 and an f8 x f8 gemm
    // gets one layout.
    unsigned bBits = elementBitWidth(getBufferType(op.getB()).getElementType());
    if (l && l->shared && operand.which == layout::GemmOperand::B &&
        bBits != whole.abBits)
      l->shared = layout::selectGemmInstr(whole) == layout::GemmInstr::WGMMA
                      ? layout::makeGemmABLayoutHopper(buf.shape, bBits)
                      : layout::makeGemmABLayoutSm80(buf.shape, bBits,
                                                     /*kInner=*/whole.transB);
    if (!l && !buf.isFragment && isRegion) {
      // No gemm layout fits the whole buffer: it keeps the layout the free
      // level gives it.
      llvm::consumeError(l.takeError());
      continue;
    }
    if (!l)
      return op.emitError()
             << "cannot lay out operand "
             << layout::stringifyGemmOperand(operand.which) << " ('"
             << bufferDisplayName(buf.root)
             << "') of this gemm: " << llvm::toString(l.takeError());
    if (l->fragment && inRange && operand.which == layout::GemmOperand::C) {
      if (failed(setRangeAccumulator(*id, *l->fragment, firstThread, op)))
        return failure();
    } else if (l->fragment) {
      if (firstThread)
        *l->fragment = l->fragment->shiftThreads(firstThread);
      if (failed(setFragment(*id, std::move(*l->fragment), op,
                             InferLevel::Strict)))
        return failure();
    } else if (l->shared) {
      if (failed(setShared(*id, std::move(*l->shared), op,
                           InferLevel::Strict)))
        return failure();
    }
  }
  return success();
}

LogicalResult Solver::setRangeAccumulator(unsigned buf, const Fragment &base,
                                          int64_t firstThread, GemmOp by) {
  BufferInfo &b = buffers[buf];
  Fragment shifted = base.shiftThreads(firstThread);
  if (!b.fragment) {
    if (failed(setFragment(buf, std::move(shifted), by, InferLevel::Strict)))
      return failure();
    b.rangeBase = base;
    b.rangeStarts = {firstThread};
    return success();
  }
  if (b.pinned || !b.rangeBase || !b.rangeBase->isEquivalentTo(base))
    return setFragment(buf, std::move(shifted), by, InferLevel::Strict);
  if (llvm::is_contained(b.rangeStarts, firstThread))
    return success(); // another gemm of a range that already has its copy
  // TileLang binds each gemm's accumulator layout to the threads of its
  // region and accepts a second region's equal layout; here that is one
  // more copy, on the threads of the new range. The copies must sit at a
  // constant stride (the replica number picks the range) and not overlap.
  std::vector<int64_t> starts = b.rangeStarts;
  starts.insert(llvm::upper_bound(starts, firstThread), firstThread);
  int64_t step = starts[1] - starts[0];
  bool regular = step >= base.getThreadExtent();
  for (size_t k = 2; k < starts.size(); ++k)
    regular &= starts[k] - starts[k - 1] == step;
  if (!regular)
    return setFragment(buf, std::move(shifted), by, InferLevel::Strict);
  unsigned rank = base.getInputRank();
  int64_t perRange = base.getReplicate();
  IndexExpr rep = IndexExpr::var(rank, "rep");
  std::vector<IndexExpr> repl(rank + 1);
  repl[rank] = layout::floorMod(rep, perRange);
  IndexExpr thread = layout::substitute(base.getForwardThread(), repl) +
                     starts.front() + layout::floorDiv(rep, perRange) * step;
  llvm::Expected<Fragment> copies = Fragment::get(
      std::vector<int64_t>(base.getInputShape().begin(),
                           base.getInputShape().end()),
      std::vector<IndexExpr>(base.getForwardIndex().begin(),
                             base.getForwardIndex().end()),
      thread, perRange * static_cast<int64_t>(starts.size()),
      base.getOrigin());
  if (!copies) {
    llvm::consumeError(copies.takeError());
    return setFragment(buf, std::move(shifted), by, InferLevel::Strict);
  }
  b.fragment = std::move(*copies);
  b.rangeStarts = std::move(starts);
  return success();
}

FailureOr<Fragment> Solver::replicateWhole(unsigned buf, Operation *at,
                                          llvm::StringRef why) {
  if (std::optional<Fragment> whole =
          layout::fullyReplicatedWithin(buffers[buf].shape, threads))
    return std::move(*whole);
  int64_t elements = elementCount(buffers[buf].shape);
  return at->emitError()
         << "fragment '" << bufferDisplayName(buffers[buf].root) << "' of "
         << elements << " elements " << why
         << ", so every thread would hold all of it (" << elements
         << " registers per thread; the limit is 255)";
}

bool Solver::isTensorMemoryCopy(CopyOp op) {
  auto scope = [](Value v) {
    BufferType t = getBufferType(v);
    return t ? t.getScope() : MemoryScope::Global;
  };
  return scope(op.getSrc()) == MemoryScope::TensorMemory ||
         scope(op.getDst()) == MemoryScope::TensorMemory;
}

LogicalResult Solver::inferTensorMemoryCopy(CopyOp op) {
  bool load = getBufferType(op.getSrc()).getScope() == MemoryScope::TensorMemory;
  Value frag = load ? op.getDst() : op.getSrc();
  std::optional<unsigned> id = rootBuffer(frag, false);
  if (!id || !buffers[*id].isFragment || !frag.getDefiningOp<AllocOp>() ||
      buffers[*id].shape.size() != 2)
    return success(); // the printer refuses what it cannot copy
  // tcgen05.ld / st .32x32b: thread r of the copy's warpgroups holds row r
  // (tensor memory lane r), the columns in its registers.
  int64_t first = 0, count = threads;
  if (std::optional<std::pair<int64_t, int64_t>> range =
          warpGroupRange(op, threads)) {
    first = range->first;
    count = range->second;
  }
  const std::vector<int64_t> &shape = buffers[*id].shape;
  // A 128-row tile copied by several warpgroups: as TileLang does, the
  // copy uses the most warpgroups that split the columns evenly, and
  // warpgroup g holds the g-th share of them (its thread r row r).
  int64_t groups = 1;
  if (shape[0] == 128 && count % 128 == 0)
    for (groups = count / 128; groups > 1 && shape[1] % groups;)
      --groups;
  else if (shape[0] != count)
    return op.emitError() << "T.copy between tensor memory and fragment '"
                          << bufferDisplayName(buffers[*id].root) << "': its "
                          << shape[0] << " rows go to " << count
                          << " threads, one row each (tcgen05.ld/st "
                             ".32x32b), so they must be as many";
  layout::FragmentOrigin origin;
  origin.tag = "tcgen05 32x32b";
  std::string share = std::to_string(shape[1] / groups);
  llvm::Expected<Fragment> f =
      groups == 1 ? Fragment::parse(shape, {"j"},
                                    "i + " + std::to_string(first), 1, origin)
                  : Fragment::parse(shape, {"j % " + share},
                                    "i + " + std::to_string(first) +
                                        " + 128 * (j // " + share + ")",
                                    1, origin);
  if (!f)
    return op.emitError() << llvm::toString(f.takeError());
  return setFragment(*id, std::move(*f), op, InferLevel::Strict);
}

LogicalResult Solver::strict() {
  for (AnnotateLayoutOp op : annotations)
    if (failed(applyAnnotation(op)))
      return failure();
  for (GemmOp op : gemms)
    if (failed(inferGemm(op)))
      return failure();
  for (CopyOp op : tmemCopies)
    if (failed(inferTensorMemoryCopy(op)))
      return failure();
  // Fragments used outside every loop (conditions, scalar reads) are held
  // whole by every thread.
  return deferFloating ? success() : replicateFloating();
}

LogicalResult Solver::replicateFloating() {
  for (auto [buf, op] : floating) {
    if (buffers[buf].fragment)
      continue;
    FailureOr<Fragment> whole = replicateWhole(
        buf, op, "is read or written outside every T.Parallel");
    if (failed(whole) ||
        failed(setFragment(buf, std::move(*whole), op, InferLevel::Common)))
      return failure();
  }
  return success();
}
