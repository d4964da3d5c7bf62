//===- GPULanguage.cpp - What CUDA and HIP C++ spell differently ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/GPULanguage.h"

using namespace tlc::target;

const GPULanguage &GPULanguage::cuda() {
  static const GPULanguage language{Kind::CUDA,
                                    "CUDA",
                                    "tlc_device/cuda.h",
                                    "tlc::cuda::",
                                    /*warpSize=*/32,
                                    layout::GemmArch::SM80,
                                    /*hasAsyncCopy=*/true,
                                    /*hasNamedBarriers=*/true};
  return language;
}

const GPULanguage &GPULanguage::hip() {
  static const GPULanguage language{Kind::HIP,
                                    "HIP",
                                    "tlc_device/hip.h",
                                    "tlc::hip::",
                                    /*warpSize=*/64,
                                    layout::GemmArch::CDNA,
                                    /*hasAsyncCopy=*/false,
                                    /*hasNamedBarriers=*/false};
  return language;
}
