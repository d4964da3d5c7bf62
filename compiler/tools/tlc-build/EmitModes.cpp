//===- EmitModes.cpp - tlc-build's --emit modes that lower ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "EmitModes.h"
#include "Inputs.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Driver/LayoutViews.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"
#include "tlc/Target/CUDA/CUDATarget.h"
#include "tlc/Target/Cpp/CppEmitter.h"
#include "tlc/Target/HIP/HIPTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace tlc::build {

int emitGenerated(driver::Driver &drv, llvm::ArrayRef<std::string> inputs,
                  llvm::StringRef kind, llvm::StringRef targetName,
                  bool lineDirectives, const driver::LoweringOptions &lowering,
                  llvm::StringRef layoutsOf) {
  const driver::DriverOptions &opts = drv.getOptions();
  llvm::StringRef kernelFilter = opts.eval.kernelFilter;
  bool isCuda = targetName.starts_with("cuda:");
  bool isHip = targetName.starts_with("hip:");
  if (kind == "hip" && !isHip) {
    llvm::errs() << "tlc-build: error: --emit=hip needs a HIP --target "
                    "(hip:gfx90a, hip:gfx942, hip:gfx950), not '"
                 << targetName << "'\n";
    return 2;
  }
  if (kind == "lowered" && !driver::hasLoweredLevel(targetName)) {
    llvm::errs() << "tlc-build: error: --emit=lowered: --target=" << targetName
                 << " has no lowered level (the CPU target prints Tile IR "
                    "directly: --emit=tile, --emit=cpp)\n";
    return 2;
  }
  if (kind == "cuda" && !isCuda) {
    llvm::errs() << "tlc-build: error: --emit=cuda needs a CUDA --target "
                    "(cuda:sm_80 ... cuda:sm_120a), not '"
                 << targetName << "'\n";
    return 2;
  }
  if (kind == "cpp" && targetName != "cpu") {
    llvm::errs() << "tlc-build: error: --emit=cpp prints the CPU target's "
                    "C++; use --target=cpu\n";
    return 2;
  }
  std::vector<std::string> cudaArchs, hipArchs;
  if (isCuda &&
      !readCudaArchitectures(("--emit=" + kind).str(), targetName, cudaArchs))
    return 2;
  if (isHip &&
      !readHipArchitectures(("--emit=" + kind).str(), targetName, hipArchs))
    return 2;
  std::vector<driver::FileResult> results;
  if (!analyzeInputs(drv, inputs, results))
    return 2;
  build::BuildDiagnostics diags;
  diags.target.resize(results.size());
  bool anyError = false;
  llvm::raw_ostream &os = llvm::outs();
  for (auto [index, r] : llvm::enumerate(results)) {
    if (results.size() > 1)
      os << "==> " << r.path << " <==\n";
    if (hasErrors(r.diagnostics)) {
      anyError = true;
      continue;
    }
    if (!r.analysis.module)
      continue;
    mlir::ModuleOp module = *r.analysis.module;
    BackendDiagnostics diagnostics(module.getContext(), r, opts.showSourceLines,
                                   &diags.target[index]);
    if (mlir::failed(driver::lowerForTarget(module, targetName, lowering))) {
      anyError = true;
      continue;
    }
    diagnostics.stage = build::TargetStage::Artifact;
    if (kind == "lowered") {
      mlir::OpPrintingFlags flags;
      flags.assumeVerified();
      if (opts.printLocations)
        flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
      module.print(os, flags);
      os << "\n";
      anyError |=
          llvm::any_of(module.getOps<tile::FuncOp>(), [](tile::FuncOp f) {
            return tile::hasLoweringFailed(f);
          });
    } else if (kind == "cuda") {
      target::CudaEmitOptions emit;
      emit.lineDirectives = lineDirectives;
      if (unsigned cc = target::getOldestComputeCapability(cudaArchs))
        emit.minComputeCapability = cc;
      anyError |= mlir::failed(
          target::translateModuleToCuda(module, os, emit, kernelFilter));
    } else if (kind == "hip") {
      target::CudaEmitOptions emit;
      emit.lineDirectives = lineDirectives;
      anyError |= mlir::failed(target::translateModuleToCuda(
          module, os, target::getHipEmitOptions(hipArchs, emit), kernelFilter));
    } else {
      target::CppEmitOptions emit;
      emit.layoutsOf = layoutsOf.str();
      anyError |= mlir::failed(
          target::translateModuleToCpp(module, os, emit, kernelFilter));
    }
  }
  os.flush();
  if (!reportFiles().diagnostics.empty() &&
      !build::writeDiagnosticsFile(reportFiles().diagnostics, results, diags))
    return 2;
  return anyError ? 1 : 0;
}

int emitLayoutSvg(driver::Driver &drv, llvm::ArrayRef<std::string> inputs,
                  llvm::StringRef outputDir, llvm::StringRef buffer,
                  llvm::StringRef targetName) {
  std::vector<driver::FileResult> results;
  if (!analyzeInputs(drv, inputs, results))
    return 2;
  bool anyError = false;
  std::vector<driver::LayoutView> views;
  for (driver::FileResult &r : results) {
    anyError |= hasErrors(r.diagnostics);
    for (driver::LayoutView &v :
         driver::collectLayoutViews(r.analysis, *r.tree, targetName))
      if (buffer.empty() || v.name == buffer)
        views.push_back(std::move(v));
  }
  if (views.empty()) {
    llvm::errs() << "tlc-build: error: --emit=layout-svg: no "
                 << (buffer.empty() ? std::string("fragment or shared buffer")
                                    : "buffer named '" + buffer.str() + "'")
                 << " with a layout"
                 << (anyError ? " (the file has errors)" : "") << "\n";
    return anyError ? 1 : 2;
  }
  if (outputDir.empty()) {
    if (views.size() > 1) {
      llvm::errs() << "tlc-build: error: --emit=layout-svg without -o "
                      "prints one picture, and "
                   << views.size()
                   << " buffers match; choose one with --buffer=NAME "
                      "(--kernel=K, -D to bind one instance) or write them "
                      "all with -o DIR:\n";
      for (const driver::LayoutView &v : views)
        llvm::errs() << "  " << v.name << " in "
                     << (v.instance.empty() ? v.kernel : v.instance) << "\n";
      return 2;
    }
    llvm::Expected<layout::LayoutMap> map = views.front().buildMap();
    if (!map) {
      llvm::errs() << "tlc-build: error: " << views.front().name << ": "
                   << llvm::toString(map.takeError()) << "\n";
      return 1;
    }
    llvm::outs() << layout::renderLayoutSvg(*map);
    return anyError ? 1 : 0;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << "tlc-build: error: cannot create '" << outputDir
                 << "': " << ec.message() << "\n";
    return 2;
  }
  for (const driver::LayoutView &v : views) {
    llvm::Expected<layout::LayoutMap> map = v.buildMap();
    if (!map) {
      llvm::errs() << "tlc-build: error: " << v.name << ": "
                   << llvm::toString(map.takeError()) << "\n";
      anyError = true;
      continue;
    }
    llvm::SmallString<256> path(outputDir);
    llvm::sys::path::append(path, driver::layoutFileName(v));
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      llvm::errs() << "tlc-build: error: cannot write '" << path
                   << "': " << ec.message() << "\n";
      return 2;
    }
    os << layout::renderLayoutSvg(*map);
    llvm::outs() << path << "\n";
  }
  return anyError ? 1 : 0;
}

} // namespace tlc::build
