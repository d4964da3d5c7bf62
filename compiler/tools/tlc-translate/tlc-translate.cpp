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
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileDialect.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
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

int main(int argc, char **argv) {
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
