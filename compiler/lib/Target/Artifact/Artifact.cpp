//===- Artifact.cpp - Writing kernel artifact directories -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/Artifact.h"
#include "tlc/Support/Poll.h"
#include "tlc/Support/Subprocess.h"
#include "tlc/Target/Artifact/BinaryCheck.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

using namespace tlc::artifact;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::string>
tlc::artifact::findHostCompiler(const HostCompileOptions &options) {
  std::string name = options.compiler;
  if (name.empty())
    if (const char *env = std::getenv("TLC_HOST_CXX"))
      name = env;
  if (name.empty())
    name = "c++";
  if (path::has_parent_path(name))
    return name;
  auto found = llvm::sys::findProgramByName(name);
  if (!found)
    return makeError("host C++ compiler '" + name +
                     "' not found on PATH (set TLC_HOST_CXX)");
  return *found;
}

/// True when \p file exists with exactly \p contents.
static bool hasContents(llvm::StringRef file, llvm::StringRef contents) {
  uint64_t size = 0;
  if (fs::file_size(file, size) || size != contents.size())
    return false;
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return buffer && (*buffer)->getBuffer() == contents;
}

static void writeFileOrError(llvm::StringRef file, llvm::StringRef contents,
                             llvm::Error &err) {
  if (err)
    return;
  // Rebuilding into the same directory rewrites mostly identical files
  // (the device headers, an unchanged source); replacing a file by rename
  // makes ext4 flush it, which costs more than comparing.
  if (hasContents(file, contents))
    return;
  err = llvm::writeToOutput(file, [&](llvm::raw_ostream &os) {
    os << contents;
    return llvm::Error::success();
  });
}

/// The seconds a host or device compiler may run on one kernel instance:
/// $TLC_HOST_COMPILE_TIMEOUT, else 600; 0 is no limit.
static unsigned getCompileTimeout() {
  unsigned seconds = 600;
  if (const char *env = std::getenv("TLC_HOST_COMPILE_TIMEOUT"))
    if (llvm::StringRef(env).trim().getAsInteger(10, seconds))
      seconds = 600;
  return seconds;
}

llvm::Error tlc::artifact::compileSharedObject(
    llvm::StringRef sourcePath, llvm::StringRef outputPath,
    const HostCompileOptions &options) {
  if (options.inProcess)
    return options.inProcess(sourcePath, outputPath, options.extraFlags);
  auto compiler = findHostCompiler(options);
  if (!compiler)
    return compiler.takeError();
  llvm::SmallString<256> includeDir = path::parent_path(sourcePath);
  if (includeDir.empty())
    includeDir = ".";
  std::vector<std::string> argStorage = {*compiler};
  for (const std::string &f : options.flags)
    argStorage.push_back(f);
  for (const std::string &f : options.extraFlags)
    argStorage.push_back(f);
  for (const std::string &f : options.unkeyedFlags)
    argStorage.push_back(f);
  argStorage.push_back(("-I" + includeDir).str());
  argStorage.push_back(sourcePath.str());
  argStorage.push_back("-o");
  argStorage.push_back(outputPath.str());

  llvm::SmallString<128> logPath;
  if (std::error_code ec =
          fs::createTemporaryFile("tlc-host-cxx", "log", logPath))
    return makeError("cannot create a temporary file: " + ec.message());
  // Not llvm::sys::ExecuteAndWait: its limit is one alarm for the whole
  // process, which the parallel compilations of a build would share.
  unsigned timeout = getCompileTimeout();
  SubprocessResult run = runSubprocess(argStorage, logPath, timeout);
  // A compiler that runs past the limit is killed with what it started: a
  // build stops with an error instead of seeming to hang.
  std::string execError = run.why;
  if (run.kind == SubprocessResult::TimedOut)
    execError += "; TLC_HOST_COMPILE_TIMEOUT=SECONDS sets the limit, 0 none";
  int rc = run.kind == SubprocessResult::Exited ? run.status : -1;
  std::string log;
  if (auto buf = llvm::MemoryBuffer::getFile(logPath))
    log = (*buf)->getBuffer().str();
  fs::remove(logPath);
  if (rc != 0) {
    std::string cmd;
    for (const std::string &a : argStorage)
      cmd += (cmd.empty() ? "" : " ") + a;
    return makeError(options.label + " compilation failed (" +
                     (execError.empty() ? "exit status " + std::to_string(rc)
                                        : execError) +
                     "): " + cmd + "\n" + log);
  }
  return llvm::Error::success();
}

llvm::StringRef tlc::artifact::getToolVersion() {
  static const std::string version = [] {
    std::string v = "tlc 0.1.0";
    std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    auto bytes = llvm::MemoryBuffer::getFile(exe, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
    if (!bytes)
      return v + " (unidentified build)";
    return v + " (build " + llvm::utohexstr(llvm::xxh3_64bits(
                                (*bytes)->getBuffer())) + ")";
  }();
  return version;
}

/// \p source without its comments (`//` to the end of the line and
/// `/* */`), string and character literals kept whole: what the compiled
/// binary depends on. The generated comments carry source locations that
/// move with every edit; the literals carry the ones the binary reports
/// (`file.py:12:5` in the CPU target's checked accesses, the CUDA target's
/// assertion messages), so they are part of the key and the comments are
/// not.
static std::string withoutComments(llvm::StringRef source) {
  std::string out;
  out.reserve(source.size());
  size_t i = 0, n = source.size();
  while (i < n) {
    char c = source[i];
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < n && source[j] != c && source[j] != '\n')
        j += source[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      out += source.slice(i, j);
      i = j;
    } else if (source.substr(i).starts_with("//")) {
      while (i < n && source[i] != '\n')
        ++i;
    } else if (source.substr(i).starts_with("/*")) {
      size_t end = source.find("*/", i + 2);
      i = end == llvm::StringRef::npos ? n : end + 2;
      out += ' ';
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::string tlc::artifact::getCacheKey(const ArtifactBundle &bundle,
                                       const HostCompileOptions &options) {
  std::string text = "tlc-kernel-v3\n" + getToolVersion().str() + "\n" +
                     bundle.manifest.target + "\n" + bundle.binaryExtension +
                     "\n";
  if (options.inProcess) {
    text += options.compiler;
  } else {
    auto compiler = findHostCompiler(options);
    text += compiler ? *compiler : std::string("?");
    if (!compiler)
      llvm::consumeError(compiler.takeError());
  }
  text += '\n';
  for (const std::string &f : options.flags)
    text += f + '\n';
  if (!options.extraFlags.empty())
    text += "--extra flags--\n";
  for (const std::string &f : options.extraFlags)
    text += f + '\n';
  // `#line` directives put locations into the binary's debug information:
  // then the whole source. Otherwise the source without its comments (the
  // instance's IR alone left the location strings of the last build that
  // compiled it in a binary reused after lines had moved).
  bool lineDirectives = llvm::StringRef(bundle.source).contains("\n#line ");
  if (!options.instance.empty())
    text += "--instance--\n" + options.instance;
  text += "--source--\n" +
          (lineDirectives ? bundle.source : withoutComments(bundle.source));
  for (const auto &[name, contents] : bundle.extraFiles)
    text += "--file " + name + "--\n" + contents;
  return sha256Hex(text);
}

std::string tlc::artifact::getCacheRoot(const HostCompileOptions &options) {
  if (!options.useCache || std::getenv("TLC_NO_CACHE"))
    return {};
  // TileLang's switch turns tlc's cache off too.
  if (const char *tl = std::getenv("TILELANG_DISABLE_CACHE"))
    if (llvm::StringRef(tl).trim() != "0" && !llvm::StringRef(tl).empty())
      return {};
  llvm::SmallString<256> dir;
  if (!options.cacheDir.empty()) {
    dir = options.cacheDir;
  } else if (const char *env = std::getenv("TLC_CACHE_DIR")) {
    dir = env;
  } else if (const char *xdg = std::getenv("XDG_CACHE_HOME")) {
    dir = xdg;
    path::append(dir, "tlc");
  } else if (const char *home = std::getenv("HOME")) {
    dir = home;
    path::append(dir, ".cache", "tlc");
  }
  return dir.str().str();
}

/// The cache's kernel directory (created), or empty when caching is off or
/// impossible.
static std::string getCacheDir(const HostCompileOptions &options) {
  llvm::SmallString<256> dir(getCacheRoot(options));
  if (dir.empty())
    return {};
  path::append(dir, "kernels");
  if (fs::create_directories(dir))
    return {};
  return dir.str().str();
}

/// A cache entry is one line `tlc-cache-entry SIZE SHA256` and the binary
/// after it: an entry cut short, emptied or altered in place fails the
/// digest, is removed and is built again, never copied out (a shared object
/// cut short makes dlopen fault on its missing pages).
static constexpr llvm::StringLiteral kEntryMagic = "tlc-cache-entry ";

static std::string makeCacheEntry(llvm::StringRef binary) {
  return (kEntryMagic + llvm::Twine(binary.size()) + " " + sha256Hex(binary) +
          "\n" + binary)
      .str();
}

/// The binary of the cache entry \p entry, or why it cannot be used.
static llvm::Expected<llvm::StringRef> readCacheEntry(llvm::StringRef entry) {
  if (entry.empty())
    return makeError("an empty file");
  auto [header, binary] = entry.split('\n');
  uint64_t size = 0;
  llvm::StringRef digest;
  if (!header.consume_front(kEntryMagic) ||
      header.split(' ').first.getAsInteger(10, size) ||
      (digest = header.split(' ').second).size() != 64)
    return makeError("not a tlc cache entry (no digest line)");
  if (binary.size() != size)
    return makeError("cut short: " + llvm::Twine(binary.size()) + " of " +
                     llvm::Twine(size) + " bytes");
  if (sha256Hex(binary) != digest)
    return makeError("altered: its digest does not match");
  if (llvm::Error e = checkBinaryImage(binary))
    return std::move(e);
  return binary;
}

/// Publishes \p binary as the cache entry \p cached, atomically: written to
/// a unique name, then renamed.
static void publishCacheEntry(llvm::StringRef cached, llvm::StringRef binary) {
  // A binary readCacheEntry would refuse is not kept (a format this check
  // does not know would otherwise be rebuilt with a warning every time).
  if (llvm::Error e = checkBinaryImage(binary)) {
    llvm::consumeError(std::move(e));
    return;
  }
  std::string staging =
      (cached + "." + llvm::Twine(llvm::sys::Process::getProcessId()) + ".tmp")
          .str();
  llvm::Error err = llvm::writeToOutput(staging, [&](llvm::raw_ostream &os) {
    os << makeCacheEntry(binary);
    return llvm::Error::success();
  });
  if (err) {
    llvm::consumeError(std::move(err));
    fs::remove(staging);
    return;
  }
  if (fs::rename(staging, cached))
    fs::remove(staging);
}

namespace {
/// An exclusive flock(2) on `ENTRY.lock` beside a cache entry, held while
/// its binary is compiled and published. flock excludes other processes
/// and other threads of this one (each lock has its own descriptor); the
/// kernel drops it when its holder dies, so no lock outlives a build.
class CacheEntryLock {
public:
  /// Waits up to \p seconds (0: no limit) for the lock. A build that cannot
  /// take it in that time, or cannot create the lock file, goes on without.
  CacheEntryLock(llvm::StringRef entry, unsigned seconds) {
    std::string file = (entry + ".lock").str();
    fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      return;
    tlc::PollStep got = tlc::pollWithNaps(
        [&] {
          if (::flock(fd, LOCK_EX | LOCK_NB) == 0)
            return tlc::PollStep::Done;
          return errno == EWOULDBLOCK || errno == EINTR ? tlc::PollStep::Again
                                                        : tlc::PollStep::Failed;
        },
        seconds, std::chrono::milliseconds(100));
    if (got != tlc::PollStep::Done) {
      ::close(fd);
      fd = -1;
    }
  }
  ~CacheEntryLock() {
    if (fd >= 0)
      ::close(fd); // drops the lock
  }
  CacheEntryLock(const CacheEntryLock &) = delete;
  CacheEntryLock &operator=(const CacheEntryLock &) = delete;

private:
  int fd = -1;
};
} // namespace

llvm::Error tlc::artifact::writeArtifact(ArtifactBundle &bundle,
                                         llvm::StringRef outDir,
                                         const HostCompileOptions &options,
                                         bool *cacheHit) {
  if (cacheHit)
    *cacheHit = false;
  if (std::error_code ec = fs::create_directories(outDir))
    return makeError("cannot create output directory '" + outDir +
                     "': " + ec.message());
  Manifest &m = bundle.manifest;
  m.generatedSource = m.name + bundle.sourceExtension;
  m.binary = options.noBinary ? "" : m.name + bundle.binaryExtension;
  m.sourceHash = sha256Hex(bundle.source);

  auto inDir = [&](llvm::StringRef file) {
    llvm::SmallString<256> p(outDir);
    path::append(p, file);
    return p.str().str();
  };
  llvm::Error err = llvm::Error::success();
  for (const auto &[name, contents] : bundle.extraFiles) {
    std::string file = inDir(name);
    if (std::error_code ec =
            fs::create_directories(path::parent_path(file)))
      return makeError("cannot create directory for '" + file +
                       "': " + ec.message());
    writeFileOrError(file, contents, err);
  }
  std::string sourcePath = inDir(m.generatedSource);
  writeFileOrError(sourcePath, bundle.source, err);
  if (err)
    return err;
  if (options.noBinary)
    return writeManifest(m, inDir(m.name + ".json"));

  std::string binaryPath = inDir(m.binary);
  std::string cacheDir = getCacheDir(options);
  std::string cached;
  if (!cacheDir.empty()) {
    llvm::SmallString<256> p(cacheDir);
    path::append(p, getCacheKey(bundle, options) + bundle.binaryExtension);
    cached = p.str().str();
  }
  // Copies the cache entry's binary to binaryPath; false when there is none
  // (or it is damaged: then it is removed and built again).
  auto takeFromCache = [&]() -> bool {
    if (cached.empty() || !fs::exists(cached))
      return false;
    auto entry = llvm::MemoryBuffer::getFile(cached, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
    llvm::Expected<llvm::StringRef> binary =
        entry ? readCacheEntry((*entry)->getBuffer())
              : llvm::Expected<llvm::StringRef>(
                    makeError(entry.getError().message()));
    if (!binary) {
      // Damaged: say so, drop it and build the binary again below.
      llvm::errs() << "tlc-build: warning: cached binary '" << cached
                   << "' is damaged (" << llvm::toString(binary.takeError())
                   << "); building it again\n";
      fs::remove(cached);
      return false;
    }
    if (hasContents(binaryPath, *binary))
      return true; // already there (a rebuild into the same directory)
    // Written under a temporary name and renamed, as a compiled one.
    std::string tmp = binaryPath + ".tmp";
    llvm::Error err = llvm::writeToOutput(tmp, [&](llvm::raw_ostream &os) {
      os << *binary;
      return llvm::Error::success();
    });
    bool copied = !err && !fs::rename(tmp, binaryPath);
    llvm::consumeError(std::move(err));
    if (!copied)
      fs::remove(tmp);
    return copied;
  };
  bool hit = takeFromCache();
  std::optional<CacheEntryLock> lock;
  if (!hit && !cached.empty()) {
    // One build compiles an entry at a time: a concurrent build of the
    // same instance (another tlc-build, a Python thread) waits here, then
    // finds the entry published.
    unsigned timeout = getCompileTimeout();
    lock.emplace(cached, timeout ? timeout + 60 : 0);
    hit = takeFromCache();
  }
  if (!hit) {
    // Compile to a temporary name, then rename, so that a failed or
    // interrupted build never leaves a stale binary behind.
    std::string tmp = binaryPath + ".tmp";
    if (llvm::Error e = compileSharedObject(sourcePath, tmp, options)) {
      fs::remove(tmp);
      return e;
    }
    if (std::error_code ec = fs::rename(tmp, binaryPath))
      return makeError("cannot write '" + binaryPath + "': " + ec.message());
    if (!cached.empty())
      if (auto built = llvm::MemoryBuffer::getFile(
              binaryPath, /*IsText=*/false, /*RequiresNullTerminator=*/false))
        publishCacheEntry(cached, (*built)->getBuffer());
  }
  if (cacheHit)
    *cacheHit = hit;
  return writeManifest(m, inDir(m.name + ".json"));
}
