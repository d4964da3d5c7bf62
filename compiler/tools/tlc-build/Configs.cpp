//===- Configs.cpp - tlc-build --configs ----------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Configs.h"
#include "Jobs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <unistd.h>

using namespace tlc;
using namespace tlc::build;
namespace fs = llvm::sys::fs;

namespace {

/// Points file descriptor \p fd at \p path (created or truncated) until
/// destroyed; an empty path leaves it as it is.
class Redirect {
public:
  Redirect(int fd, const std::string &path) : fd(fd) {
    if (path.empty())
      return;
    int file =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (file < 0)
      return;
    saved = ::dup(fd);
    ::dup2(file, fd);
    ::close(file);
  }
  ~Redirect() {
    if (saved < 0)
      return;
    ::dup2(saved, fd);
    ::close(saved);
  }
  Redirect(const Redirect &) = delete;
  Redirect &operator=(const Redirect &) = delete;

private:
  int fd;
  int saved = -1;
};

/// The entry of line \p text, or an error message.
llvm::Expected<ConfigEntry> parseEntry(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return value.takeError();
  const llvm::json::Object *o = value->getAsObject();
  if (!o)
    return llvm::createStringError("not a JSON object");
  ConfigEntry entry;
  auto field = [&](llvm::StringRef key, std::string &into) -> llvm::Error {
    const llvm::json::Value *v = o->get(key);
    if (!v)
      return llvm::Error::success();
    std::optional<llvm::StringRef> s = v->getAsString();
    if (!s)
      return llvm::createStringError("\"" + key.str() + "\" is not a string");
    into = s->str();
    return llvm::Error::success();
  };
  for (auto [key, into] :
       {std::pair{"out", &entry.outDir},
        std::pair{"diagnostics_file", &entry.diagnosticsFile},
        std::pair{"environ_report", &entry.environReport},
        std::pair{"stdout", &entry.stdoutPath},
        std::pair{"stderr", &entry.stderrPath}})
    if (llvm::Error e = field(key, *into))
      return std::move(e);
  if (entry.outDir.empty())
    return llvm::createStringError("no \"out\" directory");
  if (const llvm::json::Value *d = o->get("defines")) {
    const llvm::json::Array *array = d->getAsArray();
    if (!array)
      return llvm::createStringError("\"defines\" is not a list");
    for (const llvm::json::Value &v : *array) {
      std::optional<llvm::StringRef> s = v.getAsString();
      if (!s || !s->contains('=') || s->split('=').first.trim().empty())
        return llvm::createStringError(
            "a \"defines\" item is not a \"name=value\" string");
      auto [name, text] = s->split('=');
      entry.defines.push_back({name.trim().str(), text.trim().str()});
    }
  }
  return entry;
}

/// A line of a --configs file: its text and its entry.
struct ConfigLine {
  llvm::StringRef text;
  ConfigEntry entry;
};

/// The buffer of \p path and its lines up to the first malformed one into
/// \p lines; 0, or 2 after an error naming the file (and the malformed
/// line, when \p malformed is not set: it is reported by the caller once
/// the lines before it have run).
int readConfigs(llvm::StringRef path,
                std::unique_ptr<llvm::MemoryBuffer> &buffer,
                std::vector<ConfigLine> &lines, std::string &malformed) {
  auto read = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!read) {
    llvm::errs() << "tlc-build: error: --configs: cannot read '" << path
                 << "': " << read.getError().message() << "\n";
    return 2;
  }
  buffer = std::move(*read);
  unsigned lineNumber = 0;
  for (llvm::StringRef line : llvm::split(buffer->getBuffer(), '\n')) {
    ++lineNumber;
    if (line.trim().empty())
      continue;
    llvm::Expected<ConfigEntry> entry = parseEntry(line);
    if (!entry) {
      malformed = "tlc-build: error: --configs: " + path.str() + ":" +
                  std::to_string(lineNumber) + ": " +
                  llvm::toString(entry.takeError()) + "\n";
      break;
    }
    lines.push_back({line, std::move(*entry)});
  }
  return 0;
}

} // namespace

int build::runConfigs(llvm::StringRef path,
                      llvm::function_ref<int(const ConfigEntry &)> build) {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::vector<ConfigLine> lines;
  std::string malformed;
  if (readConfigs(path, buffer, lines, malformed))
    return 2;
  int worst = 0;
  for (auto [index, line] : llvm::enumerate(lines)) {
    int status;
    llvm::outs().flush();
    llvm::errs().flush();
    {
      Redirect out(1, line.entry.stdoutPath), err(2, line.entry.stderrPath);
      status = build(line.entry);
      llvm::outs().flush();
      llvm::errs().flush();
    }
    llvm::outs() << "{\"index\": " << index << ", \"status\": " << status
                 << "}\n";
    llvm::outs().flush();
    worst = std::max(worst, std::min(status, 1));
  }
  if (!malformed.empty()) {
    llvm::errs() << malformed;
    return 2;
  }
  return worst;
}

int build::runConfigsInChildren(llvm::StringRef path, unsigned jobs,
                                llvm::ArrayRef<std::string> childArgs) {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::vector<ConfigLine> lines;
  std::string malformed;
  if (readConfigs(path, buffer, lines, malformed))
    return 2;
  if (lines.empty()) {
    llvm::errs() << malformed;
    return malformed.empty() ? 0 : 2;
  }
  jobs = std::min<unsigned>(jobs, lines.size());
  // Part k holds lines [first[k], first[k + 1]): contiguous, so that the
  // parts' outputs printed in order are the lines' outputs in order.
  std::vector<size_t> first;
  for (unsigned k = 0; k <= jobs; ++k)
    first.push_back(lines.size() * k / jobs);
  std::vector<Job> children(jobs);
  std::vector<std::string> parts;
  int worst = 0;
  for (unsigned k = 0; k < jobs; ++k) {
    llvm::SmallString<128> part;
    int fd;
    if (fs::createTemporaryFile("tlc-build-configs", "jsonl", fd, part)) {
      llvm::errs() << "tlc-build: error: --configs: cannot create a "
                      "temporary file for a part of the list\n";
      for (const std::string &p : parts)
        fs::remove(p);
      return 2;
    }
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      for (size_t i = first[k]; i < first[k + 1]; ++i)
        os << lines[i].text << "\n";
    }
    parts.push_back(part.str().str());
    children[k].args.assign(childArgs.begin(), childArgs.end());
    children[k].args.push_back("--configs=" + parts.back());
  }
  runJobs(children, jobs);
  for (const std::string &p : parts)
    fs::remove(p);
  for (unsigned k = 0; k < jobs; ++k) {
    Job &child = children[k];
    size_t count = first[k + 1] - first[k], finished = 0;
    // The child's status lines with this list's indices; anything else it
    // printed (the builds of lines without a "stdout" file) as it is.
    for (llvm::StringRef line : llvm::split(child.out, '\n')) {
      if (line.empty())
        continue;
      std::optional<std::pair<int64_t, int64_t>> record;
      if (line.starts_with("{\"index\": ")) {
        if (llvm::Expected<llvm::json::Value> v = llvm::json::parse(line)) {
          const llvm::json::Object *o = v->getAsObject();
          std::optional<int64_t> index =
              o ? o->getInteger("index") : std::nullopt;
          std::optional<int64_t> status =
              o ? o->getInteger("status") : std::nullopt;
          if (index && status && *index >= 0 && size_t(*index) < count)
            record = {*index, *status};
        } else {
          llvm::consumeError(v.takeError());
        }
      }
      if (!record) {
        llvm::outs() << line << "\n";
        continue;
      }
      llvm::outs() << "{\"index\": " << first[k] + record->first
                   << ", \"status\": " << record->second << "}\n";
      worst = std::max(worst, std::min(int(record->second), 1));
      ++finished;
    }
    llvm::outs().flush();
    llvm::errs() << child.err;
    llvm::errs().flush();
    // A part that stopped early (a crash) leaves its lines unfinished.
    if (finished < count || child.status < 0)
      worst = std::max(worst, 1);
  }
  if (!malformed.empty()) {
    llvm::errs() << malformed;
    return 2;
  }
  return worst;
}
