//===- LayoutSlice.h - Which threads and banks a slice of a tile covers -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A slice of a tile written in a kernel (`acc[0:8, 8:16]`, `A_s[k, :]`) is a
// box of its elements. Over a fragment's layout the box is held by some
// threads, each in some of its registers (replicas included); over a
// shared layout it is a set of element offsets in some 4-byte banks. The
// language server shows both when the cursor is on the slice, next to the
// part of the layout's text grid the box covers.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_LAYOUTSLICE_H
#define TLC_LAYOUT_LAYOUTSLICE_H

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/Layout.h"
#include "tlc/Layout/LayoutMap.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tlc {
namespace layout {

/// A box of a tile: dimension d runs over [begin[d], begin[d] + extent[d]).
/// It may reach past the tile (a region past a ragged end); the elements
/// outside are counted apart.
struct SliceBox {
  std::vector<int64_t> begin, extent;
};

/// What a slice of a fragment covers.
struct FragmentSliceCover {
  /// Elements of the box inside the tile, and past its end.
  int64_t elements = 0, outside = 0;
  /// Every thread holding an element of the box (all replicas), with the
  /// registers it holds them in, ascending.
  std::map<int64_t, std::vector<int64_t>> registers;
  /// The fragment's threads (one past the largest) and replication.
  int64_t threadExtent = 0, replicate = 1;
};

/// The threads and registers holding box \p box of \p fragment (a valid
/// fragment). Fails when the box's rank is not the fragment's or an extent
/// is negative.
llvm::Expected<FragmentSliceCover>
coverFragmentSlice(const Fragment &fragment, const SliceBox &box);

/// What a slice of a shared tile covers.
struct SharedSliceCover {
  /// Elements of the box inside the tile, and past its end.
  int64_t elements = 0, outside = 0;
  /// Size of one element in bytes.
  int64_t elementBytes = 0;
  /// The element offsets of the box, ascending.
  std::vector<int64_t> offsets;
  /// How many elements of the box start in each 4-byte bank.
  std::array<int64_t, kSharedBanks> perBank{};
};

/// The element offsets and banks of box \p box of shared layout \p layout
/// (one output: the element offset) with elements of \p elementBytes bytes.
llvm::Expected<SharedSliceCover> coverSharedSlice(const Layout &layout,
                                                  int64_t elementBytes,
                                                  const SliceBox &box);

/// `[0:8, 8:16]`: the box as Python slices (`[3, 0:64]` for an extent of 1).
std::string sliceText(const SliceBox &box);

/// Markdown lines saying which threads hold the slice and in which
/// registers: `64 elements · 16 of 128 threads hold it, 4 registers each
/// (r4–r7)`, then the threads as ranges (`0–3, 32–35, ...`).
std::string describeSlice(const FragmentSliceCover &cover);

/// Markdown lines saying where the slice lies in shared memory: its
/// elements, byte span, contiguous runs and the banks they start in.
std::string describeSlice(const SharedSliceCover &cover);

/// The part of \p map's text grid inside \p box (the map's labels: view
/// rows, i.e. every dimension but the last folded, and columns), clipped
/// to \p maxRows x \p maxCols with a note saying so. Cells past the tile are
/// left out.
std::string renderSliceText(const LayoutMap &map, const SliceBox &box,
                            unsigned maxRows = 16, unsigned maxCols = 16);

/// "0–3, 8–11, 16" for ascending \p values; past \p maxRuns runs, the rest
/// is counted (`, … (5 more)`).
std::string formatRuns(const std::vector<int64_t> &values,
                       unsigned maxRuns = 8);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_LAYOUTSLICE_H
