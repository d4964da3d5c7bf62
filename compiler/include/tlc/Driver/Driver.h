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
#include "tlc/Support/LruCache.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class Diagnostic;
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

  /// Parses and analyses \p text, the bytes of file \p path (decoded to
  /// UTF-8 first as CPython does: syntax::parseFile).
  FileResult analyze(llvm::StringRef path, llvm::StringRef text);
  /// Analyses the file \p path that was already parsed into \p tree (the
  /// fuzz target checks it for syntax errors first).
  FileResult analyze(llvm::StringRef path,
                     std::shared_ptr<const syntax::SyntaxTree> tree);

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

/// Layout inference results of kernel instances, kept across analyses so
/// that re-analysing an edited file re-infers only the instances whose Tile
/// IR changed. The key of an instance is its whole IR (without locations)
/// and the target, so whatever an edit changes that inference can see
/// (the kernel's body, a module-level constant it uses, the chosen
/// instance) makes a new key. Results are stored without MLIR objects, so
/// a cache outlives the contexts it was filled from. Thread-safe; bounded
/// (least recently used instances are dropped first).
class LayoutCache {
public:
  /// Creates a cache of at most \p maxEntries instances.
  explicit LayoutCache(size_t maxEntries = 256);
  ~LayoutCache();
  /// The results of one instance (opaque; defined in Layouts.cpp).
  struct Entry;
  /// The entry recorded under \p key, or null.
  std::shared_ptr<const Entry> lookup(const std::string &key) {
    return entries.lookup(key);
  }
  /// Records \p entry under \p key.
  void record(const std::string &key, std::shared_ptr<const Entry> entry) {
    entries.record(key, std::move(entry));
  }
  /// Number of recorded instances.
  size_t size() { return entries.size(); }

private:
  /// The least recently used half is dropped when full.
  LruCache<Entry> entries;
};

/// What inferLayouts() did, per kernel instance (a top-level op of the
/// module).
struct LayoutStats {
  /// Instances whose layouts were inferred.
  unsigned inferred = 0;
  /// Instances whose layouts came from the cache.
  unsigned reused = 0;
  /// Instances whose bank conflicts were checked now (not from the cache).
  unsigned conflictsChecked = 0;
};

/// Runs layout inference (what `--tile-infer-layout` for \p target does)
/// on the IR of \p analysis and copies each allocation's layout labels into
/// its hint. Layout errors do not fail the analysis: those hints keep no
/// layout. \p tree is the syntax tree the analysis was made from. With a
/// \p cache, instances whose IR is unchanged since an earlier call reuse
/// its results (instances whose inference reported errors are not cached).
/// \p cancelled is polled before each instance: once it returns true, the
/// remaining instances keep no layout (the editor's superseded analyses).
/// With \p bankConflicts, each instance's shared-memory accesses are then
/// checked for bank conflicts (LayoutViews.h: a remark and a
/// `bank-conflict` hint per conflicting access); the cache keeps an
/// instance's conflicts with its layouts, so an instance whose IR is
/// unchanged is not checked again. Without it, an entry is recorded without
/// conflicts and a later call that asks for them checks them once.
LayoutStats inferLayouts(eval::FileAnalysis &analysis,
                         const syntax::SyntaxTree &tree, llvm::StringRef target,
                         LayoutCache *cache = nullptr,
                         const std::function<bool()> &cancelled = {},
                         bool bankConflicts = false);

/// Converts an MLIR diagnostic about IR built from \p tree (its location
/// and its notes' locations: the first file location inside each, 1-based
/// line and byte column as the evaluator writes them) into a diagnostic on
/// the source; a location without a file position maps to offset 0.
Diagnostic toSourceDiagnostic(const syntax::SyntaxTree &tree,
                              mlir::Diagnostic &diag);

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
