//===- Layouts.cpp - Layout inference for hints, with a per-instance cache ===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Runs layout inference instance by instance (each top-level op of the
// module is one kernel instance), attaches the results to the IR exactly as
// the --tile-infer-layout pass does, and copies the allocation labels into
// the buffer hints. A LayoutCache keyed by the instance's printed IR lets an
// editor re-infer only the instances an edit changed.
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/Driver.h"
#include "tlc/Driver/Exchanges.h"
#include "tlc/Driver/LayoutViews.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Layout/EnumerationLimit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>
#include <tuple>

using namespace tlc;
using namespace tlc::driver;

/// The inference results of one instance, by the position of each op in a
/// pre-order walk of the instance (so that they apply to an equal IR built
/// in another context).
struct LayoutCache::Entry {
  /// `layout` of fragment allocations.
  std::vector<std::pair<unsigned, layout::Fragment>> fragments;
  /// `layout` of shared allocations.
  std::vector<std::pair<unsigned, layout::Layout>> shared;
  /// `loop_layout` of parallel loops.
  std::vector<std::pair<unsigned, layout::Fragment>> loops;
  /// Short and long labels of every allocation with a layout, in walk
  /// order.
  std::vector<std::tuple<unsigned, std::string, std::string>> labels;
  /// The producer warpgroup's threads of every warp-specialised kernel.
  std::vector<std::pair<unsigned, int64_t>> producers;
  /// The bank conflicts of the instance's shared accesses, once checked.
  std::optional<std::vector<InstanceConflict>> conflicts;
  /// The fragment exchanges of the instance's generated code, found with
  /// its conflicts.
  std::vector<InstanceExchange> exchanges;
};

LayoutCache::LayoutCache(size_t maxEntries) : entries(maxEntries, 2) {}

LayoutCache::~LayoutCache() = default;

TextRange driver::sourceRangeOf(const syntax::SyntaxTree &tree,
                                mlir::Location loc) {
  mlir::FileLineColRange f = tile::getSourceLocation(loc);
  if (!f)
    return TextRange{0, 0};
  auto offset = [&](unsigned line, unsigned col) {
    return tree.lines().fromUtf8({line ? line - 1 : 0, col ? col - 1 : 0});
  };
  uint32_t begin = offset(f.getStartLine(), f.getStartColumn());
  uint32_t end = offset(f.getEndLine(), f.getEndColumn());
  return TextRange{begin, std::max(begin, end)};
}

Diagnostic driver::toSourceDiagnostic(const syntax::SyntaxTree &tree,
                                      mlir::Diagnostic &diag) {
  Diagnostic d;
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    d.severity = Severity::Error;
    break;
  case mlir::DiagnosticSeverity::Warning:
    d.severity = Severity::Warning;
    break;
  case mlir::DiagnosticSeverity::Note:
    d.severity = Severity::Note;
    break;
  case mlir::DiagnosticSeverity::Remark:
    d.severity = Severity::Remark;
    break;
  }
  d.range = sourceRangeOf(tree, diag.getLocation());
  d.message = diag.str();
  for (mlir::Diagnostic &note : diag.getNotes())
    d.notes.push_back({sourceRangeOf(tree, note.getLocation()), note.str()});
  return d;
}

/// Checks every instance of \p module against its ops' verifiers and
/// reports what fails as errors on the source: the evaluator checks the
/// program's rules as it builds the IR, and an op's verifier states them
/// once more, so that an instance the evaluator let through by mistake
/// gets a located error here instead of code a back end cannot compile
/// (a bitwise reduction over floats reached nvcc). Returns the instances
/// that failed.
static llvm::DenseSet<mlir::Operation *>
verifyInstances(eval::FileAnalysis &analysis, const syntax::SyntaxTree &tree,
                mlir::ModuleOp module) {
  llvm::DenseSet<mlir::Operation *> invalid;
  mlir::MLIRContext *context = module.getContext();
  bool printOp = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  {
    mlir::ScopedDiagnosticHandler collect(context, [&](mlir::Diagnostic &diag) {
      if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
        return mlir::success();
      // The evaluator should have said this in the program's terms; the
      // prefix says which check caught it.
      Diagnostic d = driver::toSourceDiagnostic(tree, diag);
      d.message = "invalid Tile IR: " + d.message;
      analysis.diagnostics.push_back(std::move(d));
      return mlir::success();
    });
    for (mlir::Operation &top : module.getBody()->getOperations())
      if (mlir::failed(mlir::verify(&top, /*verifyRecursively=*/true)))
        invalid.insert(&top);
  }
  {
    // Shared-memory accesses that leave their buffer are the program's
    // errors, said in its terms; an access traced in several instances is
    // reported once.
    std::set<std::pair<uint32_t, std::string>> seen;
    mlir::ScopedDiagnosticHandler collect(context, [&](mlir::Diagnostic &diag) {
      Diagnostic d = driver::toSourceDiagnostic(tree, diag);
      if (seen.insert({d.range.begin, d.message}).second)
        analysis.diagnostics.push_back(std::move(d));
      return mlir::success();
    });
    for (mlir::Operation &top : module.getBody()->getOperations())
      if (!invalid.contains(&top)) {
        (void)tile::checkSharedBounds(&top);
        tile::warnUndefinedAccumulators(&top);
      }
  }
  context->printOpOnDiagnostic(printOp);
  return invalid;
}

/// The cache key of instance \p top: the target and the IR in generic form
/// without locations.
static std::string instanceKey(mlir::Operation *top, llvm::StringRef target) {
  std::string key = target.str();
  key += '\n';
  llvm::raw_string_ostream os(key);
  mlir::OpPrintingFlags flags;
  flags.assumeVerified();
  flags.printGenericOpForm();
  flags.useLocalScope();
  top->print(os, flags);
  return key;
}

/// Infers the layouts of every kernel among \p ops (an instance in walk
/// order). A kernel whose inference failed (the error was emitted) gets no
/// layouts and sets \p failedAny; the others keep theirs.
static std::shared_ptr<LayoutCache::Entry>
inferInstance(llvm::ArrayRef<mlir::Operation *> ops,
              const tile::LayoutTarget &target, bool &failedAny,
              llvm::DenseSet<mlir::Operation *> &failedKernels) {
  llvm::DenseMap<mlir::Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(ops))
    position[op] = i;
  auto entry = std::make_shared<LayoutCache::Entry>();
  failedAny = false;
  for (mlir::Operation *op : ops) {
    auto kernel = llvm::dyn_cast<tile::KernelOp>(op);
    if (!kernel)
      continue;
    mlir::FailureOr<tile::KernelLayouts> layouts =
        tile::inferKernelLayouts(kernel, target);
    if (mlir::failed(layouts)) {
      failedAny = true;
      failedKernels.insert(kernel);
      continue;
    }
    for (auto &[value, fragment] : layouts->fragments)
      entry->fragments.push_back(
          {position.lookup(value.getDefiningOp()), fragment});
    for (auto &[value, layout] : layouts->shared)
      entry->shared.push_back({position.lookup(value.getDefiningOp()), layout});
    for (auto &[loop, fragment] : layouts->loops)
      entry->loops.push_back({position.lookup(loop), fragment});
  }
  return entry;
}

/// Attaches the layouts of \p entry to \p ops as the pass does. (An entry
/// always comes from an IR that printed the same, so its positions are in
/// range; the checks only guard against a broken invariant.)
static void attach(const LayoutCache::Entry &entry,
                   llvm::ArrayRef<mlir::Operation *> ops) {
  mlir::MLIRContext *context = ops.front()->getContext();
  for (const auto &[i, fragment] : entry.fragments)
    if (i < ops.size())
      ops[i]->setAttr("layout", tile::encodeFragment(context, fragment));
  for (const auto &[i, layout] : entry.shared)
    if (i < ops.size())
      ops[i]->setAttr("layout", tile::encodeLayout(context, layout));
  for (const auto &[i, fragment] : entry.loops)
    if (i < ops.size())
      ops[i]->setAttr("loop_layout", tile::encodeFragment(context, fragment));
}

/// Fills the producer threads of \p entry: on sm_90a, the GPU lowering
/// (run on a copy of the instance \p top, laid out) decides which kernels
/// are warp-specialised and so launch a producer warpgroup beyond the
/// program's threads; the launch hint says so. The lowering's diagnostics
/// are dropped: what a back end cannot generate is reported only when
/// building for it.
static void planLaunches(LayoutCache::Entry &entry, mlir::Operation *top,
                         llvm::ArrayRef<mlir::Operation *> ops,
                         llvm::StringRef target) {
  target.consume_front("cuda:");
  if (target != "sm_90a")
    return;
  std::vector<unsigned> kernels;
  for (auto [i, op] : llvm::enumerate(ops))
    if (llvm::isa<tile::KernelOp>(op))
      kernels.push_back(i);
  if (kernels.empty())
    return;
  mlir::MLIRContext *context = top->getContext();
  mlir::OwningOpRef<mlir::ModuleOp> copy =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(context));
  copy->getBody()->push_back(top->clone());
  tile::setGpuTarget(*copy, "cuda:sm_90a");
  {
    mlir::ScopedDiagnosticHandler drop(
        context, [](mlir::Diagnostic &) { return mlir::success(); });
    if (mlir::failed(tile::runGpuLowering(*copy)))
      return;
  }
  size_t k = 0;
  copy->walk<mlir::WalkOrder::PreOrder>([&](tile::KernelOp kernel) {
    if (k >= kernels.size())
      return;
    if (auto p = kernel->getAttrOfType<mlir::IntegerAttr>(
            "tile.ws_producer_threads"))
      entry.producers.push_back({kernels[k], p.getInt()});
    ++k;
  });
}

/// The labels of the shared allocations of the kernels among \p ops as the
/// printer of \p target stores them (tile::planSharedStorage, the plan the
/// printer itself reads), by position in \p ops. The label of a buffer
/// whose layout the program annotated, or inference chose, differently
/// says so in its long form: the generated code does not follow it.
static llvm::DenseMap<unsigned, std::pair<std::string, std::string>>
storageLabels(llvm::ArrayRef<mlir::Operation *> ops,
              const tile::SharedStorageTarget &target,
              const llvm::DenseSet<mlir::Operation *> &failedKernels) {
  llvm::DenseMap<unsigned, std::pair<std::string, std::string>> labels;
  llvm::DenseMap<mlir::Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(ops))
    position[op] = i;
  for (mlir::Operation *op : ops) {
    auto kernel = llvm::dyn_cast<tile::KernelOp>(op);
    // A kernel inference refused has no code to describe (its error says
    // why).
    if (!kernel || failedKernels.contains(kernel))
      continue;
    llvm::DenseMap<mlir::Value, tile::SharedStorage> storage =
        tile::planSharedStorage(kernel, target);
    llvm::DenseSet<mlir::Value> annotated;
    kernel.walk([&](tile::AnnotateLayoutOp a) {
      mlir::Value v = a.getBuffer();
      while (auto region = v.getDefiningOp<tile::RegionOp>())
        v = region.getSource();
      annotated.insert(v);
    });
    kernel.walk([&](tile::AllocOp alloc) {
      mlir::Value root = alloc.getResult();
      auto type = llvm::cast<tile::BufferType>(root.getType());
      // Tiles without a layout to show: symbolic, empty (an error at the
      // allocation) or past what layouts enumerate.
      if (!tile::isSharedScope(type.getScope()) || !type.isStatic() ||
          llvm::any_of(type.getShape(), [](int64_t e) { return e <= 0; }) ||
          layout::numElementsSaturated(type.getShape()) >
              layout::kMaxEnumeratedInputs)
        return;
      auto it = storage.find(root);
      const tile::SharedStorage *s =
          it == storage.end() ? nullptr : &it->second;
      std::string label = tile::sharedStorageLabel(root, s);
      layout::Layout stored = tile::sharedStorageLayout(root, s);
      std::string detail = stored.longForm();
      // The first line names the layout's kind: name it as the hint does.
      size_t kind = detail.find(" · " + stored.shortLabel());
      if (kind != std::string::npos && kind < detail.find('\n'))
        detail.replace(kind + std::string(" · ").size(),
                       stored.shortLabel().size(), label);
      if (!detail.empty() && detail.back() != '\n')
        detail += '\n';
      detail += std::string("stored by the ") + (target.hip ? "HIP" : "CUDA") +
                " target ";
      if (s && s->kind != tile::SharedStorage::Kind::Linear)
        detail += "through " + s->indexNamespace(target.hip) +
                  s->indexTemplate(type) +
                  (s->kind == tile::SharedStorage::Kind::Panels
                       ? " (the panels its wgmma / tcgen05 descriptors read)"
                   : s->kind == tile::SharedStorage::Kind::LdsSwizzle
                       ? " (the swizzle chosen for its MFMA reads)"
                       : " (the 16-byte chunk swizzle of ldmatrix operands "
                         "and staging tiles)");
      else
        detail += "row-major";
      // The layout the program annotated, or inference chose (TileLang's
      // choice, for its descriptors and TMA boxes), is only a request: the
      // printer keeps its own storage, which a program cannot observe
      // except through raw pointers (refused into swizzled tiles) and
      // hand-written descriptors (whose one-panel tiles it follows).
      if (auto l =
              llvm::dyn_cast_or_null<tile::LayoutAttr>(alloc.getLayoutAttr())) {
        layout::Layout chosen = l.getLayout();
        if (!chosen.isEquivalentTo(stored))
          detail += std::string("\n") +
                    (annotated.contains(root) ? "T.annotate_layout asked for "
                                              : "layout inference chose ") +
                    chosen.shortLabel() + "; the generated code stores it " +
                    label + " instead";
      }
      auto at = position.find(alloc);
      if (at != position.end())
        labels[at->second] = {label, detail};
    });
  }
  return labels;
}

/// Replaces the labels of \p entry's fragments that the generated code
/// holds in another layout than inference chose with that layout's
/// (findInstanceExchanges found them while it printed the instance).
static void usePrinterLabels(LayoutCache::Entry &entry,
                             const std::vector<PrinterFragmentLabel> &printed) {
  for (const PrinterFragmentLabel &p : printed)
    for (auto &[i, shortLabel, longForm] : entry.labels)
      if (i == p.op) {
        shortLabel = p.shortLabel;
        longForm = p.longForm;
      }
}

/// Fills the labels of \p entry from the layouts it holds, or from the
/// attribute of an allocation whose layout came with the IR. Shared
/// buffers of a GPU \p target are labelled by how its printer stores them
/// (storageLabels).
static void computeLabels(LayoutCache::Entry &entry,
                          llvm::ArrayRef<mlir::Operation *> ops,
                          llvm::StringRef target,
                          const llvm::DenseSet<mlir::Operation *> &failed) {
  llvm::DenseMap<unsigned, std::pair<std::string, std::string>> inferred;
  for (const auto &[i, fragment] : entry.fragments)
    inferred[i] = {fragment.shortLabel(), fragment.longForm()};
  for (const auto &[i, layout] : entry.shared)
    inferred[i] = {layout.shortLabel(), layout.longForm()};
  if (std::optional<tile::SharedStorageTarget> t =
          tile::parseSharedStorageTarget(target))
    for (auto &[i, labels] : storageLabels(ops, *t, failed))
      inferred[i] = std::move(labels);
  for (auto [i, op] : llvm::enumerate(ops)) {
    auto alloc = llvm::dyn_cast<tile::AllocOp>(op);
    if (!alloc)
      continue;
    auto it = inferred.find(i);
    if (it != inferred.end()) {
      entry.labels.emplace_back(i, it->second.first, it->second.second);
    } else if (auto f = llvm::dyn_cast_or_null<tile::FragmentAttr>(
                   alloc.getLayoutAttr())) {
      layout::Fragment frag = f.getFragment();
      entry.labels.emplace_back(i, frag.shortLabel(), frag.longForm());
    } else if (auto l = llvm::dyn_cast_or_null<tile::LayoutAttr>(
                   alloc.getLayoutAttr())) {
      layout::Layout lay = l.getLayout();
      entry.labels.emplace_back(i, lay.shortLabel(), lay.longForm());
    } else {
      entry.labels.emplace_back(i, std::string(), std::string());
    }
  }
}

LayoutStats tlc::driver::inferLayouts(eval::FileAnalysis &analysis,
                                      const syntax::SyntaxTree &tree,
                                      llvm::StringRef target,
                                      LayoutCache *cache,
                                      const std::function<bool()> &cancelled,
                                      bool bankConflicts) {
  LayoutStats stats;
  if (!analysis.module)
    return stats;
  mlir::ModuleOp module = *analysis.module;
  mlir::MLIRContext *context = module.getContext();
  llvm::DenseSet<mlir::Operation *> invalid =
      verifyInstances(analysis, tree, module);
  if (target.ends_with("cpu")) {
    // The CPU target runs a block's threads over one copy of each shared
    // buffer, stored row-major whatever layout was asked for.
    for (eval::Hint &h : analysis.hints)
      if (h.kind == "buffer" &&
          (h.scope == "shared" || h.scope == "shared.dyn")) {
        h.layout = "linear";
        h.layoutDetail = "stored by the CPU target row-major";
      }
    return stats;
  }
  // Allocation layouts by source line and variable name, in IR order (one
  // entry per instance), matched to the buffer hints in the same order.
  std::map<std::pair<unsigned, std::string>,
           std::vector<std::pair<std::string, std::string>>>
      labels;
  // Warp-specialised kernels: their source lines and producer threads, in
  // IR order (one entry per instance), matched to the launch hints.
  std::vector<std::tuple<unsigned, unsigned, int64_t>> producers;
  // Bank conflicts reported so far (one per statement and text).
  std::set<std::pair<uint32_t, std::string>> seenConflicts;
  size_t numTop = module.getBody()->getOperations().size();
  size_t index = 0;
  {
    // Layout conflicts become diagnostics on the source, with the op that
    // imposed the first layout as a note.
    size_t errors = 0;
    mlir::ScopedDiagnosticHandler collect(context, [&](mlir::Diagnostic &diag) {
      if (diag.getSeverity() != mlir::DiagnosticSeverity::Error &&
          diag.getSeverity() != mlir::DiagnosticSeverity::Warning)
        return mlir::success();
      analysis.diagnostics.push_back(driver::toSourceDiagnostic(tree, diag));
      // Warnings, like errors, keep the instance out of the cache: a cache
      // hit would not repeat them.
      ++errors;
      return mlir::success();
    });
    // The source line is the context users need, not the op's IR.
    context->printOpOnDiagnostic(false);
    std::string name = target.str();
    if (name.empty())
      name = "sm_80";
    std::optional<tile::LayoutTarget> layoutTarget =
        tile::parseLayoutTarget(name);
    if (!layoutTarget) {
      module.emitError() << "unknown layout target '" << name << "'";
      return stats;
    }
    for (mlir::Operation &top : module.getBody()->getOperations()) {
      if (cancelled && cancelled())
        break;
      size_t topIndex = index++;
      // An instance whose IR broke an op's rules was reported already;
      // inference would only meet the same op again.
      if (invalid.contains(&top))
        continue;
      // An instance whose file asks for its own target (tile.target).
      std::optional<tile::LayoutTarget> own;
      std::string ownName;
      if (auto t = top.getAttrOfType<mlir::StringAttr>("tile.target")) {
        ownName = t.getValue().str();
        if (ownName == "cpu" || llvm::StringRef(ownName).ends_with("cpu"))
          continue;
        own = tile::parseLayoutTarget(ownName);
      }
      const tile::LayoutTarget &instTarget = own ? *own : *layoutTarget;
      llvm::StringRef instName =
          own ? llvm::StringRef(ownName) : llvm::StringRef(name);
      std::vector<mlir::Operation *> ops;
      top.walk<mlir::WalkOrder::PreOrder>(
          [&](mlir::Operation *op) { ops.push_back(op); });
      std::string key = cache ? instanceKey(&top, instName) : std::string();
      std::shared_ptr<const LayoutCache::Entry> entry =
          cache ? cache->lookup(key) : nullptr;
      if (entry) {
        ++stats.reused;
        attach(*entry, ops);
      } else {
        ++stats.inferred;
        size_t errorsBefore = errors;
        bool failedAny = false;
        llvm::DenseSet<mlir::Operation *> failedKernels;
        std::shared_ptr<LayoutCache::Entry> fresh =
            inferInstance(ops, instTarget, failedAny, failedKernels);
        attach(*fresh, ops);
        computeLabels(*fresh, ops, instName, failedKernels);
        if (!failedAny)
          planLaunches(*fresh, &top, ops, instName);
        // Errors point into the source by location, which the key ignores:
        // an instance with errors is inferred again next time.
        if (bankConflicts && !(cancelled && cancelled())) {
          fresh->conflicts = findInstanceConflicts(ops, instName);
          // Only for an instance inference accepted without a word: the
          // printer would meet what it reported (a fragment of 10^8
          // elements) again, without a budget.
          if (!failedAny && errors == errorsBefore) {
            std::vector<PrinterFragmentLabel> printed;
            fresh->exchanges =
                findInstanceExchanges(&top, ops, instName, &printed);
            usePrinterLabels(*fresh, printed);
          }
          ++stats.conflictsChecked;
        }
        if (cache && !failedAny && errors == errorsBefore)
          cache->record(key, fresh);
        entry = std::move(fresh);
      }
      if (bankConflicts && !entry->conflicts && !(cancelled && cancelled())) {
        // Inferred earlier without its conflicts (an editor's first
        // hints): checked now and kept with the layouts.
        auto checked = std::make_shared<LayoutCache::Entry>(*entry);
        checked->conflicts = findInstanceConflicts(ops, instName);
        std::vector<PrinterFragmentLabel> printed;
        checked->exchanges =
            findInstanceExchanges(&top, ops, instName, &printed);
        usePrinterLabels(*checked, printed);
        ++stats.conflictsChecked;
        if (cache)
          cache->record(key, checked);
        entry = std::move(checked);
      }
      if (bankConflicts && entry->conflicts) {
        std::string instance;
        if (analysis.instances.size() == numTop)
          instance = analysis.instances[topIndex].label;
        reportInstanceConflicts(analysis, tree, ops, *entry->conflicts,
                                instName, instance, seenConflicts);
        reportInstanceExchanges(analysis, tree, ops, entry->exchanges,
                                instance, seenConflicts);
      }
      for (const auto &[i, shortLabel, longLabel] : entry->labels) {
        if (i >= ops.size())
          continue;
        mlir::Location loc = ops[i]->getLoc();
        auto nameLoc = llvm::dyn_cast<mlir::NameLoc>(loc);
        mlir::FileLineColRange at = tile::getSourceLocation(loc);
        if (!nameLoc || !at)
          continue;
        labels[{at.getStartLine(), nameLoc.getName().str()}].push_back(
            {shortLabel, longLabel});
      }
      for (const auto &[i, threads] : entry->producers) {
        if (i >= ops.size())
          continue;
        mlir::FileLineColRange at = tile::getSourceLocation(ops[i]->getLoc());
        if (at)
          producers.push_back({at.getStartLine(), at.getEndLine(), threads});
      }
    }
  }
  std::map<std::pair<unsigned, std::string>, size_t> seen;
  for (eval::Hint &h : analysis.hints) {
    if (h.kind != "buffer")
      continue;
    unsigned line = tree.lines().toUtf8(h.range.begin).line + 1;
    auto key = std::make_pair(line, h.name);
    auto it = labels.find(key);
    size_t n = seen[key]++;
    if (it != labels.end() && n < it->second.size())
      std::tie(h.layout, h.layoutDetail) = it->second[n];
  }
  for (eval::Hint &h : analysis.hints) {
    if (h.kind != "kernel" || !h.threads || producers.empty())
      continue;
    unsigned line = tree.lines().toUtf8(h.range.begin).line + 1;
    auto it = llvm::find_if(producers, [&](const auto &p) {
      return std::get<0>(p) <= line && line <= std::get<1>(p);
    });
    if (it == producers.end())
      continue;
    int64_t producer = std::get<2>(*it);
    h.producerThreads = producer;
    h.detail = std::to_string(*h.threads) + " threads + a " +
               std::to_string(producer) +
               "-thread TMA producer warpgroup (warp-specialised)";
    *h.threads += producer;
    producers.erase(it);
  }
  if (bankConflicts)
    std::stable_sort(analysis.diagnostics.begin(), analysis.diagnostics.end(),
                     [](const Diagnostic &a, const Diagnostic &b) {
                       return a.range.begin < b.range.begin;
                     });
  return stats;
}
