//===- CUDATarget.cpp - Artifacts of the CUDA target ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/CUDATarget.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

llvm::ArrayRef<llvm::StringRef> tlc::target::getCudaArchitectures() {
  static const llvm::StringRef archs[] = {"sm_80",  "sm_86",   "sm_89",
                                          "sm_90a", "sm_100a", "sm_120a"};
  return archs;
}

llvm::Expected<std::string> tlc::target::findNvcc(llvm::StringRef configured) {
  std::vector<std::string> tried;
  auto usable = [&](const std::string &p) {
    tried.push_back(p);
    return fs::can_execute(p);
  };
  if (!configured.empty()) {
    if (path::has_parent_path(configured)) {
      if (usable(configured.str()))
        return configured.str();
    } else if (auto found = llvm::sys::findProgramByName(configured)) {
      return *found;
    }
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "nvcc '" + configured + "' not found");
  }
  if (const char *env = std::getenv("TLC_NVCC")) {
    if (usable(env))
      return std::string(env);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "TLC_NVCC='" + std::string(env) +
                                       "' is not an executable");
  }
  if (const char *home = std::getenv("CUDA_HOME")) {
    llvm::SmallString<256> p(home);
    path::append(p, "bin", "nvcc");
    if (usable(p.str().str()))
      return p.str().str();
  }
  if (usable("/usr/local/cuda/bin/nvcc"))
    return std::string("/usr/local/cuda/bin/nvcc");
  if (auto found = llvm::sys::findProgramByName("nvcc"))
    return *found;
  std::string where;
  for (const std::string &t : tried)
    where += t + ", ";
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "nvcc not found (looked at " + where +
          "and PATH); install the CUDA toolkit or set TLC_NVCC to nvcc's "
          "path. The CUDA source was written; compile it elsewhere with "
          "nvcc -cubin");
}

unsigned
tlc::target::getOldestComputeCapability(llvm::ArrayRef<std::string> archs) {
  unsigned oldest = 0;
  for (llvm::StringRef a : archs) {
    unsigned cc = 0;
    if (a.drop_front(3).take_while(llvm::isDigit).getAsInteger(10, cc))
      continue;
    if (!oldest || cc < oldest)
      oldest = cc;
  }
  return oldest;
}

llvm::Expected<std::vector<std::string>>
tlc::target::parseCudaArchitectures(llvm::StringRef archList) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  archList.split(parts, ',');
  std::vector<std::string> archs;
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (!llvm::is_contained(getCudaArchitectures(), part))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "unknown CUDA architecture '" + part +
              "' (sm_80, sm_86, sm_89, sm_90a, sm_100a or sm_120a; several "
              "comma-separated)");
    if (!llvm::is_contained(archs, part.str()))
      archs.push_back(part.str());
  }
  // An arch-specific target ('a') has features no other architecture
  // has; sm_100a code (tensor memory, tcgen05) and sm_120a code run on no
  // other part, so each is built alone, as one cubin.
  for (llvm::StringRef alone : {"sm_100a", "sm_120a"})
    if (archs.size() > 1 && llvm::is_contained(archs, alone))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          alone + " is built alone, not in a list with other architectures");
  return archs;
}

std::vector<std::string> tlc::target::getNvccFlags(llvm::StringRef arch) {
  std::vector<std::string> flags = {"-std=c++17", "-O3", "-lineinfo"};
  llvm::SmallVector<llvm::StringRef, 4> archs;
  arch.split(archs, ',');
  for (llvm::StringRef a : archs) {
    a = a.trim();
    std::string compute = "compute_" + a.drop_front(3).str();
    if (a.ends_with("a")) {
      // Arch-specific features: SASS only (no PTX would run elsewhere).
      flags.push_back("-gencode=arch=" + compute + ",code=" + a.str());
    } else {
      // SASS for the architecture plus its PTX, which the driver
      // JIT-compiles for newer GPUs (an sm_80 build runs on an H200).
      flags.push_back("-gencode=arch=" + compute + ",code=[" + a.str() +
                      "," + compute + "]");
    }
  }
  flags.push_back(arch == "sm_90a" || arch == "sm_100a" || arch == "sm_120a"
                      ? "-cubin"
                      : "-fatbin");
  return flags;
}

const std::vector<std::pair<std::string, std::string>> &
tlc::target::getCudaDeviceHeaders() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
#include "CudaDeviceHeaders.inc"
  };
  return headers;
}

LogicalResult tlc::target::completeGpuManifest(tile::FuncOp func,
                                              artifact::Manifest &m,
                                              const CudaKernel &kernel,
                                              llvm::StringRef language) {
  if (kernel.launches.size() != m.launches.size())
    return func.emitError() << "the " << language << " emitter produced "
                            << kernel.launches.size()
                            << " kernels for " << m.launches.size()
                            << " launches";
  m.entry = kernel.launches.empty() ? "" : kernel.launches.front().entry;
  // Workspaces: the global allocations of the function body, in order; every
  // kernel takes all of them after the parameters (see the emitter).
  for (Operation &op : func.getBody().front()) {
    auto alloc = dyn_cast<tile::AllocOp>(op);
    auto type = alloc ? cast<tile::BufferType>(alloc.getType())
                      : tile::BufferType();
    if (!type || type.getScope() != tile::MemoryScope::Global)
      continue;
    artifact::Workspace w;
    w.name = "workspace" + std::to_string(m.workspaces.size());
    if (auto n = dyn_cast<NameLoc>(alloc.getLoc()))
      w.name = n.getName().str();
    w.dtype = tile::getDTypeName(type.getElementType());
    std::optional<std::vector<artifact::Extent>> shape = getManifestShape(type);
    if (!shape)
      return alloc.emitError() << "workspace '" << w.name
                               << "' has an unknown extent (?); the runtime "
                                  "cannot allocate it";
    w.shape = std::move(*shape);
    auto bytes = artifact::getBufferBytes(w.dtype, w.shape);
    if (!bytes)
      return alloc.emitError() << "workspace '" << w.name << "': "
                               << llvm::toString(bytes.takeError());
    w.bytes = *bytes;
    m.workspaces.push_back(std::move(w));
  }
  for (auto [launch, cuda] : llvm::zip(m.launches, kernel.launches)) {
    launch.entry = cuda.entry;
    launch.block = {artifact::Extent::of(cuda.threads)};
    if (cuda.persistentGrid)
      launch.grid = {artifact::Extent::of(cuda.persistentGrid)};
    launch.dynamicSharedMemory =
        cuda.dynamicSharedMemoryExpr.empty()
            ? artifact::Extent::of(cuda.dynamicSharedMemory)
            : artifact::Extent::symbolic(cuda.dynamicSharedMemoryExpr);
    launch.cooperative = cuda.cooperative;
    launch.cluster = cuda.cluster;
    for (const artifact::Workspace &w : m.workspaces)
      launch.workspaces.push_back(w.name);
    for (const CudaTensorMap &t : cuda.tensorMaps) {
      artifact::TensorMap map;
      map.param = m.params[t.param].name;
      map.dtype = t.dtype;
      map.dims = t.dims;
      map.strides = t.strides;
      map.box = t.box;
      map.swizzle = t.swizzle;
      launch.tensorMaps.push_back(std::move(map));
    }
  }
  std::vector<artifact::Symbol> ordered;
  for (const std::string &name : kernel.symbols) {
    auto it = llvm::find_if(m.symbols, [&](const artifact::Symbol &s) {
      return s.name == name;
    });
    if (it == m.symbols.end())
      ordered.push_back({name, "dynamic"});
    else
      ordered.push_back(*it);
  }
  // Symbols the kernels do not take still bind shapes; keep them after.
  for (const artifact::Symbol &s : m.symbols)
    if (!llvm::is_contained(kernel.symbols, s.name))
      ordered.push_back(s);
  m.symbols = std::move(ordered);
  m.sourceMapFiles = kernel.files;
  m.sourceMap = kernel.sourceMap;
  return success();
}

std::vector<std::string> tlc::target::getCudaKernelFlags(tile::FuncOp func) {
  std::vector<std::string> flags;
  // TileLang's ptxas pass configs, as nvcc and NVRTC both spell them.
  if (std::optional<llvm::StringRef> level =
          tile::getPassConfig(func, "tl.ptxas_register_usage_level"))
    flags.push_back("--ptxas-options=--register-usage-level=" + level->str());
  if (tile::isPassConfigOn(func, "tl.enable_ptxas_verbose_output"))
    flags.push_back("--ptxas-options=--verbose");
  for (std::string &f : tile::getCompileFlags(func))
    flags.push_back(std::move(f));
  return flags;
}

/// Sets up \p compile for the compiler \p options ask for: nvcc with its
/// flags, or NVRTC in process (one architecture only).
static llvm::Error configureCompiler(const CudaBuildOptions &options,
                                     llvm::ArrayRef<std::string> archs,
                                     artifact::HostCompileOptions &compile) {
  std::string archList = llvm::join(archs, ",");
  auto useNvrtc = [&]() -> llvm::Error {
    if (archs.size() != 1)
      return llvm::createStringError(
          "NVRTC builds a cubin for one architecture; a fatbin for '" +
          archList + "' needs nvcc (--cuda-compiler=nvcc)");
    auto version = getNvrtcVersion();
    if (!version)
      return version.takeError();
    compile.label = "nvrtc";
    compile.compiler = *version;
    compile.flags = getNvrtcFlags(archs.front());
    std::string arch = archs.front();
    compile.inProcess = [arch](llvm::StringRef src, llvm::StringRef out,
                               llvm::ArrayRef<std::string> extra) {
      return compileWithNvrtc(src, out, arch, extra);
    };
    return llvm::Error::success();
  };
  if (options.compiler == CudaCompiler::Nvrtc)
    return useNvrtc();
  if (options.compiler == CudaCompiler::None) {
    compile.label = "none";
    compile.noBinary = true;
    return llvm::Error::success();
  }
  auto nvcc = findNvcc(options.nvcc);
  if (!nvcc) {
    // An nvcc named explicitly (option or $TLC_NVCC) that does not work is
    // an error even in auto mode.
    if (options.compiler == CudaCompiler::Nvcc || !options.nvcc.empty() ||
        std::getenv("TLC_NVCC"))
      return nvcc.takeError();
    // Auto: NVRTC when nvcc is missing; both reasons when neither works.
    std::string nvccWhy = llvm::toString(nvcc.takeError());
    if (llvm::Error e = useNvrtc())
      return llvm::createStringError(nvccWhy + "; " +
                                     llvm::toString(std::move(e)));
    return llvm::Error::success();
  }
  compile.label = "nvcc";
  compile.compiler = *nvcc;
  compile.flags = getNvccFlags(archList);
  return llvm::Error::success();
}

LogicalResult tlc::target::buildCudaArtifacts(ModuleOp module,
                                              llvm::StringRef outDir,
                                              const CudaBuildOptions &options) {
  auto archs = parseCudaArchitectures(options.arch);
  if (!archs)
    return module.emitError() << llvm::toString(archs.takeError());
  std::string archList = llvm::join(*archs, ",");
  tile::setGpuTarget(module, "cuda:" + archList);
  registerScratchAreaMeasure();
  if (failed(tile::runGpuLowering(module)))
    return failure();
  // The emitter refuses what the oldest architecture of the list lacks.
  CudaEmitOptions emitOptions = options.emit;
  if (unsigned cc = getOldestComputeCapability(*archs))
    emitOptions.minComputeCapability = cc;
  GpuBuild build;
  build.target = "cuda:" + archList;
  build.language = "CUDA";
  build.sourceExtension = ".cu";
  build.headers = &getCudaDeviceHeaders();
  build.compiler = [&]() -> llvm::Expected<artifact::HostCompileOptions> {
    artifact::HostCompileOptions compile;
    compile.useCache = options.useCache;
    if (llvm::Error e = configureCompiler(options, *archs, compile))
      return std::move(e);
    return compile;
  };
  build.binaryExtension = [&](const artifact::HostCompileOptions &c) {
    return c.inProcess || archList == "sm_90a" || archList == "sm_100a" ||
                   archList == "sm_120a"
               ? ".cubin"
               : ".fatbin";
  };
  build.kernelFlags = getCudaKernelFlags;
  build.emit = emitOptions;
  build.kernelFilter = options.kernelFilter;
  build.log = options.log;
  build.sourceOverride = options.sourceOverride;
  return buildGpuArtifacts(module, outDir, build);
}

LogicalResult tlc::target::buildGpuArtifacts(ModuleOp module,
                                             llvm::StringRef outDir,
                                             const GpuBuild &build) {
  std::optional<artifact::HostCompileOptions> compiler;
  std::string compilerError;
  unsigned built = 0;
  KernelArtifactWriter writer(outDir, build.language, build.log);
  LogicalResult walked = forEachKernelToBuild(
      module, build.kernelFilter,
      [&](tile::FuncOp func, artifact::Manifest &manifest) {
        if (build.sourceOverride && built++ > 0) {
          func.emitError() << "a replacement source (--replace-source) is "
                              "the source of one instance, but this build "
                              "has several: name one with --kernel and -D "
                              "bindings";
          return WalkResult::interrupt();
        }
        auto kernel = emitCudaKernel(func, build.emit);
        if (failed(kernel) ||
            failed(completeGpuManifest(func, manifest, *kernel,
                                       build.language)))
          return WalkResult::skip();
        artifact::ArtifactBundle bundle;
        bundle.manifest = std::move(manifest);
        bundle.manifest.target = build.target;
        bundle.source = build.sourceOverride ? *build.sourceOverride
                                             : std::move(kernel->source);
        bundle.sourceExtension = build.sourceExtension;
        bundle.extraFiles = *build.headers;
        if (!compiler && compilerError.empty()) {
          auto compile = build.compiler();
          if (compile)
            compiler = std::move(*compile);
          else
            compilerError = llvm::toString(compile.takeError());
        }
        if (!compiler) {
          // Write the source anyway, so it can be compiled elsewhere.
          llvm::SmallString<256> src(outDir);
          path::append(src, bundle.manifest.name + build.sourceExtension);
          (void)fs::create_directories(outDir);
          (void)llvm::writeToOutput(src, [&](llvm::raw_ostream &os) {
            os << bundle.source;
            return llvm::Error::success();
          });
          func.emitError() << "cannot compile '" << bundle.manifest.name
                           << "': " << compilerError;
          return WalkResult::interrupt();
        }
        bundle.binaryExtension = build.binaryExtension(*compiler);
        artifact::HostCompileOptions compile = *compiler;
        if (build.kernelFlags)
          compile.extraFlags = build.kernelFlags(func);
        writer.add(func, std::move(bundle), compile);
        return WalkResult::advance();
      },
      /*needsKernel=*/true);
  LogicalResult written = writer.finish();
  return success(succeeded(walked) && succeeded(written));
}
