//===- SharedMemoryLimits.h - Shared memory a block may use -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The dynamic shared memory (LDS on AMD) one block may use on each GPU
// architecture tlc targets: checked by the CUDA/HIP printer for what is
// known at build time and by the launchers for sizes known only from the
// kernel's arguments. No MLIR: the runtime links it too.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_ARTIFACT_SHAREDMEMORYLIMITS_H
#define TLC_TARGET_ARTIFACT_SHAREDMEMORYLIMITS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tlc::artifact {

/// Dynamic shared memory one block may use on compute capability \p cc
/// (major * 10 + minor), from the CUDA programming guide's table of compute
/// capabilities: 163 KB on 8.0/8.7, 99 KB on 8.6/8.9/12.x, 227 KB on 9.0
/// and 10.x, 96 KB on 7.x, 48 KB before.
int64_t getCudaSharedMemoryPerBlock(unsigned cc);

/// The LDS one workgroup may allocate on CDNA architecture \p arch: 64 KiB
/// on CDNA2 and CDNA3 (gfx90a, gfx942; the CDNA3 ISA's "Local Data Share"),
/// 160 KiB on CDNA4 (gfx950), as the device table (lang/Device.cpp) says.
int64_t getHipLdsPerWorkgroup(llvm::StringRef arch);

/// The limit of a manifest target (`cuda:sm_90a`, `hip:gfx942`, or several
/// architectures `cuda:sm_80,sm_90a`: the least of them); nullopt for the
/// cpu target and targets it does not know.
std::optional<int64_t> getSharedMemoryPerBlock(llvm::StringRef target);

} // namespace tlc::artifact

#endif // TLC_TARGET_ARTIFACT_SHAREDMEMORYLIMITS_H
