//===- CUDAEmitter.h - Tile IR to CUDA C++ ----------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA target: translates one `tile.func` into readable CUDA C++ that
// includes tlc's device headers (runtime/device/include/tlc_device/cuda.h)
// and exports one `extern "C" __global__` kernel per `tile.kernel`, with a
// source map from generated lines to the DSL locations of the Tile IR ops.
//
// Lowering (this version):
//  * Every `local.fragment` buffer gets a TLCLayout fragment: mma.sync
//    layouts for T.gemm accumulators and register operands, reduceFragment()
//    for reduction results, propagation through T.Parallel (row vectors
//    read in 2-D loops replicate over the threads of their row) and
//    fragment copies, else defaultFragment() (coalesced 16-byte chunks).
//    The inverse (tid, register) -> coordinate is fitted as a map linear in
//    the bits of both, so unrolled register loops index registers with
//    constants (CUDAFragments.cpp).
//  * `T.Parallel` runs over the layout of a fragment it accesses at its
//    loop variables; other fragments map onto the same thread's registers.
//  * `T.copy` moves 16-byte vectors when a chunk is in bounds and aligned,
//    guarded elements otherwise; the producers of a multi-buffered
//    `T.Pipelined` (tile-plan-pipelines decides which) become cp.async into
//    per-stage buffers, issued ahead with commit/wait groups.
//  * `T.gemm` (f16/bf16, f32 accumulate): ldmatrix(.trans) from XOR-swizzled
//    shared tiles or packed register operands, mma.sync.m16n8k16, every
//    transpose combination and warp policy (CUDAEmitterGemm.cpp).
//  * `T.reduce_*`: per-thread fold, `__shfl_xor_sync` over the thread bits
//    inside a warp, shared-memory scratch across warps; T.cumsum (shared),
//    T.atomic_add, T.print, T.device_assert, T.use_swizzle.
//  * Shared buffers live in one dynamic shared-memory array at the offsets
//    tile-plan-shared-memory gave them (the module must have run the GPU
//    lowering passes: tile::runGpuLowering); barriers are inserted where shared
//    bytes written by one statement are read or rewritten by a later one
//    (two buffers the plan placed in the same bytes count as one).
//  * f16/bf16 values are computed in f32 and rounded after every
//    arithmetic result, like the CPU reference target.
// Not yet lowered (a diagnostic on the op): 8-bit gemms, fragment exchanges
// between threads, cumsum of fragments, explicit stage=/order= schedules
// (multi-stage loops use the load-ahead schedule), barriers of mbarrier
// scope.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CUDA_CUDAEMITTER_H
#define TLC_TARGET_CUDA_CUDAEMITTER_H

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/Target/CUDA/GPULanguage.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>
#include <vector>

namespace tlc {
namespace tile {
class FuncOp;
} // namespace tile
namespace target {

/// Options of the CUDA emitter.
struct CudaEmitOptions {
  /// Put `#line N "file"` directives before the code of every op (debuggers
  /// and nvcc diagnostics then point at the DSL source).
  bool lineDirectives = false;
  /// Put a `// T.op  file:line:col` comment above the code of every op.
  bool locationComments = true;
  /// The oldest architecture the code is built for, as its compute
  /// capability major * 10 + minor (sm_80: 80, sm_90a: 90): operations only
  /// newer architectures have are diagnosed instead of emitted.
  unsigned minComputeCapability = 90;
  /// The language written: CUDA C++, or HIP C++ for AMD CDNA (wavefront
  /// 64, MFMA; see GPULanguage.h).
  const GPULanguage *language = &GPULanguage::cuda();
  /// HIP: the oldest CDNA architecture built for (`gfx90a`, `gfx942`,
  /// `gfx950`): instructions only newer ones have are diagnosed.
  std::string amdArch = "gfx90a";
  /// Record the shared-memory accesses of every fragment exchange tile in
  /// CudaKernel::exchanges (the editor's exchange hints; off when building).
  bool recordExchanges = false;
};

/// The shared-memory accesses the code makes to one fragment exchange tile
/// (CudaEmitOptions::recordExchanges), as the printed loops compute them:
/// per instruction and group of 32 consecutive threads (a warp; half a
/// 64-lane wavefront on HIP), the element of the row-major tile each lane
/// accesses, -1 for a lane that does not.
struct CudaExchangeAccesses {
  /// The tile's name in the code (`exchanged_3`).
  std::string tile;
  /// The statement whose code declares the tile (a T.Parallel, a fragment
  /// copy, a scalar read of a fragment, a T.cumsum), the fragment's name in
  /// the code, and the tile's byte offset in shared memory.
  mlir::Operation *op = nullptr;
  std::string fragment;
  int64_t offset = 0;
  /// Bytes per element.
  int64_t elementBytes = 4;
  /// Stores into the tile (the holders' registers, a loop's writes) and
  /// loads from it (a loop's reads, registers loaded back, a scalar read).
  std::vector<std::array<int64_t, 32>> stores, loads;
  /// False when an access could not be evaluated (an index the analysis
  /// does not model) or there were too many to keep: the lists are partial.
  bool complete = true;
};

/// A TMA tensor map a kernel takes (tile-plan-tma), after the symbols, in
/// this order; the host encodes it with cuTensorMapEncodeTiled.
struct CudaTensorMap {
  /// Index of the tensor parameter it describes.
  unsigned param = 0;
  /// TileLang dtype name of the elements.
  std::string dtype;
  /// Extents, innermost first.
  std::vector<int64_t> dims;
  /// Byte strides of dims 1.. (rank - 1 entries).
  std::vector<int64_t> strides;
  /// The box, innermost first.
  std::vector<int64_t> box;
  /// Shared-memory swizzle: 0 (none), 32, 64 or 128 bytes.
  int64_t swizzle = 0;
};

/// One `__global__` kernel of the emitted source.
struct CudaLaunch {
  /// The kernel's symbol.
  std::string entry;
  /// Threads per block (static).
  int64_t threads = 0;
  /// Bytes of dynamic shared memory.
  int64_t dynamicSharedMemory = 0;
  /// When the kernel has shared buffers of symbolic shape: the bytes as an
  /// expression of the symbols (manifest ShapeExpr text), which replaces
  /// dynamicSharedMemory (its static part) at launch.
  std::string dynamicSharedMemoryExpr;
  /// Tensor maps, passed after the symbols.
  std::vector<CudaTensorMap> tensorMaps;
  /// Blocks of a persistent kernel (tile-persistent-gemm), launched as a
  /// 1-D grid in place of the program's; 0: the program's grid.
  int64_t persistentGrid = 0;
  /// The kernel waits at grid-wide barriers (T.sync_grid): a cooperative
  /// launch, every block resident at once.
  bool cooperative = false;
  /// Blocks per cluster along x, y, z (`__cluster_dims__`); empty: no
  /// cluster launch (a cluster of one).
  std::vector<int64_t> cluster;
};

/// The CUDA C++ of one kernel instance.
struct CudaKernel {
  /// The complete translation unit.
  std::string source;
  /// The kernels in launch order.
  std::vector<CudaLaunch> launches;
  /// Symbol names in the order every kernel takes them (after the
  /// parameters), as `long long`.
  std::vector<std::string> symbols;
  /// Files the source map refers to.
  std::vector<std::string> files;
  /// Generated line -> DSL location, sorted by generated line.
  std::vector<artifact::SourceMapEntry> sourceMap;
  /// The fragment exchange tiles' accesses, in declaration order (only with
  /// CudaEmitOptions::recordExchanges).
  std::vector<CudaExchangeAccesses> exchanges;
};

/// Translates \p func into CUDA C++. Fails, with an error diagnostic on the
/// offending op, for operations this version cannot lower.
mlir::FailureOr<CudaKernel> emitCudaKernel(tile::FuncOp func,
                                           const CudaEmitOptions &options = {});

/// Translates every defined `tile.func` of \p module (a default instance
/// that cannot be built is skipped with a warning; an error when
/// \p kernelFilter, the --kernel the analysis selected by, is given) into
/// one CUDA text
/// (for `tlc-translate --tile-to-cuda` and the lit tests). Keeps going after
/// a function fails; succeeds when all did.
mlir::LogicalResult translateModuleToCuda(mlir::ModuleOp module,
                                          llvm::raw_ostream &os,
                                          const CudaEmitOptions &options = {},
                                          llvm::StringRef kernelFilter = "");

/// Lets the GPU planning passes ask this printer's fragment layouts
/// (tile::setKernelPreparer): tile-plan-fragment-exchanges which fragments
/// each T.Parallel and fragment copy exchanges, tile-plan-scratch-areas the
/// reduction scratch and fragment exchange bytes each op needs; each kernel
/// is prepared once for both (tile::PreparedKernels). Callers that lower a
/// module for the CUDA or HIP target call it first; it may be called any
/// number of times.
void registerScratchAreaMeasure();

} // namespace target
} // namespace tlc

#endif // TLC_TARGET_CUDA_CUDAEMITTER_H
