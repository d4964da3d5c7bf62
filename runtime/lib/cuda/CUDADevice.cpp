//===- CUDADevice.cpp - The CUDA device (driver API via dlopen) -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Opens libcuda.so.1, binds CUDASymbols.def and finds a device. Memory and
// transfers work; loading and launching cubins is the CUDA back end's work
// (issue 6) and reports so.
//
//===----------------------------------------------------------------------===//

#include "CUDAHeaders.h"

#include "tlc/runtime/Device.h"
#include "tlc/runtime/DynamicLibrary.h"

using namespace tlc;
using namespace tlc::runtime;
using namespace tlc::runtime::cuda;

namespace {

/// The driver entry points (one function pointer per CUDASymbols.def row).
struct CUDASymbols {
#define TLC_SYMBOL_REQUIRED(name, result, params) result(*name) params = nullptr;
#include "CUDASymbols.def"

  /// Resolves every symbol from \p lib; fails on a missing REQUIRED one.
  llvm::Error load(const DynamicLibrary &lib) {
#define TLC_SYMBOL_REQUIRED(name, result, params)                              \
  name = reinterpret_cast<decltype(name)>(lib.lookup(#name));                 \
  if (!name)                                                                   \
    return llvm::createStringError(llvm::inconvertibleErrorCode(),             \
                                   "the CUDA driver " + lib.getName() +        \
                                       " lacks '" #name "' (driver too old?)");
#define TLC_SYMBOL_OPTIONAL(name, result, params)                              \
  name = reinterpret_cast<decltype(name)>(lib.lookup(#name));
#include "CUDASymbols.def"
    return llvm::Error::success();
  }
};

class CudaDevice final : public Device {
public:
  CudaDevice(DynamicLibrary lib, CUDASymbols syms, CUdevice dev,
             CUcontext ctx, std::string name)
      : lib(std::move(lib)), cu(syms), dev(dev), ctx(ctx),
        name(std::move(name)) {}
  ~CudaDevice() override { cu.cuDevicePrimaryCtxRelease_v2(dev); }

  llvm::StringRef getKind() const override { return "cuda"; }
  std::string describe() const override { return "cuda (" + name + ")"; }
  bool canRun(llvm::StringRef target) const override {
    return target.starts_with("cuda");
  }
  llvm::Error check(CUresult r, const char *what) const {
    if (r == kSuccess)
      return llvm::Error::success();
    const char *s = nullptr;
    cu.cuGetErrorString(r, &s);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   std::string(what) + " failed: " +
                                       (s ? s : "error " + std::to_string(r)));
  }
  llvm::Expected<void *> allocate(size_t bytes) override {
    CUdeviceptr p = 0;
    if (llvm::Error e = check(cu.cuMemAlloc_v2(&p, bytes ? bytes : 1), "cuMemAlloc"))
      return std::move(e);
    return reinterpret_cast<void *>(p);
  }
  void release(void *ptr) override {
    cu.cuMemFree_v2(reinterpret_cast<CUdeviceptr>(ptr));
  }
  llvm::Error copyToDevice(void *dst, const void *src, size_t bytes) override {
    return check(cu.cuMemcpyHtoD_v2(reinterpret_cast<CUdeviceptr>(dst), src, bytes),
                 "cuMemcpyHtoD");
  }
  llvm::Error copyToHost(void *dst, const void *src, size_t bytes) override {
    return check(cu.cuMemcpyDtoH_v2(dst, reinterpret_cast<CUdeviceptr>(src), bytes),
                 "cuMemcpyDtoH");
  }
  llvm::Expected<std::unique_ptr<Kernel>>
  loadKernel(const artifact::Manifest &m, llvm::StringRef) override {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "loading CUDA kernels ('" + m.name +
            "') is not implemented yet (CUDA back end, issue 6)");
  }

private:
  DynamicLibrary lib;
  CUDASymbols cu;
  CUdevice dev;
  CUcontext ctx;
  std::string name;
};

} // namespace

llvm::Expected<std::unique_ptr<Device>> tlc::runtime::openCudaDevice() {
  const char *names[] = {"libcuda.so.1", "libcuda.so"};
  auto lib = DynamicLibrary::open(names);
  if (!lib)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no CUDA driver found (" +
                                       llvm::toString(lib.takeError()) + ")");
  CUDASymbols cu;
  if (llvm::Error e = cu.load(*lib))
    return std::move(e);
  auto fail = [&](CUresult r, const char *what) -> llvm::Error {
    const char *s = nullptr;
    cu.cuGetErrorString(r, &s);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   std::string(what) + " failed: " +
                                       (s ? s : "error " + std::to_string(r)));
  };
  if (CUresult r = cu.cuInit(0))
    return fail(r, "cuInit");
  int count = 0;
  if (CUresult r = cu.cuDeviceGetCount(&count))
    return fail(r, "cuDeviceGetCount");
  if (count == 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no CUDA device (the driver reports none)");
  CUdevice dev = 0;
  if (CUresult r = cu.cuDeviceGet(&dev, 0))
    return fail(r, "cuDeviceGet");
  char name[256] = {0};
  cu.cuDeviceGetName(name, sizeof(name), dev);
  CUcontext ctx = nullptr;
  if (CUresult r = cu.cuDevicePrimaryCtxRetain(&ctx, dev))
    return fail(r, "cuDevicePrimaryCtxRetain");
  if (CUresult r = cu.cuCtxSetCurrent(ctx))
    return fail(r, "cuCtxSetCurrent");
  return std::make_unique<CudaDevice>(std::move(*lib), cu, dev, ctx, name);
}
