//===- LayoutSolver.h - The layout inference solver (private) --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to TLCTileTransforms: the solver state shared by its files:
// LayoutCollect.cpp (collection), LayoutStrictLevel.cpp,
// LayoutCommonLevel.cpp, LayoutFreeLevel.cpp (the free level's trials) and
// LayoutInference.cpp (the driver).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_DIALECT_TILE_TRANSFORMS_LAYOUTSOLVER_H
#define TLC_LIB_DIALECT_TILE_TRANSFORMS_LAYOUTSOLVER_H

#include "tlc/Dialect/Tile/IR/IndexTranslator.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"

#include "tlc/Layout/Propagation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <deque>
#include <limits>

namespace tlc::tile::detail {

/// The largest tile (elements) inference enumerates; TileLang tiles are far
/// below (a 256 x 256 accumulator has 65,536).
constexpr int64_t kMaxEnumerated = int64_t(1) << 22;

/// The elements inference enumerates per kernel, summed over its loops,
/// copies and reductions over fragments: each is enumerated a few times
/// (once per level that visits it), at ~0.1 us an element. The largest
/// kernel of the examples and the public corpus spans 524,288
/// (`T.Parallel(64, 8192)`); a kernel past this budget is an error at
/// once instead of seconds of enumeration (found by
/// tlc-fuzz-eval: a mutated flash attention with `block_N=65536` spanned
/// 20,971,904 elements, 10 s of CPU for one instance).
constexpr int64_t kMaxEnumeratedPerKernel = int64_t(1) << 22;

/// The index-expression operations (CompiledIndexExpr::workDone(), a few
/// ns each) one kernel's inference may run in its enumerations; memoized
/// checks run none. A backstop against inference that does not end (found
/// by tlc-fuzz-eval: two proposals for one buffer that replaced each other
/// forever, and a mutant whose free-level attempts took 20 s): past it,
/// inference stops with an error at the kernel. Set 16x above what the
/// test programs need (the most, a conformance program, 16-32 M; the
/// examples under 4 M). tlc-build's hidden `--layout-work-budget` overrides
/// it. Checked between visits, so one visit may overrun it.
constexpr int64_t kMaxEnumerationWorkPerKernel = int64_t(1) << 29;

using layout::Fragment;
using layout::IndexExpr;
using layout::InferLevel;
using layout::Layout;
// The solver is written against MLIR's names; this header is private to the
// files of the solver (Layout*.cpp).
using namespace mlir;


/// Checks by enumeration that a loop laid out as \p loop may access
/// \p buffer at \p index: every thread running an iteration holds the
/// element it touches, and for a write, every holder of a written element
/// runs an iteration that writes it (no replica goes stale).
bool accessFits(const Fragment &loop, llvm::ArrayRef<IndexExpr> index,
                const Fragment &buffer, bool write);

/// The fragment of \p shape placing element `index` on `thread` with
/// \p loop's replication and origin, when it is valid for \p threads
/// threads and \p loop may access it at \p access (accessFits with
/// \p write); std::nullopt otherwise. The shared last step of the layouts
/// a loop implies for the buffers it touches through a non-identity index.
std::optional<Fragment> fragmentFittingLoop(llvm::ArrayRef<int64_t> shape,
                                            std::vector<IndexExpr> index,
                                            IndexExpr thread,
                                            const Fragment &loop,
                                            llvm::ArrayRef<IndexExpr> access,
                                            int64_t threads, bool write);

/// accessFits() for one loop layout and one buffer fragment against several
/// index forms (each value of a held dimension): which threads hold which
/// element is tabulated once, in the constructor.
class AccessFitChecker {
public:
  AccessFitChecker(const Fragment &loop, const Fragment &buffer);
  /// Whether the loop may access the buffer at \p index.
  bool fits(llvm::ArrayRef<IndexExpr> index, bool write);

private:
  const Fragment &loop;
  llvm::ArrayRef<int64_t> shape;
  int64_t threadCount;
  /// holders[element * threadCount + thread]: the thread holds the element.
  std::vector<bool> holders;
};

/// A buffer inference gives a layout to.
struct BufferInfo {
  Value root;
  bool isFragment = false;
  std::vector<int64_t> shape;
  unsigned bits = 0;
  std::optional<Fragment> fragment;
  std::optional<Layout> shared;
  /// The op that gave the current layout.
  Operation *setter = nullptr;
  /// Level of the current layout.
  InferLevel level = InferLevel::Free;
  /// Pinned by T.annotate_layout or an existing attribute.
  bool pinned = false;
  /// sm_90: the source of a copy to global memory (a TMA store).
  bool tmaStoreSource = false;
  /// A gemm accumulator written by gemms of several disjoint thread ranges
  /// (`if tx // 128 == k:` branches, `T.ws(k)`): the gemm layout over one
  /// range (threads from 0) and the first thread of each range, ascending.
  std::optional<Fragment> rangeBase;
  std::vector<int64_t> rangeStarts;
  /// Nodes that read or write the buffer.
  std::vector<unsigned> users;
};

/// One fragment access of a loop-like node.
struct Access {
  unsigned buffer;
  /// The index over the loop variables; std::nullopt when it is not an
  /// integer expression of them.
  std::optional<std::vector<IndexExpr>> index;
  bool write = false;
  /// Dimensions indexed by a value the loop does not change (`lse[k, i]`
  /// in a loop over i inside a serial loop over k); index is then
  /// std::nullopt and heldIndex is the index with 0 at those dimensions.
  /// TileLang keeps such a dimension whole in each thread's registers.
  std::vector<unsigned> held;
  std::optional<std::vector<IndexExpr>> heldIndex;
};

enum class NodeKind { Gemm, Loop, Reduce };

/// An op that constrains layouts.
struct Node {
  NodeKind kind;
  Operation *op;
  // Loop: a tile.parallel (attached) or the SIMT loop of a copy.
  std::vector<int64_t> loopShape;
  std::vector<Access> accesses;
  std::optional<Fragment> loopLayout;
  bool pinnedLoop = false;
  unsigned elemBits = 32;
  // Reduce.
  unsigned src = 0, dst = 0, dim = 0;
};

/// The solver state for one kernel.
class Solver {
public:
  /// With \p deferFloating, fragments read or written outside every loop
  /// are held whole only when nothing else gave them a layout (after the
  /// free level), instead of first (at the strict level): the retry of a
  /// kernel where holding such a fragment whole conflicts with the layout
  /// its producer needs (a reduction over fewer elements than threads whose
  /// result is read as a scalar).
  Solver(KernelOp kernel, LayoutTarget target, int64_t threads,
         bool deferFloating = false)
      : kernel(kernel), target(target), threads(threads),
        deferFloating(deferFloating) {}

  LogicalResult run();
  KernelLayouts takeResult();

private:
  // Collection.
  std::optional<unsigned> rootBuffer(Value v, bool allowRegion);
  void collect();
  void collectParallel(ParallelOp op);
  void addLoop(Node node);
  /// False, with an error at the kernel, when the loops, copies and
  /// reductions over fragments span more than kMaxEnumeratedPerKernel
  /// elements.
  bool withinEnumerationBudget();

  // Setting layouts.
  LogicalResult setFragment(unsigned buf, Fragment f, Operation *by,
                            InferLevel level, bool readOnly = false);
  LogicalResult setShared(unsigned buf, Layout l, Operation *by,
                          InferLevel level);
  LogicalResult conflict(unsigned buf, Operation *by, llvm::StringRef existing,
                         llvm::StringRef incoming, llvm::StringRef why);

  /// Buffer \p buf held whole by every thread (fully replicated); fails,
  /// with an error at \p at naming \p why, when that would take more than
  /// layout::kMaxReplicatedSlots slots.
  FailureOr<Fragment> replicateWhole(unsigned buf, Operation *at,
                                     llvm::StringRef why);

  // Levels.
  LogicalResult strict();
  /// Holds every fragment of `floating` that has no layout yet whole.
  LogicalResult replicateFloating();
  LogicalResult applyAnnotation(AnnotateLayoutOp op);
  LogicalResult inferGemm(GemmOp op);
  /// Sets the accumulator \p buf of a gemm run by the threads from
  /// \p firstThread on, whose layout over those threads is \p base: each
  /// range's gemm holds its own copy, so accumulators of gemms of
  /// disjoint ranges with the same layout are one fragment replicated
  /// once per range.
  LogicalResult setRangeAccumulator(unsigned buf, const Fragment &base,
                                    int64_t firstThread, GemmOp by);
  /// Whether \p op copies to or from tensor memory.
  static bool isTensorMemoryCopy(CopyOp op);
  /// The strict layout of the fragment \p op copies to or from tensor
  /// memory (one row per thread).
  LogicalResult inferTensorMemoryCopy(CopyOp op);
  LogicalResult propagate();
  LogicalResult visit(unsigned node, InferLevel level);
  LogicalResult visitLoop(unsigned node, InferLevel level);
  LogicalResult visitReduce(unsigned node, InferLevel level);
  LogicalResult freeLevel();
  std::vector<unsigned> unresolvedComponent(unsigned id);
  LogicalResult resolveFrom(unsigned root, llvm::ArrayRef<unsigned> comp);
  int64_t registerCost(llvm::ArrayRef<unsigned> comp);
  std::optional<Fragment> plannedPartition(const Node &n);
  /// \p planned, or planReduciblePartition() when a T.reduce of a
  /// fragment the loop covers at its variables cannot reduce \p planned.
  Fragment reduciblePartition(const Node &n, Fragment planned, int64_t first,
                              int64_t count);
  /// True when running \p n with layout \p loop keeps every fragment it
  /// touches valid (what setFragment would accept).
  bool isCompatible(const Node &n, const Fragment &loop);
  /// For an access with held dimensions (Access::held): the buffer layout
  /// the loop layout \p loop gives it (the other dimensions as
  /// completeBufferFragment() derives them, each held dimension tiled
  /// into the registers), or std::nullopt.
  std::optional<Fragment> heldBufferFragment(const Access &a,
                                             const Fragment &loop);
  /// Whether \p loop may access \p a's buffer, laid out as \p buffer, at
  /// every value of its held dimensions.
  bool heldAccessFits(const Access &a, const Fragment &loop,
                      const Fragment &buffer);
  /// The loop layout \p a's buffer gives the loop when every value of its
  /// held dimensions gives the same one.
  std::optional<Fragment> heldLoopLayout(const Node &n, const Access &a);
  /// Completes the layout of \p a's buffer (an access with held
  /// dimensions) from the layout of loop \p node.
  LogicalResult completeHeld(unsigned node, const Access &a, InferLevel level);
  /// For a read whose index divides loop variables by constants
  /// (`packed[i, j // 2]`, LayoutPackedAccesses.cpp): the buffer layout in
  /// which each element lives with the thread that runs the first
  /// iteration reading it, when that thread also runs the others, or
  /// std::nullopt.
  std::optional<Fragment> packedBufferFragment(const Access &a,
                                               const Fragment &loop);
  /// For an access that touches every element of its buffer once through
  /// a permuted index (`y[t + 64 * k]` in a loop over t, k;
  /// LayoutPermutedAccesses.cpp): the buffer layout in which each element
  /// lives where the loop runs the iteration touching it, or std::nullopt.
  std::optional<Fragment> permutedBufferFragment(const Access &a,
                                                 const Fragment &loop);

  void enqueueUsers(unsigned buf, unsigned except);

  KernelOp kernel;
  LayoutTarget target;
  int64_t threads;
  std::vector<BufferInfo> buffers;
  llvm::DenseMap<Value, unsigned> bufferIds;
  std::vector<Node> nodes;
  std::vector<AnnotateLayoutOp> annotations;
  std::vector<GemmOp> gemms;
  /// Copies between tensor memory and a fragment (sm_100 targets).
  std::vector<CopyOp> tmemCopies;
  /// Fragments read or written outside every loop, with the op doing it.
  std::vector<std::pair<unsigned, Operation *>> floating;
  std::deque<unsigned> queue;
  std::vector<bool> queued;
  /// CompiledIndexExpr::workDone() when run() began (see
  /// kMaxEnumerationWorkPerKernel).
  int64_t enumeratedAtStart = 0;
  /// Set once the visit budget is spent (its error is emitted once).
  bool overBudget = false;
  bool deferFloating = false;
};

/// The element count of \p shape, saturating at INT64_MAX (0 when a
/// dimension is not positive).
int64_t elementCount(llvm::ArrayRef<int64_t> shape);

/// The threads that run \p op when it is under `with T.ws(...)` or a
/// condition selecting a warp-aligned proper range of threadIdx.x: the
/// first thread and the count; std::nullopt for the whole block.
std::optional<std::pair<int64_t, int64_t>> warpGroupRange(mlir::Operation *op,
                                                          int64_t threads);

} // namespace tlc::tile::detail

#endif // TLC_LIB_DIALECT_TILE_TRANSFORMS_LAYOUTSOLVER_H
