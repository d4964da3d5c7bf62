//===- DynamicLibrary.cpp - dlopen'ed libraries ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/DynamicLibrary.h"

#include <dlfcn.h>

using namespace tlc::runtime;

llvm::Expected<DynamicLibrary>
DynamicLibrary::open(llvm::ArrayRef<const char *> names) {
  std::string reasons;
  for (const char *n : names) {
    void *h = ::dlopen(n, RTLD_NOW | RTLD_LOCAL);
    if (h) {
      DynamicLibrary lib;
      lib.handle = std::shared_ptr<void>(h, [](void *p) { ::dlclose(p); });
      lib.name = n;
      return lib;
    }
    const char *e = ::dlerror();
    reasons += std::string(reasons.empty() ? "" : "; ") + (e ? e : n);
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), reasons);
}

void *DynamicLibrary::lookup(const char *symbol) const {
  return handle ? ::dlsym(handle.get(), symbol) : nullptr;
}
