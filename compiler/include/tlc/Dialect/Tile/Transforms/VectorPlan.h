//===- VectorPlan.h - Vector widths of a tile.parallel's accesses ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which element loads and stores of a `tile.parallel` (T.Parallel) the CUDA
// and HIP printers issue as vectors, at which width, and the alignment
// fact that allows it. Today one kind of access is vectorised: on HIP, a
// store straight in the body of a loop a fragment partitions, into a
// static LDS tile at the loop variables, where every run of the fragment
// layout's consecutive registers (its vector width) lands on consecutive
// elements proven aligned, and nothing else in the body touches the tile
// (the printer computes the run into register slots and stores them as one
// ds_write_b64 / _b128). Every other access (global, shared on CUDA,
// fragment) is an element access.
//
// tile-plan-parallel-vectors records the choice (Passes.td has the
// attributes); the GPU printer reads it and calls chooseParallelVectors()
// only for IR that did not go through the pass, so the decision has this
// one implementation.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_VECTORPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_VECTORPLAN_H

#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace tlc {
namespace tile {

/// One access of a loop issued as vectors (`tile.vec`, `tile.vec_aligned`).
struct AccessVector {
  /// The tile.load / tile.store.
  mlir::Operation *access = nullptr;
  /// Elements per instruction (2, 4, 8, 16).
  int64_t width = 1;
  /// Every vector's first element is proven a multiple of `width` elements
  /// from an aligned address (no run-time test).
  bool aligned = false;
};

/// Whether every element offset an access of a non-strided buffer with
/// root type \p rootType reads is a multiple of \p width, from \p ranges
/// (the interval of each root index; a divisor of 0 means the index is 0)
/// and the storage \p storage the printer keeps the root in (null:
/// row-major): runs of an LDS swizzle stay in place when its runs are
/// multiples of the width, a row swizzle keeps the offset inside a 16-byte
/// chunk, row-major offsets are index times stride.
bool isProvenAligned(BufferType rootType,
                     llvm::ArrayRef<std::optional<IndexInterval>> ranges,
                     int64_t width, const SharedStorage *storage);

/// The intervals of the root indices of an access to \p buffer at indices
/// whose intervals are \p ranges: a region's offsets added (divisors
/// combined by gcd), unknown where an offset is unknown.
llvm::SmallVector<std::optional<IndexInterval>>
rootRanges(mlir::Value buffer,
           llvm::ArrayRef<std::optional<IndexInterval>> ranges,
           IndexIntervals &intervals);

/// The intervals of the indices of store \p store, a HIP vector store
/// candidate of a loop partitioned by \p plan over a fragment of shape
/// \p fragmentShape, at the first register of each run of \p width: the
/// last fragment dimension runs over multiples of the width, the others
/// over their extents.
llvm::SmallVector<std::optional<IndexInterval>>
runRanges(StoreOp store, const ParallelPlan &plan,
          llvm::ArrayRef<int64_t> fragmentShape, int64_t width);

/// The vectorised accesses of \p loop, partitioned by \p plan (a fragment
/// partition over a fragment of shape \p fragmentShape whose layout holds
/// runs of \p layoutVec consecutive elements along its last dimension in
/// consecutive registers, each run starting at a multiple of layoutVec),
/// on HIP when \p hip, with shared tiles stored as \p storage says;
/// \p intervals of the function. Empty when every access is an element
/// access. On HIP, each store straight in the body into a static LDS tile
/// at the loop variables (the last on the fragment's last dimension and no
/// other on it) becomes a vector of layoutVec elements when those are 4, 8
/// or 16 bytes, the tile's swizzle keeps such runs together, every run's
/// first element is proven aligned (isProvenAligned over runRanges()), and
/// nothing else in the body touches the tile nor a grid barrier splits the
/// body.
llvm::SmallVector<AccessVector>
chooseParallelVectors(ParallelOp loop, const ParallelPlan &plan,
                      llvm::ArrayRef<int64_t> fragmentShape, int64_t layoutVec,
                      bool hip,
                      const llvm::DenseMap<mlir::Value, SharedStorage> &storage,
                      IndexIntervals &intervals);

/// chooseParallelVectors() for \p loop as tile-plan-parallel-vectors calls
/// it: its partition (tile-plan-parallel-loops' plan, else
/// chooseParallelPlan()), the run width of the partitioning fragment's
/// `layout` attribute (layout inference's; no attribute, no vectors).
llvm::SmallVector<AccessVector>
planParallelVectors(ParallelOp loop, bool hip,
                    const llvm::DenseMap<mlir::Value, SharedStorage> &storage,
                    IndexIntervals &intervals);

/// Why the printer cannot follow \p vector, recorded on an access of
/// \p loop (partitioned by \p plan over a fragment of shape
/// \p fragmentShape), as chooseParallelVectors() would have needed it at
/// that width; "" when it can. Whether the width divides the runs of the
/// fragment's layout is the printer's check, against its layout.
std::string
checkParallelVector(ParallelOp loop, const AccessVector &vector,
                    const ParallelPlan &plan,
                    llvm::ArrayRef<int64_t> fragmentShape, bool hip,
                    const llvm::DenseMap<mlir::Value, SharedStorage> &storage,
                    IndexIntervals &intervals);

/// Records \p vectors as tile-plan-parallel-vectors' attributes on their
/// accesses.
void setParallelVectors(llvm::ArrayRef<AccessVector> vectors);

/// The marker of a module tile-plan-parallel-vectors planned
/// (markModulePlanned): the accesses of its loops without `tile.vec` are
/// element accesses.
inline constexpr llvm::StringLiteral kVectorsPlanned = "tile.vectors_planned";

/// The vectors recorded on the accesses of \p loop (accesses of nested
/// loops excluded), in program order; an error on the access (and failure)
/// when one is malformed: `tile.vec` not an integer power of two from 2 to
/// 16, `tile.vec_aligned` without `tile.vec`, a vector on an access other
/// than a tile.load / tile.store.
mlir::FailureOr<llvm::SmallVector<AccessVector>>
getParallelVectors(ParallelOp loop);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_VECTORPLAN_H
