//===- CAPI.cpp - The C API of tlc's HIP runtime -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tlc_hip.h over the runtime's Device interface: the `hip` device
// (libamdhip64 through dlopen, lib/hip/HIPDevice.cpp), or with
// TLC_HIP_DEVICE=sim the `sim` device, whose launches copy the caller's
// host memory in and out (runOnHostMemory).
//
//===----------------------------------------------------------------------===//

#include "tlc_hip.h"

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/runtime/CAPIErrors.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/HostArgs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace tlc;
using tlc::runtime::capi::createHandle;
using tlc::runtime::capi::nullArgument;

struct tlc_hip_context {
  std::unique_ptr<runtime::Device> device;
  bool simulated = false;
};
struct tlc_hip_kernel {
  artifact::Manifest manifest;
  tlc_hip_context *context = nullptr;
  /// Loaded on the first tlc_hip_module_get_kernel.
  std::unique_ptr<runtime::Kernel> impl;
};
struct tlc_hip_module {
  tlc_hip_context *context = nullptr;
  std::string dir;
  std::vector<std::unique_ptr<tlc_hip_kernel>> kernels;
};

namespace {
/// Records \p error as the thread's last error; returns the C result.
int report(llvm::Error error) {
  if (!error)
    return 0;
  return runtime::capi::fail(llvm::toString(std::move(error)));
}

int fail(const llvm::Twine &message) {
  return runtime::capi::fail(message.str());
}

/// The kernel objects the sim device compiles bind `tlc_sim_thread`
/// (tlc_sim/abi.h), which this library defines: it must be in the global
/// scope, though embedders (Python's ctypes) open it RTLD_LOCAL.
void exportSimulatorState() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&tlc_hip_last_error), &info) &&
      info.dli_fname)
    (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

/// Opens the device TLC_HIP_DEVICE names (`hip`, the default, or `sim`).
int openDevice(int ordinal, tlc_hip_context &context) {
  const char *env = std::getenv("TLC_HIP_DEVICE");
  llvm::StringRef kind = env && *env ? env : "hip";
  if (kind == "sim") {
    if (ordinal != 0)
      return fail("no HIP device " + llvm::Twine(ordinal) +
                  ": TLC_HIP_DEVICE=sim simulates device 0 only");
    exportSimulatorState();
    context.device = runtime::createSimDevice();
    context.simulated = true;
    return 0;
  }
  if (kind != "hip")
    return fail("TLC_HIP_DEVICE='" + kind + "': expected 'hip' or 'sim'");
  auto device = runtime::openHipDevice(ordinal);
  if (!device)
    return report(device.takeError());
  context.device = std::move(*device);
  return 0;
}

/// The manifests at \p path (a directory's NAME.json files, sorted, or
/// one file) into \p module.
int readManifests(llvm::StringRef path, tlc_hip_module &module) {
  namespace fs = llvm::sys::fs;
  std::vector<std::string> files;
  if (fs::is_directory(path)) {
    module.dir = path.str();
    std::error_code ec;
    for (fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".json")
        files.push_back(it->path());
    llvm::sort(files);
    if (files.empty())
      return fail("no kernel manifest (*.json) in '" + path +
                  "' (build one with tlc-build --target=hip:gfx942 -o DIR)");
  } else {
    module.dir = llvm::sys::path::parent_path(path).str();
    if (module.dir.empty())
      module.dir = ".";
    files.push_back(path.str());
  }
  for (const std::string &file : files) {
    auto manifest = artifact::readManifest(file);
    if (!manifest)
      return report(manifest.takeError());
    auto kernel = std::make_unique<tlc_hip_kernel>();
    kernel->manifest = std::move(*manifest);
    kernel->context = module.context;
    module.kernels.push_back(std::move(kernel));
  }
  return 0;
}

/// The kernel of \p module named \p name ("" : the only one), or null with
/// the thread's error set.
tlc_hip_kernel *findKernel(tlc_hip_module &module, llvm::StringRef name) {
  if (name.empty() && module.kernels.size() == 1)
    return module.kernels.front().get();
  std::string names;
  for (auto &k : module.kernels) {
    if (k->manifest.name == name)
      return k.get();
    names += (names.empty() ? "" : ", ") + k->manifest.name;
  }
  std::string what = name.empty() ? std::string("a kernel name is needed")
                                  : "no kernel '" + name.str() + "'";
  fail(what + ": the artifacts in '" + module.dir + "' are " + names);
  return nullptr;
}
} // namespace

extern "C" {

const char *tlc_hip_last_error(void) {
  return runtime::capi::lastError().c_str();
}

int tlc_hip_device_count(int *count) {
  if (!count)
    return nullArgument("tlc_hip_device_count");
  const char *env = std::getenv("TLC_HIP_DEVICE");
  *count =
      env && llvm::StringRef(env) == "sim" ? 1 : runtime::countHipDevices();
  return 0;
}

int tlc_hip_context_create(int ordinal, tlc_hip_context **out) {
  if (!out)
    return nullArgument("tlc_hip_context_create");
  return createHandle(out, [&](tlc_hip_context &context) {
    return openDevice(ordinal, context);
  });
}

void tlc_hip_context_destroy(tlc_hip_context *context) { delete context; }

int tlc_hip_context_info(const tlc_hip_context *context,
                         tlc_hip_device_info *out) {
  if (!context || !out)
    return nullArgument("tlc_hip_context_info");
  std::memset(out, 0, sizeof(*out));
  std::string name = context->device->describe();
  std::strncpy(out->name, name.c_str(), sizeof(out->name) - 1);
  out->simulated = context->simulated;
  return 0;
}

int tlc_hip_module_load_file(tlc_hip_context *context, const char *path,
                             tlc_hip_module **out) {
  if (!context || !path || !out)
    return nullArgument("tlc_hip_module_load_file");
  return createHandle(out, [&](tlc_hip_module &module) {
    module.context = context;
    return readManifests(path, module);
  });
}

void tlc_hip_module_destroy(tlc_hip_module *module) { delete module; }

int tlc_hip_module_get_kernel(tlc_hip_module *module, const char *name,
                              tlc_hip_kernel **out) {
  if (!module || !out)
    return nullArgument("tlc_hip_module_get_kernel");
  *out = nullptr;
  tlc_hip_kernel *kernel = findKernel(*module, name ? name : "");
  if (!kernel)
    return -1;
  const artifact::Manifest &m = kernel->manifest;
  if (!llvm::StringRef(m.target).starts_with("hip"))
    return fail("kernel '" + m.name + "' was built for target '" + m.target +
                "', not for HIP (build it with tlc-build "
                "--target=hip:gfx942 -o DIR)");
  if (!kernel->impl) {
    auto loaded = module->context->device->loadKernel(m, module->dir);
    if (!loaded)
      return report(loaded.takeError());
    kernel->impl = std::move(*loaded);
  }
  *out = kernel;
  return 0;
}

int tlc_hip_kernel_launch(tlc_hip_kernel *kernel, void *const *params,
                          size_t num_params, const int64_t *symbols,
                          size_t num_symbols, void *const *workspaces,
                          void *stream) {
  if (!kernel || (!params && num_params) || (!symbols && num_symbols))
    return nullArgument("tlc_hip_kernel_launch");
  const artifact::Manifest &m = kernel->manifest;
  if (num_params != m.params.size() || num_symbols != m.symbols.size())
    return fail("kernel '" + m.name + "' takes " +
                llvm::Twine(m.params.size()) + " parameters and " +
                llvm::Twine(m.symbols.size()) + " symbols, got " +
                llvm::Twine(num_params) + " and " + llvm::Twine(num_symbols));
  runtime::LaunchArgs args;
  args.params.assign(params, params + num_params);
  args.symbols.assign(symbols, symbols + num_symbols);
  args.stream = stream;
  if (workspaces)
    args.workspaces.assign(workspaces, workspaces + m.workspaces.size());
  for (const auto &[param, value] : llvm::zip(m.params, args.params))
    if (!param.isTensor && !value)
      return fail("kernel '" + m.name + "': scalar parameter '" + param.name +
                  "' has no value (a null address)");
  // The sim device's memory is not the caller's: tensors are copied.
  tlc_hip_context &context = *kernel->context;
  return report(context.simulated ? runtime::runOnHostMemory(
                                        *context.device, *kernel->impl, m, args)
                                  : kernel->impl->enqueue(args));
}

} // extern "C"
