//===- tlc-opt.cpp - tlc's MLIR optimizer driver --------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-opt` parses, verifies, transforms and prints Tile IR, like `mlir-opt`
// restricted to the dialects (tile, arith, math, builtin) and passes tlc
// uses. It is the driver of the dialect's lit tests.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileDialect.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<tlc::tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect>();
  // Generic cleanups that are useful on Tile IR.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  // Tile dialect passes (--tile-infer-layout, ...).
  tlc::tile::registerTileTransformsPasses();
  tlc::tile::registerTilePipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tlc optimizer driver\n", registry));
}
