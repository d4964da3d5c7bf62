//===- EmitterImpl.h - Internals of the CPU C++ emitter ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The emitter state shared by CppEmitter.cpp (functions, kernels, control
// flow, scalar arithmetic) and CppEmitterTileOps.cpp (copy, fill, gemm,
// reductions, scans, atomics, printing). Not thread-safe; one per function.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CPP_EMITTERIMPL_H
#define TLC_LIB_TARGET_CPP_EMITTERIMPL_H

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Target/Cpp/CppEmitter.h"
#include "tlc/Target/Cpp/LazySelect.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc::target::detail {

/// A copy of \p func, in a module of its own, with the barriers the GPU
/// lowering places between shared-memory accesses (tile-insert-barriers'
/// `tile.barrier` ops), when the CPU target runs its kernels thread by
/// thread, and with T.im2col lowered to its element loop
/// (tile-lower-im2col); a null module when it emits \p func as written
/// (CppEmitterBarriers.cpp).
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
withSharedMemoryBarriers(tile::FuncOp func);

/// How an access to a buffer is protected.
enum class Guard {
  /// Global memory: out-of-range reads give zero, writes are dropped.
  Global,
  /// On-chip memory: out of range is a reported program error.
  Checked,
  /// No check (indices known to be in range).
  None,
};

/// Emits one tile.func as C++ (see CppEmitter.h for the execution model).
class Emitter {
public:
  Emitter(tile::FuncOp func, const CppEmitOptions &options);

  /// Emits the whole translation unit body for the function (no #include).
  mlir::LogicalResult emitFunction();

  /// The result.
  CppKernel takeResult();

  //===--------------------------------------------------------------------===//
  // Output
  //===--------------------------------------------------------------------===//

  /// Writes one line at the current indentation, mapped to the current op.
  void line(const llvm::Twine &text);
  /// Writes `text {` and indents.
  void open(const llvm::Twine &text);
  /// Dedents and writes `}` followed by \p suffix.
  void close(llvm::StringRef suffix = "");
  /// A `// T.op  file:line:col` comment when enabled.
  void comment(mlir::Operation *op, llvm::StringRef what);

  //===--------------------------------------------------------------------===//
  // Names, types and expressions
  //===--------------------------------------------------------------------===//

  /// A fresh C++ identifier based on \p hint.
  std::string fresh(llvm::StringRef hint);
  /// Names \p v after its NameLoc (or \p hint) and records the name.
  std::string define(mlir::Value v, llvm::StringRef hint = "v");
  /// The C++ expression of an already emitted value.
  std::string expr(mlir::Value v);
  /// `expr(v)` converted to float/double when \p v is a small float.
  std::string arith(mlir::Value v);

  /// The C++ type of values of \p t (index, integers, floats, small floats);
  /// failure with a diagnostic at \p at for unsupported types.
  mlir::FailureOr<std::string> valueType(mlir::Type t, mlir::Operation *at);
  /// The C++ storage type of buffer elements of type \p t (unsigned
  /// integers keep their unsignedness).
  mlir::FailureOr<std::string> storageType(mlir::Type t, mlir::Operation *at);
  /// `tlc::cpu::View<T, R>` for a buffer type.
  mlir::FailureOr<std::string> viewType(tile::BufferType t, mlir::Operation *at);
  /// C++ expression of extent \p d of \p t.
  mlir::FailureOr<std::string> extent(tile::BufferType t, unsigned d,
                                      mlir::Operation *at);
  /// C++ expression of the symbolic extent or stride \p text (an
  /// expression of the kernel's symbols); \p what names it in the error.
  mlir::FailureOr<std::string> symbolicExpr(llvm::StringRef text,
                                            mlir::Operation *at,
                                            llvm::StringRef what);
  /// For an operator along dimension \p dim of \p t (reductions, cumsum):
  /// the extents of the other dimensions, in order, into \p outer; returns
  /// the extent of \p dim.
  mlir::FailureOr<std::string> splitExtents(tile::BufferType t, unsigned dim,
                                            mlir::Operation *at,
                                            std::vector<std::string> &outer);
  /// The extents of \p t as a braced list `{a, b}`.
  mlir::FailureOr<std::string> extentList(tile::BufferType t,
                                          mlir::Operation *at);
  /// The C++ expression of a static or dynamic OpFoldResult.
  std::string foldResult(mlir::OpFoldResult r);
  /// The guard of accesses to \p buffer.
  static Guard guardOf(mlir::Value buffer);
  /// `"file:line:col"` (a C++ string literal) for \p loc.
  std::string locLiteral(mlir::Location loc);

  /// An expression reading \p view (of buffer type \p type) at \p indices
  /// (C++ index expressions), converted to the buffer's value type.
  std::string loadExpr(mlir::Value buffer, llvm::ArrayRef<std::string> indices,
                       mlir::Operation *at, Guard guard);
  /// A statement writing \p valueExpr (already of the storage type) into
  /// \p buffer at \p indices.
  std::string storeStmt(mlir::Value buffer, llvm::ArrayRef<std::string> indices,
                        llvm::StringRef valueExpr, mlir::Operation *at,
                        Guard guard);

  /// Loop nest over \p extents with fresh variables; returns their names.
  /// The caller closes one `}` per extent.
  std::vector<std::string> openLoops(llvm::ArrayRef<std::string> extents,
                                     llvm::StringRef hint);
  /// Closes \p n loops.
  void closeLoops(size_t n);

  //===--------------------------------------------------------------------===//
  // Ops
  //===--------------------------------------------------------------------===//

  mlir::LogicalResult emitBlock(mlir::Block &block);
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult emitKernel(tile::KernelOp op);
  mlir::LogicalResult emitAlloc(tile::AllocOp op);
  mlir::LogicalResult emitScalar(mlir::Operation *op);
  /// An arith.select with deferred operand ops (tlc/Target/Cpp/LazySelect.h:
  /// T.if_then_else evaluates only the operand it picks).
  mlir::LogicalResult emitLazySelect(mlir::Operation *select);
  /// tile.intrinsic: the primitives that are no-ops on the CPU (GPU
  /// scheduling hints and completion waits); an error naming the callee for
  /// the others.
  mlir::LogicalResult emitIntrinsic(tile::IntrinsicOp op);
  /// `T.rng_init` / `T.rng_rand` / `T.rng_rand_float` (CppEmitterRandom.cpp);
  /// nullopt for other callees.
  std::optional<mlir::LogicalResult> emitRngIntrinsic(tile::IntrinsicOp op);
  /// T.reducer_init / T.reducer_update / T.finalize_reducer
  /// (CppEmitterReducers.cpp); nullopt for other intrinsics.
  std::optional<mlir::LogicalResult>
  emitReducerIntrinsic(tile::IntrinsicOp op);
  /// Declares the per-thread generators of \p kernel when it draws random
  /// numbers (\p count: the threads that have one).
  void declareRngStates(tile::KernelOp kernel, const std::string &count);

  // CppEmitterFastPath.cpp
  /// C++ expressions of the least and the greatest value of an index.
  struct IndexRange {
    std::string min, max;
  };
  /// The range of \p v over every iteration of \p loop (of extents
  /// \p extents), when \p v is built from its loop variables, constants and
  /// values defined outside it by +, -, *, max, min, and division or
  /// remainder by a positive constant; nullopt otherwise.
  std::optional<IndexRange> indexRange(mlir::Value v, tile::ParallelOp loop,
                                       llvm::ArrayRef<std::string> extents,
                                       unsigned depth);
  /// The conditions (C++, all to hold) under which the accesses of
  /// \p loop's body that it puts into \p fast are all in range of their
  /// buffers; empty when there is none.
  std::vector<std::string>
  parallelFastCheck(tile::ParallelOp loop, llvm::ArrayRef<std::string> extents,
                    llvm::DenseSet<mlir::Operation *> &fast);
  /// T.Parallel: the loops, preceded by a version without the checks that
  /// parallelFastCheck proves cannot fail.
  mlir::LogicalResult emitParallel(tile::ParallelOp op);
  /// Finds the T.alloc_local / T.alloc_var buffers of \p kernel that loops
  /// dealt out by a fragment store into, and gives them one copy per
  /// thread with those loops run on their owning threads; warns where it
  /// cannot (CppEmitterPrivateLocals.cpp).
  void planPrivateLocals(tile::KernelOp kernel);
  /// A loop planPrivateLocals chose: its iterations from \p table
  /// ((flat iteration, thread) pairs, each thread's in register order).
  mlir::LogicalResult
  emitPrivateParallel(tile::ParallelOp op,
                      llvm::ArrayRef<std::pair<int64_t, int64_t>> table);
  /// The guard of \p access (a load or store of \p buffer): none when a
  /// fast path proved it in range, else guardOf(buffer).
  Guard guardOfAccess(mlir::Operation *access, mlir::Value buffer) const {
    return unguarded.contains(access) ? Guard::None : guardOf(buffer);
  }

  // CppEmitterTileOps.cpp
  mlir::LogicalResult emitCopy(tile::CopyOp op);
  mlir::LogicalResult emitFill(mlir::Operation *op, mlir::Value dst,
                               std::string valueExpr);
  mlir::LogicalResult emitGemm(tile::GemmOp op);
  /// T.tcgen05_sf_warp_transpose, T.tcgen05_cp_warpx4 and
  /// T.tcgen05_gemm_blockscaled (tlc::cpu::gemmBlockScaled), or nothing
  /// for other intrinsics.
  std::optional<mlir::LogicalResult>
  emitBlockScaledIntrinsic(tile::IntrinsicOp op);
  mlir::LogicalResult emitReduce(tile::ReduceOp op);
  mlir::LogicalResult emitCumSum(tile::CumSumOp op);
  mlir::LogicalResult emitAtomicAdd(tile::AtomicAddOp op);
  mlir::LogicalResult emitPrint(tile::PrintOp op);
  /// Emits loops that pair the elements of \p a and \p b the way T.copy
  /// does (shapes equal once unit dimensions are dropped); \p body gets the
  /// index lists of a and b.
  /// Emits the innermost dimension of paired loops at once: gets the index
  /// lists (0 in that dimension), the dimension of a and of b, and its
  /// extent.
  using RowBody = llvm::function_ref<void(llvm::ArrayRef<std::string>,
                                          llvm::ArrayRef<std::string>, unsigned,
                                          unsigned, llvm::StringRef)>;
  /// With \p withFastPath, a first version of the loops runs when both
  /// views hold every index visited (see emitWithFastPath); in it,
  /// \p rowBody (when given) replaces the innermost loop.
  mlir::LogicalResult
  emitPairedLoops(mlir::Operation *op, mlir::Value a, mlir::Value b,
                  llvm::function_ref<void(llvm::ArrayRef<std::string>,
                                          llvm::ArrayRef<std::string>)>
                      body,
                  bool withFastPath = false, RowBody rowBody = nullptr);
  /// `tlc::cpu::covers(V, {box}) && ...` for each (view, box of extents).
  std::string coversCheck(
      llvm::ArrayRef<std::pair<mlir::Value, std::vector<std::string>>> boxes);
  /// Emits `if (check) { loops } else { loops }`, the first with
  /// fastGuard() giving Guard::None (\p check proves every access of
  /// \p loops in range); just the loops when \p check is empty.
  void emitWithFastPath(llvm::StringRef check,
                        llvm::function_ref<void()> loops);
  /// Guard::None inside the fast version of emitWithFastPath, else
  /// guardOf(buffer).
  Guard fastGuard(mlir::Value buffer) const {
    return fastVersion ? Guard::None : guardOf(buffer);
  }

  // CppEmitterThreads.cpp: kernels with per-thread code.
  /// Whether \p kernel reads its thread index (T.get_thread_binding, lane
  /// and warp indices, warp shuffles and votes, block votes): its blocks
  /// then run thread by thread, one loop over the threads per run of
  /// per-thread statements between barriers and warp operations.
  static bool hasPerThreadCode(tile::KernelOp kernel);
  /// The body of such a kernel.
  mlir::LogicalResult emitThreadedBody(tile::KernelOp op);
  /// The ops of \p block at the level of the whole block: runs of
  /// per-thread ops become thread loops, the others are emitted once.
  mlir::LogicalResult emitThreadedBlock(mlir::Block &block);
  /// One loop over the threads for \p run; values used after it go to
  /// Lanes arrays.
  mlir::LogicalResult emitThreadRun(llvm::ArrayRef<mlir::Operation *> run);
  /// An op that runs once for the block: a barrier, a warp or block vote, a
  /// tile operation, or control flow around one.
  mlir::LogicalResult emitBlockLevel(mlir::Operation *op);
  /// A warp shuffle, vote or reduction, computed for every thread from the
  /// other lanes' values.
  mlir::LogicalResult emitWarpIntrinsic(tile::IntrinsicOp op);
  /// T.syncthreads_count/and/or.
  mlir::LogicalResult emitBlockVote(tile::IntrinsicOp op);
  /// T.ptx_ldmatrix: each warp's ldmatrix from its lanes' addresses
  /// (CppEmitterLdmatrix.cpp).
  mlir::LogicalResult emitLdmatrix(tile::IntrinsicOp op);
  /// T.ds_read_tr16_b64 / T.ds_read_tr8_b64 (CppEmitterReadTransposed.cpp).
  mlir::LogicalResult emitReadTransposed(tile::IntrinsicOp op);
  /// A tile operation in a threaded kernel, once for the threads that
  /// reach it.
  mlir::LogicalResult emitThreadedTileOp(mlir::Operation *op);
  /// Intrinsics with a per-thread value (lane, warp, elected thread);
  /// nullopt for other callees.
  std::optional<mlir::LogicalResult> emitThreadIntrinsic(tile::IntrinsicOp op);
  /// `T.loop_break` / `T.loop_continue` as C++ break/continue of the
  /// innermost serial loop; nullopt for other callees.
  std::optional<mlir::LogicalResult> emitLoopExit(tile::IntrinsicOp op);
  /// True when \p v is the same in every thread and computed once for the
  /// block (constants, block indices, loops run for the block, pure
  /// arithmetic on those).
  bool isBlockValue(mlir::Value v);
  /// The C++ expression of \p v in thread \p thread (a Lanes element or a
  /// block value).
  std::string laneValue(mlir::Value v, llvm::StringRef thread);
  /// The C++ type of \p v kept in a Lanes array: its scalar type, or the
  /// View type of a buffer value.
  mlir::FailureOr<std::string> laneType(mlir::Value v, mlir::Operation *at);
  /// \p v as one value for the block (checked to agree between the active
  /// threads when it is per-thread).
  mlir::FailureOr<std::string> blockScalar(mlir::Value v, mlir::Operation *at,
                                           llvm::StringRef what);

  // CppEmitterFibers.cpp: threads that wait for each other.
  /// Whether \p kernel waits on mbarriers or arrives at named barriers
  /// (T.named_barrier_arrive): its branches on the thread index that hold
  /// waits or arrivals then run as fibers (tlc::cpu::Fibers).
  static bool needsFibers(tile::KernelOp kernel);
  /// Whether \p op waits for other threads in such a kernel (an mbarrier
  /// wait, a named barrier).
  static bool isBlockingOp(mlir::Operation *op);
  /// Whether \p op is T.named_barrier_arrive.
  static bool isNamedBarrierArriveOp(mlir::Operation *op);
  /// Whether \p op is a branch on the thread index holding waits or
  /// named-barrier arrivals, whose branches run as fibers.
  bool isFiberBranch(mlir::Operation *op);
  /// Starts the branches of \p op as fibers of the pending group (opened
  /// here when none is).
  mlir::LogicalResult emitFiberBranch(tile::IfOp op);
  /// Waits for the fibers of the pending group, if any.
  void joinFibers();
  /// An mbarrier wait, a named barrier or an arrival at one, once for the
  /// active threads.
  mlir::LogicalResult emitBlockingOp(mlir::Operation *op);
  /// The mbarrier primitives (T.alloc_barrier's elements, the legacy
  /// list); nullopt for other callees.
  std::optional<mlir::LogicalResult>
  emitMbarrierIntrinsic(tile::IntrinsicOp op);
  /// The address (`uint64_t *`) of the mbarrier passed for \p param.
  mlir::FailureOr<std::string> mbarrierAddress(tile::IntrinsicOp op,
                                               llvm::StringRef param);
  // CppEmitterCluster.cpp.
  /// Whether the blocks of \p kernel's clusters must run at once: it has
  /// clusters of several blocks and uses the cluster barrier or rank,
  /// another block's shared memory or mbarriers, or a 2-CTA gemm.
  static bool needsClusterLaunch(tile::KernelOp kernel);
  /// In a kernel whose clusters run at once (tlc::cpu::launchClusters):
  /// its shared allocations are published to the cluster.
  bool clusterKernel = false;
  /// Publishes the Local \p mem (the shared allocation \p op) to the
  /// cluster, followed by a tlc::cpu::ClusterExitGuard, whose destructor
  /// runs before the buffer is freed: the block's shared memory stays
  /// valid until every block of the cluster is done. Only in the kernel's
  /// body (not a loop or branch, whose end would end the block).
  mlir::LogicalResult publishToCluster(tile::AllocOp op, llvm::StringRef mem);
  /// `&VIEW.at({0, ...})` of the first element of the one-element (or
  /// response) region \p v, in block \p rank of the cluster when \p rank
  /// is not empty.
  std::string firstElementAddress(mlir::Value v, llvm::StringRef rank = "");
  /// tile.clc_try_cancel / tile.clc_query (tlc::cpu::clcTryCancel: the
  /// launch's queue of clusters not started).
  mlir::LogicalResult emitClcTryCancel(tile::ClcTryCancelOp op);
  mlir::LogicalResult emitClcQuery(tile::ClcQueryOp op);
  /// An arrival on the mbarrier \p bar of block \p cta of the cluster
  /// (T.mbarrier_arrive(bar, cta_id), T.ptx_arrive_cluster_barrier,
  /// T.ptx_arrive_barrier(bar, cta, pred)); only where \p pred holds when
  /// given.
  mlir::LogicalResult emitRemoteArrive(tile::IntrinsicOp op, mlir::Value bar,
                                       mlir::Value cta, mlir::Value pred);
  /// T.copy_cluster: a copy into another block's shared memory (dst_block),
  /// or from global memory into the blocks of cluster_mask; completes its
  /// bytes on each destination block's remote_barrier.
  mlir::LogicalResult emitCopyCluster(tile::IntrinsicOp op);
  /// A 2-CTA tcgen05 gemm (tile.use_2cta): the pair of blocks computes
  /// M = 2 x C's rows, each block's A times the B halves both hold.
  mlir::LogicalResult emitGemm2Cta(tile::GemmOp op);
  /// Whether \p op clears the tensor memory a 2-CTA gemm accumulates into
  /// (clear_accum of T.tcgen05_gemm(use_2cta=True)): the pair's C.
  bool clearsPairAccumulator(tile::ClearOp op);
  /// Clears \p op's destination in both blocks of the pair.
  mlir::LogicalResult emitPairClear(tile::ClearOp op, const std::string &value);
  // CppEmitterIntrinsic.cpp.
  /// Records the T.annotate_safe_value entries of \p kernel: the value a
  /// guarded read outside each named tensor gives instead of zero.
  mlir::LogicalResult collectSafeValues(tile::KernelOp kernel);
  /// Per tensor parameter, its safe value (a storage-type expression).
  llvm::DenseMap<mlir::Value, std::string> safeValues;
  /// Per operation reading global memory into a T.annotate_padding buffer,
  /// the pad its out-of-range reads give (a number, in place of the
  /// tensor's safe value).
  llvm::DenseMap<mlir::Operation *, double> paddedReads;
  /// In a kernel whose branches run as fibers.
  bool fibered = false;
  /// The fiber group spawned in the current block and not joined yet.
  std::string pendingFibers;
  /// The tlc::cpu::NamedBarriers of a fibered kernel.
  std::string namedBarriers;
  /// The block's tlc::cpu::MbarrierWaits (the phases its threads waited
  /// for), in a kernel whose threads run as fibers.
  std::string mbarrierWaits;
  /// The legacy T.create_list_of_mbarrier list (`uint64_t *`).
  std::string mbarrierList;
  /// A loop whose body is one branch that runs as a fiber (and pure
  /// arithmetic): a `break` / `continue` of the fiber's threads is the
  /// loop's (no other thread does anything in it). The flag a break sets,
  /// per such loop.
  llvm::DenseMap<mlir::Operation *, std::string> fiberLoopBreaks;
  /// The fiber branch being emitted whose loop exits leave its loop, and
  /// that loop's flag (null / "" otherwise).
  mlir::Operation *exitingFiber = nullptr;
  std::string exitingFiberFlag;
  /// Whether \p body (a loop's) is one fiber branch without else and pure
  /// arithmetic.
  bool isOnlyFiberBranch(mlir::Block &body);

  /// `&mask` or `nullptr` for the current active mask.
  std::string activePtr() const {
    return activeMask.empty() ? "nullptr" : "&" + activeMask;
  }
  /// Inside a thread loop of a threaded kernel.
  bool inThreadLoop = false;
  /// The array of per-thread generator states of the kernel being emitted
  /// ("" when it draws no random numbers).
  std::string rngStates;
  /// The curand state type the kernel's first `T.rng_init` names.
  std::string rngGenerator;

  /// The statement that leaves the current block (kernel lambda) or entry.
  llvm::StringRef returnStmt() const {
    return inKernel ? "return;" : "return 1;";
  }

private:
  tile::FuncOp func;
  CppEmitOptions options;
  std::string out;
  unsigned lineCount = 0;
  unsigned indent = 0;
  mlir::Location currentLoc;
  llvm::DenseMap<mlir::Value, std::string> names;
  llvm::StringSet<> usedNames;
  llvm::StringMap<std::string> symbolNames;
  llvm::StringMap<unsigned> fileIndex;
  bool inKernel = false;
  /// Inside the fast version of emitWithFastPath.
  bool fastVersion = false;
  /// Accesses a fast path proved in range (emitted without checks).
  llvm::DenseSet<mlir::Operation *> unguarded;
  unsigned kernelCount = 0;
  /// In a kernel with per-thread code.
  bool threaded = false;
  /// The thread extents (x, y, z) and count of a threaded kernel.
  std::string threadExtent[3];
  std::string threadCount;
  /// The Lanes<uint8_t> of the threads that reach the current code ("":
  /// every thread).
  std::string activeMask;
  /// Values kept per thread in a Lanes array (their name).
  llvm::DenseMap<mlir::Value, std::string> laneArrays;
  /// The per-thread buffers of a threaded kernel (T.alloc_local /
  /// T.alloc_var): the View holding every thread's copy (leading dimension).
  llvm::DenseMap<mlir::Value, std::string> perThreadStorage;
  /// planPrivateLocals' loops (with their owner tables) and buffers of the
  /// kernel being emitted, and its thread count.
  llvm::DenseMap<mlir::Operation *, std::vector<std::pair<int64_t, int64_t>>>
      privateLoops;
  llvm::DenseSet<mlir::Value> privateLocals;
  int64_t privateThreads = 0;
  /// Ops that run once for the block and the ops around them.
  llvm::DenseSet<mlir::Operation *> blockLevelOps;
  llvm::DenseMap<mlir::Value, bool> blockValueMemo;
  /// The selects of the kernel whose operand ops run in their branches.
  LazySelects lazySelects;
  CppKernel result;
};

/// Unwraps NameLoc/CallSiteLoc/FusedLoc down to a file location; null if
/// there is none.
mlir::FileLineColRange getFileLoc(mlir::Location loc);

/// True for f16, bf16 and the fp8 types (stored as tlc::cpu::MiniFloat).
bool isSmallFloat(mlir::Type t);
using tile::isPackedNibble;

/// Whether \p op is a barrier the CPU target runs between loop nests when
/// it stands straight in a T.Parallel body (CppEmitterFastPath.cpp):
/// T.sync_grid, or raw TIR's block barrier T.tvm_storage_sync("shared").
bool isLoopBarrier(mlir::Operation *op);

/// The operand of the intrinsic \p op passed for its parameter \p param,
/// or null (CppEmitterIntrinsic.cpp).
mlir::Value intrinsicArg(tile::IntrinsicOp op, llvm::StringRef param);

/// T.cluster_arrive / _relaxed / wait / sync and T.block_rank_in_cluster:
/// what makes a kernel of clusters run each cluster's blocks at once.
inline bool isClusterIntrinsic(llvm::StringRef callee) {
  return callee == "T.cluster_arrive" || callee == "T.cluster_arrive_relaxed" ||
         callee == "T.cluster_wait" || callee == "T.cluster_sync" ||
         callee == "T.block_rank_in_cluster";
}

} // namespace tlc::target::detail

#endif // TLC_LIB_TARGET_CPP_EMITTERIMPL_H
