//===- DiagnosticsFile.h - tlc-build --diagnostics-file ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build --diagnostics-file=PATH` writes every diagnostic of a build as
// one JSON array, in `--format=json`'s form: the analysis's (with an error's
// Python exception `category`), then what the target reported while
// lowering the instances and writing their artifacts. Those carry
// `"stage": "lowering"` or `"stage": "artifact"` (the printer and the
// artifact writer), the `category` TileLang raises them as where a note
// says so (`tvm.error.X`, `"raisedAt": "compile"`), and `"toolFailure":
// true` where the artifact could not be written because a compiler or the
// disk failed (not the program's fault). `-o` and `--emit=cuda|hip|cpp|
// lowered` write them. The Python package reads the file instead of
// parsing stderr.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TOOLS_TLC_BUILD_DIAGNOSTICSFILE_H
#define TLC_TOOLS_TLC_BUILD_DIAGNOSTICSFILE_H

#include "tlc/Driver/Driver.h"
#include "tlc/Support/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace tlc::build {

/// Where a target diagnostic was reported.
enum class TargetStage { Lowering, Artifact };

/// One diagnostic a back end reported about a file of the build.
struct TargetDiagnostic {
  Diagnostic diag;
  TargetStage stage = TargetStage::Lowering;
  /// A compiler, tool or disk failure, not a refusal of the program (the
  /// artifact writer's mark, target::isToolFailure).
  bool toolFailure = false;
};

/// The diagnostics a build collected, per input file (index of the
/// analysis results).
struct BuildDiagnostics {
  /// Whether the analysis diagnostics go into the file (not in a `-j`
  /// child: its parent wrote them).
  bool analysis = true;
  std::vector<std::vector<TargetDiagnostic>> target;
  /// Files a `-j` child wrote its target diagnostics to, merged in.
  std::vector<std::string> childFiles;
};

/// The JSON array of \p results' analysis diagnostics (if
/// \p diags.analysis) and \p diags' target diagnostics and child files.
llvm::json::Array diagnosticsJson(llvm::ArrayRef<driver::FileResult> results,
                                  const BuildDiagnostics &diags);

/// Writes diagnosticsJson to \p path; false after an error line on
/// stderr when it cannot be written.
bool writeDiagnosticsFile(llvm::StringRef path,
                          llvm::ArrayRef<driver::FileResult> results,
                          const BuildDiagnostics &diags);

} // namespace tlc::build

#endif // TLC_TOOLS_TLC_BUILD_DIAGNOSTICSFILE_H
