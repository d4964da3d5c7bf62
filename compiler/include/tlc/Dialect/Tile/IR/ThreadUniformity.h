//===- ThreadUniformity.h - Values every thread of a block shares -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Whether a scalar of a kernel may differ between the threads of a block.
// A GPU printer may place a block-wide barrier only in code every thread
// runs together: the kernel body, and loops and branches whose conditions
// are block-uniform (a block-sparse mask read at the block indices). A
// barrier under a condition on the thread index would hang.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_THREADUNIFORMITY_H
#define TLC_DIALECT_TILE_IR_THREADUNIFORMITY_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace tlc::tile {

/// True when \p v may differ between the threads of a block: it is
/// computed from the thread index (`tile.thread_binding`), a T.Parallel
/// variable, or a register buffer that some thread wrote with such a value.
/// Block indices, loop counters over uniform bounds, loads of global or
/// shared memory at uniform indices, and local variables written only with
/// uniform values are the same in every thread. Conservative: true where
/// the walk gives up.
bool mayVaryAcrossThreads(mlir::Value v);

/// The threads [lo, hi) of a block that run an operation: the whole block,
/// or the range that `T.ws(g, ...)` (contiguous warp groups of 128 threads)
/// or conditions `tx < c`, `tx >= c` (their else branches, and `and`s of
/// them) on threadIdx.x select. The else branch of a two-sided condition
/// (`64 <= tx < 96`) leaves two intervals; it has a range where conditions
/// inside it keep one (`elif 128 <= tx < 256`). TileLang lays out and
/// partitions a tile operation for the threads of its range.
struct ThreadRange {
  int64_t lo = 0, hi = 0;
  /// The innermost condition on the thread index that narrowed the range
  /// (null for the whole block).
  mlir::Operation *condition = nullptr;

  int64_t count() const { return hi - lo; }
  bool operator==(const ThreadRange &o) const {
    return lo == o.lo && hi == o.hi;
  }
  bool operator!=(const ThreadRange &o) const { return !(*this == o); }
  /// Whether the range is a whole number of warps of \p warpSize threads.
  bool warpAligned(int64_t warpSize = 32) const {
    return lo % warpSize == 0 && hi % warpSize == 0 && hi > lo;
  }
};

/// The thread range that runs \p op in a block of \p threads threads. On
/// failure, \p unrecognised (when given) is the enclosing `tile.if` whose
/// condition depends on the thread index in a way that is not a range
/// (`tx % 2 == 0`, a value read from a register).
std::optional<ThreadRange>
threadRangeOf(mlir::Operation *op, int64_t threads,
              mlir::Operation **unrecognised = nullptr);

/// The range of threads that runs \p region of \p ifOp as a unit of its
/// own: a branch whose condition depends on the thread index and selects a
/// whole number of warps (`T.ws(g)`, `tx < c` and their else branches).
/// The GPU printer partitions the tile operations of such a branch over
/// its threads and synchronises them with a named barrier; std::nullopt
/// for any other branch (block-uniform, or not a warp-aligned range).
std::optional<ThreadRange>
getBranchRange(mlir::Operation *ifOp, mlir::Region &region, int64_t threads);

/// Whether \p kernel orders its thread groups with mbarriers itself
/// (`T.alloc_barrier`, `T.create_list_of_mbarrier`, `T.mbarrier_*`,
/// `T.barrier_wait` / `T.barrier_arrive`): shared-memory accesses of
/// disjoint thread ranges are then the program's to order, not the
/// lowering's.
bool ordersThreadsWithMbarriers(mlir::Operation *kernel);

/// Whether \p op is raw TIR's block barrier
/// `T.tvm_storage_sync("shared")` (or `"shared.dyn"`).
bool isSharedStorageSync(mlir::Operation *op);

/// The first use of a value in a later stretch of \p body than the one
/// that computes it, where \p barriers (in order, straight in \p body)
/// split it into stretches; null when every value stays in its stretch. A
/// printer that runs each stretch of a T.Parallel body on its own (a loop
/// per stretch, or each stretch under its own thread tests) cannot carry a
/// value across a barrier.
mlir::Operation *findUseAcrossBarriers(mlir::Block &body,
                                       llvm::ArrayRef<mlir::Operation *> barriers);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_THREADUNIFORMITY_H
