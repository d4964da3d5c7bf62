//===- FuzzLSP.cpp - Fuzz target: LSP framing and JSON-RPC ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Input: the bytes a client writes to tlc-lsp's stdin. They go through
// MessageReader (Content-Length framing) into a synchronous LSPServer
// (workerThreads = 0, so every analysis runs inside runUntilIdle), whose
// output is discarded. A fresh server per input keeps runs independent.
//
//===----------------------------------------------------------------------===//

#include "LSPServer.h"
#include "Transport.h"

#include <cstdint>
#include <cstdio>

using namespace tlc::lsp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static std::FILE *sink = std::fopen("/dev/null", "w");
  std::FILE *in = fmemopen(const_cast<uint8_t *>(data), size, "r");
  if (!in)
    return 0; // fmemopen refuses size 0
  LSPServerOptions options;
  options.workerThreads = 0;
  options.debounce = std::chrono::milliseconds(0);
  options.progressThreshold = std::chrono::milliseconds(0);
  options.cacheDir = "/tmp/tlc-fuzz-lsp-cache";
  MessageWriter writer(sink, StreamStyle::Standard);
  MessageReader reader(in, StreamStyle::Standard);
  {
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
      if (!server.handleMessage(body))
        break;
      server.runUntilIdle();
    }
    server.runUntilIdle();
  }
  std::fclose(in);
  return 0;
}
