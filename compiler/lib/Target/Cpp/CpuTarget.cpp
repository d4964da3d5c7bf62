//===- CpuTarget.cpp - Artifacts of the CPU reference target --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Cpp/CpuTarget.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Target/Cpp/CppEmitter.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;

llvm::StringRef tlc::target::getCpuDeviceHeader() {
  static const char text[] =
#include "CpuDeviceHeader.inc"
      ;
  return llvm::StringRef(text, sizeof(text) - 1);
}

LogicalResult tlc::target::buildCpuArtifacts(ModuleOp module,
                                             llvm::StringRef outDir,
                                             const CpuBuildOptions &options) {
  return forEachKernelToBuild(
      module, options.kernelFilter,
      [&](tile::FuncOp func, artifact::Manifest &manifest) {
        auto kernel = emitCpuKernel(func);
        if (failed(kernel))
          return WalkResult::skip();
        artifact::ArtifactBundle bundle;
        bundle.manifest = std::move(manifest);
        bundle.manifest.target = "cpu";
        bundle.manifest.entry = kernel->entry;
        bundle.manifest.sourceMapFiles = kernel->files;
        bundle.manifest.sourceMap = kernel->sourceMap;
        bundle.source = std::move(kernel->source);
        bundle.extraFiles.push_back({"tlc_cpu.h", getCpuDeviceHeader().str()});
        if (failed(writeKernelArtifact(func, bundle, outDir, options.compile,
                                       "CPU", options.log)))
          return WalkResult::skip();
        return WalkResult::advance();
      });
}
