//===- DynamicSymbols.h - libcuda.so.1 loaded through dlopen ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tlc has no link-time dependency on the GPU driver: the driver library is
// opened with dlopen and every entry point of CUDASymbols.def is looked up
// once. The struct below is generated from that table.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_CUDA_DYNAMICSYMBOLS_H
#define TLC_RUNTIME_CUDA_DYNAMICSYMBOLS_H

#include "tlc/Runtime/CUDA/CUDAHeaders.h"
#include "tlc/Runtime/CUDA/Status.h"

#include <string>

namespace tlc::runtime::cuda {

/// The driver entry points of CUDASymbols.def, as function pointers. A
/// missing OPTIONAL entry is null; after a successful load every REQUIRED
/// entry is non-null. Not copyable (it owns the dlopen handle).
struct DynamicSymbols {
#define TLC_CUDA_REQUIRED(field, symbol, ...) CUresult (*field)(__VA_ARGS__) = nullptr;
#include "tlc/Runtime/CUDA/CUDASymbols.def"

  /// The dlopen handle (null until loaded).
  void *library = nullptr;
  /// The path or name the library was opened from.
  std::string libraryName;

  DynamicSymbols() = default;
  DynamicSymbols(const DynamicSymbols &) = delete;
  DynamicSymbols &operator=(const DynamicSymbols &) = delete;
  /// Closes the library.
  ~DynamicSymbols();

  /// Opens \p libraryPath (null: $TLC_CUDA_DRIVER if set, else
  /// "libcuda.so.1") and resolves the table. Fails when the library cannot
  /// be opened or lacks a REQUIRED entry; the message names the library and
  /// every missing symbol. Does not call cuInit.
  Status load(const char *libraryPath = nullptr);

  /// "NAME: description" for a driver result, using cuGetErrorName /
  /// cuGetErrorString when present and tlc's own table otherwise.
  std::string describe(CUresult result) const;

  /// Wraps a failing driver call: Status::error("CALL failed: NAME:
  /// description", result); success stays success.
  Status check(CUresult result, const char *call) const;
};

/// The name of a driver result from tlc's own table (`CUDA_ERROR_NO_DEVICE`),
/// or "CUDA_ERROR_<n>" for codes it does not know.
std::string getResultName(CUresult result);

/// The process-wide driver: loaded and initialised (cuInit(0)) on first use,
/// thread-safe. Returns null and sets \p status when the library is missing
/// or cuInit fails (for example, no device: CUDA_ERROR_NO_DEVICE).
const DynamicSymbols *getDriver(Status &status);

} // namespace tlc::runtime::cuda

#endif // TLC_RUNTIME_CUDA_DYNAMICSYMBOLS_H
