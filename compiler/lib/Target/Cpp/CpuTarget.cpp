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

std::vector<std::string>
tlc::target::getCpuCompileFlags(llvm::ArrayRef<std::string> flags) {
  std::vector<std::string> out;
  for (const std::string &f : flags)
    out.push_back(f == "-O2" ? "-O3" : f);
  // -O3: the vectoriser (and loop versioning for unit strides) on the
  // copies, T.Parallel loops and conversions. The value of every operation
  // is unchanged by the other three: no fused multiply-add (the reference
  // rounds every product and every sum, whatever the host's instruction
  // set; cpu/gemm.h fuses only products that are exact, which rounds the
  // same way), and only errno and floating-point exception flags, which
  // kernels cannot observe, are given up.
  for (const char *f :
       {"-ffp-contract=off", "-fno-math-errno", "-fno-trapping-math"})
    out.push_back(f);
  return out;
}

LogicalResult tlc::target::buildCpuArtifacts(ModuleOp module,
                                             llvm::StringRef outDir,
                                             const CpuBuildOptions &options) {
  artifact::HostCompileOptions compile = options.compile;
  compile.flags = getCpuCompileFlags(compile.flags);
  if (std::optional<std::string> pch = getCpuPrecompiledHeader(compile))
    compile.unkeyedFlags = {"-include", *pch};
  KernelArtifactWriter writer(outDir, "CPU", options.log);
  LogicalResult walked = forEachKernelToBuild(
      module, options.kernelFilter,
      [&](tile::FuncOp func, artifact::Manifest &manifest) {
        auto kernel = emitCpuKernel(func, options.emit);
        if (failed(kernel))
          return WalkResult::skip();
        artifact::ArtifactBundle bundle;
        bundle.manifest = std::move(manifest);
        bundle.manifest.target = "cpu";
        bundle.manifest.entry = kernel->entry;
        bundle.manifest.layoutsOf = kernel->layoutsOf;
        bundle.manifest.sourceMapFiles = kernel->files;
        bundle.manifest.sourceMap = kernel->sourceMap;
        bundle.source = std::move(kernel->source);
        bundle.extraFiles.push_back({"tlc_cpu.h", getCpuDeviceHeader().str()});
        writer.add(func, std::move(bundle), compile);
        return WalkResult::advance();
      });
  LogicalResult written = writer.finish();
  return success(succeeded(walked) && succeeded(written));
}
