//===- BufferEffects.h - What Tile ops read and write -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The buffer facts every planning step needs, in one place: the allocation
// or parameter behind a view (`tile.region`, `tile.view`), the buffers a
// statement reads and writes (nested ops included), and the live range of a
// buffer over the statements of a block. The shared-memory budget check of
// the evaluator, the pipeline and shared-memory planning passes and
// barrier placement (tile-insert-barriers) all use these, so they agree on
// what a statement touches.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_BUFFEREFFECTS_H
#define TLC_DIALECT_TILE_IR_BUFFEREFFECTS_H

#include "tlc/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>

namespace tlc::tile {

/// The `tile.alloc` result or function argument that \p buffer views,
/// through any chain of `tile.region` and `tile.view`.
mlir::Value getRootBuffer(mlir::Value buffer);

/// The `tile.strides` of \p buffer when it is a `tile.func` parameter that
/// has them (one i64 or string attribute per dimension: a transposed or
/// padded view, `T.StridedTensor` / `T.Buffer(strides=)`), else null: the
/// parameter is dense row-major.
mlir::ArrayAttr getParamStrides(mlir::Value buffer);

/// The element strides of \p buffer's root when they are all known at build
/// time: its `tile.strides` as integers, or the dense row-major strides of
/// a static shape; std::nullopt when one is symbolic.
std::optional<llvm::SmallVector<int64_t>> getStaticStrides(mlir::Value buffer);

/// Whether consecutive elements of the innermost dimension of \p buffer's
/// root are consecutive in memory: it has no `tile.strides`, or its last
/// one is the constant 1. Vector accesses need it.
bool hasUnitInnerStride(mlir::Value buffer);

/// Bytes one element of type \p t takes in a buffer as the printers store
/// it (sub-byte types take a byte; `index` 8), 0 for a non-scalar type.
int64_t getElementStorageBytes(mlir::Type t);

/// Whether elements of type \p t are stored two a byte in global and shared
/// memory (fp4 e2m1, int4, uint4): no byte-wise vector copies of them.
bool isPackedNibble(mlir::Type t);

/// The memory scope of a buffer value.
MemoryScope getScopeOf(mlir::Value buffer);

/// The root buffers an operation (and everything nested in it) reads and
/// writes, restricted to the scopes \p keep accepts.
struct BufferAccesses {
  llvm::SmallPtrSet<mlir::Value, 4> reads, writes;
};
BufferAccesses getBufferAccesses(mlir::Operation *op,
                                 bool (*keep)(MemoryScope) = nullptr);

/// Positions of the statements of a block (the ops directly in it).
using StatementIndex = llvm::DenseMap<mlir::Operation *, int>;
StatementIndex indexStatements(mlir::Block &body);

/// The statement of \p body that contains \p op (itself or an ancestor),
/// or -1 when \p op is not inside \p body.
int getStatementOf(mlir::Block &body, mlir::Operation *op,
                   const StatementIndex &index);

/// The first and last statement of \p body that use \p buffer (through
/// views; a loop or other region op is one statement; a layout annotation
/// is no use), or std::nullopt when none does.
std::optional<std::pair<int, int>> getLiveRange(mlir::Block &body,
                                                mlir::Value buffer,
                                                const StatementIndex &index);

/// Whether the contents of the shared allocation \p buffer are dead at
/// \p at (an operation nested in \p kernelBody that does not touch it):
/// on every path from \p at to the end of the kernel, the buffer is
/// written whole (a `T.copy`, `T.fill` or `T.clear` into the allocation
/// itself) before any of it is read, or it is not read at all. Loops
/// (`T.serial`, `T.Pipelined`) may run any number of times, including
/// none, and their next iteration counts as a path; within one iteration a
/// buffer whose first access is a whole write is dead before it, so a
/// loop's scratch may reuse the bytes of buffers the iteration has
/// finished with. Anything the analysis does not model (an unknown
/// region, an access through an intrinsic) counts as a read. Whoever
/// writes such bytes at \p at must still order the accesses (a barrier
/// before and after).
bool isBufferDeadAt(mlir::Block &kernelBody, mlir::Value buffer,
                    mlir::Operation *at);

/// One level of a nested live range: statements [first, last] of block.
struct LiveLevel {
  mlir::Block *block = nullptr;
  int first = 0, last = -1;
};
using NestedLiveRange = llvm::SmallVector<LiveLevel, 2>;

/// The live range of \p buffer from the kernel body \p body down: while
/// every use lies in one statement that is a `tile.for` whose iterations
/// carry nothing of the buffer (no path from the start of its body reads
/// the buffer before writing it whole, see isBufferDeadAt) or one branch of
/// a `tile.if`, that statement is a level of its own (first == last) and
/// the range continues in its body; the last level holds the first and last
/// statement that use the buffer. Empty when nothing uses it.
NestedLiveRange getNestedLiveRange(mlir::Block &body, mlir::Value buffer);

/// Whether two nested live ranges can hold at the same time.
bool nestedLiveRangesOverlap(llvm::ArrayRef<LiveLevel> a,
                             llvm::ArrayRef<LiveLevel> b);

/// The largest sum of bytes of ranges live at one point: over the
/// statements of each level, the ranges ending there plus the largest
/// peak among the blocks nested in that statement (a lower bound of any
/// placement). Saturates at INT64_MAX.
int64_t getNestedLivePeak(
    llvm::ArrayRef<std::pair<const NestedLiveRange *, int64_t>> ranges);

class FuncOp;

/// The meta parameters of \p func (factory parameters no call site bound)
/// that shape some tile buffer (shared, fragment, local), in declaration
/// order. Such an instance exists for the editor only: no code can be
/// generated for it until the parameters have values, so the lowering
/// passes leave it alone and the back ends do not build it.
llvm::SmallVector<llvm::StringRef> getUnboundTileParameters(FuncOp func);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_BUFFEREFFECTS_H
