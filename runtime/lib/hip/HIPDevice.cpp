//===- HIPDevice.cpp - The HIP device of tlc-run --------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `hip` Device: libamdhip64.so opened with dlopen and bound through
// HIPSymbols.def (no link-time dependency), device 0, buffers from
// hipMalloc, the artifact's code object (NAME.hsaco, or the offload bundle
// NAME.hipfb with one per CDNA architecture: the runtime picks the GPU's)
// loaded with hipModuleLoadData, and each launch of the manifest issued with
// hipModuleLaunchKernel in order: grid from the symbols (planLaunch, as
// for cuda and sim), block and dynamic LDS from the manifest, arguments =
// the parameters, the launch's workspaces (allocated per run, filled with
// 0xFF bytes like the cuda device's), then the symbols as `long long`.
//
// Kernel::enqueue (tlc_hip.h's C API, the Python package on ROCm torch)
// issues the launches on the caller's stream with the caller's workspaces
// and returns at once. The device is made current around each call where
// the calling thread's current device is another (torch's), which is
// restored after.
//
// A launch whose kernel calls T.sync_grid is cooperative
// (hipModuleLaunchCooperativeKernel, after checking that every block fits
// the device at once; a runtime without it refuses the kernel at load).
//
// Nothing here has run on AMD hardware: no AMD GPU exists where tlc is
// developed. Without libamdhip64 or a GPU, openHipDevice() says which.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/BinaryCheck.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/Target/Artifact/SharedMemoryLimits.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/DynamicLibrary.h"
#include "tlc/runtime/LaunchPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <climits>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>

using namespace tlc;
using namespace tlc::runtime;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

struct HIPSymbols {
#define TLC_SYMBOL_REQUIRED(name, result, params)                              \
  result(*name) params = nullptr;
#include "HIPSymbols.def"

  llvm::Error load(const DynamicLibrary &lib) {
#define TLC_SYMBOL_REQUIRED(name, result, params)                              \
  name = reinterpret_cast<decltype(name)>(lib.lookup(#name));                  \
  if (!name)                                                                   \
    return makeError("the HIP runtime " + lib.getName() + " lacks '" #name "'");
#define TLC_SYMBOL_OPTIONAL(name, result, params)                              \
  name = reinterpret_cast<decltype(name)>(lib.lookup(#name));
#include "HIPSymbols.def"
    return llvm::Error::success();
  }

  /// Success, or the error of a failed call \p what.
  llvm::Error check(int status, const llvm::Twine &what) const {
    if (status == 0)
      return llvm::Error::success();
    const char *text = hipGetErrorString ? hipGetErrorString(status) : nullptr;
    return makeError(what + " failed: " + (text ? text : "hipError_t ") + " (" +
                     llvm::Twine(status) + ")");
  }
};

/// The library and its symbols, shared by the device and its kernels.
struct HIPRuntime {
  DynamicLibrary lib;
  HIPSymbols hip;
  /// The device's ordinal.
  int ordinal = 0;
};

/// Makes the runtime's device current for the scope, where the calling
/// thread's is another (torch's current device, say), and restores it.
class DeviceScope {
public:
  explicit DeviceScope(const HIPRuntime &rt) : hip(rt.hip) {
    if (hip.hipGetDevice(&previous) == 0 && previous != rt.ordinal &&
        hip.hipSetDevice(rt.ordinal) == 0)
      restore = true;
  }
  ~DeviceScope() {
    if (restore)
      hip.hipSetDevice(previous);
  }

private:
  const HIPSymbols &hip;
  int previous = 0;
  bool restore = false;
};

class HIPKernelInstance final : public runtime::Kernel {
public:
  struct Launch : runtime::LaunchPlan {
    void *function = nullptr;
  };
  HIPKernelInstance(std::shared_ptr<HIPRuntime> rt, artifact::Manifest m,
                    void *module, std::vector<Launch> launches)
      : rt(std::move(rt)), manifest(std::move(m)), module(module),
        launches(std::move(launches)) {}
  ~HIPKernelInstance() override {
    DeviceScope scope(*rt);
    rt->hip.hipModuleUnload(module);
  }

  llvm::Error run(const LaunchArgs &args) override {
    DeviceScope scope(*rt);
    std::vector<void *> workspaces;
    llvm::Error e = allocateWorkspaces(args, workspaces);
    if (!e)
      e = launchAll(args, workspaces);
    llvm::Error sync =
        rt->hip.check(rt->hip.hipDeviceSynchronize(), "hipDeviceSynchronize");
    for (void *w : workspaces)
      rt->hip.hipFree(w);
    if (e) {
      llvm::consumeError(std::move(sync));
      return e;
    }
    return sync;
  }

  /// With the caller's workspaces: the launches on args.stream, not waited
  /// for. Without them (a manifest with workspaces): run(), which waits.
  llvm::Error enqueue(const LaunchArgs &args) override {
    if (args.workspaces.size() != manifest.workspaces.size())
      return run(args);
    DeviceScope scope(*rt);
    return launchAll(args, args.workspaces);
  }

  llvm::Expected<double> timeRun(const LaunchArgs &args) override {
    DeviceScope scope(*rt);
    const HIPSymbols &hip = rt->hip;
    std::vector<void *> workspaces;
    void *start = nullptr, *stop = nullptr;
    auto cleanup = [&]() {
      (void)hip.hipDeviceSynchronize();
      for (void *w : workspaces)
        hip.hipFree(w);
      if (start)
        hip.hipEventDestroy(start);
      if (stop)
        hip.hipEventDestroy(stop);
    };
    float ms = 0;
    llvm::Error e = allocateWorkspaces(args, workspaces);
    if (!e)
      e = hip.check(hip.hipEventCreate(&start), "hipEventCreate");
    if (!e)
      e = hip.check(hip.hipEventCreate(&stop), "hipEventCreate");
    if (!e)
      e = hip.check(hip.hipDeviceSynchronize(), "hipDeviceSynchronize");
    if (!e)
      e = hip.check(hip.hipEventRecord(start, nullptr), "hipEventRecord");
    if (!e)
      e = launchAll(args, workspaces);
    if (!e)
      e = hip.check(hip.hipEventRecord(stop, nullptr), "hipEventRecord");
    if (!e)
      e = hip.check(hip.hipEventSynchronize(stop), "hipEventSynchronize");
    if (!e)
      e = hip.check(hip.hipEventElapsedTime(&ms, start, stop),
                    "hipEventElapsedTime");
    cleanup();
    if (e)
      return std::move(e);
    return double(ms);
  }

private:
  std::optional<int64_t> symbol(const LaunchArgs &args,
                                llvm::StringRef name) const {
    for (auto [s, v] : llvm::zip(manifest.symbols, args.symbols))
      if (s.name == name)
        return v;
    return std::nullopt;
  }

  /// Every workspace at the size the symbols give, filled with 0xFF bytes.
  llvm::Error allocateWorkspaces(const LaunchArgs &args,
                                 std::vector<void *> &out) {
    const HIPSymbols &hip = rt->hip;
    auto lookup = [&](llvm::StringRef n) { return symbol(args, n); };
    for (const artifact::Workspace &w : manifest.workspaces) {
      int64_t bytes = w.bytes.value;
      if (!w.bytes.isStatic) {
        auto expr = artifact::ShapeExpr::parse(w.bytes.expr);
        if (!expr)
          return expr.takeError();
        auto v = expr->evaluate(lookup);
        if (!v)
          return v.takeError();
        bytes = *v;
      }
      void *p = nullptr;
      size_t n = size_t(std::max<int64_t>(bytes, 1));
      if (llvm::Error e = hip.check(hip.hipMalloc(&p, n),
                                    "hipMalloc of workspace '" + w.name + "'"))
        return e;
      out.push_back(p);
      if (llvm::Error e = hip.check(hip.hipMemset(p, 0xFF, n), "hipMemset"))
        return e;
    }
    return llvm::Error::success();
  }

  llvm::Error launchAll(const LaunchArgs &args,
                        const std::vector<void *> &workspaces) {
    if (args.params.size() != manifest.params.size() ||
        args.symbols.size() != manifest.symbols.size())
      return makeError("kernel '" + manifest.name + "' takes " +
                       llvm::Twine(manifest.params.size()) +
                       " parameters and " +
                       llvm::Twine(manifest.symbols.size()) + " symbols");
    // hipModuleLaunchKernel takes a pointer to each argument's value.
    std::vector<void *> addresses(args.params.begin(), args.params.end());
    std::vector<void *> wsAddresses(workspaces.begin(), workspaces.end());
    std::vector<long long> symbols(args.symbols.begin(), args.symbols.end());
    std::vector<void *> params;
    for (size_t i = 0; i < manifest.params.size(); ++i)
      params.push_back(manifest.params[i].isTensor ? &addresses[i]
                                                   : args.params[i]);
    auto lookup = [&](llvm::StringRef n) { return symbol(args, n); };
    // tlc does not query the HIP device's attributes: the limit is the
    // target's (64 KiB of LDS on gfx942).
    std::optional<int64_t> ldsLimit =
        artifact::getSharedMemoryPerBlock(manifest.target);
    for (Launch &l : launches) {
      llvm::Expected<runtime::LaunchSize> size = runtime::sizeLaunch(
          manifest, l, lookup, ldsLimit, manifest.target);
      if (!size)
        return size.takeError();
      if (size->isEmpty())
        continue; // a grid of 0 blocks (M = 0): nothing to run
      std::vector<void *> kernelArgs = params;
      for (size_t w : l.workspaces)
        kernelArgs.push_back(&wsAddresses[w]);
      for (long long &s : symbols)
        kernelArgs.push_back(&s);
      const unsigned *grid = size->grid;
      if (l.cooperative) {
        if (llvm::Error e =
                launchCooperative(l, *size, kernelArgs, args.stream))
          return e;
        continue;
      }
      if (llvm::Error e = rt->hip.check(
              rt->hip.hipModuleLaunchKernel(
                  l.function, grid[0], grid[1], grid[2], l.block[0], l.block[1],
                  l.block[2], size->dynamicSharedMemory, args.stream,
                  kernelArgs.data(), nullptr),
              "hipModuleLaunchKernel of '" + l.entry + "'"))
        return e;
    }
    return llvm::Error::success();
  }

  /// T.sync_grid: every block must be resident at once, or the blocks at
  /// the barrier wait forever for ones that never start (as on CUDA).
  llvm::Error launchCooperative(const Launch &l,
                                const runtime::LaunchSize &size,
                                std::vector<void *> &kernelArgs, void *stream) {
    const HIPSymbols &hip = rt->hip;
    // hipDeviceAttributeMultiprocessorCount in hip_runtime_api.h's
    // hipDeviceAttribute_t (ROCm 5.x; CDNA: compute units).
    constexpr int kMultiprocessorCount = 63;
    int units = 0, perUnit = 0;
    unsigned threads = l.block[0] * l.block[1] * l.block[2];
    if (llvm::Error e =
            hip.check(hip.hipDeviceGetAttribute(&units, kMultiprocessorCount,
                                                rt->ordinal),
                      "hipDeviceGetAttribute (compute units)"))
      return e;
    if (llvm::Error e = hip.check(
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
                &perUnit, l.function, int(threads), size.dynamicSharedMemory),
            "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor"))
      return e;
    const unsigned *grid = size.grid;
    unsigned long long blocks = 1ull * grid[0] * grid[1] * grid[2];
    unsigned long long resident =
        1ull * std::max(perUnit, 0) * std::max(units, 0);
    if (blocks > resident)
      return makeError("kernel '" + manifest.name + "' calls T.sync_grid, " +
                       "so all " + llvm::Twine(blocks) +
                       " blocks must be resident at once; the device holds " +
                       llvm::Twine(resident) + " (" + llvm::Twine(perUnit) +
                       " per compute unit x " + llvm::Twine(units) +
                       " compute units)");
    return hip.check(hip.hipModuleLaunchCooperativeKernel(
                         l.function, grid[0], grid[1], grid[2], l.block[0],
                         l.block[1], l.block[2], size.dynamicSharedMemory,
                         stream, kernelArgs.data()),
                     "hipModuleLaunchCooperativeKernel of '" + l.entry + "'");
  }

  std::shared_ptr<HIPRuntime> rt;
  artifact::Manifest manifest;
  void *module;
  std::vector<Launch> launches;
};

class HIPDevice final : public Device {
public:
  HIPDevice(std::shared_ptr<HIPRuntime> rt, std::string name)
      : rt(std::move(rt)), name(std::move(name)) {}
  ~HIPDevice() override {
    DeviceScope scope(*rt);
    for (void *p : buffers)
      rt->hip.hipFree(p);
  }

  llvm::StringRef getKind() const override { return "hip"; }
  std::string describe() const override { return "hip (" + name + ")"; }
  bool canRun(llvm::StringRef target) const override {
    return target.starts_with("hip");
  }
  llvm::Expected<void *> allocate(size_t bytes) override {
    DeviceScope scope(*rt);
    void *p = nullptr;
    if (llvm::Error e = rt->hip.check(rt->hip.hipMalloc(&p, bytes ? bytes : 1),
                                      "hipMalloc"))
      return std::move(e);
    buffers.push_back(p);
    return p;
  }
  void release(void *ptr) override {
    auto it = llvm::find(buffers, ptr);
    if (it == buffers.end())
      return;
    DeviceScope scope(*rt);
    rt->hip.hipFree(ptr);
    buffers.erase(it);
  }
  llvm::Error copyToDevice(void *dst, const void *src, size_t bytes) override {
    DeviceScope scope(*rt);
    return rt->hip.check(rt->hip.hipMemcpyHtoD(dst, src, bytes),
                         "hipMemcpyHtoD");
  }
  llvm::Error copyToHost(void *dst, const void *src, size_t bytes) override {
    DeviceScope scope(*rt);
    return rt->hip.check(
        rt->hip.hipMemcpyDtoH(dst, const_cast<void *>(src), bytes),
        "hipMemcpyDtoH");
  }
  llvm::Expected<std::unique_ptr<runtime::Kernel>>
  loadKernel(const artifact::Manifest &m, llvm::StringRef dir) override {
    DeviceScope scope(*rt);
    if (!canRun(m.target))
      return makeError("kernel '" + m.name + "' was built for target '" +
                       m.target +
                       "', not for HIP (build it with tlc-build "
                       "--target=hip:gfx942 -o DIR)");
    llvm::SmallString<256> binary(dir);
    llvm::sys::path::append(binary, m.binary);
    auto image = llvm::MemoryBuffer::getFile(binary, /*IsText=*/false);
    if (!image)
      return makeError("cannot read the code object '" + binary +
                       "': " + image.getError().message());
    if (llvm::Error e = artifact::checkBinaryImage((*image)->getBuffer()))
      return makeError("code object '" + binary + "' is damaged (" +
                       llvm::toString(std::move(e)) +
                       "); build it again with tlc-build");
    void *module = nullptr;
    if (llvm::Error e = rt->hip.check(
            rt->hip.hipModuleLoadData(&module, (*image)->getBufferStart()),
            "hipModuleLoadData of '" + binary + "'"))
      return std::move(e);
    std::vector<HIPKernelInstance::Launch> launches;
    for (const artifact::Launch &l : m.launches) {
      llvm::Expected<runtime::LaunchPlan> planned = runtime::planLaunch(m, l);
      if (!planned) {
        rt->hip.hipModuleUnload(module);
        return planned.takeError();
      }
      if (planned->cooperative &&
          (!rt->hip.hipModuleLaunchCooperativeKernel ||
           !rt->hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor ||
           !rt->hip.hipDeviceGetAttribute)) {
        rt->hip.hipModuleUnload(module);
        return makeError("kernel '" + m.name + "' (" + l.location +
                         ") calls T.sync_grid: the HIP runtime " +
                         rt->lib.getName() +
                         " has no hipModuleLaunchCooperativeKernel (or "
                         "occupancy query) to launch it cooperatively");
      }
      HIPKernelInstance::Launch launch;
      static_cast<runtime::LaunchPlan &>(launch) = std::move(*planned);
      if (llvm::Error e =
              rt->hip.check(rt->hip.hipModuleGetFunction(
                                &launch.function, module, launch.entry.c_str()),
                            "hipModuleGetFunction of '" + launch.entry + "'")) {
        rt->hip.hipModuleUnload(module);
        return std::move(e);
      }
      launches.push_back(std::move(launch));
    }
    return std::make_unique<HIPKernelInstance>(rt, m, module,
                                               std::move(launches));
  }

private:
  std::shared_ptr<HIPRuntime> rt;
  std::string name;
  std::vector<void *> buffers;
};

} // namespace

namespace {
/// libamdhip64 (or $TLC_HIP_LIBRARY) loaded, bound and initialised, for
/// device \p ordinal; \p count receives the number of devices. An error
/// says whether the runtime or a GPU is missing.
llvm::Expected<std::shared_ptr<HIPRuntime>> loadRuntime(int ordinal,
                                                        int &count) {
  const char *names[] = {"libamdhip64.so", "libamdhip64.so.6",
                         "libamdhip64.so.5"};
  // $TLC_HIP_LIBRARY: another library instead (tests name a missing one).
  const char *library = std::getenv("TLC_HIP_LIBRARY");
  auto lib = library && *library
                 ? DynamicLibrary::open(llvm::ArrayRef<const char *>(library))
                 : DynamicLibrary::open(names);
  if (!lib)
    return makeError("no HIP runtime found (" +
                     llvm::toString(lib.takeError()) + ")");
  auto rt =
      std::make_shared<HIPRuntime>(HIPRuntime{std::move(*lib), {}, ordinal});
  if (llvm::Error e = rt->hip.load(rt->lib))
    return std::move(e);
  count = 0;
  int status = rt->hip.hipInit(0);
  if (status == 0)
    status = rt->hip.hipGetDeviceCount(&count);
  if (status != 0 || count == 0)
    return makeError(
        "no HIP device: the HIP runtime " + rt->lib.getName() +
        " is installed but finds no AMD GPU" +
        (status ? " (" + std::string(rt->hip.hipGetErrorString(status)) + ")"
                : std::string()));
  return rt;
}
} // namespace

int tlc::runtime::countHipDevices() {
  int count = 0;
  auto rt = loadRuntime(0, count);
  if (!rt) {
    llvm::consumeError(rt.takeError());
    return 0;
  }
  return count;
}

llvm::Expected<std::unique_ptr<Device>>
tlc::runtime::openHipDevice(int ordinal) {
  int count = 0;
  auto loaded = loadRuntime(ordinal, count);
  if (!loaded)
    return loaded.takeError();
  std::shared_ptr<HIPRuntime> rt = std::move(*loaded);
  if (ordinal < 0 || ordinal >= count)
    return makeError("no HIP device " + llvm::Twine(ordinal) +
                     ": the HIP "
                     "runtime finds " +
                     llvm::Twine(count) + " AMD GPU" + (count == 1 ? "" : "s"));
  std::string name = "device " + std::to_string(ordinal);
  char buf[256] = {};
  if (rt->hip.hipDeviceGetName &&
      rt->hip.hipDeviceGetName(buf, sizeof(buf) - 1, ordinal) == 0 && buf[0])
    name = buf;
  return std::make_unique<HIPDevice>(std::move(rt), std::move(name));
}
