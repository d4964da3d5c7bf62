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
// its launches in order on the context's default stream: grid extents
// evaluated from the symbols, block and dynamic shared memory from the
// manifest, arguments = the parameters, the launch's workspaces, the
// symbols as `long long`, then the launch's TMA tensor maps, encoded over
// the run's tensors (cuTensorMapEncodeTiled) and passed by value. Workspaces (the manifest's `workspaces`) are
// allocated per run, filled with 0xFF bytes (NaN in every float type, so a
// read before a write shows up in the outputs), and freed after the run has
// synchronised.
//
//===----------------------------------------------------------------------===//

#include "tlc/Runtime/CUDA/DriverObjects.h"
#include "tlc/Target/Artifact/BinaryCheck.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/LaunchPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <optional>

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
struct CudaLaunchPlan : runtime::LaunchPlan {
  cu::Kernel *kernel = nullptr;
  /// TMA tensor maps (parameter index, what to encode), after the symbols.
  std::vector<std::pair<size_t, cu::TensorMapSpec>> tensorMaps;
};

/// One encoded tensor map (CUtensorMap's size and alignment).
struct alignas(64) EncodedTensorMap {
  unsigned long long opaque[16];
};

/// One workspace of an instance: its name and byte size.
struct CudaWorkspacePlan {
  std::string name;
  artifact::ShapeExpr bytes = artifact::ShapeExpr::constant(0);
};

/// The workspace buffers of one run (freed when this goes away).
using WorkspaceBuffers = std::vector<std::unique_ptr<cu::Buffer>>;

class CudaKernelInstance final : public runtime::Kernel {
public:
  CudaKernelInstance(const cu::Context &context, artifact::Manifest manifest,
                     std::unique_ptr<cu::Module> module,
                     std::vector<CudaLaunchPlan> plans,
                     std::vector<CudaWorkspacePlan> workspaces)
      : context(context), manifest(std::move(manifest)),
        module(std::move(module)), plans(std::move(plans)),
        workspaces(std::move(workspaces)) {}

  llvm::Error run(const LaunchArgs &args) override {
    WorkspaceBuffers buffers;
    if (llvm::Error e = allocateWorkspaces(args, buffers))
      return e;
    if (llvm::Error e = launchAll(args, buffers)) {
      // Queued launches may still use the workspaces.
      (void)context.synchronize();
      return e;
    }
    return toError(context.synchronize());
  }

  llvm::Expected<double> timeRun(const LaunchArgs &args) override {
    std::unique_ptr<cu::Timer> timer;
    if (llvm::Error e = toError(cu::Timer::create(context, timer)))
      return std::move(e);
    // Allocation and poisoning are not part of the timed work.
    WorkspaceBuffers buffers;
    if (llvm::Error e = allocateWorkspaces(args, buffers))
      return std::move(e);
    if (llvm::Error e = toError(context.synchronize()))
      return std::move(e);
    if (llvm::Error e = toError(timer->start()))
      return std::move(e);
    if (llvm::Error e = launchAll(args, buffers)) {
      (void)context.synchronize();
      return std::move(e);
    }
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
  /// The symbol values of \p args by name.
  std::function<std::optional<int64_t>(llvm::StringRef)>
  symbolLookup(const LaunchArgs &args) const {
    auto values = std::make_shared<llvm::StringMap<int64_t>>();
    for (auto [sym, value] : llvm::zip(manifest.symbols, args.symbols))
      (*values)[sym.name] = value;
    return [values](llvm::StringRef name) -> std::optional<int64_t> {
      auto it = values->find(name);
      if (it == values->end())
        return std::nullopt;
      return it->second;
    };
  }

  /// Allocates every workspace at the size the symbols give and fills it
  /// with 0xFF bytes.
  llvm::Error allocateWorkspaces(const LaunchArgs &args,
                                 WorkspaceBuffers &out) {
    auto lookup = symbolLookup(args);
    for (const CudaWorkspacePlan &w : workspaces) {
      auto bytes = w.bytes.evaluate(lookup);
      if (!bytes)
        return makeError("kernel '" + manifest.name + "': the size of "
                         "workspace '" + w.name + "': " +
                         llvm::toString(bytes.takeError()));
      if (*bytes < 0)
        return makeError("kernel '" + manifest.name + "': workspace '" +
                         w.name + "' would have " + llvm::Twine(*bytes) +
                         " bytes");
      std::unique_ptr<cu::Buffer> buffer;
      cu::Status status = cu::Buffer::create(
          context, static_cast<size_t>(std::max<int64_t>(*bytes, 1)), buffer);
      if (status.ok())
        status = buffer->fill(0xFF);
      if (!status.ok())
        return makeError("kernel '" + manifest.name + "': workspace '" +
                         w.name + "' (" + llvm::Twine(*bytes) +
                         " bytes): " + status.message());
      out.push_back(std::move(buffer));
    }
    return llvm::Error::success();
  }

  /// Enqueues every launch (no synchronisation).
  llvm::Error launchAll(const LaunchArgs &args,
                        const WorkspaceBuffers &buffers) {
    if (args.params.size() != manifest.params.size())
      return makeError("kernel '" + manifest.name + "' takes " +
                       llvm::Twine(manifest.params.size()) +
                       " parameters, got " + llvm::Twine(args.params.size()));
    if (args.symbols.size() != manifest.symbols.size())
      return makeError("kernel '" + manifest.name + "' takes " +
                       llvm::Twine(manifest.symbols.size()) +
                       " symbols, got " + llvm::Twine(args.symbols.size()));
    // cuLaunchKernel takes one pointer per kernel parameter: to the device
    // address of a tensor, to the value of a scalar, to the address of each
    // workspace of the launch, to each symbol.
    std::vector<cu::CUdeviceptr> addresses(manifest.params.size());
    std::vector<cu::CUdeviceptr> workspaceAddresses;
    for (const std::unique_ptr<cu::Buffer> &b : buffers)
      workspaceAddresses.push_back(b->address());
    std::vector<long long> symbols(args.symbols.begin(), args.symbols.end());
    std::vector<void *> paramArgs;
    for (size_t i = 0; i < manifest.params.size(); ++i) {
      if (manifest.params[i].isTensor) {
        addresses[i] = reinterpret_cast<cu::CUdeviceptr>(args.params[i]);
        paramArgs.push_back(&addresses[i]);
      } else {
        paramArgs.push_back(args.params[i]);
      }
    }
    auto lookup = symbolLookup(args);
    const cu::DeviceInfo &info = context.info();
    for (CudaLaunchPlan &plan : plans) {
      llvm::Expected<runtime::LaunchSize> size =
          runtime::sizeLaunch(manifest, plan, lookup,
                              info.sharedMemoryPerBlockOptin, info.name);
      if (!size)
        return size.takeError();
      if (size->isEmpty())
        continue; // a grid of 0 blocks (M = 0): nothing to run
      std::vector<void *> kernelArgs = paramArgs;
      for (size_t w : plan.workspaces)
        kernelArgs.push_back(&workspaceAddresses[w]);
      for (long long &s : symbols)
        kernelArgs.push_back(&s);
      // Tensor maps over this run's tensors, passed by value.
      std::vector<EncodedTensorMap> maps(plan.tensorMaps.size());
      for (size_t t = 0; t < plan.tensorMaps.size(); ++t) {
        auto &[param, spec] = plan.tensorMaps[t];
        if (llvm::Error e = toError(cu::encodeTensorMap(
                context, spec, addresses[param], &maps[t])))
          return makeError("kernel '" + manifest.name + "', parameter '" +
                           manifest.params[param].name + "': " +
                           llvm::toString(std::move(e)));
        kernelArgs.push_back(&maps[t]);
      }
      cu::LaunchConfig config;
      for (unsigned d = 0; d < 3; ++d) {
        config.grid[d] = size->grid[d];
        config.block[d] = plan.block[d];
      }
      config.dynamicSharedMemory = size->dynamicSharedMemory;
      config.cooperative = plan.cooperative;
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
  std::vector<CudaWorkspacePlan> workspaces;
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
    if (m.binary.empty())
      return makeError("kernel '" + m.name +
                       "' has no binary: it was built with "
                       "--cuda-compiler=none (run it with --device sim, or "
                       "build it with nvcc or NVRTC)");
    llvm::SmallString<256> binary(dir);
    llvm::sys::path::append(binary, m.binary);
    if (llvm::Error e = artifact::checkBinaryFile(binary))
      return std::move(e);
    std::unique_ptr<cu::Module> module;
    if (llvm::Error e = toError(
            cu::Module::loadFile(*context, binary.str().str(), module)))
      return std::move(e);
    std::vector<CudaWorkspacePlan> workspaces;
    for (const artifact::Workspace &w : m.workspaces) {
      CudaWorkspacePlan plan;
      plan.name = w.name;
      if (w.bytes.isStatic) {
        plan.bytes = artifact::ShapeExpr::constant(w.bytes.value);
      } else {
        auto expr = artifact::ShapeExpr::parse(w.bytes.expr);
        if (!expr)
          return makeError("kernel '" + m.name + "': the size of workspace '" +
                           w.name + "': " + llvm::toString(expr.takeError()));
        plan.bytes = *expr;
      }
      workspaces.push_back(std::move(plan));
    }
    std::vector<CudaLaunchPlan> plans;
    for (const artifact::Launch &l : m.launches) {
      llvm::Expected<runtime::LaunchPlan> planned = runtime::planLaunch(m, l);
      if (!planned)
        return planned.takeError();
      CudaLaunchPlan plan;
      static_cast<runtime::LaunchPlan &>(plan) = std::move(*planned);
      if (llvm::Error e = toError(module->getKernel(plan.entry, plan.kernel)))
        return std::move(e);
      for (const artifact::TensorMap &t : l.tensorMaps) {
        auto it = llvm::find_if(m.params, [&](const artifact::Param &p) {
          return p.name == t.param && p.isTensor;
        });
        if (it == m.params.end())
          return makeError("kernel '" + m.name + "': a tensor map of '" +
                           t.param + "', which is no tensor parameter");
        cu::TensorMapSpec spec;
        spec.dtype = t.dtype;
        spec.dims.assign(t.dims.begin(), t.dims.end());
        spec.strides.assign(t.strides.begin(), t.strides.end());
        spec.box.assign(t.box.begin(), t.box.end());
        spec.swizzle = int(t.swizzle);
        spec.l2Promotion = t.l2Promotion == "none"   ? 0
                           : t.l2Promotion == "64B"  ? 64
                           : t.l2Promotion == "256B" ? 256
                                                     : 128;
        plan.tensorMaps.push_back({size_t(it - m.params.begin()), spec});
      }
      plans.push_back(std::move(plan));
    }
    return std::make_unique<CudaKernelInstance>(*context, m, std::move(module),
                                                std::move(plans),
                                                std::move(workspaces));
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
