//===- LayoutViews.h - Layout pictures and bank conflicts of a file -*- C++
//-*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What tlc-build --emit=layout-svg, the language server's tlc/layout
// request and the bank-conflict hints read from an analysed file (after
// inferLayouts): the layout map of every fragment and shared buffer of
// every instance, as the generated code stores it, and the shared-memory
// accesses whose warps conflict on banks.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DRIVER_LAYOUTVIEWS_H
#define TLC_DRIVER_LAYOUTVIEWS_H

#include "tlc/Eval/Eval.h"
#include "tlc/Layout/LayoutMap.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlir {
class Location;
class Operation;
} // namespace mlir

namespace tlc::driver {

/// A slice of a buffer written in the kernel (`acc[0:8, 8:16]`, `A_s[k, :]`:
/// a tile.region of the buffer, regions of regions composed).
struct LayoutSliceView {
  /// The subscript expression.
  TextRange range;
  /// Per dimension, the first index; std::nullopt where it is computed at
  /// run time.
  std::vector<std::optional<int64_t>> begin;
  /// Per dimension, the extent.
  std::vector<int64_t> extent;
};

/// One buffer of one instance with its layout map.
struct LayoutView {
  /// The kernel and instance label (`matmul(M=1024, ...)`).
  std::string kernel, instance;
  /// Index of the instance in the file (0-based, analysis order).
  unsigned instanceIndex = 0;
  /// The buffer name and its declaration.
  std::string name;
  TextRange range;
  /// The element type name and size in bytes.
  std::string dtype;
  int64_t elementBytes = 0;
  /// The layout: a fragment's, or the shared buffer's element offsets.
  std::optional<layout::Fragment> fragment;
  std::optional<layout::Layout> shared;
  /// The label of a shared buffer's storage (tile::sharedStorageLabel, the
  /// buffer hint's), or empty for the layout's own kind.
  std::string sharedLabel;
  /// The slices of the buffer in the instance (static extents only), in
  /// program order.
  std::vector<LayoutSliceView> slices;
  /// Enumerates the layout (its title names the instance).
  llvm::Expected<layout::LayoutMap> buildMap() const;
};

/// The byte range of the first file location inside \p loc (1-based line
/// and byte column, as the evaluator writes them) in \p tree; empty when
/// there is none. Defined in Layouts.cpp.
TextRange sourceRangeOf(const syntax::SyntaxTree &tree, mlir::Location loc);

/// The layout views (cheap: maps are built on demand) of \p analysis (fragments
/// from their inferred layout attributes; shared buffers in the layout the \p
/// target's generated code stores them: tile::planSharedStorage's panels,
/// swizzles or row-major; other targets the inferred attribute). Buffers
/// without a layout are left out.
std::vector<LayoutView> collectLayoutViews(const eval::FileAnalysis &analysis,
                                           const syntax::SyntaxTree &tree,
                                           llvm::StringRef target);

/// A bank conflict of one kernel instance (tile::BankConflict), its ops
/// named by their position in a pre-order walk of the instance, so that it
/// applies to an equal IR built in another context (driver::LayoutCache
/// keeps them with the instance's layouts).
struct InstanceConflict {
  /// The access and the allocation it reads or writes (-1: none).
  unsigned op = 0;
  int root = -1;
  std::string area, instruction;
  int64_t degree = 0, padElems = 0;
  bool swizzleFixes = false;
};

/// The bank conflicts of the kernels of instance \p ops (a pre-order walk of
/// a top-level op, layouts attached) in the \p target's generated code:
/// CUDA's shared memory, or HIP's LDS (tile::findBankConflicts). Nothing for
/// other targets.
std::vector<InstanceConflict>
findInstanceConflicts(llvm::ArrayRef<mlir::Operation *> ops,
                      llvm::StringRef target);

/// Adds a hint-severity diagnostic (Severity::Remark) at the statement of
/// each conflict of \p conflicts (`4-way bank conflict on A_shared
/// (ldmatrix)`), with a note at the allocation naming the padding or swizzle
/// that removes it, and a `bank-conflict` hint with the same text, for
/// instance \p ops labelled \p instance. \p seen holds the (offset,
/// message) pairs reported already: one report per statement and text
/// across instances.
void reportInstanceConflicts(eval::FileAnalysis &analysis,
                             const syntax::SyntaxTree &tree,
                             llvm::ArrayRef<mlir::Operation *> ops,
                             llvm::ArrayRef<InstanceConflict> conflicts,
                             llvm::StringRef target,
                             const std::string &instance,
                             std::set<std::pair<uint32_t, std::string>> &seen);

/// File-safe name of a view: `KERNEL.INSTANCE-INDEX.NAME.svg`.
std::string layoutFileName(const LayoutView &view);

} // namespace tlc::driver

#endif // TLC_DRIVER_LAYOUTVIEWS_H
