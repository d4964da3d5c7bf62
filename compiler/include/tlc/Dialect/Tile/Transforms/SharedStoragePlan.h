//===- SharedStoragePlan.h - How shared buffers are stored ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The storage of every shared allocation of a lowered kernel (row-major,
// row-swizzled, descriptor panels, HIP's LDS swizzle: SharedStorage in
// SharedAccesses.h) as tile-plan-shared-storage records it on the
// allocations: the plan the printer's addressing, the vector widths of
// tile-plan-parallel-vectors, the hints, the pictures and the bank-conflict
// analysis read (planSharedStorage returns it once recorded).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_SHAREDSTORAGEPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_SHAREDSTORAGEPLAN_H

#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"

namespace tlc::tile {

/// The module attribute of a module whose kernels' shared storage
/// tile-plan-shared-storage recorded (a shared allocation of a planned
/// kernel without `tile.storage` is stored row-major).
inline constexpr llvm::StringLiteral kStoragePlanned = "tile.storage_planned";

/// The choice itself, from the kernel's ops whatever is recorded: panels
/// for the shared operands of wgmma / tcgen05 gemms and hand-written
/// descriptors (their `tile.swizzle`; before lowering, what the passes
/// will choose on \p target's architecture), then HIP's LDS swizzles of
/// MFMA operands, then the row swizzle of 16- and 8-bit gemm operands and
/// staged tiles.
llvm::DenseMap<mlir::Value, SharedStorage>
chooseSharedStorage(KernelOp kernel, const SharedStorageTarget &target);

/// Records \p plan on the shared allocations of \p kernel:
/// `tile.storage = {kind = "row_swizzle"|"panels", chunks = N : i64}` or
/// `{kind = "lds_swizzle", vec = V : i64, per_phase = P : i64, max_phase = M
/// : i64}`; none for row-major. Plans already there are replaced.
void recordSharedStorage(
    KernelOp kernel, const llvm::DenseMap<mlir::Value, SharedStorage> &plan);

/// The plan recorded on \p kernel (its module marked kStoragePlanned), for
/// the printer of \p target. Fails, with an error at the allocation, on a
/// plan that printer cannot address: `tile.storage` that is no dictionary
/// of a known kind with its integer fields, on an allocation that is not a
/// static shared buffer; a row swizzle whose chunks are not its rows'
/// 16-byte chunks (2, 4 or a multiple of 8); panels whose chunks are not
/// the 32-, 64- or 128-byte swizzle the buffer's descriptors read
/// (`tile.swizzle`), or on HIP; an LDS swizzle on CUDA or with fields that
/// are not powers of two whose runs and phases fit a row; a buffer whose
/// descriptors read panels (chooseSharedStorage) stored otherwise. With
/// \p quiet, fails without reporting.
mlir::FailureOr<llvm::DenseMap<mlir::Value, SharedStorage>>
getRecordedSharedStorage(KernelOp kernel, const SharedStorageTarget &target,
                         bool quiet = false);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_SHAREDSTORAGEPLAN_H
