//===- warp.h - Warp votes that CUDA spells with out-parameters -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The warp primitives of tile.intrinsic that are not one CUDA builtin call
// with a result: T.match_all_sync. The others (shuffles, votes, ballots,
// __match_any_sync, __syncthreads_count/and/or) the emitter names directly;
// warp reductions are warpAllReduce of reduce.h. Plain CUDA C++, so the sim
// device compiles this file as it is.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_WARP_H
#define TLC_DEVICE_CUDA_WARP_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// \p mask when every lane of \p mask holds the same \p value, else 0
/// (`__match_all_sync` without its predicate out-parameter).
template <typename T> TLC_DEVICE unsigned matchAll(unsigned mask, T value) {
  int same = 0;
  return __match_all_sync(mask, value, &same);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_WARP_H
