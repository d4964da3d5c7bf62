//===- NVRTC.cpp - In-process CUDA compilation with NVRTC ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// NVRTC, loaded with dlopen (no link-time CUDA dependency, like the
// runtime's driver API), compiles the generated CUDA C++ to a cubin inside
// tlc-build: no nvcc process, no host compiler. It needs the CUDA headers
// the device headers include (cuda_fp16.h, ...), found next to NVRTC's
// toolkit.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/CUDATarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace tlc;
using namespace tlc::target;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {
/// The NVRTC entry points tlc uses (nvrtc.h declares them with these
/// signatures; nvrtcResult is an int enum, nvrtcProgram a pointer).
struct NvrtcApi {
  using Program = void *;
  int (*version)(int *, int *) = nullptr;
  const char *(*errorString)(int) = nullptr;
  int (*create)(Program *, const char *, const char *, int,
                const char *const *, const char *const *) = nullptr;
  int (*destroy)(Program *) = nullptr;
  int (*compile)(Program, int, const char *const *) = nullptr;
  int (*logSize)(Program, size_t *) = nullptr;
  int (*log)(Program, char *) = nullptr;
  int (*cubinSize)(Program, size_t *) = nullptr;
  int (*cubin)(Program, char *) = nullptr;
  std::string library;
  std::string error;
};
} // namespace

/// Loads NVRTC once: $TLC_NVRTC, then the loader's search path, then the
/// toolkit under $CUDA_HOME and /usr/local/cuda.
static const NvrtcApi &loadNvrtc() {
  static NvrtcApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    // $TLC_NVRTC, when set, is the only candidate: an explicit choice that
    // fails is an error, not a fall-back to another NVRTC.
    std::vector<std::string> candidates;
    if (const char *env = std::getenv("TLC_NVRTC")) {
      candidates.push_back(env);
    } else {
      for (const char *name :
           {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"})
        candidates.push_back(name);
      for (const char *root :
           {static_cast<const char *>(std::getenv("CUDA_HOME")),
            "/usr/local/cuda"}) {
        if (!root)
          continue;
        llvm::SmallString<256> p(root);
        path::append(p, "lib64", "libnvrtc.so");
        candidates.push_back(p.str().str());
      }
    }
    void *handle = nullptr;
    std::string tried;
    for (const std::string &c : candidates) {
      handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle) {
        api.library = c;
        break;
      }
      tried += (tried.empty() ? "" : ", ") + c;
    }
    if (!handle) {
      api.error = "NVRTC not found (tried " + tried +
                  "); set TLC_NVRTC to libnvrtc.so's path";
      return;
    }
    bool ok = true;
    auto bind = [&](auto &fn, const char *symbol) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(handle, symbol));
      if (!fn) {
        ok = false;
        api.error = api.library + " has no " + symbol;
      }
    };
    bind(api.version, "nvrtcVersion");
    bind(api.errorString, "nvrtcGetErrorString");
    bind(api.create, "nvrtcCreateProgram");
    bind(api.destroy, "nvrtcDestroyProgram");
    bind(api.compile, "nvrtcCompileProgram");
    bind(api.logSize, "nvrtcGetProgramLogSize");
    bind(api.log, "nvrtcGetProgramLog");
    bind(api.cubinSize, "nvrtcGetCUBINSize");
    bind(api.cubin, "nvrtcGetCUBIN");
    if (!ok)
      api.version = nullptr;
  });
  return api;
}

std::vector<std::string> tlc::target::getNvrtcFlags(llvm::StringRef arch) {
  // What nvcc gets from getNvccFlags, for one architecture: device code is
  // optimised by default, -lineinfo keeps the source map for profilers.
  return {"--gpu-architecture=" + arch.str(), "-std=c++17", "-lineinfo"};
}

llvm::Expected<std::string> tlc::target::getNvrtcVersion() {
  const NvrtcApi &api = loadNvrtc();
  if (!api.version)
    return llvm::createStringError(api.error);
  int major = 0, minor = 0;
  api.version(&major, &minor);
  return "nvrtc " + std::to_string(major) + "." + std::to_string(minor) +
         " (" + api.library + ")";
}

llvm::Expected<std::string> tlc::target::findCudaIncludeDir() {
  std::vector<std::string> roots;
  if (const char *v = std::getenv("TLC_CUDA_INCLUDE"))
    roots.push_back(v);
  for (const char *env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(env))
      roots.push_back((llvm::Twine(v) + "/include").str());
  roots.push_back("/usr/local/cuda/include");
  roots.push_back("/usr/include");
  std::string tried;
  for (const std::string &r : roots) {
    llvm::SmallString<256> header(r);
    path::append(header, "cuda_fp16.h");
    if (fs::exists(header))
      return r;
    tried += (tried.empty() ? "" : ", ") + r;
  }
  return llvm::createStringError("the CUDA headers (cuda_fp16.h) were not found (looked "
                   "in " + tried + "); set TLC_CUDA_INCLUDE");
}

llvm::Error
tlc::target::compileWithNvrtc(llvm::StringRef sourcePath,
                              llvm::StringRef outputPath, llvm::StringRef arch,
                              llvm::ArrayRef<std::string> extraFlags) {
  const NvrtcApi &api = loadNvrtc();
  if (!api.version)
    return llvm::createStringError(api.error);
  auto include = findCudaIncludeDir();
  if (!include)
    return include.takeError();
  auto source = llvm::MemoryBuffer::getFile(sourcePath, /*IsText=*/true);
  if (!source)
    return llvm::createStringError("cannot read '" + sourcePath +
                     "': " + source.getError().message());
  llvm::SmallString<256> here = path::parent_path(sourcePath);
  if (here.empty())
    here = ".";
  std::vector<std::string> options = getNvrtcFlags(arch);
  options.insert(options.end(), extraFlags.begin(), extraFlags.end());
  options.push_back("-I" + here.str().str());
  options.push_back("-I" + *include);
  std::vector<const char *> argv;
  for (const std::string &o : options)
    argv.push_back(o.c_str());
  std::string text = (*source)->getBuffer().str();
  NvrtcApi::Program program = nullptr;
  std::string name = path::filename(sourcePath).str();
  if (int rc = api.create(&program, text.c_str(), name.c_str(), 0, nullptr,
                          nullptr))
    return llvm::createStringError(llvm::Twine("nvrtcCreateProgram: ") +
                     api.errorString(rc));
  int rc = api.compile(program, int(argv.size()), argv.data());
  size_t logSize = 0;
  api.logSize(program, &logSize);
  std::string log(logSize, '\0');
  if (logSize)
    api.log(program, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
    log.pop_back();
  std::string cubin;
  if (rc == 0) {
    size_t size = 0;
    api.cubinSize(program, &size);
    cubin.resize(size);
    if (size)
      api.cubin(program, cubin.data());
  }
  api.destroy(&program);
  if (rc != 0 || cubin.empty()) {
    std::string cmd = "nvrtc";
    for (const std::string &o : options)
      cmd += " " + o;
    return llvm::createStringError("nvrtc compilation failed (" +
                     llvm::Twine(api.errorString(rc)) + "): " + cmd + " " +
                     name + "\n" + log);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(outputPath, ec, fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write '" + outputPath + "': " + ec.message());
  os << cubin;
  return llvm::Error::success();
}
