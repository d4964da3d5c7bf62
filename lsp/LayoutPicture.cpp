//===- LayoutPicture.cpp - Layout pictures, lenses and hover grids
//---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The layout views of an analysis (driver::collectLayoutViews) grouped by
// allocation statement: one view per instance of the kernel. A request
// names the buffer (by name or by the cursor on its allocation or on a use)
// and optionally the instance; the answer carries the SVG, the text grid
// and the cell map the editors draw hovers from. A slice of a buffer
// (`acc[0:8, 8:16]`) hovers with what it covers of the layout.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "tlc/Layout/LayoutMap.h"
#include "tlc/Layout/LayoutSlice.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <set>

using namespace tlc;
using namespace tlc::lsp;

/// The innermost kernel whose function contains byte \p offset.
static const KernelFact *kernelAt(const AnalysisFacts &facts, uint32_t offset) {
  const KernelFact *best = nullptr;
  for (const KernelFact &k : facts.kernels)
    if (k.range.begin <= offset && offset <= k.range.end &&
        (!best ||
         k.range.end - k.range.begin < best->range.end - best->range.begin))
      best = &k;
  return best;
}

/// The views of the allocation at byte \p begin, in instance order.
static std::vector<const driver::LayoutView *>
groupAt(const AnalysisFacts &facts, uint32_t begin) {
  std::vector<const driver::LayoutView *> group;
  for (const driver::LayoutView &v : facts.layouts)
    if (v.range.begin == begin)
      group.push_back(&v);
  std::stable_sort(
      group.begin(), group.end(),
      [](const driver::LayoutView *a, const driver::LayoutView *b) {
        return a->instanceIndex < b->instanceIndex;
      });
  return group;
}

/// The identifier around byte \p offset of \p text, or "".
static std::string wordAt(llvm::StringRef text, uint32_t offset) {
  auto isIdent = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  size_t b = std::min<size_t>(offset, text.size()), e = b;
  while (b > 0 && isIdent(text[b - 1]))
    --b;
  while (e < text.size() && isIdent(text[e]))
    ++e;
  return text.slice(b, e).str();
}

/// The allocation a request means: the first one named \p name in the
/// kernel at \p offset (or anywhere), else the one whose statement or name
/// is under the cursor. Returns the allocation's byte offset.
static std::optional<uint32_t> findAllocation(const Document &doc,
                                              const AnalysisFacts &facts,
                                              std::optional<uint32_t> offset,
                                              std::string name) {
  const KernelFact *kernel = offset ? kernelAt(facts, *offset) : nullptr;
  if (name.empty() && offset) {
    for (const driver::LayoutView &v : facts.layouts)
      if (v.range.begin <= *offset && *offset <= v.range.end)
        return v.range.begin;
    // Anywhere on an allocation's line (its name, the indentation).
    const LineIndex &lines = doc.getTree()->lines();
    for (const driver::LayoutView &v : facts.layouts)
      if (lines.getLine(v.range.begin) == lines.getLine(*offset))
        return v.range.begin;
    name = wordAt(doc.getTree()->source(), *offset);
  }
  if (name.empty())
    return std::nullopt;
  std::optional<uint32_t> any;
  for (const driver::LayoutView &v : facts.layouts) {
    if (v.name != name)
      continue;
    bool inKernel = kernel && kernel->range.begin <= v.range.begin &&
                    v.range.end <= kernel->range.end;
    // Of several allocations of the name, the last one before the cursor.
    if (inKernel && (!any || (offset && v.range.begin <= *offset)))
      any = v.range.begin;
    else if (!kernel && !any)
      any = v.range.begin;
  }
  return any;
}

/// The picture's data of exchange \p x: the tile's banks, and for its
/// worst store and load instruction the lanes' elements and the distinct
/// 4-byte words each bank serves (the words a bank serves one after
/// another; NVIDIA's shared memory and CDNA's LDS both have 32 banks of 4
/// bytes). std::nullopt when the tile is not known.
static std::optional<LayoutPicture::ExchangeTile>
exchangeTile(const Document &doc, const ExchangeFact &x) {
  if (x.shape.empty() || x.elementBytes <= 0)
    return std::nullopt;
  LayoutPicture::ExchangeTile t;
  t.statement = doc.toRange(x.range);
  t.label = x.label;
  t.memory = x.lds ? "LDS" : "shared";
  t.offset = x.offset;
  t.elementBytes = x.elementBytes;
  t.cols = x.shape.back();
  t.rows = 1;
  for (size_t i = 0; i + 1 < x.shape.size(); ++i)
    t.rows *= x.shape[i];
  // The picture of a larger tile would not be read; the degrees are in the
  // label.
  if (t.rows <= 0 || t.cols <= 0 || t.rows * t.cols > (int64_t(1) << 16))
    return std::nullopt;
  for (int64_t e = 0; e < t.rows * t.cols; ++e)
    t.bank.push_back((x.offset + e * x.elementBytes) / 4 % 32);
  auto access = [&](int64_t degree, const std::vector<int64_t> &lanes) {
    LayoutPicture::ExchangeTile::Access a;
    a.degree = degree;
    a.lanes = lanes;
    a.wordsPerBank.assign(32, 0);
    std::vector<std::set<int64_t>> words(32);
    for (int64_t e : lanes) {
      if (e < 0)
        continue;
      int64_t first = (x.offset + e * x.elementBytes) / 4;
      int64_t last = (x.offset + (e + 1) * x.elementBytes - 1) / 4;
      for (int64_t w = first; w <= last; ++w)
        words[w % 32].insert(w);
    }
    for (unsigned b = 0; b < 32; ++b)
      a.wordsPerBank[b] = int64_t(words[b].size());
    return a;
  };
  t.stores = access(x.storeDegree, x.storeLanes);
  t.loads = access(x.loadDegree, x.loadLanes);
  return t;
}

Result<LayoutPicture> tlc::lsp::computeLayoutPicture(
    const Document &doc, const AnalysisFacts &facts,
    std::optional<uint32_t> offset, const std::string &buffer,
    std::optional<unsigned> instance, const Config &config,
    const std::function<unsigned(const std::string &)> &pick) {
  if (facts.skipped)
    return Failure{FailureKind::Failed, "the file is not analysed (too large)"};
  std::optional<uint32_t> at = findAllocation(doc, facts, offset, buffer);
  if (!at)
    return Failure{FailureKind::Failed,
                   buffer.empty()
                       ? "no fragment or shared buffer with a layout here"
                       : "no fragment or shared buffer named '" + buffer +
                             "' with a layout"};
  std::vector<const driver::LayoutView *> group = groupAt(facts, *at);
  unsigned index = 0;
  if (instance) {
    index = *instance;
  } else if (const KernelFact *k = kernelAt(facts, *at)) {
    index = pick(k->name);
  }
  if (index >= group.size())
    index = 0;
  const driver::LayoutView &view = *group[index];
  llvm::Expected<layout::LayoutMap> map = view.buildMap();
  if (!map)
    return Failure{FailureKind::Failed, llvm::toString(map.takeError())};
  LayoutPicture p;
  p.name = view.name;
  p.kernel = view.kernel;
  p.instance = view.instance;
  p.instanceIndex = index;
  for (const driver::LayoutView *v : group)
    p.instances.push_back(v->instance);
  p.range = doc.toRange(view.range);
  p.target = config.target;
  bool frag = map->kind == layout::LayoutMapKind::Fragment;
  p.kind = frag ? "fragment" : "shared";
  p.title = map->title();
  p.rows = map->rows;
  p.cols = map->cols;
  for (const layout::LayoutCell &c : map->cells) {
    if (frag) {
      p.thread.push_back(c.thread);
      p.reg.push_back(c.index);
    } else {
      p.offset.push_back(c.index);
      p.bank.push_back(c.bank);
    }
  }
  p.svg = layout::renderLayoutSvg(*map);
  p.text = layout::renderLayoutText(*map, 64, 32);
  if (frag)
    if (const KernelFact *k = kernelAt(facts, *at))
      for (const InstanceFact &inst : k->instances)
        if (inst.label == view.instance)
          for (const ExchangeFact &x : inst.exchanges)
            if (x.name == view.name)
              if (std::optional<LayoutPicture::ExchangeTile> tile =
                      exchangeTile(doc, x))
                p.exchanges.push_back(std::move(*tile));
  return p;
}

void tlc::lsp::appendLayoutLenses(const Document &doc,
                                  const AnalysisFacts &facts,
                                  std::vector<CodeLens> &lenses) {
  std::vector<uint32_t> seen;
  for (const driver::LayoutView &v : facts.layouts) {
    if (llvm::is_contained(seen, v.range.begin))
      continue;
    seen.push_back(v.range.begin);
    Range range = doc.toRange(v.range);
    lenses.push_back(CodeLens{
        range, Command{"Show layout",
                       "tilelang.showLayout",
                       {doc.getUri(), std::to_string(range.start.line),
                        std::to_string(range.start.character), v.name}}});
  }
}

std::string tlc::lsp::layoutHoverText(const AnalysisFacts &facts,
                                      const KernelFact &kernel,
                                      unsigned instance,
                                      const std::string &name) {
  std::optional<uint32_t> at;
  for (const driver::LayoutView &v : facts.layouts)
    if (v.name == name && kernel.range.begin <= v.range.begin &&
        v.range.end <= kernel.range.end) {
      at = v.range.begin;
      break;
    }
  if (!at)
    return "";
  std::vector<const driver::LayoutView *> group = groupAt(facts, *at);
  const driver::LayoutView &view =
      *group[instance < group.size() ? instance : 0];
  llvm::Expected<layout::LayoutMap> map = view.buildMap();
  if (!map) {
    llvm::consumeError(map.takeError());
    return "";
  }
  return layout::renderLayoutText(*map, 8, 16);
}

/// The innermost slice of a buffer with a layout at byte \p offset, and
/// the view it belongs to.
static std::pair<const driver::LayoutView *, const driver::LayoutSliceView *>
sliceAt(const AnalysisFacts &facts, uint32_t offset) {
  const driver::LayoutView *owner = nullptr;
  const driver::LayoutSliceView *best = nullptr;
  for (const driver::LayoutView &v : facts.layouts)
    for (const driver::LayoutSliceView &s : v.slices)
      if (s.range.begin <= offset && offset < s.range.end &&
          (!best ||
           s.range.end - s.range.begin < best->range.end - best->range.begin))
        owner = &v, best = &s;
  return {owner, best};
}

std::string tlc::lsp::sliceHoverText(
    const Document &doc, const AnalysisFacts &facts, uint32_t offset,
    const std::function<unsigned(const std::string &)> &pick,
    TextRange &range) {
  auto [owner, found] = sliceAt(facts, offset);
  if (!found)
    return "";
  // The instance the editor shows, when the slice is in it too.
  const driver::LayoutView *view = owner;
  const driver::LayoutSliceView *slice = found;
  std::vector<const driver::LayoutView *> group =
      groupAt(facts, owner->range.begin);
  unsigned index = 0;
  if (const KernelFact *k = kernelAt(facts, owner->range.begin))
    index = pick(k->name);
  if (index < group.size())
    for (const driver::LayoutSliceView &s : group[index]->slices)
      if (s.range == found->range) {
        view = group[index];
        slice = &s;
        break;
      }
  llvm::Expected<layout::LayoutMap> map = view->buildMap();
  if (!map) {
    llvm::consumeError(map.takeError());
    return "";
  }
  range = slice->range;
  llvm::StringRef source = doc.getTree()->source().slice(
      slice->range.begin, slice->range.end);
  std::string extent;
  for (auto [d, e] : llvm::enumerate(slice->extent))
    extent += (d ? "×" : "") + std::to_string(e);
  std::string md = "**`" + source.str() + "`** · " + extent + " slice of " +
                   map->title() + "\n\n";
  std::vector<unsigned> dynamic;
  for (auto [d, b] : llvm::enumerate(slice->begin))
    if (!b)
      dynamic.push_back(d);
  if (!dynamic.empty()) {
    md += "It starts at an index computed at run time in dimension";
    md += dynamic.size() > 1 ? "s " : " ";
    for (auto [i, d] : llvm::enumerate(dynamic))
      md += (i ? ", " : "") + std::to_string(d);
    md += map->kind == layout::LayoutMapKind::Fragment
              ? ": which threads hold it depends on that index.\n"
              : ": which bytes and banks it covers depends on that index.\n";
    return md;
  }
  layout::SliceBox box;
  for (auto [b, e] : llvm::zip(slice->begin, slice->extent)) {
    box.begin.push_back(*b);
    box.extent.push_back(e);
  }
  // The slice's bounds when the source does not spell them (`acc[3, :]`).
  auto compact = [](std::string text) {
    text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
    return text;
  };
  std::string bounds = view->name + layout::sliceText(box);
  if (compact(bounds) != compact(source.str()))
    md += "`" + bounds + "`: ";
  if (view->fragment) {
    llvm::Expected<layout::FragmentSliceCover> cover =
        layout::coverFragmentSlice(*view->fragment, box);
    if (!cover) {
      llvm::consumeError(cover.takeError());
      return "";
    }
    md += layout::describeSlice(*cover);
  } else if (view->shared) {
    llvm::Expected<layout::SharedSliceCover> cover =
        layout::coverSharedSlice(*view->shared, view->elementBytes, box);
    if (!cover) {
      llvm::consumeError(cover.takeError());
      return "";
    }
    md += layout::describeSlice(*cover);
  }
  std::string grid = layout::renderSliceText(*map, box, 8, 16);
  if (!grid.empty())
    md += "\n```text\n" + grid + "```\n";
  return md;
}
