//===- Hover.cpp - Hover for builtins and buffers -------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "tlc/Lang/Builtins.h"

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

/// Markdown for one registry entry.
static std::string builtinMarkdown(const lang::BuiltinInfo &info) {
  const lang::BuiltinInfo &canonical = info.getCanonical();
  std::string md = "```python\n" + canonical.signature.str() + "\n```\n\n";
  if (&canonical != &info)
    md += "`" + info.name.str() + "` is an alias of `" +
          canonical.name.str() + "`" + (info.deprecated ? " (deprecated)" : "") +
          ".\n\n";
  md += canonical.doc.str() + "\n\n";
  md += "*" + lang::getKindName(canonical.kind).str() + " · " +
        lang::getCategoryName(canonical.category).str();
  if (!canonical.isSupported())
    md += " · not supported by tlc";
  md += "*";
  return md;
}

/// Markdown for a buffer fact.
static std::string bufferMarkdown(const BufferFact &b,
                                  const std::string &instance) {
  std::string md = "**" + b.name + "** · `" + b.scope + " " + b.dtype +
                   b.shape + "`\n\n";
  md += "| | |\n|---|---|\n";
  md += "| kind | " + std::string(b.isParameter ? "tensor parameter" : "buffer") +
        " |\n";
  md += "| scope | `" + b.scopeString + "` |\n";
  if (!b.shape.empty())
    md += "| shape | `" + b.shape + "` |\n";
  md += "| dtype | `" + b.dtype + "` |\n";
  if (b.bytes)
    md += "| size | " + formatBytes(*b.bytes) + " |\n";
  if (!b.layout.empty())
    md += "| layout | " + b.layout + " |\n";
  md += "| instance | " + instance + " |\n";
  if (!b.layoutDetail.empty())
    md += "\n```text\n" + b.layoutDetail + "```\n";
  return md;
}

static const lang::BuiltinInfo *layoutMember(const TileLangNames &names,
                                             Node attr, unsigned depth);

/// What the expression \p e evaluates to as far as the text shows:
/// "Layout", "Fragment" or "" (unknown). A call of a layout constructor or
/// of a Layout / Fragment method returning one, or a name assigned one.
static llvm::StringRef layoutKindOf(const TileLangNames &names, Node e,
                                    unsigned depth) {
  if (depth > 4 || !e)
    return "";
  if (e.kind() == NodeKind::Call) {
    Node callee = e.child(Field::func);
    if (const lang::BuiltinInfo *made =
            lang::lookupBuiltin(names.qualify(callee))) {
      llvm::StringRef r = made->getCanonical().returns;
      return r == "Layout" || r == "Fragment" ? r : "";
    }
    if (callee.kind() != NodeKind::Attribute)
      return "";
    const lang::BuiltinInfo *m = layoutMember(names, callee, depth + 1);
    if (!m)
      return "";
    // Fragment.repeat and the like keep the receiver a fragment; a
    // Layout method returning "Layout" on a fragment does too, except
    // inverse and expand (TileLang returns a Layout).
    llvm::StringRef r = m->returns;
    if (r == "Layout" && m->name != "tilelang.layout.Layout.inverse" &&
        m->name != "tilelang.layout.Layout.expand" &&
        layoutKindOf(names, callee.child(Field::value), depth + 1) ==
            "Fragment")
      return "Fragment";
    return r == "Layout" || r == "Fragment" ? r : "";
  }
  if (e.kind() == NodeKind::Name) {
    std::optional<TextRange> def =
        findDefinition(*e.getTree(), e.range().begin);
    if (!def)
      return "";
    Node target = findNodeAt(*e.getTree(), def->begin);
    Node assign = target ? target.parent() : Node();
    if (!assign || assign.kind() != NodeKind::Assign ||
        target.field() != Field::targets)
      return "";
    return layoutKindOf(names, assign.child(Field::value), depth + 1);
  }
  return "";
}

/// The Layout / Fragment member `receiver.name` names: the names no other
/// TileLang value has (get_input_shape, map_forward_index,
/// bind_thread_range, ...) on any receiver; the common ones (repeat,
/// replicate, inverse, index, thread, ...) on a receiver the text shows is
/// a layout or fragment (layoutKindOf). Fragment's own members win on a
/// fragment.
static const lang::BuiltinInfo *layoutMember(const TileLangNames &names,
                                             Node attr, unsigned depth) {
  std::string name = attr.identifier().str();
  const lang::BuiltinInfo *frag =
      lang::lookupBuiltin("tilelang.layout.Fragment." + name);
  const lang::BuiltinInfo *lay =
      lang::lookupBuiltin("tilelang.layout.Layout." + name);
  if (!frag && !lay)
    return nullptr;
  static const char *const distinctive[] = {
      "bind_thread_range",  "condense_rep_var",  "get_thread_size",
      "map_forward_thread", "get_input_shape",   "get_output_shape",
      "get_forward_vars",   "get_forward_index", "map_forward_index"};
  if (llvm::is_contained(distinctive, name))
    return frag ? frag : lay;
  llvm::StringRef kind = layoutKindOf(names, attr.child(Field::value), depth);
  if (kind == "Fragment")
    return frag ? frag : lay;
  if (kind == "Layout")
    return lay;
  return nullptr;
}

std::optional<HoverInfo> tlc::lsp::computeHover(
    const Document &doc, uint32_t offset, const AnalysisFacts *facts,
    const std::function<unsigned(const std::string &)> &pick) {
  const syntax::SyntaxTree &tree = *doc.getTree();
  Node node = findNodeAt(tree, offset);
  bool named =
      node.kind() == NodeKind::Name || node.kind() == NodeKind::Attribute;
  TileLangNames names(tree);
  std::string q = named ? names.qualify(node) : std::string();
  if (!q.empty()) {
    if (const lang::BuiltinInfo *info = lang::lookupBuiltin(q)) {
      TextRange range = node.kind() == NodeKind::Attribute
                            ? node.getIdentifier().range
                            : node.range();
      return HoverInfo{builtinMarkdown(*info), doc.toRange(range)};
    }
    if (q == "T" || q == "tilelang")
      return HoverInfo{"module `" +
                           std::string(q == "T" ? "tilelang.language"
                                                : "tilelang") +
                           "`",
                       doc.toRange(node.range())};
  }
  if (node.kind() == NodeKind::Attribute)
    if (const lang::BuiltinInfo *info = layoutMember(names, node, 0))
      return HoverInfo{builtinMarkdown(*info),
                       doc.toRange(node.getIdentifier().range)};
  if (!facts)
    return std::nullopt;
  // Inside a slice of a buffer (`acc[0:8, 8:16]`, its name included): what
  // the slice covers of the layout.
  TextRange sliceRange;
  std::string slice = sliceHoverText(doc, *facts, offset, pick, sliceRange);
  if (!slice.empty())
    return HoverInfo{slice, doc.toRange(sliceRange)};
  if (node.kind() != NodeKind::Name)
    return std::nullopt;
  std::optional<TextRange> def = findDefinition(tree, offset);
  if (!def)
    return std::nullopt;
  for (const KernelFact &kernel : facts->kernels) {
    if (kernel.instances.empty() || kernel.range.begin > def->begin ||
        def->end > kernel.range.end)
      continue;
    unsigned index = pick(kernel.name);
    if (index >= kernel.instances.size())
      index = 0;
    const InstanceFact &instance = kernel.instances[index];
    for (const BufferFact &b : instance.buffers)
      if (b.nameRange == *def) {
        std::string md = bufferMarkdown(b, instance.label);
        std::string grid = layoutHoverText(*facts, kernel, index, b.name);
        if (!grid.empty())
          md += "\n```text\n" + grid + "```\n";
        return HoverInfo{md, doc.toRange(node.range())};
      }
  }
  return std::nullopt;
}
