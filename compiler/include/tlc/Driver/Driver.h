//===- Driver.h - Analysis driver shared by tlc-build and tools -*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Runs parse + evaluation + checks over files and prints the results in the
// user-facing formats of DESIGN.md section 3: diagnostics as text
// (`file:line:col: error: message`), JSON or SARIF 2.1.0; editor hints as a
// JSON array; Tile IR as MLIR text. Also verifies `# expected-error@+1
// {{...}}` annotations (--verify-diagnostics).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DRIVER_DRIVER_H
#define TLC_DRIVER_DRIVER_H

#include "tlc/Eval/Eval.h"
#include "tlc/Support/Diagnostic.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tlc::driver {

/// How diagnostics are printed.
enum class DiagFormat { Text, Json, Sarif };

/// Parses `text`, `json` or `sarif`.
std::optional<DiagFormat> parseDiagFormat(llvm::StringRef name);

/// What the driver does with each file.
enum class Action {
  /// Parse, evaluate and check; print diagnostics only.
  Check,
  /// Print the Tile IR of every instance.
  EmitTile,
  /// Print editor hints as JSON.
  EmitHints,
  /// Compare diagnostics with `# expected-*` annotations.
  VerifyDiagnostics,
};

/// Options of one driver run.
struct DriverOptions {
  Action action = Action::Check;
  DiagFormat format = DiagFormat::Text;
  /// Print the source line and caret under text diagnostics.
  bool showSourceLines = true;
  /// Print op locations with --emit=tile.
  bool printLocations = false;
  /// Evaluation options (target, -D, --kernel).
  eval::EvalOptions eval;
};

/// The analysis of one file.
struct FileResult {
  std::string path;
  std::shared_ptr<const syntax::SyntaxTree> tree;
  eval::FileAnalysis analysis;
  /// Parser diagnostics followed by evaluation diagnostics, sorted.
  std::vector<Diagnostic> diagnostics;
};

/// Analyses source files with one reused MLIRContext. Not thread-safe.
class Driver {
public:
  explicit Driver(DriverOptions options);
  ~Driver();

  /// Parses and analyses \p text as file \p path.
  FileResult analyze(llvm::StringRef path, llvm::StringRef text);

  /// Runs the configured action over \p paths (reading the files), writing
  /// results to \p out and diagnostics to \p err. Returns the exit status:
  /// 0 without errors, 1 with errors (or failed verification), 2 when a file
  /// cannot be read.
  int run(llvm::ArrayRef<std::string> paths, llvm::raw_ostream &out,
          llvm::raw_ostream &err);

  /// The options.
  const DriverOptions &getOptions() const { return options; }

private:
  /// Runs layout inference on the IR of \p r (attributes on the IR).
  void inferLayouts(FileResult &r);

  DriverOptions options;
  std::unique_ptr<mlir::MLIRContext> context;
};

/// Runs layout inference (`--tile-infer-layout` for \p target) on the IR of
/// \p analysis and copies each allocation's layout labels into its hint.
/// Layout errors do not fail the analysis: those hints keep no layout.
/// \p tree is the syntax tree the analysis was made from.
void inferLayouts(eval::FileAnalysis &analysis, const syntax::SyntaxTree &tree,
                  llvm::StringRef target);

/// Prints diagnostics of \p results as text, JSON or SARIF.
void printDiagnostics(llvm::ArrayRef<FileResult> results, DiagFormat format,
                      bool showSourceLines, llvm::raw_ostream &os);

/// Prints the hints of \p results as one JSON array.
void printHintsJson(llvm::ArrayRef<FileResult> results, llvm::raw_ostream &os);

/// Checks the diagnostics of \p result against its `# expected-*`
/// annotations; prints mismatches to \p err. True when they agree.
bool verifyDiagnostics(const FileResult &result, llvm::raw_ostream &err);

} // namespace tlc::driver

#endif // TLC_DRIVER_DRIVER_H
