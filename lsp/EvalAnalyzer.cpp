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
// goes. Files over kMaxAnalyzedBytes are not evaluated.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"
#include "Features.h"
#include "HintFields.h"

#include "tlc/Driver/Driver.h"
#include "tlc/Eval/Eval.h"
#include "tlc/Lang/DType.h"
#include "tlc/Lang/Scope.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "mlir/IR/MLIRContext.h"

#include <map>

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

namespace {

/// The innermost arg or statement containing `offset`.
Node enclosingDeclaration(const syntax::SyntaxTree &tree, uint32_t offset) {
  for (Node n = tree.findNode(offset); n; n = n.parent())
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

/// Analyses one context may serve before it is replaced: every analysis
/// uniques new locations and attributes in it, which are never freed.
constexpr unsigned kAnalysesPerContext = 32;

class EvalAnalyzer : public Analyzer {
public:
  const char *getName() const override { return "eval"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &options, const CancelToken &token) override;

private:
  /// Layouts of the kernel instances seen lately, shared by all documents
  /// and worker threads: an edit re-infers only the instances whose Tile IR
  /// it changed.
  driver::LayoutCache layoutCache;
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
  eval::FileAnalysis analysis = eval::analyzeFile(*tree, *context, evalOptions);
  // Layouts, exactly as `tlc-build --emit=hints` infers them.
  driver::LayoutStats layoutStats = driver::inferLayouts(
      analysis, *tree, evalOptions.target.name, &layoutCache, cancelled);
  // What the generated code does with shared memory: bank-conflict hints
  // and the layout pictures' sources (both need the IR).
  if (!token.isCancelled()) {
    driver::reportBankConflicts(analysis, *tree, evalOptions.target.name);
  }
  std::vector<driver::LayoutView> layouts =
      driver::collectLayoutViews(analysis, *tree, evalOptions.target.name);
  // The module belongs to the thread's context: free it here.
  analysis.module = nullptr;

  auto facts = std::make_shared<AnalysisFacts>();
  facts->source = "tlc-eval";
  facts->diagnostics = std::move(analysis.diagnostics);
  facts->layouts = std::move(layouts);
  facts->layoutsInferred = layoutStats.inferred;
  facts->layoutsReused = layoutStats.reused;

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
    for (Node n = tree->findNode(range.begin); n; n = n.parent())
      if (isFunction(n)) {
        kernel.nameRange = n.getIdentifier().range;
        kernel.range = n.range();
        kernel.decorator = TileLangNames(*tree).getKernelDecorator(n);
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
    Node decl = enclosingDeclaration(*tree, hint.range.begin);
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
      l.sharedBytes = hint.sharedBytes;
      instance->launches.push_back(std::move(l));
    } else if (hint.kind == "pipeline") {
      PipelineFact p;
      p.range = hint.range;
      p.hintOffset = decl ? headerEnd(*tree, decl) : hint.range.end;
      if (hint.stages)
        p.stages = *hint.stages;
      instance->pipelines.push_back(std::move(p));
    }
  }
  return facts;
}

std::unique_ptr<Analyzer> tlc::lsp::createDefaultAnalyzer() {
  return std::make_unique<EvalAnalyzer>();
}
