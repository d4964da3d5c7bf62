//===- Slices.h - Independent parts of a file's top level -------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A dependence analysis over the top-level statements of one file, for
// incremental evaluation (the language server re-evaluates only what an edit
// can affect). Statements that share a module-level name (one binds it, the
// other reads or binds it, in any scope) belong to the same slice; import
// statements whose names nothing else binds are copied into the slices that
// mention them (one of them per name when all bind the same module), and
// all of them form one more slice. Evaluating each slice alone
// (EvalOptions::statements) gives the diagnostics, hints and instances that
// evaluating the whole file gives for those statements, because the
// interpreter reaches module state only through names. A slice's key holds
// everything its evaluation reads from the file: its statements' text and
// syntax, and the file-wide facts the evaluator consults (names bound
// anywhere, the file name); equal keys give equal results, moved by the
// statements' offsets. Statement texts enter the key as 64-bit hashes with
// their lengths, next to a second, independent 64-bit digest of their
// syntax trees.
//
// What the analysis cannot vouch for makes the whole file one unit
// (FileSlices::reason): `exec`/`eval`/`globals()`-like reflection, star
// imports, pytest files and `tilelang.testing.main()` (they run functions
// found by name).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_EVAL_SLICES_H
#define TLC_EVAL_SLICES_H

#include "tlc/Support/LruCache.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tlc::eval {

/// Whole-file facts about names that the evaluator consults wherever it
/// is: names bound anywhere (an unresolved one is unknown, not undefined)
/// and star imports. Computed once per file for all of its slices.
struct FileNames {
  /// Every name some statement binds, in any scope (points into the tree,
  /// or into `storage`).
  llvm::DenseSet<llvm::StringRef> bound;
  /// The file has a `from M import *`.
  bool starImport = false;
  /// What `bound` points into when it was assembled from a
  /// StatementCache's entries.
  std::shared_ptr<const void> storage;
};

/// Collects the FileNames of \p tree (NameCheck.cpp).
FileNames collectFileNames(const syntax::SyntaxTree &tree);
/// Adds the names \p node and the nodes below it bind to \p names (what
/// collectFileNames collects from the whole tree).
void collectFileNames(syntax::Node node, FileNames &names);

/// What slicing finds in one top-level statement, owning its names
/// (Slices.cpp).
struct StatementFacts;
/// The StatementFacts of the statements sliced lately, by the statement's
/// text (a 128-bit hash, its length and kind): slicing after an edit walks
/// only the statements whose text changed. Thread-safe and bounded.
using StatementCache = LruCache<StatementFacts>;

/// Top-level statements that evaluate independently of the others.
struct Slice {
  /// Indices into the module body, ascending.
  std::vector<unsigned> statements;
  /// Which of `statements` are imports copied into several slices
  /// (their diagnostics appear once per slice that has them).
  std::vector<bool> shared;
  /// Everything evaluating the slice depends on (equal keys: equal results
  /// up to the statements' offsets).
  std::string key;
};

/// The slices of one file.
struct FileSlices {
  /// Every top-level statement is in at least one slice (shared imports in
  /// several). Empty when `reason` is set.
  std::vector<Slice> slices;
  /// Why the file must be evaluated as a whole (empty when sliced).
  std::string reason;
  /// The file's names, for EvalOptions::fileNames (set when sliced).
  std::shared_ptr<const FileNames> names;
};

/// The last slicing of each of a few files (by file name): after an edit
/// that changed no statement's names (what each binds, mentions and
/// imports: typing inside a function), the slices are the same and only the
/// keys of those holding a changed statement are rebuilt. Thread-safe.
class SliceMemo {
public:
  /// Keeps the slicings of at most \p maxFiles files.
  explicit SliceMemo(size_t maxFiles = 16);
  ~SliceMemo();
  /// Forgets every file.
  void clear();

  struct Entry;
  /// The entry of \p fileName (null when none).
  std::shared_ptr<const Entry> lookup(const std::string &fileName);
  /// Records \p entry as the last slicing of \p fileName.
  void record(const std::string &fileName, std::shared_ptr<const Entry> entry);

private:
  std::mutex mutex;
  size_t maxFiles;
  /// Least recently recorded first.
  std::vector<std::pair<std::string, std::shared_ptr<const Entry>>> files;
};

/// Splits the top level of \p tree into slices. With \p cache, statements
/// whose text was sliced before are not walked again; with \p memo, a file
/// whose statements' names did not change since its last slicing reuses
/// it (the result is the same either way).
FileSlices sliceTopLevel(const syntax::SyntaxTree &tree,
                         StatementCache *cache = nullptr,
                         SliceMemo *memo = nullptr);

} // namespace tlc::eval

#endif // TLC_EVAL_SLICES_H
