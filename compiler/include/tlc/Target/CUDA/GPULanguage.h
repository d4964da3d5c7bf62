//===- GPULanguage.h - What CUDA and HIP C++ spell differently --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU C++ printer (CUDAEmitter*.cpp) writes one source language for
// NVIDIA (CUDA C++, warps of 32, mma.sync, cp.async) and for AMD CDNA (HIP
// C++, wavefronts of 64, MFMA, LDS filled by plain vector loads). Everything
// that differs between the two instruction sets is described here and read
// by the printer; the passes before it are shared.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CUDA_GPULANGUAGE_H
#define TLC_TARGET_CUDA_GPULANGUAGE_H

#include "tlc/Layout/GemmLayouts.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tlc::target {

/// One GPU C++ dialect and the instruction set under it.
struct GPULanguage {
  enum class Kind : uint8_t { CUDA, HIP };
  Kind kind;
  /// "CUDA" or "HIP" (in diagnostics).
  llvm::StringRef name;
  /// The one include of generated sources (`tlc_device/cuda.h`).
  llvm::StringRef deviceHeader;
  /// The namespace of tlc's device helpers, with the trailing `::`.
  llvm::StringRef helpers;
  /// Threads per warp (32) or wavefront (64).
  int64_t warpSize;
  /// The gemm layouts of layout inference (mma.sync or MFMA fragments).
  layout::GemmArch gemmArch;
  /// Asynchronous global -> shared copies (cp.async with commit/wait
  /// groups). Without them pipelined producers are plain vector copies.
  bool hasAsyncCopy;
  /// `bar.sync id, n` barriers over a subset of the block.
  bool hasNamedBarriers;

  bool isHip() const { return kind == Kind::HIP; }
  /// log2(warpSize): thread-id bits below it are lanes of one warp.
  unsigned laneBits() const { return warpSize == 64 ? 6 : 5; }

  static const GPULanguage &cuda();
  static const GPULanguage &hip();
};

} // namespace tlc::target

#endif // TLC_TARGET_CUDA_GPULANGUAGE_H
