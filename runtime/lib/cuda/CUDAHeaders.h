//===- CUDAHeaders.h - The few CUDA driver API types tlc uses ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tlc's own declarations of the driver API types its symbol table needs, so
// the runtime builds with no CUDA SDK installed. Values follow the
// documented driver API ABI.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_LIB_CUDA_CUDAHEADERS_H
#define TLC_RUNTIME_LIB_CUDA_CUDAHEADERS_H

#include <cstddef>
#include <cstdint>

namespace tlc::runtime::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUdeviceptr = uint64_t;

/// CUDA_SUCCESS.
constexpr CUresult kSuccess = 0;

} // namespace tlc::runtime::cuda

#endif // TLC_RUNTIME_LIB_CUDA_CUDAHEADERS_H
