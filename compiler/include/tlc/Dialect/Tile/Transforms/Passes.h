//===- Passes.h - Tile dialect transformation passes ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declarations and registration of the Tile dialect's passes (one per file
// under compiler/lib/Dialect/Tile/Transforms, declared in Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TLC_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <memory>

namespace tlc {
namespace tile {

class FuncOp;
class KernelOp;

#define GEN_PASS_DECL
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"

/// Adds the target-independent GPU lowering passes that follow layout
/// inference, in order (`tlc-opt --help` lists them under tile-lower-gpu;
/// docs/ARCHITECTURE.md describes each). The CUDA and HIP printers read
/// what they decide.
void buildGpuLoweringPipeline(mlir::OpPassManager &pm);

/// Runs buildGpuLoweringPipeline on \p module once: a module already
/// lowered (the unit attribute `tile.gpu_lowered`, set after a successful
/// run) is left as it is, so a driver that traced the passes and the back
/// end that needs them do not run them twice. \p instrument may configure
/// the pass manager first (IR printing). Between passes the IR is not
/// verified: an instance the evaluator built invalidly fails alone, at the
/// op a back end cannot print, instead of stopping every instance of the
/// file. Functions a pass cannot lower are marked (hasLoweringFailed) and
/// diagnosed; this fails only when the pass manager does.
mlir::LogicalResult runGpuLowering(
    mlir::ModuleOp module,
    llvm::function_ref<void(mlir::PassManager &)> instrument = nullptr);

/// Records the GPU target \p target (`cuda:sm_90a`, `cuda:sm_80,sm_90a`,
/// `hip:gfx942`, ...) as the module's `tile.gpu_target` attribute, which
/// target-specific lowering passes (tile-plan-wgmma) read; a module that
/// already has one or is already lowered keeps it.
void setGpuTarget(mlir::ModuleOp module, llvm::StringRef target);

/// The GPU target a pass plans for: its \p option when set, else the
/// module's `tile.gpu_target` ("" when neither names one).
llvm::StringRef getGpuTarget(mlir::ModuleOp module, llvm::StringRef option);

/// Whether \p target names a target the GPU planning passes plan for
/// (`cuda:*` or `hip:*`).
bool isGpuTarget(llvm::StringRef target);

/// The driver of a GPU planning pass: when the target (\p targetOption, the
/// pass's `target` option, else the module's `tile.gpu_target`) is a GPU
/// target (isGpuTarget), calls \p planKernel on every kernel of each
/// function whose lowering has not failed, with its function, and returns
/// the target; returns "" and calls nothing otherwise.
llvm::StringRef
forEachGpuKernel(mlir::ModuleOp module, llvm::StringRef targetOption,
                 llvm::function_ref<void(FuncOp, KernelOp)> planKernel);

/// Calls \p planKernel on every kernel a Hopper-only pass plans: when the
/// target (\p targetOption, the pass's `target` option, else the module's
/// `tile.gpu_target`) is `cuda:sm_90a` alone, the kernels of each function
/// whose lowering has not failed and whose tile parameters are all bound.
void forEachSm90aKernel(mlir::ModuleOp module, llvm::StringRef targetOption,
                        llvm::function_ref<void(KernelOp)> planKernel);

/// The same for the CUDA architecture \p arch alone (`sm_100a`).
void forEachKernelOfArch(mlir::ModuleOp module, llvm::StringRef targetOption,
                         llvm::StringRef arch,
                         llvm::function_ref<void(KernelOp)> planKernel);

/// Emits an error at every shared-memory access under \p root that
/// provably leaves its buffer on every run (tile-check-shared-bounds has
/// the rules), with the buffer's allocation as a note; fails when there is
/// one.
mlir::LogicalResult checkSharedBounds(mlir::Operation *root);

/// Warns at every tile.gemm under \p root that accumulates into a register
/// buffer nothing has written yet (tile-check-undefined-accumulators has
/// the rules), with the allocation as a note.
void warnUndefinedAccumulators(mlir::Operation *root);

/// Registers `--tile-lower-gpu`, the pipeline buildGpuLoweringPipeline
/// builds, for tlc-opt.
void registerTilePipelines();

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_PASSES_H
