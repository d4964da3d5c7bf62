//===- Residency.cpp - Blocks the simulated GPU holds at once -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Blocks per multiprocessor as the occupancy calculators count them, less
// registers: the fewest of
//
//   * the threads it holds, in whole warps (wavefronts) per block;
//   * its shared memory (LDS) over each block's dynamic shared memory plus
//     what the driver reserves per block (on NVIDIA parts 8.0 and later
//     the 1 KB between the shared memory per SM and the most one block may
//     use: 164 and 163 KB on the A100, 228 and 227 KB on the H100);
//   * the resident blocks per SM of the CUDA programming guide's table of
//     compute capabilities (32 on 8.0, 9.0 and 10.0, 16 on 8.6, 24 on
//     8.9); on CDNA, 16 workgroups per compute unit when a workgroup has
//     more than one wavefront (each holds one of the compute unit's 16
//     barriers; LLVM's AMDGPU target counts the same), single-wavefront
//     workgroups bounded by the wavefronts alone.
//
//===----------------------------------------------------------------------===//

#include "Residency.h"

#include "tlc/Lang/Device.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace tlc::runtime::sim;

namespace {

/// Resident blocks per SM of an NVIDIA part of compute capability
/// \p major.\p minor (the programming guide's table).
uint64_t cudaBlocksPerSM(int major, int minor) {
  int cc = major * 10 + minor;
  if (cc == 75 || cc == 86 || cc == 87)
    return 16;
  if (cc == 89)
    return 24;
  return 32;
}

Residency residencyOf(const tlc::lang::DeviceInfo &d, llvm::StringRef target,
                      uint64_t threadsPerBlock, uint64_t sharedBytes) {
  Residency r;
  r.amd = d.platform == "hip";
  r.multiprocessors = uint64_t(d.numSMs);
  r.device = d.fullName.str() + " (" + target.str() + ")";
  uint64_t warp = uint64_t(d.warpSize);
  uint64_t warps = std::max<uint64_t>(1, (threadsPerBlock + warp - 1) / warp);
  uint64_t byThreads = uint64_t(d.maxThreadsPerSM) / warp / warps;
  uint64_t reserved =
      uint64_t(std::max<int64_t>(0, d.sharedMemoryPerSM -
                                        d.sharedMemoryPerBlock));
  uint64_t byShared = uint64_t(d.sharedMemoryPerSM) /
                      std::max<uint64_t>(1, sharedBytes + reserved);
  uint64_t byBlocks =
      r.amd ? (warps > 1 ? 16 : byThreads) : cudaBlocksPerSM(d.major, d.minor);
  r.perMultiprocessor = byThreads;
  r.limit = "threads";
  if (byShared < r.perMultiprocessor) {
    r.perMultiprocessor = byShared;
    r.limit = r.amd ? "LDS" : "shared memory";
  }
  if (byBlocks < r.perMultiprocessor) {
    r.perMultiprocessor = byBlocks;
    r.limit = r.amd ? "barriers per compute unit" : "blocks per multiprocessor";
  }
  return r;
}

} // namespace

std::optional<Residency>
tlc::runtime::sim::getResidency(llvm::StringRef target,
                                uint64_t threadsPerBlock,
                                uint64_t sharedBytes) {
  auto [platform, archs] = target.split(':');
  llvm::SmallVector<llvm::StringRef> list;
  archs.split(list, ',');
  std::optional<Residency> least;
  for (llvm::StringRef arch : list) {
    std::string one = platform.str() + ":" + arch.split(':').first.str();
    const tlc::lang::DeviceInfo *d = tlc::lang::getDefaultDevice(one);
    if (!d)
      return std::nullopt;
    Residency r = residencyOf(*d, one, threadsPerBlock, sharedBytes);
    if (!least || r.total() < least->total())
      least = std::move(r);
  }
  return least;
}
