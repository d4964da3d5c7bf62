//===- Server.cpp - The tlc language server API ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Server.h"

#include "Features.h"

#include "tlc/Support/LineIndex.h"

#include <algorithm>

using namespace tlc;
using namespace tlc::lsp;

ServerCallbacks::~ServerCallbacks() = default;

std::vector<std::string> tlc::lsp::getServerCommands() {
  return {"tilelang.pickInstance", "tilelang.showGenerated",
          "tilelang.showTileIR", "tilelang.reanalyze"};
}

/// Analysis options derived from the configuration.
static AnalysisOptions toAnalysisOptions(const Config &config) {
  AnalysisOptions options;
  options.target = config.target;
  return options;
}

TlcServer::TlcServer(const ServerOptions &options, ServerCallbacks &callbacks)
    : options(options), callbacks(callbacks), analyzer(options.analyzer),
      config(options.config) {
  if (!analyzer)
    analyzer = createDefaultAnalyzer();
  SchedulerOptions schedOptions;
  schedOptions.threads = options.workerThreads;
  schedOptions.debounce = options.debounce;
  schedOptions.encoding = options.encoding;
  scheduler = std::make_unique<Scheduler>(schedOptions, *analyzer, *this);
  scheduler->setAnalysisOptions(toAnalysisOptions(config));
}

TlcServer::~TlcServer() {
  // Joins the workers first; their work captures the Scheduler pointer,
  // not this member.
  scheduler.reset();
}

void TlcServer::openDocument(const std::string &uri, int64_t version,
                             std::string text) {
  OpenDocument &doc = documents[uri];
  doc.version = version;
  doc.text = std::make_shared<const std::string>(std::move(text));
  DocumentUpdate update;
  update.version = version;
  update.text = doc.text;
  update.fullText = true;
  scheduler->update(uri, std::move(update));
}

/// Converts an editor position to a byte offset of `index`'s text.
static uint32_t toOffset(const LineIndex &index, Position pos,
                         PositionEncoding encoding) {
  LinePosition lp{pos.line, pos.character};
  return encoding == PositionEncoding::Utf8 ? index.fromUtf8(lp)
                                            : index.fromUtf16(lp);
}

std::optional<Failure>
TlcServer::changeDocument(const std::string &uri, int64_t version,
                          const std::vector<ContentChange> &changes) {
  auto it = documents.find(uri);
  if (it == documents.end())
    return Failure{FailureKind::InvalidParams, "document not open: " + uri};
  std::string text = *it->second.text;
  bool fullText = false;
  uint32_t prefix = ~0u, suffix = ~0u;
  for (const ContentChange &change : changes) {
    if (!change.range) {
      text = change.text;
      fullText = true;
      continue;
    }
    if (change.range->end < change.range->start)
      return Failure{FailureKind::InvalidParams,
                     "change range ends before it starts"};
    LineIndex index(text);
    uint32_t begin = toOffset(index, change.range->start, options.encoding);
    uint32_t end = toOffset(index, change.range->end, options.encoding);
    text.replace(begin, end - begin, change.text);
    prefix = std::min(prefix, begin);
    suffix = std::min<uint32_t>(
        suffix, text.size() - (begin + change.text.size()));
  }
  it->second.version = version;
  it->second.text = std::make_shared<const std::string>(std::move(text));
  DocumentUpdate update;
  update.version = version;
  update.text = it->second.text;
  update.fullText = fullText;
  update.unchangedPrefix = prefix;
  update.unchangedSuffix = suffix;
  scheduler->update(uri, std::move(update));
  return std::nullopt;
}

void TlcServer::closeDocument(const std::string &uri) {
  if (documents.erase(uri))
    scheduler->remove(uri);
  std::lock_guard<std::mutex> lock(configMutex);
  for (auto it = instancePicks.begin(); it != instancePicks.end();)
    it = it->first.first == uri ? instancePicks.erase(it) : std::next(it);
}

std::optional<std::string>
TlcServer::getDocumentText(const std::string &uri) const {
  auto it = documents.find(uri);
  if (it == documents.end())
    return std::nullopt;
  return *it->second.text;
}

bool TlcServer::setConfig(const Config &newConfig) {
  std::string oldTarget;
  {
    std::lock_guard<std::mutex> lock(configMutex);
    oldTarget = config.target;
    config = newConfig;
  }
  if (oldTarget == newConfig.target)
    return false;
  scheduler->setAnalysisOptions(toAnalysisOptions(newConfig));
  return true;
}

Config TlcServer::getConfig() const {
  std::lock_guard<std::mutex> lock(configMutex);
  return config;
}

unsigned TlcServer::getInstancePick(const std::string &uri,
                                    const std::string &kernel) const {
  std::lock_guard<std::mutex> lock(configMutex);
  auto it = instancePicks.find({uri, kernel});
  return it != instancePicks.end() ? it->second : config.instance;
}

template <typename T, typename Fn>
void TlcServer::withDocument(const std::string &uri, const CancelToken &token,
                             bool needFacts, Callback<T> reply, Fn action) {
  Scheduler *sched = scheduler.get(); // Valid while work runs.
  scheduler->runWithDocument(
      uri, token,
      [this, sched, token, needFacts, reply = std::move(reply),
       action = std::move(action)](
          Result<std::shared_ptr<const Document>> doc) mutable {
        if (!doc)
          return reply(doc.getFailure());
        const Document &d = **doc;
        std::shared_ptr<const AnalysisFacts> facts;
        if (needFacts && d.isTileLang()) {
          facts = d.getFacts(*analyzer, sched->getAnalysisOptions(),
                             token);
          if (!facts)
            return reply(Failure{FailureKind::Cancelled, "request cancelled"});
        }
        reply(action(d, facts.get()));
      });
}

void TlcServer::hover(const std::string &uri, Position pos,
                      const CancelToken &token,
                      Callback<std::optional<HoverInfo>> reply) {
  withDocument<std::optional<HoverInfo>>(
      uri, token, true, std::move(reply),
      [this, uri, pos](const Document &doc, const AnalysisFacts *facts)
          -> Result<std::optional<HoverInfo>> {
        if (!doc.isTileLang())
          return std::optional<HoverInfo>();
        auto pick = [&](const std::string &k) {
          return getInstancePick(uri, k);
        };
        return computeHover(doc, doc.toOffset(pos), facts, pick);
      });
}

void TlcServer::layoutPicture(const std::string &uri,
                              std::optional<Position> pos,
                              const std::string &buffer,
                              std::optional<unsigned> instance,
                              const CancelToken &token,
                              Callback<LayoutPicture> reply) {
  withDocument<LayoutPicture>(
      uri, token, true, std::move(reply),
      [this, uri, pos, buffer, instance](
          const Document &doc,
          const AnalysisFacts *facts) -> Result<LayoutPicture> {
        if (!doc.isTileLang())
          return Failure{FailureKind::Failed,
                         "not a TileLang file (no `import tilelang`)"};
        if (!facts)
          return Failure{FailureKind::Failed, "the file is not analysed"};
        auto pick = [&](const std::string &k) {
          return getInstancePick(uri, k);
        };
        std::optional<uint32_t> offset;
        if (pos)
          offset = doc.toOffset(*pos);
        return computeLayoutPicture(doc, *facts, offset, buffer, instance,
                                    getConfig(), pick);
      });
}

void TlcServer::definition(const std::string &uri, Position pos,
                           const CancelToken &token,
                           Callback<std::vector<Location>> reply) {
  withDocument<std::vector<Location>>(
      uri, token, false, std::move(reply),
      [uri, pos](const Document &doc,
                 const AnalysisFacts *) -> Result<std::vector<Location>> {
        std::vector<Location> result;
        if (!doc.isTileLang())
          return result;
        if (auto range = findDefinition(*doc.getTree(), doc.toOffset(pos)))
          result.push_back(Location{uri, doc.toRange(*range)});
        return result;
      });
}

void TlcServer::documentSymbols(const std::string &uri,
                                const CancelToken &token,
                                Callback<std::vector<DocumentSymbol>> reply) {
  withDocument<std::vector<DocumentSymbol>>(
      uri, token, true, std::move(reply),
      [](const Document &doc, const AnalysisFacts *facts)
          -> Result<std::vector<DocumentSymbol>> {
        if (!doc.isTileLang())
          return std::vector<DocumentSymbol>();
        return computeDocumentSymbols(doc, facts);
      });
}

void TlcServer::semanticTokens(const std::string &uri,
                               const CancelToken &token,
                               Callback<std::vector<SemanticToken>> reply) {
  withDocument<std::vector<SemanticToken>>(
      uri, token, false, std::move(reply),
      [](const Document &doc,
         const AnalysisFacts *) -> Result<std::vector<SemanticToken>> {
        if (!doc.isTileLang())
          return std::vector<SemanticToken>();
        return computeSemanticTokens(doc);
      });
}

void TlcServer::inlayHints(const std::string &uri, Range range,
                           const CancelToken &token,
                           Callback<std::vector<InlayHint>> reply) {
  Scheduler *sched = scheduler.get(); // Valid while work runs.
  // Hints need only the facts inside the requested (visible) range: before
  // the complete analysis of this version is done, only the slices there
  // are evaluated (Document::getFactsFor) and the complete analysis asks
  // for a refresh when it finishes (onAnalyzed).
  scheduler->runWithDocument(
      uri, token,
      [this, sched, uri, range, token, reply = std::move(reply)](
          Result<std::shared_ptr<const Document>> result) mutable {
        if (!result)
          return reply(result.getFailure());
        const Document &doc = **result;
        std::vector<InlayHint> hints;
        if (!doc.isTileLang())
          return reply(std::move(hints));
        TextRange visible{doc.toOffset(range.start), doc.toOffset(range.end)};
        if (visible.end < visible.begin)
          visible.end = visible.begin;
        std::shared_ptr<const AnalysisFacts> facts = doc.getFactsFor(
            *analyzer, sched->getAnalysisOptions(), visible, token);
        if (!facts)
          return reply(Failure{FailureKind::Cancelled, "request cancelled"});
        if (facts->partial)
          doc.markPartialHintsServed();
        else
          doc.markHintsServed();
        auto pick = [&](const std::string &k) {
          return getInstancePick(uri, k);
        };
        for (InlayHint &hint :
             computeInlayHints(doc, *facts, getConfig(), pick)) {
          if (hint.position < range.start || range.end < hint.position)
            continue;
          hint.tooltip.clear(); // Sent by resolve.
          hints.push_back(std::move(hint));
        }
        reply(std::move(hints));
      });
}

void TlcServer::resolveInlayHint(const std::string &uri, InlayHint hint,
                                 const CancelToken &token,
                                 Callback<InlayHint> reply) {
  withDocument<InlayHint>(
      uri, token, true, std::move(reply),
      [this, uri, hint](const Document &doc,
                        const AnalysisFacts *facts) -> Result<InlayHint> {
        InlayHint resolved = hint;
        if (!doc.isTileLang() || !facts || doc.getVersion() != hint.version)
          return resolved; // Stale: leave the hint as it is.
        auto pick = [&](const std::string &k) {
          return getInstancePick(uri, k);
        };
        std::vector<InlayHint> all =
            computeInlayHints(doc, *facts, getConfig(), pick);
        if (hint.index < all.size() && all[hint.index].label == hint.label &&
            all[hint.index].position == hint.position) {
          resolved.tooltip = all[hint.index].tooltip;
          return resolved;
        }
        // Served from partial facts: its index counts only their hints.
        for (const InlayHint &h : all)
          if (h.label == hint.label && h.position == hint.position) {
            resolved.tooltip = h.tooltip;
            break;
          }
        return resolved;
      });
}

void TlcServer::codeLenses(const std::string &uri, const CancelToken &token,
                           Callback<std::vector<CodeLens>> reply) {
  withDocument<std::vector<CodeLens>>(
      uri, token, true, std::move(reply),
      [this, uri](const Document &doc, const AnalysisFacts *facts)
          -> Result<std::vector<CodeLens>> {
        if (!doc.isTileLang() || !facts)
          return std::vector<CodeLens>();
        auto pick = [&](const std::string &k) {
          return getInstancePick(uri, k);
        };
        return computeCodeLenses(doc, *facts, getConfig(), pick);
      });
}

/// The kernel whose function contains byte `offset`, the innermost one;
/// else the first kernel inside the function containing it; else the first
/// kernel starting on the offset's line.
static const KernelFact *findKernelAt(const Document &doc,
                                      const AnalysisFacts &facts,
                                      uint32_t offset) {
  const KernelFact *best = nullptr;
  for (const KernelFact &k : facts.kernels)
    if (k.range.begin <= offset && offset <= k.range.end &&
        (!best || k.range.end - k.range.begin <
                      best->range.end - best->range.begin))
      best = &k;
  if (best)
    return best;
  // In a factory around a prim_func (`@tilelang.jit def matmul(...)`):
  // the first kernel inside the innermost function containing the offset.
  for (syntax::Node n = findNodeAt(*doc.getTree(), offset); n; n = n.parent())
    if (isFunction(n))
      for (const KernelFact &k : facts.kernels)
        if (n.range().begin <= k.range.begin && k.range.end <= n.range().end)
          return &k;
  const LineIndex &lines = doc.getTree()->lines();
  uint32_t line = lines.getLine(offset);
  for (const KernelFact &k : facts.kernels)
    if (lines.getLine(k.range.begin) == line ||
        lines.getLine(k.nameRange.begin) == line)
      return &k;
  return nullptr;
}

void TlcServer::generatedSource(const std::string &uri, Position pos,
                                std::optional<std::string> target,
                                const CancelToken &token,
                                Callback<GeneratedSource> reply) {
  generatedSourceFor(uri, pos, std::nullopt, std::move(target), token,
                     std::move(reply));
}

void TlcServer::generatedSourceFor(const std::string &uri, Position pos,
                                   std::optional<std::string> kernelName,
                                   std::optional<std::string> target,
                                   const CancelToken &token,
                                   Callback<GeneratedSource> reply) {
  std::string chosen = target ? *target : getConfig().target;
  Result<GeneratedKind> kind = parseGeneratedTarget(chosen);
  if (!kind)
    return reply(kind.getFailure());
  // The Tile IR view uses the configured target's profile.
  std::string profile =
      *kind == GeneratedKind::TileIR ? getConfig().target : chosen;
  std::string cacheDir =
      options.cacheDir.empty() ? getDefaultCacheDir() : options.cacheDir;
  withDocument<GeneratedSource>(
      uri, token, true, std::move(reply),
      [this, uri, pos, kernelName, kind = *kind, profile,
       cacheDir](const Document &doc,
                 const AnalysisFacts *facts) -> Result<GeneratedSource> {
        if (!doc.isTileLang())
          return Failure{FailureKind::Failed,
                         "not a TileLang file (no `import tilelang`)"};
        if (!facts || facts->skipped)
          return Failure{FailureKind::Failed,
                         "the file is not analysed (too large)"};
        uint32_t offset = doc.toOffset(pos);
        // A cursor in a line's indentation (editors put it at column 0)
        // means the statement on that line, not the block around it.
        {
          const LineIndex &lines = doc.getTree()->lines();
          llvm::StringRef text = lines.getLineText(lines.getLine(offset));
          uint32_t lineStart = lines.getLineStart(lines.getLine(offset));
          size_t indent = text.find_first_not_of(" \t");
          if (indent != llvm::StringRef::npos && offset < lineStart + indent)
            offset = lineStart + uint32_t(indent);
        }
        const KernelFact *kernel = nullptr;
        if (kernelName) {
          for (const KernelFact &k : facts->kernels)
            if (k.name == *kernelName && !kernel)
              kernel = &k;
          if (!kernel)
            return Failure{FailureKind::Failed,
                           "no TileLang kernel named " + *kernelName};
          offset = kernel->nameRange.begin;
        } else {
          kernel = findKernelAt(doc, *facts, offset);
        }
        if (!kernel)
          return Failure{FailureKind::Failed,
                         "no TileLang kernel at line " +
                             std::to_string(pos.line + 1)};
        unsigned pick = getInstancePick(uri, kernel->name);
        if (pick >= kernel->instances.size())
          pick = 0;
        Result<GeneratedFile> file =
            generateSource(doc, *kernel, pick, kind, profile, cacheDir);
        if (!file)
          return file.getFailure();
        GeneratedSource result;
        result.uri = file->uri;
        result.language = file->language;
        result.range = findGeneratedRange(
            *file, offset, getStatementsAt(*doc.getTree(), offset),
            options.encoding);
        generatedFiles.add(std::move(*file));
        return result;
      });
}

void TlcServer::originalSource(const std::string &uri, Position pos,
                               const CancelToken &token,
                               Callback<Location> reply) {
  if (token.isCancelled())
    return reply(Failure{FailureKind::Cancelled, "request cancelled"});
  std::optional<GeneratedFile> file = generatedFiles.find(uri);
  if (!file)
    return reply(Failure{FailureKind::Failed,
                         "no source map for " + uri +
                             ": not a file generated by this server "
                             "(use tilelang/generatedSource first)"});
  std::optional<Range> range = findOriginalRange(*file, pos.line);
  if (!range)
    return reply(Failure{FailureKind::Failed,
                         "line " + std::to_string(pos.line + 1) +
                             " of the generated file maps to no DSL "
                             "statement"});
  reply(Location{file->dslUri, *range});
}

void TlcServer::executeCommand(const Command &command,
                               const CancelToken &token,
                               Callback<CommandOutcome> reply) {
  const std::vector<std::string> &args = command.arguments;
  if (command.command == "tilelang.pickInstance") {
    if (args.size() != 3 || !documents.count(args[0]))
      return reply(Failure{FailureKind::InvalidParams,
                           "tilelang.pickInstance expects [uri, kernel, "
                           "index] of an open document"});
    char *end = nullptr;
    unsigned long index = std::strtoul(args[2].c_str(), &end, 10);
    if (args[2].empty() || *end)
      return reply(Failure{FailureKind::InvalidParams,
                           "instance index must be a number"});
    {
      std::lock_guard<std::mutex> lock(configMutex);
      instancePicks[{args[0], args[1]}] = static_cast<unsigned>(index);
    }
    CommandOutcome outcome;
    outcome.refreshInlayHints = true;
    outcome.refreshCodeLenses = true;
    return reply(std::move(outcome));
  }
  if (command.command == "tilelang.showGenerated" ||
      command.command == "tilelang.showTileIR") {
    bool tileIR = command.command == "tilelang.showTileIR";
    if (args.empty())
      return reply(Failure{FailureKind::InvalidParams,
                           command.command + " expects [uri, line?, " +
                               (tileIR ? "kernel?" : "target?") + "]"});
    // The second argument is a line, or a kernel name (older lenses).
    Position pos;
    std::optional<std::string> kernelName;
    if (args.size() > 1) {
      llvm::StringRef line(args[1]);
      unsigned value = 0;
      if (!line.getAsInteger(10, value))
        pos.line = value;
      else
        kernelName = args[1];
    }
    std::optional<std::string> target;
    if (tileIR)
      target = "tile";
    else if (args.size() > 2 && !args[2].empty())
      target = args[2];
    return generatedSourceFor(
        args[0], pos, kernelName, target, token,
        [reply = std::move(reply)](Result<GeneratedSource> source) {
          if (!source)
            return reply(source.getFailure());
          CommandOutcome outcome;
          outcome.showDocument = Location{source->uri, source->range};
          reply(std::move(outcome));
        });
  }
  if (command.command == "tilelang.reanalyze") {
    scheduler->setAnalysisOptions(toAnalysisOptions(getConfig()));
    CommandOutcome outcome;
    outcome.refreshInlayHints = true;
    return reply(std::move(outcome));
  }
  reply(Failure{FailureKind::InvalidParams,
                "unknown command: " + command.command});
}

void TlcServer::runUntilIdle() { scheduler->runUntilIdle(); }

void TlcServer::onAnalyzed(const Document &doc, bool latest) {
  std::vector<Diag> diags;
  if (doc.isTileLang())
    diags = computeDiagnostics(doc, doc.getCachedFacts().get());
  callbacks.onDiagnostics(doc.getUri(), doc.getVersion(), std::move(diags));
  if (latest && doc.isTileLang() && doc.getCachedFacts() &&
      (!doc.wereHintsServed() || doc.werePartialHintsServed()))
    callbacks.onHintsChanged(doc.getUri());
}

void TlcServer::onClosed(const std::string &uri) {
  callbacks.onDiagnostics(uri, std::nullopt, {});
}

void TlcServer::onAnalysisProgress(const std::string &uri, bool end) {
  callbacks.onProgress(uri, end);
}
