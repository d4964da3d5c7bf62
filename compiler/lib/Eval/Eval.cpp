//===- Eval.cpp - Entry points of the Eval library ------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tlc/Eval/Eval.h"
#include "IRGen.h"
#include "Interpreter.h"

#include "tlc/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/MLIRContext.h"

using namespace tlc;
using namespace tlc::eval;

std::optional<TargetInfo> TargetInfo::parse(llvm::StringRef spec) {
  TargetInfo t;
  t.name = spec.str();
  if (spec == "cuda:sm_90a" || spec == "cuda:sm_90" || spec == "cuda") {
    t.sharedMemoryBytes = 227 * 1024;
    t.warpSize = 32;
  } else if (spec == "cuda:sm_80" || spec == "cuda:sm_86" ||
             spec == "cuda:sm_89") {
    t.sharedMemoryBytes = spec == "cuda:sm_80" ? 163 * 1024 : 99 * 1024;
    t.warpSize = 32;
  } else if (spec == "hip:gfx90a" || spec == "hip:gfx942" || spec == "hip") {
    t.sharedMemoryBytes = 64 * 1024;
    t.warpSize = 64;
  } else if (spec == "cpu") {
    t.sharedMemoryBytes = int64_t(1) << 40;
    t.warpSize = 1;
  } else {
    return std::nullopt;
  }
  return t;
}

void tlc::eval::loadEvalDialects(mlir::MLIRContext &ctx) {
  ctx.loadDialect<tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect>();
}

FileAnalysis tlc::eval::analyzeFile(const syntax::SyntaxTree &tree,
                                    mlir::MLIRContext &ctx,
                                    const EvalOptions &options) {
  FileAnalysis out;
  Interpreter interp(tree, ctx, options, out);
  interp.run();
  return out;
}
