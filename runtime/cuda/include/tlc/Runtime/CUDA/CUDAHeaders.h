//===- CUDAHeaders.h - The CUDA driver API declarations tlc uses -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The few types and constants of the CUDA driver API that the runtime needs,
// declared here so that tlc builds on machines without the CUDA Toolkit. The
// functions themselves are never declared: they are function pointers in
// DynamicSymbols, filled from libcuda.so.1 at run time (CUDASymbols.def).
//
// Values are the driver ABI's (stable across driver versions); the names
// carry a `TLC_` prefix so this header can coexist with NVIDIA's cuda.h.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_CUDA_CUDAHEADERS_H
#define TLC_RUNTIME_CUDA_CUDAHEADERS_H

#include <cstddef>
#include <cstdint>

namespace tlc::runtime::cuda {

/// Result code of every driver API function (`CUresult`); 0 is success.
using CUresult = int;
/// Device ordinal handle (`CUdevice`).
using CUdevice = int;
/// A device address (`CUdeviceptr`, 64-bit on every supported platform).
using CUdeviceptr = std::uint64_t;
/// Opaque driver handles.
using CUcontext = struct CUctxOpaque *;
using CUmodule = struct CUmodOpaque *;
using CUfunction = struct CUfuncOpaque *;
using CUstream = struct CUstreamOpaque *;
using CUevent = struct CUeventOpaque *;
/// Device attribute selector (`CUdevice_attribute`).
using CUdeviceAttribute = int;
/// Function attribute selector (`CUfunction_attribute`).
using CUfunctionAttribute = int;
/// JIT option selector (`CUjit_option`).
using CUjitOption = int;

/// Result codes the runtime reacts to (the rest are reported by name).
enum : CUresult {
  TLC_CUDA_SUCCESS = 0,
  TLC_CUDA_ERROR_INVALID_VALUE = 1,
  TLC_CUDA_ERROR_OUT_OF_MEMORY = 2,
  TLC_CUDA_ERROR_NOT_INITIALIZED = 3,
  TLC_CUDA_ERROR_NO_DEVICE = 100,
  TLC_CUDA_ERROR_INVALID_DEVICE = 101,
  TLC_CUDA_ERROR_INVALID_IMAGE = 200,
  TLC_CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  TLC_CUDA_ERROR_INVALID_PTX = 218,
  TLC_CUDA_ERROR_NOT_FOUND = 500,
  TLC_CUDA_ERROR_NOT_READY = 600,
  TLC_CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  TLC_CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  TLC_CUDA_ERROR_UNKNOWN = 999,
};

/// Device attributes (`CU_DEVICE_ATTRIBUTE_*`).
enum : CUdeviceAttribute {
  TLC_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  TLC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  TLC_CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  TLC_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  TLC_CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  TLC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  TLC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  TLC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  TLC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/// Function attributes (`CU_FUNC_ATTRIBUTE_*`).
enum : CUfunctionAttribute {
  TLC_CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  TLC_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  TLC_CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  TLC_CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  TLC_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/// JIT options used when loading PTX (`CU_JIT_*`).
enum : CUjitOption {
  TLC_CU_JIT_INFO_LOG_BUFFER = 3,
  TLC_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  TLC_CU_JIT_ERROR_LOG_BUFFER = 5,
  TLC_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/// Flags of cuEventCreate / cuStreamCreate.
enum : unsigned {
  TLC_CU_EVENT_DEFAULT = 0,
  TLC_CU_STREAM_NON_BLOCKING = 1,
};

/// The size of dynamic shared memory a kernel may use without opting in.
constexpr int kDefaultDynamicSharedMemoryLimit = 48 * 1024;

} // namespace tlc::runtime::cuda

#endif // TLC_RUNTIME_CUDA_CUDAHEADERS_H
