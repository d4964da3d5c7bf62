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
  bool ok = true;
  for (auto func : module.getOps<tile::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    auto manifest = describeKernel(func);
    if (failed(manifest)) {
      ok = false;
      continue;
    }
    if (!options.kernelFilter.empty() &&
        options.kernelFilter != manifest->name &&
        options.kernelFilter != manifest->kernel)
      continue;
    auto kernel = emitCpuKernel(func);
    if (failed(kernel)) {
      ok = false;
      continue;
    }
    artifact::ArtifactBundle bundle;
    bundle.manifest = std::move(*manifest);
    bundle.manifest.target = "cpu";
    bundle.manifest.entry = kernel->entry;
    bundle.manifest.sourceMapFiles = kernel->files;
    bundle.manifest.sourceMap = kernel->sourceMap;
    bundle.source = std::move(kernel->source);
    bundle.extraFiles.push_back({"tlc_cpu.h", getCpuDeviceHeader().str()});
    bool cached = false;
    if (llvm::Error e = artifact::writeArtifact(bundle, outDir,
                                                options.compile, &cached)) {
      func.emitError() << "cannot write the CPU artifact of '"
                       << bundle.manifest.name
                       << "': " << llvm::toString(std::move(e));
      ok = false;
      continue;
    }
    if (options.log) {
      llvm::SmallString<256> so(outDir);
      llvm::sys::path::append(so, bundle.manifest.binary);
      *options.log << "wrote " << so << (cached ? " (cached)" : "") << "\n";
    }
  }
  return success(ok);
}
