//===- PreparedKernels.cpp - Kernels the GPU target laid out
//---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/PreparedKernels.h"

#include <atomic>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static std::atomic<KernelPreparer> registeredPreparer{nullptr};

PreparedKernel::~PreparedKernel() = default;

void tlc::tile::setKernelPreparer(KernelPreparer preparer) {
  registeredPreparer.store(preparer);
}

bool tlc::tile::hasKernelPreparer() {
  return registeredPreparer.load() != nullptr;
}

PreparedKernel *PreparedKernels::get(KernelOp kernel,
                                     llvm::StringRef gpuTarget) {
  KernelPreparer prepare = registeredPreparer.load();
  if (!prepare)
    return nullptr;
  if (gpuTarget != target) {
    kernels.clear();
    target = gpuTarget.str();
  }
  auto [it, added] = kernels.try_emplace(kernel.getOperation());
  if (added)
    it->second = prepare(kernel, gpuTarget);
  return it->second.get();
}
