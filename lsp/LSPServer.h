//===- LSPServer.h - The protocol layer of tlc-lsp --------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LSPServer turns JSON-RPC messages into calls of the TlcServer API and its
// results back into messages (the analogue of clangd's ClangdLSPServer). It
// is the only code that knows JSON and the Language Server Protocol; the
// JSON library is hidden behind this header. It also owns the protocol
// state: initialisation and shutdown, capabilities, position encoding,
// configuration, cancellation of in-flight requests, requests the server
// sends to the client, and work-done progress.
//
// Every exception is caught at this boundary: a malformed message gets an
// error reply and the server keeps running.
//
// Thread-safety: handleMessage and handleMalformed are called from the one
// reader thread; replies may be written from worker threads through the
// thread-safe MessageWriter.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_LSPSERVER_H
#define TLC_LSP_LSPSERVER_H

#include "Transport.h"

#include <chrono>
#include <memory>
#include <string>

namespace tlc {
namespace lsp {

/// Options of the protocol layer.
struct LSPServerOptions {
  /// Worker threads of the TlcServer; 0 = synchronous (lit tests).
  unsigned workerThreads = 2;
  /// Debounce before diagnostics analysis.
  std::chrono::milliseconds debounce{50};
  /// Pretty-print outgoing JSON (lit tests).
  bool prettyPrint = false;
  /// Analysis running longer than this gets work-done progress; 0 reports
  /// every analysis (lit tests).
  std::chrono::milliseconds progressThreshold{500};
  /// Log each message and its latency to stderr.
  bool verbose = false;
  /// Directory for generated sources; empty: getDefaultCacheDir().
  std::string cacheDir;
};

/// The protocol layer: one instance per connection.
class LSPServer {
public:
  /// Creates the server writing to `writer` (not owned).
  LSPServer(const LSPServerOptions &options, MessageWriter &writer);
  ~LSPServer();

  /// Handles one message body. Returns false once `exit` was received.
  bool handleMessage(const std::string &body);
  /// Reports a framing error (answered with a ParseError reply).
  void handleMalformed(const std::string &error);
  /// True when `body` is a `$/cancelRequest` notification (lit tests run
  /// it before the queued work of the previous request).
  static bool isCancelNotification(const std::string &body);
  /// Synchronous mode: runs queued work until none is left.
  void runUntilIdle();
  /// The process exit code: 0 after shutdown + exit, 1 otherwise.
  int getExitCode() const;

private:
  class Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_LSPSERVER_H
