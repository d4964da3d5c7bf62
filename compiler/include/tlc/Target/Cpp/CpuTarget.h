//===- CpuTarget.h - Artifacts of the CPU reference target ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build --target=cpu -o DIR`: for every kernel instance of a module,
// the generated C++ (NAME.cpp), the device header (tlc_cpu.h), the shared
// object compiled by the host compiler (NAME.so) and the manifest
// (NAME.json).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CPP_CPUTARGET_H
#define TLC_TARGET_CPP_CPUTARGET_H

#include "tlc/Target/Artifact/Artifact.h"
#include "tlc/Target/Cpp/CppEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc::target {

/// Options of buildCpuArtifacts.
struct CpuBuildOptions {
  /// How the host compiler is run (and the cache).
  artifact::HostCompileOptions compile;
  /// Only instances whose function or kernel name is this (empty: all).
  std::string kernelFilter;
  /// Print one line per artifact (`wrote DIR/NAME.so (cached)`) here.
  llvm::raw_ostream *log = nullptr;
  /// Options of the C++ emitter (CppEmitOptions::layoutsOf: whose fragment
  /// layouts the reference follows).
  CppEmitOptions emit;
};

/// The host compiler flags of CPU kernels made from \p flags (the generic
/// host flags): -O3 instead of -O2, plus -ffp-contract=off (every product
/// and sum rounded on its own, on every host), -fno-math-errno and
/// -fno-trapping-math (neither changes a value).
std::vector<std::string> getCpuCompileFlags(llvm::ArrayRef<std::string> flags);

/// The device header precompiled for \p compile's compiler and flags, in
/// the build cache (built the first time, by one process; later ones use
/// it): the path of the header copy next to its precompiled form, to pass
/// as `-include PATH` (HostCompileOptions::unkeyedFlags: the binary is
/// the same). None when the cache is off or holds fewer than four shared
/// objects, $TLC_NO_PCH is set, no binary is built, another process is
/// building it, or the compiler cannot use it (remembered in the cache);
/// kernels then compile as before.
std::optional<std::string>
getCpuPrecompiledHeader(const artifact::HostCompileOptions &compile);

/// Writes the CPU artifacts of every defined `tile.func` of \p module into
/// \p outDir. Problems are reported as MLIR diagnostics on the module's
/// context (emission errors on the op, compile/write errors on the
/// function); an instance that fails does not stop the others. Succeeds
/// when every instance was written.
mlir::LogicalResult buildCpuArtifacts(mlir::ModuleOp module,
                                      llvm::StringRef outDir,
                                      const CpuBuildOptions &options);

} // namespace tlc::target

#endif // TLC_TARGET_CPP_CPUTARGET_H
