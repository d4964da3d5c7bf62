//===- DriverObjects.h - Contexts, modules, buffers, timers -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ API of tlc's CUDA runtime, on top of the driver API loaded by
// DynamicSymbols. It is what `tlc-run --device cuda` uses; tlc_cuda.h wraps
// it for C callers.
//
// Objects are created through static `create`/`load` functions that return a
// Status; they release their driver resources in their destructors. A
// Context must outlive every object made from it. None of the classes is
// thread-safe; use each from one thread at a time.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_CUDA_DRIVEROBJECTS_H
#define TLC_RUNTIME_CUDA_DRIVEROBJECTS_H

#include "tlc/Runtime/CUDA/DynamicSymbols.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tlc::runtime::cuda {

/// What the runtime knows about a device.
struct DeviceInfo {
  /// Device ordinal.
  int ordinal = 0;
  /// Marketing name (`NVIDIA H200`).
  std::string name;
  /// Compute capability.
  int ccMajor = 0, ccMinor = 0;
  /// Number of multiprocessors.
  int multiprocessors = 0;
  /// Limits per block.
  int maxThreadsPerBlock = 0;
  /// Shared memory per block without / with opt-in, in bytes.
  int sharedMemoryPerBlock = 0, sharedMemoryPerBlockOptin = 0;
  /// L2 cache size in bytes.
  int l2CacheBytes = 0;
  /// Global memory in bytes.
  size_t totalMemory = 0;
  /// cuDriverGetVersion (e.g. 13000).
  int driverVersion = 0;

  /// "sm_90" style name of the compute capability.
  std::string archName() const;
};

/// The primary context of one device, retained for the object's lifetime.
class Context {
public:
  /// Retains the primary context of device \p ordinal and makes it current
  /// on the calling thread. \p driver defaults to the process-wide one
  /// (getDriver). Errors: no driver library, no device, bad ordinal.
  static Status create(int ordinal, std::unique_ptr<Context> &out,
                       const DynamicSymbols *driver = nullptr);
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// The device's properties.
  const DeviceInfo &info() const { return device; }
  /// The driver entry points.
  const DynamicSymbols &driver() const { return *syms; }
  /// Makes the context current on the calling thread. Every driver object
  /// does this before its calls: a context is current per thread, and
  /// callers such as PyTorch's autograd run backward passes on threads of
  /// their own (CUDA_ERROR_INVALID_CONTEXT there otherwise).
  Status makeCurrent() const;
  /// Waits for all work; reports asynchronous kernel faults
  /// ("kernel execution failed: CUDA_ERROR_ILLEGAL_ADDRESS: ...").
  Status synchronize() const;
  /// The driver handle.
  CUcontext handle() const { return ctx; }

private:
  Context() = default;
  const DynamicSymbols *syms = nullptr;
  CUcontext ctx = nullptr;
  CUdevice dev = 0;
  DeviceInfo device;
};

/// A TMA tensor map to encode (a manifest launch's `tensor_maps` entry).
struct TensorMapSpec {
  /// TileLang dtype name: float16, bfloat16, float32, float64, int32,
  /// int64, uint8/int8/float8_*, uint16/int16, uint32, uint64.
  std::string dtype;
  /// Extents and box, innermost first; byte strides of dims 1..
  std::vector<std::uint64_t> dims, strides;
  std::vector<unsigned> box;
  /// Swizzle bytes (0, 32, 64, 128) and L2 promotion bytes (0, 64, 128,
  /// 256). Interleave none; out-of-bounds elements read as zero.
  int swizzle = 0, l2Promotion = 128;
};

/// Encodes \p spec over the tensor at device address \p address into the
/// 128-byte, 64-byte aligned \p out (cuTensorMapEncodeTiled). Errors name
/// what the driver refused or what is missing.
Status encodeTensorMap(const Context &context, const TensorMapSpec &spec,
                       CUdeviceptr address, void *out);

/// A device allocation.
class Buffer {
public:
  /// Allocates \p bytes (at least 1) on \p context's device.
  static Status create(const Context &context, size_t bytes,
                       std::unique_ptr<Buffer> &out);
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  /// The device address.
  CUdeviceptr address() const { return ptr; }
  /// The size in bytes.
  size_t size() const { return bytes; }
  /// Copies \p count bytes from host \p src to offset \p offset.
  Status upload(const void *src, size_t count, size_t offset = 0);
  /// Copies \p count bytes at offset \p offset to host \p dst.
  Status download(void *dst, size_t count, size_t offset = 0) const;
  /// Sets every byte to \p value.
  Status fill(unsigned char value);

private:
  Buffer() = default;
  const Context *context = nullptr;
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
};

/// Resource usage of a compiled kernel.
struct KernelAttributes {
  int registers = 0;
  int staticSharedMemory = 0;
  int localMemory = 0;
  int maxThreadsPerBlock = 0;
};

/// Grid, block and dynamic shared memory of one launch.
struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned dynamicSharedMemory = 0;
  /// Null: the context's default stream.
  CUstream stream = nullptr;
  /// A cooperative launch (T.sync_grid): every block resident at once.
  bool cooperative = false;
};

/// A kernel of a loaded Module (valid while the module lives).
class Kernel {
public:
  /// The kernel's symbol name.
  const std::string &name() const { return symbol; }
  /// Registers, static shared memory, local memory, thread limit.
  Status getAttributes(KernelAttributes &out) const;
  /// Raises the kernel's dynamic shared memory limit to \p bytes
  /// (cuFuncSetAttribute); needed above 48 KB. Fails with a readable error
  /// when the device cannot give that much.
  Status setMaxDynamicSharedMemory(int bytes);
  /// Launches with \p config and the kernel parameters \p args (one pointer
  /// per parameter, as cuLaunchKernel takes them). Raises the dynamic shared
  /// memory limit first when the launch needs more than 48 KB. Checks the
  /// launch shape against the device's limits before calling the driver.
  Status launch(const LaunchConfig &config, void **args);

private:
  friend class Module;
  const Context *context = nullptr;
  CUfunction function = nullptr;
  std::string symbol;
  int dynamicSharedLimit = kDefaultDynamicSharedMemoryLimit;
};

/// A loaded cubin, fatbin or PTX image.
class Module {
public:
  /// Loads the file at \p path (cubin, fatbin, or PTX text).
  static Status loadFile(const Context &context, const std::string &path,
                         std::unique_ptr<Module> &out);
  /// Loads an in-memory image; \p label names it in errors. PTX must be
  /// NUL-terminated; the JIT's error log is part of the error message.
  static Status loadImage(const Context &context, const void *image,
                          const std::string &label,
                          std::unique_ptr<Module> &out);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// Looks up the `extern "C"` kernel \p name. The returned pointer stays
  /// owned by the module.
  Status getKernel(const std::string &name, Kernel *&out);

private:
  Module() = default;
  const Context *context = nullptr;
  CUmodule module = nullptr;
  std::string label;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
};

/// A pair of device events measuring elapsed device time on a stream.
class Timer {
public:
  /// Creates the two events.
  static Status create(const Context &context, std::unique_ptr<Timer> &out);
  ~Timer();
  Timer(const Timer &) = delete;
  Timer &operator=(const Timer &) = delete;

  /// Records the start event on \p stream.
  Status start(CUstream stream = nullptr);
  /// Records the stop event on \p stream.
  Status stop(CUstream stream = nullptr);
  /// Waits for the stop event and returns the elapsed milliseconds.
  Status elapsedMilliseconds(float &out);

private:
  Timer() = default;
  const Context *context = nullptr;
  CUevent begin = nullptr, end = nullptr;
};

/// Reads a whole file; the error names the path.
Status readFile(const std::string &path, std::vector<char> &out);

} // namespace tlc::runtime::cuda

#endif // TLC_RUNTIME_CUDA_DRIVEROBJECTS_H
