//===- FragmentExchangePlan.h - Fragments through shared memory -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which fragments a `T.Parallel` and a fragment copy exchange through the
// shared exchange area: a loop that reads or writes a fragment at elements
// its threads do not hold in their registers (another thread's layout, an
// index that is not a loop variable, a loop no fragment partitions) has
// every thread store its registers of that fragment into a row-major
// shared tile first, works on the tile, and loads the registers back
// after it when it writes the fragment; a copy between fragments laid out
// differently goes through such a tile too. Whether an access needs it
// follows from the CUDA/HIP printer's fragment layouts, so the target
// library chooses (PreparedKernel::chooseExchanges, PreparedKernels.h);
// tile-plan-fragment-exchanges records the choice on the ops, and the
// printer, the scratch-area measurement and the editor's exchange hints
// read it (getFragmentExchanges, isExchangedCopy).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTEXCHANGEPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTEXCHANGEPLAN_H

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallVector.h"

#include <utility>
#include <vector>

namespace tlc::tile {

/// The kernel attribute of a kernel whose exchanges the pass recorded (an
/// op without a plan then exchanges nothing).
inline constexpr llvm::StringLiteral kExchangesPlanned =
    "tile.exchanges_planned";

/// The exchanges of one kernel: each `tile.parallel` or fragment
/// `tile.copy` that exchanges, with the fragments it exchanges, in the
/// order of their tiles in the exchange area (a copy: its source).
using FragmentExchanges = std::vector<
    std::pair<mlir::Operation *, llvm::SmallVector<mlir::Value, 1>>>;

/// The fragment a load or store of a `tile.parallel` body accesses when it
/// accesses it directly (not through a `tile.region`), else null.
mlir::Value directFragmentOf(mlir::Operation *access);

/// Records \p exchanges on the ops of \p kernel and marks it planned
/// (kExchangesPlanned): on every direct fragment access of a loop whose
/// fragment the loop exchanges, `tile.exchange_tile = K : i64`, the
/// fragment's tile in the loop's exchange area (0 first); the unit
/// `tile.exchanged` on a copy that goes through the area. Plans already on
/// the kernel's ops are replaced.
void setFragmentExchanges(KernelOp kernel, const FragmentExchanges &exchanges);

/// The fragments \p loop exchanges, by tile (empty: none). Fails, with an
/// error at the access, on a plan the printer cannot follow: a tile index
/// that is not a non-negative integer, one on an access that is no direct
/// fragment access of the loop (through a view or region, of another
/// memory), two tiles for one fragment, one tile for two fragments, a
/// direct access of an exchanged fragment without its tile, tiles that do
/// not number 0..n-1.
mlir::FailureOr<llvm::SmallVector<mlir::Value, 1>>
getFragmentExchanges(ParallelOp loop);

/// Whether the plan sends \p copy through the exchange area. Fails, with
/// an error at the copy, when `tile.exchanged` is not a unit attribute or
/// stands on a copy whose source or destination is no whole fragment.
mlir::FailureOr<bool> isExchangedCopy(CopyOp copy);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTEXCHANGEPLAN_H
