//===- LSPServer.cpp - The protocol layer of tlc-lsp ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LSPServer.h"

#include "Features.h"
#include "ProtocolJSON.h"
#include "Server.h"

#include <condition_variable>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

using namespace tlc;
using namespace tlc::lsp;

namespace {
/// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

/// A protocol-level failure raised inside a handler.
struct ProtocolError {
  int code;
  std::string message;
};

/// The error code of a server failure.
int toErrorCode(FailureKind kind) {
  switch (kind) {
  case FailureKind::Cancelled:
    return RequestCancelled;
  case FailureKind::InvalidParams:
    return InvalidParams;
  case FailureKind::ContentModified:
    return ContentModified;
  case FailureKind::Failed:
    return RequestFailed;
  }
  return InternalError;
}

using Clock = std::chrono::steady_clock;
} // namespace

class LSPServer::Impl : public ServerCallbacks {
public:
  Impl(const LSPServerOptions &options, MessageWriter &writer)
      : options(options), writer(writer) {
    registerHandlers();
  }
  ~Impl() override {
    {
      std::lock_guard<std::mutex> lock(progressMutex);
      stopWatcher = true;
    }
    progressCv.notify_all();
    if (watcher.joinable())
      watcher.join();
    server.reset();
  }

  bool handleMessage(const std::string &body);
  void handleMalformed(const std::string &error) {
    replyError(json(), ParseError, error);
  }
  void runUntilIdle() {
    if (server)
      server->runUntilIdle();
  }
  int getExitCode() const { return shutdownRequested ? 0 : 1; }

private:
  using RequestHandler = void (Impl::*)(const json &id, const json &params);
  using NotificationHandler = void (Impl::*)(const json &params);

  void registerHandlers();
  void send(const json &message);
  void reply(const json &id, json result);
  void replyError(const json &id, int code, const std::string &message);
  void notify(const std::string &method, json params);
  void request(const std::string &method, json params,
               std::function<void(const json *result)> onResult);
  void dispatch(const json &message);
  void handleResponse(const json &message);

  /// Starts tracking a request for cancellation.
  CancelToken track(const json &id);
  /// Builds a reply callback for a server call; `convert` turns the
  /// result into JSON.
  template <typename T, typename Convert>
  Callback<T> replier(const json &id, const std::string &method,
                      Convert convert);

  // Lifecycle.
  void onInitialize(const json &id, const json &params);
  void onInitialized(const json &params);
  void onShutdown(const json &id, const json &params);
  void onExit(const json &params) { exitRequested = true; }
  void onCancel(const json &params);
  void onSetTrace(const json &params) {}
  // Documents.
  void onDidOpen(const json &params);
  void onDidChange(const json &params);
  void onDidClose(const json &params);
  void onDidSave(const json &params) {}
  void onDidChangeConfiguration(const json &params);
  // Features.
  void onHover(const json &id, const json &params);
  void onLayout(const json &id, const json &params);
  void onDefinition(const json &id, const json &params);
  void onDocumentSymbol(const json &id, const json &params);
  void onSemanticTokens(const json &id, const json &params);
  void onInlayHint(const json &id, const json &params);
  void onInlayHintResolve(const json &id, const json &params);
  void onCodeLens(const json &id, const json &params);
  void onExecuteCommand(const json &id, const json &params);
  void onGeneratedSource(const json &id, const json &params);
  void onOriginalSource(const json &id, const json &params);
  void onViewFileText(const json &id, const json &params);

  void applyConfig(const json &settings);
  void pullConfiguration();

  // ServerCallbacks.
  void onDiagnostics(const std::string &uri, std::optional<int64_t> version,
                     std::vector<Diag> diagnostics) override;
  void onProgress(const std::string &uri, bool end) override;
  void onHintsChanged(const std::string &uri) override;
  void beginProgress(const std::string &uri);
  void watchProgress();

  LSPServerOptions options;
  MessageWriter &writer;
  std::unique_ptr<TlcServer> server;
  std::map<std::string, RequestHandler> requests;
  std::map<std::string, NotificationHandler> notifications;

  bool initialized = false;
  bool shutdownRequested = false;
  bool exitRequested = false;

  // Client capabilities.
  bool clientProgress = false;
  bool clientConfiguration = false;
  bool clientInlayRefresh = false;
  bool clientCodeLensRefresh = false;
  bool clientShowDocument = false;
  bool clientSemanticDynamic = false;
  bool semanticRegistered = false;

  // Requests in flight, by serialised id.
  std::mutex inflightMutex;
  std::map<std::string, CancelToken> inflight;

  // Requests sent to the client.
  std::mutex outgoingMutex;
  int64_t nextOutgoingId = 1;
  std::map<std::string, std::function<void(const json *)>> outgoing;

  // Work-done progress.
  std::mutex progressMutex;
  std::condition_variable progressCv;
  std::thread watcher;
  bool stopWatcher = false;
  struct ProgressState {
    Clock::time_point start;
    std::string token;
    bool created = false;
    bool begun = false;
    bool ended = false;
  };
  std::map<std::string, ProgressState> progress;
  int64_t nextProgressId = 1;
};

void LSPServer::Impl::registerHandlers() {
  requests = {
      {"initialize", &Impl::onInitialize},
      {"shutdown", &Impl::onShutdown},
      {"textDocument/hover", &Impl::onHover},
      {"textDocument/definition", &Impl::onDefinition},
      {"textDocument/documentSymbol", &Impl::onDocumentSymbol},
      {"textDocument/semanticTokens/full", &Impl::onSemanticTokens},
      {"textDocument/inlayHint", &Impl::onInlayHint},
      {"inlayHint/resolve", &Impl::onInlayHintResolve},
      {"textDocument/codeLens", &Impl::onCodeLens},
      {"workspace/executeCommand", &Impl::onExecuteCommand},
      {"tilelang/generatedSource", &Impl::onGeneratedSource},
      {"tilelang/layout", &Impl::onLayout},
      {"tilelang/originalSource", &Impl::onOriginalSource},
      {"tilelang/viewFileText", &Impl::onViewFileText},
  };
  notifications = {
      {"initialized", &Impl::onInitialized},
      {"exit", &Impl::onExit},
      {"$/cancelRequest", &Impl::onCancel},
      {"$/setTrace", &Impl::onSetTrace},
      {"textDocument/didOpen", &Impl::onDidOpen},
      {"textDocument/didChange", &Impl::onDidChange},
      {"textDocument/didClose", &Impl::onDidClose},
      {"textDocument/didSave", &Impl::onDidSave},
      {"workspace/didChangeConfiguration", &Impl::onDidChangeConfiguration},
  };
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

void LSPServer::Impl::send(const json &message) {
  // Invalid UTF-8 from a document is replaced, never thrown.
  writer.write(message.dump(options.prettyPrint ? 2 : -1, ' ', false,
                            json::error_handler_t::replace));
}

void LSPServer::Impl::reply(const json &id, json result) {
  {
    std::lock_guard<std::mutex> lock(inflightMutex);
    inflight.erase(id.dump());
  }
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void LSPServer::Impl::replyError(const json &id, int code,
                                 const std::string &message) {
  if (!id.is_null()) {
    std::lock_guard<std::mutex> lock(inflightMutex);
    inflight.erase(id.dump());
  }
  send(json{{"jsonrpc", "2.0"},
            {"id", id},
            {"error", {{"code", code}, {"message", message}}}});
}

void LSPServer::Impl::notify(const std::string &method, json params) {
  send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
}

void LSPServer::Impl::request(const std::string &method, json params,
                              std::function<void(const json *)> onResult) {
  std::string id;
  {
    std::lock_guard<std::mutex> lock(outgoingMutex);
    id = "tlc-" + std::to_string(nextOutgoingId++);
    outgoing[json(id).dump()] = std::move(onResult);
  }
  send(json{{"jsonrpc", "2.0"},
            {"id", id},
            {"method", method},
            {"params", std::move(params)}});
}

CancelToken LSPServer::Impl::track(const json &id) {
  CancelToken token = CancelToken::create();
  std::lock_guard<std::mutex> lock(inflightMutex);
  inflight[id.dump()] = token;
  return token;
}

template <typename T, typename Convert>
Callback<T> LSPServer::Impl::replier(const json &id, const std::string &method,
                                     Convert convert) {
  auto start = Clock::now();
  return [this, id, method, start, convert](Result<T> result) {
    try {
      if (options.verbose) {
        auto ms = std::chrono::duration<double, std::milli>(Clock::now() -
                                                            start);
        std::fprintf(stderr, "<-- %s(%s) %.2f ms\n", method.c_str(),
                     id.dump().c_str(), ms.count());
      }
      if (!result)
        return replyError(id, toErrorCode(result.getFailure().kind),
                          result.getFailure().message);
      reply(id, convert(*result));
    } catch (const std::exception &e) {
      replyError(id, InternalError, e.what());
    } catch (...) {
      replyError(id, InternalError, "internal error");
    }
  };
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

bool LSPServer::isCancelNotification(const std::string &body) {
  if (body.find("$/cancelRequest") == std::string::npos)
    return false;
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  return message.is_object() && message.value("method", json()) ==
                                    json("$/cancelRequest");
}

bool LSPServer::Impl::handleMessage(const std::string &body) {
  json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    replyError(json(), ParseError, "invalid JSON");
    return !exitRequested;
  }
  json id;
  // Notifications are never answered, not even with an error.
  bool notification = message.is_object() && !message.contains("id") &&
                      message.contains("method");
  auto fail = [&](int code, const std::string &text) {
    if (!notification)
      return replyError(id, code, text);
    std::fprintf(stderr, "tlc-lsp: %s: %s\n",
                 message["method"].dump().c_str(), text.c_str());
  };
  try {
    if (message.is_object() && message.contains("id"))
      id = message["id"];
    dispatch(message);
  } catch (const ProtocolError &e) {
    fail(e.code, e.message);
  } catch (const ParamError &e) {
    fail(InvalidParams, e.message);
  } catch (const json::exception &e) {
    fail(InvalidParams, e.what());
  } catch (const std::exception &e) {
    fail(InternalError, e.what());
  } catch (...) {
    fail(InternalError, "internal error");
  }
  return !exitRequested;
}

void LSPServer::Impl::dispatch(const json &message) {
  if (!message.is_object())
    throw ProtocolError{InvalidRequest, "message is not a JSON object"};
  auto methodIt = message.find("method");
  auto idIt = message.find("id");
  bool hasId = idIt != message.end();
  if (hasId && !idIt->is_string() && !idIt->is_number_integer())
    throw ProtocolError{InvalidRequest, "id must be a string or an integer"};
  if (methodIt == message.end()) {
    if (hasId && (message.contains("result") || message.contains("error")))
      return handleResponse(message);
    throw ProtocolError{InvalidRequest, "message has no method"};
  }
  if (!methodIt->is_string())
    throw ProtocolError{InvalidRequest, "method must be a string"};
  std::string method = methodIt->get<std::string>();
  json params = message.value("params", json::object());
  if (options.verbose)
    std::fprintf(stderr, "--> %s%s\n", method.c_str(),
                 hasId ? ("(" + idIt->dump() + ")").c_str() : "");

  if (!hasId) {
    if (!initialized && method != "exit" && method != "initialized")
      return; // Notifications before initialize are dropped.
    auto it = notifications.find(method);
    if (it != notifications.end())
      (this->*(it->second))(params);
    // Unknown notifications (and `$/...` ones) are ignored.
    return;
  }
  const json &id = *idIt;
  if (!initialized && method != "initialize")
    throw ProtocolError{ServerNotInitialized, "server not initialized"};
  if (initialized && method == "initialize")
    throw ProtocolError{InvalidRequest, "server already initialized"};
  if (shutdownRequested)
    throw ProtocolError{InvalidRequest, "server is shutting down"};
  auto it = requests.find(method);
  if (it == requests.end())
    throw ProtocolError{MethodNotFound, "method not found: " + method};
  (this->*(it->second))(id, params);
}

void LSPServer::Impl::handleResponse(const json &message) {
  std::function<void(const json *)> callback;
  {
    std::lock_guard<std::mutex> lock(outgoingMutex);
    auto it = outgoing.find(message["id"].dump());
    if (it == outgoing.end())
      return; // A response to nothing we asked: ignore.
    callback = std::move(it->second);
    outgoing.erase(it);
  }
  auto result = message.find("result");
  callback(result != message.end() ? &*result : nullptr);
}

//===----------------------------------------------------------------------===//
// Lifecycle
//===----------------------------------------------------------------------===//

/// `obj.a.b.c` as a bool, false when any part is missing.
static bool getFlag(const json &obj, std::initializer_list<const char *> path) {
  const json *cur = &obj;
  for (const char *key : path) {
    if (!cur->is_object())
      return false;
    auto it = cur->find(key);
    if (it == cur->end())
      return false;
    cur = &*it;
  }
  return cur->is_boolean() && cur->get<bool>();
}

void LSPServer::Impl::onInitialize(const json &id, const json &params) {
  if (!params.is_object())
    throw ParamError{"initialize params must be an object"};
  json caps = params.value("capabilities", json::object());
  PositionEncoding encoding = PositionEncoding::Utf16;
  if (caps.is_object() && caps.contains("general") &&
      caps["general"].is_object()) {
    json encodings = caps["general"].value("positionEncodings", json());
    if (encodings.is_array())
      for (const json &e : encodings)
        if (e == "utf-8")
          encoding = PositionEncoding::Utf8;
  }
  clientProgress = getFlag(caps, {"window", "workDoneProgress"});
  clientConfiguration = getFlag(caps, {"workspace", "configuration"});
  clientInlayRefresh =
      getFlag(caps, {"workspace", "inlayHint", "refreshSupport"});
  clientCodeLensRefresh =
      getFlag(caps, {"workspace", "codeLens", "refreshSupport"});
  clientShowDocument = getFlag(caps, {"window", "showDocument", "support"});
  clientSemanticDynamic = getFlag(
      caps, {"textDocument", "semanticTokens", "dynamicRegistration"});

  ServerOptions serverOptions;
  serverOptions.workerThreads = options.workerThreads;
  serverOptions.debounce = options.debounce;
  serverOptions.encoding = encoding;
  serverOptions.cacheDir = options.cacheDir;
  std::string warnings;
  if (auto it = params.find("initializationOptions"); it != params.end())
    readConfig(*it, serverOptions.config, warnings);
  if (!warnings.empty())
    std::fprintf(stderr, "tlc-lsp: initializationOptions:%s\n",
                 warnings.c_str());
  server = std::make_unique<TlcServer>(serverOptions, *this);
  initialized = true;

  json commands = json::array();
  for (const std::string &c : getServerCommands())
    commands.push_back(c);
  json capabilities{
      {"positionEncoding",
       encoding == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2}, {"save", false}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"documentSymbolProvider", true},
      {"inlayHintProvider", {{"resolveProvider", true}}},
      {"codeLensProvider", {{"resolveProvider", false}}},
      {"executeCommandProvider", {{"commands", commands}}},
      {"experimental",
       {{"tilelang/generatedSource", true},
        {"tilelang/originalSource", true},
        {"tilelang/layout", true}}},
  };
  if (serverOptions.config.semanticTokens) {
    json types = json::array(), modifiers = json::array();
    for (const std::string &t : getSemanticTokenTypes())
      types.push_back(t);
    for (const std::string &m : getSemanticTokenModifiers())
      modifiers.push_back(m);
    capabilities["semanticTokensProvider"] = {
        {"legend", {{"tokenTypes", types}, {"tokenModifiers", modifiers}}},
        {"full", true}};
    semanticRegistered = true;
  }
  reply(id, json{{"capabilities", capabilities},
                 {"serverInfo", {{"name", "tlc-lsp"}, {"version", "0.1"}}}});
}

void LSPServer::Impl::onInitialized(const json &) { pullConfiguration(); }

void LSPServer::Impl::pullConfiguration() {
  if (!clientConfiguration)
    return;
  request("workspace/configuration",
          json{{"items", json::array({json{{"section", "tilelang"}}})}},
          [this](const json *result) {
            if (result && result->is_array() && !result->empty())
              applyConfig((*result)[0]);
          });
}

void LSPServer::Impl::applyConfig(const json &settings) {
  if (!server)
    return;
  Config config = server->getConfig();
  std::string warnings;
  readConfig(settings, config, warnings);
  if (!warnings.empty())
    std::fprintf(stderr, "tlc-lsp: configuration:%s\n", warnings.c_str());
  bool reanalysing = server->setConfig(config);
  if (config.semanticTokens && !semanticRegistered && clientSemanticDynamic) {
    json types = json::array(), modifiers = json::array();
    for (const std::string &t : getSemanticTokenTypes())
      types.push_back(t);
    for (const std::string &m : getSemanticTokenModifiers())
      modifiers.push_back(m);
    request("client/registerCapability",
            json{{"registrations",
                  json::array({json{
                      {"id", "tlc-semantic-tokens"},
                      {"method", "textDocument/semanticTokens"},
                      {"registerOptions",
                       {{"legend",
                         {{"tokenTypes", types},
                          {"tokenModifiers", modifiers}}},
                        {"full", true},
                        {"documentSelector",
                         json::array({json{{"language", "python"}}})}}}}})}},
            [](const json *) {});
    semanticRegistered = true;
  }
  // A new target re-analyses every document, and each analysis asks for a
  // refresh (onHintsChanged); otherwise only the presentation changed.
  if (!reanalysing) {
    if (clientInlayRefresh)
      request("workspace/inlayHint/refresh", nullptr, [](const json *) {});
    if (clientCodeLensRefresh)
      request("workspace/codeLens/refresh", nullptr, [](const json *) {});
  }
}

void LSPServer::Impl::onShutdown(const json &id, const json &) {
  shutdownRequested = true;
  reply(id, nullptr);
}

void LSPServer::Impl::onCancel(const json &params) {
  const json &id = getField(params, "id");
  std::lock_guard<std::mutex> lock(inflightMutex);
  auto it = inflight.find(id.dump());
  if (it != inflight.end())
    it->second.cancel();
}

//===----------------------------------------------------------------------===//
// Documents and configuration
//===----------------------------------------------------------------------===//

void LSPServer::Impl::onDidOpen(const json &params) {
  const json &doc = getField(params, "textDocument");
  server->openDocument(getString(getField(doc, "uri"), "textDocument.uri"),
                       getInteger(getField(doc, "version"), "version"),
                       getString(getField(doc, "text"), "text"));
}

void LSPServer::Impl::onDidChange(const json &params) {
  const json &doc = getField(params, "textDocument");
  std::string uri = getString(getField(doc, "uri"), "textDocument.uri");
  int64_t version = getInteger(getField(doc, "version"), "version");
  const json &changes = getField(params, "contentChanges");
  if (!changes.is_array())
    throw ParamError{"contentChanges: expected an array"};
  std::vector<ContentChange> parsed;
  for (const json &change : changes)
    parsed.push_back(readContentChange(change));
  if (auto failure = server->changeDocument(uri, version, parsed))
    std::fprintf(stderr, "tlc-lsp: didChange: %s\n",
                 failure->message.c_str());
}

void LSPServer::Impl::onDidClose(const json &params) {
  server->closeDocument(getDocumentUri(params));
}

void LSPServer::Impl::onDidChangeConfiguration(const json &params) {
  const json *settings = getOptionalField(params, "settings");
  if (settings && settings->is_object() && settings->contains("tilelang"))
    return applyConfig((*settings)["tilelang"]);
  pullConfiguration();
}

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

void LSPServer::Impl::onHover(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  Position pos = readPosition(getField(params, "position"));
  server->hover(uri, pos, track(id),
                replier<std::optional<HoverInfo>>(
                    id, "hover", [](const std::optional<HoverInfo> &h) {
                      return h ? toJSON(*h) : json();
                    }));
}

void LSPServer::Impl::onLayout(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  std::optional<Position> pos;
  if (const json *p = getOptionalField(params, "position"))
    pos = readPosition(*p);
  std::string buffer;
  if (const json *b = getOptionalField(params, "buffer"))
    buffer = getString(*b, "buffer");
  std::optional<unsigned> instance;
  if (const json *i = getOptionalField(params, "instance")) {
    if (!i->is_number_unsigned())
      throw ProtocolError{InvalidParams,
                          "tilelang/layout: instance must be an index"};
    instance = i->get<unsigned>();
  }
  if (!pos && buffer.empty())
    throw ProtocolError{InvalidParams,
                        "tilelang/layout needs a position or a buffer name"};
  server->layoutPicture(uri, pos, buffer, instance, track(id),
                        replier<LayoutPicture>(id, "layout",
                                               [](const LayoutPicture &p) {
                                                 return toJSON(p);
                                               }));
}

void LSPServer::Impl::onDefinition(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  Position pos = readPosition(getField(params, "position"));
  server->definition(uri, pos, track(id),
                     replier<std::vector<Location>>(
                         id, "definition", [](const std::vector<Location> &l) {
                           json result = json::array();
                           for (const Location &loc : l)
                             result.push_back(toJSON(loc));
                           return result;
                         }));
}

void LSPServer::Impl::onDocumentSymbol(const json &id, const json &params) {
  server->documentSymbols(
      getDocumentUri(params), track(id),
      replier<std::vector<DocumentSymbol>>(
          id, "documentSymbol", [](const std::vector<DocumentSymbol> &s) {
            json result = json::array();
            for (const DocumentSymbol &symbol : s)
              result.push_back(toJSON(symbol));
            return result;
          }));
}

void LSPServer::Impl::onSemanticTokens(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  if (!server->getConfig().semanticTokens)
    throw ProtocolError{RequestFailed,
                        "semantic tokens are disabled (tilelang."
                        "semanticTokens)"};
  server->semanticTokens(
      uri, track(id),
      replier<std::vector<SemanticToken>>(
          id, "semanticTokens",
          [](const std::vector<SemanticToken> &t) {
            return encodeSemanticTokens(t);
          }));
}

void LSPServer::Impl::onInlayHint(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  Range range = readRange(getField(params, "range"));
  server->inlayHints(uri, range, track(id),
                     replier<std::vector<InlayHint>>(
                         id, "inlayHint",
                         [uri](const std::vector<InlayHint> &hints) {
                           json result = json::array();
                           for (const InlayHint &h : hints)
                             result.push_back(toJSON(h, uri));
                           return result;
                         }));
}

void LSPServer::Impl::onInlayHintResolve(const json &id, const json &params) {
  std::string uri;
  InlayHint hint = readInlayHint(params, uri);
  server->resolveInlayHint(
      uri, hint, track(id),
      replier<InlayHint>(id, "inlayHint/resolve",
                         [uri, params](const InlayHint &h) {
                           json result = params;
                           if (!h.tooltip.empty())
                             result["tooltip"] = {{"kind", "markdown"},
                                                  {"value", h.tooltip}};
                           return result;
                         }));
}

void LSPServer::Impl::onCodeLens(const json &id, const json &params) {
  server->codeLenses(getDocumentUri(params), track(id),
                     replier<std::vector<CodeLens>>(
                         id, "codeLens", [](const std::vector<CodeLens> &l) {
                           json result = json::array();
                           for (const CodeLens &lens : l)
                             result.push_back(toJSON(lens));
                           return result;
                         }));
}

void LSPServer::Impl::onExecuteCommand(const json &id, const json &params) {
  Command command = readCommand(params);
  server->executeCommand(
      command, track(id),
      replier<CommandOutcome>(
          id, "executeCommand", [this](const CommandOutcome &outcome) {
            if (outcome.showDocument) {
              if (clientShowDocument)
                request("window/showDocument",
                        json{{"uri", outcome.showDocument->uri},
                             {"takeFocus", true},
                             {"selection",
                              toJSON(outcome.showDocument->range)}},
                        [](const json *) {});
            }
            if (outcome.refreshInlayHints && clientInlayRefresh)
              request("workspace/inlayHint/refresh", nullptr,
                      [](const json *) {});
            if (outcome.refreshCodeLenses && clientCodeLensRefresh)
              request("workspace/codeLens/refresh", nullptr,
                      [](const json *) {});
            if (outcome.showDocument)
              return toJSON(*outcome.showDocument);
            return outcome.message.empty() ? json() : json(outcome.message);
          }));
}

void LSPServer::Impl::onGeneratedSource(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  Position pos = readPosition(getField(params, "position"));
  std::optional<std::string> target;
  if (const json *t = getOptionalField(params, "target"))
    target = getString(*t, "target");
  server->generatedSource(
      uri, pos, target, track(id),
      replier<GeneratedSource>(id, "generatedSource",
                               [](const GeneratedSource &s) {
                                 return toJSON(s);
                               }));
}

void LSPServer::Impl::onOriginalSource(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  Position pos = readPosition(getField(params, "position"));
  server->originalSource(uri, pos, track(id),
                         replier<Location>(id, "originalSource",
                                           [](const Location &l) {
                                             return json{
                                                 {"uri", l.uri},
                                                 {"range", toJSON(l.range)}};
                                           }));
}

void LSPServer::Impl::onViewFileText(const json &id, const json &params) {
  std::string uri = getDocumentUri(params);
  std::optional<std::string> text = server->getDocumentText(uri);
  if (!text)
    throw ProtocolError{InvalidParams, "document not open: " + uri};
  reply(id, *text);
}

//===----------------------------------------------------------------------===//
// Notifications from the server
//===----------------------------------------------------------------------===//

void LSPServer::Impl::onDiagnostics(const std::string &uri,
                                    std::optional<int64_t> version,
                                    std::vector<Diag> diagnostics) {
  json diags = json::array();
  for (const Diag &d : diagnostics)
    diags.push_back(toJSON(d));
  json params{{"uri", uri}, {"diagnostics", std::move(diags)}};
  if (version)
    params["version"] = *version;
  notify("textDocument/publishDiagnostics", std::move(params));
}

void LSPServer::Impl::onHintsChanged(const std::string &) {
  // The refresh requests name no document: the client re-asks for the
  // visible ones.
  if (clientInlayRefresh)
    request("workspace/inlayHint/refresh", nullptr, [](const json *) {});
  if (clientCodeLensRefresh)
    request("workspace/codeLens/refresh", nullptr, [](const json *) {});
}

void LSPServer::Impl::onProgress(const std::string &uri, bool end) {
  if (!clientProgress)
    return;
  std::unique_lock<std::mutex> lock(progressMutex);
  if (!end) {
    ProgressState &state = progress[uri];
    state = ProgressState();
    state.start = Clock::now();
    state.token = "tlc-analysis-" + std::to_string(nextProgressId++);
    if (options.progressThreshold.count() == 0) {
      lock.unlock();
      beginProgress(uri);
      return;
    }
    if (!watcher.joinable())
      watcher = std::thread([this] { watchProgress(); });
    progressCv.notify_all();
    return;
  }
  auto it = progress.find(uri);
  if (it == progress.end())
    return;
  it->second.ended = true;
  if (it->second.begun) {
    std::string token = it->second.token;
    progress.erase(it);
    lock.unlock();
    notify("$/progress", json{{"token", token}, {"value", {{"kind", "end"}}}});
  } else if (!it->second.created) {
    progress.erase(it); // Short work: never reported.
  }
}

void LSPServer::Impl::beginProgress(const std::string &uri) {
  std::string token;
  {
    std::lock_guard<std::mutex> lock(progressMutex);
    auto it = progress.find(uri);
    if (it == progress.end() || it->second.created)
      return;
    it->second.created = true;
    token = it->second.token;
  }
  request("window/workDoneProgress/create", json{{"token", token}},
          [this, uri, token](const json *) {
            bool ended = false;
            {
              std::lock_guard<std::mutex> lock(progressMutex);
              auto it = progress.find(uri);
              if (it == progress.end() || it->second.token != token)
                ended = true;
              else if (it->second.ended) {
                ended = true;
                progress.erase(it);
              } else {
                it->second.begun = true;
              }
            }
            std::string file = uri.substr(uri.find_last_of('/') + 1);
            notify("$/progress",
                   json{{"token", token},
                        {"value",
                         {{"kind", "begin"},
                          {"title", "tlc"},
                          {"message", "analysing " + file},
                          {"cancellable", false}}}});
            if (ended)
              notify("$/progress",
                     json{{"token", token}, {"value", {{"kind", "end"}}}});
          });
}

void LSPServer::Impl::watchProgress() {
  std::unique_lock<std::mutex> lock(progressMutex);
  while (!stopWatcher) {
    Clock::time_point now = Clock::now();
    Clock::time_point next = now + std::chrono::hours(1);
    std::vector<std::string> due;
    for (auto &entry : progress) {
      if (entry.second.created)
        continue;
      Clock::time_point deadline =
          entry.second.start + options.progressThreshold;
      if (deadline <= now)
        due.push_back(entry.first);
      else if (deadline < next)
        next = deadline;
    }
    if (!due.empty()) {
      lock.unlock();
      for (const std::string &uri : due)
        beginProgress(uri);
      lock.lock();
      continue;
    }
    progressCv.wait_until(lock, next);
  }
}

//===----------------------------------------------------------------------===//
// LSPServer
//===----------------------------------------------------------------------===//

LSPServer::LSPServer(const LSPServerOptions &options, MessageWriter &writer)
    : impl(std::make_unique<Impl>(options, writer)) {}

LSPServer::~LSPServer() = default;

bool LSPServer::handleMessage(const std::string &body) {
  return impl->handleMessage(body);
}

void LSPServer::handleMalformed(const std::string &error) {
  impl->handleMalformed(error);
}

void LSPServer::runUntilIdle() { impl->runUntilIdle(); }

int LSPServer::getExitCode() const { return impl->getExitCode(); }
