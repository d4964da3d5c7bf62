//===- Layout.h - Index maps from logical to physical coordinates -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A Layout maps an N-d logical coordinate of a tile to an M-d physical
// coordinate: `forward[m]` is an IndexExpr over the inputs `i, j, k, ...`
// (input d has id d). Shared-memory buffers use it for swizzles and padding;
// the physical shape is derived (max + 1 of each output over the tile).
//
// Properties are decided exactly by enumerating the (concrete) tile: tiles in
// TileLang are small (a few hundred thousand elements at most), and an
// enumeration answer is never "unknown".
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_LAYOUT_H
#define TLC_LAYOUT_LAYOUT_H

#include "tlc/Layout/IndexExpr.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tlc {
namespace layout {

struct LayoutMemo;

/// Name of placeholder input \p dim: i, j, k, l, m, n, then d6, d7, ...
std::string inputName(unsigned dim);
/// The placeholder names of an input of rank \p rank (plus `rep` when
/// \p withRep).
std::vector<std::string> inputNames(unsigned rank, bool withRep = false);
/// Input ranges [0, shape[d]) by id, for simplify() and bounds(); an extra
/// entry [0, replicate) for the replication input when \p replicate > 0.
VarRanges rangesFor(llvm::ArrayRef<int64_t> shape, int64_t replicate = 0);
/// Number of elements of \p shape (1 for rank 0).
int64_t numElements(llvm::ArrayRef<int64_t> shape);
/// Calls \p fn with every coordinate of \p shape in row-major order.
void forEachCoord(llvm::ArrayRef<int64_t> shape,
                  llvm::function_ref<void(llvm::ArrayRef<int64_t>)> fn);

/// What kind of shared-memory layout a Layout is; drives the short label and
/// the TMA / WGMMA descriptor swizzle field.
enum class LayoutKind : uint8_t {
  Custom,      ///< Any other index map.
  Linear,      ///< Row-major, no swizzle.
  Swizzle32B,  ///< 16-byte chunks XOR-permuted within 32-byte rows.
  Swizzle64B,  ///< ... within 64-byte rows.
  Swizzle128B, ///< ... within 128-byte rows.
  Padded,      ///< Row-major with a padded row pitch.
};

/// Returns "linear", "swizzle 32B", ..., "padded", "custom".
llvm::StringRef stringifyLayoutKind(LayoutKind kind);

/// A logical -> physical index map.
class Layout {
public:
  /// Creates an empty layout (rank 0, no outputs).
  Layout() = default;

  /// Creates a layout over \p inputShape (every extent > 0). Each output
  /// may only mention inputs 0 .. rank-1, and must be defined (no division by
  /// zero) and non-negative on the whole tile. Outputs are simplified.
  static llvm::Expected<Layout> get(std::vector<int64_t> inputShape,
                                    std::vector<IndexExpr> forward,
                                    LayoutKind kind = LayoutKind::Custom);
  /// The row-major layout of \p shape: one output `sum(i_d * stride_d)`.
  static Layout linear(llvm::ArrayRef<int64_t> shape);

  /// The logical shape.
  llvm::ArrayRef<int64_t> getInputShape() const { return inputShape; }
  /// The output expressions.
  llvm::ArrayRef<IndexExpr> getForward() const { return forward; }
  /// Number of logical dimensions.
  unsigned getInputRank() const { return inputShape.size(); }
  /// Number of physical dimensions.
  unsigned getOutputRank() const { return forward.size(); }
  /// The layout kind recorded by the builder.
  LayoutKind getKind() const { return kind; }
  /// Element width in bits recorded by the shared-layout builders (0 when
  /// unknown).
  unsigned getElementBits() const { return elementBits; }
  /// Records the element width (for labels and descriptors).
  void setElementBits(unsigned bits) { elementBits = bits; }
  /// Padding in elements of a Padded layout (0 otherwise).
  int64_t getPadding() const { return padding; }
  /// Records the padding of a Padded layout.
  void setPadding(int64_t elems) { padding = elems; }

  /// Physical shape: for each output, its maximum over the tile plus one.
  std::vector<int64_t> getOutputShape() const;
  /// Maps one logical coordinate; std::nullopt if outside the tile.
  std::optional<std::vector<int64_t>>
  apply(llvm::ArrayRef<int64_t> coord) const;
  /// Row-major flattening of apply() over getOutputShape().
  std::optional<int64_t> applyFlat(llvm::ArrayRef<int64_t> coord) const;

  /// True when distinct coordinates of the tile map to distinct physical
  /// coordinates. Decided by enumeration: a tile of more than
  /// kMaxEnumeratedInputs elements is not checked (true), and an element
  /// whose place cannot be computed (overflow) makes the map not injective.
  bool isInjective() const;
  /// True when the layout is a bijection from the tile onto the whole
  /// physical box [0, getOutputShape()).
  bool isBijective() const;

  /// Returns `next ∘ this`: the outputs of this layout feed the inputs of
  /// \p next. Fails when the output rank of this layout differs from the
  /// input rank of \p next or an output leaves next's input shape.
  llvm::Expected<Layout> compose(const Layout &next) const;
  /// Prepends pass-through dimensions of extents \p leading to the input;
  /// they are folded into the first output as `lead_flat * outer + out0`
  /// where outer is the size of the original physical box (so a 1-output
  /// layout stays 1-output and bijective).
  Layout expand(llvm::ArrayRef<int64_t> leading) const;

  /// The inverse of a bijective layout as a table indexed by the row-major
  /// flat physical coordinate; each entry is a logical coordinate.
  llvm::Expected<std::vector<std::vector<int64_t>>> invertTable() const;

  /// Semantic equality: same shapes and equal outputs on every coordinate.
  bool isEquivalentTo(const Layout &other) const;

  /// `Layout([128, 32] -> [4096], offset = ...)`, the formula form.
  void print(llvm::raw_ostream &os) const;
  /// A label for inlay hints: `swizzle 128B`, `linear`, `padded +8`, or
  /// `custom` for any other map.
  std::string shortLabel() const;
  /// A multi-line description for hovers: the formula and a table of
  /// physical offsets for the top-left \p rows x \p cols corner.
  std::string longForm(unsigned rows = 8, unsigned cols = 8) const;

private:
  std::vector<int64_t> inputShape;
  std::vector<IndexExpr> forward;
  /// Extent of each output: one past its largest value on the tile.
  std::vector<int64_t> outputShape;
  LayoutKind kind = LayoutKind::Custom;
  unsigned elementBits = 0;
  int64_t padding = 0;
  /// Enumeration facts shared by every layout with the same shape and
  /// outputs (see Memo.h); null for the empty layout.
  std::shared_ptr<const LayoutMemo> memo;
};

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_LAYOUT_H
