//===- TransportTest.cpp - Content-Length framing -------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MessageReader and MessageWriter over in-memory streams and pipes: every
// malformed frame is one Malformed result and reading goes on; a writer
// whose reader is gone reports it instead of dying.
//
//===----------------------------------------------------------------------===//

#include "Transport.h"

#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tlc::lsp;

namespace {

/// Reads every frame of `input`: "M:body" per message, "E:error" per
/// malformed frame.
std::vector<std::string> readAll(const std::string &input) {
  std::FILE *in = fmemopen(const_cast<char *>(input.data()), input.size(), "r");
  REQUIRE(in);
  MessageReader reader(in, StreamStyle::Standard);
  std::vector<std::string> out;
  std::string body, error;
  for (;;) {
    MessageReader::Status s = reader.read(body, error);
    if (s == MessageReader::Status::Eof)
      break;
    out.push_back(s == MessageReader::Status::Message ? "M:" + body
                                                      : "E:" + error);
  }
  std::fclose(in);
  return out;
}

} // namespace

TEST_CASE("Transport: malformed frames are skipped one by one") {
  std::string ok = "Content-Length: 2\r\n\r\n{}";
  std::vector<std::string> want = {"E:malformed message header", "M:{}"};
  for (const std::string &bad : std::vector<std::string>{
           "Content-Length: -1\r\n\r\n", "Content-Length: 1x\r\n\r\n",
           "Content-Length: 99999999999999999999\r\n\r\n",
           "no colon here\r\n\r\n",
           "Content-Length:" + std::string(100000, ' ') + "2\r\n\r\n",
           std::string(1 << 20, 'h') + "\r\n\r\n"}) {
    CAPTURE(bad.substr(0, 40));
    CHECK(readAll(bad + ok) == want);
  }
  CHECK(readAll("Content-Type: x\r\n\r\n" + ok) ==
        std::vector<std::string>{"E:missing Content-Length header", "M:{}"});
  // Too large: the body is skipped, the next frame read.
  CHECK(readAll("Content-Length: 300000000\r\n\r\n") ==
        std::vector<std::string>{});
  // A body cut short by the end of input is the end, not a message.
  CHECK(readAll("Content-Length: 10\r\n\r\n{}") == std::vector<std::string>{});
  CHECK(readAll("Content-Len") == std::vector<std::string>{});
}

TEST_CASE("Transport: a writer whose reader is gone drops replies") {
  std::signal(SIGPIPE, SIG_IGN); // As tlc-lsp's main does.
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  close(fds[0]);
  std::FILE *out = fdopen(fds[1], "w");
  REQUIRE(out);
  MessageWriter writer(out, StreamStyle::Standard);
  CHECK(!writer.isBroken());
  writer.write(std::string(1 << 16, 'x'));
  CHECK(writer.isBroken());
  writer.write("{}"); // Dropped, no crash.
  CHECK(writer.isBroken());
  std::fclose(out);
}
