//===- LayoutMap.cpp - Element-by-element maps of layouts -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/LayoutMap.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// `64×64`.
static std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  for (auto [i, e] : llvm::enumerate(shape))
    s += (i ? "×" : "") + std::to_string(e);
  return s.empty() ? "scalar" : s;
}

/// Sets the 2-d view of \p map from its shape.
static void setView(LayoutMap &map) {
  map.cols = map.shape.empty() ? 1 : map.shape.back();
  map.rows = numElements(map.shape) / std::max<int64_t>(map.cols, 1);
}

std::vector<int64_t> LayoutMap::coordOf(int64_t row, int64_t col) const {
  std::vector<int64_t> coord(shape.size());
  if (shape.empty())
    return coord;
  coord.back() = col;
  for (int d = int(shape.size()) - 2; d >= 0; --d) {
    coord[d] = row % shape[d];
    row /= shape[d];
  }
  return coord;
}

std::string LayoutMap::title() const {
  std::string t = name + " — ";
  t += kind == LayoutMapKind::Fragment ? "fragment " : "shared ";
  t += shapeText(shape);
  if (!dtype.empty())
    t += " " + dtype;
  if (!label.empty())
    t += " · " + label;
  if (kind == LayoutMapKind::Fragment)
    t += " · " + std::to_string(threads) + " threads";
  if (!instance.empty())
    t += " · " + instance;
  return t;
}

llvm::Expected<LayoutMap> tlc::layout::mapFragment(const Fragment &fragment,
                                                   llvm::StringRef name,
                                                   llvm::StringRef dtype) {
  if (fragment.getInputRank() == 0)
    return makeError("a scalar fragment has no picture");
  LayoutMap map;
  map.kind = LayoutMapKind::Fragment;
  map.name = name.str();
  map.dtype = dtype.str();
  map.shape = fragment.getInputShape().vec();
  setView(map);
  map.threads = fragment.getThreadExtent();
  map.regsPerThread = fragment.getRegsPerThread();
  map.replicate = fragment.getReplicate();
  map.instruction = fragment.getOrigin().tag;
  map.label = fragment.shortLabel();
  map.cells.resize(map.rows * map.cols);
  bool keepReplicas = map.replicate > 1 && map.replicate <= 8;
  if (keepReplicas)
    map.replicaThreads.resize(map.cells.size() * (map.replicate - 1));
  for (int64_t r = 0; r < map.rows; ++r)
    for (int64_t c = 0; c < map.cols; ++c) {
      std::vector<int64_t> coord = map.coordOf(r, c);
      int64_t flat = r * map.cols + c;
      std::optional<FragmentSlot> slot = fragment.apply(coord, 0);
      if (!slot)
        return makeError("the fragment does not cover its tile");
      map.cells[flat].thread = slot->thread;
      map.cells[flat].index = slot->index;
      if (!keepReplicas)
        continue;
      for (int64_t rep = 1; rep < map.replicate; ++rep) {
        std::optional<FragmentSlot> s = fragment.apply(coord, rep);
        map.replicaThreads[flat * (map.replicate - 1) + rep - 1] =
            s ? s->thread : -1;
      }
    }
  return map;
}

llvm::Expected<LayoutMap> tlc::layout::mapShared(const Layout &layout,
                                                 int64_t elementBytes,
                                                 llvm::StringRef name,
                                                 llvm::StringRef dtype) {
  if (layout.getInputRank() == 0 || layout.getOutputRank() != 1)
    return makeError("a shared-memory picture needs a layout of rank >= 1 "
                     "with one output (the element offset)");
  if (elementBytes <= 0)
    return makeError("unknown element size");
  LayoutMap map;
  map.kind = LayoutMapKind::Shared;
  map.name = name.str();
  map.dtype = dtype.str();
  map.shape = layout.getInputShape().vec();
  setView(map);
  map.elementBytes = elementBytes;
  map.label = layout.shortLabel();
  map.instruction = map.label;
  map.cells.resize(map.rows * map.cols);
  for (int64_t r = 0; r < map.rows; ++r)
    for (int64_t c = 0; c < map.cols; ++c) {
      std::optional<int64_t> offset = layout.applyFlat(map.coordOf(r, c));
      if (!offset)
        return makeError("the layout does not cover its tile");
      LayoutCell &cell = map.cells[r * map.cols + c];
      int64_t byte = *offset * elementBytes;
      // Where a row-major tile puts the element.
      int64_t linearByte = (r * map.cols + c) * elementBytes;
      cell.index = *offset;
      cell.bank = byte / kBankBytes % kSharedBanks;
      cell.phase = ((byte / 16) % 8) ^ ((linearByte / 16) % 8);
    }
  return map;
}

/// \p value right-aligned in \p width columns.
static std::string padLeft(int64_t value, unsigned width) {
  std::string s = std::to_string(value);
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string tlc::layout::renderLayoutText(const LayoutMap &map,
                                          unsigned maxRows, unsigned maxCols) {
  std::string out;
  llvm::raw_string_ostream os(out);
  bool frag = map.kind == LayoutMapKind::Fragment;
  os << map.title() << "\n";
  os << (frag ? "cells: thread (register in the hover); rows i, columns j\n"
              : "cells: bank (4-byte, of 32); rows i, columns j\n");
  int64_t rows = std::min<int64_t>(map.rows, maxRows);
  int64_t cols = std::min<int64_t>(map.cols, maxCols);
  // Column width: the widest number shown, at least the column labels'.
  int64_t widest = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const LayoutCell &cell = map.at(r, c);
      widest = std::max(widest, frag ? cell.thread : cell.bank);
    }
  unsigned width = std::max<unsigned>(
      std::to_string(std::max<int64_t>(widest, cols - 1)).size(), 2);
  unsigned rowWidth = std::to_string(std::max<int64_t>(rows - 1, 0)).size();
  os << std::string(rowWidth, ' ') << " |";
  for (int64_t c = 0; c < cols; ++c)
    os << " " << padLeft(c, width);
  os << "\n"
     << std::string(rowWidth, '-') << "-+"
     << std::string(cols * (width + 1), '-') << "\n";
  for (int64_t r = 0; r < rows; ++r) {
    os << padLeft(r, rowWidth) << " |";
    for (int64_t c = 0; c < cols; ++c) {
      const LayoutCell &cell = map.at(r, c);
      os << " " << padLeft(frag ? cell.thread : cell.bank, width);
    }
    os << "\n";
  }
  if (rows < map.rows || cols < map.cols)
    os << "(showing " << rows << " of " << map.rows << " rows, " << cols
       << " of " << map.cols << " columns)\n";
  return out;
}
