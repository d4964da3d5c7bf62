//===- HIPTarget.h - Artifacts of the HIP target ----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build --target=hip:gfx942 -o DIR`: for every kernel instance of a
// module, the HIP C++ the GPU printer writes for AMD CDNA (NAME.hip, with
// GPULanguage::hip(): wavefronts of 64, MFMA, LDS), tlc's HIP device
// headers (tlc_device/hip...), the code object compiled by clang's AMDGPU
// back end (clang++ -x hip --cuda-device-only -nogpuinc -nogpulib, ROCm's
// ocml bitcode linked for the math functions): NAME.hsaco for one
// architecture, NAME.hipfb (a clang offload bundle of one code object per
// architecture) for several, and the manifest with its source map.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_HIP_HIPTARGET_H
#define TLC_TARGET_HIP_HIPTARGET_H

#include "tlc/Target/CUDA/CUDAEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tlc::target {

/// Options of buildHipArtifacts.
struct HipBuildOptions {
  /// `gfx90a`, `gfx942`, `gfx950`, or several comma-separated (one offload
  /// bundle with a code object for each).
  std::string arch = "gfx942";
  /// The clang with the AMDGPU back end; empty: $TLC_HIP_CLANG, else
  /// clang++-22, /usr/lib/llvm-22/bin/clang++.
  std::string clang;
  /// Reuse and fill the content-hash cache.
  bool useCache = true;
  /// Emission options (#line directives, comments); the language is HIP.
  CudaEmitOptions emit;
  /// Only instances whose function or kernel name is this (empty: all).
  std::string kernelFilter;
  /// Print one line per artifact here.
  llvm::raw_ostream *log = nullptr;
  /// The text to compile in place of the printed source (as
  /// CudaBuildOptions::sourceOverride).
  std::optional<std::string> sourceOverride;
};

/// The CDNA architectures the HIP target builds for.
llvm::ArrayRef<llvm::StringRef> getHipArchitectures();

/// Splits HipBuildOptions::arch; the error names the first unknown one.
llvm::Expected<std::vector<std::string>>
parseHipArchitectures(llvm::StringRef archList);

/// The emission options of the HIP printer for \p archs (the oldest one
/// decides what may be used).
CudaEmitOptions getHipEmitOptions(llvm::ArrayRef<std::string> archs,
                                  CudaEmitOptions base = {});

/// Finds the clang that compiles HIP code objects; the error says where it
/// looked.
llvm::Expected<std::string> findHipClang(llvm::StringRef configured);

/// The directory with ROCm's device-library bitcode (ocml.bc, oclc_*.bc):
/// $TLC_ROCM_DEVICE_LIBS, /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
/// (Debian's rocm-device-libs), /opt/rocm/amdgcn/bitcode.
llvm::Expected<std::string> findRocmDeviceLibs();

/// The clang flags that compile a HIP source for the one architecture
/// \p arch into a code object (before `-I DIR SOURCE -o OUT`), linking the
/// device libraries of \p deviceLibs.
std::vector<std::string> getHipClangFlags(llvm::StringRef arch,
                                          llvm::StringRef deviceLibs);

/// A clang offload bundle of one code object per architecture: \p objects
/// are (arch, code object bytes). Code objects are aligned to 4096 bytes
/// after the header; a host entry of size 0 comes first.
std::string
bundleCodeObjects(llvm::ArrayRef<std::pair<std::string, std::string>> objects);

/// tlc's HIP device headers, as (relative path, contents) pairs.
const std::vector<std::pair<std::string, std::string>> &getHipDeviceHeaders();

/// Writes the HIP artifacts of every defined `tile.func` of \p module
/// (after the GPU lowering passes) into \p outDir. Problems are MLIR
/// diagnostics; an instance that fails does not stop the others.
mlir::LogicalResult buildHipArtifacts(mlir::ModuleOp module,
                                      llvm::StringRef outDir,
                                      const HipBuildOptions &options);

} // namespace tlc::target

#endif // TLC_TARGET_HIP_HIPTARGET_H
