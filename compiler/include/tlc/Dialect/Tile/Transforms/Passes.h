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

#define GEN_PASS_DECL
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"

/// Adds the target-independent GPU lowering passes that follow layout
/// inference, in order: tile-plan-pipelines, tile-plan-shared-memory. The
/// CUDA printer reads what they decide.
void buildGpuLoweringPipeline(mlir::OpPassManager &pm);

/// Registers `--tile-lower-gpu`, the pipeline buildGpuLoweringPipeline
/// builds, for tlc-opt.
void registerTilePipelines();

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_PASSES_H
