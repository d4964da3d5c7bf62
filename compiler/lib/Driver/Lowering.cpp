//===- Lowering.cpp - The lowering passes a target needs ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/Lowering.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"

#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tlc;

bool tlc::driver::hasLoweredLevel(llvm::StringRef targetName) {
  return targetName.starts_with("cuda:") || targetName.starts_with("hip:");
}

std::vector<std::string>
tlc::driver::getLoweringPasses(llvm::StringRef targetName) {
  if (!hasLoweredLevel(targetName))
    return {};
  OpPassManager pm(ModuleOp::getOperationName());
  tile::buildGpuLoweringPipeline(pm);
  std::vector<std::string> flags;
  for (Pass &pass : pm.getPasses())
    flags.push_back(pass.getArgument().str());
  return flags;
}

LogicalResult tlc::driver::lowerForTarget(ModuleOp module,
                                          llvm::StringRef targetName,
                                          const LoweringOptions &options) {
  // What no target can build is diagnosed and marked before any
  // target-specific work; the back ends skip (and fail on) the marked
  // functions and build the others.
  (void)tile::checkBuildable(module);
  if (!hasLoweredLevel(targetName))
    return success();
  tile::setGpuTarget(module, targetName);
  target::registerScratchAreaMeasure();
  if (!options.printAfterAll && options.printAfter.empty())
    return tile::runGpuLowering(module);
  // The trace prints the whole module after the chosen passes; the context
  // must not be multithreaded for IR printing.
  std::vector<std::string> after = options.printAfter;
  bool all = options.printAfterAll;
  return tile::runGpuLowering(module, [&](PassManager &pm) {
    OpPrintingFlags flags;
    flags.assumeVerified();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/
        [after, all](Pass *pass, Operation *) {
          return all || llvm::is_contained(after, pass->getArgument().str());
        },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false,
        options.trace ? *options.trace : llvm::errs(), flags);
  });
}
