//===- LayoutInference.h - Layout inference over one kernel -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The solver behind `--tile-infer-layout`: computes, for one `tile.kernel`,
// a Fragment for every static `local.fragment` allocation and every
// `tile.parallel` loop, and a Layout for every static shared allocation,
// using TileLang's strict / common / free levels (see Passes.td). The pass
// attaches the results as attributes; tests and the driver may use the
// result directly.
//
// Not thread-safe; one inference per call, no state survives it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_LAYOUTINFERENCE_H
#define TLC_DIALECT_TILE_TRANSFORMS_LAYOUTINFERENCE_H

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/Layout.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tlc {
namespace tile {

/// The target facts layout inference needs.
struct LayoutTarget {
  /// Which gemm layouts apply.
  layout::GemmArch arch = layout::GemmArch::SM80;
  /// The target has tensor memory (sm_100): a fragment copied to or from
  /// it holds one row per thread (tcgen05.ld / st .32x32b).
  bool tensorMemory = false;
};

/// Parses a target name: `sm_80`, `sm_86`, `sm_89`, `sm_90`, `sm_90a`,
/// `gfx90a`, `gfx942`, optionally prefixed with `cuda:` / `hip:`.
/// std::nullopt for anything else (including `cpu`).
std::optional<LayoutTarget> parseLayoutTarget(llvm::StringRef name);

/// The layouts of one kernel.
struct KernelLayouts {
  /// Threads per block of the kernel.
  int64_t blockThreads = 0;
  /// Layouts of the `local.fragment` allocations (keys are alloc results),
  /// in program order.
  llvm::MapVector<mlir::Value, layout::Fragment> fragments;
  /// Layouts of the `shared` / `shared.dyn` allocations, in program order.
  llvm::MapVector<mlir::Value, layout::Layout> shared;
  /// Thread partition of every `tile.parallel` loop (keys are ParallelOp
  /// operations), over the loop's iteration space.
  llvm::MapVector<mlir::Operation *, layout::Fragment> loops;
};

/// The gemms of \p kernel that `tile-plan-wgmma` puts on wgmma.mma_async
/// for sm_90a (all of them, or none: see the pass's description); none
/// when its pass configs set `tl.disable_wgmma`. Layout inference on sm_90
/// gives a kernel whose gemms all keep mma.sync the sm_80 layouts, so its
/// hints describe the code the printer generates.
llvm::SmallVector<GemmOp> selectWgmmaGemms(KernelOp kernel);

/// The shared allocations of \p kernel that `tile-plan-wgmma` stores (as
/// `tile.swizzle`) in the swizzled panels the wgmma descriptors read, with
/// the swizzle's row bytes (32, 64 or 128): the shared operands of
/// selectWgmmaGemms(), and the buffers of `T.initialize_wgmma_descriptor`
/// whose `layout` is one swizzled panel. The pass applies exactly this on
/// sm_90a; the hints and pictures ask it of a kernel not lowered yet.
llvm::SmallVector<std::pair<AllocOp, int64_t>> planWgmmaPanels(KernelOp kernel);

/// The shared allocations of \p kernel that `tile-plan-tcgen05` stores in
/// descriptor panels on sm_100a, with the swizzle's row bytes: the shared
/// operands of the gemms accumulating into tensor memory that tcgen05.mma
/// computes. The pass applies exactly this (its other gemms are errors).
llvm::SmallVector<std::pair<AllocOp, int64_t>>
planTcgen05Panels(KernelOp kernel);

/// Runs layout inference on \p kernel. Fails (after emitting an error at
/// the op that could not be satisfied, with a note at the op whose layout
/// it contradicts) on a layout conflict or an impossible gemm. Kernels
/// without a static thread count and buffers with symbolic shapes are
/// skipped: they get no entry. Existing `layout` / `loop_layout`
/// attributes are read back through \p readAttr (when set) and honoured
/// as strict.
mlir::FailureOr<KernelLayouts> inferKernelLayouts(KernelOp kernel,
                                                  const LayoutTarget &target);

/// The bit width of a buffer element type (vectors count their scalar
/// element); 0 when unknown.
unsigned elementBitWidth(mlir::Type type);

/// The Python name of a buffer (from a NameLoc on its definition), or a
/// placeholder `buffer` when there is none.
std::string bufferDisplayName(mlir::Value buffer);

/// The layout library's name for a `tile.gemm` warp policy.
layout::WarpPolicy toLayoutWarpPolicy(GemmWarpPolicy policy);

/// The accumulator layout of a gemm whose C the program annotated with
/// \p given (an element -> (thread, register) map it wrote itself, as
/// TileLang's WGMMA atom emitter's `make_mma_store_layout` for its
/// `block_row_warps x block_col_warps` warps): the C layout of \p config
/// under the first of its own warp policy, FullRow, FullCol and Square
/// that is equivalent to \p given, with that policy. The layout returned
/// carries the instruction and warp grid (FragmentOrigin) the printers
/// read; std::nullopt when no policy's grid gives \p given.
std::optional<std::pair<layout::WarpPolicy, layout::Fragment>>
matchAnnotatedAccumulator(const layout::GemmConfig &config,
                          llvm::ArrayRef<int64_t> shape,
                          const layout::Fragment &given);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_LAYOUTINFERENCE_H
