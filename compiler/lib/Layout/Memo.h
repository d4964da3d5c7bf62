//===- Memo.h - Memoized enumeration facts of layouts (private) -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Validating a Layout or a Fragment enumerates its whole tile, and layout
// inference builds the same maps over and over: every instance of a gemm
// kernel asks for the same operand layouts, every attribute read back is
// re-validated. The facts an enumeration yields (output extents, whether
// the map is injective, or the error) depend only on the input shape and
// the expressions, so they are memoized here under a structural key: the
// shape, the replication and each expression tree (kinds, constants, input
// ids and names). The tables are process-wide, thread-safe and bounded.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_LAYOUT_MEMO_H
#define TLC_LIB_LAYOUT_MEMO_H

#include "tlc/Layout/IndexExpr.h"

#include "llvm/ADT/ArrayRef.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace layout {

/// Appends the structural key of \p expr to \p out.
void appendMemoKey(std::string &out, const IndexExpr &expr);
/// Appends the extents of \p shape to \p out.
void appendMemoKey(std::string &out, llvm::ArrayRef<int64_t> shape);

/// What enumerating a Layout's tile found.
struct LayoutMemo {
  /// Empty when the layout is valid, else the reason it is not.
  std::string error;
  /// Extent of each output when valid.
  std::vector<int64_t> outputShape;
  /// Injectivity once computed: -1 unknown, 0 no, 1 yes.
  mutable std::atomic<int8_t> injective{-1};
  /// The outputs compiled (Layout::applyFlat), when valid.
  std::vector<CompiledIndexExpr> compiled;
};

/// What enumerating a Fragment's tile found.
struct FragmentMemo {
  /// Empty when the fragment is valid, else the reason it is not.
  std::string error;
  /// Extent of each register index output when valid.
  std::vector<int64_t> indexShape;
  /// One past the largest thread when valid.
  int64_t threadExtent = 0;
};

/// The memoized facts of the layout with key \p key, or null.
std::shared_ptr<const LayoutMemo> lookupLayoutMemo(const std::string &key);
/// Records \p memo under \p key; returns the recorded entry (an existing
/// one when another thread was first).
std::shared_ptr<const LayoutMemo>
recordLayoutMemo(std::string key, std::shared_ptr<const LayoutMemo> memo);
/// The memoized facts of the fragment with key \p key, or null.
std::shared_ptr<const FragmentMemo> lookupFragmentMemo(const std::string &key);
/// Records \p memo under \p key.
void recordFragmentMemo(std::string key,
                        std::shared_ptr<const FragmentMemo> memo);
/// Fragment::verify enumerates at least this many placements (elements
/// times replicas) before its answer is memoized; below it the key costs
/// about as much as the check.
constexpr int64_t kMinVerifyMemoPlacements = 1024;
/// The memoized answer of Fragment::verify with key \p key (the fragment's
/// key, its extents and the block's thread count): empty when valid,
/// else the problem; none when not recorded.
std::optional<std::string> lookupVerifyMemo(const std::string &key);
/// Records \p problem (empty: valid) under \p key.
void recordVerifyMemo(std::string key, std::string problem);
/// The memoized answer of the equivalence question with key \p key.
std::optional<bool> lookupEquivalenceMemo(const std::string &key);
/// Records the answer \p same under \p key.
void recordEquivalenceMemo(std::string key, bool same);

} // namespace layout
} // namespace tlc

#endif // TLC_LIB_LAYOUT_MEMO_H
