//===- Transport.cpp - LSP message framing over byte streams --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Transport.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace tlc::lsp;

/// Longest header line kept; the rest of a longer line is read and
/// dropped, so a client cannot make the server buffer a gigabyte header.
static constexpr size_t kMaxHeaderLine = 64u << 10;

/// Reads one line including its terminator (at most `limit` bytes of it
/// are kept, the last replaced by a NUL so that a cut header is never
/// valid); false at end of input with nothing read. Retries on EINTR.
bool MessageReader::readLine(std::string &line, size_t limit) {
  line.clear();
  for (;;) {
    int c = std::getc(in);
    if (c == EOF) {
      if (std::ferror(in) && errno == EINTR) {
        std::clearerr(in);
        continue;
      }
      return !line.empty();
    }
    if (c == '\n') {
      line.push_back('\n');
      return true;
    }
    if (line.size() < limit)
      line.push_back(static_cast<char>(c));
    else if (!line.empty())
      line.back() = '\0';
  }
}

/// Removes leading and trailing whitespace.
static std::string trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    --e;
  return s.substr(b, e - b);
}

MessageReader::Status MessageReader::read(std::string &body,
                                          std::string &error) {
  body.clear();
  error.clear();
  if (style == StreamStyle::Delimited)
    return readDelimited(body);
  return readStandard(body, error);
}

MessageReader::Status MessageReader::readStandard(std::string &body,
                                                  std::string &error) {
  std::string line;
  long long length = -1;
  bool sawHeader = false;
  bool badHeader = false;
  // Headers up to an empty line.
  for (;;) {
    if (!readLine(line, kMaxHeaderLine))
      return Status::Eof;
    std::string t = trim(line);
    if (t.empty()) {
      if (!sawHeader)
        continue; // Stray blank lines between messages.
      break;
    }
    sawHeader = true;
    size_t colon = t.find(':');
    if (colon == std::string::npos || t.find('\0') != std::string::npos) {
      badHeader = true;
      continue;
    }
    std::string name = trim(t.substr(0, colon));
    std::string value = trim(t.substr(colon + 1));
    for (char &c : name)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "content-length")
      continue; // Content-Type and unknown headers are ignored.
    char *end = nullptr;
    errno = 0;
    long long n = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno == ERANGE || n < 0) {
      badHeader = true;
      continue;
    }
    length = n;
  }
  if (length < 0) {
    error = badHeader ? "malformed message header"
                      : "missing Content-Length header";
    return Status::Malformed;
  }
  if (static_cast<unsigned long long>(length) > kMaxMessageSize) {
    // Skip the body so that the next message can be read.
    for (long long i = 0; i < length; ++i)
      if (std::getc(in) == EOF)
        return Status::Eof;
    error = "message of " + std::to_string(length) + " bytes is too large";
    return Status::Malformed;
  }
  body.resize(static_cast<size_t>(length));
  size_t got = 0;
  while (got < body.size()) {
    size_t n = std::fread(&body[got], 1, body.size() - got, in);
    if (n == 0) {
      if (std::ferror(in) && errno == EINTR) {
        std::clearerr(in);
        continue;
      }
      return Status::Eof;
    }
    got += n;
  }
  return Status::Message;
}

MessageReader::Status MessageReader::readDelimited(std::string &body) {
  std::string line;
  for (;;) {
    if (!readLine(line)) {
      // End of input: the last message needs no delimiter.
      if (trim(body).empty())
        return Status::Eof;
      return Status::Message;
    }
    std::string t = trim(line);
    if (t.rfind("//", 0) == 0) {
      if (t == "// -----") {
        if (trim(body).empty()) {
          body.clear();
          continue;
        }
        return Status::Message;
      }
      continue; // RUN/CHECK lines and other comments.
    }
    if (!t.empty() && t[0] == '#')
      continue;
    body += line;
  }
}

void MessageWriter::write(const std::string &body) {
  std::lock_guard<std::mutex> lock(mutex);
  if (broken)
    return;
  bool ok = true;
  if (style == StreamStyle::Standard)
    ok &= std::fprintf(out, "Content-Length: %zu\r\n\r\n", body.size()) > 0;
  ok &= std::fwrite(body.data(), 1, body.size(), out) == body.size();
  if (style == StreamStyle::Delimited)
    ok &= std::fputc('\n', out) != EOF;
  ok &= std::fflush(out) == 0;
  if (!ok) {
    broken = true;
    std::fputs("tlc-lsp: cannot write to the client; dropping replies\n",
               stderr);
  }
}
