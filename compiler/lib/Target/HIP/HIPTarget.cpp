//===- HIPTarget.cpp - Artifacts of the HIP target ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/HIP/HIPTarget.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Target/CUDA/CUDATarget.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>
#include <unistd.h>

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::ArrayRef<llvm::StringRef> tlc::target::getHipArchitectures() {
  static const llvm::StringRef archs[] = {"gfx90a", "gfx942", "gfx950"};
  return archs;
}

llvm::Expected<std::vector<std::string>>
tlc::target::parseHipArchitectures(llvm::StringRef archList) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  archList.split(parts, ',');
  std::vector<std::string> archs;
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (!llvm::is_contained(getHipArchitectures(), part))
      return makeError("unknown CDNA architecture '" + part +
                       "' (gfx90a, gfx942 or gfx950; several "
                       "comma-separated)");
    if (!llvm::is_contained(archs, part.str()))
      archs.push_back(part.str());
  }
  return archs;
}

CudaEmitOptions
tlc::target::getHipEmitOptions(llvm::ArrayRef<std::string> archs,
                               CudaEmitOptions base) {
  base.language = &GPULanguage::hip();
  // "gfx90a" < "gfx942" < "gfx950": the oldest sorts first.
  if (!archs.empty())
    base.amdArch = *llvm::min_element(archs);
  return base;
}

llvm::Expected<std::string>
tlc::target::findHipClang(llvm::StringRef configured) {
  std::string wanted = configured.str();
  if (wanted.empty())
    if (const char *env = std::getenv("TLC_HIP_CLANG"))
      wanted = env;
  if (!wanted.empty()) {
    if (fs::can_execute(wanted))
      return wanted;
    if (auto found = llvm::sys::findProgramByName(wanted))
      return *found;
    return makeError("the HIP compiler '" + wanted + "' is not an executable");
  }
  if (auto found = llvm::sys::findProgramByName("clang++-22"))
    return *found;
  if (fs::can_execute("/usr/lib/llvm-22/bin/clang++"))
    return std::string("/usr/lib/llvm-22/bin/clang++");
  return makeError("no clang with the AMDGPU back end found (looked for "
                   "clang++-22 on PATH and /usr/lib/llvm-22/bin/clang++); "
                   "install clang-22 and lld-22 or set TLC_HIP_CLANG. The HIP "
                   "source was written");
}

llvm::Expected<std::string> tlc::target::findRocmDeviceLibs() {
  std::vector<std::string> tried;
  auto has = [&](const std::string &dir) {
    tried.push_back(dir);
    llvm::SmallString<256> ocml(dir);
    path::append(ocml, "ocml.bc");
    return fs::exists(ocml);
  };
  if (const char *env = std::getenv("TLC_ROCM_DEVICE_LIBS")) {
    if (has(env))
      return std::string(env);
    return makeError("TLC_ROCM_DEVICE_LIBS='" + std::string(env) +
                     "' has no ocml.bc");
  }
  for (const char *dir :
       {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode",
        "/opt/rocm/lib/llvm/lib/clang/amdgcn/bitcode"})
    if (has(dir))
      return std::string(dir);
  return makeError("ROCm's device libraries (ocml.bc) not found in " +
                   llvm::join(tried, ", ") +
                   "; install rocm-device-libs or set TLC_ROCM_DEVICE_LIBS");
}

std::vector<std::string>
tlc::target::getHipClangFlags(llvm::StringRef arch,
                              llvm::StringRef deviceLibs) {
  std::vector<std::string> flags = {"-x",
                                    "hip",
                                    "-std=c++17",
                                    "-O3",
                                    "--offload-arch=" + arch.str(),
                                    "--cuda-device-only",
                                    "--no-gpu-bundle-output",
                                    "-nogpuinc",
                                    "-nogpulib",
                                    "-fuse-ld=lld",
                                    "-gline-tables-only",
                                    "-ffp-contract=off"};
  // ocml, ockl (device printf's hostcall buffer) and the controls they
  // read. Debian's ROCm 5.2 libraries stop at gfx940's ISA version;
  // gfx942/gfx950 code links gfx940's (ocml asks it only for instruction
  // availability that gfx94x shares).
  std::string isa = arch == "gfx90a" ? "90a" : "940";
  for (std::string lib :
       {std::string("ocml"), std::string("ockl"),
        std::string("oclc_daz_opt_off"), std::string("oclc_finite_only_off"),
        std::string("oclc_unsafe_math_off"),
        std::string("oclc_correctly_rounded_sqrt_on"),
        std::string("oclc_wavefrontsize64_on"), "oclc_isa_version_" + isa,
        std::string("oclc_abi_version_500")}) {
    llvm::SmallString<256> p(deviceLibs);
    path::append(p, lib + ".bc");
    flags.insert(flags.end(), {"-Xclang", "-mlink-builtin-bitcode", "-Xclang",
                               p.str().str()});
  }
  return flags;
}

std::string tlc::target::bundleCodeObjects(
    llvm::ArrayRef<std::pair<std::string, std::string>> objects) {
  // Format (clang-offload-bundler, binary): the magic, the entry count, per
  // entry its offset, size, id length and id; then the objects.
  std::vector<std::pair<std::string, const std::string *>> entries;
  static const std::string empty;
  entries.push_back({"host-x86_64-unknown-linux-gnu-", &empty});
  for (const auto &[arch, bytes] : objects)
    entries.push_back({"hipv4-amdgcn-amd-amdhsa--" + arch, &bytes});
  auto u64 = [](std::string &s, uint64_t v) {
    for (int i = 0; i < 8; ++i)
      s.push_back(char(v >> (8 * i)));
  };
  const std::string magic = "__CLANG_OFFLOAD_BUNDLE__";
  uint64_t headerSize = magic.size() + 8;
  for (const auto &[id, bytes] : entries)
    headerSize += 24 + id.size();
  uint64_t offset = (headerSize + 4095) / 4096 * 4096;
  std::vector<uint64_t> offsets;
  for (const auto &[id, bytes] : entries) {
    offsets.push_back(bytes->empty() ? headerSize : offset);
    offset = (offset + bytes->size() + 4095) / 4096 * 4096;
  }
  std::string out = magic;
  u64(out, entries.size());
  for (auto [e, off] : llvm::zip(entries, offsets)) {
    u64(out, off);
    u64(out, e.second->size());
    u64(out, e.first.size());
    out += e.first;
  }
  for (auto [e, off] : llvm::zip(entries, offsets)) {
    if (e.second->empty())
      continue;
    out.resize(off, '\0');
    out += *e.second;
  }
  return out;
}

const std::vector<std::pair<std::string, std::string>> &
tlc::target::getHipDeviceHeaders() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
#include "HipDeviceHeaders.inc"
  };
  return headers;
}

/// Runs \p clang on \p source for each of \p archs (its flags, then
/// \p extraFlags) and writes the code object (one architecture) or their
/// bundle to \p output.
static llvm::Error compileCodeObjects(const std::string &clang,
                                      const std::string &deviceLibs,
                                      llvm::ArrayRef<std::string> archs,
                                      llvm::StringRef source,
                                      llvm::StringRef output,
                                      llvm::ArrayRef<std::string> extraFlags) {
  std::vector<std::pair<std::string, std::string>> objects;
  for (const std::string &arch : archs) {
    std::string object = archs.size() == 1
                             ? output.str()
                             : (output + "." + arch + ".hsaco").str();
    std::vector<std::string> argv = {clang};
    for (std::string &f : getHipClangFlags(arch, deviceLibs))
      argv.push_back(std::move(f));
    argv.insert(argv.end(), extraFlags.begin(), extraFlags.end());
    argv.push_back(("-I" + path::parent_path(source)).str());
    argv.push_back(source.str());
    argv.push_back("-o");
    argv.push_back(object);
    llvm::SmallString<256> log;
    int fd;
    if (std::error_code ec = fs::createTemporaryFile("tlc-hip", "log", fd, log))
      return makeError("cannot create a log file: " + ec.message());
    ::close(fd);
    std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                  log.str()};
    std::vector<llvm::StringRef> args(argv.begin(), argv.end());
    std::string why;
    int rc = llvm::sys::ExecuteAndWait(clang, args, std::nullopt, redirects, 0,
                                       0, &why);
    std::string text;
    if (auto buf = llvm::MemoryBuffer::getFile(log))
      text = (*buf)->getBuffer().str();
    fs::remove(log);
    if (rc != 0)
      return makeError("clang (HIP, " + arch + ") failed" +
                       (why.empty() ? "" : " (" + why + ")") + ": " +
                       llvm::join(argv, " ") + "\n" + text);
    if (archs.size() == 1)
      return llvm::Error::success();
    auto bytes = llvm::MemoryBuffer::getFile(object, /*IsText=*/false);
    if (!bytes)
      return makeError("cannot read '" + object +
                       "': " + bytes.getError().message());
    objects.push_back({arch, (*bytes)->getBuffer().str()});
    fs::remove(object);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(output, ec, fs::OF_None);
  if (ec)
    return makeError("cannot write '" + output + "': " + ec.message());
  os << bundleCodeObjects(objects);
  return llvm::Error::success();
}

LogicalResult tlc::target::buildHipArtifacts(ModuleOp module,
                                             llvm::StringRef outDir,
                                             const HipBuildOptions &options) {
  auto archs = parseHipArchitectures(options.arch);
  if (!archs)
    return module.emitError() << llvm::toString(archs.takeError());
  std::string archList = llvm::join(*archs, ",");
  tile::setGpuTarget(module, "hip:" + archList);
  registerScratchAreaMeasure();
  if (failed(tile::runGpuLowering(module)))
    return failure();
  CudaEmitOptions emitOptions = getHipEmitOptions(*archs, options.emit);
  GpuBuild build;
  build.target = "hip:" + archList;
  build.language = "HIP";
  build.sourceExtension = ".hip";
  build.headers = &getHipDeviceHeaders();
  build.compiler = [&]() -> llvm::Expected<artifact::HostCompileOptions> {
    auto clang = findHipClang(options.clang);
    if (!clang)
      return clang.takeError();
    auto libs = findRocmDeviceLibs();
    if (!libs)
      return libs.takeError();
    artifact::HostCompileOptions compile;
    compile.useCache = options.useCache;
    compile.label = "clang (HIP)";
    compile.compiler = *clang;
    compile.flags = getHipClangFlags(archs->front(), *libs);
    compile.flags.push_back("--offload-arch=" + archList);
    std::string c = *clang, l = *libs;
    std::vector<std::string> as = *archs;
    compile.inProcess = [c, l, as](llvm::StringRef src, llvm::StringRef out,
                                   llvm::ArrayRef<std::string> extra) {
      return compileCodeObjects(c, l, as, src, out, extra);
    };
    return compile;
  };
  build.binaryExtension = [&](const artifact::HostCompileOptions &) {
    return archs->size() == 1 ? ".hsaco" : ".hipfb";
  };
  build.kernelFlags = [](tile::FuncOp func) {
    return tile::getCompileFlags(func);
  };
  build.emit = emitOptions;
  build.kernelFilter = options.kernelFilter;
  build.sourceOverride = options.sourceOverride;
  build.log = options.log;
  return buildGpuArtifacts(module, outDir, build);
}
