//===- InlayHints.cpp - Shape, launch and pipeline hints ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Labels read like the ones in DESIGN.md:
//
//   A_shared = T.alloc_shared((block_M, block_K), dtype)  shared f16[128, 32]
//   with T.Kernel(...) as (bx, by):                       grid 8×8 · 128 threads · smem 48 KiB
//   for ko in T.Pipelined(..., num_stages=3):             3 stages · cp.async
//
// Code lenses per kernel live here too: they are built from the same
// facts.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include <algorithm>
#include <cstdio>

using namespace tlc;
using namespace tlc::lsp;

std::string tlc::lsp::formatBytes(int64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0)
    return std::to_string(bytes / 1024) + " KiB";
  if (bytes >= 1024) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f KiB", bytes / 1024.0);
    return buf;
  }
  return std::to_string(bytes) + " B";
}

/// The instance of `kernel` that `pick` selects (the first if out of range).
static const InstanceFact *
pickInstance(const KernelFact &kernel,
             const std::function<unsigned(const std::string &)> &pick) {
  if (kernel.instances.empty())
    return nullptr;
  unsigned index = pick(kernel.name);
  return &kernel.instances[index < kernel.instances.size() ? index : 0];
}

std::vector<InlayHint> tlc::lsp::computeInlayHints(
    const Document &doc, const AnalysisFacts &facts, const Config &config,
    const std::function<unsigned(const std::string &)> &pick) {
  struct Entry {
    uint32_t offset;
    InlayHint hint;
  };
  std::vector<Entry> entries;
  const InlayHintCategories &cats = config.inlayHints;
  for (const KernelFact &kernel : facts.kernels) {
    const InstanceFact *instance = pickInstance(kernel, pick);
    if (!instance)
      continue;
    if (cats.buffers)
      for (const BufferFact &b : instance->buffers) {
        InlayHint hint;
        hint.kind = HintKind::Buffer;
        hint.label = b.scope + " " + b.dtype + b.shape;
        if (cats.layouts && !b.layout.empty())
          hint.label += " · " + b.layout;
        // Markdown: the formula and the corner table keep their columns
        // only inside a code block.
        if (!b.layoutDetail.empty())
          hint.tooltip = "```text\n" + b.layoutDetail + "```";
        if (hint.tooltip.empty() && !b.layout.empty())
          hint.tooltip = "layout: " + b.layout;
        entries.push_back({b.hintOffset, std::move(hint)});
      }
    if (cats.launches)
      for (const LaunchFact &l : instance->launches) {
        InlayHint hint;
        hint.kind = HintKind::Launch;
        std::string grid;
        for (size_t i = 0; i < l.grid.size(); ++i)
          grid += (i ? "×" : "") + l.grid[i];
        hint.label = "grid " + (grid.empty() ? std::string("1") : grid) +
                     " · " + l.threads + " threads";
        if (l.sharedBytes && *l.sharedBytes > 0)
          hint.label += " · smem " + formatBytes(*l.sharedBytes);
        entries.push_back({l.hintOffset, std::move(hint)});
      }
    if (cats.pipelines)
      for (const PipelineFact &p : instance->pipelines) {
        InlayHint hint;
        hint.kind = HintKind::Pipeline;
        hint.label = p.stages ? std::to_string(*p.stages) + " stages"
                                  : std::string("pipelined");
        if (!p.mechanism.empty())
          hint.label += " · " + p.mechanism;
        entries.push_back({p.hintOffset, std::move(hint)});
      }
    if (cats.layouts)
      for (const ExchangeFact &x : instance->exchanges) {
        InlayHint hint;
        hint.kind = HintKind::Exchange;
        hint.label = x.label;
        hint.tooltip = x.detail;
        entries.push_back({x.hintOffset, std::move(hint)});
      }
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry &a, const Entry &b) {
                     return a.offset < b.offset;
                   });
  std::vector<InlayHint> result;
  for (Entry &e : entries) {
    e.hint.position = doc.toPosition(e.offset);
    e.hint.version = doc.getVersion();
    e.hint.index = static_cast<uint32_t>(result.size());
    result.push_back(std::move(e.hint));
  }
  return result;
}

std::vector<CodeLens> tlc::lsp::computeCodeLenses(
    const Document &doc, const AnalysisFacts &facts, const Config &config,
    const std::function<unsigned(const std::string &)> &pick) {
  std::vector<CodeLens> result;
  std::string language = llvm::StringRef(config.target).starts_with("hip")
                             ? "HIP"
                             : llvm::StringRef(config.target) == "cpu"
                                   ? "C++"
                                   : "CUDA";
  for (const KernelFact &kernel : facts.kernels) {
    Range range = doc.toRange(kernel.nameRange);
    uint32_t line = range.start.line;
    result.push_back(CodeLens{
        range,
        Command{"Show " + language, "tilelang.showGenerated",
                {doc.getUri(), std::to_string(line), config.target}}});
    result.push_back(CodeLens{
        range, Command{"Show Tile IR", "tilelang.showTileIR",
                       {doc.getUri(), std::to_string(line), kernel.name}}});
    if (kernel.instances.size() > 1) {
      unsigned index = pick(kernel.name);
      if (index >= kernel.instances.size())
        index = 0;
      unsigned next = (index + 1) % kernel.instances.size();
      result.push_back(CodeLens{
          range,
          Command{"Instance " + std::to_string(index + 1) + "/" +
                      std::to_string(kernel.instances.size()) + ": " +
                      kernel.instances[index].label,
                  "tilelang.pickInstance",
                  {doc.getUri(), kernel.name, std::to_string(next)}}});
    }
  }
  appendLayoutLenses(doc, facts, result);
  return result;
}
