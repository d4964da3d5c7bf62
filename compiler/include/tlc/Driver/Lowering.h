//===- Lowering.h - The lowering passes a target needs ----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// After analysis (evaluation, checks, layout inference) every target that
// has a lowered level runs its passes on the module before a printer reads
// it: `tlc-build -o`, `--emit=lowered|cuda` and their pass-by-pass trace
// (`--print-ir-after-all`, `--print-ir-after=PASS`).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DRIVER_LOWERING_H
#define TLC_DRIVER_LOWERING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc::driver {

/// How the lowering is traced.
struct LoweringOptions {
  /// Print the module after every pass.
  bool printAfterAll = false;
  /// Print the module after the passes with these flags (`tile-plan-...`;
  /// getLoweringPasses lists them, and tlc-build refuses other names).
  std::vector<std::string> printAfter;
  /// Where the trace goes (stderr when null).
  llvm::raw_ostream *trace = nullptr;
};

/// Whether \p targetName (`cuda:sm_90a`, `cpu`, ...) has a lowered level
/// (the CPU target prints Tile IR directly).
bool hasLoweredLevel(llvm::StringRef targetName);

/// The flags of the passes lowerForTarget runs for \p targetName, in order.
std::vector<std::string> getLoweringPasses(llvm::StringRef targetName);

/// Runs the lowering passes of \p targetName on \p module, traced as
/// \p options say (tile::runGpuLowering; nothing for a target without a
/// lowered level), after tile::checkBuildable for every target. Functions
/// no target or a pass cannot lower are marked and diagnosed
/// through the context's handler; this fails only when the pass manager
/// does.
mlir::LogicalResult lowerForTarget(mlir::ModuleOp module,
                                   llvm::StringRef targetName,
                                   const LoweringOptions &options = {});

} // namespace tlc::driver

#endif // TLC_DRIVER_LOWERING_H
