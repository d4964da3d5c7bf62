//===- LayoutMap.h - Element-by-element maps of layouts, for pictures -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A LayoutMap is a layout enumerated over its tile, viewed as a 2-d grid
// (every dimension but the last folded into the rows): for a fragment, the
// thread and register of each element (replica 0, with the other replicas'
// threads); for a shared buffer, the element offset, the 4-byte bank of its
// first byte and its swizzle phase. Pictures (renderLayoutSvg), the text
// grid of the editors (renderLayoutText) and the language server's cell map
// are all drawn from one map.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_LAYOUTMAP_H
#define TLC_LAYOUT_LAYOUTMAP_H

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/Layout.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tlc {
namespace layout {

/// Shared-memory geometry of NVIDIA GPUs since Fermi (and of CDNA LDS):
/// 32 banks of 4 bytes; a 128-byte line touches every bank once.
constexpr int64_t kSharedBanks = 32;
/// Width of one bank in bytes.
constexpr int64_t kBankBytes = 4;

/// One element of the tile.
struct LayoutCell {
  /// Fragment: owning thread of replica 0. Shared: -1.
  int64_t thread = -1;
  /// Fragment: register index in that thread. Shared: element offset.
  int64_t index = -1;
  /// Shared: bank of the element's first byte (byte offset / 4 % 32).
  int64_t bank = -1;
  /// Shared: swizzle phase, the XOR between the 16-byte chunk the element
  /// lies in within its 128-byte line and the chunk a row-major tile puts
  /// it in (0 everywhere for a linear layout).
  int64_t phase = -1;
};

/// What a LayoutMap describes.
enum class LayoutMapKind : uint8_t { Fragment, Shared };

/// A layout enumerated over its tile.
struct LayoutMap {
  LayoutMapKind kind = LayoutMapKind::Fragment;
  /// The buffer name (`C_local`).
  std::string name;
  /// The logical shape.
  std::vector<int64_t> shape;
  /// Element type name (`float16`), for titles.
  std::string dtype;
  /// The 2-d view: rows (all but the last dimension folded) and columns.
  int64_t rows = 0, cols = 0;
  /// rows * cols cells, row-major.
  std::vector<LayoutCell> cells;
  /// Fragment: threads holding the tile (max thread + 1), registers per
  /// thread and replication. Shared: element size in bytes.
  int64_t threads = 0, regsPerThread = 0, replicate = 1, elementBytes = 0;
  /// Fragment: the threads of replicas 1 .. replicate-1 of each cell,
  /// `cells.size() * (replicate - 1)` entries (empty when replicate is 1 or
  /// above 8).
  std::vector<int64_t> replicaThreads;
  /// The instruction layout or derivation (`mma.C`, `wgmma.C`, `mfma.B`,
  /// `parallel`) or the shared layout's label (`swizzle 128B`, `padded +8`).
  std::string instruction;
  /// The layout's one-line label (`mma.C · 2×2 warps · 32 regs/thread`).
  std::string label;
  /// The instance the buffer belongs to, for titles (may be empty).
  std::string instance;

  /// The cell at view position (\p row, \p col).
  const LayoutCell &at(int64_t row, int64_t col) const {
    return cells[row * cols + col];
  }
  /// The logical coordinate of view position (\p row, \p col).
  std::vector<int64_t> coordOf(int64_t row, int64_t col) const;
  /// One line naming the buffer, shape, layout and replication.
  std::string title() const;
};

/// Enumerates \p fragment (a valid fragment of rank >= 1).
llvm::Expected<LayoutMap> mapFragment(const Fragment &fragment,
                                      llvm::StringRef name,
                                      llvm::StringRef dtype = "");

/// Enumerates the shared layout \p layout (one output: the element offset)
/// of elements of \p elementBytes bytes.
llvm::Expected<LayoutMap> mapShared(const Layout &layout, int64_t elementBytes,
                                    llvm::StringRef name,
                                    llvm::StringRef dtype = "");

/// The map as a text grid: the title line, a column header, then one line
/// per row with the thread (fragments) or bank (shared) of each cell. Rows
/// and columns past \p maxRows / \p maxCols are left out and a last line
/// says how many.
std::string renderLayoutText(const LayoutMap &map, unsigned maxRows = 32,
                             unsigned maxCols = 16);

/// Options of renderLayoutSvg().
struct SvgOptions {
  /// Cells drawn with their thread/register (bank/phase) text; above this
  /// count only colours and tooltips are drawn.
  int64_t maxTextCells = 64 * 64;
};

/// The map as a standalone SVG document: a title, a grid of cells coloured
/// by thread (fragments: hue by warp, shade by lane) or by bank (shared),
/// each with a `<title>` tooltip, row/column rulers and a legend. The
/// viewBox makes it scale; text never exceeds its cell.
std::string renderLayoutSvg(const LayoutMap &map,
                            const SvgOptions &options = SvgOptions());

/// The fill colour of thread \p thread in fragment pictures
/// (`hsl(H,S%,L%)`): distinct for every thread of a block of up to 1024.
std::string threadColour(int64_t thread);

/// The fill colour of bank \p bank in shared-memory pictures.
std::string bankColour(int64_t bank);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_LAYOUTMAP_H
