//===- LayoutPrinter.cpp - Labels and hover text for layouts --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Three renderings of Layout and Fragment: print() (one line, the formulas),
// shortLabel() (inlay hints) and longForm() (hovers: formulas plus a table of
// the top-left corner of the tile).
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tlc::layout;

static void printShape(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> shape) {
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
}

/// Renders a table whose cell (r, c) is `cell(r, c)`, with row and column
/// headers, right-aligned in columns of equal width.
static void printTable(llvm::raw_ostream &os, unsigned rows, unsigned cols,
                       llvm::function_ref<std::string(unsigned, unsigned)> cell,
                       bool showRowHeader) {
  std::vector<std::vector<std::string>> cells(rows,
                                              std::vector<std::string>(cols));
  size_t width = std::to_string(cols - 1).size();
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c) {
      cells[r][c] = cell(r, c);
      width = std::max(width, cells[r][c].size());
    }
  size_t headerWidth = showRowHeader ? std::to_string(rows - 1).size() : 0;
  auto pad = [&](const std::string &s, size_t w) {
    return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
  };
  os << "  " << std::string(headerWidth, ' ');
  for (unsigned c = 0; c < cols; ++c)
    os << ' ' << pad(std::to_string(c), width);
  os << '\n';
  for (unsigned r = 0; r < rows; ++r) {
    os << "  " << (showRowHeader ? pad(std::to_string(r), headerWidth) : "");
    for (unsigned c = 0; c < cols; ++c)
      os << ' ' << pad(cells[r][c], width);
    os << '\n';
  }
}

/// Builds the coordinate shown at table cell (r, c): leading dimensions at
/// 0, the last two dimensions (or the only one) from the cell.
static std::vector<int64_t> cellCoord(llvm::ArrayRef<int64_t> shape,
                                      unsigned r, unsigned c) {
  std::vector<int64_t> coord(shape.size(), 0);
  if (shape.size() == 1) {
    coord[0] = c;
  } else if (shape.size() >= 2) {
    coord[shape.size() - 2] = r;
    coord[shape.size() - 1] = c;
  }
  return coord;
}

/// Rows and columns of the shown corner.
static std::pair<unsigned, unsigned>
cornerSize(llvm::ArrayRef<int64_t> shape, unsigned rows, unsigned cols) {
  if (shape.empty())
    return {1, 1};
  unsigned c = std::min<int64_t>(cols, shape.back());
  unsigned r = shape.size() == 1 ? 1 : std::min<int64_t>(rows, shape.end()[-2]);
  return {r, c};
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

void Layout::print(llvm::raw_ostream &os) const {
  os << "Layout(";
  printShape(os, inputShape);
  os << " -> ";
  printShape(os, getOutputShape());
  if (kind != LayoutKind::Custom)
    os << ", " << shortLabel();
  os << ", [";
  llvm::interleaveComma(inputNames(getInputRank()), os);
  os << "] -> [";
  llvm::interleaveComma(forward, os);
  os << "])";
}

std::string Layout::shortLabel() const {
  if (kind == LayoutKind::Padded)
    return "padded +" + std::to_string(padding);
  return stringifyLayoutKind(kind).str();
}

std::string Layout::longForm(unsigned rows, unsigned cols) const {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "layout ";
  printShape(os, inputShape);
  os << " -> ";
  printShape(os, getOutputShape());
  os << " · " << shortLabel();
  if (elementBits)
    os << " · " << elementBits << "-bit elements";
  os << '\n';
  std::vector<std::string> names = inputNames(getInputRank());
  for (auto [d, e] : llvm::enumerate(forward)) {
    os << (forward.size() == 1 ? std::string("offset")
                               : "out" + std::to_string(d))
       << " = " << e << '\n';
  }
  auto [r, c] = cornerSize(inputShape, rows, cols);
  std::vector<int64_t> outShape = getOutputShape();
  os << "physical offsets of the top-left " << r << "×" << c << ":\n";
  printTable(
      os, r, c,
      [&](unsigned row, unsigned col) {
        std::optional<int64_t> v =
            applyFlat(cellCoord(inputShape, row, col));
        return v ? std::to_string(*v) : std::string("?");
      },
      inputShape.size() >= 2);
  return out;
}

//===----------------------------------------------------------------------===//
// Fragment
//===----------------------------------------------------------------------===//

void Fragment::print(llvm::raw_ostream &os) const {
  os << "Fragment(";
  printShape(os, inputShape);
  os << " -> ";
  printShape(os, indexShape);
  os << ", replicate: " << replicas << ", threads: " << threadExtent
     << ", thread = " << forwardThread << ", index = [";
  llvm::interleaveComma(forwardIndex, os);
  os << "])";
}

std::string Fragment::shortLabel() const {
  std::vector<std::string> parts;
  parts.push_back(origin.tag.empty() ? "fragment" : origin.tag);
  if (origin.warpRows && origin.warpCols)
    parts.push_back(std::to_string(origin.warpRows) + "×" +
                    std::to_string(origin.warpCols) + " warps");
  int64_t regs = getRegsPerThread();
  parts.push_back(std::to_string(regs) +
                  (regs == 1 ? " reg/thread" : " regs/thread"));
  if (replicas > 1)
    parts.push_back("rep " + std::to_string(replicas));
  return llvm::join(parts, " · ");
}

std::string Fragment::longForm(unsigned rows, unsigned cols) const {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "fragment ";
  printShape(os, inputShape);
  os << " · " << threadExtent << " threads · " << getRegsPerThread()
     << " regs/thread · replicate " << replicas << '\n';
  if (!origin.tag.empty()) {
    os << "from " << origin.tag;
    if (origin.warpRows && origin.warpCols)
      os << ", " << origin.warpRows << "×" << origin.warpCols << " warps";
    os << '\n';
  }
  os << "thread = " << forwardThread << '\n';
  os << "index  = ";
  if (forwardIndex.size() == 1) {
    os << forwardIndex[0];
  } else {
    os << '[';
    llvm::interleaveComma(forwardIndex, os);
    os << ']';
  }
  os << '\n';
  auto [r, c] = cornerSize(inputShape, rows, cols);
  os << "T<thread>:<register> of the top-left " << r << "×" << c;
  if (replicas > 1)
    os << " (replica 0 of " << replicas << ")";
  os << ":\n";
  printTable(
      os, r, c,
      [&](unsigned row, unsigned col) {
        std::optional<FragmentSlot> s =
            apply(cellCoord(inputShape, row, col), 0);
        if (!s)
          return std::string("?");
        return "T" + std::to_string(s->thread) + ":" +
               std::to_string(s->index);
      },
      inputShape.size() >= 2);
  return out;
}
