//===- Inputs.h - tlc-build's analysis of its inputs ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every build mode of tlc-build starts with: reading the input files,
// analysing them (printing the analysis diagnostics and writing the
// --diagnostics-file / --environ-report files), reading the architectures
// of a multi-architecture target, and printing the back ends' diagnostics
// like the analysis's.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TOOLS_TLC_BUILD_INPUTS_H
#define TLC_TOOLS_TLC_BUILD_INPUTS_H

#include "DiagnosticsFile.h"

#include "tlc/Driver/Driver.h"
#include "tlc/Support/Diagnostic.h"
#include "tlc/Target/CUDA/CUDATarget.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <vector>

namespace tlc::build {

/// The bytes of input \p path (`-` is stdin); null after printing
/// `PATH: error: cannot read file: ...` when it cannot be read.
std::unique_ptr<llvm::MemoryBuffer> readInput(llvm::StringRef path);

/// Prints the MLIR diagnostics of a back end (unsupported constructs,
/// compiler failures) like every other diagnostic: `file:line:col:
/// severity: message`, the source line, then the notes; with a \p sink,
/// also keeps them there (for --diagnostics-file), marked with `stage`.
struct BackendDiagnostics {
  BackendDiagnostics(mlir::MLIRContext *ctx, const driver::FileResult &file,
                     bool showSourceLines,
                     std::vector<build::TargetDiagnostic> *sink = nullptr)
      : handler(ctx, [this, &file, showSourceLines, sink](mlir::Diagnostic &d) {
          Diagnostic diag = driver::toSourceDiagnostic(*file.tree, d);
          DiagnosticPrintOptions print;
          print.showSourceLine = showSourceLines;
          printDiagnostic(llvm::errs(), diag, file.path, file.tree->lines(),
                          print);
          if (sink)
            sink->push_back({std::move(diag), stage, target::isToolFailure(d)});
          return mlir::success();
        }) {}
  BackendDiagnostics(const BackendDiagnostics &) = delete;
  BackendDiagnostics &operator=(const BackendDiagnostics &) = delete;
  /// What the back end is doing: lowering, or writing the artifacts.
  build::TargetStage stage = build::TargetStage::Lowering;
  mlir::ScopedDiagnosticHandler handler;
};

/// The architectures of a `cuda:A,B,...` target into \p archs; false after
/// `tlc-build: error: WHAT: --target=...: why` when one is unknown.
bool readCudaArchitectures(llvm::StringRef what, llvm::StringRef targetName,
                           std::vector<std::string> &archs);

/// The CDNA architectures of `hip:A,B,...` into \p archs; false after an
/// error line naming \p what when one is unknown.
bool readHipArchitectures(llvm::StringRef what, llvm::StringRef targetName,
                          std::vector<std::string> &archs);

/// Where the build's reports also go; empty for nowhere. main sets them
/// (per line of --configs).
struct ReportFiles {
  /// `--diagnostics-file=PATH`: every diagnostic of the build, as
  /// `--format=json` prints them (DiagnosticsFile.h).
  std::string diagnostics;
  /// `--environ-report=PATH`: the environment variables each file's and
  /// instance's evaluation read (EnvironReport.h).
  std::string environ;
};
ReportFiles &reportFiles();

/// Analyses every input into \p results and prints the analysis
/// diagnostics (unless \p quiet: a child build, whose parent printed them);
/// false (after an error line) when a file cannot be read.
bool analyzeInputs(driver::Driver &drv, llvm::ArrayRef<std::string> inputs,
                   std::vector<driver::FileResult> &results,
                   bool quiet = false);

} // namespace tlc::build

#endif // TLC_TOOLS_TLC_BUILD_INPUTS_H
