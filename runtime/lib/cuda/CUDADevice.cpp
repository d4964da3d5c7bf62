//===- CUDADevice.cpp - The CUDA device of tlc-run ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `cuda` Device on top of tlc's CUDA runtime (runtime/cuda,
// TLCRuntimeCUDA): the one loader of libcuda.so.1 (DynamicSymbols), the
// primary context of device 0, buffers, modules and device-event timers.
// A kernel instance loads the manifest's binary (cubin or fatbin) and runs
// its launches in order: grid extents evaluated from the symbols, block and
// dynamic shared memory from the manifest, arguments = the parameters then
// the symbols as `long long`.
//
//===----------------------------------------------------------------------===//

#include "tlc/Runtime/CUDA/CUDADevice.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/runtime/Device.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <climits>
#include <map>

using namespace tlc;
using namespace tlc::runtime;
namespace cu = tlc::runtime::cuda;

namespace {

llvm::Error toError(const cu::Status &status) {
  if (status.ok())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 status.message());
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// One launch of an instance, resolved against its module.
struct CudaLaunchPlan {
  cu::Kernel *kernel = nullptr;
  std::vector<artifact::ShapeExpr> grid;
  unsigned block[3] = {1, 1, 1};
  unsigned dynamicSharedMemory = 0;
};

class CudaKernelInstance final : public runtime::Kernel {
public:
  CudaKernelInstance(const cu::Context &context, artifact::Manifest manifest,
                     std::unique_ptr<cu::Module> module,
                     std::vector<CudaLaunchPlan> plans)
      : context(context), manifest(std::move(manifest)),
        module(std::move(module)), plans(std::move(plans)) {}

  llvm::Error run(const LaunchArgs &args) override {
    if (llvm::Error e = launchAll(args))
      return e;
    return toError(context.synchronize());
  }

  llvm::Expected<double> timeRun(const LaunchArgs &args) override {
    std::unique_ptr<cu::Timer> timer;
    if (llvm::Error e = toError(cu::Timer::create(context, timer)))
      return std::move(e);
    if (llvm::Error e = toError(timer->start()))
      return std::move(e);
    if (llvm::Error e = launchAll(args))
      return std::move(e);
    if (llvm::Error e = toError(timer->stop()))
      return std::move(e);
    float ms = 0;
    if (llvm::Error e = toError(timer->elapsedMilliseconds(ms)))
      return std::move(e);
    if (llvm::Error e = toError(context.synchronize()))
      return std::move(e);
    return static_cast<double>(ms);
  }

private:
  /// Enqueues every launch (no synchronisation).
  llvm::Error launchAll(const LaunchArgs &args) {
    if (args.params.size() != manifest.params.size())
      return makeError("kernel '" + manifest.name + "' takes " +
                       llvm::Twine(manifest.params.size()) +
                       " parameters, got " + llvm::Twine(args.params.size()));
    if (args.symbols.size() != manifest.symbols.size())
      return makeError("kernel '" + manifest.name + "' takes " +
                       llvm::Twine(manifest.symbols.size()) +
                       " symbols, got " + llvm::Twine(args.symbols.size()));
    // cuLaunchKernel takes one pointer per kernel parameter: to the device
    // address of a tensor, to the value of a scalar, to each symbol.
    std::vector<cu::CUdeviceptr> addresses(manifest.params.size());
    std::vector<long long> symbols(args.symbols.begin(), args.symbols.end());
    std::vector<void *> kernelArgs;
    for (size_t i = 0; i < manifest.params.size(); ++i) {
      if (manifest.params[i].isTensor) {
        addresses[i] = reinterpret_cast<cu::CUdeviceptr>(args.params[i]);
        kernelArgs.push_back(&addresses[i]);
      } else {
        kernelArgs.push_back(args.params[i]);
      }
    }
    for (long long &s : symbols)
      kernelArgs.push_back(&s);
    llvm::StringMap<int64_t> values;
    for (auto [sym, value] : llvm::zip(manifest.symbols, args.symbols))
      values[sym.name] = value;
    auto lookup = [&](llvm::StringRef name) -> std::optional<int64_t> {
      auto it = values.find(name);
      if (it == values.end())
        return std::nullopt;
      return it->second;
    };
    for (CudaLaunchPlan &plan : plans) {
      cu::LaunchConfig config;
      for (size_t d = 0; d < plan.grid.size(); ++d) {
        auto e = plan.grid[d].evaluate(lookup);
        if (!e)
          return e.takeError();
        int64_t v = *e;
        if (v <= 0 || v > INT_MAX)
          return makeError("kernel '" + manifest.name + "': grid extent " +
                           llvm::Twine(d) + " is " + llvm::Twine(v));
        config.grid[d] = static_cast<unsigned>(v);
      }
      for (unsigned d = 0; d < 3; ++d)
        config.block[d] = plan.block[d];
      config.dynamicSharedMemory = plan.dynamicSharedMemory;
      if (llvm::Error e =
              toError(plan.kernel->launch(config, kernelArgs.data())))
        return e;
    }
    return llvm::Error::success();
  }

  const cu::Context &context;
  artifact::Manifest manifest;
  std::unique_ptr<cu::Module> module;
  std::vector<CudaLaunchPlan> plans;
};

class CudaDevice final : public Device {
public:
  explicit CudaDevice(std::unique_ptr<cu::Context> context)
      : context(std::move(context)) {}

  llvm::StringRef getKind() const override { return "cuda"; }
  std::string describe() const override {
    const cu::DeviceInfo &info = context->info();
    return "cuda (" + info.name + ", " + info.archName() + ")";
  }
  bool canRun(llvm::StringRef target) const override {
    return target.starts_with("cuda");
  }
  llvm::Expected<void *> allocate(size_t bytes) override {
    std::unique_ptr<cu::Buffer> buffer;
    if (llvm::Error e = toError(cu::Buffer::create(*context, bytes, buffer)))
      return std::move(e);
    void *address = reinterpret_cast<void *>(buffer->address());
    buffers[address] = std::move(buffer);
    return address;
  }
  void release(void *ptr) override { buffers.erase(ptr); }
  llvm::Error copyToDevice(void *dst, const void *src, size_t bytes) override {
    auto it = buffers.find(dst);
    if (it == buffers.end())
      return makeError("copy to an address allocate() did not return");
    return toError(it->second->upload(src, bytes));
  }
  llvm::Error copyToHost(void *dst, const void *src, size_t bytes) override {
    auto it = buffers.find(const_cast<void *>(src));
    if (it == buffers.end())
      return makeError("copy from an address allocate() did not return");
    return toError(it->second->download(dst, bytes));
  }
  llvm::Expected<std::unique_ptr<runtime::Kernel>>
  loadKernel(const artifact::Manifest &m, llvm::StringRef dir) override {
    if (!canRun(m.target))
      return makeError("kernel '" + m.name + "' was built for target '" +
                       m.target +
                       "', not for CUDA (build it with tlc-build "
                       "--target=cuda:sm_90a -o DIR)");
    llvm::SmallString<256> binary(dir);
    llvm::sys::path::append(binary, m.binary);
    std::unique_ptr<cu::Module> module;
    if (llvm::Error e = toError(
            cu::Module::loadFile(*context, binary.str().str(), module)))
      return std::move(e);
    std::vector<CudaLaunchPlan> plans;
    for (const artifact::Launch &l : m.launches) {
      CudaLaunchPlan plan;
      std::string entry = l.entry.empty() ? m.entry : l.entry;
      if (llvm::Error e = toError(module->getKernel(entry, plan.kernel)))
        return std::move(e);
      if (l.grid.empty() || l.grid.size() > 3 || l.block.empty() ||
          l.block.size() > 3)
        return makeError("kernel '" + m.name +
                         "': a launch needs 1 to 3 grid and block extents");
      for (const artifact::Extent &g : l.grid) {
        if (g.isStatic) {
          plan.grid.push_back(artifact::ShapeExpr::constant(g.value));
          continue;
        }
        auto expr = artifact::ShapeExpr::parse(g.expr);
        if (!expr)
          return expr.takeError();
        plan.grid.push_back(*expr);
      }
      for (size_t d = 0; d < l.block.size(); ++d) {
        if (!l.block[d].isStatic)
          return makeError("kernel '" + m.name +
                           "': symbolic block extents are not supported");
        plan.block[d] = static_cast<unsigned>(l.block[d].value);
      }
      plan.dynamicSharedMemory =
          static_cast<unsigned>(l.dynamicSharedMemory);
      plans.push_back(std::move(plan));
    }
    return std::make_unique<CudaKernelInstance>(*context, m, std::move(module),
                                                std::move(plans));
  }

private:
  std::unique_ptr<cu::Context> context;
  std::map<void *, std::unique_ptr<cu::Buffer>> buffers;
};

} // namespace

llvm::Expected<std::unique_ptr<Device>> tlc::runtime::openCudaDevice() {
  cu::Status status;
  if (!cu::getDriver(status))
    return makeError("no CUDA driver found (" + status.message() + ")");
  std::unique_ptr<cu::Context> context;
  if (llvm::Error e = toError(cu::Context::create(0, context)))
    return std::move(e);
  return std::make_unique<CudaDevice>(std::move(context));
}
