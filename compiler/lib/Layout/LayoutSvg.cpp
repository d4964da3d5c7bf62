//===- LayoutSvg.cpp - SVG pictures of layout maps
//-------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Writes a LayoutMap as a standalone SVG document. Geometry, in viewBox
// units: a title block, a column ruler, the grid of square cells with a row
// ruler on the left, and a legend under the grid. Text sizes are derived
// from the cell size and the longest label so that no text leaves its cell
// (glyphs are taken as 0.62 em wide, which bounds the common sans fonts'
// digits); rulers label every k-th row/column so that labels never touch.
// Every cell is a `<rect class="cell">` with data-* attributes (its
// coordinate and slot) and a `<title>` tooltip, so a picture can be checked
// with an XML parser and explored by hovering.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/LayoutMap.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace tlc::layout;

namespace {
/// Cell edge in viewBox units.
constexpr double kCell = 28;
/// Width of one glyph per em of font size (an upper bound for digits).
constexpr double kGlyph = 0.62;
/// Left margin (row ruler) and gaps.
constexpr double kMargin = 12;
} // namespace

std::string tlc::layout::threadColour(int64_t thread) {
  int64_t warp = thread / 32, lane = thread % 32;
  // Hue by warp (8 hues 45° apart, shifted by 11° for each further group
  // of 8 warps), saturation by lane group of 8, lightness by lane in it.
  int64_t hue = (warp % 8) * 45 + (warp / 8 % 4) * 11;
  int64_t sat = 50 + (lane / 8) * 12;
  int64_t light = 40 + (lane % 8) * 6;
  return "hsl(" + std::to_string(hue) + "," + std::to_string(sat) + "%," +
         std::to_string(light) + "%)";
}

std::string tlc::layout::bankColour(int64_t bank) {
  // Neighbouring banks get distant hues (7 is coprime with 32).
  int64_t slot = bank * 7 % kSharedBanks;
  int64_t hue = slot * 45 / 4; // 11.25° steps, distinct integers
  int64_t light = bank % 2 ? 62 : 74;
  return "hsl(" + std::to_string(hue) + ",70%," + std::to_string(light) + "%)";
}

/// \p text with XML's special characters escaped.
static std::string escape(llvm::StringRef text) {
  std::string s;
  for (char c : text) {
    switch (c) {
    case '&':
      s += "&amp;";
      break;
    case '<':
      s += "&lt;";
      break;
    case '>':
      s += "&gt;";
      break;
    case '"':
      s += "&quot;";
      break;
    default:
      s += c;
    }
  }
  return s;
}

/// Number of code points of UTF-8 \p text (its width in glyphs).
static size_t glyphs(llvm::StringRef text) {
  return llvm::count_if(text, [](char c) { return (c & 0xC0) != 0x80; });
}

/// A number with at most one decimal, as SVG attributes want it.
static std::string num(double v) {
  double r = std::round(v * 10) / 10;
  if (r == std::floor(r))
    return std::to_string(int64_t(r));
  std::string s = std::to_string(r);
  return s.substr(0, s.find('.') + 2);
}

/// The smallest step in 1, 2, 4, 8, ... such that ruler labels of up to
/// \p digits digits, \p font units high, spaced step cells apart, do not
/// touch.
static int64_t rulerStep(size_t digits, double font) {
  int64_t step = 1;
  while (step * kCell < digits * kGlyph * font + 4)
    step *= 2;
  return step;
}

/// The tooltip of cell (\p r, \p c).
static std::string tooltip(const LayoutMap &map, int64_t r, int64_t c) {
  const LayoutCell &cell = map.at(r, c);
  std::vector<int64_t> coord = map.coordOf(r, c);
  std::string s = map.name + "[";
  for (auto [i, x] : llvm::enumerate(coord))
    s += (i ? ", " : "") + std::to_string(x);
  s += "] → ";
  if (map.kind == LayoutMapKind::Fragment) {
    s += "thread " + std::to_string(cell.thread) + ", register " +
         std::to_string(cell.index) + " (warp " +
         std::to_string(cell.thread / 32) + ", lane " +
         std::to_string(cell.thread % 32) + ")";
    if (map.replicate > 1) {
      s += "; replicated ×" + std::to_string(map.replicate);
      if (!map.replicaThreads.empty()) {
        s += " (also threads";
        int64_t n = map.replicate - 1;
        for (int64_t k = 0; k < n; ++k)
          s += " " +
               std::to_string(map.replicaThreads[(r * map.cols + c) * n + k]);
        s += ")";
      }
    }
  } else {
    int64_t byte = cell.index * map.elementBytes;
    s += "offset " + std::to_string(cell.index) + " (byte " +
         std::to_string(byte) + "), bank " + std::to_string(cell.bank) +
         ", swizzle phase " + std::to_string(cell.phase);
  }
  return s;
}

std::string tlc::layout::renderLayoutSvg(const LayoutMap &map,
                                         const SvgOptions &options) {
  bool frag = map.kind == LayoutMapKind::Fragment;
  std::string title = map.title();
  std::string subtitle =
      frag ? "cell: T<thread> r<register> · colour: hue by warp, shade by "
             "lane"
           : "cell: b<bank> (4-byte bank of 32) φ<swizzle phase> · colour: "
             "bank";
  if (frag && map.replicate > 1)
    subtitle += " · replica 0 shown, every replica in the tooltip";
  bool cellText = int64_t(map.cells.size()) <= options.maxTextCells;
  if (!cellText)
    subtitle += " · " + std::to_string(map.cells.size()) +
                " cells: hover a cell for its slot";

  // In-cell text: two lines, the longest label decides the size.
  size_t longest = 1;
  for (const LayoutCell &cell : map.cells) {
    int64_t a = frag ? cell.thread : cell.bank;
    int64_t b = frag ? cell.index : cell.phase;
    longest = std::max(
        {longest, std::to_string(a).size() + 1, std::to_string(b).size() + 1});
  }
  double cellFont = std::min(kCell * 0.36, (kCell - 4) / (kGlyph * longest));
  double rulerFont = 9;
  int64_t colStep = rulerStep(std::to_string(map.cols - 1).size(), rulerFont);
  // Rows are stacked vertically: one label height apart is enough.
  int64_t rowStep = 1;
  while (rowStep * kCell < rulerFont + 4)
    rowStep *= 2;

  double titleFont = 14, subFont = 11;
  double left =
      kMargin + std::to_string(map.rows - 1).size() * kGlyph * rulerFont + 6;
  double top = 10 + titleFont + 6 + subFont + 10 + rulerFont + 4;
  double gridW = map.cols * kCell, gridH = map.rows * kCell;

  // Legend: warps (fragments) or banks (shared).
  struct Swatch {
    std::string fill, text;
  };
  std::vector<Swatch> legend;
  if (frag) {
    int64_t warps = (map.threads + 31) / 32;
    for (int64_t w = 0; w < warps; ++w)
      legend.push_back(
          {threadColour(w * 32 + 12),
           "warp " + std::to_string(w) + ": T" + std::to_string(w * 32) + "–" +
               std::to_string(std::min(map.threads, w * 32 + 32) - 1)});
  } else {
    for (int64_t b = 0; b < kSharedBanks; ++b)
      legend.push_back({bankColour(b), std::to_string(b)});
  }
  double legendFont = 10;
  double swatchW = frag ? 140 : kCell, swatchH = 18;
  double contentW = std::max(gridW, 8 * swatchW);
  int64_t perRow = std::max<int64_t>(1, int64_t(contentW / swatchW));
  int64_t legendRows = (legend.size() + perRow - 1) / perRow;
  double legendTop = top + gridH + 14;
  double legendH = 16 + legendRows * (swatchH + 4);

  double width = std::max({left + contentW + kMargin,
                           kMargin * 2 + glyphs(title) * kGlyph * titleFont,
                           kMargin * 2 + glyphs(subtitle) * kGlyph * subFont});
  double height = legendTop + legendH + kMargin;
  // Shown size: the viewBox scaled to at most 1600 px on its longer side
  // (the viewBox keeps everything zoomable).
  double scale = std::min(1.0, 1600 / std::max(width, height));

  std::string out;
  llvm::raw_string_ostream os(out);
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << num(width)
     << " " << num(height) << "\" width=\"" << num(width * scale)
     << "\" height=\"" << num(height * scale)
     << "\" font-family=\"DejaVu Sans, Verdana, sans-serif\""
     << " data-kind=\"" << (frag ? "fragment" : "shared") << "\" data-rows=\""
     << map.rows << "\" data-cols=\"" << map.cols << "\">\n";
  os << "<title>" << escape(title) << "</title>\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  double y = 10 + titleFont;
  os << "<text class=\"title\" x=\"" << num(kMargin) << "\" y=\"" << num(y)
     << "\" font-size=\"" << num(titleFont) << "\" font-weight=\"bold\">"
     << escape(title) << "</text>\n";
  y += 6 + subFont;
  os << "<text class=\"subtitle\" x=\"" << num(kMargin) << "\" y=\"" << num(y)
     << "\" font-size=\"" << num(subFont) << "\" fill=\"#444\">"
     << escape(subtitle) << "</text>\n";

  // Rulers.
  os << "<g class=\"ruler\" font-size=\"" << num(rulerFont)
     << "\" fill=\"#555\">\n";
  for (int64_t c = 0; c < map.cols; c += colStep)
    os << "<text x=\"" << num(left + c * kCell + kCell / 2) << "\" y=\""
       << num(top - 4) << "\" text-anchor=\"middle\">" << c << "</text>\n";
  for (int64_t r = 0; r < map.rows; r += rowStep)
    os << "<text x=\"" << num(left - 4) << "\" y=\""
       << num(top + r * kCell + kCell / 2 + rulerFont * 0.35)
       << "\" text-anchor=\"end\">" << r << "</text>\n";
  os << "</g>\n";

  // Cells.
  os << "<g class=\"grid\" stroke=\"white\" stroke-width=\"1\">\n";
  for (int64_t r = 0; r < map.rows; ++r)
    for (int64_t c = 0; c < map.cols; ++c) {
      const LayoutCell &cell = map.at(r, c);
      std::vector<int64_t> coord = map.coordOf(r, c);
      os << "<rect class=\"cell\" x=\"" << num(left + c * kCell) << "\" y=\""
         << num(top + r * kCell) << "\" width=\"" << num(kCell)
         << "\" height=\"" << num(kCell) << "\" fill=\""
         << (frag ? threadColour(cell.thread) : bankColour(cell.bank))
         << "\" data-i=\"" << r << "\" data-j=\"" << c << "\"";
      if (frag)
        os << " data-thread=\"" << cell.thread << "\" data-reg=\"" << cell.index
           << "\"";
      else
        os << " data-offset=\"" << cell.index << "\" data-bank=\"" << cell.bank
           << "\" data-phase=\"" << cell.phase << "\"";
      os << "><title>" << escape(tooltip(map, r, c)) << "</title></rect>\n";
    }
  os << "</g>\n";
  if (cellText) {
    os << "<g class=\"cell-text\" font-size=\"" << num(cellFont)
       << "\" text-anchor=\"middle\" fill=\"#111\" pointer-events=\"none\">\n";
    for (int64_t r = 0; r < map.rows; ++r)
      for (int64_t c = 0; c < map.cols; ++c) {
        const LayoutCell &cell = map.at(r, c);
        double cx = left + c * kCell + kCell / 2, cy = top + r * kCell;
        std::string a = frag ? "T" + std::to_string(cell.thread)
                             : "b" + std::to_string(cell.bank);
        std::string b = frag ? "r" + std::to_string(cell.index)
                             : "φ" + std::to_string(cell.phase);
        os << "<text x=\"" << num(cx) << "\" y=\"" << num(cy + kCell / 2 - 1)
           << "\">" << a << "</text><text x=\"" << num(cx) << "\" y=\""
           << num(cy + kCell / 2 + cellFont) << "\">" << escape(b)
           << "</text>\n";
      }
    os << "</g>\n";
  }

  // Legend.
  os << "<g class=\"legend\" font-size=\"" << num(legendFont) << "\">\n";
  os << "<text x=\"" << num(left) << "\" y=\"" << num(legendTop + 10)
     << "\" fill=\"#444\">"
     << (frag ? "warps (shade: lane 0 darkest → lane 31 lightest)" : "banks")
     << "</text>\n";
  for (auto [k, s] : llvm::enumerate(legend)) {
    double x = left + (k % perRow) * swatchW;
    double sy = legendTop + 16 + (k / perRow) * (swatchH + 4);
    double boxW = frag ? swatchH : kCell - 2;
    os << "<rect class=\"swatch\" x=\"" << num(x) << "\" y=\"" << num(sy)
       << "\" width=\"" << num(boxW) << "\" height=\"" << num(swatchH)
       << "\" fill=\"" << s.fill << "\"/>";
    if (frag)
      os << "<text x=\"" << num(x + swatchH + 4) << "\" y=\""
         << num(sy + swatchH - 5) << "\">" << escape(s.text) << "</text>\n";
    else
      os << "<text x=\"" << num(x + boxW / 2) << "\" y=\""
         << num(sy + swatchH - 5) << "\" text-anchor=\"middle\">" << s.text
         << "</text>\n";
  }
  os << "</g>\n</svg>\n";
  return out;
}
