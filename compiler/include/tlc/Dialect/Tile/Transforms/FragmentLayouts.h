//===- FragmentLayouts.h - The GPU targets' fragment layouts ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which (thread, register) holds each element of every `local.fragment`
// buffer in the CUDA and HIP code. tile-assign-fragment-layouts chooses
// them (assignFragmentLayouts) and records each on the fragment's
// allocation or view as `tile.fragment_layout = #tile.fragment<...>`, with
// `tile.fragment_layouts_assigned` on the kernel; the printers read the
// record (readFragmentLayouts) and choose the same way themselves only for
// a kernel without one (IR that did not go through the pass).
//
// This is a propagation of its own, separate from layout inference's
// `layout` attributes (the two can disagree: a fragment only scalar code
// reads is inferred replicated where a loop's layout may be chosen here);
// recording it keeps the generated code what the printer made of it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTLAYOUTS_H
#define TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTLAYOUTS_H

#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/GemmLayouts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tlc::tile {

/// The attribute holding a fragment's layout (on its tile.alloc or
/// tile.view).
inline constexpr llvm::StringLiteral kFragmentLayoutAttr =
    "tile.fragment_layout";
/// The unit attribute on a kernel whose fragments' layouts are recorded.
inline constexpr llvm::StringLiteral kFragmentLayoutsAssigned =
    "tile.fragment_layouts_assigned";

/// What a GPU target contributes to the layouts.
struct FragmentLayoutTarget {
  /// "CUDA" or "HIP" (in diagnostics).
  llvm::StringRef name;
  /// The gemm operand layouts outside wgmma (mma.sync or MFMA).
  layout::GemmArch gemmArch;
};

/// The layout target of \p gpuTarget (`cuda:...`, `hip:...`); std::nullopt
/// for any other.
std::optional<FragmentLayoutTarget>
getFragmentLayoutTarget(llvm::StringRef gpuTarget);

/// The threads a fragment is laid out for: those of the tile operations
/// using it (the block's when no thread range narrows them), and the first
/// such operation (null when none does).
struct FragmentHome {
  ThreadRange range;
  mlir::Operation *user = nullptr;
};

/// The fragments \p op reads or writes (nested ops included), by their
/// allocation (through regions and views), in operand order.
llvm::SmallVector<mlir::Value, 4> getUsedFragments(mlir::Operation *op);

/// Each fragment allocation's home in \p kernel of \p blockThreads threads;
/// fails, with an error at the operation, when two tile operations on
/// different warp-aligned thread ranges use one fragment (\p targetName
/// names the target in the message).
mlir::FailureOr<llvm::DenseMap<mlir::Value, FragmentHome>>
getFragmentHomes(KernelOp kernel, int64_t blockThreads,
                 llvm::StringRef targetName);

/// Called for each fragment allocation and view in program order with its
/// layout, the op to blame for what the layout cannot do (its pinning
/// `T.annotate_layout`, else its definition) and its home's thread count.
using FragmentLayoutVisitor = llvm::function_ref<mlir::LogicalResult(
    mlir::Value fragment, const layout::Fragment &layout,
    mlir::Operation *blame, int64_t homeThreads)>;

/// Chooses every fragment's layout in \p kernel: gemm operands get the
/// target's instruction layouts (wgmma's where tile-plan-wgmma chose it),
/// `T.annotate_layout` pins are kept (a use needing another layout is
/// refused), tensor-memory copies give the tcgen05 32x32b layout, then
/// three rounds in program order propagate through reductions, views,
/// fragment copies and `T.Parallel`; the rest get the default partition
/// of their home's threads (fully replicated for rank-0 and scalar-only
/// fragments). Calls \p visit for each; fails, with an error at the op,
/// on the first layout it cannot choose or \p visit refuses.
mlir::LogicalResult
assignFragmentLayouts(KernelOp kernel, const FragmentLayoutTarget &target,
                      const llvm::DenseMap<mlir::Value, ThreadRange> &homes,
                      int64_t blockThreads, IndexIntervals &intervals,
                      FragmentLayoutVisitor visit);

/// Reads the layouts recorded on \p kernel and calls \p visit as
/// assignFragmentLayouts does; fails, with an error at the op, on a
/// malformed record (a fragment without `tile.fragment_layout`, one that is
/// no `#tile.fragment` or not of the buffer's shape, one on a buffer that
/// is no fragment).
mlir::LogicalResult
readFragmentLayouts(KernelOp kernel,
                    const llvm::DenseMap<mlir::Value, ThreadRange> &homes,
                    int64_t blockThreads, FragmentLayoutVisitor visit);

/// Whether \p kernel's fragment layouts are recorded.
inline bool hasFragmentLayouts(KernelOp kernel) {
  return kernel->hasAttr(kFragmentLayoutsAssigned);
}

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTLAYOUTS_H
