//===- HIPDevice.cpp - The HIP device (via dlopen) ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Opens libamdhip64.so and binds HIPSymbols.def. Devices are detected;
// running hsaco kernels belongs to the HIP back end and reports so.
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/Device.h"
#include "tlc/runtime/DynamicLibrary.h"

using namespace tlc;
using namespace tlc::runtime;

namespace {

struct HIPSymbols {
#define TLC_SYMBOL_REQUIRED(name, result, params) result(*name) params = nullptr;
#include "HIPSymbols.def"

  llvm::Error load(const DynamicLibrary &lib) {
#define TLC_SYMBOL_REQUIRED(name, result, params)                              \
  name = reinterpret_cast<decltype(name)>(lib.lookup(#name));                 \
  if (!name)                                                                   \
    return llvm::createStringError(llvm::inconvertibleErrorCode(),             \
                                   "the HIP runtime " + lib.getName() +        \
                                       " lacks '" #name "'");
#define TLC_SYMBOL_OPTIONAL(name, result, params)                              \
  name = reinterpret_cast<decltype(name)>(lib.lookup(#name));
#include "HIPSymbols.def"
    return llvm::Error::success();
  }
};

} // namespace

llvm::Expected<std::unique_ptr<Device>> tlc::runtime::openHipDevice() {
  const char *names[] = {"libamdhip64.so", "libamdhip64.so.6",
                         "libamdhip64.so.5"};
  auto lib = DynamicLibrary::open(names);
  if (!lib)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no HIP runtime found (" +
                                       llvm::toString(lib.takeError()) + ")");
  HIPSymbols hip;
  if (llvm::Error e = hip.load(*lib))
    return std::move(e);
  int count = 0;
  if (hip.hipInit(0) != 0 || hip.hipGetDeviceCount(&count) != 0 || count == 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no HIP device");
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "the HIP device is not implemented yet (HIP back end)");
}
