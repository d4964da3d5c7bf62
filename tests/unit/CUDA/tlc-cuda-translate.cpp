//===- tlc-cuda-translate.cpp - Test driver of the CUDA emitter -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA emitter's lit tests run through this driver until tlc-translate
// registers the translation itself:
//
//   tlc-cuda-translate --tile-to-cuda in.mlir            CUDA C++
//   tlc-cuda-translate --tile-to-cuda-lines in.mlir      with #line directives
//   tlc-cuda-translate --tile-to-cuda-sourcemap in.mlir  the source map
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileDialect.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

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

int main(int argc, char **argv) {
  TranslateFromMLIRRegistration plain(
      "tile-to-cuda", "translate Tile IR to CUDA C++",
      [](Operation *op, raw_ostream &os) { return toCuda(op, os, {}); },
      registerTileDialects);
  TranslateFromMLIRRegistration lines(
      "tile-to-cuda-lines", "CUDA C++ with #line directives",
      [](Operation *op, raw_ostream &os) {
        tlc::target::CudaEmitOptions options;
        options.lineDirectives = true;
        options.locationComments = false;
        return toCuda(op, os, options);
      },
      registerTileDialects);
  TranslateFromMLIRRegistration sourceMap(
      "tile-to-cuda-sourcemap", "the source map of the CUDA C++",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        for (auto func : module.getOps<tlc::tile::FuncOp>()) {
          auto k = tlc::target::emitCudaKernel(func);
          if (failed(k))
            return failure();
          for (const auto &l : k->launches)
            os << "kernel " << l.entry << " threads " << l.threads
               << " smem " << l.dynamicSharedMemory << "\n";
          for (const auto &e : k->sourceMap)
            os << e.generatedLine << " -> " << k->files[e.fileIndex] << ":"
               << e.line << ":" << e.column << "\n";
        }
        return success();
      },
      registerTileDialects);
  return failed(mlirTranslateMain(argc, argv, "tlc CUDA emitter test driver"));
}
