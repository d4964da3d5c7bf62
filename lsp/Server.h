//===- Server.h - The tlc language server API (no JSON) ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TlcServer is the language server as a C++ API, the analogue of clangd's
// ClangdServer: it tracks open documents and answers feature requests with
// the plain structs of Types.h through callbacks. It knows nothing about
// JSON-RPC; LSPServer adapts it to the protocol, and unit tests drive it
// directly.
//
// Thread-safety: call the public methods from one thread (the dispatcher).
// Callbacks and ServerCallbacks run on worker threads, or inside
// runUntilIdle() when the server is synchronous (workerThreads == 0).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_SERVER_H
#define TLC_LSP_SERVER_H

#include "Analysis.h"
#include "GeneratedSource.h"
#include "Scheduler.h"
#include "Types.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace lsp {

/// Notifications from the server to its owner. Called on worker threads.
class ServerCallbacks {
public:
  virtual ~ServerCallbacks();
  /// New diagnostics for `uri` at `version` (empty clears them).
  virtual void onDiagnostics(const std::string &uri,
                             std::optional<int64_t> version,
                             std::vector<Diag> diagnostics) = 0;
  /// Long-running analysis of `uri` began (`end` false) or ended.
  virtual void onProgress(const std::string &uri, bool end) {}
  /// A background analysis of the latest version of `uri` produced facts
  /// the client has not asked hints for yet: inlay hints and code lenses
  /// should be refreshed (`workspace/inlayHint/refresh`).
  virtual void onHintsChanged(const std::string &uri) {}
};

/// Options of a TlcServer.
struct ServerOptions {
  /// Worker threads; 0 makes the server synchronous (see runUntilIdle).
  unsigned workerThreads = 2;
  /// Delay from the last edit to the diagnostics analysis.
  std::chrono::milliseconds debounce{50};
  /// Column encoding of every Position exchanged with the server.
  PositionEncoding encoding = PositionEncoding::Utf16;
  /// Initial configuration.
  Config config;
  /// Analyzer to use; null selects createDefaultAnalyzer().
  std::shared_ptr<Analyzer> analyzer;
  /// Where generated sources are written; empty selects
  /// getDefaultCacheDir().
  std::string cacheDir;
};

/// What executeCommand asks the client to do afterwards.
struct CommandOutcome {
  /// A document to show (`window/showDocument`).
  std::optional<Location> showDocument;
  /// True when inlay hints changed (`workspace/inlayHint/refresh`).
  bool refreshInlayHints = false;
  /// True when code lenses changed (`workspace/codeLens/refresh`).
  bool refreshCodeLenses = false;
  /// A message for the user, may be empty.
  std::string message;
};

/// The commands executeCommand understands.
std::vector<std::string> getServerCommands();

/// The language server as an API over open documents.
class TlcServer : public SchedulerCallbacks {
public:
  /// Creates the server; `callbacks` must outlive it.
  TlcServer(const ServerOptions &options, ServerCallbacks &callbacks);
  ~TlcServer() override;

  /// Opens `uri` with its first version.
  void openDocument(const std::string &uri, int64_t version,
                    std::string text);
  /// Applies content changes in order. Fails (and leaves the document
  /// unchanged) when `uri` is not open.
  std::optional<Failure> changeDocument(const std::string &uri,
                                        int64_t version,
                                        const std::vector<ContentChange> &changes);
  /// Closes `uri`; its diagnostics are cleared.
  void closeDocument(const std::string &uri);
  /// The current text of `uri` as the server holds it, if open.
  std::optional<std::string> getDocumentText(const std::string &uri) const;

  /// Replaces the configuration; analysis is redone where it depends on it.
  /// Returns true when it is redone (ServerCallbacks::onHintsChanged then
  /// follows), false when only the presentation changed.
  bool setConfig(const Config &config);
  /// The current configuration.
  Config getConfig() const;

  /// Hover at `pos`: a `T.*` primitive or a buffer.
  void hover(const std::string &uri, Position pos, const CancelToken &token,
             Callback<std::optional<HoverInfo>> reply);
  /// Definition of the name at `pos`.
  void definition(const std::string &uri, Position pos,
                  const CancelToken &token,
                  Callback<std::vector<Location>> reply);
  /// Outline: kernels, functions, classes and buffers.
  void documentSymbols(const std::string &uri, const CancelToken &token,
                       Callback<std::vector<DocumentSymbol>> reply);
  /// Semantic tokens of the whole document, sorted.
  void semanticTokens(const std::string &uri, const CancelToken &token,
                      Callback<std::vector<SemanticToken>> reply);
  /// Inlay hints whose position lies in `range`.
  void inlayHints(const std::string &uri, Range range,
                  const CancelToken &token,
                  Callback<std::vector<InlayHint>> reply);
  /// Adds the tooltip (long layout form) to a hint from inlayHints().
  void resolveInlayHint(const std::string &uri, InlayHint hint,
                        const CancelToken &token, Callback<InlayHint> reply);
  /// One lens group per kernel.
  void codeLenses(const std::string &uri, const CancelToken &token,
                  Callback<std::vector<CodeLens>> reply);
  /// The layout picture of a buffer (`tilelang/layout`): the one named
  /// `buffer`, or allocated or named at `pos`; `instance` indexes its
  /// instances (default: the kernel's picked instance).
  void layoutPicture(const std::string &uri, std::optional<Position> pos,
                     const std::string &buffer,
                     std::optional<unsigned> instance,
                     const CancelToken &token, Callback<LayoutPicture> reply);
  /// The generated code for the statement at `pos` (see Types.h): `target`
  /// is `cpu`, `cuda[:sm_XX]` or `tile` (Tile IR); the configured target
  /// when absent.
  void generatedSource(const std::string &uri, Position pos,
                       std::optional<std::string> target,
                       const CancelToken &token,
                       Callback<GeneratedSource> reply);
  /// The DSL statement a generated line came from; `uri` is a file that
  /// generatedSource() wrote.
  void originalSource(const std::string &uri, Position pos,
                      const CancelToken &token, Callback<Location> reply);
  /// Runs a command of getServerCommands().
  void executeCommand(const Command &command, const CancelToken &token,
                      Callback<CommandOutcome> reply);

  /// Synchronous servers only: runs queued work until none is left.
  void runUntilIdle();

private:
  void onAnalyzed(const Document &doc, bool latest) override;
  void onClosed(const std::string &uri) override;
  void onAnalysisProgress(const std::string &uri, bool end) override;
  /// Runs `action` with the document snapshot and its analysis facts.
  template <typename T, typename Fn>
  void withDocument(const std::string &uri, const CancelToken &token,
                    bool needFacts, Callback<T> reply, Fn action);
  unsigned getInstancePick(const std::string &uri,
                           const std::string &kernel) const;
  /// generatedSource() for the kernel named `kernelName` when given (its
  /// name's position), else for the kernel at `pos`.
  void generatedSourceFor(const std::string &uri, Position pos,
                          std::optional<std::string> kernelName,
                          std::optional<std::string> target,
                          const CancelToken &token,
                          Callback<GeneratedSource> reply);

  struct OpenDocument {
    int64_t version = 0;
    std::shared_ptr<const std::string> text;
  };

  ServerOptions options;
  ServerCallbacks &callbacks;
  /// Generated files, for originalSource.
  GeneratedFileRegistry generatedFiles;
  std::shared_ptr<Analyzer> analyzer;
  mutable std::mutex configMutex;
  Config config;
  /// Instance picked per (uri, kernel) by the pickInstance command.
  std::map<std::pair<std::string, std::string>, unsigned> instancePicks;
  /// Dispatcher-thread state.
  std::map<std::string, OpenDocument> documents;
  std::unique_ptr<Scheduler> scheduler;
};

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_SERVER_H
