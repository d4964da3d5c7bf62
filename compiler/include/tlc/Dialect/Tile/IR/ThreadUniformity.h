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

#include "mlir/IR/Value.h"

namespace tlc::tile {

/// True when \p v may differ between the threads of a block: it is
/// computed from the thread index (`tile.thread_binding`), a T.Parallel
/// variable, or a register buffer that some thread wrote with such a value.
/// Block indices, loop counters over uniform bounds, loads of global or
/// shared memory at uniform indices, and local variables written only with
/// uniform values are the same in every thread. Conservative: true where
/// the walk gives up.
bool mayVaryAcrossThreads(mlir::Value v);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_THREADUNIFORMITY_H
