//===- DynamicSymbols.cpp - Loading libcuda.so.1 ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Runtime/CUDA/DynamicSymbols.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <type_traits>

using namespace tlc::runtime::cuda;

DynamicSymbols::~DynamicSymbols() {
  if (library)
    dlclose(library);
}

Status DynamicSymbols::load(const char *libraryPath) {
  if (library)
    return Status::error("the CUDA driver library is already loaded");
  if (!libraryPath || !*libraryPath) {
    const char *env = std::getenv("TLC_CUDA_DRIVER");
    libraryPath = env && *env ? env : "libcuda.so.1";
  }
  libraryName = libraryPath;
  void *handle = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Status::error("cannot open the CUDA driver library '" +
                         libraryName + "' (" + (why ? why : "unknown") +
                         "); is an NVIDIA driver installed?");
  }

  std::string missing;
  unsigned numMissing = 0;
  auto resolve = [&](auto &field, const char *symbol, bool required) {
    void *address = dlsym(handle, symbol);
    field = reinterpret_cast<std::remove_reference_t<decltype(field)>>(address);
    if (!address && required) {
      missing += (numMissing++ ? ", " : "");
      missing += symbol;
    }
  };
#define TLC_CUDA_REQUIRED(field, symbol, ...) resolve(field, symbol, true);
#define TLC_CUDA_OPTIONAL(field, symbol, ...) resolve(field, symbol, false);
#include "tlc/Runtime/CUDA/CUDASymbols.def"

  if (numMissing) {
    dlclose(handle);
#define TLC_CUDA_REQUIRED(field, symbol, ...) field = nullptr;
#include "tlc/Runtime/CUDA/CUDASymbols.def"
    return Status::error("the CUDA driver library '" + libraryName +
                         "' lacks " + std::to_string(numMissing) +
                         " required entry point" +
                         (numMissing == 1 ? "" : "s") + " (" + missing +
                         "); the driver is too old or not NVIDIA's");
  }
  library = handle;
  return Status();
}

std::string tlc::runtime::cuda::getResultName(CUresult result) {
  switch (result) {
#define TLC_RESULT(value, name)                                                \
  case value:                                                                  \
    return name;
    TLC_RESULT(0, "CUDA_SUCCESS")
    TLC_RESULT(1, "CUDA_ERROR_INVALID_VALUE")
    TLC_RESULT(2, "CUDA_ERROR_OUT_OF_MEMORY")
    TLC_RESULT(3, "CUDA_ERROR_NOT_INITIALIZED")
    TLC_RESULT(4, "CUDA_ERROR_DEINITIALIZED")
    TLC_RESULT(34, "CUDA_ERROR_STUB_LIBRARY")
    TLC_RESULT(35, "CUDA_ERROR_INSUFFICIENT_DRIVER")
    TLC_RESULT(36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER")
    TLC_RESULT(46, "CUDA_ERROR_DEVICE_UNAVAILABLE")
    TLC_RESULT(100, "CUDA_ERROR_NO_DEVICE")
    TLC_RESULT(101, "CUDA_ERROR_INVALID_DEVICE")
    TLC_RESULT(200, "CUDA_ERROR_INVALID_IMAGE")
    TLC_RESULT(201, "CUDA_ERROR_INVALID_CONTEXT")
    TLC_RESULT(209, "CUDA_ERROR_NO_BINARY_FOR_GPU")
    TLC_RESULT(218, "CUDA_ERROR_INVALID_PTX")
    TLC_RESULT(221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND")
    TLC_RESULT(222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION")
    TLC_RESULT(300, "CUDA_ERROR_INVALID_SOURCE")
    TLC_RESULT(301, "CUDA_ERROR_FILE_NOT_FOUND")
    TLC_RESULT(400, "CUDA_ERROR_INVALID_HANDLE")
    TLC_RESULT(500, "CUDA_ERROR_NOT_FOUND")
    TLC_RESULT(600, "CUDA_ERROR_NOT_READY")
    TLC_RESULT(700, "CUDA_ERROR_ILLEGAL_ADDRESS")
    TLC_RESULT(701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES")
    TLC_RESULT(702, "CUDA_ERROR_LAUNCH_TIMEOUT")
    TLC_RESULT(710, "CUDA_ERROR_ASSERT")
    TLC_RESULT(715, "CUDA_ERROR_ILLEGAL_INSTRUCTION")
    TLC_RESULT(716, "CUDA_ERROR_MISALIGNED_ADDRESS")
    TLC_RESULT(719, "CUDA_ERROR_LAUNCH_FAILED")
    TLC_RESULT(800, "CUDA_ERROR_NOT_PERMITTED")
    TLC_RESULT(801, "CUDA_ERROR_NOT_SUPPORTED")
    TLC_RESULT(803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH")
    TLC_RESULT(999, "CUDA_ERROR_UNKNOWN")
#undef TLC_RESULT
  default:
    return "CUDA_ERROR_" + std::to_string(result);
  }
}

std::string DynamicSymbols::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName && cuGetErrorName(result, &name) != TLC_CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString && cuGetErrorString(result, &text) != TLC_CUDA_SUCCESS)
    text = nullptr;
  std::string out = name ? std::string(name) : getResultName(result);
  if (text && *text)
    out += std::string(": ") + text;
  return out;
}

Status DynamicSymbols::check(CUresult result, const char *call) const {
  if (result == TLC_CUDA_SUCCESS)
    return Status();
  return Status::error(std::string(call) + " failed: " + describe(result),
                       result);
}

const DynamicSymbols *tlc::runtime::cuda::getDriver(Status &status) {
  // Loaded once; the outcome (and its message) is remembered, so every
  // caller gets the same answer without reopening the library.
  static DynamicSymbols *driver = nullptr;
  static Status failure;
  static std::once_flag once;
  std::call_once(once, [] {
    auto *syms = new DynamicSymbols();
    Status s = syms->load();
    if (s.ok())
      s = syms->check(syms->cuInit(0), "cuInit");
    if (!s.ok()) {
      failure = s;
      delete syms;
      return;
    }
    driver = syms;
  });
  status = driver ? Status() : failure;
  return driver;
}
