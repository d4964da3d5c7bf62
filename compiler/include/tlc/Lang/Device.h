//===- Device.h - Facts about the devices a target runs on ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One row per GPU part (kDevices in Device.cpp): what programs ask the machine at trace
// time (`driver.get_num_sms()`, `torch.cuda.get_device_properties(0)`) and
// the budgets the checks use. Each target has a default part;
// `tlc-build --device=NAME` picks another.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LANG_DEVICE_H
#define TLC_LANG_DEVICE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tlc {
namespace lang {

/// The facts of one device.
struct DeviceInfo {
  /// Short name used by --device (`h100`, `mi300x`).
  llvm::StringRef name;
  /// Marketing name, as torch reports it (`NVIDIA H100 80GB HBM3`).
  llvm::StringRef fullName;
  /// `cuda` or `hip`.
  llvm::StringRef platform;
  /// The architecture (`sm_90a`, `gfx942`).
  llvm::StringRef arch;
  /// Compute capability (CUDA) or gfx major/minor (HIP).
  int major, minor;
  /// Streaming multiprocessors / compute units.
  int64_t numSMs;
  /// Shared memory (LDS) one block may use, in bytes.
  int64_t sharedMemoryPerBlock;
  /// Shared memory per SM, in bytes.
  int64_t sharedMemoryPerSM;
  /// 32-bit registers per SM.
  int64_t registersPerSM;
  /// Registers one thread may use.
  int64_t registersPerThread;
  /// L2 cache bytes.
  int64_t l2Bytes;
  /// Threads per warp / wavefront.
  int64_t warpSize;
  /// Threads per block.
  int64_t maxThreadsPerBlock;
  /// Threads resident per SM.
  int64_t maxThreadsPerSM;
  /// Device memory bytes.
  int64_t globalMemoryBytes;
  /// Largest thread-block cluster (0 without clusters).
  int64_t maxClusterSize;
};

/// Every known device.
llvm::ArrayRef<DeviceInfo> getDevices();

/// The device called \p name (`h100`), or null.
const DeviceInfo *lookupDevice(llvm::StringRef name);

/// The default device of a target spec (`cuda:sm_90a` -> h100,
/// `cuda:sm_80` -> a100, `hip:gfx942` -> mi300x); null for `cpu`.
const DeviceInfo *getDefaultDevice(llvm::StringRef target);

} // namespace lang
} // namespace tlc

#endif // TLC_LANG_DEVICE_H
