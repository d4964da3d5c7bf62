//===- SharedAccessPlans.h - Warp accesses of shared memory -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to TLCTileTransforms: the AccessPlan that SharedAccesses.cpp
// evaluates against layouts, and the builders that model each kind of
// access of the generated code:
//
//   SharedAccessCopies.cpp   T.copy (memory <-> shared, fragment <-> shared,
//                            staged fragment stores) and T.reduce_*'s
//                            scratch exchange;
//   SharedAccessOperands.cpp T.gemm's shared operands (ldmatrix, MFMA);
//   SharedAccessLoops.cpp    loads and stores inside T.Parallel.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_DIALECT_TILE_TRANSFORMS_SHAREDACCESSPLANS_H
#define TLC_LIB_DIALECT_TILE_TRANSFORMS_SHAREDACCESSPLANS_H

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Layout/BankConflicts.h"
#include "tlc/Layout/Layout.h"
#include "tlc/Layout/MfmaSharedLayouts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace tile {
namespace detail {

/// The allocation a view (a chain of tile.region ops) of \p buffer reads.
inline mlir::Value rootOf(mlir::Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

/// The memory scope of \p buffer's allocation.
inline MemoryScope scopeOfRoot(mlir::Value buffer) {
  return mlir::cast<BufferType>(rootOf(buffer).getType()).getScope();
}

/// The warp instructions of one access of a shared allocation.
struct AccessPlan {
  mlir::Operation *op = nullptr;
  mlir::Value root;
  std::string instruction;
  /// A write (CDNA serves 16-byte reads and writes in different phases).
  bool store = false;
  int64_t elementBytes = 0;
  /// Elements per lane and instruction.
  int64_t vec = 1;
  std::vector<layout::LaneCoords> warps;
  /// A tile of the printer's own (the staging tile of an epilogue store),
  /// instead of the allocation's layout; named by `area`.
  std::optional<layout::Layout> tile;
  std::string area;
};

/// The static offsets of view \p v in its root (summed over a chain of
/// regions), or std::nullopt when one is not a constant.
std::optional<llvm::SmallVector<int64_t>> staticOffsets(mlir::Value v);

/// The non-unit dimensions of \p t, or std::nullopt when one is dynamic.
std::optional<llvm::SmallVector<unsigned>> copyDims(BufferType t);

/// `16-byte st.shared`, or on HIP the LDS instruction (`ds_write_b128`,
/// `ds_read_u16`).
std::string widthName(int64_t bytes, bool store, bool hip = false);

/// The root coordinate of view element \p viewCoord (coordinates along the
/// view's \p dims, 0 elsewhere) at \p offsets.
std::vector<int64_t> rootCoord(llvm::ArrayRef<unsigned> dims,
                               llvm::ArrayRef<int64_t> viewCoord,
                               llvm::ArrayRef<int64_t> offsets);

/// The most threads of a block on any target.
inline constexpr int64_t kMaxBlockThreads = 1024;
/// The largest copy whose accesses are enumerated (a 4 MiB f32 tile; shared
/// memory holds at most 228 KiB).
inline constexpr int64_t kMaxEnumeratedElements = int64_t(1) << 20;

// SharedAccessCopies.cpp

/// T.copy between global (or shared) memory and shared memory: chunk
/// q = round * threads + tid of `vec` elements, row-major over the copy's
/// extents (CUDAEmitterTileOps: emitCopy).
void planMemoryCopy(CopyOp op, int64_t threads, std::vector<AccessPlan> &plans,
                    bool hip);

/// T.copy between a whole fragment and shared memory: every thread moves
/// its registers in vector steps (CUDAEmitterTileOps: emitFragmentCopy).
void planFragmentCopy(CopyOp op, int64_t threads,
                      std::vector<AccessPlan> &plans, bool hip);

/// A T.copy of a whole 2-d fragment to global memory that the CUDA printer
/// stages through shared memory (CUDAEmitterStagedStore).
void planStagedStore(CopyOp op, int64_t threads, std::vector<AccessPlan> &plans,
                     bool hip);

/// The bank-conflict degree of T.reduce_*'s scratch exchange across warps
/// (0 when the result rows are not spread over several warps).
int64_t reductionDegree(ReduceOp op, int64_t threads, bool hip);

/// The vector width of fragment copies: the most registers (a power of
/// two, at most 16 bytes of \p bytes-byte elements) that hold consecutive
/// elements along the last dimension, starting at a multiple of the width,
/// in every thread (\p table: layout::invertTableShared of \p f).
int64_t fragmentVector(const layout::Fragment &f,
                       const std::vector<std::vector<int64_t>> &table,
                       int64_t bytes);

// SharedAccessOperands.cpp

/// The ldmatrix (or wgmma operand) reads of T.gemm's shared operands,
/// named \p instruction.
void planGemmOperands(GemmOp op, std::vector<AccessPlan> &plans,
                      llvm::StringRef instruction);

/// The LDS reads of T.gemm's shared operands on HIP (HIPEmitterGemm.cpp),
/// the tiles stored as \p storage says.
void planMfmaOperands(
    GemmOp op, std::vector<AccessPlan> &plans,
    const llvm::DenseMap<mlir::Value, SharedStorage> &storage);

// SharedAccessLoops.cpp

/// The shared loads and stores inside T.Parallel; on HIP, stores the
/// printer writes as vectors of consecutive registers (tile-plan-parallel-
/// vectors' plan, or its choice over \p storage, how the printer stores
/// each shared tile).
void planParallel(ParallelOp op, int64_t threads,
                  std::vector<AccessPlan> &plans, bool hip,
                  const llvm::DenseMap<mlir::Value, SharedStorage> &storage);

} // namespace detail
} // namespace tile
} // namespace tlc

#endif // TLC_LIB_DIALECT_TILE_TRANSFORMS_SHAREDACCESSPLANS_H
