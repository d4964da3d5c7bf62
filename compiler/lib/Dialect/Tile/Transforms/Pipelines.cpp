//===- Pipelines.cpp - Pass pipelines of the Tile dialect -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void tlc::tile::buildGpuLoweringPipeline(OpPassManager &pm) {
  pm.addPass(createTilePlanPipelines());
  pm.addPass(createTilePlanSharedMemory());
}

void tlc::tile::registerTilePipelines() {
  PassPipelineRegistration<>(
      "tile-lower-gpu",
      "the target-independent GPU lowering after layout inference "
      "(tile-plan-pipelines, tile-plan-shared-memory)",
      [](OpPassManager &pm) { buildGpuLoweringPipeline(pm); });
}
