//===- Pipelines.cpp - Pass pipelines of the Tile dialect -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void tlc::tile::buildGpuLoweringPipeline(OpPassManager &pm) {
  // Per-range fragment copies first: a repeated statement of a staged
  // loop takes its place in the schedule the rotation reads.
  // Before anything plans stages or wgmma operands.
  pm.addPass(createTilePadAnnotatedTiles());
  pm.addPass(createTileGemmDeepenRing());
  pm.addPass(createTileGemmWideN());
  pm.addPass(createTileSplitRangeFragments());
  pm.addPass(createTileRotatePipelines());
  pm.addPass(createTileLowerIm2col());
  pm.addPass(createTilePlanPipelines());
  pm.addPass(createTilePlanWgmma());
  pm.addPass(createTilePlanTcgen05());
  pm.addPass(createTilePlanSharedMemory());
  pm.addPass(createTilePlanTma());
  pm.addPass(createTileLowerCopyCluster());
  pm.addPass(createTileSplitMasks());
  pm.addPass(createTileReverseBlocks());
  pm.addPass(createTileWarpSpecialize());
  pm.addPass(createTilePersistentGemm());
  pm.addPass(createTileGemmEpilogueBands());
  pm.addPass(createTileGemmPingPong());
  pm.addPass(createTileGemmCluster());
  pm.addPass(createTileInsertBarriers());
  pm.addPass(createTileLegalizeBounds());
  pm.addPass(createTilePlanCopies());
  pm.addPass(createTilePlanParallelLoops());
  pm.addPass(createTilePlanSharedStorage());
  pm.addPass(createTilePlanThreadRanges());
  pm.addPass(createTilePlanPipelineWaits());
  pm.addPass(createTileAssignFragmentLayouts());
  // After the layouts: the vector widths are the printer's layouts' runs.
  pm.addPass(createTilePlanParallelVectors());
  pm.addPass(createTilePlanFragmentExchanges());
  pm.addPass(createTilePlanScratchAreas());
}

void tlc::tile::setGpuTarget(ModuleOp module, llvm::StringRef target) {
  if (target.empty() || module->hasAttr("tile.gpu_target") ||
      module->hasAttr("tile.gpu_lowered"))
    return;
  module->setAttr("tile.gpu_target",
                  StringAttr::get(module.getContext(), target));
}

llvm::StringRef tlc::tile::getGpuTarget(ModuleOp module,
                                        llvm::StringRef option) {
  if (!option.empty())
    return option;
  if (auto attr = module->getAttrOfType<StringAttr>("tile.gpu_target"))
    return attr.getValue();
  return {};
}

LogicalResult
tlc::tile::runGpuLowering(ModuleOp module,
                          llvm::function_ref<void(PassManager &)> instrument) {
  if (module->hasAttr("tile.gpu_lowered"))
    return success();
  PassManager pm(module.getContext());
  pm.enableVerifier(false);
  buildGpuLoweringPipeline(pm);
  if (instrument)
    instrument(pm);
  if (failed(pm.run(module)))
    return failure();
  module->setAttr("tile.gpu_lowered", UnitAttr::get(module.getContext()));
  return success();
}

bool tlc::tile::isGpuTarget(llvm::StringRef target) {
  return target.starts_with("cuda:") || target.starts_with("hip:");
}

llvm::StringRef tlc::tile::forEachGpuKernel(
    ModuleOp module, llvm::StringRef targetOption,
    llvm::function_ref<void(FuncOp, KernelOp)> planKernel) {
  llvm::StringRef name = getGpuTarget(module, targetOption);
  if (!isGpuTarget(name))
    return {}; // no GPU target: nothing to plan for
  module.walk([&](FuncOp func) {
    if (hasLoweringFailed(func))
      return;
    func.walk([&](KernelOp kernel) { planKernel(func, kernel); });
  });
  return name;
}

void tlc::tile::forEachSm90aKernel(
    ModuleOp module, llvm::StringRef targetOption,
    llvm::function_ref<void(KernelOp)> planKernel) {
  forEachKernelOfArch(module, targetOption, "sm_90a", planKernel);
}

void tlc::tile::forEachKernelOfArch(
    ModuleOp module, llvm::StringRef targetOption, llvm::StringRef arch,
    llvm::function_ref<void(KernelOp)> planKernel) {
  llvm::StringRef name = getGpuTarget(module, targetOption);
  name.consume_front("cuda:");
  if (name != arch)
    return;
  module.walk([&](FuncOp func) {
    if (hasLoweringFailed(func) || !getUnboundTileParameters(func).empty())
      return;
    func.walk([&](KernelOp kernel) { planKernel(kernel); });
  });
}

/// The description of tile-lower-gpu: the passes it runs, in order, as
/// buildGpuLoweringPipeline adds them (so it cannot omit one).
static std::string describeGpuLowering() {
  OpPassManager pm(ModuleOp::getOperationName());
  tlc::tile::buildGpuLoweringPipeline(pm);
  std::string text =
      "the target-independent GPU lowering after layout inference (";
  llvm::interleave(
      pm.getPasses(), [&](Pass &pass) { text += pass.getArgument(); },
      [&] { text += ", "; });
  return text + ")";
}

void tlc::tile::registerTilePipelines() {
  PassPipelineRegistration<>(
      "tile-lower-gpu", describeGpuLowering(),
      [](OpPassManager &pm) { buildGpuLoweringPipeline(pm); });
}
