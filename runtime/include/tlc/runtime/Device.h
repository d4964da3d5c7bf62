//===- Device.h - Devices that run kernel artifacts -------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime's device abstraction: memory, transfers, and kernels loaded
// from an artifact directory (manifest + binary). The CPU device runs the
// `.so` of `--target=cpu`; the CUDA and HIP devices reach their drivers
// only through dlopen (no link-time GPU dependency, see DynamicLibrary.h
// and the X-macro symbol tables under lib/cuda and lib/hip).
//
//   auto dev = openDevice("cpu");           // or "cuda", "hip", "sim"
//   auto kernel = (*dev)->loadKernel(manifest, dir);
//   LaunchArgs args;                        // device pointers, symbols
//   (*kernel)->launch(args);
//
// Devices and kernels are not thread-safe; use each from one thread.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_DEVICE_H
#define TLC_RUNTIME_DEVICE_H

#include "tlc/Target/Artifact/Manifest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tlc::runtime {

/// The arguments of one launch of a kernel instance.
struct LaunchArgs {
  /// One per manifest parameter: a device pointer for a tensor, a host
  /// pointer to the value (of the parameter's dtype) for a scalar.
  std::vector<void *> params;
  /// The values of the manifest's symbols, in manifest order.
  std::vector<int64_t> symbols;
  /// CPU only: host threads running blocks (0: all hardware threads).
  int numWorkers = 0;
  /// Kernel::enqueue on devices with streams (hip): the stream to launch on
  /// (a hipStream_t; null: the default stream).
  void *stream = nullptr;
  /// Kernel::enqueue on devices with streams: device memory for each of the
  /// manifest's workspaces, in manifest order, which the caller keeps alive
  /// until the launches finish. Empty: the kernel allocates them and waits.
  std::vector<void *> workspaces;
};

/// A kernel instance loaded on a device.
class Kernel {
public:
  virtual ~Kernel();
  /// Runs the instance (all its launches) to completion. The error carries
  /// the kernel's own message (with the DSL location) when it fails.
  virtual llvm::Error run(const LaunchArgs &args) = 0;
  /// Runs once and returns the elapsed time in milliseconds (device events
  /// on GPUs, a steady clock on the CPU).
  virtual llvm::Expected<double> timeRun(const LaunchArgs &args) = 0;
  /// Starts the instance's launches on `args.stream` and returns without
  /// waiting for them where the device has streams (hip, given the
  /// workspaces); elsewhere the same as run().
  virtual llvm::Error enqueue(const LaunchArgs &args);
};

/// A device: memory and kernels.
class Device {
public:
  virtual ~Device();
  /// `cpu`, `cuda`, `hip` or `sim`.
  virtual llvm::StringRef getKind() const = 0;
  /// A one-line description (`cpu (16 hardware threads)`).
  virtual std::string describe() const = 0;
  /// True when \p target (a manifest's `target`, e.g. `cpu`,
  /// `cuda:sm_90a`) runs on this device.
  virtual bool canRun(llvm::StringRef target) const = 0;
  /// Allocates \p bytes of device memory.
  virtual llvm::Expected<void *> allocate(size_t bytes) = 0;
  /// Frees memory from allocate().
  virtual void release(void *ptr) = 0;
  /// Copies host -> device.
  virtual llvm::Error copyToDevice(void *dst, const void *src, size_t bytes) = 0;
  /// Copies device -> host.
  virtual llvm::Error copyToHost(void *dst, const void *src, size_t bytes) = 0;
  /// Loads the binary that \p manifest names from the directory \p dir.
  virtual llvm::Expected<std::unique_ptr<Kernel>>
  loadKernel(const artifact::Manifest &manifest, llvm::StringRef dir) = 0;
};

/// Opens the device \p kind (`cpu`, `cuda`, `hip`, `sim`). Errors are readable:
/// `no CUDA driver found (libcuda.so.1: ...)`, `no CUDA device`, ...
llvm::Expected<std::unique_ptr<Device>> openDevice(llvm::StringRef kind);

/// The CPU device (always available).
std::unique_ptr<Device> createCpuDevice();
/// The CUDA device through the driver API opened with dlopen.
llvm::Expected<std::unique_ptr<Device>> openCudaDevice();
/// HIP device \p ordinal through libamdhip64 opened with dlopen
/// ($TLC_HIP_LIBRARY names another library: a test and debug facility).
llvm::Expected<std::unique_ptr<Device>> openHipDevice(int ordinal = 0);
/// The number of HIP devices: 0 without the HIP runtime or an AMD GPU.
int countHipDevices();
/// The sim device: CUDA artifacts compiled for the host and run with GPU
/// semantics, checked by racecheck, memcheck and synccheck (lib/sim).
std::unique_ptr<Device> createSimDevice();

} // namespace tlc::runtime

#endif // TLC_RUNTIME_DEVICE_H
