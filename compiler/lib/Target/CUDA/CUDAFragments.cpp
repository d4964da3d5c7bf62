//===- CUDAFragments.cpp - Fragment layouts of the CUDA emitter ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Gives every `local.fragment` buffer of a kernel a TLCLayout fragment and
// turns it into code: the layout's inverse (thread, register) -> coordinate
// is fitted as a map linear in the bits of the thread id and the register
// number (BitLinear), so the emitted loops over registers unroll into
// constant register indices.
//
// Layout choice (a local stand-in for the layout inference pass, in its
// order of strength): `T.gemm` accumulators and register operands get the
// mma.sync layouts of GemmLayouts.h; reductions derive their destination
// with reduceFragment(); a T.Parallel whose fragment accesses include one
// with a known layout at the loop variables propagates it to the others
// (completeBufferFragment() for row vectors read in 2-D loops); fragment
// copies propagate between equal shapes; whatever is left gets
// defaultFragmentWithin() (bounded: a fragment every thread would hold whole
// past layout::kMaxReplicatedSlots is refused at its allocation).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/Propagation.h"

#include "mlir/IR/Matchers.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

//===----------------------------------------------------------------------===//
// BitLinear
//===----------------------------------------------------------------------===//

static unsigned bitsFor(int64_t extent) {
  unsigned b = 0;
  while ((int64_t(1) << b) < extent)
    ++b;
  return b;
}

std::optional<BitLinear> BitLinear::fit(
    ArrayRef<int64_t> extents, unsigned dims,
    function_ref<std::optional<SmallVector<int64_t>>(ArrayRef<int64_t>)> f) {
  BitLinear m;
  SmallVector<int64_t> point(extents.size(), 0);
  for (int64_t e : extents)
    if (e <= 0)
      return std::nullopt;
  std::optional<SmallVector<int64_t>> origin = f(point);
  if (!origin || origin->size() != dims)
    return std::nullopt;
  m.base = *origin;
  for (auto [v, e] : llvm::enumerate(extents)) {
    auto &bits = m.coef.emplace_back();
    for (unsigned b = 0; b < bitsFor(e); ++b) {
      point.assign(extents.size(), 0);
      point[v] = int64_t(1) << b;
      std::optional<SmallVector<int64_t>> at = f(point);
      if (!at)
        return std::nullopt;
      SmallVector<int64_t> c(dims);
      for (unsigned d = 0; d < dims; ++d)
        c[d] = (*at)[d] - m.base[d];
      bits.push_back(std::move(c));
    }
  }
  // Verify every point of the box, with the map's value per input value
  // tabulated: [input][value * dims + d] (base included in input 0).
  SmallVector<std::vector<int64_t>> part;
  for (auto [v, e] : llvm::enumerate(extents)) {
    std::vector<int64_t> &t = part.emplace_back(e * dims, 0);
    for (int64_t x = 0; x < e; ++x)
      for (unsigned d = 0; d < dims; ++d) {
        int64_t sum = v == 0 ? m.base[d] : 0;
        for (unsigned b = 0; b < m.coef[v].size(); ++b)
          if ((x >> b) & 1)
            sum += m.coef[v][b][d];
        t[x * dims + d] = sum;
      }
  }
  point.assign(extents.size(), 0);
  while (true) {
    std::optional<SmallVector<int64_t>> at = f(point);
    if (!at)
      return std::nullopt;
    for (unsigned d = 0; d < dims; ++d) {
      int64_t want = 0;
      for (auto [v, x] : llvm::enumerate(point))
        want += part[v][x * dims + d];
      if (want != (*at)[d])
        return std::nullopt;
    }
    unsigned v = 0;
    for (; v < point.size(); ++v) {
      if (++point[v] < extents[v])
        break;
      point[v] = 0;
    }
    if (v == point.size())
      break;
  }
  return m;
}

/// The row-major stride of dimension \p d of \p shape.
static int64_t strideOf(ArrayRef<int64_t> shape, unsigned d) {
  int64_t stride = 1;
  for (int64_t e : shape.drop_front(d + 1))
    stride *= e;
  return stride;
}

std::string BitLinear::expr(unsigned d, ArrayRef<std::string> vars) const {
  if (!isFlat())
    return linearExpr(d, vars);
  std::string e = linearExpr(0, vars);
  if (llvm::StringRef(e).contains(' '))
    e = "(" + e + ")";
  if (int64_t stride = strideOf(flatShape, d); stride != 1)
    e = "(" + e + " / " + std::to_string(stride) + ")";
  if (d != 0)
    e += " % " + std::to_string(flatShape[d]);
  return e;
}

int64_t BitLinear::unflatten(unsigned d, int64_t flat) const {
  int64_t c = flat / strideOf(flatShape, d);
  return d == 0 ? c : c % flatShape[d];
}

std::string BitLinear::linearExpr(unsigned d,
                                  ArrayRef<std::string> vars) const {
  std::string e;
  auto add = [&](const std::string &term) {
    e += (e.empty() ? "" : " + ") + term;
  };
  for (auto [v, bits] : llvm::enumerate(coef)) {
    unsigned b = 0;
    while (b < bits.size()) {
      int64_t c = bits[b][d];
      if (c == 0) {
        ++b;
        continue;
      }
      // A run of bits whose coefficients double: one shifted field.
      unsigned n = 1;
      while (b + n < bits.size() && bits[b + n][d] == c * (int64_t(1) << n))
        ++n;
      std::string field;
      bool whole = b == 0 && n == bits.size();
      if (whole)
        field = vars[v];
      else if (b == 0)
        field = "(" + vars[v] + " & " + std::to_string((1 << n) - 1) + ")";
      else
        field = "((" + vars[v] + " >> " + std::to_string(b) + ") & " +
                std::to_string((1 << n) - 1) + ")";
      add(c == 1 ? field : field + " * " + std::to_string(c));
      b += n;
    }
  }
  if (base[d] != 0 || e.empty())
    add(std::to_string(base[d]));
  return e;
}

int64_t BitLinear::evaluate(unsigned d, ArrayRef<int64_t> inputs) const {
  if (isFlat())
    return unflatten(d, evaluateLinear(0, inputs));
  return evaluateLinear(d, inputs);
}

int64_t BitLinear::evaluateLinear(unsigned d, ArrayRef<int64_t> inputs) const {
  int64_t sum = base[d];
  for (auto [v, bits] : llvm::enumerate(coef))
    for (auto [b, c] : llvm::enumerate(bits))
      if (v < inputs.size() && ((inputs[v] >> b) & 1))
        sum += c[d];
  return sum;
}

int64_t BitLinear::zeroMask(unsigned v) const {
  int64_t mask = 0;
  for (auto [b, c] : llvm::enumerate(coef[v]))
    if (llvm::all_of(c, [](int64_t x) { return x == 0; }))
      mask |= int64_t(1) << b;
  return mask;
}

//===----------------------------------------------------------------------===//
// FragmentTables
//===----------------------------------------------------------------------===//

namespace {
/// Tables by structural key. Bounded (emptied when full): one file uses a
/// handful of layouts, so this only trims what earlier builds left behind.
class FragmentTableCache {
public:
  std::shared_ptr<const FragmentTables> lookup(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
  }
  void record(const std::string &key,
              std::shared_ptr<const FragmentTables> tables) {
    std::lock_guard<std::mutex> lock(mutex);
    if (map.size() >= kMaxEntries)
      map.clear();
    map.try_emplace(key, std::move(tables));
  }

private:
  static constexpr size_t kMaxEntries = 256;
  std::mutex mutex;
  llvm::StringMap<std::shared_ptr<const FragmentTables>> map;
};
} // namespace

static FragmentTableCache &tableCache() {
  static FragmentTableCache cache;
  return cache;
}

std::shared_ptr<const FragmentTables>
FragmentTables::get(const layout::Fragment &f, unsigned fitRank) {
  std::string key = f.structuralKey();
  key += '#';
  key += std::to_string(fitRank);
  if (std::shared_ptr<const FragmentTables> known = tableCache().lookup(key))
    return known;
  auto t = std::make_shared<FragmentTables>();
  t->shape.assign(f.getInputShape().begin(), f.getInputShape().end());
  unsigned rank = t->shape.size();
  t->strides.assign(rank, 1);
  int64_t numel = 1;
  for (unsigned d = rank; d-- > 0;) {
    t->strides[d] = numel;
    numel *= t->shape[d];
  }
  t->replicate = f.getReplicate();
  llvm::Expected<std::vector<std::vector<int64_t>>> table = f.invertTable();
  if (!table) {
    t->error = llvm::toString(table.takeError());
  } else {
    int64_t regs = f.getRegsPerThread();
    t->coords = BitLinear::fit(
        {f.getThreadExtent(), regs}, fitRank,
        [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
          const std::vector<int64_t> &slot = (*table)[p[0] * regs + p[1]];
          if (slot.size() < fitRank)
            return std::nullopt;
          return SmallVector<int64_t>(slot.begin(), slot.begin() + fitRank);
        });
    // Not linear per coordinate: linear in the row-major flat index?
    if (!t->coords && fitRank == rank && rank > 1) {
      t->coords = BitLinear::fit(
          {f.getThreadExtent(), regs}, 1,
          [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
            const std::vector<int64_t> &slot = (*table)[p[0] * regs + p[1]];
            if (slot.size() < rank)
              return std::nullopt;
            int64_t flat = 0;
            for (unsigned d = 0; d < rank; ++d)
              flat += slot[d] * t->strides[d];
            return SmallVector<int64_t>{flat};
          });
      if (t->coords)
        t->coords->flatShape = t->shape;
    }
    t->registerOf.assign(numel, -1);
    t->threadOf.assign(numel * t->replicate, -1);
    for (auto [s, entry] : llvm::enumerate(*table)) {
      if (entry.size() != rank + 1)
        continue;
      int64_t flat = 0;
      for (unsigned d = 0; d < rank; ++d)
        flat += entry[d] * t->strides[d];
      t->registerOf[flat] = int32_t(int64_t(s) % regs);
      t->threadOf[flat * t->replicate + entry[rank]] =
          int32_t(int64_t(s) / regs);
    }
  }
  tableCache().record(key, t);
  return t;
}

int64_t FragmentTables::registerAt(ArrayRef<int64_t> coord,
                                   int64_t thread) const {
  if (coord.size() != shape.size())
    return -1;
  int64_t flat = 0;
  for (auto [c, e, s] : llvm::zip(coord, shape, strides)) {
    if (c < 0 || c >= e)
      return -1;
    flat += c * s;
  }
  const int32_t *holders = threadOf.data() + flat * replicate;
  for (int64_t r = 0; r < replicate; ++r)
    if (holders[r] == thread)
      return registerOf[flat];
  return -1;
}

//===----------------------------------------------------------------------===//
// Layout choice
//===----------------------------------------------------------------------===//

/// The shape without leading unit dimensions kept for rank >= 2 (gemm
/// operands may be regions of multi-buffered tiles).
static SmallVector<int64_t> matrixShape(BufferType t) {
  SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
  while (s.size() > 2 && s.front() == 1)
    s.erase(s.begin());
  return s;
}

/// The fragment \p v views (T.reshape / T.view of a whole fragment), or
/// null when \p v is no such view.
static Value viewedFragment(Value v) {
  auto view = v.getDefiningOp<ViewOp>();
  if (!view)
    return {};
  auto t = dyn_cast<BufferType>(view.getSource().getType());
  return t && t.getScope() == MemoryScope::Fragment ? view.getSource()
                                                    : Value();
}

/// A fragment allocation or a view of one: a buffer with a layout.
static bool isFragmentBuffer(Value v) {
  auto t = dyn_cast<BufferType>(v.getType());
  return t && t.getScope() == MemoryScope::Fragment &&
         (v.getDefiningOp<AllocOp>() || viewedFragment(v));
}

/// The gemm configuration of \p op for \p threads threads.
static FailureOr<layout::GemmConfig> gemmConfig(GemmOp op, int64_t threads,
                                                layout::GemmArch arch) {
  auto a = cast<BufferType>(op.getA().getType());
  auto c = cast<BufferType>(op.getC().getType());
  SmallVector<int64_t> as = matrixShape(a), cs = matrixShape(c);
  if (as.size() != 2 || cs.size() != 2 || !a.isStatic() || !c.isStatic()) {
    op.emitError("the GPU targets lower T.gemm of static 2-D tiles only");
    return failure();
  }
  layout::GemmConfig cfg;
  // tile-plan-wgmma chose wgmma: the sm_90 family's layouts (whose
  // selection gives wgmma for this gemm); otherwise the target's.
  cfg.arch = isWgmmaGemm(op) ? layout::GemmArch::SM90 : arch;
  cfg.transA = op.getTransposeA();
  cfg.transB = op.getTransposeB();
  cfg.m = cs[0];
  cfg.n = cs[1];
  cfg.k = cfg.transA ? as[0] : as[1];
  cfg.abBits = getElementBitWidth(a.getElementType());
  cfg.accBits = getElementBitWidth(c.getElementType());
  cfg.threads = threads;
  switch (op.getPolicy()) {
  case GemmWarpPolicy::Square:
    cfg.policy = layout::WarpPolicy::Square;
    break;
  case GemmWarpPolicy::FullRow:
    cfg.policy = layout::WarpPolicy::FullRow;
    break;
  case GemmWarpPolicy::FullCol:
    cfg.policy = layout::WarpPolicy::FullCol;
    break;
  }
  return cfg;
}

/// Whether every use of fragment \p v is an element load or store outside
/// a T.Parallel or inside one at indices that are not all loop variables
/// (or a fill; with \p reduceSource, also a T.reduce reading it), and it
/// has at most 64 elements.
static bool isScalarFragment(Value v, bool reduceSource = false) {
  auto t = cast<BufferType>(v.getType());
  if (!t.isStatic())
    return false;
  int64_t numel = 1;
  for (int64_t e : t.getShape())
    numel *= e;
  if (numel > 64)
    return false;
  return llvm::all_of(v.getUsers(), [&](Operation *user) {
    if (isa<FillOp, ClearOp>(user))
      return true;
    if (auto red = dyn_cast<ReduceOp>(user);
        red && reduceSource && red.getSrc() == v && red.getDst() != v)
      return true;
    ValueRange idx;
    if (auto l = dyn_cast<LoadOp>(user))
      idx = l.getIndices();
    else if (auto s = dyn_cast<StoreOp>(user))
      idx = s.getIndices();
    else
      return false;
    auto par = user->getParentOfType<ParallelOp>();
    if (!par)
      return true;
    return llvm::any_of(idx, [&](Value i) {
      auto arg = dyn_cast<BlockArgument>(i);
      return !arg || arg.getOwner() != &par.getBody().front();
    });
  });
}

LogicalResult Emitter::checkTileShapes(KernelOp kernel) {
  WalkResult bad = kernel.walk([&](AllocOp alloc) {
    auto type = cast<BufferType>(alloc.getResult().getType());
    MemoryScope scope = type.getScope();
    if (scope != MemoryScope::Fragment && !isSharedScope(scope))
      return WalkResult::advance();
    // Every fragment is a static register array: a dynamic extent is no
    // size to plan a layout with.
    if (scope == MemoryScope::Fragment && !type.isStatic()) {
      alloc.emitError() << "fragments need static shapes on the " << lang.name
                        << " target (bind the sizes with -D or a call site)";
      return WalkResult::interrupt();
    }
    // No layout maps an empty tile: the linear and replicated maps the
    // planners start from do not exist for an extent of 0 (found by
    // tlc-fuzz-lsp, through the editor's fragment-exchange hints, which
    // print instances layout inference had refused for it).
    for (int64_t e : type.getShape())
      if (!ShapedType::isDynamic(e) && e <= 0) {
        alloc.emitError() << "buffer '" << bufferDisplayName(alloc.getResult())
                          << "' has an extent of " << e
                          << "; every extent of a tile must be positive";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(bad.wasInterrupted());
}

LogicalResult Emitter::assignFragmentLayouts(KernelOp kernel) {
  llvm::DenseMap<Value, layout::Fragment> layouts;
  auto fail = [&](Operation *op, llvm::Error err) {
    op->emitError() << "fragment layout: " << llvm::toString(std::move(err));
    return failure();
  };
  // A T.Parallel variable indexing a fragment dimension it runs past (a
  // [32] fragment written for i in T.Parallel(128)) leaves the fragment:
  // no layout can hold it (the CPU target stops at the access).
  WalkResult outside = kernel.walk([&](Operation *op) {
    Value buffer;
    ValueRange indices;
    if (auto load = dyn_cast<LoadOp>(op))
      buffer = load.getBuffer(), indices = load.getIndices();
    else if (auto store = dyn_cast<StoreOp>(op))
      buffer = store.getBuffer(), indices = store.getIndices();
    auto par = op->getParentOfType<ParallelOp>();
    if (!buffer || !par || rootOf(buffer) != buffer ||
        scopeOf(buffer) != MemoryScope::Fragment)
      return WalkResult::advance();
    ArrayRef<int64_t> shape = cast<BufferType>(buffer.getType()).getShape();
    for (auto [d, i] : llvm::enumerate(indices)) {
      auto arg = dyn_cast<BlockArgument>(i);
      if (!arg || arg.getOwner() != &par.getBody().front())
        continue;
      std::optional<IndexRange> r = rangeOf(i);
      if (!r || r->hi < shape[d])
        continue;
      op->emitError() << "T.Parallel variable " << arg.getArgNumber()
                      << " runs to " << r->hi << " past dimension " << d
                      << " of the fragment (extent " << shape[d]
                      << "): the access leaves it";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (outside.wasInterrupted())
    return failure();
  auto known = [&](Value v) { return layouts.count(v) != 0; };
  // Pinned: `T.annotate_layout({frag: T.Fragment(...)})` gives the
  // program's own element -> (thread, register) map, which every use
  // follows (the rows of an RMS norm one per thread, summed without a
  // cross-thread reduction). Uses that need another layout are refused at
  // the annotation below.
  llvm::DenseMap<Value, AnnotateLayoutOp> pinned;
  WalkResult pins = kernel.walk([&](AnnotateLayoutOp op) {
    Value v = op.getBuffer();
    if (!isFragmentBuffer(v) || !v.getDefiningOp<AllocOp>())
      return WalkResult::advance();
    // Not a fragment layout: layout inference warned it ignores it.
    std::optional<layout::Fragment> f = decodeFragment(op.getLayout());
    if (!f)
      return WalkResult::advance();
    auto type = cast<BufferType>(v.getType());
    if (f->getInputShape() != type.getShape()) {
      op.emitError("annotated fragment shape does not match the buffer");
      return WalkResult::interrupt();
    }
    if (known(v) && !layouts[v].isEquivalentTo(*f)) {
      op.emitError() << "fragment '" << bufferDisplayName(v)
                     << "' is annotated twice with different layouts ("
                     << layouts[v].shortLabel() << ", " << f->shortLabel()
                     << ")";
      return WalkResult::interrupt();
    }
    layouts.try_emplace(v, *f);
    pinned.try_emplace(v, op);
    return WalkResult::advance();
  });
  if (pins.wasInterrupted())
    return failure();
  /// Refuses a pinned fragment whose use \p user needs layout \p need.
  auto refusePinned = [&](Value v, Operation *user, StringRef what,
                          const layout::Fragment &need) {
    InFlightDiagnostic d = pinned[v].emitError();
    d << "the " << lang.name << " target cannot use the annotated layout "
      << layouts[v].shortLabel() << " of fragment '" << bufferDisplayName(v)
      << "': " << what << " needs " << need.shortLabel();
    d.attachNote(user->getLoc()) << "used here";
    return failure();
  };

  // Strict: gemm operands.
  Operation *bad = nullptr;
  std::string badText;
  Value badPinned;
  std::optional<layout::Fragment> badNeed;
  kernel.walk([&](GemmOp gemm) {
    if (bad)
      return;
    FailureOr<layout::GemmConfig> cfg =
        gemmConfig(gemm, threadsFor(gemm), lang.gemmArch);
    if (failed(cfg)) {
      bad = gemm;
      return;
    }
    auto setOp = [&](Value v, layout::GemmOperand which) {
      if (!isFragmentBuffer(v))
        return;
      auto t = cast<BufferType>(v.getType());
      llvm::Expected<layout::OperandLayout> l = layout::layoutForGemmOperand(
          *cfg, which, layout::OperandScope::Fragment, t.getShape());
      if (!l) {
        bad = gemm;
        badText = llvm::toString(l.takeError());
        return;
      }
      // The mma instructions fix where each operand element lives.
      if (pinned.count(v) && !layouts[v].isEquivalentTo(*l->fragment)) {
        bad = gemm;
        badPinned = v;
        badNeed = *l->fragment;
        return;
      }
      layouts.try_emplace(v, *l->fragment);
    };
    setOp(gemm.getC(), layout::GemmOperand::C);
    setOp(gemm.getA(), layout::GemmOperand::A);
    setOp(gemm.getB(), layout::GemmOperand::B);
  });
  if (bad) {
    if (badPinned)
      return refusePinned(badPinned, bad, "T.gemm's matrix instructions",
                          *badNeed);
    if (!badText.empty())
      bad->emitError() << "T.gemm layout: " << badText;
    return failure();
  }

  // Strict: a fragment copied to or from tensor memory holds one row per
  // thread of the copy's range, the columns in its registers (tcgen05.ld /
  // st .32x32b; layout inference gives it the same "tcgen05 32x32b").
  kernel.walk([&](CopyOp copy) {
    bool load = scopeOf(rootOf(copy.getSrc())) == MemoryScope::TensorMemory;
    bool store = scopeOf(rootOf(copy.getDst())) == MemoryScope::TensorMemory;
    Value frag = load ? copy.getDst() : copy.getSrc();
    if ((!load && !store) || !isFragmentBuffer(frag) ||
        !frag.getDefiningOp<AllocOp>() || known(frag))
      return;
    ArrayRef<int64_t> shape = cast<BufferType>(frag.getType()).getShape();
    if (shape.size() != 2)
      return; // emitTmemCopy refuses it
    layout::FragmentOrigin origin;
    origin.tag = "tcgen05 32x32b";
    llvm::Expected<layout::Fragment> f = layout::Fragment::parse(
        std::vector<int64_t>(shape.begin(), shape.end()), {"j"}, "i", 1,
        origin);
    if (!f) {
      llvm::consumeError(f.takeError());
      return;
    }
    layouts.try_emplace(frag, std::move(*f));
  });

  auto shapeOf = [](Value v) {
    return SmallVector<int64_t>(cast<BufferType>(v.getType()).getShape());
  };
  auto elemBits = [](Value v) {
    Type t = cast<BufferType>(v.getType()).getElementType();
    if (t.isTF32()) // stored in 32 bits (MLIR's type has 19)
      return 32u;
    return t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 32u;
  };
  // Common: propagate in program order, twice (copies may run backwards).
  for (int round = 0; round < 3; ++round) {
    WalkResult w = kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto red = dyn_cast<ReduceOp>(op)) {
        Value s = red.getSrc(), d = red.getDst();
        // Past kMaxReplicatedSlots the source stays unknown: its allocation
        // is refused below.
        // A small source that scalar code writes (`s[0] = x` before
        // reducing it) is every thread's own copy, as for a fragment only
        // scalar code uses (below): each thread reduces its copy.
        if (round > 0 && isFragmentBuffer(s) && !known(s))
          if (std::optional<layout::Fragment> f =
                  isScalarFragment(s, /*reduceSource=*/true)
                      ? layout::fullyReplicatedWithin(shapeOf(s),
                                                      threadsFor(red))
                      : layout::defaultFragmentWithin(
                            shapeOf(s), elemBits(s), threadsFor(red),
                            layout::kMaxReplicatedSlots))
            layouts.try_emplace(s, std::move(*f));
        if (isFragmentBuffer(s) && isFragmentBuffer(d) && known(s) &&
            !known(d)) {
          // dst drops the reduced dimension, or keeps it with extent 1.
          bool keep = shapeOf(d).size() == shapeOf(s).size();
          llvm::Expected<layout::Fragment> f =
              keep ? layout::reduceFragmentKeepDim(layouts[s], red.getDim())
                   : layout::reduceFragment(layouts[s], red.getDim());
          if (!f) {
            (void)fail(op, f.takeError());
            return WalkResult::interrupt();
          }
          layouts.try_emplace(d, *f);
        }
        // The reduction writes each row where the source's threads meet.
        if (isFragmentBuffer(s) && isFragmentBuffer(d) && known(s) &&
            known(d) && pinned.count(d)) {
          bool keep = shapeOf(d).size() == shapeOf(s).size();
          llvm::Expected<layout::Fragment> f =
              keep ? layout::reduceFragmentKeepDim(layouts[s], red.getDim())
                   : layout::reduceFragment(layouts[s], red.getDim());
          if (!f) {
            (void)fail(op, f.takeError());
            return WalkResult::interrupt();
          }
          if (!layouts[d].isEquivalentTo(*f)) {
            (void)refusePinned(d, op, "T.reduce of its source's layout", *f);
            return WalkResult::interrupt();
          }
        }
        return WalkResult::advance();
      }
      if (auto view = dyn_cast<ViewOp>(op)) {
        // A reshape keeps each element in its registers: the view's layout
        // is the source's re-indexed, and the other way round.
        Value s = viewedFragment(view.getResult()), v = view.getResult();
        if (!s || !isFragmentBuffer(s) || known(s) == known(v))
          return WalkResult::advance();
        Value from = known(s) ? s : v, to = known(s) ? v : s;
        llvm::Expected<layout::Fragment> f =
            layout::reshapeFragment(layouts[from], shapeOf(to));
        if (!f) {
          (void)fail(op, f.takeError());
          return WalkResult::interrupt();
        }
        layouts.try_emplace(to, *f);
        return WalkResult::advance();
      }
      if (auto copy = dyn_cast<CopyOp>(op)) {
        Value s = copy.getSrc(), d = copy.getDst();
        if (isFragmentBuffer(s) && isFragmentBuffer(d) &&
            shapeOf(s) == shapeOf(d)) {
          if (known(s) && !known(d))
            layouts.try_emplace(d, layouts[s]);
          else if (known(d) && !known(s))
            layouts.try_emplace(s, layouts[d]);
        }
        return WalkResult::advance();
      }
      auto par = dyn_cast<ParallelOp>(op);
      if (!par)
        return WalkResult::advance();
      SmallVector<int64_t> loopShape;
      for (OpFoldResult e : par.getMixedExtents()) {
        auto attr = dyn_cast<Attribute>(e);
        if (!attr)
          return WalkResult::advance();
        loopShape.push_back(cast<IntegerAttr>(attr).getInt());
      }
      // Fragment accesses at loop variables: buffer -> dims.
      SmallVector<std::pair<Value, SmallVector<unsigned>>> accesses;
      par.getBody().walk([&](Operation *nested) {
        Value buf;
        OperandRange idx = nested->getOperands();
        if (auto l = dyn_cast<LoadOp>(nested)) {
          buf = l.getBuffer();
          idx = l.getIndices();
        } else if (auto s = dyn_cast<StoreOp>(nested)) {
          buf = s.getBuffer();
          idx = s.getIndices();
        }
        if (!buf || !isFragmentBuffer(buf))
          return;
        SmallVector<unsigned> dims;
        for (auto [d, i] : llvm::enumerate(idx)) {
          // A unit dimension at 0 (`m[i, 0]` of an [M, 1] fragment).
          IntegerAttr c;
          if (shapeOf(buf)[d] == 1 && matchPattern(i, m_Constant(&c)) &&
              c.getInt() == 0) {
            dims.push_back(kUnitDim);
            continue;
          }
          auto arg = dyn_cast<BlockArgument>(i);
          if (!arg || arg.getOwner() != &par.getBody().front())
            return;
          dims.push_back(arg.getArgNumber());
        }
        // Scalar reads (`s[0]`) say nothing about the loop's layout.
        if (llvm::all_of(dims, [](unsigned d) { return d == kUnitDim; }))
          return;
        accesses.push_back({buf, dims});
      });
      auto isFull = [&](const SmallVector<unsigned> &dims, Value buf) {
        if (dims.size() != loopShape.size() || shapeOf(buf) != loopShape)
          return false;
        for (auto [i, d] : llvm::enumerate(dims))
          if (d != i)
            return false;
        return true;
      };
      std::optional<layout::Fragment> loop;
      for (auto &[buf, dims] : accesses)
        if (isFull(dims, buf) && known(buf)) {
          loop = layouts[buf];
          break;
        }
      if (!loop && round > 0) {
        // Prefer a layout some fragment of the loop's shape already has
        // (then row vectors derived from it line up), in allocation order.
        kernel.walk([&](AllocOp alloc) {
          Value v = alloc.getResult();
          if (!loop && known(v) && shapeOf(v) == loopShape)
            loop = layouts[v];
        });
      }
      if (!loop && round > 0) {
        for (auto &[buf, dims] : accesses)
          if (isFull(dims, buf)) {
            loop = layout::defaultFragmentWithin(
                loopShape, elemBits(buf), threadsFor(par),
                layout::kMaxReplicatedSlots);
            break;
          }
      }
      if (!loop)
        return WalkResult::advance();
      for (auto &[buf, dims] : accesses) {
        if (known(buf))
          continue;
        if (isFull(dims, buf)) {
          layouts.try_emplace(buf, *loop);
          continue;
        }
        std::vector<layout::IndexExpr> access;
        for (unsigned d : dims)
          access.push_back(d == kUnitDim ? layout::IndexExpr::constant(0)
                                         : layout::IndexExpr::var(
                                               d, "x" + std::to_string(d)));
        llvm::Expected<layout::Fragment> f = layout::completeBufferFragment(
            *loop, access, shapeOf(buf));
        if (!f) {
          (void)fail(par, f.takeError());
          return WalkResult::interrupt();
        }
        layouts.try_emplace(buf, *f);
      }
      return WalkResult::advance();
    });
    if (w.wasInterrupted())
      return failure();
  }

  // Free: the default partition; then the inverse maps. Views come after
  // their sources (program order) and take the source's final layout.
  // A view of a fragment: the source's final layout re-indexed by the
  // view's shape (one the view's own users asked for must agree).
  auto layoutView = [&](ViewOp view) -> LogicalResult {
    Value v = view.getResult(), src = viewedFragment(v);
    auto type = cast<BufferType>(v.getType());
    auto srcType = cast<BufferType>(view.getSource().getType());
    if (!src || !isFragmentBuffer(src) || !known(src)) {
      view.emitError() << "the " << lang.name
                       << " target reshapes whole fragments only";
      return failure();
    }
    if (type.getElementType() != srcType.getElementType()) {
      view.emitError() << "T.view of a fragment as another element type ("
                       << srcType.getElementType() << " to "
                       << type.getElementType()
                       << ") is not a re-indexing of its registers; the "
                       << lang.name << " target reshapes fragments only";
      return failure();
    }
    llvm::Expected<layout::Fragment> f =
        layout::reshapeFragment(layouts[src], type.getShape());
    if (!f)
      return fail(view, f.takeError());
    if (known(v) && !layouts[v].isEquivalentTo(*f)) {
      view.emitError() << "the users of this reshaped fragment need layout "
                       << layouts[v].shortLabel()
                       << ", but its source's layout "
                       << layouts[src].shortLabel() << " reshaped gives "
                       << f->shortLabel();
      return failure();
    }
    layouts[v] = std::move(*f);
    return success();
  };
  WalkResult w = kernel.walk([&](Operation *alloc) {
    if (!isa<AllocOp, ViewOp>(alloc) || alloc->getNumResults() != 1)
      return WalkResult::advance();
    Value v = alloc->getResult(0);
    auto type = cast<BufferType>(v.getType());
    if (type.getScope() != MemoryScope::Fragment)
      return WalkResult::advance();
    if (!type.isStatic()) {
      alloc->emitError() << "fragments need static shapes on the " << lang.name
                         << " target";
      return WalkResult::interrupt();
    }
    Value home = v;
    if (isa<ViewOp>(alloc)) {
      if (failed(layoutView(cast<ViewOp>(alloc))))
        return WalkResult::interrupt();
      while (Value src = viewedFragment(home))
        home = src;
    } else if (!known(v)) {
      // Only a view of it constrained it: the view's layout re-indexed.
      for (Operation *user : v.getUsers()) {
        auto view = dyn_cast<ViewOp>(user);
        if (!view || !known(view.getResult()))
          continue;
        if (llvm::Expected<layout::Fragment> f = layout::reshapeFragment(
                layouts[view.getResult()], type.getShape()))
          layouts.try_emplace(v, *f);
        else
          llvm::consumeError(f.takeError());
      }
    }
    // Laid out for the threads of the range whose operations use it.
    auto homeRange = fragmentRanges.find(home);
    int64_t homeThreads = homeRange != fragmentRanges.end()
                              ? homeRange->second.count()
                              : blockThreads;
    // A small fragment that only scalar code reads and writes (`s[0]`
    // outside any T.Parallel, or at indices that are not loop variables)
    // is every thread's own copy, as in TileLang: all threads run that code
    // and compute the same values.
    // Tabulating a fragment every thread holds whole costs threads x
    // elements slots: past layout::kMaxReplicatedSlots the instance is
    // refused here too (layout inference reports it at the use; the
    // editor's hints print instances whatever inference said).
    // A rank-0 fragment (`T.alloc_fragment(())`) is one value: every thread
    // holds it, whatever reads it (scalar code, a T.Parallel, T.copy).
    if (!known(v)) {
      std::optional<layout::Fragment> chosen =
          type.getRank() == 0 || isScalarFragment(v)
              ? layout::fullyReplicatedWithin(type.getShape(), homeThreads)
              : layout::defaultFragmentWithin(
                    type.getShape(), elemBits(v), homeThreads,
                    layout::kMaxReplicatedSlots);
      if (!chosen) {
        alloc->emitError() << "fragment of " << type.getNumElements()
                           << " elements would be held whole by each of "
                           << homeThreads << " threads";
        return WalkResult::interrupt();
      }
      layouts.try_emplace(v, std::move(*chosen));
    }
    const layout::Fragment &f = layouts[v];
    // What the layout itself cannot do is reported where it was written.
    Operation *blame = alloc;
    if (AnnotateLayoutOp pin = pinned.lookup(v))
      blame = pin;
    FailureOr<FragmentInfo> info =
        describeFragment(f, type, blame, homeThreads);
    if (failed(info))
      return WalkResult::interrupt();
    fragments[v] = std::move(*info);
    return WalkResult::advance();
  });
  return failure(w.wasInterrupted());
}

FailureOr<FragmentInfo>
Emitter::describeFragment(const layout::Fragment &f, BufferType type,
                          Operation *blame, int64_t homeThreads) {
  FragmentInfo info;
  info.shape.assign(type.getShape().begin(), type.getShape().end());
  info.numel = 1;
  for (int64_t e : info.shape)
    info.numel *= e;
  info.layout = f;
  info.regs = f.getRegsPerThread();
  info.threadExtent = f.getThreadExtent();
  if (info.threadExtent > homeThreads) {
    blame->emitError() << "fragment layout " << f.shortLabel() << " needs "
                       << info.threadExtent << " threads, "
                       << (homeThreads == blockThreads
                               ? "the kernel has "
                               : "the thread range using it has ")
                       << homeThreads;
    return failure();
  }
  std::shared_ptr<const FragmentTables> tables =
      FragmentTables::get(f, info.shape.size());
  if (!tables->error.empty()) {
    blame->emitError() << "fragment layout: " << tables->error;
    return failure();
  }
  unsigned rank = info.shape.size();
  int64_t regs = info.regs;
  const std::optional<BitLinear> &fit = tables->coords;
  if (!fit) {
    blame->emitError() << "the " << lang.name
                       << " target cannot index fragment layout "
                       << f.shortLabel()
                       << " (its thread/register map is not linear in the "
                          "bits of the thread id and register number)";
    return failure();
  }
  info.coords = *fit;
  info.tables = std::move(tables);
  info.repMask = info.coords.zeroMask(0);
  // Vector width: low register bits stepping the last dimension (of a
  // flat map: the flat index, inside rows a multiple of the width long)
  // by 1, 2, 4, ... with every other term a multiple of the width.
  int64_t vec = 1;
  bool flat = info.coords.isFlat();
  unsigned last = flat || !rank ? 0 : rank - 1;
  unsigned outs = flat ? 1 : rank;
  if (rank) {
    const auto &rbits = info.coords.coef[1];
    unsigned n = 0;
    while (n < rbits.size() && rbits[n][last] == (int64_t(1) << n) &&
           unsigned(llvm::count(rbits[n], 0)) == outs - 1)
      ++n;
    vec = int64_t(1) << n;
    auto aligned = [&](int64_t x) { return x % vec == 0; };
    while (vec > 1) {
      bool ok = aligned(info.coords.base[last]) && regs % vec == 0 &&
                (!flat || aligned(info.shape.back()));
      for (const auto &bits : info.coords.coef)
        for (auto [b, c] : llvm::enumerate(bits))
          if (&bits != &info.coords.coef[1] || (int64_t(1) << b) >= vec)
            ok &= aligned(c[last]);
      if (ok)
        break;
      vec /= 2;
    }
    int64_t bytes = getElementStorageBytes(type.getElementType());
    while (vec * bytes > 16)
      vec /= 2;
  }
  info.vec = vec;
  return info;
}

std::string Emitter::rowMajorIndex(ValueRange indices,
                                   ArrayRef<int64_t> shape) {
  std::string lin;
  for (auto [d, i] : llvm::enumerate(indices))
    lin = lin.empty() ? "(" + expr(i) + ")"
                      : "(" + lin + ") * " + std::to_string(shape[d]) + " + (" +
                            expr(i) + ")";
  return lin.empty() ? "0" : lin;
}

bool Emitter::isWholeInEveryThread(const FragmentInfo &f) const {
  if (f.layout.getReplicate() < numThreads || f.regs != f.numel)
    return false;
  SmallVector<int64_t> coord(f.shape.size());
  for (int64_t r = 0; r < f.numel; ++r) {
    int64_t rest = r;
    for (int d = int(f.shape.size()) - 1; d >= 0; --d) {
      coord[d] = rest % f.shape[d];
      rest /= f.shape[d];
    }
    llvm::BitVector held(numThreads);
    for (int64_t rep = 0; rep < f.layout.getReplicate(); ++rep) {
      std::optional<layout::FragmentSlot> s = f.layout.apply(coord, rep);
      if (!s || s->index != r)
        return false;
      if (s->thread < numThreads)
        held.set(s->thread);
    }
    if (!held.all())
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

SmallVector<std::string> Emitter::emitCoords(const FragmentInfo &info,
                                             StringRef reg, StringRef hint) {
  SmallVector<std::string> idx;
  for (unsigned d = 0; d < info.shape.size(); ++d) {
    std::string name = fresh((hint + Twine(d)).str());
    line("const " + indexType() + " " + name + " = " +
         info.coords.expr(d, {"tid", reg.str()}) + ";");
    idx.push_back(name);
  }
  return idx;
}

FailureOr<std::string> Emitter::fragmentIndex(const FragmentInfo &loop,
                                              const FragmentInfo &buf,
                                              ArrayRef<unsigned> dims,
                                              StringRef reg, Operation *at,
                                              ArrayRef<int64_t> bound,
                                              bool quiet) {
  // The answer depends only on the two layouts and dims: look it up first.
  std::string key;
  if (loop.tables && buf.tables) {
    llvm::raw_string_ostream os(key);
    os << static_cast<const void *>(loop.tables.get()) << '/'
       << static_cast<const void *>(buf.tables.get());
    for (unsigned d : dims)
      os << ',' << d;
    if (!bound.empty())
      os << "/box";
    for (int64_t e : bound)
      os << ',' << e;
    auto it = fragmentIndexMemo.find(key);
    if (it != fragmentIndexMemo.end())
      return it->second.identity ? reg.str()
                                 : it->second.fit.expr(0, {reg.str()});
  }
  auto remember = [&](bool identity, const BitLinear &fit) {
    if (key.empty())
      return;
    FragmentIndexMemo &m = fragmentIndexMemo[key];
    m.loop = loop.tables;
    m.buf = buf.tables;
    m.identity = identity;
    m.fit = fit;
  };
  bool identity = dims.size() == loop.shape.size();
  for (auto [i, d] : llvm::enumerate(dims))
    identity &= d == i;
  if (identity && ((loop.tables && loop.tables == buf.tables) ||
                   buf.layout.isEquivalentTo(loop.layout))) {
    remember(true, BitLinear());
    return reg.str();
  }
  // The fitted outputs of slot (t, r) of the loop are base + T[t] + R[r]:
  // its coordinate, or of a flat map its flat index.
  unsigned rank = loop.shape.size();
  unsigned outs = loop.coords.isFlat() ? 1 : rank;
  int64_t tBits = loop.coords.coef.empty() ? 0 : loop.coords.coef[0].size();
  int64_t rBits = loop.coords.coef.size() < 2 ? 0 : loop.coords.coef[1].size();
  std::vector<int64_t> byThread(loop.threadExtent * outs, 0);
  std::vector<int64_t> byReg(loop.regs * outs, 0);
  for (int64_t t = 0; t < loop.threadExtent; ++t)
    for (unsigned d = 0; d < outs; ++d)
      for (int64_t b = 0; b < tBits; ++b)
        if ((t >> b) & 1)
          byThread[t * outs + d] += loop.coords.coef[0][b][d];
  for (int64_t r = 0; r < loop.regs; ++r)
    for (unsigned d = 0; d < outs; ++d) {
      int64_t v = loop.coords.base[d];
      for (int64_t b = 0; b < rBits; ++b)
        if ((r >> b) & 1)
          v += loop.coords.coef[1][b][d];
      byReg[r * outs + d] = v;
    }
  auto coordAt = [&](int64_t t, int64_t r, unsigned d) {
    if (loop.coords.isFlat())
      return loop.coords.unflatten(d, byThread[t] + byReg[r]);
    return byThread[t * outs + d] + byReg[r * outs + d];
  };
  std::vector<int64_t> perReg(loop.regs, -1);
  SmallVector<int64_t> bc(dims.size());
  auto registerOf = [&](int64_t t, int64_t r) -> int64_t {
    for (auto [k, d] : llvm::enumerate(dims))
      bc[k] = d == kUnitDim ? 0 : coordAt(t, r, d);
    int64_t found = -1;
    if (buf.tables) {
      found = buf.tables->registerAt(bc, t);
    } else {
      for (int64_t rep = 0; rep < buf.layout.getReplicate() && found < 0;
           ++rep) {
        std::optional<layout::FragmentSlot> s = buf.layout.apply(bc, rep);
        if (s && s->thread == t)
          found = s->index;
      }
    }
    return found;
  };
  auto inBox = [&](int64_t t, int64_t r) {
    bool in = true;
    for (auto [d, e] : llvm::enumerate(bound))
      in &= coordAt(t, r, d) < e;
    return in;
  };
  for (int64_t t = 0; t < loop.threadExtent; ++t) {
    for (int64_t r = 0; r < loop.regs; ++r) {
      if (!inBox(t, r))
        continue;
      int64_t found = registerOf(t, r);
      if (found < 0 || (perReg[r] >= 0 && perReg[r] != found)) {
        if (!quiet)
          at->emitError() << "fragment layouts disagree: the element a "
                             "thread visits in the loop ("
                          << loop.layout.shortLabel()
                          << ") is held by another thread in "
                          << buf.layout.shortLabel();
        return failure();
      }
      perReg[r] = found;
    }
  }
  // Registers no slot of the box visits are free: take the buffer register
  // of their first slot the buffer holds, which keeps the map linear where
  // the whole-shape one is.
  for (int64_t r = 0; r < loop.regs && !bound.empty(); ++r)
    for (int64_t t = 0; t < loop.threadExtent && perReg[r] < 0; ++t)
      perReg[r] = registerOf(t, r);
  std::optional<BitLinear> fit = BitLinear::fit(
      {loop.regs}, 1,
      [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
        if (perReg[p[0]] < 0)
          return std::nullopt;
        return SmallVector<int64_t>{perReg[p[0]]};
      });
  if (!fit) {
    if (!quiet)
      at->emitError() << "fragment register mapping is not linear in the "
                         "register bits; not supported by the "
                      << lang.name << " target yet";
    return failure();
  }
  remember(false, *fit);
  return fit->expr(0, {reg.str()});
}
