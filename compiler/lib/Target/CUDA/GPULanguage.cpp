//===- GPULanguage.cpp - What CUDA and HIP C++ spell differently ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/GPULanguage.h"

#include "tlc/Layout/GpuTargets.h"

using namespace tlc::target;

const GPULanguage &GPULanguage::cuda() {
  using layout::kCudaLayoutFacts;
  static const GPULanguage language{Kind::CUDA,
                                    kCudaLayoutFacts.name,
                                    "tlc_device/cuda.h",
                                    "tlc::cuda::",
                                    kCudaLayoutFacts.warpSize,
                                    kCudaLayoutFacts.gemmArch,
                                    /*hasAsyncCopy=*/true,
                                    /*hasNamedBarriers=*/true};
  return language;
}

const GPULanguage &GPULanguage::hip() {
  using layout::kHipLayoutFacts;
  static const GPULanguage language{Kind::HIP,
                                    kHipLayoutFacts.name,
                                    "tlc_device/hip.h",
                                    "tlc::hip::",
                                    kHipLayoutFacts.warpSize,
                                    kHipLayoutFacts.gemmArch,
                                    /*hasAsyncCopy=*/false,
                                    /*hasNamedBarriers=*/false};
  return language;
}
