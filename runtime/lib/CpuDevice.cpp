//===- CpuDevice.cpp - The CPU device -------------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the shared objects of `tlc-build --target=cpu`: memory is host
// memory, a kernel is the entry point `int ENTRY(const tlc_cpu_args *)`.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/BinaryCheck.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/DynamicLibrary.h"
#include "tlc/runtime/Parallel.h"

#include "tlc_device/cpu.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace tlc;
using namespace tlc::runtime;

Kernel::~Kernel() = default;
llvm::Error Kernel::enqueue(const LaunchArgs &args) { return run(args); }
Device::~Device() = default;

namespace {

using EntryFn = int (*)(const tlc_cpu_args *);

class CpuKernel final : public Kernel {
public:
  CpuKernel(DynamicLibrary lib, EntryFn entry, std::string name)
      : lib(std::move(lib)), entry(entry), name(std::move(name)) {}

  llvm::Error run(const LaunchArgs &args) override {
    char message[1024] = {0};
    tlc_cpu_args a;
    a.abiVersion = TLC_CPU_ABI_VERSION;
    a.numParams = uint32_t(args.params.size());
    a.params = args.params.data();
    a.numSymbols = uint32_t(args.symbols.size());
    a.symbols = args.symbols.data();
    a.numWorkers = args.numWorkers > 0
                       ? args.numWorkers
                       : int32_t(std::max(1u, std::thread::hardware_concurrency()));
    a.error = message;
    a.errorSize = sizeof(message);
    if (entry(&a) != 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel '" + name + "' failed: " +
              (message[0] ? std::string(message) : std::string("unknown error")));
    return llvm::Error::success();
  }

  llvm::Expected<double> timeRun(const LaunchArgs &args) override {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error e = run(args))
      return std::move(e);
    auto end = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(end - start).count();
  }

private:
  DynamicLibrary lib;
  EntryFn entry;
  std::string name;
};

class CpuDevice final : public Device {
public:
  llvm::StringRef getKind() const override { return "cpu"; }
  std::string describe() const override {
    return "cpu (" + std::to_string(std::thread::hardware_concurrency()) +
           " hardware threads)";
  }
  bool canRun(llvm::StringRef target) const override { return target == "cpu"; }
  llvm::Expected<void *> allocate(size_t bytes) override {
    void *p = std::calloc(std::max<size_t>(bytes, 1), 1);
    if (!p)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "out of host memory allocating " +
                                         std::to_string(bytes) + " bytes");
    return p;
  }
  void release(void *ptr) override { std::free(ptr); }
  llvm::Error copyToDevice(void *dst, const void *src, size_t bytes) override {
    if (bytes) // An empty tensor's host vector may have no storage at all.
      parallelCopy(dst, src, bytes);
    return llvm::Error::success();
  }
  llvm::Error copyToHost(void *dst, const void *src, size_t bytes) override {
    if (bytes)
      parallelCopy(dst, src, bytes);
    return llvm::Error::success();
  }
  llvm::Expected<std::unique_ptr<Kernel>>
  loadKernel(const artifact::Manifest &m, llvm::StringRef dir) override {
    if (!canRun(m.target))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "kernel '" + m.name + "' was built for target '" + m.target +
              "', which the cpu device cannot run (build with --target=cpu)");
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, m.binary);
    llvm::sys::fs::make_absolute(path);
    if (!llvm::sys::fs::exists(path))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "missing kernel binary '" + path + "'");
    // A shared object cut short faults inside dlopen (SIGBUS).
    if (llvm::Error e = artifact::checkBinaryFile(path))
      return std::move(e);
    const char *names[] = {path.c_str()};
    auto lib = DynamicLibrary::open(names);
    if (!lib)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot load '" + path + "': " +
                                         llvm::toString(lib.takeError()));
    auto entry = reinterpret_cast<EntryFn>(lib->lookup(m.entry.c_str()));
    if (!entry)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'" + path + "' has no entry point '" +
                                         m.entry + "'");
    return std::make_unique<CpuKernel>(std::move(*lib), entry, m.name);
  }
};

} // namespace

std::unique_ptr<Device> tlc::runtime::createCpuDevice() {
  return std::make_unique<CpuDevice>();
}

llvm::Expected<std::unique_ptr<Device>>
tlc::runtime::openDevice(llvm::StringRef kind) {
  if (kind == "cpu")
    return createCpuDevice();
  if (kind == "cuda")
    return openCudaDevice();
  if (kind == "hip")
    return openHipDevice();
  if (kind == "sim")
    return createSimDevice();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown device '" + kind +
                                     "' (expected cpu, cuda, hip or sim)");
}
