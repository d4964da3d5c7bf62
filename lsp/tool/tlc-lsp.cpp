//===- tlc-lsp.cpp - The TileLang language server -------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Speaks LSP 3.17 over stdin/stdout. With --lit-test, reads messages
// separated by `// -----` lines, pretty-prints what it sends, runs all work
// synchronously between messages (a `$/cancelRequest` is handled before the
// work of the request it follows), and exits at the end of input once all
// work is done, so transcripts are deterministic:
//
//   tlc-lsp --lit-test < session.test | FileCheck session.test
//
//===----------------------------------------------------------------------===//

#include "LSPServer.h"
#include "Transport.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tlc::lsp;

static void printHelp() {
  std::fputs(
      "usage: tlc-lsp [options]\n"
      "  --stdio              talk LSP over stdin/stdout (default)\n"
      "  --lit-test           delimited input, pretty output, synchronous\n"
      "  --threads=N          worker threads (default 2; 0 = synchronous)\n"
      "  --debounce-ms=N      delay before diagnostics (default 50)\n"
      "  --progress-ms=N      report analyses longer than N ms (default 500)\n"
      "  --cache-dir=DIR      where generated sources are written (default\n"
      "                       $TLC_LSP_CACHE_DIR, $XDG_CACHE_HOME/tlc/lsp,\n"
      "                       ~/.cache/tlc/lsp or /tmp/tlc-lsp-UID)\n"
      "  --log=verbose        log messages and latencies to stderr\n"
      "  --version            print the version\n",
      stdout);
}

/// Parses the number after `prefix` in `arg`; false if `arg` is not that
/// option.
static bool numberOption(const char *arg, const char *prefix, long &out) {
  size_t n = std::strlen(prefix);
  if (std::strncmp(arg, prefix, n) != 0)
    return false;
  char *end = nullptr;
  out = std::strtol(arg + n, &end, 10);
  if (!*(arg + n) || *end || out < 0) {
    std::fprintf(stderr, "tlc-lsp: bad value in '%s'\n", arg);
    std::exit(2);
  }
  return true;
}

int main(int argc, char **argv) {
  LSPServerOptions options;
  bool litTest = false;
  long value = 0;
  bool threadsGiven = false;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (!std::strcmp(arg, "--lit-test") || !std::strcmp(arg, "-lit-test")) {
      litTest = true;
    } else if (!std::strcmp(arg, "--stdio")) {
    } else if (numberOption(arg, "--threads=", value)) {
      options.workerThreads = static_cast<unsigned>(value);
      threadsGiven = true;
    } else if (numberOption(arg, "--debounce-ms=", value)) {
      options.debounce = std::chrono::milliseconds(value);
    } else if (numberOption(arg, "--progress-ms=", value)) {
      options.progressThreshold = std::chrono::milliseconds(value);
    } else if (!std::strcmp(arg, "--static-analysis")) {
      // Removed: every answer comes from the compiler library. Accepted so
      // that old editor settings still start the server.
      std::fputs("tlc-lsp: --static-analysis was removed and is ignored\n",
                 stderr);
    } else if (!std::strncmp(arg, "--cache-dir=", 12) && arg[12]) {
      options.cacheDir = arg + 12;
    } else if (!std::strcmp(arg, "--log=verbose")) {
      options.verbose = true;
    } else if (!std::strcmp(arg, "--help") || !std::strcmp(arg, "-h")) {
      printHelp();
      return 0;
    } else if (!std::strcmp(arg, "--version")) {
      std::puts("tlc-lsp 0.1");
      return 0;
    } else {
      std::fprintf(stderr, "tlc-lsp: unknown option '%s' (see --help)\n", arg);
      return 2;
    }
  }
  if (litTest) {
    if (!threadsGiven)
      options.workerThreads = 0;
    options.debounce = std::chrono::milliseconds(0);
    options.progressThreshold = std::chrono::milliseconds(0);
    options.prettyPrint = true;
  }

  // A client that closes its end makes writes fail with EPIPE instead of
  // killing the server with SIGPIPE; the loop below then ends.
  std::signal(SIGPIPE, SIG_IGN);

  StreamStyle style = litTest ? StreamStyle::Delimited : StreamStyle::Standard;
  MessageReader reader(stdin, style);
  MessageWriter writer(stdout, style);
  LSPServer server(options, writer);
  std::string body, error;
  for (;;) {
    MessageReader::Status status = reader.read(body, error);
    if (status == MessageReader::Status::Eof)
      break;
    if (status == MessageReader::Status::Malformed) {
      server.handleMalformed(error);
      continue;
    }
    if (litTest && !LSPServer::isCancelNotification(body))
      server.runUntilIdle();
    if (!server.handleMessage(body))
      return server.getExitCode();
    if (writer.isBroken())
      break; // Nobody reads the answers any more.
  }
  server.runUntilIdle();
  // End of input without `exit`: an editor that died, or a lit test.
  return litTest ? 0 : 1;
}
