//===- EvalAnalyzer.cpp - Analysis facts from the staged evaluator --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Adapts tlc::eval::analyzeFile (the facts `tlc-build --emit=hints` prints)
// to the Analysis seam: hints are grouped per kernel and instance, each
// fact gets the byte range of its name and the offset where its inlay hint
// goes. The file is evaluated slice by slice, re-evaluating only the slices
// an edit changed (IncrementalEval.h). Files over kMaxAnalyzedBytes are not
// evaluated.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"
#include "Features.h"
#include "HintFields.h"
#include "IncrementalEval.h"

#include "tlc/Driver/Driver.h"
#include "tlc/Eval/Eval.h"
#include "tlc/Lang/DType.h"
#include "tlc/Lang/Scope.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "mlir/IR/MLIRContext.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

namespace {

/// SyntaxTree::findNode with the top-level statement found by binary
/// search: facts are made for every hint of a file after each edit.
class NodeFinder {
public:
  explicit NodeFinder(const syntax::SyntaxTree &tree)
      : root(tree.root()), top(root.children(Field::body).toVector()) {}
  /// The innermost node containing `offset` (SyntaxTree::findNode).
  Node find(uint32_t offset) const {
    auto it = llvm::upper_bound(top, offset, [](uint32_t x, Node n) {
      return x < n.range().begin;
    });
    if (it == top.begin() || offset >= std::prev(it)->range().end)
      return root;
    Node cur = *std::prev(it);
    for (;;) {
      Node next;
      for (Node child : cur.children()) {
        TextRange r = child.range();
        if (r.begin <= offset && offset < r.end) {
          next = child;
          break;
        }
      }
      if (!next)
        return cur;
      cur = next;
    }
  }

private:
  Node root;
  llvm::SmallVector<Node, 0> top;
};

/// The innermost arg or statement containing `offset`.
Node enclosingDeclaration(const NodeFinder &finder, uint32_t offset) {
  for (Node n = finder.find(offset); n; n = n.parent())
    if (n.kind() == NodeKind::arg || syntax::isStatement(n.kind()))
      return n;
  return Node();
}

/// Byte offset after the `:` ending the header that starts at `offset`.
uint32_t headerEnd(const syntax::SyntaxTree &tree, Node stmt) {
  // The header ends where the first body statement's line begins; search
  // for the last ':' before it.
  Node body = stmt.child(Field::body);
  llvm::StringRef src = tree.source();
  uint32_t limit = body ? body.range().begin : stmt.range().end;
  uint32_t lineEnd = src.find('\n', stmt.range().begin);
  if (lineEnd != llvm::StringRef::npos && lineEnd < limit)
    limit = lineEnd;
  uint32_t pos = src.rfind(':', limit);
  if (pos == llvm::StringRef::npos || pos < stmt.range().begin)
    return std::min<uint32_t>(limit, stmt.range().end);
  return pos + 1;
}

/// Canonical dtype -> short hint name.
std::string shortDType(const std::string &dtype) {
  if (auto parsed = lang::DType::parse(dtype))
    return parsed->getShortName();
  return dtype;
}

/// The tile of a `fragment-exchange` hint: its shape, and the worst
/// instructions' lanes from the hint's long form (Driver/Exchanges.cpp:
/// `exchange tile at byte O, B-byte elements, row-major`, then `worst store
/// lanes: e0 .. e31` and `worst load lanes: ...`); the degrees from the
/// message (`stores 8-way bank conflict, loads conflict-free`).
void readExchangeTile(const eval::Hint &hint, ExchangeFact &e) {
  llvm::StringRef d = hint.detail;
  e.lds = d.contains(" through LDS ");
  auto degree = [&](llvm::StringRef what) -> int64_t {
    size_t at = d.find(what);
    if (at == llvm::StringRef::npos)
      return 0;
    llvm::StringRef rest = d.drop_front(at + what.size());
    if (rest.starts_with("conflict-free"))
      return 1;
    int64_t n = 0;
    return rest.consumeInteger(10, n) ? 0 : n;
  };
  e.storeDegree = degree("stores ");
  e.loadDegree = degree("loads ");
  for (size_t i = 0; i < hint.shape.size(); ++i) {
    int64_t n = 0;
    if (i >= hint.shapeIsInt.size() || !hint.shapeIsInt[i] ||
        llvm::StringRef(hint.shape[i]).getAsInteger(10, n)) {
      e.shape.clear();
      break;
    }
    e.shape.push_back(n);
  }
  llvm::SmallVector<llvm::StringRef, 4> lines;
  llvm::StringRef(hint.layoutDetail).split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    if (line.consume_front("exchange tile at byte ")) {
      line.consumeInteger(10, e.offset);
      if (line.consume_front(", "))
        line.consumeInteger(10, e.elementBytes);
      continue;
    }
    std::vector<int64_t> *lanes = line.consume_front("worst store lanes:")
                                      ? &e.storeLanes
                                  : line.consume_front("worst load lanes:")
                                      ? &e.loadLanes
                                      : nullptr;
    if (!lanes)
      continue;
    for (;;) {
      line = line.ltrim();
      int64_t v = 0;
      if (line.empty() || line.consumeInteger(10, v))
        break;
      lanes->push_back(v);
    }
    if (lanes->size() != 32)
      lanes->clear();
  }
}

/// Analyses one context may serve before it is replaced: every analysis
/// uniques new locations and attributes in it, which are never freed.
constexpr unsigned kAnalysesPerContext = 32;

class EvalAnalyzer : public Analyzer {
public:
  explicit EvalAnalyzer(bool incremental) : incremental(incremental) {}
  const char *getName() const override { return "eval"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &options, const CancelToken &token) override;

private:
  /// Layouts of the kernel instances seen lately, shared by all documents
  /// and worker threads: an edit re-infers only the instances whose Tile IR
  /// it changed.
  driver::LayoutCache layoutCache;
  /// The results of the slices of the files seen lately (all documents).
  SliceCache sliceCache;
  /// The import aliases of the top-level statements seen lately.
  TileLangNames::AliasCache aliasCache{4096, 4};
  /// False: evaluate every file whole (the reference of the tests).
  bool incremental;
};

} // namespace

std::shared_ptr<const AnalysisFacts>
EvalAnalyzer::analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
                      const AnalysisOptions &options,
                      const CancelToken &token) {
  if (tree->source().size() > kMaxAnalyzedBytes) {
    auto facts = std::make_shared<AnalysisFacts>();
    facts->source = "tlc-eval";
    facts->skipped = true;
    Diagnostic note;
    note.severity = Severity::Note;
    note.range = TextRange{0, 0};
    note.message = "file larger than " +
                   std::to_string(kMaxAnalyzedBytes >> 20) +
                   " MiB: TileLang analysis skipped (syntax diagnostics only, "
                   "no hints)";
    facts->diagnostics.push_back(std::move(note));
    return facts;
  }
  // One context per worker thread: analyzeFile may reuse it, not share it.
  thread_local std::unique_ptr<mlir::MLIRContext> context;
  thread_local unsigned contextUses = 0;
  if (!context || ++contextUses > kAnalysesPerContext) {
    context.reset();
    context = std::make_unique<mlir::MLIRContext>(
        mlir::MLIRContext::Threading::DISABLED);
    eval::loadEvalDialects(*context);
    contextUses = 1;
  }
  eval::EvalOptions evalOptions;
  if (auto target = eval::TargetInfo::parse(options.target))
    evalOptions.target = *target;
  // A newer edit or $/cancelRequest stops the evaluator within
  // EvalOptions::kCancelPollSteps steps and layout inference before its
  // next instance; the caller drops the cancelled result.
  auto cancelled = [token] { return token.isCancelled(); };
  evalOptions.cancelled = cancelled;
  // Layouts are inferred exactly as `tlc-build --emit=hints` does.
  IncrementalResult evaluated = evaluateFile(
      *tree, *context, evalOptions, layoutCache,
      incremental ? &sliceCache : nullptr, cancelled, options.visible);
  eval::FileAnalysis &analysis = evaluated.analysis;

  auto facts = std::make_shared<AnalysisFacts>();
  facts->source = "tlc-eval";
  facts->diagnostics = std::move(analysis.diagnostics);
  // One order whatever the evaluation order was (slices or whole file).
  std::stable_sort(facts->diagnostics.begin(), facts->diagnostics.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return std::tie(a.range.begin, a.range.end, a.message) <
                            std::tie(b.range.begin, b.range.end, b.message);
                   });
  facts->layouts = std::move(evaluated.layouts);
  facts->layoutsInferred = evaluated.layoutsInferred;
  facts->layoutsReused = evaluated.layoutsReused;
  facts->slicesEvaluated = evaluated.slicesEvaluated;
  facts->slicesReused = evaluated.slicesReused;
  facts->wholeFileReason = evaluated.wholeFileReason;
  facts->partial = evaluated.partial;

  TileLangNames names(*tree, &aliasCache);
  NodeFinder finder(*tree);
  std::map<std::string, size_t> kernelIndex;
  auto getKernel = [&](const std::string &name,
                       TextRange range) -> KernelFact & {
    auto it = kernelIndex.find(name);
    if (it != kernelIndex.end())
      return facts->kernels[it->second];
    KernelFact kernel;
    kernel.name = name;
    kernel.range = range;
    kernel.nameRange = range;
    for (Node n = finder.find(range.begin); n; n = n.parent())
      if (isFunction(n)) {
        kernel.nameRange = n.getIdentifier().range;
        kernel.range = n.range();
        kernel.decorator = names.getKernelDecorator(n);
        break;
      }
    kernelIndex[name] = facts->kernels.size();
    facts->kernels.push_back(std::move(kernel));
    return facts->kernels.back();
  };
  // Pass 1: every kernel and instance, so that indices stay stable.
  std::map<std::pair<std::string, std::string>, std::pair<size_t, size_t>>
      instances;
  auto addInstance = [&](const std::string &kernelName,
                         const std::string &label, TextRange range) {
    if (instances.count({kernelName, label}))
      return;
    getKernel(kernelName, range);
    size_t k = kernelIndex[kernelName];
    facts->kernels[k].instances.push_back(InstanceFact{label, {}, {}, {}});
    instances[{kernelName, label}] = {k,
                                      facts->kernels[k].instances.size() - 1};
  };
  for (const eval::InstanceInfo &info : analysis.instances)
    addInstance(info.kernel, info.label, info.range);
  for (const eval::Hint &hint : analysis.hints)
    addInstance(hint.kernel, hint.instance, hint.range);

  // Pass 2: the facts.
  for (const eval::Hint &hint : analysis.hints) {
    if (token.isCancelled())
      return facts;
    std::pair<size_t, size_t> at = instances[{hint.kernel, hint.instance}];
    InstanceFact *instance = &facts->kernels[at.first].instances[at.second];
    Node decl = enclosingDeclaration(finder, hint.range.begin);
    std::string shape = "[";
    for (size_t i = 0; i < hint.shape.size(); ++i)
      shape += (i ? ", " : "") + hint.shape[i];
    shape += "]";
    if (hint.kind == "tensor" || hint.kind == "buffer") {
      BufferFact b;
      b.name = hint.name;
      b.isParameter = hint.kind == "tensor";
      b.nameRange = hint.range;
      b.hintOffset = decl ? decl.range().end : hint.range.end;
      if (decl.kind() == NodeKind::arg) {
        b.nameRange = decl.getIdentifier().range;
      } else if (decl.kind() == NodeKind::Assign) {
        for (Node t : decl.children(Field::targets))
          if (t.kind() == NodeKind::Name && t.identifier() == hint.name)
            b.nameRange = t.range();
      }
      // A `T.alloc_var` is a scalar: its one-element shape is noise.
      b.shape = hint.scope == "local.var" && shape == "[1]" ? "" : shape;
      b.layout = getHintLayout(hint);
      b.layoutDetail = getHintLayoutDetail(hint);
      b.dtype = shortDType(hint.dtype);
      b.scopeString = hint.scope;
      auto scope = lang::parseScope(hint.scope);
      b.scope = scope ? lang::getScopeDisplayName(*scope).str() : hint.scope;
      bool known = true;
      int64_t elements = 1;
      for (size_t i = 0; i < hint.shape.size(); ++i) {
        if (i >= hint.shapeIsInt.size() || !hint.shapeIsInt[i]) {
          known = false;
          break;
        }
        elements *= std::strtoll(hint.shape[i].c_str(), nullptr, 10);
      }
      auto dtype = lang::DType::parse(hint.dtype);
      if (known && dtype)
        b.bytes = elements * dtype->getItemSize();
      instance->buffers.push_back(std::move(b));
    } else if (hint.kind == "kernel") {
      LaunchFact l;
      l.range = hint.range;
      l.hintOffset = decl ? headerEnd(*tree, decl) : hint.range.end;
      l.grid = hint.shape;
      l.threads = hint.threads ? std::to_string(*hint.threads) : "?";
      // A warp-specialised launch: the program's threads + the producer's.
      if (hint.threads && hint.producerThreads)
        l.threads = std::to_string(*hint.threads - *hint.producerThreads) +
                    " + " + std::to_string(*hint.producerThreads) +
                    " producer";
      l.sharedBytes = hint.sharedBytes;
      instance->launches.push_back(std::move(l));
    } else if (hint.kind == "pipeline") {
      PipelineFact p;
      p.range = hint.range;
      p.hintOffset = decl ? headerEnd(*tree, decl) : hint.range.end;
      if (hint.stages)
        p.stages = *hint.stages;
      instance->pipelines.push_back(std::move(p));
    } else if (hint.kind == "fragment-exchange") {
      // `NAME goes through shared memory|LDS here (fragment exchange, ...;
      // stores N-way bank conflict, loads conflict-free)`: the label keeps
      // where and the degrees.
      ExchangeFact e;
      e.range = hint.range;
      e.hintOffset = decl ? headerEnd(*tree, decl) : hint.range.end;
      e.detail = hint.detail;
      e.name = hint.name;
      readExchangeTile(hint, e);
      llvm::StringRef d = hint.detail;
      e.label = hint.name + (d.contains(" through LDS ") ? " via LDS"
                                                         : " via shared");
      size_t semi = d.rfind("; ");
      if (semi != llvm::StringRef::npos && d.ends_with(")")) {
        std::string degrees = d.slice(semi + 2, d.size() - 1).str();
        for (size_t at; (at = degrees.find(" bank conflict")) !=
                        std::string::npos;)
          degrees.erase(at, 14);
        e.label += " · " + degrees;
      }
      instance->exchanges.push_back(std::move(e));
    }
  }
  // Kernels in source order (a slice's kernels come with its slice).
  std::stable_sort(facts->kernels.begin(), facts->kernels.end(),
                   [](const KernelFact &a, const KernelFact &b) {
                     return a.range.begin < b.range.begin;
                   });
  return facts;
}

std::unique_ptr<Analyzer> tlc::lsp::createDefaultAnalyzer(bool incremental) {
  return std::make_unique<EvalAnalyzer>(incremental);
}
