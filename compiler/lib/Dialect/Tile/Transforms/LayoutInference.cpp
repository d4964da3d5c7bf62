//===- LayoutInference.cpp - Layout inference over one kernel -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The solver: collects the kernel's buffers and the ops that constrain them
// (nodes), then runs the strict, common and free levels. Every layout a
// buffer gets remembers the op that gave it, so a conflict can name both.
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

/// kMaxEnumerationWorkPerKernel, lowered by tests to reach its error.
static llvm::cl::opt<int64_t> clLayoutWorkBudget(
    "layout-work-budget", llvm::cl::Hidden,
    llvm::cl::init(tile::detail::kMaxEnumerationWorkPerKernel),
    llvm::cl::desc("Index operations layout inference may evaluate for one "
                   "kernel before it stops with an error"));

std::optional<LayoutTarget> tlc::tile::parseLayoutTarget(llvm::StringRef name) {
  name.consume_front("cuda:");
  name.consume_front("hip:");
  std::optional<layout::GemmArch> arch =
      llvm::StringSwitch<std::optional<layout::GemmArch>>(name)
          .Cases({"sm_80", "sm_86", "sm_87", "sm_89"}, layout::GemmArch::SM80)
          .Cases({"sm_90", "sm_90a"}, layout::GemmArch::SM90)
          // Blackwell has no wgmma: a fragment accumulator gets the
          // mma.sync layouts (tcgen05 accumulates in tensor memory).
          .Cases({"sm_100", "sm_100a", "sm_120"}, layout::GemmArch::SM80)
          .Cases({"gfx90a", "gfx942", "gfx950"}, layout::GemmArch::CDNA)
          .Default(std::nullopt);
  if (!arch)
    return std::nullopt;
  LayoutTarget target{*arch};
  target.tensorMemory = name == "sm_100" || name == "sm_100a";
  return target;
}

unsigned tlc::tile::elementBitWidth(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    type = vec.getElementType();
  // tfloat32 is stored in 32 bits (MLIR's type has 19).
  if (isa<FloatTF32Type>(type))
    return 32;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 0;
}

/// The name carried by the first NameLoc inside \p loc.
static std::optional<std::string> nameIn(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::optional<std::string> n = nameIn(inner))
        return n;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return nameIn(callSite.getCallee());
  return std::nullopt;
}

std::string tlc::tile::bufferDisplayName(Value buffer) {
  if (std::optional<std::string> n = nameIn(buffer.getLoc()))
    return *n;
  return "buffer";
}

using namespace tlc::tile::detail;

//===----------------------------------------------------------------------===//
// Collection
//===----------------------------------------------------------------------===//

std::optional<unsigned> Solver::rootBuffer(Value v, bool allowRegion) {
  while (auto region = v.getDefiningOp<RegionOp>()) {
    if (!allowRegion)
      return std::nullopt;
    v = region.getSource();
  }
  auto it = bufferIds.find(v);
  if (it == bufferIds.end())
    return std::nullopt;
  return it->second;
}

/// The element count of \p shape, saturating at INT64_MAX.
static int64_t elementCount(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0)
      return 0;
    if (n > std::numeric_limits<int64_t>::max() / d)
      return std::numeric_limits<int64_t>::max();
    n *= d;
  }
  return n;
}

void Solver::addLoop(Node node) {
  // Inference enumerates a loop's iterations: a loop larger than any tile
  // a block holds gets no layout here (one over fragments was reported at
  // their allocation; one over memory only needs none to be checked).
  if (elementCount(node.loopShape) > kMaxEnumerated)
    return;
  unsigned id = nodes.size();
  for (const Access &a : node.accesses) {
    buffers[a.buffer].users.push_back(id);
    node.elemBits = std::max(node.elemBits, buffers[a.buffer].bits);
  }
  nodes.push_back(std::move(node));
}

/// True when \p v does not change while \p loop runs: defined outside it,
/// or computed in it by side-effect-free integer arithmetic from such
/// values (not from the loop's variables).
static bool isLoopInvariant(Value v, ParallelOp loop, unsigned depth = 0) {
  if (depth > 32)
    return false;
  if (!loop.getBody().isAncestor(v.getParentRegion()))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumRegions() != 0 ||
      def->getDialect()->getNamespace() != "arith")
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isLoopInvariant(operand, loop, depth + 1);
  });
}

void Solver::collectParallel(ParallelOp op) {
  Node node{NodeKind::Loop, op};
  node.elemBits = 0;
  for (OpFoldResult e : op.getMixedExtents()) {
    std::optional<int64_t> c = getConstantIntValue(e);
    if (!c || *c <= 0)
      return;
    node.loopShape.push_back(*c);
  }
  if (Attribute attr = op.getLoopLayoutAttr()) {
    if (std::optional<Fragment> f = decodeFragment(attr)) {
      node.loopLayout = std::move(*f);
      node.pinnedLoop = true;
    }
  }
  tile::IndexTranslator translator(op.getBody().front());
  auto record = [&](Value buffer, ValueRange indices, bool write) {
    std::optional<unsigned> id = rootBuffer(buffer, /*allowRegion=*/false);
    if (!id || !buffers[*id].isFragment)
      return;
    Access a{*id, std::nullopt, write};
    std::vector<IndexExpr> index;
    std::vector<unsigned> held;
    for (auto [d, v] : llvm::enumerate(indices)) {
      std::optional<IndexExpr> e = translator.translate(v);
      if (!e && isLoopInvariant(v, op)) {
        held.push_back(d);
        e = IndexExpr::constant(0);
      }
      if (!e)
        break;
      index.push_back(*e);
    }
    if (index.size() == indices.size() &&
        index.size() == buffers[*id].shape.size()) {
      if (held.empty()) {
        a.index = std::move(index);
      } else {
        a.held = std::move(held);
        a.heldIndex = std::move(index);
      }
    }
    // `frag[0]` read in a loop (a condition, a scalar): every thread holds
    // the whole buffer, fixed at the strict level as TileLang does.
    if (!write && a.index &&
        llvm::all_of(*a.index, [](const IndexExpr &e) {
          return e.collectVars().empty();
        }))
      floating.push_back({*id, op});
    node.accesses.push_back(std::move(a));
  };
  op.getBody().walk([&](Operation *inner) {
    if (auto load = dyn_cast<LoadOp>(inner))
      record(load.getBuffer(), load.getIndices(), /*write=*/false);
    else if (auto store = dyn_cast<StoreOp>(inner))
      record(store.getBuffer(), store.getIndices(), /*write=*/true);
  });
  if (node.elemBits == 0)
    node.elemBits = 32;
  addLoop(std::move(node));
}

void Solver::collect() {
  kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      BufferType type = getBufferType(alloc.getResult());
      if (!type || !type.isStatic() || type.getShape().empty())
        return WalkResult::advance();
      MemoryScope scope = type.getScope();
      bool isFragment = scope == MemoryScope::Fragment;
      if (!isFragment && scope != MemoryScope::Shared &&
          scope != MemoryScope::SharedDyn)
        return WalkResult::advance();
      int64_t elements = elementCount(type.getShape());
      if (llvm::any_of(type.getShape(), [](int64_t e) { return e <= 0; })) {
        // No layout maps an empty tile (found by tlc-fuzz-eval: such a
        // buffer crashed the default-fragment and swizzle planners).
        alloc.emitError() << "buffer '" << bufferDisplayName(alloc.getResult())
                          << "' has an extent of "
                          << *llvm::find_if(type.getShape(),
                                            [](int64_t e) { return e <= 0; })
                          << "; every extent of a tile must be positive";
        return WalkResult::advance();
      }
      if (elements > kMaxEnumerated) {
        // Bounded analysis: answered without enumerating the tile.
        if (isFragment) {
          // elementCount saturates at INT64_MAX (a (128, 2^62) fragment):
          // no rounding up that could wrap, and no exact count printed.
          int64_t regs = elements / threads + (elements % threads != 0);
          bool saturated = elements == std::numeric_limits<int64_t>::max();
          alloc.emitError()
              << "fragment '" << bufferDisplayName(alloc.getResult()) << "' of "
              << (saturated ? "more than 2^63" : std::to_string(elements))
              << " elements needs " << (saturated ? "more than " : "") << regs
              << " registers per thread over " << threads
              << " threads; the limit is 255";
        }
        return WalkResult::advance();
      }
      BufferInfo info;
      info.root = alloc.getResult();
      info.isFragment = isFragment;
      info.shape = type.getShape().vec();
      info.bits = elementBitWidth(type.getElementType());
      if (Attribute attr = alloc.getLayoutAttr()) {
        if (isFragment)
          info.fragment = decodeFragment(attr);
        else
          info.shared = decodeLayout(attr);
        if (info.fragment || info.shared) {
          info.pinned = true;
          info.setter = alloc;
          info.level = InferLevel::Strict;
        }
      }
      bufferIds[info.root] = buffers.size();
      buffers.push_back(std::move(info));
      return WalkResult::advance();
    }
    if (auto parallel = dyn_cast<ParallelOp>(op)) {
      collectParallel(parallel);
      return WalkResult::skip();
    }
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      gemms.push_back(gemm);
      return WalkResult::advance();
    }
    if (auto annotate = dyn_cast<AnnotateLayoutOp>(op)) {
      annotations.push_back(annotate);
      return WalkResult::advance();
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      std::optional<unsigned> src = rootBuffer(reduce.getSrc(), false);
      std::optional<unsigned> dst = rootBuffer(reduce.getDst(), false);
      if (src && dst && buffers[*src].isFragment && buffers[*dst].isFragment) {
        Node node{NodeKind::Reduce, op};
        node.src = *src, node.dst = *dst, node.dim = reduce.getDim();
        buffers[*src].users.push_back(nodes.size());
        buffers[*dst].users.push_back(nodes.size());
        nodes.push_back(std::move(node));
      }
      return WalkResult::advance();
    }
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (target.tensorMemory && isTensorMemoryCopy(copy))
        tmemCopies.push_back(copy);
      std::optional<unsigned> src = rootBuffer(copy.getSrc(), false);
      std::optional<unsigned> dst = rootBuffer(copy.getDst(), false);
      BufferType dstType = getBufferType(copy.getDst());
      if (src && !buffers[*src].isFragment && dstType &&
          dstType.getScope() == MemoryScope::Global)
        buffers[*src].tmaStoreSource = true;
      bool srcFrag = src && buffers[*src].isFragment;
      bool dstFrag = dst && buffers[*dst].isFragment;
      if (srcFrag && dstFrag && buffers[*src].shape != buffers[*dst].shape)
        srcFrag = false;
      if (!srcFrag && !dstFrag)
        return WalkResult::advance();
      // The SIMT loop of the copy runs over the fragment's shape and reads
      // and writes it at the loop variables.
      Node node{NodeKind::Loop, op};
      node.loopShape = buffers[dstFrag ? *dst : *src].shape;
      std::vector<IndexExpr> identity;
      for (unsigned d = 0; d < node.loopShape.size(); ++d)
        identity.push_back(IndexExpr::var(d, layout::inputName(d)));
      if (dstFrag)
        node.accesses.push_back({*dst, identity, /*write=*/true});
      if (srcFrag)
        node.accesses.push_back({*src, identity, /*write=*/false});
      addLoop(std::move(node));
      return WalkResult::advance();
    }
    auto recordFloating = [&](Value buffer) {
      if (std::optional<unsigned> id = rootBuffer(buffer, true))
        if (buffers[*id].isFragment)
          floating.push_back({*id, op});
    };
    if (auto load = dyn_cast<LoadOp>(op))
      recordFloating(load.getBuffer());
    else if (auto store = dyn_cast<StoreOp>(op))
      recordFloating(store.getBuffer());
    return WalkResult::advance();
  });
  queued.assign(nodes.size(), false);
}

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

/// The threads that run \p op when it is under `with T.ws(...)` or a
/// condition selecting a range of threadIdx.x (`tx < c`, `tx >= c`, their
/// else branches): the first thread and the count. TileLang lays out a
/// tile op for the threads of its region; the CUDA target partitions it
/// the same way (ThreadUniformity.h's threadRangeOf, shared by both).
static std::optional<std::pair<int64_t, int64_t>>
warpGroupRange(Operation *op, int64_t threads) {
  std::optional<ThreadRange> r = threadRangeOf(op, threads);
  if (!r || !r->condition || r->count() <= 0 || r->count() == threads)
    return std::nullopt;
  return std::make_pair(r->lo, r->count());
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

//===----------------------------------------------------------------------===//
// Common level
//===----------------------------------------------------------------------===//

/// True when \p index is exactly the loop variables in order.
static bool isIdentity(const std::vector<IndexExpr> &index) {
  for (auto [d, e] : llvm::enumerate(index))
    if (e.kind() != layout::IndexKind::Var || e.getVarId() != d)
      return false;
  return true;
}

std::optional<Fragment> Solver::plannedPartition(const Node &n) {
  int64_t trip = layout::numElements(n.loopShape);
  // A loop under a thread-range condition (`tx < 128`, its else branch,
  // `T.ws`) is partitioned over the threads of its range, as TileLang
  // partitions a T.Parallel over the thread bounds of its region; like a
  // gemm's accumulator in a range, its threads are numbered in the block.
  int64_t first = 0, count = threads;
  if (std::optional<std::pair<int64_t, int64_t>> range =
          warpGroupRange(n.op, threads);
      range && range->first + range->second <= threads)
    std::tie(first, count) = *range;
  for (int64_t t = count; t >= 1; t /= 2) {
    int64_t v = layout::chooseVectorWidth(n.loopShape, n.elemBits, t);
    if (trip % (t * v) != 0)
      continue;
    llvm::Expected<Fragment> f = layout::planLoopPartition(n.loopShape, t, v);
    // Fewer threads than the loop's, each running several rounds (384
    // threads divide no power-of-two trip count: down to thread 0):
    // TileLang partitions over all of them instead, the last round
    // guarded.
    if (f && t < count && t * v < trip) {
      int64_t w = layout::chooseVectorWidth(n.loopShape, n.elemBits, 1);
      f = layout::planGuardedLoopPartition(n.loopShape, count, w);
    }
    if (f) {
      Fragment result = first ? f->shiftThreads(first) : std::move(*f);
      result.setOrigin({"parallel", 0, 0});
      return reduciblePartition(n, std::move(result), first, count);
    }
    llvm::consumeError(f.takeError());
  }
  return std::nullopt;
}

Fragment Solver::reduciblePartition(const Node &n, Fragment planned,
                                    int64_t first, int64_t count) {
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    if (!b.isFragment || !a.index || !isIdentity(*a.index) ||
        b.shape != n.loopShape)
      continue;
    for (unsigned user : b.users) {
      const Node &r = nodes[user];
      if (r.kind != NodeKind::Reduce || r.src != a.buffer ||
          r.dim >= n.loopShape.size())
        continue;
      llvm::Expected<Fragment> reduced = layout::reduceFragment(planned, r.dim);
      if (reduced)
        continue;
      llvm::consumeError(reduced.takeError());
      // The plain partition mixes the reduced index into other thread
      // digits ((40 i + j) % 128 for a 48 x 40 column sum): one whose low
      // thread bits hold the reduced index's low digit shuffles instead.
      llvm::Expected<Fragment> f =
          layout::planReduciblePartition(n.loopShape, count, r.dim);
      if (!f) {
        llvm::consumeError(f.takeError());
        continue;
      }
      Fragment result = first ? f->shiftThreads(first) : std::move(*f);
      result.setOrigin({"parallel", 0, 0});
      return result;
    }
  }
  return planned;
}

/// True when \p index names distinct loop variables whose extents are the
/// buffer's: the loop touches the whole buffer, each element once per
/// iteration slice, and completeBufferFragment() applies.
static bool coversBuffer(const std::vector<IndexExpr> &index,
                         llvm::ArrayRef<int64_t> loopShape,
                         llvm::ArrayRef<int64_t> bufferShape) {
  std::vector<bool> used(loopShape.size(), false);
  for (auto [d, e] : llvm::enumerate(index)) {
    // A unit dimension read at 0 (`m[i, 0]` of an [M, 1] fragment).
    if (e.kind() == layout::IndexKind::Const && e.getConstant() == 0 &&
        bufferShape[d] == 1)
      continue;
    if (e.kind() != layout::IndexKind::Var)
      return false;
    unsigned v = e.getVarId();
    if (v >= loopShape.size() || used[v] || loopShape[v] != bufferShape[d])
      return false;
    used[v] = true;
  }
  return true;
}

/// True when \p index is exactly the loop variables in order and the loop
/// runs at least as far as the buffer in every dimension, further in one
/// (`for i in T.Parallel(128): frag32[i] = ...`: the iterations past the
/// buffer touch nothing). TileLang gives such a buffer the loop's own
/// layout; here it is the loop layout restricted to the buffer's shape.
static bool overrunsBuffer(const std::vector<IndexExpr> &index,
                           llvm::ArrayRef<int64_t> loopShape,
                           llvm::ArrayRef<int64_t> bufferShape) {
  if (!isIdentity(index) || loopShape.size() != bufferShape.size())
    return false;
  bool longer = false;
  for (auto [l, b] : llvm::zip(loopShape, bufferShape)) {
    if (l < b)
      return false;
    longer |= l > b;
  }
  return longer;
}

/// \p f's thread and register expressions over the input shape \p shape.
static std::optional<Fragment> reshapeInputs(const Fragment &f,
                                             llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<Fragment> r =
      Fragment::get(shape.vec(), f.getForwardIndex(), f.getForwardThread(),
                    f.getReplicate(), f.getOrigin());
  if (!r) {
    llvm::consumeError(r.takeError());
    return std::nullopt;
  }
  return std::move(*r);
}

bool Solver::isCompatible(const Node &n, const Fragment &loop) {
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    if (!a.index || !b.fragment)
      continue;
    if (overrunsBuffer(*a.index, n.loopShape, b.shape)) {
      std::optional<Fragment> derived = reshapeInputs(loop, b.shape);
      if (!derived || !(b.fragment->isEquivalentTo(*derived) ||
                        (!a.write && b.fragment->contains(*derived))))
        return false;
      continue;
    }
    if (!coversBuffer(*a.index, n.loopShape, b.shape)) {
      if (!accessFits(loop, *a.index, *b.fragment, a.write))
        return false;
      continue;
    }
    llvm::Expected<Fragment> derived =
        layout::completeBufferFragment(loop, *a.index, b.shape);
    if (!derived) {
      llvm::consumeError(derived.takeError());
      return false;
    }
    if (b.fragment->isEquivalentTo(*derived))
      continue;
    if (!a.write && b.fragment->contains(*derived))
      continue;
    if (b.pinned || b.level == InferLevel::Strict ||
        !derived->contains(*b.fragment))
      return false;
  }
  return true;
}

/// Whether \p n, the SIMT loop of a whole-fragment T.copy, copies between
/// two fragments whose layouts are both known and cannot be made one at
/// \p level (a gemm's accumulator copied into the next gemm's register
/// operand under another warp policy). Such a copy needs no common layout:
/// the CUDA and HIP printers move it through shared memory (the exchange
/// area, Emitter::planExchanges).
static bool copiesBetweenFixedLayouts(const Node &n,
                                      const std::vector<BufferInfo> &buffers,
                                      InferLevel level) {
  if (!isa<CopyOp>(n.op) || !n.loopLayout || n.accesses.size() != 2)
    return false;
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    if (!b.fragment || !a.index ||
        overrunsBuffer(*a.index, n.loopShape, b.shape) ||
        !coversBuffer(*a.index, n.loopShape, b.shape))
      return false;
  }
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    llvm::Expected<Fragment> derived =
        layout::completeBufferFragment(*n.loopLayout, *a.index, b.shape);
    if (!derived) {
      llvm::consumeError(derived.takeError());
      return false;
    }
    // As setFragment accepts a layout.
    if (b.fragment->isEquivalentTo(*derived) ||
        (!a.write && b.fragment->contains(*derived)))
      continue;
    InferLevel mergeLevel = (b.pinned || level == InferLevel::Strict)
                                ? InferLevel::Strict
                                : level;
    llvm::Expected<Fragment> merged =
        layout::mergeFragments(*b.fragment, *derived, mergeLevel);
    if (merged)
      continue;
    llvm::consumeError(merged.takeError());
    return true;
  }
  return false;
}

LogicalResult Solver::visitLoop(unsigned id, InferLevel level) {
  Node &n = nodes[id];
  if (!n.loopLayout) {
    auto fromAccess = [&](const Access &a) -> std::optional<Fragment> {
      const BufferInfo &b = buffers[a.buffer];
      if (!b.fragment)
        return std::nullopt;
      if (!a.index)
        return a.heldIndex ? heldLoopLayout(n, a) : std::nullopt;
      if (overrunsBuffer(*a.index, n.loopShape, b.shape))
        return reshapeInputs(*b.fragment, n.loopShape);
      llvm::Expected<Fragment> f =
          layout::loopLayoutFromBuffer(*b.fragment, *a.index, n.loopShape);
      if (!f) {
        llvm::consumeError(f.takeError());
        return std::nullopt;
      }
      return std::move(*f);
    };
    // (1) a written fragment with a layout, exact accesses first;
    // (2) a non-replicated fragment it reads.
    for (int pass = 0; pass < 3 && !n.loopLayout; ++pass)
      for (const Access &a : n.accesses) {
        const BufferInfo &b = buffers[a.buffer];
        bool want = pass == 0   ? a.write && a.index && isIdentity(*a.index)
                    : pass == 1 ? a.write
                                : !a.write && b.fragment &&
                                      b.fragment->getReplicate() == 1;
        if (!want)
          continue;
        if ((n.loopLayout = fromAccess(a)))
          break;
      }
    // (3) free: the cheapest of the read layouts and the planned partition.
    if (!n.loopLayout && level == InferLevel::Free) {
      std::vector<Fragment> candidates;
      for (const Access &a : n.accesses)
        if (std::optional<Fragment> f = fromAccess(a))
          if (isCompatible(n, *f))
            candidates.push_back(std::move(*f));
      if (std::optional<Fragment> planned = plannedPartition(n))
        if (candidates.empty() || isCompatible(n, *planned))
          candidates.push_back(std::move(*planned));
      int best = layout::chooseCheapest(candidates);
      if (best >= 0)
        n.loopLayout = std::move(candidates[best]);
    }
    if (!n.loopLayout)
      return success();
  }
  // A copy between layouts that disagree goes through shared memory.
  if (copiesBetweenFixedLayouts(n, buffers, level))
    return success();
  // Complete the layouts of every fragment the loop touches.
  for (const Access &a : n.accesses) {
    BufferInfo &b = buffers[a.buffer];
    if (!a.index) {
      if (a.heldIndex && failed(completeHeld(id, a, level)))
        return failure();
      continue;
    }
    if (overrunsBuffer(*a.index, n.loopShape, b.shape)) {
      std::optional<Fragment> derived = reshapeInputs(*n.loopLayout, b.shape);
      if (!derived)
        continue;
      bool hadLayout = b.fragment.has_value();
      std::optional<Fragment> before = b.fragment;
      if (failed(setFragment(a.buffer, std::move(*derived), n.op, level,
                             !a.write)))
        return failure();
      if (!hadLayout || !before->isEquivalentTo(*b.fragment))
        enqueueUsers(a.buffer, id);
      continue;
    }
    if (!coversBuffer(*a.index, n.loopShape, b.shape)) {
      // A fragment read a group of iterations at a time (`packed[i, j //
      // 2]`) that has no layout yet takes the one the loop gives it.
      if (!b.fragment)
        if (std::optional<Fragment> packed =
                packedBufferFragment(a, *n.loopLayout)) {
          if (failed(setFragment(a.buffer, std::move(*packed), n.op, level,
                                 /*readOnly=*/true)))
            return failure();
          enqueueUsers(a.buffer, id);
          continue;
        }
      // A fragment touched once per element through a permuted index
      // (`y[t + 64 * k]`) that has no layout yet takes the one the loop
      // gives it, as TileLang inverts such an access.
      if (!b.fragment)
        if (std::optional<Fragment> permuted =
                permutedBufferFragment(a, *n.loopLayout)) {
          if (failed(setFragment(a.buffer, std::move(*permuted), n.op, level,
                                 !a.write)))
            return failure();
          enqueueUsers(a.buffer, id);
          continue;
        }
      // A part of the buffer, or through an index expression: it must
      // already hold what the loop touches.
      if (b.fragment && !accessFits(*n.loopLayout, *a.index, *b.fragment,
                                    a.write))
        return conflict(a.buffer, n.op, b.fragment->shortLabel(),
                        n.loopLayout->shortLabel() + " loop", "");
      continue;
    }
    llvm::Expected<Fragment> derived =
        layout::completeBufferFragment(*n.loopLayout, *a.index, b.shape);
    if (!derived) {
      llvm::consumeError(derived.takeError());
      continue;
    }
    if (b.fragment)
      derived->setOrigin(b.fragment->getOrigin());
    bool hadLayout = b.fragment.has_value();
    std::optional<Fragment> before = b.fragment;
    if (failed(setFragment(a.buffer, std::move(*derived), n.op, level,
                           !a.write)))
      return failure();
    if (!hadLayout || !before->isEquivalentTo(*b.fragment))
      enqueueUsers(a.buffer, id);
  }
  return success();
}

LogicalResult Solver::visitReduce(unsigned id, InferLevel level) {
  Node &n = nodes[id];
  BufferInfo &src = buffers[n.src];
  BufferInfo &dst = buffers[n.dst];
  if (!src.fragment || n.dim >= src.shape.size())
    return success();
  // dst drops the reduced dimension, or keeps it with extent 1.
  std::vector<int64_t> reduced = src.shape, kept = src.shape;
  reduced.erase(reduced.begin() + n.dim);
  kept[n.dim] = 1;
  bool keep = kept == dst.shape && reduced != dst.shape;
  if (reduced != dst.shape && !keep)
    return success();
  llvm::Expected<Fragment> f =
      keep ? layout::reduceFragmentKeepDim(*src.fragment, n.dim)
           : layout::reduceFragment(*src.fragment, n.dim);
  if (!f) {
    n.op->emitWarning() << "cannot derive the layout of the reduction "
                           "result: "
                        << llvm::toString(f.takeError());
    return success();
  }
  bool hadLayout = dst.fragment.has_value();
  std::optional<Fragment> before = dst.fragment;
  if (failed(setFragment(n.dst, std::move(*f), n.op, level)))
    return failure();
  if (!hadLayout || !before->isEquivalentTo(*dst.fragment))
    enqueueUsers(n.dst, id);
  return success();
}

LogicalResult Solver::visit(unsigned id, InferLevel level) {
  // Past the budget every visit fails, so the run ends; run() reports it
  // (the free level's attempts run under a handler that drops errors).
  if (layout::CompiledIndexExpr::workDone() - enumeratedAtStart >
      clLayoutWorkBudget)
    overBudget = true;
  if (overBudget)
    return failure();
  switch (nodes[id].kind) {
  case NodeKind::Loop:
    return visitLoop(id, level);
  case NodeKind::Reduce:
    return visitReduce(id, level);
  case NodeKind::Gemm:
    return success();
  }
  return success();
}

LogicalResult Solver::propagate() {
  while (!queue.empty()) {
    unsigned id = queue.front();
    queue.pop_front();
    queued[id] = false;
    if (failed(visit(id, InferLevel::Common)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Writes \p n with thousands separators (`20,971,904`).
static std::string groupDigits(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

bool Solver::withinEnumerationBudget() {
  int64_t total = 0;
  const Node *largest = nullptr;
  int64_t largestCount = 0;
  for (const Node &n : nodes) {
    int64_t count = n.kind == NodeKind::Loop     ? elementCount(n.loopShape)
                    : n.kind == NodeKind::Reduce ? elementCount(buffers[n.src].shape)
                                                 : 0;
    total = count > std::numeric_limits<int64_t>::max() - total
                ? std::numeric_limits<int64_t>::max()
                : total + count;
    if (count > largestCount)
      largest = &n, largestCount = count;
  }
  if (total <= kMaxEnumeratedPerKernel)
    return true;
  InFlightDiagnostic diag = kernel.emitError()
      << "layouts of this kernel cannot be inferred: its loops, copies and "
         "reductions over fragments span "
      << groupDigits(total) << " elements, over the "
      << groupDigits(kMaxEnumeratedPerKernel)
      << " layout inference enumerates per kernel";
  if (largest)
    diag.attachNote(largest->op->getLoc())
        << "the largest spans " << groupDigits(largestCount) << " elements";
  return false;
}

LogicalResult Solver::run() {
  enumeratedAtStart = layout::CompiledIndexExpr::workDone();
  collect();
  // Bounded analysis: a kernel whose fragment loops are too large to
  // enumerate is answered at once (an error: the back ends would otherwise
  // print its fragments with layouts no inference chose).
  if (!withinEnumerationBudget())
    return failure();
  if (failed(strict()))
    return failure();
  for (unsigned id = 0; id < nodes.size(); ++id) {
    queued[id] = true;
    queue.push_back(id);
  }
  if (succeeded(propagate()) && succeeded(freeLevel()) &&
      (!deferFloating || succeeded(replicateFloating())))
    return success();
  if (overBudget)
    kernel.emitError()
        << "layout inference stopped: its enumerations of this kernel's "
           "layouts ran over "
        << groupDigits(clLayoutWorkBudget)
        << " index operations without settling them (a tlc limitation; "
           "please report this program)";
  return failure();
}

KernelLayouts Solver::takeResult() {
  KernelLayouts result;
  result.blockThreads = threads;
  for (BufferInfo &b : buffers) {
    if (b.fragment)
      result.fragments.insert({b.root, std::move(*b.fragment)});
    if (b.shared)
      result.shared.insert({b.root, std::move(*b.shared)});
  }
  for (Node &n : nodes)
    if (n.kind == NodeKind::Loop && n.loopLayout && isa<ParallelOp>(n.op))
      result.loops.insert({n.op, std::move(*n.loopLayout)});
  return result;
}

/// The largest block layout inference plans for: above every target's
/// block limit (1,024 threads), far below where thread arithmetic overflows.
static constexpr int64_t kMaxInferredThreads = 1 << 16;

FailureOr<KernelLayouts>
tlc::tile::inferKernelLayouts(KernelOp kernel, const LayoutTarget &target) {
  std::optional<int64_t> threads = kernel.getStaticNumThreads();
  // Past the largest block of any target the evaluator has reported the
  // thread count at the kernel; no layout is planned for such a block (found
  // by tlc-fuzz-eval: `threads=(1 << 62)` overflowed `threads * vector`
  // in the default fragment's planner and divided by zero).
  if (!threads || *threads <= 0 || *threads > kMaxInferredThreads)
    return KernelLayouts{};
  // A kernel whose gemms tile-plan-wgmma leaves on mma.sync (operands it
  // cannot read through descriptors, TL_DISABLE_WGMMA, ...) gets the
  // mma.sync layouts, the ones the printer then uses; where those do not
  // fit the kernel (sm_80's inference still refuses some programs TileLang
  // accepts), the sm_90 ones, as before, rather than a false error.
  if (target.arch == layout::GemmArch::SM90 &&
      kernel.walk([](GemmOp) { return WalkResult::interrupt(); })
          .wasInterrupted() &&
      selectWgmmaGemms(kernel).empty()) {
    std::vector<Diagnostic> held;
    FailureOr<KernelLayouts> result = failure();
    {
      ScopedDiagnosticHandler hold(kernel.getContext(), [&](Diagnostic &d) {
        held.push_back(std::move(d));
        return success();
      });
      Solver solver(kernel, LayoutTarget{layout::GemmArch::SM80}, *threads);
      if (succeeded(solver.run()))
        result = solver.takeResult();
    }
    if (succeeded(result)) {
      for (Diagnostic &d : held)
        kernel.getContext()->getDiagEngine().emit(std::move(d));
      return result;
    }
  }
  // First with fragments used outside every loop held whole from the start;
  // where that fails, again with them laid out by their other uses first
  // (the first attempt's errors stand if the second fails too).
  auto attempt = [&](bool deferFloating, std::vector<Diagnostic> &diags)
      -> FailureOr<KernelLayouts> {
    ScopedDiagnosticHandler hold(kernel.getContext(), [&](Diagnostic &d) {
      diags.push_back(std::move(d));
      return success();
    });
    Solver solver(kernel, target, *threads, deferFloating);
    if (failed(solver.run()))
      return failure();
    return solver.takeResult();
  };
  auto emitAll = [&](std::vector<Diagnostic> &diags) {
    for (Diagnostic &d : diags)
      kernel.getContext()->getDiagEngine().emit(std::move(d));
  };
  std::vector<Diagnostic> first, second;
  FailureOr<KernelLayouts> result = attempt(/*deferFloating=*/false, first);
  if (failed(result)) {
    result = attempt(/*deferFloating=*/true, second);
    if (succeeded(result)) {
      emitAll(second);
      return result;
    }
  }
  emitAll(first);
  return result;
}
