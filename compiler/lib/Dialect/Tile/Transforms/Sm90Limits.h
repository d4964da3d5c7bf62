//===- Sm90Limits.h - sm_90 budgets the Hopper passes plan with -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shared-memory and register budgets of an sm_90 multiprocessor that
// tile-plan-tma, tile-warp-specialize, tile-persistent-gemm and
// tile-gemm-pingpong plan against (CUDA Programming Guide, compute
// capability 9.0: 227 KiB of dynamic shared memory per block, 64 K 32-bit
// registers per multiprocessor; setmaxnreg counts are multiples of 8).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_SM90LIMITS_H
#define TLC_DIALECT_TILE_TRANSFORMS_SM90LIMITS_H

#include <cstdint>

namespace tlc {
namespace tile {

/// The most dynamic shared memory an sm_90 block may have.
inline constexpr int64_t kSm90SharedLimit = 227 * 1024;
/// The threads of one warpgroup (a producer, or a consumer of wgmma).
inline constexpr int64_t kWarpgroupThreads = 128;
/// setmaxnreg defaults (registers per thread): the producer only issues
/// TMA, the consumers hold the accumulators. With one producer and two
/// consumer warpgroups 128 * 40 + 256 * 232 = 64512 of the
/// multiprocessor's 65536 registers.
inline constexpr int64_t kProducerRegs = 40, kConsumerRegs = 232;
/// FA3's counts for attention's two consumer warpgroups (tlc.ws_fa3_regs):
/// 128 * 24 + 256 * 240 = 64512.
inline constexpr int64_t kProducerRegsFa3 = 24, kConsumerRegsFa3 = 240;
/// The first named barrier free for the two consumer warpgroups' turns at
/// the tensor cores (ping-pong, in attention and in GEMM): 0 is
/// __syncthreads and 1 the consumers' block barrier; kernels with named
/// barriers of their own are not warp-specialised.
inline constexpr int64_t kFirstTurnBarrier = 2;

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_SM90LIMITS_H
