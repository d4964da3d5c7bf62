//===- EmitterAsyncState.h - Async state of a kernel ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the CUDA emitter records about the asynchronous machinery of the
// function and kernel being printed (Hopper and Blackwell: software
// pipelines, warp specialisation, persistent and clustered GEMMs, TMA,
// mbarriers, wgmma, tcgen05): the plans it read from the passes and the
// names it declared. The Emitter (EmitterImpl.h) holds it as a base; the
// printers of those features (CUDAEmitterPipeline.cpp, CUDAEmitterTma.cpp,
// CUDAEmitterMbarrier.cpp, CUDAEmitterWgmma.cpp, ...) fill and read it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CUDA_EMITTERASYNCSTATE_H
#define TLC_LIB_TARGET_CUDA_EMITTERASYNCSTATE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace tlc::target::cuda_detail {

/// The asynchronous-machinery state of the CUDA emitter (see the file
/// comment).
struct AsyncKernelState {
  /// Shared buffers stored in swizzled panels for wgmma descriptors
  /// (`tile.swizzle` of tile-plan-wgmma): the swizzle's row bytes.
  llvm::DenseMap<mlir::Value, int64_t> panelSwizzle;
  /// Whether the kernel being emitted issues wgmma (its shared writes are
  /// fenced for the async proxy before barriers).
  bool usesWgmma = false;
  /// Whether any kernel of the function issues wgmma.
  bool anyWgmma = false;
  /// Whether any kernel of the function uses tcgen05 (tcgen05.h included).
  bool anyTcgen05 = false;
  /// The variable holding the kernel's tensor memory address ("" when the
  /// kernel has none).
  std::string tmemBaseName;
  /// The kernel's tensor memory is the CTA pair's (tcgen05.alloc
  /// .cta_group::2): every tcgen05 instruction is cta_group::2.
  bool tmemPair = false;
  /// Inside a pipelined loop: shared buffer -> pointer expression of the
  /// stage being computed on.
  llvm::DenseMap<mlir::Value, std::string> stagePointers;
  /// Set while a multi-buffered loop issues its producers (committed as
  /// the iteration's cp.async group, not one of their own).
  bool issuingProducers = false;
  /// The kernel parameter name of each TMA copy's tensor map (tile.tma).
  llvm::DenseMap<mlir::Operation *, std::string> tensorMapNames;
  /// Whether any kernel of the function issues TMA copies.
  bool anyTma = false;
  /// Some kernel calls T.sync_grid (the grid.h helpers are included).
  bool anyGridSync = false;
  /// Some kernel uses cluster primitives (cluster.h is included).
  bool anyCluster = false;
  /// The kernel being emitted is launched in clusters of several blocks.
  bool clusterLaunch = false;
  /// tile-gemm-cluster: the axis of the output-tile grid along which the
  /// two blocks of a cluster take adjacent tiles and share the operand
  /// multicast (0: x, same rows of A; 1: y, same columns of B); -1: none.
  int gemmClusterAxis = -1;
  /// Software-pipelined loops -> stages; staged shared buffers -> stages
  /// (tile.stages of tile-plan-pipelines).
  llvm::DenseMap<mlir::Operation *, int64_t> pipelineStages;
  llvm::DenseMap<mlir::Value, int64_t> stagedBuffers;
  /// Ops emitBlock skips (a pipeline's producers).
  llvm::SmallPtrSet<mlir::Operation *, 8> skipOps;
  /// Statements emitBlock prints right before / after an op (the waits and
  /// releases of a warp-specialised loop's rings around their readers).
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<std::string, 1>>
      linesBefore, linesAfter;
  /// Warp specialisation (tile-warp-specialize): the producer warpgroup's
  /// threads after the program's (0: none), and the names of the ring of
  /// full and empty mbarriers once declared.
  int64_t wsProducerThreads = 0;
  std::string wsFull, wsEmpty;
  /// wgmma gemms that take the ping-pong turn before their fence / hand it
  /// over after their commit (set by the loop printer), and those whose
  /// wait the loop places.
  llvm::SmallPtrSet<mlir::Operation *, 4> wsTurnTake, wsTurnHandOver,
      wgmmaNoWait;
  /// tile-split-masks' branches (tile.split_mask_loop) printed as their
  /// all-true side: the loop printer splits the warp-specialised loop into
  /// the iterations where the guard holds (the first loop, left at the
  /// first that it does not) and the rest (CUDAEmitterWsOverlap.cpp).
  llvm::SmallPtrSet<mlir::Operation *, 2> maskAllTrue;
  /// A persistent kernel (tile-persistent-gemm): the blocks launched (0:
  /// not persistent), and the consumers' ring position, declared before
  /// their tile loop and carried from tile to tile (empty outside one).
  int64_t persistentCtas = 0;
  std::string wsReadStage, wsPhase, wsLastStage;
  /// Consumer ping-pong over tiles (tile-gemm-pingpong): the first of its
  /// named barriers (0: none; turns B and B + 1, warpgroup w's own barrier
  /// B + 2 + w), and while the consumers' tile loop is printed, the names
  /// of their warpgroup index and of the tile variable.
  int64_t gemmPingPong = 0;
  std::string wsConsumerGroup, wsTile;
  /// While a warp-specialised kernel's roles are printed: the name of the
  /// warpgroup index `threadIdx.x / 128`, read through a warp broadcast so
  /// that nvcc proves it warp-uniform (the role branches and everything the
  /// wgmma descriptors depend on stay on the uniform datapath instead of
  /// being moved there by R2UR per instruction: docs/perf/hopper.md).
  std::string wsWarpGroup;
  /// Byte offsets in shared memory of the mbarrier buffers (T.alloc_barrier)
  /// and of T.create_list_of_mbarrier's list (-1: none).
  llvm::DenseMap<mlir::Value, int64_t> mbarrierOffsets;
  int64_t mbarrierListOffset = -1;
  llvm::SmallVector<int64_t, 8> mbarrierListCounts;
  /// The name of the list's pointer once it is declared.
  std::string mbarrierListName;
};

} // namespace tlc::target::cuda_detail

#endif // TLC_LIB_TARGET_CUDA_EMITTERASYNCSTATE_H
