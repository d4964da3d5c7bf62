//===- GpuTargets.h - What each GPU instruction set gives layouts -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one table of the GPU targets' facts that fragment layouts depend on:
// the name diagnostics give the target, the gemm operand layouts outside
// wgmma (mma.sync or MFMA, GemmLayouts.h) and the threads of a warp. The
// CUDA/HIP printer's language description (Target/CUDA/GPULanguage.h) and
// tile-assign-fragment-layouts (Dialect/Tile/Transforms/FragmentLayouts.h)
// both read it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_GPUTARGETS_H
#define TLC_LAYOUT_GPUTARGETS_H

#include "tlc/Layout/GemmLayouts.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace tlc::layout {

/// One GPU instruction set as fragment layouts see it.
struct GpuLayoutFacts {
  /// "CUDA" or "HIP" (in diagnostics).
  llvm::StringRef name;
  /// The gemm operand layouts outside wgmma.
  GemmArch gemmArch;
  /// Threads per warp (32) or wavefront (64).
  int64_t warpSize;
};

/// NVIDIA: mma.sync layouts, warps of 32.
inline constexpr GpuLayoutFacts kCudaLayoutFacts{"CUDA", GemmArch::SM80, 32};
/// AMD CDNA: MFMA layouts, wavefronts of 64.
inline constexpr GpuLayoutFacts kHipLayoutFacts{"HIP", GemmArch::CDNA, 64};

/// The facts of \p gpuTarget (`cuda:...`, `hip:...`); std::nullopt for any
/// other target.
inline std::optional<GpuLayoutFacts>
getGpuLayoutFacts(llvm::StringRef gpuTarget) {
  if (gpuTarget.starts_with("cuda:"))
    return kCudaLayoutFacts;
  if (gpuTarget.starts_with("hip:"))
    return kHipLayoutFacts;
  return std::nullopt;
}

} // namespace tlc::layout

#endif // TLC_LAYOUT_GPUTARGETS_H
