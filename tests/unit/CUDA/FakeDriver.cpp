//===- FakeDriver.cpp - A host-memory stand-in for libcuda.so.1 -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Built as a shared library that exports the driver entry points of
// CUDASymbols.def with the driver's ABI, so the unit tests can exercise the
// runtime's loader, error reporting and launch logic without a GPU. "Device"
// memory is host memory; the one kernel, `add_one(float *p, int n)`, runs on
// the host. With TLC_FAKE_PARTIAL defined, cuLaunchKernel, cuModuleGetFunction
// and the optional error-text functions are left out.
//
// Behaviour is steered by environment variables: TLC_FAKE_CUDA_INIT (result
// of cuInit), TLC_FAKE_CUDA_DEVICES (device count), TLC_FAKE_CUDA_SYNC
// (result of cuCtxSynchronize), TLC_FAKE_CUDA_KERNELS="P,K[,W]" (every
// kernel name containing `_kernel` exists; launching one prints its name,
// grid, block, dynamic shared memory, the W workspace pointers after the P
// parameters -- allocation number, size, and whether every byte still holds
// the 0xFF poison -- and the K `long long` arguments after those to stdout;
// it then zeroes the workspaces and touches no other memory),
// TLC_FAKE_CUDA_TRACE_MEM=1 (print every cuMemAlloc `alloc #N BYTES` and
// cuMemFree `free #N`), TLC_FAKE_CUDA_LAUNCH_FAIL=NAME (launching the
// kernel NAME fails with CUDA_ERROR_LAUNCH_FAILED). Everything printed is also appended to a
// log that tlcFakeCudaLog() returns (for tests that load this library into
// their own process).
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

using CUresult = int;
using CUdeviceptr = unsigned long long;

namespace {
int envInt(const char *name, int fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}
struct FakeFunction {
  std::string name;
  int maxDynamicShared = 48 * 1024;
};
struct FakeEvent {
  double ms = 0;
};
std::map<void *, FakeFunction *> functions;
char fakeContext, fakeModule;
/// Live allocations: address -> (number, bytes).
std::map<CUdeviceptr, std::pair<int, size_t>> allocations;
int numAllocations = 0;
std::string fakeLog;

/// Prints one line to stdout and appends it to the log.
void report(const std::string &text) {
  fakeLog += text + "\n";
  std::printf("fake-cuda: %s\n", text.c_str());
  std::fflush(stdout);
}
} // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

/// Everything reported since the last tlcFakeCudaResetLog().
EXPORT const char *tlcFakeCudaLog() { return fakeLog.c_str(); }
EXPORT void tlcFakeCudaResetLog() { fakeLog.clear(); }
/// Number of live allocations.
EXPORT int tlcFakeCudaLiveAllocations() {
  return static_cast<int>(allocations.size());
}

EXPORT CUresult cuInit(unsigned) { return envInt("TLC_FAKE_CUDA_INIT", 0); }
EXPORT CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return 0;
}
EXPORT CUresult cuDeviceGetCount(int *n) {
  *n = envInt("TLC_FAKE_CUDA_DEVICES", 1);
  return 0;
}
EXPORT CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return 0;
}
EXPORT CUresult cuDeviceGetName(char *name, int len, int) {
  std::strncpy(name, "tlc fake GPU", len);
  return 0;
}
EXPORT CUresult cuDeviceGetAttribute(int *v, int attribute, int) {
  switch (attribute) {
  case 1: *v = 1024; break;        // max threads per block
  case 8: *v = 48 * 1024; break;   // shared memory per block
  case 16: *v = 4; break;          // multiprocessors
  case 38: *v = 1 << 20; break;    // L2
  case 75: *v = 9; break;          // cc major
  case 76: *v = 0; break;          // cc minor
  case 97: *v = 227 * 1024; break; // opt-in shared memory
  default: *v = 0;
  }
  return 0;
}
EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, int) {
  *bytes = size_t(1) << 30;
  return 0;
}
EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  *ctx = &fakeContext;
  return 0;
}
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(int) { return 0; }
// The current context is per thread, as the driver's is: entry points that
// need one fail with CUDA_ERROR_INVALID_CONTEXT (201) on a thread that has
// none (an autograd backward thread, a Python worker thread).
static thread_local void *currentContext = nullptr;
#define TLC_FAKE_NEED_CONTEXT()                                                \
  if (!currentContext)                                                         \
  return 201
EXPORT CUresult cuCtxSetCurrent(void *ctx) {
  currentContext = ctx;
  return 0;
}
EXPORT CUresult cuCtxGetCurrent(void **ctx) {
  *ctx = currentContext;
  return 0;
}
EXPORT CUresult cuCtxSynchronize() { return envInt("TLC_FAKE_CUDA_SYNC", 0); }
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  TLC_FAKE_NEED_CONTEXT();
  if (bytes > (size_t(1) << 30))
    return 2; // out of memory
  *p = reinterpret_cast<CUdeviceptr>(std::malloc(bytes));
  allocations[*p] = {++numAllocations, bytes};
  if (envInt("TLC_FAKE_CUDA_TRACE_MEM", 0))
    report("alloc #" + std::to_string(numAllocations) + " " +
           std::to_string(bytes));
  return 0;
}
EXPORT CUresult cuMemFree_v2(CUdeviceptr p) {
  TLC_FAKE_NEED_CONTEXT();
  auto it = allocations.find(p);
  if (it == allocations.end())
    return p ? 1 : 0; // CUDA_ERROR_INVALID_VALUE
  if (envInt("TLC_FAKE_CUDA_TRACE_MEM", 0))
    report("free #" + std::to_string(it->second.first));
  allocations.erase(it);
  std::free(reinterpret_cast<void *>(p));
  return 0;
}
EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) {
  TLC_FAKE_NEED_CONTEXT();
  std::memcpy(reinterpret_cast<void *>(d), s, n);
  return 0;
}
EXPORT CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) {
  TLC_FAKE_NEED_CONTEXT();
  std::memcpy(d, reinterpret_cast<void *>(s), n);
  return 0;
}
EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) {
  TLC_FAKE_NEED_CONTEXT();
  std::memcpy(reinterpret_cast<void *>(d), reinterpret_cast<void *>(s), n);
  return 0;
}
EXPORT CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) {
  TLC_FAKE_NEED_CONTEXT();
  std::memset(reinterpret_cast<void *>(d), v, n);
  return 0;
}
EXPORT CUresult cuModuleLoadData(void **m, const void *image) {
  TLC_FAKE_NEED_CONTEXT();
  if (std::strncmp(static_cast<const char *>(image), "FAKEMOD", 7) != 0)
    return 200;
  *m = &fakeModule;
  return 0;
}
EXPORT CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n,
                                   int *options, void **values) {
  CUresult r = cuModuleLoadData(m, image);
  for (unsigned i = 0; r && i < n; ++i)
    if (options[i] == 5) // error log buffer
      std::strcpy(static_cast<char *>(values[i]), "fake JIT: not a module");
  return r;
}
EXPORT CUresult cuModuleUnload(void *) { return 0; }
#ifndef TLC_FAKE_PARTIAL
EXPORT CUresult cuModuleGetFunction(void **f, void *, const char *name) {
  bool anyKernel = std::getenv("TLC_FAKE_CUDA_KERNELS") &&
                   std::strstr(name, "_kernel") != nullptr;
  if (std::strcmp(name, "add_one") != 0 && !anyKernel)
    return 500;
  auto *fn = new FakeFunction{name};
  *f = fn;
  functions[fn] = fn;
  return 0;
}
#endif
EXPORT CUresult cuFuncGetAttribute(int *v, int attribute, void *) {
  *v = attribute == 4 ? 32 : attribute == 0 ? 1024 : 0;
  return 0;
}
EXPORT CUresult cuFuncSetAttribute(void *f, int attribute, int value) {
  if (attribute == 8) {
    if (value > 227 * 1024)
      return 1;
    functions[f]->maxDynamicShared = value;
  }
  return 0;
}
#ifndef TLC_FAKE_PARTIAL
EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz,
                               unsigned shared, void *, void **args, void **) {
  TLC_FAKE_NEED_CONTEXT();
  FakeFunction *fn = functions[f];
  if (static_cast<int>(shared) > fn->maxDynamicShared)
    return 1; // the real driver refuses too
  const char *failing = std::getenv("TLC_FAKE_CUDA_LAUNCH_FAIL");
  if (failing && fn->name == failing)
    return 719; // CUDA_ERROR_LAUNCH_FAILED
  if (fn->name != "add_one") {
    int numParams = 0, numSymbols = 0, numWorkspaces = 0;
    std::sscanf(std::getenv("TLC_FAKE_CUDA_KERNELS"), "%d,%d,%d", &numParams,
                &numSymbols, &numWorkspaces);
    char text[256];
    std::snprintf(text, sizeof(text),
                  "launch %s grid %u,%u,%u block %u,%u,%u smem %u",
                  fn->name.c_str(), gx, gy, gz, bx, by, bz, shared);
    std::string line = text;
    for (int i = 0; i < numWorkspaces; ++i) {
      CUdeviceptr p = *static_cast<CUdeviceptr *>(args[numParams + i]);
      auto it = allocations.find(p);
      if (it == allocations.end()) {
        line += " ws" + std::to_string(i) + "=not-allocated";
        continue;
      }
      auto *bytes = reinterpret_cast<unsigned char *>(p);
      bool poisoned = true;
      for (size_t b = 0; b < it->second.second; ++b)
        poisoned &= bytes[b] == 0xFF;
      line += " ws" + std::to_string(i) + "=#" +
              std::to_string(it->second.first) + ":" +
              std::to_string(it->second.second) + "B:" +
              (poisoned ? "poisoned" : "written");
      std::memset(bytes, 0, it->second.second);
    }
    for (int i = 0; i < numSymbols; ++i)
      line += " sym" + std::to_string(i) + "=" +
              std::to_string(*static_cast<long long *>(
                  args[numParams + numWorkspaces + i]));
    report(line);
    return 0;
  }
  float *p = *static_cast<float **>(args[0]);
  int n = *static_cast<int *>(args[1]);
  unsigned long long threads = 1ull * gx * gy * gz * bx * by * bz;
  for (unsigned long long i = 0; i < threads && i < static_cast<unsigned>(n); ++i)
    p[i] += 1.0f;
  return 0;
}
#endif
#ifndef TLC_FAKE_PARTIAL
/// A cooperative launch: reported, then run as cuLaunchKernel runs it.
EXPORT CUresult cuLaunchCooperativeKernel(void *f, unsigned gx, unsigned gy,
                                          unsigned gz, unsigned bx,
                                          unsigned by, unsigned bz,
                                          unsigned shared, void *stream,
                                          void **args) {
  report("cooperative launch");
  return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, stream, args,
                        nullptr);
}
#endif
EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *, int,
                                                            size_t) {
  *n = 1;
  return 0;
}
EXPORT CUresult cuStreamCreate(void **s, unsigned) {
  *s = nullptr;
  return 0;
}
EXPORT CUresult cuStreamDestroy_v2(void *) { return 0; }
EXPORT CUresult cuStreamSynchronize(void *) { return 0; }
EXPORT CUresult cuEventCreate(void **e, unsigned) {
  *e = new FakeEvent();
  return 0;
}
EXPORT CUresult cuEventDestroy_v2(void *e) {
  delete static_cast<FakeEvent *>(e);
  return 0;
}
EXPORT CUresult cuEventRecord(void *e, void *) {
  static_cast<FakeEvent *>(e)->ms =
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count();
  return 0;
}
EXPORT CUresult cuEventSynchronize(void *) { return 0; }
EXPORT CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
  *ms = static_cast<float>(static_cast<FakeEvent *>(b)->ms -
                           static_cast<FakeEvent *>(a)->ms);
  return 0;
}
#ifndef TLC_FAKE_PARTIAL
EXPORT CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = r == 700   ? "CUDA_ERROR_ILLEGAL_ADDRESS"
       : r == 719 ? "CUDA_ERROR_LAUNCH_FAILED"
                  : "CUDA_ERROR_FAKE";
  return 0;
}
EXPORT CUresult cuGetErrorString(CUresult r, const char **s) {
  *s = r == 700 ? "fake: an illegal memory access was encountered"
                : "fake: something failed";
  return 0;
}
#endif
