//===- tlc-translate.cpp - Translations out of Tile IR --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-translate` runs one translation on a Tile IR file, like
// `mlir-translate`; it drives the lit tests of the targets:
//
//   tlc-translate --tile-to-cpp in.mlir        C++ of the CPU target
//   tlc-translate --tile-to-manifest in.mlir   the manifest fields read off
//                                              the IR (JSON, one per func)
//   tlc-translate --tile-to-cuda in.mlir       CUDA C++ of the CUDA target
//   tlc-translate --tile-to-cuda-lines in.mlir   ... with #line directives
//   tlc-translate --tile-to-cuda-sourcemap in.mlir  kernels and source map
//   tlc-translate --tile-to-hip in.mlir        HIP C++ for AMD CDNA (the same
//                                              printer, GPULanguage::hip())
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileDialect.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"
#include "tlc/Target/Cpp/CppEmitter.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

static void registerTileDialects(DialectRegistry &registry) {
  registry.insert<tlc::tile::TileDialect, arith::ArithDialect,
                  math::MathDialect>();
}

static LogicalResult toCuda(Operation *op, raw_ostream &os,
                            const tlc::target::CudaEmitOptions &options) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  return tlc::target::translateModuleToCuda(module, os, options);
}

/// Prints, per function, its CUDA kernels (symbol, threads, dynamic shared
/// memory) and the source map of the CUDA text.
static LogicalResult printCudaSourceMap(Operation *op, raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  if (failed(tlc::tile::runGpuLowering(module)))
    return failure();
  for (auto func : module.getOps<tlc::tile::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    if (tlc::tile::hasLoweringFailed(func))
      return failure();
    auto k = tlc::target::emitCudaKernel(func);
    if (failed(k))
      return failure();
    for (const auto &l : k->launches)
      os << "kernel " << l.entry << " threads " << l.threads << " smem "
         << l.dynamicSharedMemory
         << (l.dynamicSharedMemoryExpr.empty()
                 ? std::string()
                 : " + " + l.dynamicSharedMemoryExpr)
         << "\n";
    for (const auto &e : k->sourceMap)
      os << e.generatedLine << " -> " << k->files[e.fileIndex] << ":" << e.line
         << ":" << e.column << "\n";
  }
  return success();
}

int main(int argc, char **argv) {
  TranslateFromMLIRRegistration toCudaPlain(
      "tile-to-cuda", "translate Tile IR to CUDA C++",
      [](Operation *op, raw_ostream &os) { return toCuda(op, os, {}); },
      registerTileDialects);
  TranslateFromMLIRRegistration toCudaLines(
      "tile-to-cuda-lines", "CUDA C++ with #line directives",
      [](Operation *op, raw_ostream &os) {
        tlc::target::CudaEmitOptions options;
        options.lineDirectives = true;
        options.locationComments = false;
        return toCuda(op, os, options);
      },
      registerTileDialects);
  TranslateFromMLIRRegistration toHip(
      "tile-to-hip", "translate Tile IR to HIP C++ for AMD CDNA",
      [](Operation *op, raw_ostream &os) {
        tlc::target::CudaEmitOptions options;
        options.language = &tlc::target::GPULanguage::hip();
        return toCuda(op, os, options);
      },
      registerTileDialects);
  TranslateFromMLIRRegistration toCudaSourceMap(
      "tile-to-cuda-sourcemap", "the kernels and source map of the CUDA C++",
      printCudaSourceMap, registerTileDialects);
  TranslateFromMLIRRegistration toCpp(
      "tile-to-cpp", "translate Tile IR to C++ for the CPU target",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        return tlc::target::translateModuleToCpp(module, os);
      },
      registerTileDialects);
  TranslateFromMLIRRegistration toManifest(
      "tile-to-manifest",
      "print the manifest fields of every tile.func (JSON)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        bool ok = true;
        for (auto func : module.getOps<tlc::tile::FuncOp>()) {
          auto m = tlc::target::describeKernel(func);
          if (failed(m)) {
            ok = false;
            continue;
          }
          m->target = "cpu";
          os << llvm::formatv("{0:2}", tlc::artifact::toJSON(*m)) << "\n";
        }
        return success(ok);
      },
      registerTileDialects);
  return failed(mlirTranslateMain(argc, argv, "tlc translation driver"));
}
