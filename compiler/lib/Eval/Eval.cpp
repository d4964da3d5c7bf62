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
  if (spec == "cpu") {
    t.sharedMemoryBytes = int64_t(1) << 40;
    t.warpSize = 1;
    // The CPU target is the reference GPU builds are verified against, so
    // programs that size their launch from the device
    // (`driver.get_num_sms()`) trace the instance of `cuda:sm_90a`'s part.
    t.device = lang::getDefaultDevice("cuda:sm_90a");
    return t;
  }
  const lang::DeviceInfo *d = lang::getDefaultDevice(spec);
  if (!d)
    return std::nullopt;
  t.device = d;
  t.sharedMemoryBytes = d->sharedMemoryPerBlock;
  t.warpSize = d->warpSize;
  t.maxThreads = d->maxThreadsPerBlock;
  return t;
}

bool TargetInfo::selectDevice(llvm::StringRef name) {
  const lang::DeviceInfo *d = lang::lookupDevice(name);
  if (!d || !device)
    return false;
  // On the CPU target the part only answers device queries; the budgets
  // stay the CPU's.
  if (this->name == "cpu") {
    device = d;
    return true;
  }
  if (d->platform != device->platform)
    return false;
  device = d;
  sharedMemoryBytes = d->sharedMemoryPerBlock;
  warpSize = d->warpSize;
  maxThreads = d->maxThreadsPerBlock;
  return true;
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
