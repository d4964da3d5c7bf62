//===- Transport.h - LSP message framing over byte streams ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Cuts a byte stream into JSON-RPC message bodies and writes bodies back.
// Two styles: the standard `Content-Length:` framing of the Language Server
// Protocol, and the delimited style of `--lit-test`, where messages are
// separated by `// -----` lines and other `//` lines are comments (the
// `// RUN:` and `// CHECK:` lines of a lit test).
//
// This file is part of the protocol layer: it knows the framing but not
// JSON. Malformed framing is reported to the caller, which answers with a
// protocol error and keeps reading.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_TRANSPORT_H
#define TLC_LSP_TRANSPORT_H

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>

namespace tlc {
namespace lsp {

/// How messages are framed.
enum class StreamStyle {
  /// `Content-Length: N\r\n\r\n` followed by N bytes.
  Standard,
  /// Messages separated by `// -----` lines (lit tests).
  Delimited,
};

/// Largest accepted message body (bytes); larger ones are skipped.
constexpr size_t kMaxMessageSize = 256u << 20;

/// Reads message bodies from a stream. Not thread-safe: one reader thread.
class MessageReader {
public:
  /// Outcome of read().
  enum class Status {
    /// A body was read.
    Message,
    /// The framing was broken; `error` says how. Reading may continue.
    Malformed,
    /// End of input.
    Eof,
  };

  /// Reads from `in` (not owned) in the given style.
  MessageReader(std::FILE *in, StreamStyle style) : in(in), style(style) {}

  /// Reads the next message body into `body`. On Malformed, `error`
  /// describes the problem and the reader has resynchronised at the next
  /// header.
  Status read(std::string &body, std::string &error);

private:
  Status readStandard(std::string &body, std::string &error);
  Status readDelimited(std::string &body);
  bool readLine(std::string &line, size_t limit = ~size_t(0));

  std::FILE *in;
  StreamStyle style;
};

/// Writes message bodies to a stream. Thread-safe: writes are serialised.
class MessageWriter {
public:
  /// Writes to `out` (not owned) in the given style; the delimited style
  /// writes each body followed by a newline, without headers.
  MessageWriter(std::FILE *out, StreamStyle style) : out(out), style(style) {}

  /// Writes one body and flushes. Once a write fails (the client closed
  /// its end: EPIPE), every later body is dropped and isBroken() is true.
  void write(const std::string &body);

  /// True when the output can no longer be written.
  bool isBroken() const { return broken.load(); }

private:
  std::mutex mutex;
  std::FILE *out;
  StreamStyle style;
  std::atomic<bool> broken{false};
};

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_TRANSPORT_H
