//===- CUDATarget.h - Artifacts of the CUDA target --------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build --target=cuda:sm_XX -o DIR`: for every kernel instance of a
// module, the generated CUDA C++ (NAME.cu), tlc's device headers
// (tlc_device/...), the binary compiled by nvcc -lineinfo (NAME.cubin for
// sm_90a; NAME.fatbin with SASS and PTX for sm_8x, so newer GPUs can JIT
// it) or by NVRTC in process (NAME.cubin, one architecture), through the
// content-hash cache the CPU target uses, and the
// manifest (NAME.json: entry, per-launch kernel symbol, grid and block,
// dynamic shared memory, parameters with roles, symbols as trailing
// `long long` arguments, source map).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CUDA_CUDATARGET_H
#define TLC_TARGET_CUDA_CUDATARGET_H

#include "tlc/Target/Artifact/Artifact.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tlc::target {

/// What compiles the generated CUDA C++.
enum class CudaCompiler {
  /// nvcc when it is found, else NVRTC.
  Auto,
  /// nvcc (a process per kernel; cubin or fatbin).
  Nvcc,
  /// NVRTC in process (one architecture, a cubin).
  Nvrtc,
  /// None: NAME.cu, its headers and the manifest without a binary, for the
  /// sim device on machines without a CUDA toolchain (CI).
  None,
};

/// Options of buildCudaArtifacts.
struct CudaBuildOptions {
  /// The architecture: `sm_80`, `sm_86`, `sm_89`, `sm_90a`; or several,
  /// comma-separated (`sm_80,sm_90a`): one fatbin with code for each.
  std::string arch = "sm_90a";
  /// nvcc; empty: $TLC_NVCC, else $CUDA_HOME/bin/nvcc, else
  /// /usr/local/cuda/bin/nvcc, else `nvcc` from PATH.
  std::string nvcc;
  /// nvcc, NVRTC, or nvcc when found and NVRTC otherwise.
  CudaCompiler compiler = CudaCompiler::Auto;
  /// Reuse and fill the content-hash cache (see HostCompileOptions).
  bool useCache = true;
  /// Emission options (#line directives, comments).
  CudaEmitOptions emit;
  /// Only instances whose function or kernel name is this (empty: all).
  std::string kernelFilter;
  /// Print one line per artifact (`wrote DIR/NAME.cubin (cached)`) here.
  llvm::raw_ostream *log = nullptr;
  /// Compile this text in place of the printed source, which it becomes in
  /// the artifact (`tlc-build --replace-source`: a caller's post-processing
  /// of the source of a build of one instance). A build with several
  /// instances is an error at the second.
  std::optional<std::string> sourceOverride;
};

/// The architectures buildCudaArtifacts accepts.
llvm::ArrayRef<llvm::StringRef> getCudaArchitectures();

/// Finds nvcc as CudaBuildOptions::nvcc describes; the error says where it
/// looked and how to point tlc at one.
llvm::Expected<std::string> findNvcc(llvm::StringRef configured);

/// Splits CudaBuildOptions::arch into its architectures; the error names
/// the first unknown one.
llvm::Expected<std::vector<std::string>>
parseCudaArchitectures(llvm::StringRef archList);

/// The compute capability (major * 10 + minor: sm_80 is 80) of the oldest
/// of \p archs (`sm_80`, `sm_90a`, ...), 0 when none can be read.
unsigned getOldestComputeCapability(llvm::ArrayRef<std::string> archs);

/// The nvcc flags of \p arch, one architecture or a comma-separated list
/// (before `-I DIR SOURCE -o OUT`): sm_90a alone gives a cubin; anything
/// else a fatbin with SASS for each architecture, plus PTX for each sm_8x
/// one so newer GPUs can JIT it.
std::vector<std::string> getNvccFlags(llvm::StringRef arch);

/// The NVRTC options of one architecture \p arch (before the include
/// directories compileWithNvrtc adds), the counterpart of getNvccFlags.
std::vector<std::string> getNvrtcFlags(llvm::StringRef arch);

/// NVRTC's version and library path, loading it on first use ($TLC_NVRTC,
/// the loader's path, $CUDA_HOME/lib64, /usr/local/cuda/lib64); the error
/// says where it looked.
llvm::Expected<std::string> getNvrtcVersion();

/// The directory holding the CUDA headers the device headers include
/// (cuda_fp16.h): $TLC_CUDA_INCLUDE, $CUDA_HOME/include, $CUDA_PATH/include,
/// /usr/local/cuda/include, /usr/include.
llvm::Expected<std::string> findCudaIncludeDir();

/// Compiles the CUDA C++ file \p sourcePath (tlc's device headers next to
/// it) for the one architecture \p arch into the cubin \p outputPath with
/// NVRTC, in process, with getNvrtcFlags and then \p extraFlags. The error
/// holds NVRTC's log.
llvm::Error compileWithNvrtc(llvm::StringRef sourcePath,
                             llvm::StringRef outputPath, llvm::StringRef arch,
                             llvm::ArrayRef<std::string> extraFlags = {});

/// tlc's CUDA device headers, as (relative path, contents) pairs.
const std::vector<std::pair<std::string, std::string>> &
getCudaDeviceHeaders();

/// Fills the manifest fields of \p m that the GPU printer decides (CUDA
/// and HIP): entry, per-launch kernel symbols, block, dynamic shared
/// memory, workspaces, the symbols in the order the kernels take them, and
/// the source map of \p kernel. \p language ("CUDA" or "HIP") names the
/// printer in diagnostics.
mlir::LogicalResult completeGpuManifest(tile::FuncOp func,
                                        artifact::Manifest &m,
                                        const CudaKernel &kernel,
                                        llvm::StringRef language);

/// The nvcc/NVRTC flags \p func asks for: `tl.ptxas_register_usage_level`
/// and `tl.enable_ptxas_verbose_output` as ptxas options, then its
/// compile flags (tlc/Dialect/Tile/IR/PassConfigs.h).
std::vector<std::string> getCudaKernelFlags(tile::FuncOp func);

/// What one GPU language (CUDA, HIP) contributes to buildGpuArtifacts.
struct GpuBuild {
  /// The manifest's target ("cuda:sm_90a", "hip:gfx942").
  std::string target;
  /// The language's name in diagnostics ("CUDA", "HIP").
  std::string language;
  /// The generated source's extension (".cu", ".hip").
  std::string sourceExtension;
  /// The device headers written beside the source.
  const std::vector<std::pair<std::string, std::string>> *headers = nullptr;
  /// Sets up the compiler; called once, at the first kernel (a module
  /// without kernels needs none). An error stops the build at that kernel,
  /// after its source is written.
  std::function<llvm::Expected<artifact::HostCompileOptions>()> compiler;
  /// The binary's extension for the compiler set up (".cubin", ".hsaco").
  std::function<std::string(const artifact::HostCompileOptions &)>
      binaryExtension;
  /// The compiler flags a kernel asks for (HostCompileOptions::extraFlags).
  std::function<std::vector<std::string>(tile::FuncOp)> kernelFlags;
  CudaEmitOptions emit;
  std::string kernelFilter;
  llvm::raw_ostream *log = nullptr;
  /// CudaBuildOptions::sourceOverride.
  std::optional<std::string> sourceOverride;
};

/// Prints, compiles and writes every kernel of \p module (already through
/// tile::runGpuLowering) into \p outDir as \p build describes: the loop
/// buildCudaArtifacts and buildHipArtifacts share.
mlir::LogicalResult buildGpuArtifacts(mlir::ModuleOp module,
                                      llvm::StringRef outDir,
                                      const GpuBuild &build);

/// Writes the CUDA artifacts of every defined `tile.func` of \p module (after
/// the GPU lowering passes, tile::runGpuLowering) into
/// \p outDir. Problems are reported as MLIR diagnostics (emission errors on
/// the op, nvcc or write errors on the function); an instance that fails
/// does not stop the others. Succeeds when every instance was written.
mlir::LogicalResult buildCudaArtifacts(mlir::ModuleOp module,
                                       llvm::StringRef outDir,
                                       const CudaBuildOptions &options);

} // namespace tlc::target

#endif // TLC_TARGET_CUDA_CUDATARGET_H
