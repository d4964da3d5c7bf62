//===- LayoutSlice.cpp - Which threads and banks a slice of a tile covers -===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/LayoutSlice.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Checks \p box against a tile of rank \p rank.
static llvm::Error checkBox(const SliceBox &box, size_t rank) {
  if (box.begin.size() != rank || box.extent.size() != rank)
    return makeError("a slice of rank " + llvm::Twine(box.begin.size()) +
                     " of a tile of rank " + llvm::Twine(rank));
  for (int64_t e : box.extent)
    if (e < 0)
      return makeError("a slice with a negative extent");
  return llvm::Error::success();
}

/// Calls \p fn with every coordinate of \p box in row-major order and
/// whether it lies inside \p shape.
template <typename Fn>
static void forEachBoxCoord(const SliceBox &box, llvm::ArrayRef<int64_t> shape,
                         Fn fn) {
  size_t rank = box.begin.size();
  if (llvm::any_of(box.extent, [](int64_t e) { return e == 0; }))
    return;
  std::vector<int64_t> coord(box.begin);
  for (;;) {
    bool inside = true;
    for (size_t d = 0; d < rank; ++d)
      inside &= coord[d] >= 0 && coord[d] < shape[d];
    fn(llvm::ArrayRef<int64_t>(coord), inside);
    size_t d = rank;
    while (d > 0) {
      --d;
      if (++coord[d] < box.begin[d] + box.extent[d])
        break;
      coord[d] = box.begin[d];
      if (d == 0)
        return;
    }
    if (rank == 0)
      return;
  }
}

llvm::Expected<FragmentSliceCover>
tlc::layout::coverFragmentSlice(const Fragment &fragment, const SliceBox &box) {
  if (llvm::Error e = checkBox(box, fragment.getInputRank()))
    return std::move(e);
  FragmentSliceCover cover;
  cover.threadExtent = fragment.getThreadExtent();
  cover.replicate = fragment.getReplicate();
  std::map<int64_t, std::set<int64_t>> held;
  bool broken = false;
  forEachBoxCoord(box, fragment.getInputShape(),
               [&](llvm::ArrayRef<int64_t> coord, bool inside) {
                 if (!inside) {
                   ++cover.outside;
                   return;
                 }
                 ++cover.elements;
                 for (int64_t rep = 0; rep < cover.replicate; ++rep) {
                   std::optional<FragmentSlot> slot =
                       fragment.apply(coord, rep);
                   if (!slot) {
                     broken = true;
                     return;
                   }
                   held[slot->thread].insert(slot->index);
                 }
               });
  if (broken)
    return makeError("the fragment does not cover its tile");
  for (auto &[thread, regs] : held)
    cover.registers[thread].assign(regs.begin(), regs.end());
  return cover;
}

llvm::Expected<SharedSliceCover>
tlc::layout::coverSharedSlice(const Layout &layout, int64_t elementBytes,
                              const SliceBox &box) {
  if (layout.getOutputRank() != 1)
    return makeError("a shared layout has one output (the element offset)");
  if (elementBytes <= 0)
    return makeError("unknown element size");
  if (llvm::Error e = checkBox(box, layout.getInputRank()))
    return std::move(e);
  SharedSliceCover cover;
  cover.elementBytes = elementBytes;
  bool broken = false;
  forEachBoxCoord(box, layout.getInputShape(),
               [&](llvm::ArrayRef<int64_t> coord, bool inside) {
                 if (!inside) {
                   ++cover.outside;
                   return;
                 }
                 ++cover.elements;
                 std::optional<int64_t> offset = layout.applyFlat(coord);
                 if (!offset) {
                   broken = true;
                   return;
                 }
                 cover.offsets.push_back(*offset);
                 ++cover.perBank[*offset * elementBytes / kBankBytes %
                                 kSharedBanks];
               });
  if (broken)
    return makeError("the layout does not cover its tile");
  llvm::sort(cover.offsets);
  return cover;
}

std::string tlc::layout::sliceText(const SliceBox &box) {
  std::string s = "[";
  for (size_t d = 0; d < box.begin.size(); ++d) {
    s += d ? ", " : "";
    s += std::to_string(box.begin[d]);
    if (box.extent[d] != 1)
      s += ":" + std::to_string(box.begin[d] + box.extent[d]);
  }
  return s + "]";
}

std::string tlc::layout::formatRuns(const std::vector<int64_t> &values,
                                    unsigned maxRuns) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (int64_t v : values) {
    if (!runs.empty() && runs.back().second + 1 == v)
      runs.back().second = v;
    else
      runs.push_back({v, v});
  }
  std::string s;
  for (size_t i = 0; i < runs.size() && i < maxRuns; ++i) {
    s += i ? ", " : "";
    s += std::to_string(runs[i].first);
    if (runs[i].second != runs[i].first)
      s += "–" + std::to_string(runs[i].second);
  }
  if (runs.size() > maxRuns)
    s += ", … (" + std::to_string(runs.size() - maxRuns) + " more)";
  return s;
}

/// `outside` as a sentence part, or "".
static std::string outsideText(int64_t outside) {
  if (!outside)
    return "";
  return " · " + std::to_string(outside) + " past the end of the tile " +
         "(guarded: read as 0, writes dropped)";
}

std::string tlc::layout::describeSlice(const FragmentSliceCover &cover) {
  std::string s = std::to_string(cover.elements) + " element" +
                  (cover.elements == 1 ? "" : "s");
  s += outsideText(cover.outside);
  if (cover.registers.empty())
    return s + "\n";
  size_t fewest = SIZE_MAX, most = 0;
  std::set<std::vector<int64_t>> registerSets;
  std::vector<int64_t> threads;
  for (const auto &[thread, regs] : cover.registers) {
    threads.push_back(thread);
    fewest = std::min(fewest, regs.size());
    most = std::max(most, regs.size());
    registerSets.insert(regs);
  }
  s += " · " + std::to_string(threads.size()) + " of " +
       std::to_string(cover.threadExtent) + " thread" +
       (cover.threadExtent == 1 ? "" : "s") + " hold it";
  if (cover.replicate > 1)
    s += " (" + std::to_string(cover.replicate) + " replicas)";
  s += ", " +
       (fewest == most ? std::to_string(most)
                       : std::to_string(fewest) + "–" + std::to_string(most)) +
       " register" + (most == 1 ? "" : "s") + " each";
  if (registerSets.size() == 1)
    s += " (r" + formatRuns(*registerSets.begin(), 4) + ")";
  s += "\n\nthreads " + formatRuns(threads);
  // By warp when the slice takes the same lanes of several warps.
  std::map<int64_t, std::vector<int64_t>> lanesOf;
  for (int64_t t : threads)
    lanesOf[t / 32].push_back(t % 32);
  bool sameLanes = llvm::all_of(lanesOf, [&](const auto &w) {
    return w.second == lanesOf.begin()->second;
  });
  if (lanesOf.size() > 1 && sameLanes) {
    std::vector<int64_t> warps;
    for (const auto &w : lanesOf)
      warps.push_back(w.first);
    s += " (lanes " + formatRuns(lanesOf.begin()->second) + " of warps " +
         formatRuns(warps) + ")";
  }
  return s + "\n";
}

std::string tlc::layout::describeSlice(const SharedSliceCover &cover) {
  std::string s = std::to_string(cover.elements) + " element" +
                  (cover.elements == 1 ? "" : "s");
  s += outsideText(cover.outside);
  if (cover.offsets.empty())
    return s + "\n";
  int64_t runs = 1;
  for (size_t i = 1; i < cover.offsets.size(); ++i)
    runs += cover.offsets[i] != cover.offsets[i - 1] + 1;
  int64_t first = cover.offsets.front() * cover.elementBytes;
  int64_t last = (cover.offsets.back() + 1) * cover.elementBytes;
  s += " · bytes " + std::to_string(first) + "–" + std::to_string(last - 1) +
       " of the tile, ";
  if (runs == 1)
    s += "contiguous";
  else
    s += "in " + std::to_string(runs) + " contiguous runs";
  std::vector<int64_t> banks;
  int64_t fewest = INT64_MAX, most = 0;
  for (int64_t b = 0; b < kSharedBanks; ++b)
    if (cover.perBank[b]) {
      banks.push_back(b);
      fewest = std::min(fewest, cover.perBank[b]);
      most = std::max(most, cover.perBank[b]);
    }
  s += "\n\nstarting in banks " + formatRuns(banks) + ", " +
       (fewest == most ? std::to_string(most)
                       : std::to_string(fewest) + "–" + std::to_string(most)) +
       " element" + (most == 1 ? "" : "s") + " in each\n";
  return s;
}

/// \p s right-aligned in \p width columns.
static std::string padLeft(const std::string &s, unsigned width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string tlc::layout::renderSliceText(const LayoutMap &map,
                                         const SliceBox &box,
                                         unsigned maxRows, unsigned maxCols) {
  size_t rank = map.shape.size();
  if (rank == 0 || box.begin.size() != rank || box.extent.size() != rank)
    return "";
  bool frag = map.kind == LayoutMapKind::Fragment;
  // The view rows of the box (every dimension but the last folded) and its
  // columns, inside the tile.
  std::vector<int64_t> rows, cols;
  SliceBox lead = box;
  lead.begin.back() = 0;
  lead.extent.back() = 1;
  std::vector<int64_t> leadShape(map.shape);
  leadShape.back() = 1;
  forEachBoxCoord(lead, leadShape,
               [&](llvm::ArrayRef<int64_t> coord, bool inside) {
                 if (!inside)
                   return;
                 int64_t row = 0;
                 for (size_t d = 0; d + 1 < rank; ++d)
                   row = row * map.shape[d] + coord[d];
                 rows.push_back(row);
               });
  for (int64_t c = box.begin.back();
       c < box.begin.back() + box.extent.back(); ++c)
    if (c >= 0 && c < map.cols)
      cols.push_back(c);
  if (rows.empty() || cols.empty())
    return "";
  size_t shownRows = std::min<size_t>(rows.size(), maxRows);
  size_t shownCols = std::min<size_t>(cols.size(), maxCols);
  int64_t widest = 0;
  for (size_t r = 0; r < shownRows; ++r)
    for (size_t c = 0; c < shownCols; ++c) {
      const LayoutCell &cell = map.at(rows[r], cols[c]);
      widest = std::max(widest, frag ? cell.thread : cell.bank);
    }
  unsigned width = std::max<unsigned>(
      std::to_string(std::max(widest, cols[shownCols - 1])).size(), 2);
  unsigned rowWidth = std::to_string(rows[shownRows - 1]).size();
  std::string out;
  llvm::raw_string_ostream os(out);
  os << (frag ? "cells: thread" : "cells: bank") << "; rows i"
     << (rank > 2 ? " (leading dimensions folded)" : "") << ", columns j\n";
  os << std::string(rowWidth, ' ') << " |";
  for (size_t c = 0; c < shownCols; ++c)
    os << " " << padLeft(std::to_string(cols[c]), width);
  os << "\n"
     << std::string(rowWidth, '-') << "-+"
     << std::string(shownCols * (width + 1), '-') << "\n";
  for (size_t r = 0; r < shownRows; ++r) {
    os << padLeft(std::to_string(rows[r]), rowWidth) << " |";
    for (size_t c = 0; c < shownCols; ++c) {
      const LayoutCell &cell = map.at(rows[r], cols[c]);
      os << " " << padLeft(std::to_string(frag ? cell.thread : cell.bank),
                           width);
    }
    os << "\n";
  }
  if (shownRows < rows.size() || shownCols < cols.size())
    os << "(showing " << shownRows << " of " << rows.size() << " rows, "
       << shownCols << " of " << cols.size() << " columns of the slice)\n";
  return out;
}
