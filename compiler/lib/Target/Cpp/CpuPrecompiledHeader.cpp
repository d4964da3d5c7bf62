//===- CpuPrecompiledHeader.cpp - tlc_cpu.h precompiled once per cache ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every CPU kernel includes the device header (about 4,000 lines of
// templates); parsing it is about 2 s of each host compile, most of the
// compile of a small kernel. The header is compiled once per host
// compiler, flag set and header text into the build cache
// (`<cache>/pch/<key>/tlc_cpu.h` and its `.gch`), and kernels are compiled
// with `-include` of that copy: the compiler loads the precompiled form
// (an unusable one is ignored and the text read instead), and the
// kernel's own `#include "tlc_cpu.h"` is then empty (its include guard is
// defined). The binary is the same either way, so the flag is not part of
// the cache key (HostCompileOptions::unkeyedFlags).
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Cpp/CpuTarget.h"

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/Target/Cpp/CppEmitter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <system_error>

using namespace tlc;
using namespace tlc::target;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// How many shared objects the cache must hold before the header is
/// precompiled into it.
static constexpr unsigned kMinCachedKernels = 4;

/// The host compiler as compileSharedObject runs it, or empty.
static std::string hostCompilerOrEmpty(const artifact::HostCompileOptions &o) {
  llvm::Expected<std::string> found = artifact::findHostCompiler(o);
  if (!found) {
    llvm::consumeError(found.takeError());
    return {};
  }
  return *found;
}

/// Runs \p args (args[0] the program) with its output discarded; true when
/// it exits 0.
static bool runQuietly(llvm::ArrayRef<std::string> argStorage) {
  std::vector<llvm::StringRef> args(argStorage.begin(), argStorage.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(""), llvm::StringRef("")};
  return llvm::sys::ExecuteAndWait(argStorage.front(), args, std::nullopt,
                                   redirects) == 0;
}

static bool writeFile(llvm::StringRef file, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec)
    return false;
  os << contents;
  os.close();
  return !os.has_error();
}

std::optional<std::string> tlc::target::getCpuPrecompiledHeader(
    const artifact::HostCompileOptions &compile) {
  if (compile.noBinary || compile.inProcess || std::getenv("TLC_NO_PCH"))
    return std::nullopt;
  std::string cacheDir = artifact::getCacheRoot(compile);
  std::string compiler = hostCompilerOrEmpty(compile);
  if (cacheDir.empty() || compiler.empty())
    return std::nullopt;
  // The key: the header's text, the flags and the compiler's identity (its
  // path, size and time: an upgraded compiler rejects an old PCH).
  fs::file_status st;
  if (fs::status(compiler, st))
    return std::nullopt;
  std::string keyText =
      "tlc-cpu-pch-v1\n" + compiler + "\n" + std::to_string(st.getSize()) +
      " " +
      std::to_string(st.getLastModificationTime().time_since_epoch().count()) +
      "\n";
  for (const std::string &f : compile.flags)
    keyText += f + "\n";
  for (const std::string &f : compile.extraFlags)
    keyText += f + "\n";
  keyText += getCpuDeviceHeader();
  std::string key = artifact::sha256Hex(keyText).substr(0, 32);

  llvm::SmallString<256> dir(cacheDir);
  path::append(dir, "pch", key);
  llvm::SmallString<256> header(dir);
  path::append(header, "tlc_cpu.h");
  llvm::SmallString<256> ready(dir);
  path::append(ready, "ready");
  llvm::SmallString<256> unusable(dir);
  path::append(unusable, "unusable");
  if (fs::exists(ready))
    return header.str().str();
  if (fs::exists(unusable))
    return std::nullopt;

  // Built once the cache holds a few kernels: its ~5 s pay back from the
  // third compile that uses it, and one-off builds into a fresh cache stay
  // as fast as before.
  llvm::SmallString<256> kernels(cacheDir);
  path::append(kernels, "kernels");
  unsigned seen = 0;
  std::error_code ec;
  for (fs::directory_iterator it(kernels, ec), end;
       !ec && it != end && seen < kMinCachedKernels; it.increment(ec))
    seen += path::extension(it->path()) == ".so";
  if (seen < kMinCachedKernels)
    return std::nullopt;

  // One process builds it (a lock file); the others compile without it
  // meanwhile. A lock older than ten minutes is a dead builder's.
  llvm::SmallString<256> lock(dir);
  lock += ".lock";
  if (fs::create_directories(path::parent_path(dir)))
    return std::nullopt;
  int fd = -1;
  if (fs::openFileForWrite(lock, fd, fs::CD_CreateNew)) {
    fs::file_status ls;
    if (!fs::status(lock, ls) &&
        std::chrono::system_clock::now() - ls.getLastModificationTime() >
            std::chrono::minutes(10))
      fs::remove(lock);
    return std::nullopt;
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);

  // Build in a directory of this process, then rename it into place.
  std::string tmp =
      (dir + "." + std::to_string(llvm::sys::Process::getProcessId()) + ".tmp")
          .str();
  fs::remove_directories(tmp);
  bool ok = !fs::create_directories(tmp);
  llvm::SmallString<256> tmpHeader(tmp);
  path::append(tmpHeader, "tlc_cpu.h");
  ok = ok && writeFile(tmpHeader, getCpuDeviceHeader());
  std::vector<std::string> args = {compiler};
  auto withFlags = [&] {
    for (const std::string &f : compile.flags)
      args.push_back(f);
    for (const std::string &f : compile.extraFlags)
      args.push_back(f);
  };
  withFlags();
  args.insert(args.end(), {"-x", "c++-header", tmpHeader.str().str(), "-o",
                           (tmpHeader + ".gch").str()});
  ok = ok && runQuietly(args);
  // The precompiled form must be the one a kernel compile loads: a probe
  // including it compiles with invalid-PCH warnings as errors.
  llvm::SmallString<256> probe(tmp);
  path::append(probe, "probe.cpp");
  ok = ok &&
       writeFile(probe, "#include \"tlc_cpu.h\"\n"
                        "extern \"C\" int tlc_pch_probe() { return 0; }\n");
  if (ok) {
    args = {compiler};
    withFlags();
    args.insert(args.end(), {"-Winvalid-pch", "-Werror=invalid-pch", "-include",
                             tmpHeader.str().str(), probe.str().str(), "-o",
                             (probe + ".so").str()});
    ok = runQuietly(args);
  }
  fs::remove(probe);
  fs::remove(probe + ".so");
  if (ok) {
    // Named by the final directory: the header's path is in the cache key
    // of every kernel built with it.
    ok = writeFile(tmp + "/ready", "") && !fs::rename(tmp, dir);
  } else {
    // This compiler cannot use one: remember that, compile as before.
    fs::create_directories(dir);
    writeFile(unusable, "");
  }
  fs::remove_directories(tmp);
  fs::remove(lock);
  if (ok && fs::exists(ready))
    return header.str().str();
  return std::nullopt;
}
