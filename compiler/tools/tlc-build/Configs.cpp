//===- Configs.cpp - tlc-build --configs ----------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Configs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <unistd.h>

using namespace tlc;
using namespace tlc::build;

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

} // namespace

int build::runConfigs(llvm::StringRef path,
                      llvm::function_ref<int(const ConfigEntry &)> build) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer) {
    llvm::errs() << "tlc-build: error: --configs: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return 2;
  }
  int worst = 0;
  unsigned index = 0, lineNumber = 0;
  for (llvm::StringRef line : llvm::split((*buffer)->getBuffer(), '\n')) {
    ++lineNumber;
    if (line.trim().empty())
      continue;
    llvm::Expected<ConfigEntry> entry = parseEntry(line);
    if (!entry) {
      llvm::errs() << "tlc-build: error: --configs: " << path << ":"
                   << lineNumber << ": " << llvm::toString(entry.takeError())
                   << "\n";
      return 2;
    }
    int status;
    llvm::outs().flush();
    llvm::errs().flush();
    {
      Redirect out(1, entry->stdoutPath), err(2, entry->stderrPath);
      status = build(*entry);
      llvm::outs().flush();
      llvm::errs().flush();
    }
    llvm::outs() << "{\"index\": " << index++ << ", \"status\": " << status
                 << "}\n";
    llvm::outs().flush();
    worst = std::max(worst, std::min(status, 1));
  }
  return worst;
}
