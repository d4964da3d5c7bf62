//===- CppEmitter.h - Tile IR to C++ for the CPU target ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU reference target: translates one `tile.func` into readable C++
// that executes the kernel's tile-level semantics on the host, with a
// source map from generated lines to the DSL locations of the Tile IR ops.
//
//  * Blocks run in sequence or on host threads (`tlc::cpu::launch`); one
//    executor runs a whole block, so `T.Parallel` becomes loops, barriers and
//    pipelining are no-ops, and T.gemm / reductions are loops in the
//    accumulator dtype.
//  * Reads of global memory outside a buffer give zero and writes there are
//    dropped (TileLang's bounds guards); on-chip accesses out of range are
//    reported as errors at their source location.
//  * f16, bf16 and fp8 values are rounded to nearest even at every store and
//    arithmetic result, as the GPU stores them.
//  * Symbols (`T.dynamic`, unbound meta parameters) are run-time values.
//
// The generated code includes `tlc_cpu.h` (runtime/device/include/
// tlc_device/cpu.h, which getCpuDeviceHeader() returns) and exports
// `extern "C" int ENTRY(const tlc_cpu_args *)`.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CPP_CPPEMITTER_H
#define TLC_TARGET_CPP_CPPEMITTER_H

#include "tlc/Target/Artifact/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc {
namespace tile {
class FuncOp;
} // namespace tile

namespace target {

/// Options of the C++ emitter.
struct CppEmitOptions {
  /// The `#include` name of the device header.
  std::string headerName = "tlc_cpu.h";
  /// Put a `// file:line:col` comment above the code of every tile op.
  bool locationComments = true;
  /// The GPU target whose fragment layouts (which thread holds which
  /// element) the kernel follows where its answer depends on them: a
  /// T.Parallel dealt out by a fragment that stores into per-thread
  /// buffers. A name tile::parseLayoutTarget accepts (`cuda:sm_90a`,
  /// `hip:gfx942`); empty: `cuda:sm_80`.
  std::string layoutsOf;
};

/// The C++ of one kernel instance.
struct CppKernel {
  /// The complete translation unit.
  std::string source;
  /// The exported entry point.
  std::string entry;
  /// Symbol names in the order the entry point reads their values.
  std::vector<std::string> symbols;
  /// Files the source map refers to.
  std::vector<std::string> files;
  /// Generated line -> DSL location, sorted by generated line.
  std::vector<artifact::SourceMapEntry> sourceMap;
  /// CppEmitOptions::layoutsOf (`cuda:sm_80` when that is empty) when the
  /// kernel's results depend on it: another GPU target's layouts give
  /// another owner table. Empty otherwise.
  std::string layoutsOf;
};

/// Translates \p func into C++. Fails, with an error diagnostic on the
/// offending op, for operations or types the CPU target cannot execute.
mlir::FailureOr<CppKernel> emitCpuKernel(tile::FuncOp func,
                                         const CppEmitOptions &options = {});

/// Translates every defined `tile.func` of \p module (a default instance
/// that cannot be built is skipped with a warning; an error when
/// \p kernelFilter, the --kernel the analysis selected by, is given) into
/// one C++ text
/// (used by `tlc-translate --tile-to-cpp`); an `#include` of the device
/// header precedes the kernels.
mlir::LogicalResult translateModuleToCpp(mlir::ModuleOp module,
                                         llvm::raw_ostream &os,
                                         const CppEmitOptions &options = {},
                                         llvm::StringRef kernelFilter = "");

/// The text of the device header the generated code includes.
llvm::StringRef getCpuDeviceHeader();

} // namespace target
} // namespace tlc

#endif // TLC_TARGET_CPP_CPPEMITTER_H
