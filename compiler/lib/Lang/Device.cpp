//===- Device.cpp - Facts about the devices a target runs on --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The figures are the vendors' published specifications (CUDA C Programming
// Guide, "Compute Capabilities" table, and the product data sheets; AMD
// CDNA2/CDNA3 instruction set and product pages).
//
//===----------------------------------------------------------------------===//

#include "tlc/Lang/Device.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tlc::lang;

static constexpr int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

static const DeviceInfo kDevices[] = {
    // name, full name, platform, arch, major, minor, SMs, smem/block,
    // smem/SM, regs/SM, regs/thread, L2, warp, threads/block, threads/SM,
    // memory, max cluster
    {"h100", "NVIDIA H100 80GB HBM3", "cuda", "sm_90a", 9, 0, 132, 227 * KiB,
     228 * KiB, 65536, 255, 50 * MiB, 32, 1024, 2048, 80 * GiB, 8},
    {"h200", "NVIDIA H200", "cuda", "sm_90a", 9, 0, 132, 227 * KiB, 228 * KiB,
     65536, 255, 50 * MiB, 32, 1024, 2048, 141 * GiB, 8},
    {"h800", "NVIDIA H800", "cuda", "sm_90a", 9, 0, 132, 227 * KiB, 228 * KiB,
     65536, 255, 50 * MiB, 32, 1024, 2048, 80 * GiB, 8},
    {"v100", "Tesla V100-SXM2-32GB", "cuda", "sm_70", 7, 0, 80, 96 * KiB,
     96 * KiB, 65536, 255, 6 * MiB, 32, 1024, 2048, 32 * GiB, 0},
    {"t4", "Tesla T4", "cuda", "sm_75", 7, 5, 40, 64 * KiB, 64 * KiB, 65536,
     255, 4 * MiB, 32, 1024, 1024, 16 * GiB, 0},
    {"a100", "NVIDIA A100-SXM4-80GB", "cuda", "sm_80", 8, 0, 108, 163 * KiB,
     164 * KiB, 65536, 255, 40 * MiB, 32, 1024, 2048, 80 * GiB, 0},
    {"a10", "NVIDIA A10", "cuda", "sm_86", 8, 6, 72, 99 * KiB, 100 * KiB,
     65536, 255, 6 * MiB, 32, 1024, 1536, 24 * GiB, 0},
    {"rtx4090", "NVIDIA GeForce RTX 4090", "cuda", "sm_89", 8, 9, 128,
     99 * KiB, 100 * KiB, 65536, 255, 72 * MiB, 32, 1024, 1536, 24 * GiB, 0},
    {"l40s", "NVIDIA L40S", "cuda", "sm_89", 8, 9, 142, 99 * KiB, 100 * KiB,
     65536, 255, 96 * MiB, 32, 1024, 1536, 48 * GiB, 0},
    {"b200", "NVIDIA B200", "cuda", "sm_100a", 10, 0, 148, 227 * KiB,
     228 * KiB, 65536, 255, 126 * MiB, 32, 1024, 2048, 180 * GiB, 16},
    // Consumer Blackwell (GB202): 170 SMs, 96 MiB of L2 and 32 GiB (the
    // RTX 5090's published specifications); compute capability 12.0's
    // 100 KiB of shared memory and 1536 threads per SM, 1 KiB of each
    // block's reserved (NVIDIA CCCL, cuda/__device/arch_traits.h, sm_120).
    {"rtx5090", "NVIDIA GeForce RTX 5090", "cuda", "sm_120a", 12, 0, 170,
     99 * KiB, 100 * KiB, 65536, 255, 96 * MiB, 32, 1024, 1536, 32 * GiB, 8},
    {"mi250x", "AMD Instinct MI250X", "hip", "gfx90a", 9, 0, 110, 64 * KiB,
     64 * KiB, 131072, 512, 8 * MiB, 64, 1024, 2048, 64 * GiB, 0},
    {"mi300x", "AMD Instinct MI300X", "hip", "gfx942", 9, 4, 304, 64 * KiB,
     64 * KiB, 131072, 512, 4 * MiB, 64, 1024, 2048, 192 * GiB, 0},
    {"mi355x", "AMD Instinct MI355X", "hip", "gfx950", 9, 5, 256, 160 * KiB,
     160 * KiB, 131072, 512, 4 * MiB, 64, 1024, 2048, 288 * GiB, 0},
};

llvm::ArrayRef<DeviceInfo> tlc::lang::getDevices() { return kDevices; }

const DeviceInfo *tlc::lang::lookupDevice(llvm::StringRef name) {
  for (const DeviceInfo &d : kDevices)
    if (d.name.equals_insensitive(name))
      return &d;
  return nullptr;
}

const DeviceInfo *tlc::lang::getDefaultDevice(llvm::StringRef target) {
  llvm::StringRef dflt = llvm::StringSwitch<llvm::StringRef>(target)
                             .Case("cuda", "h100")
                             .Case("cuda:sm_90a", "h100")
                             .Case("cuda:sm_90", "h100")
                             .Case("cuda:sm_70", "v100")
                             .Case("cuda:sm_75", "t4")
                             .Case("cuda:sm_80", "a100")
                             .Case("cuda:sm_86", "a10")
                             .Case("cuda:sm_89", "rtx4090")
                             .Case("cuda:sm_100a", "b200")
                             .Case("cuda:sm_100", "b200")
                             .Case("cuda:sm_120a", "rtx5090")
                             .Case("cuda:sm_120", "rtx5090")
                             .Case("hip:gfx90a", "mi250x")
                             .Case("hip", "mi300x")
                             .Case("hip:gfx942", "mi300x")
                             .Case("hip:gfx950", "mi355x")
                             .Default("");
  return dflt.empty() ? nullptr : lookupDevice(dflt);
}
