//===- EmitterImpl.h - Internals of the CUDA emitter ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA emitter's class, shared by its files (CUDAEmitter*.cpp,
// CUDABufferAccess.cpp, CUDAFragments.cpp, HIPEmitter*.cpp): each member is
// declared under the file that defines it. The values its parts pass each
// other are in EmitterTypes.h, the state of the asynchronous machinery
// (pipelines, TMA, mbarriers, wgmma, tcgen05) in EmitterAsyncState.h. One
// emitter per tile.func; not thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CUDA_EMITTERIMPL_H
#define TLC_LIB_TARGET_CUDA_EMITTERIMPL_H

#include "EmitterAsyncState.h"
#include "EmitterTypes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/FragmentExchangePlan.h"
#include "tlc/Dialect/Tile/Transforms/FragmentLayouts.h"
#include "tlc/Dialect/Tile/Transforms/ScratchAreas.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/FragmentRegisters.h"
#include "tlc/Layout/FragmentTables.h"
#include "tlc/Layout/MfmaSharedLayouts.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"
#include "tlc/Target/Cpp/LazySelect.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::arith {
class CmpIOp;
} // namespace mlir::arith

namespace tlc::target::cuda_detail {

/// Prints one tile.func as CUDA (or HIP) C++.
class Emitter : public AsyncKernelState {
public:
  Emitter(tile::FuncOp func, const CudaEmitOptions &options);

  /// Emits the translation unit (without the #include).
  mlir::LogicalResult emitFunction();
  /// Drops the `const T name = expr;` lines whose name nothing else uses
  /// (index arithmetic a later choice made unnecessary, a compare that
  /// value ranges decided), until none is left, and renumbers the source
  /// map. Every such definition is side-effect free.
  void pruneUnusedDefinitions();
  /// The result.
  CudaKernel takeResult();

  // Output -----------------------------------------------------------------
  void line(const llvm::Twine &text);
  void open(const llvm::Twine &text);
  void close(llvm::StringRef suffix = "");
  /// Starts the code of \p op: current location, comment, #line.
  void beginOp(mlir::Operation *op, llvm::StringRef what);

  // Names and expressions ---------------------------------------------------
  std::string fresh(llvm::StringRef hint);
  /// Names \p v after its NameLoc (or \p hint).
  std::string define(mlir::Value v, llvm::StringRef hint);
  /// The expression of an emitted value (error text if unknown).
  std::string expr(mlir::Value v);
  /// C++ type of values of \p t in registers (f32 for 16/8-bit floats).
  mlir::FailureOr<std::string> valueType(mlir::Type t, mlir::Operation *at);
  /// C++ type of buffer elements of \p t.
  mlir::FailureOr<std::string> storageType(mlir::Type t, mlir::Operation *at);
  /// Storage value \p raw of element type \p t as a register value.
  std::string fromStorage(mlir::Type t, llvm::StringRef raw);
  /// Register value \p v as storage of element type \p t.
  std::string toStorage(mlir::Type t, llvm::StringRef v);
  /// Expression of extent \p d of \p t (static or a symbol).
  mlir::FailureOr<std::string> extent(tile::BufferType t, unsigned d,
                                      mlir::Operation *at);
  /// The C++ expression of the symbolic extent or stride \p text (a symbol
  /// or an expression of the kernel's symbols); \p what names it in the
  /// error.
  mlir::FailureOr<std::string>
  symbolicExpr(llvm::StringRef text, mlir::Operation *at, llvm::StringRef what);
  /// The element strides of the parameter \p root as C++ expressions, one
  /// per dimension, from its `tile.strides`; empty when it has none (dense
  /// row-major).
  mlir::FailureOr<llvm::SmallVector<std::string>> strides(mlir::Value root,
                                                          mlir::Operation *at);
  /// Every extent of \p t (extent()) into \p shape and their product as an
  /// expression into \p numel ("1" for rank 0).
  mlir::LogicalResult extents(tile::BufferType t, mlir::Operation *at,
                              llvm::SmallVectorImpl<std::string> &shape,
                              std::string &numel);
  std::string foldResult(mlir::OpFoldResult r);

  // Buffers -----------------------------------------------------------------
  /// Resolves \p buffer (through tile.region views) at \p indices, whose
  /// known ranges are \p ranges (one per index, or empty).
  mlir::FailureOr<RootAccess>
  resolve(mlir::Value buffer, llvm::ArrayRef<std::string> indices,
          mlir::Operation *at,
          llvm::ArrayRef<std::optional<IndexRange>> ranges = {});
  /// Whether the row-major linear index of \p access is provably a
  /// multiple of \p vec.
  bool provenAligned(const RootAccess &access, int64_t vec);
  /// The range of an index value from constants, block, thread and loop
  /// extents (std::nullopt when unknown); memoised.
  std::optional<IndexRange> rangeOf(mlir::Value v) { return intervals.of(v); }
  std::optional<IndexRange> rangeOf(mlir::OpFoldResult r) {
    return intervals.of(r);
  }
  /// The value of an integer comparison where the operands' ranges decide
  /// it for every thread and iteration, else nothing.
  std::optional<bool> decideCompare(mlir::arith::CmpIOp cmp) {
    return intervals.decideCompare(cmp);
  }
  // CUDAIndexRanges.cpp
  /// The C++ type of `index` values: `int`, or `long long` where some
  /// constant or static extent of the function does not fit 32 bits.
  std::string indexType() const { return wideIndex ? "long long" : "int"; }
  /// Decides `wideIndex` for the function being emitted.
  void chooseIndexWidth();
  /// Whether `index` values are 64-bit.
  bool wideIndex = false;
  /// Row-major linear index of \p access in its root.
  mlir::FailureOr<std::string> linearIndex(const RootAccess &access,
                                           mlir::Operation *at);
  /// The in-bounds condition of a global access ("" when not global).
  /// \p lastWidth: elements accessed from the innermost index on.
  mlir::FailureOr<std::string> boundsCondition(const RootAccess &access,
                                               mlir::Operation *at,
                                               int64_t lastWidth = 1);
  /// An lvalue for \p access (not for fragments).
  mlir::FailureOr<std::string> lvalue(const RootAccess &access,
                                      mlir::Operation *at);
  /// resolve() then lvalue() and boundsCondition(): the element of
  /// \p buffer at index expressions \p indices (with their known \p ranges)
  /// as an lvalue and its in-bounds condition ("" when no guard is needed).
  mlir::FailureOr<std::pair<std::string, std::string>>
  guardedElement(mlir::Value buffer, llvm::ArrayRef<std::string> indices,
                 mlir::Operation *at,
                 llvm::ArrayRef<std::optional<IndexRange>> ranges = {});
  /// A vector of \p width elements of \p buffer starting at \p indices.
  struct VectorAccess {
    RootAccess access;
    /// Row-major linear index in the root, and `&root[linear]`.
    std::string linear, address;
    /// In-bounds condition of the whole vector ("" when proven).
    std::string bounds;
    /// Whether the ranges prove the start a multiple of the width.
    bool aligned = true;
    /// bounds, and the alignment test unless proven ("" when neither).
    std::string condition(int64_t width) const;
  };
  /// resolve(), linearIndex(), boundsCondition() and provenAligned() for a
  /// \p width-element vector access (the fast path of vector copies).
  mlir::FailureOr<VectorAccess>
  vectorAccess(mlir::Value buffer, llvm::ArrayRef<std::string> indices,
               mlir::Operation *at,
               llvm::ArrayRef<std::optional<IndexRange>> ranges, int64_t width);
  /// The element of a non-fragment \p buffer at \p indices, as an lvalue
  /// and its in-bounds condition ("" when no guard is needed); what
  /// tile.load and tile.store share.
  mlir::FailureOr<std::pair<std::string, std::string>>
  elementAccess(mlir::Value buffer, mlir::ValueRange indices,
                mlir::Operation *at);
  /// The scope of a root buffer.
  static tile::MemoryScope scopeOf(mlir::Value root);
  /// Whether \p root (a root buffer) stores fp4/int4 elements two a byte
  /// (global and shared memory; registers hold one a byte): its elements
  /// are nibble references and it is never accessed as vectors.
  static bool isPackedInMemory(mlir::Value root);
  /// The root a (possibly region) buffer value views.
  static mlir::Value rootOf(mlir::Value buffer);
  /// The shared buffers \p op reads and writes (nested ops included).
  static tile::BufferAccesses sharedEffectsOf(mlir::Operation *op);

  // Ops ---------------------------------------------------------------------
  mlir::LogicalResult emitBlock(mlir::Block &block, bool allowBarriers);
  mlir::LogicalResult emitView(tile::ViewOp op);
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult emitKernel(tile::KernelOp op);
  /// The facts of \p op the printing and the area measurement share: its
  /// thread count, thread ranges, fragment layouts, swizzles, pipeline
  /// plan and the planned shared buffers (sharedSlots). Sets
  /// launchThreads.
  mlir::LogicalResult prepareKernel(tile::KernelOp op);
  /// The threads a block is launched with: the program's, a second
  /// consumer warpgroup (tile-gemm-pingpong), the producer warpgroup.
  int64_t launchThreads = 0;
  mlir::LogicalResult emitAlloc(tile::AllocOp op);
  mlir::LogicalResult emitScalar(mlir::Operation *op);
  mlir::LogicalResult emitLoad(tile::LoadOp op);
  /// T.if_then_else evaluates only the operand it picks
  /// (CUDAEmitterLazySelect.cpp): finds the selects of \p kernel whose
  /// operands' loads run in their branches (tlc/Target/Cpp/LazySelect.h).
  void collectLazySelects(tile::KernelOp kernel);
  /// An arith.select with deferred operand ops: an if/else.
  mlir::LogicalResult emitLazySelect(mlir::Operation *select);
  LazySelects lazySelects;
  mlir::LogicalResult emitStore(tile::StoreOp op);
  /// The register expression of a fragment element access \p op.
  mlir::FailureOr<std::string> fragmentRegister(mlir::Operation *op,
                                                mlir::Value buffer,
                                                mlir::ValueRange indices);
  // CUDAEmitterTileOps.cpp
  /// Warns at a store into a T.alloc_local buffer in \p op, a T.Parallel
  /// partitioned by a fragment spread over the threads, that TileLang would
  /// run the loop whole in every thread.
  void warnLocalStoreInPartitionedLoop(tile::ParallelOp op);
  mlir::LogicalResult emitParallel(tile::ParallelOp op);
  /// In a replicated T.Parallel, the exchanged elements (a fragment at the
  /// loop's coordinates) that an iteration reads and stores: its first
  /// access, the fragment, the loop dimensions of its indices; `name` is
  /// the per-thread copy once declared.
  struct ReplicaCopy {
    mlir::Operation *first;
    mlir::Value root;
    llvm::SmallVector<unsigned> dims;
    std::string name;
  };
  /// The elements of \p op (accessing \p fragOps, with the exchange tiles
  /// \p exchanged) that a load may read from the tile where the iteration
  /// stores them: every replica reads them before replica 0 stores any.
  llvm::SmallVector<ReplicaCopy> replicaCopies(
      tile::ParallelOp op,
      llvm::ArrayRef<std::pair<mlir::Operation *, mlir::Value>> fragOps,
      const llvm::DenseMap<mlir::Value, std::string> &exchanged);
  // CUDAEmitterShiftedLoop.cpp
  /// A T.Parallel tile::matchShiftedLoop accepts (sparse MLA backward's
  /// `S[bi, d] = acc[bi + s * 16, d]` under `if bi < 16`): the loop runs
  /// over the fragment's own slots, iteration v on the thread that holds
  /// element v + offset, so that no exchange through shared memory is
  /// needed.
  struct ShiftedLoop {
    mlir::Value root;
    const FragmentInfo *frag = nullptr;
    /// Per loop variable: the offset's C++ expression ("0": none).
    llvm::SmallVector<std::string> offsets;
    /// Per loop variable: the iterations that can do anything (a body
    /// that is one `if v < C` runs only [0, C)).
    llvm::SmallVector<int64_t> extents;
    /// The reads of `root`, each at the loop variables plus the offsets.
    llvm::SmallVector<mlir::Operation *> loads;
  };
  std::optional<ShiftedLoop> shiftedLoop(tile::ParallelOp op);
  mlir::LogicalResult emitShiftedLoop(tile::ParallelOp op,
                                      const ShiftedLoop &shifted);
  mlir::LogicalResult emitCopy(tile::CopyOp op);
  /// Where the region of a shared tile starts relative to an alignment.
  struct OriginAlignment {
    enum Kind : uint8_t {
      /// Every offset it may start at is a multiple of the alignment.
      Aligned,
      /// None is (TileLang refuses such a gemm operand: "which is never a
      /// multiple of 16").
      Never,
      /// Some may be and some not (a loop's offsets), or the offsets are
      /// unknown.
      Maybe,
    } kind = Aligned;
    /// The byte offsets it may start at, [lo, hi] (lo == hi: one; a
    /// sub-byte element's offset rounded down), where `known`.
    int64_t lo = 0, hi = 0;
    bool known = true;
  };
  /// Where the region \p operand of a shared tile starts relative to an
  /// \p align-byte boundary, from its constant offsets and the intervals
  /// and divisors of its dynamic ones.
  OriginAlignment originAlignment(mlir::Value operand, int64_t align);
  /// Whether \p op copies into or out of a T.alloc_local / T.alloc_var
  /// buffer: every thread runs the whole copy for its own registers.
  static bool isPerThreadCopy(tile::CopyOp op);
  mlir::LogicalResult emitFill(mlir::Operation *op, mlir::Value dst,
                               const std::string &value);
  /// Copies between a fragment and memory or another fragment.
  mlir::LogicalResult emitFragmentCopy(tile::CopyOp op);
  /// The window of \p frag that \p view (the fragment or a tile.region of
  /// it) covers, at constant or run-time offsets.
  mlir::FailureOr<FragmentWindow> fragmentWindow(mlir::Value view,
                                                 const FragmentInfo &frag,
                                                 mlir::Operation *at);
  /// The lines declaring `alignas(vec * size) T name[vec]` (T: storage of
  /// \p dstElem) filled with fragment registers `frag[reg + i]` of
  /// \p srcElem converted: a vector of converted elements to store at once.
  mlir::FailureOr<llvm::SmallVector<std::string>>
  packedRegisters(llvm::StringRef name, mlir::Type srcElem, mlir::Type dstElem,
                  llvm::StringRef frag, llvm::StringRef reg, int64_t vec,
                  mlir::Operation *at);
  /// The fragment whose layout partitions a T.Parallel and, for a loop
  /// over a leading box of it, the box (else empty); null when no fragment
  /// is accessed at exactly the loop variables. \p varDim: the fragment
  /// dimension of each loop variable (the fragment may have unit
  /// dimensions read at 0 in between: `m[i, 0]` under T.Parallel(M)).
  /// tile-plan-parallel-loops' plan (ParallelPlan.h), or the same choice
  /// (chooseParallelPlan) for IR that did not go through the pass. A loop
  /// partitioned by the layout the program gave it returns that layout.
  const FragmentInfo *loopLayout(tile::ParallelOp op,
                                 llvm::SmallVectorImpl<int64_t> &bound,
                                 llvm::SmallVectorImpl<unsigned> &varDim);
  /// An error on each T.Parallel of \p kernel whose recorded partition
  /// plan is malformed (getParallelPlan).
  mlir::LogicalResult checkParallelPlans(tile::KernelOp kernel);
  /// Fragments a T.Parallel accesses whose elements its threads do not
  /// hold (another thread's layout), and the source of a fragment copy
  /// between layouts that disagree (tile-plan-fragment-exchanges' plan):
  /// they go through a shared tile (exchangeOffset).
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value, 1>>
      exchanges;
  /// Byte offset of the exchange area in shared memory (-1: none).
  int64_t exchangeOffset = -1;
  /// The exchanges \p kernel's loops and fragment copies need with this
  /// printer's fragment layouts (after prepareKernel), in program order,
  /// loops first: tile::chooseFragmentExchanges, which
  /// tile-plan-fragment-exchanges records (FragmentExchangePlan.h).
  tile::FragmentExchanges chooseExchanges(tile::KernelOp kernel);
  /// Reads the plan recorded on \p kernel into `exchanges`; an error at the
  /// op, and failure, where it is malformed (getFragmentExchanges,
  /// isExchangedCopy) or leaves out an exchange of \p needed
  /// (chooseExchanges), or exchanges in a loop printed over its
  /// fragment's slots.
  mlir::LogicalResult readExchangePlan(tile::KernelOp kernel,
                                       const tile::FragmentExchanges &needed);
  /// Plans `exchanges` for \p kernel (the recorded plan where the kernel
  /// has one, else chooseExchanges); the bytes its largest use needs.
  /// Sets exchangePublishes when scalar code or T.cumsum uses the area, and
  /// exchangeUses (what tile-plan-scratch-areas places).
  mlir::FailureOr<int64_t> planExchanges(tile::KernelOp kernel);
  /// Scalar reads of another thread's fragment element or T.cumsum use the
  /// exchange area (their reads follow no barrier of the printer's own).
  bool exchangePublishes = false;
  /// Every use of the exchange area planExchanges found, with its bytes.
  llvm::SmallVector<tile::ScratchAreaNeeds::Use> exchangeUses;
  // CUDAEmitterAreaReuse.cpp
  /// The reduction scratch and exchange needs of \p kernel (after
  /// prepareKernel), as tile-plan-scratch-areas places them.
  mlir::FailureOr<tile::ScratchAreaNeeds>
  measureScratchAreas(tile::KernelOp kernel);
  /// The block's shared-memory budget on the target.
  int64_t sharedMemoryBudget() const;
  /// Reads tile-plan-scratch-areas' placement of \p kernel's areas
  /// (scratchOffset, exchangeOffset, sharedBytes), or places them with the
  /// same function where the pass did not run (a module lowered without a
  /// GPU target); plans `exchanges`. The needs' bytes go to \p scratch and
  /// \p exchange (for the budget's diagnostic).
  mlir::LogicalResult readScratchAreas(tile::KernelOp kernel, int64_t &scratch,
                                       int64_t &exchange);
  /// The uses of an area that end with a barrier (tile.area_barrier).
  llvm::DenseSet<mlir::Operation *> areaBarrierAfter;
  /// The barrier that ends \p op's use of the scratch or exchange area
  /// where tile-plan-scratch-areas placed the area over a dead buffer
  /// (nothing otherwise).
  void endAreaUse(mlir::Operation *op);
  /// A fragment element scalar code reads although not every thread holds
  /// it: the fragment is stored to the exchange area (barriers around) and
  /// the element read from there. Fails where barriers may not go.
  mlir::FailureOr<std::string> publishedElement(mlir::Operation *op,
                                                mlir::Value root,
                                                mlir::ValueRange indices);
  /// A fragment element read at constant indices by scalar code that guards
  /// (`if tid == c`, nested or conjoined) leave to one thread: that thread's
  /// register when it holds a replica of the element. Fails otherwise.
  mlir::FailureOr<std::string> guardedHolderElement(mlir::Operation *op,
                                                    mlir::Value root,
                                                    mlir::ValueRange indices);
  /// Declares a pointer to the row-major exchange tile of fragment \p root
  /// at byte \p offset of shared memory; its name.
  mlir::FailureOr<std::string>
  declareExchangeTile(mlir::Value root, int64_t offset, mlir::Operation *at);
  /// Every register of fragment \p name (layout \p frag) to its element of
  /// the row-major shared \p tile, or (\p toShared false) back, converting
  /// elements of type \p from to \p to when both are given and differ.
  void emitExchange(const FragmentInfo &frag, llvm::StringRef name,
                    llvm::StringRef tile, bool toShared, mlir::Type from = {},
                    mlir::Type to = {});
  // CUDAEmitterExchanges.cpp (CudaEmitOptions::recordExchanges)
  /// The record of exchange tile \p tile, or null when not recording.
  CudaExchangeAccesses *exchangeRecord(llvm::StringRef tile);
  /// Starts the record of exchange tile \p tile of fragment \p root, at
  /// byte \p offset, declared by the code of \p at.
  void beginExchangeRecord(llvm::StringRef tile, mlir::Value root,
                           int64_t offset, mlir::Operation *at);
  /// Records the accesses emitExchange() prints for \p frag and \p tile.
  void recordExchange(const FragmentInfo &frag, llvm::StringRef tile,
                      bool toShared);
  /// Records the accesses of fragment access \p o (a tile.load or
  /// tile.store at \p indices) inside T.Parallel \p op to exchange tile
  /// \p tile of shape \p shape, the loop partitioned by \p loop (null:
  /// flat over the threads) with \p bound and \p varDim as loopLayout()
  /// gives them.
  void recordLoopExchange(tile::ParallelOp op, const FragmentInfo *loop,
                          llvm::ArrayRef<int64_t> bound,
                          llvm::ArrayRef<unsigned> varDim, mlir::Operation *o,
                          llvm::StringRef tile, llvm::ArrayRef<int64_t> shape);
  /// Records every thread's read of element \p indices (constants, else the
  /// record is partial) of exchange tile \p tile of shape \p shape.
  void recordScalarExchangeRead(llvm::StringRef tile, mlir::ValueRange indices,
                                llvm::ArrayRef<int64_t> shape);
  /// Records T.cumsum's scan of exchange tile \p tile: thread t scans the
  /// lines t, t + numThreads, ... (\p lines in all) of \p len elements
  /// \p stride apart, reading and writing each.
  void recordScanExchange(llvm::StringRef tile, int64_t lines, int64_t len,
                          int64_t stride, bool reverse);
  // CUDAEmitterStagedStore.cpp
  /// A fragment -> global copy of a 2-D tile written through a padded
  /// shared tile and 16-byte row stores (\p memDims: the global side's two
  /// non-unit dimensions). False, with nothing emitted, when the direct
  /// stores are already 16 bytes wide or no dead shared area is found.
  mlir::FailureOr<bool>
  emitStagedFragmentStore(tile::CopyOp op, const FragmentInfo &frag,
                          llvm::ArrayRef<unsigned> memDims);
  /// A byte range of shared memory, at least \p bytes long, made of shared
  /// buffers that neither \p at nor any later statement of its kernel uses
  /// (\p at must be a statement of the kernel body itself): its offset and
  /// the buffers' names. Nothing when there is none.
  std::optional<std::pair<int64_t, std::string>>
  deadSharedArea(mlir::Operation *at, int64_t bytes);
  // CUDAFragments.cpp
  /// Refuses (diagnostic at the allocation) a fragment without a static
  /// shape and a fragment or shared tile with an extent of 0 or less:
  /// checked before any thread range or layout is planned over a shape.
  mlir::LogicalResult checkTileShapes(tile::KernelOp kernel);
  /// Chooses a layout for every fragment of \p kernel (gemm operands,
  /// reductions, T.Parallel propagation, then the default partition) and
  /// fills `fragments`.
  mlir::LogicalResult assignFragmentLayouts(tile::KernelOp kernel);
  /// Whether every thread holds all of \p f, its registers row-major (a
  /// fragment scalar code may index anywhere).
  bool isWholeInEveryThread(const FragmentInfo &f) const;
  /// What the printer needs of fragment layout \p f for a buffer of
  /// \p type used by \p homeThreads threads: its fitted thread/register
  /// map, replica mask and vector width. Errors are reported on \p blame.
  mlir::FailureOr<FragmentInfo> describeFragment(const layout::Fragment &f,
                                                 tile::BufferType type,
                                                 mlir::Operation *blame,
                                                 int64_t homeThreads);
  /// The register of \p buf holding the element that slot (tid, r) of
  /// \p loop visits, \p buf dimension d being loop dimension dims[d]; an
  /// expression over \p reg. Fails (diagnostic on \p at) when another
  /// thread holds it. A non-empty \p bound limits the loop to the slots
  /// whose coordinates lie below it (the others are never visited).
  /// \p quiet: fail without a diagnostic (planning the exchanges).
  /// dims[d] == kUnitDim: \p buf dimension d is a unit dimension read at 0.
  static constexpr unsigned kUnitDim = ~0u;
  /// For a whole-fragment copy from shape \p src to shape \p dst (equal
  /// once dimensions of extent 1 are dropped, as T.copy allows): per
  /// \p src dimension, the \p dst dimension it runs along (kUnitDim for
  /// a unit one), as fragmentIndex takes them with \p dst as the loop.
  /// nullopt when the shapes disagree.
  static std::optional<llvm::SmallVector<unsigned>>
  copyDims(llvm::ArrayRef<int64_t> src, llvm::ArrayRef<int64_t> dst);
  mlir::FailureOr<std::string>
  fragmentIndex(const FragmentInfo &loop, const FragmentInfo &buf,
                llvm::ArrayRef<unsigned> dims, llvm::StringRef reg,
                mlir::Operation *at, llvm::ArrayRef<int64_t> bound = {},
                bool quiet = false);
  /// fragmentIndex() results of this emitter by (loop tables, buffer
  /// tables, dims); the entries keep both tables alive.
  struct FragmentIndexMemo {
    std::shared_ptr<const FragmentTables> loop, buf;
    /// Whether the buffer register is the loop register itself.
    bool identity = false;
    /// Otherwise the buffer register as a map of the loop register.
    BitLinear fit;
  };
  llvm::StringMap<FragmentIndexMemo> fragmentIndexMemo;
  /// Declares the coordinates of slot (tid, \p reg) of \p info.
  llvm::SmallVector<std::string> emitCoords(const FragmentInfo &info,
                                            llvm::StringRef reg,
                                            llvm::StringRef hint);
  // CUDAEmitterReduce.cpp
  mlir::LogicalResult emitReduce(tile::ReduceOp op);
  /// T.reduce_* of a shared (or global) source into shared memory or a
  /// whole fragment: each output element is folded by one thread.
  mlir::LogicalResult emitMemoryReduce(tile::ReduceOp op);
  /// The C++ type a reduction into \p elem computes in: the value type,
  /// or the storage type of an unsigned integer.
  mlir::FailureOr<std::string> reductionType(mlir::Type elem,
                                             mlir::Operation *op);
  mlir::LogicalResult emitCumSum(tile::CumSumOp op);
  /// T.cumsum over a fragment: scanned in the exchange area.
  mlir::LogicalResult emitFragmentCumSum(tile::CumSumOp op);
  mlir::LogicalResult emitAtomicAdd(tile::AtomicAddOp op);
  mlir::LogicalResult emitTileAtomicAdd(
      tile::AtomicAddOp op, tile::BufferType vt,
      llvm::function_ref<std::string(const std::string &, const std::string &)>
          atomicOn);
  mlir::LogicalResult emitPrint(tile::PrintOp op);
  mlir::LogicalResult emitDeviceAssert(tile::DeviceAssertOp op);
  // CUDAEmitterIntrinsic.cpp
  /// A `tile.intrinsic` (one CUDA instruction or builtin).
  mlir::LogicalResult emitIntrinsic(tile::IntrinsicOp op);
  /// `T.rng_init` / `T.rng_rand` / `T.rng_rand_float` (CUDAEmitterRandom.cpp);
  /// nullopt for other callees.
  std::optional<mlir::LogicalResult> emitRngIntrinsic(tile::IntrinsicOp op);
  /// `T.ptx_ldmatrix` (CUDAEmitterLdmatrix.cpp); nullopt for other callees.
  std::optional<mlir::LogicalResult>
  emitLdmatrixIntrinsic(tile::IntrinsicOp op);
  /// T.reducer_init / T.reducer_update / T.finalize_reducer
  /// (CUDAEmitterReducers.cpp); nullopt for other intrinsics.
  std::optional<mlir::LogicalResult> emitReducerIntrinsic(tile::IntrinsicOp op);
  /// The scratch bytes a T.finalize_reducer needs (0 for other ops).
  int64_t finalizeScratchBytes(mlir::Operation *op);
  /// Declares the thread's generator at the top of \p kernel when it draws
  /// random numbers (so a T.rng_init under a branch reaches later draws).
  void declareRngState(tile::KernelOp kernel);
  /// Whether \p op's regions draw random numbers: the thread's generator
  /// advances through them one draw after the other, so unrolling such a
  /// loop gains nothing, and ptxas takes minutes over a fully unrolled
  /// 128-slot loop of inlined Philox rounds and double-precision math.
  static bool drawsRandomNumbers(mlir::Operation *op);
  /// The thread's generator state ("" when the kernel draws none).
  std::string rngState;
  /// The curand state type the kernel's first `T.rng_init` names.
  std::string rngGenerator;
  // HIPEmitterIntrinsic.cpp
  /// The HIP spelling of \p op, or nullopt when emitIntrinsic's (CUDA's)
  /// is portable.
  std::optional<mlir::LogicalResult> emitHipIntrinsic(tile::IntrinsicOp op);
  /// Refuses, at the first of them, the allocations and intrinsics of
  /// \p kernel that need NVIDIA hardware CDNA does not have (TMA,
  /// mbarriers, clusters, wgmma, tcgen05, named barriers, cp.async groups).
  mlir::LogicalResult checkNvidiaOnlyHardware(tile::KernelOp kernel);
  /// For `if cond: break` (or continue) directly in a loop with block
  /// barriers, under a condition that may differ between threads: the
  /// statement to run when `__syncthreads_or(cond)` holds; else nothing.
  std::optional<std::string> uniformLoopExit(tile::IfOp ifOp);
  /// Bytes of the reduction scratch area \p op needs (0: warp-local).
  int64_t reduceScratchBytes(tile::ReduceOp op);
  // CUDAEmitterGemm.cpp
  mlir::LogicalResult emitGemm(tile::GemmOp op);
  // CUDAEmitterWgmma.cpp
  /// T.gemm on wgmma.mma_async (tile-plan-wgmma chose it).
  mlir::LogicalResult emitWgmma(tile::GemmOp op);
  // CUDAEmitterTcgen05.cpp
  /// Allocates the kernel's tensor memory (`tile.tmem_alloc_cols` of
  /// tile-plan-tcgen05) at its top; nothing for a kernel without.
  mlir::LogicalResult emitTmemPrologue(tile::KernelOp kernel);
  /// Frees it at the end of the kernel.
  void emitTmemEpilogue(tile::KernelOp kernel);
  /// A shared.tmem buffer: the kernel's tensor memory address plus its
  /// first column, as `name`.
  mlir::LogicalResult emitTmemAlloc(tile::AllocOp op, llvm::StringRef name);
  /// The tensor memory address (lane 0) of \p view and its [lanes,
  /// columns] shape: a whole shared.tmem tile, one stage of a [stages,
  /// lanes, columns] one (`C_tmem[w & 1, :, :]`), or a window of its
  /// columns at a constant or run-time offset (`[:, i * 64:(i + 1) * 64]`)
  /// that starts on a 32-bit column; an error at \p at for other views.
  mlir::FailureOr<std::string>
  tmemViewAddress(mlir::Value view, mlir::Operation *at,
                  llvm::SmallVectorImpl<int64_t> &shape);
  /// T.gemm on tcgen05.mma (tile-plan-tcgen05 chose it).
  mlir::LogicalResult emitTcgen05Gemm(tile::GemmOp op);
  /// The first element of shared operand \p v of a tcgen05 MMA: its
  /// buffer, or one [rows, cols] tile of it selected by the leading
  /// dimensions (a pipeline stage), where a descriptor starts.
  mlir::FailureOr<std::string> operandTileStart(mlir::Value v,
                                                mlir::Operation *op);
  /// T.tcgen05_gemm_blockscaled: tcgen05.mma .kind::mxf8f6f4.block_scale
  /// from one thread, committed to \p barrierAddress when not empty.
  mlir::LogicalResult emitBlockScaledGemm(tile::IntrinsicOp op,
                                          llvm::StringRef barrierAddress);
  /// The scale-factor path of block-scaled MMAs: \p transpose (the
  /// permutation T.tcgen05_sf_warp_transpose does, by the range's first
  /// warp) and / or \p copy (tcgen05.cp .32x128b.warpx4 into \p tmem, by
  /// its first thread) of the [rows, 4] uint8 shared tile \p shared, from
  /// column \p colOffset of \p tmem when given; \p pair: the CTA pair's
  /// copy (tcgen05.cp.cta_group::2, use_2cta=True).
  mlir::LogicalResult emitScaleFactorCopy(mlir::Operation *op,
                                          mlir::Value shared, mlir::Value tmem,
                                          bool transpose, bool copy,
                                          bool pair = false,
                                          mlir::Value colOffset = {});
  /// T.copy between tensor memory and a fragment (tcgen05.ld / st).
  mlir::LogicalResult emitTmemCopy(tile::CopyOp op);
  /// T.tcgen05_mma_arrive (committing to \p barrierAddress) and the
  /// tcgen05 fences; nullopt for other callees.
  std::optional<mlir::LogicalResult>
  emitTcgen05Intrinsic(tile::IntrinsicOp op, llvm::StringRef barrierAddress);
  /// How each shared buffer of the kernel is stored (tile::
  /// planSharedStorage; absent: row-major). linearIndex() addresses it so;
  /// the maps below are views of it for the emitters' questions.
  llvm::DenseMap<mlir::Value, tile::SharedStorage> sharedStorage;
  /// The swizzle of a shared gemm operand buffer: 16-byte chunks per row
  /// (0 when not swizzled).
  llvm::DenseMap<mlir::Value, int64_t> swizzled;
  /// HIP: the LDS swizzle of each shared MFMA operand tile (planLdsSwizzles;
  /// such a tile is also in `swizzled`, which this overrides).
  llvm::DenseMap<mlir::Value, layout::XorSwizzle> ldsSwizzle;
  /// The value \p v of the lane that differs from this one in lane bit
  /// \p bit, in a butterfly reduction over the lane bits \p reduced (done
  /// in increasing order): a shuffle, or on HIP DPP moves within a row of 16
  /// lanes (tlc::hip::dppXor; HIPEmitterIntrinsic.cpp).
  std::string laneXor(const std::string &v, unsigned bit, int64_t reduced);
  // HIPEmitterCopy.cpp
  /// The condition of such a store: \p a's bounds and, unless the index
  /// ranges prove it, its column a multiple of \p vec.
  std::string permutedRunsCondition(const VectorAccess &a, int64_t vec);
  /// The statement storing the vector \p value at \p dst so.
  std::string storePermutedRuns(const VectorAccess &dst, int64_t vecBytes,
                                int64_t runBytes, const std::string &value);
  // HIPEmitterParallelStore.cpp
  /// The stores of T.Parallel \p op (partitioned by \p loop, loop variable
  /// v on its dimension \p varDim[v], over the leading box \p bound when
  /// not empty) that go out as one vector of \p width consecutive
  /// registers each (HIP's ds_write_b64 / _b128): tile-plan-parallel-
  /// vectors' plan, or for IR that did not go through it the same choice
  /// (VectorPlan.h's chooseParallelVectors). Nothing when the loop stores
  /// element by element; an error (failure) on a plan this printer cannot
  /// follow.
  mlir::FailureOr<llvm::SmallVector<tile::StoreOp>>
  parallelVectorStores(tile::ParallelOp op, const FragmentInfo *loop,
                       llvm::ArrayRef<unsigned> varDim,
                       llvm::ArrayRef<int64_t> bound, int64_t &width);
  /// The vector access of such a store of \p width elements at the loop
  /// coordinates \p idx (its proven-aligned, in-bounds form).
  mlir::FailureOr<VectorAccess>
  ldsVectorStoreAccess(tile::StoreOp store, const FragmentInfo &loop,
                       llvm::ArrayRef<unsigned> varDim,
                       llvm::ArrayRef<std::string> idx, int64_t width);
  /// Stores of a vectorised T.Parallel -> the register slot of the vector
  /// they write instead of memory (the vector is stored after the group).
  llvm::DenseMap<mlir::Operation *, std::string> vectorSlot;
  /// HIP: the byte size of the raw buffer resource over the global tensor
  /// \p root (dense row-major, no `tile.strides`): `bytes` its expression,
  /// and for a symbolic shape `fits` the wavefront-uniform test that it
  /// lies under 2 GiB (so its offsets and 0x80000000, past every one, fit
  /// the resource's 32-bit fields); empty for a static tensor, which is
  /// refused at 2 GiB instead. std::nullopt when no resource covers it.
  struct BufferResourceSize {
    std::string bytes, fits;
  };
  std::optional<BufferResourceSize> bufferResourceSize(mlir::Value root,
                                                       mlir::Operation *at);
  /// A divisor of the innermost offset of view \p view in its root (the
  /// sum over its chain of regions; 0 when it is always 0), from ranges,
  /// constants and + - * of them (1 when nothing is known).
  int64_t innerOffsetDivisor(mlir::Value view);
  /// Byte offset of the reduction scratch area in shared memory.
  int64_t scratchOffset = -1;
  /// Fragment loads/stores inside T.Parallel -> register expression.
  llvm::DenseMap<mlir::Operation *, std::string> fragmentAccess;
  /// Fragment stores inside T.Parallel that write the exchange tile in
  /// shared memory (at the loop's coordinates), not a register.
  llvm::DenseSet<mlir::Operation *> exchangeStores;
  /// Exchange stores of a replicated T.Parallel whose element the
  /// iteration read into registers first (replicaCopies) -> that register,
  /// which the store updates too and later loads read.
  llvm::DenseMap<mlir::Operation *, std::string> replicaCopy;
  /// Fragment loads and stores inside T.Parallel at indices that are not
  /// the loop variables -> the exchange tile they access (row-major, the
  /// fragment's shape), indexed where the access is printed.
  llvm::DenseMap<mlir::Operation *, std::pair<std::string, mlir::Value>>
      exchangeReads;
  /// The row-major index of \p indices (printed values) in \p shape.
  std::string rowMajorIndex(mlir::ValueRange indices,
                            llvm::ArrayRef<int64_t> shape);
  // CUDAEmitterTma.cpp
  // CUDAEmitterCluster.cpp
  /// The `__cluster_dims__(x, y, z) ` attribute of \p kernel (empty for a
  /// cluster of one block), its dims recorded in \p launch; failure, with
  /// an error at the kernel, where the target has no clusters or the
  /// cluster is too large.
  mlir::FailureOr<std::string> planCluster(tile::KernelOp kernel,
                                           CudaLaunch &launch);
  /// T.block_rank_in_cluster and the cluster barrier (arrive, relaxed
  /// arrive, wait, sync); nullopt for other callees.
  std::optional<mlir::LogicalResult> emitClusterIntrinsic(tile::IntrinsicOp op);
  /// T.copy_cluster in the form tile-lower-copy-cluster chose.
  mlir::LogicalResult emitCopyCluster(tile::IntrinsicOp op);
  /// The block indices of a clustered GEMM that is not persistent: the
  /// program's rasterisation (\p raster, or none) over the grid of
  /// clusters, the rank's tile within its pair along gemmClusterAxis.
  void emitGemmClusterBlockIndices(tile::KernelOp kernel,
                                   tile::UseSwizzleOp raster);
  /// The stage release of a clustered GEMM's consumers (both blocks'
  /// producers fill the stage: a warp's arrival here and on the peer's
  /// empty barrier) or of any other warp-specialised loop (each thread's
  /// arrival), for the empty barrier \p bar (a C++ address expression).
  std::string wsReleaseStage(const std::string &bar) const;
  /// A persistent kernel's block among those that walk the tiles (the
  /// pair of a clustered GEMM), their count, as C++ expressions.
  std::string persistentBlock() const;
  std::string persistentBlocks() const;
  /// tile.clc_try_cancel (clusterlaunchcontrol.try_cancel, sm_100a); an
  /// error naming sm_100a on the other targets.
  mlir::LogicalResult emitClcTryCancel(tile::ClcTryCancelOp op);
  /// tile.clc_query (clusterlaunchcontrol.query_cancel, sm_100a).
  mlir::LogicalResult emitClcQuery(tile::ClcQueryOp op);
  /// Collects the TMA copies of \p kernel (tile-plan-tma): fills
  /// tensorMapNames and appends the parameter declarations to \p params
  /// and their descriptions to \p maps.
  mlir::LogicalResult planTensorMaps(tile::KernelOp kernel, std::string &params,
                                     std::vector<CudaTensorMap> &maps);
  /// Issues the TMA copy \p op (tile.tma) into the stage at \p dst,
  /// completing on the mbarrier \p bar: one box per swizzle panel.
  mlir::LogicalResult emitTmaCopy(tile::CopyOp op, const std::string &dst,
                                  const std::string &bar);
  /// Bytes the TMA copy \p op moves (its box bytes).
  int64_t tmaCopyBytes(tile::CopyOp op);
  /// The fragment -> global copy \p op that tile-plan-tma made a TMA store
  /// (tile.tma_store): the fragment into 128-byte swizzled panels at
  /// tile.tma_store_offset, then one box store per panel by thread 0.
  /// False, with nothing emitted, when the fragment's layout does not fit.
  mlir::FailureOr<bool> emitTmaStore(tile::CopyOp op, const FragmentInfo &frag);
  /// emitTmaStore of a persistent GEMM's epilogue in column bands
  /// (tile-gemm-epilogue-bands' `tile.epilogue_bands` with a map): each
  /// band staged into one of `tile.epilogue_band_buffers` band buffers at
  /// \p area and stored panel by panel by thread 0 as one bulk group, the
  /// buffer reused only after the copy engine read it.
  mlir::FailureOr<bool> emitBandedTmaStore(tile::CopyOp op,
                                           const FragmentInfo &frag,
                                           llvm::ArrayRef<unsigned> fragDims,
                                           int64_t bands, int64_t area);
  /// A 1-D shared tile stored to global memory by cp.async.bulk (tile-plan-
  /// tma's `tile.bulk_store`); false when this copy must take the threads'
  /// path (under a thread range, a permuted shared storage).
  mlir::FailureOr<bool> emitBulkStore(tile::CopyOp op);
  /// A 1-D global run loaded into a whole 1-D shared tile by cp.async.bulk
  /// completing on the mbarrier at `tile.bulk_load` (tile-plan-tma); the
  /// threads load the tail and zero what lies outside the tensor. False
  /// when this copy must take the threads' path.
  mlir::FailureOr<bool> emitBulkLoad(tile::CopyOp op);
  /// tile-plan-tma's one-shot TMA loads of \p kernel's body (tile.tma_once:
  /// attention's Q), in program order.
  llvm::SmallVector<tile::CopyOp> oneShotTmaLoads(tile::KernelOp kernel);
  /// The mbarrier of the one-shot TMA load \p op, as a `uint64_t *`.
  std::string oneShotBarrier(tile::CopyOp op);
  /// Expects the bytes of the one-shot TMA load \p op on \p bar and
  /// issues its boxes (one thread).
  mlir::LogicalResult issueOneShotTmaLoad(tile::CopyOp op,
                                          const std::string &bar);
  /// A one-shot TMA load at its place in the program: the consumers' wait
  /// in a warp-specialised kernel (the producer issued it); else thread 0
  /// initialises the mbarrier and issues it, and every thread waits.
  mlir::LogicalResult emitTmaOnce(tile::CopyOp op);
  /// Reads the plan of tile-plan-pipelines for \p kernel (fills the maps
  /// above).
  void readPipelinePlan(tile::KernelOp kernel);
  /// A pipelined loop: prologue, cp.async prefetch, wait, compute.
  mlir::LogicalResult emitPipelined(tile::PipelinedOp pipe);
  /// The body of a warp-specialised kernel: the rings initialised, then
  /// the producer warpgroup's TMA loop and the consumers' body as the two
  /// branches of one if / else.
  mlir::LogicalResult emitWarpSpecializedBody(tile::KernelOp kernel);
  /// The consumers' side of the warp-specialised loop \p pipe.
  mlir::LogicalResult emitWsConsumerLoop(tile::PipelinedOp pipe);
  /// The same for a loop whose softmax overlaps the previous iteration's
  /// P V gemm (tile-warp-specialize's tile.ws_overlap;
  /// CUDAEmitterWsOverlap.cpp).
  mlir::LogicalResult emitWsOverlapLoop(tile::PipelinedOp pipe);
  /// The split-mask branch of \p pipe's body the loop printer splits the
  /// loop at (tile.split_mask_loop), or null.
  tile::IfOp splitMaskOf(tile::PipelinedOp pipe);

  // CUDAEmitterPersistent.cpp
  /// Opens the tile loop of the persistent \p kernel (one iteration per
  /// output tile: blockIdx.x, blockIdx.x + gridDim.x, ...) and defines its
  /// block indices from the tile in the planned rasterisation; the caller
  /// closes it. With \p first and \p step (C++ expressions, in units of
  /// gridDim.x) the loop visits the block's tiles first, first + step, ...
  /// of that order; it returns the name of the tile variable.
  std::string openPersistentTileLoop(tile::KernelOp kernel,
                                     llvm::StringRef first = "0",
                                     int64_t step = 1);
  /// The condition "this thread is in consumer warpgroup 0" (\p first) or
  /// "... not in it" of a warp-specialised kernel of two consumer
  /// warpgroups: on wsWarpGroup where it is known, else on tid.
  std::string consumerWarpGroupIs(bool first) const {
    if (!wsWarpGroup.empty())
      return wsWarpGroup + (first ? " == 0" : " != 0");
    return first ? "tid < 128" : "tid >= 128";
  }
  /// `namedBarrierSync` (or `namedBarrierArrive` when \p arrive) of barrier
  /// `base + group` over \p count threads, where group is the consumer
  /// warpgroup's index: immediate ids in a warp-uniform branch.
  std::string perGroupBarrier(int64_t base, int64_t count, bool arrive,
                              bool otherGroup = false) const;
  /// The byte offset (a C++ expression) of the epilogue area at \p offset
  /// for the consumer warpgroup being printed: offset + group * the
  /// epilogue \p op's tile.epilogue_area_stride under ping-pong.
  std::string epilogueAreaOffset(mlir::Operation *op, int64_t offset) const;

  /// Threads that partition the tile operations being emitted: the
  /// block's, or under a thread range (`T.ws`, `if tx < c`) the range's.
  int64_t numThreads = 0;
  /// Threads per block of the kernel being emitted.
  int64_t blockThreads = 0;
  // CUDAEmitterThreadRange.cpp
  /// The thread range being emitted ([0, blockThreads) outside every
  /// condition on the thread index). Inside a range `tid` is the thread's
  /// index in it (threadIdx.x - lo) and numThreads its size.
  tile::ThreadRange range;
  /// The range a fragment is laid out for and may be used in (the range
  /// of its tile operations; fills run anywhere).
  llvm::DenseMap<mlir::Value, tile::ThreadRange> fragmentRanges;
  /// Named barrier ids of the ranges that synchronise on their own
  /// (tile-plan-thread-ranges' tile.range_barriers).
  llvm::SmallVector<std::pair<tile::ThreadRange, int64_t>, 4> rangeBarrierIds;
  /// The thread range that runs \p op (the whole block when \p op is not
  /// under a condition on the thread index); failure, with a diagnostic on
  /// \p op, when the condition is not a warp-aligned range.
  mlir::FailureOr<tile::ThreadRange> rangeOfOp(mlir::Operation *op);
  /// The number of threads that partition \p op (its range's size; the
  /// block's where its range cannot be used, which rangeOfOp reports).
  int64_t threadsFor(mlir::Operation *op);
  /// The statement that synchronises the threads of the current range: a
  /// `__syncthreads()` for the whole block, else a named barrier.
  std::string blockBarrier();
  /// The range the branch \p region of \p ifOp runs on when it is a
  /// proper, warp-aligned part of the current range; else nothing.
  std::optional<tile::ThreadRange> branchRange(tile::IfOp ifOp,
                                               mlir::Region &region);
  /// Emits \p block as the code of thread range \p r.
  mlir::LogicalResult emitRangeBlock(mlir::Block &block, tile::ThreadRange r);
  /// Refuses reductions and fragment exchanges of different ranges, which
  /// would share one scratch area at the same time. After the areas are
  /// planned.
  mlir::LogicalResult checkAreaRanges(tile::KernelOp kernel);
  /// Checks that the fragments \p op uses are laid out for the current
  /// range (diagnostic on \p op otherwise).
  mlir::LogicalResult checkFragmentRanges(mlir::Operation *op);
  /// Plans the ranges of \p kernel: fragment home ranges; reads (and
  /// checks) tile-plan-thread-ranges' barrier ids. Before
  /// assignFragmentLayouts.
  mlir::LogicalResult planThreadRanges(tile::KernelOp kernel);
  // CUDAEmitterMbarrier.cpp
  /// Places the kernel's mbarriers after \p sharedBytes; the new size.
  mlir::FailureOr<int64_t> planMbarriers(tile::KernelOp kernel,
                                         int64_t sharedBytes);
  /// Initialises the barriers of a T.alloc_barrier at its place.
  mlir::LogicalResult emitBarrierAlloc(tile::AllocOp op);
  /// The mbarrier, warpgroup and register-count intrinsics; std::nullopt
  /// when \p op is none of them.
  std::optional<mlir::LogicalResult>
  emitMbarrierIntrinsic(tile::IntrinsicOp op);
  // CUDAEmitterWgmmaRaw.cpp
  /// T.initialize_wgmma_descriptor and T.ptx_wgmma_ss; std::nullopt when
  /// \p op is neither.
  std::optional<mlir::LogicalResult>
  emitRawWgmmaIntrinsic(tile::IntrinsicOp op);
  /// Fragments of the kernel being emitted.
  llvm::DenseMap<mlir::Value, FragmentInfo> fragments;
  /// The layouts the program gave T.Parallel loops that touch no fragment
  /// (ParallelPartition::Layout), as loopLayout() returns them.
  llvm::DenseMap<mlir::Operation *, FragmentInfo> givenLoopLayouts;
  /// Inside a T.Parallel: the register variable.
  std::string parallelReg;
  /// Inside a T.Parallel whose layout is replicated (each iteration run by
  /// every replica of its element): the condition that selects replica 0,
  /// the only one that stores to memory (shared, global, the exchange
  /// tile) or adds atomically; "" otherwise. Register stores are made by
  /// every replica, which each keep their copy.
  std::string replicaGuard;
  /// With `replicaGuard`: the body of that T.Parallel, and the exchange
  /// tile elements it stored straight in that body -> the variable holding
  /// the value stored, which later loads in the iteration read (the other
  /// replicas did not store it).
  mlir::Block *replicaBody = nullptr;
  llvm::StringMap<std::string> exchangeForward;
  /// \p statement (a store to memory) under `replicaGuard` and \p cond
  /// (either may be empty).
  std::string guardedStatement(llvm::StringRef cond,
                               llvm::StringRef statement) const;
  /// True while emitting a block that every thread of the block runs
  /// together (the kernel body, loops and branches on block-uniform
  /// conditions): only there may a `__syncthreads()` be placed.
  bool barriersAllowed = false;
  /// Emitting the else branch of `tx < c and u` with u block-uniform:
  /// branches nested in it may still be thread ranges (emitIf).
  bool rangesInUniformConjunctElse = false;
  /// The body of the T.Parallel being emitted when every thread of the
  /// block runs it for each of its register slots, with no thread or box
  /// test around it (a loop emitted where barriers are allowed): a block
  /// or grid barrier straight in it is reached by every thread, once per
  /// slot, as TileLang runs one in a partitioned loop. Null otherwise.
  mlir::Block *uniformParallelBody = nullptr;
  /// One statement of a block (emitBlock's step): \p op with the lines
  /// planned before and after it, nothing for a skipped op.
  mlir::LogicalResult emitStatement(mlir::Operation *op);
  /// Fails, with an error at the use, when a value computed in one stretch
  /// of \p op's body between \p barriers is used in another (each stretch
  /// is a C++ scope of its own).
  mlir::LogicalResult
  checkStretches(tile::ParallelOp op,
                 llvm::ArrayRef<mlir::Operation *> barriers);
  /// True when a barrier op straight in the block being emitted is reached
  /// by every thread of the block: where barriers are allowed, or (a grid
  /// barrier or raw TIR's T.tvm_storage_sync, which the CPU target runs
  /// the same way) straight in a uniform T.Parallel body
  /// (uniformParallelBody).
  bool blockReachesBarrier(tile::IntrinsicOp op) const {
    if (barriersAllowed && parallelReg.empty())
      return true;
    return uniformParallelBody && op->getBlock() == uniformParallelBody &&
           (op.getCallee() == "T.sync_grid" ||
            op.getCallee() == "T.tvm_storage_sync");
  }
  /// Names of values.
  llvm::DenseMap<mlir::Value, std::string> names;
  /// What the language and instruction set spell (CUDA or HIP).
  const GPULanguage &lang;
  /// `lang.helpers`: the namespace of the device helpers, with `::`.
  std::string ns;
  // HIPEmitterGemm.cpp
  /// T.gemm on MFMA (HIP): per wavefront 16x16 tiles of C, K in steps of
  /// 16, operands read from LDS or register fragments lane by lane.
  mlir::LogicalResult emitMfmaGemm(tile::GemmOp op);
  /// T.tvm_mfma: one MFMA step on a lane's local registers, through the
  /// device helper T.gemm uses for the same element type.
  mlir::LogicalResult emitTvmMfma(tile::IntrinsicOp op);

private:
  tile::FuncOp func;
  CudaEmitOptions options;
  std::string out;
  unsigned lineCount = 0;
  unsigned indent = 0;
  mlir::Location currentLoc;
  llvm::StringSet<> usedNames;
  llvm::StringMap<std::string> symbolNames;
  llvm::StringMap<unsigned> fileIndex;
  /// Where each shared allocation lives in the dynamic shared memory and
  /// how many bytes it takes there (all its stages).
  struct SharedSlot {
    int64_t offset = 0, bytes = 0;
  };
  llvm::DenseMap<mlir::Value, SharedSlot> sharedSlots;
  /// Shared buffers of symbolic shape (tile.dynamic_shared): their byte
  /// offsets as C++ expressions of the kernel's symbols, placed after
  /// every static byte of the kernel.
  llvm::DenseMap<mlir::Value, std::string> runtimeSharedOffsets;
  /// Places the kernel's shared buffers of symbolic shape after
  /// `sharedBytes`; the total bytes as a manifest expression of the
  /// symbols (ShapeExpr), or "" when there are none.
  mlir::FailureOr<std::string> planRuntimeSharedBuffers(tile::KernelOp kernel);
  /// A T.copy whose extents are expressions of the symbols (no fragment).
  mlir::LogicalResult emitRuntimeShapeCopy(tile::CopyOp op);
  /// The intervals of the function's index values (tile::IndexIntervals).
  tile::IndexIntervals intervals;
  int64_t sharedBytes = 0;
  CudaKernel result;
};

/// The register-index map of fragment \p f that holds, for every thread
/// \p tid < \p threads and point p of the box \p extents, the element
/// coordOf(tid, p) (a gemm instruction's operand or accumulator value),
/// fitted linear in the bits; failure with a diagnostic on \p at naming
/// the \p what fragment and the instruction \p instr when there is none.
mlir::FailureOr<BitLinear> fitGemmRegisters(
    const FragmentInfo &f, llvm::ArrayRef<int64_t> extents, int64_t threads,
    llvm::function_ref<llvm::SmallVector<int64_t>(int64_t tid,
                                                  llvm::ArrayRef<int64_t>)>
        coordOf,
    mlir::Operation *at, llvm::StringRef what,
    llvm::StringRef instr = "mma.sync");

/// Whether tile-plan-wgmma chose wgmma.mma_async for \p op.
bool isWgmmaGemm(tile::GemmOp op);
/// Whether tile-plan-tcgen05 chose tcgen05.mma for \p op.
bool isTcgen05Gemm(tile::GemmOp op);
/// The first operand of \p op passed for parameter \p param, or null.
mlir::Value argOf(tile::IntrinsicOp op, llvm::StringRef param);

/// The file location inside \p loc (through names, call sites, fusions).
mlir::FileLineColRange getFileLoc(mlir::Location loc);

/// Whether \p t is fp4 e2m1 (`float4_e2m1fn`), stored two a byte in memory.
inline bool isE2M1(mlir::Type t) {
  return mlir::isa<mlir::Float4E2M1FNType>(t);
}
using tile::isPackedNibble;

/// The C++ index expressions of flat element \p flat over \p shape
/// (row-major), declared as variables named after \p hint.
llvm::SmallVector<std::string> unflatten(Emitter &e, llvm::StringRef flat,
                                         llvm::ArrayRef<std::string> shape,
                                         llvm::StringRef hint);

} // namespace tlc::target::cuda_detail

#endif // TLC_LIB_TARGET_CUDA_EMITTERIMPL_H
