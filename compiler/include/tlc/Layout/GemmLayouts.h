//===- GemmLayouts.h - Tensor-core operand and accumulator layouts -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The layouts `T.gemm` imposes, per target:
//
//  * sm_80 `mma.sync.m16n8k16` (16-bit A/B) and `m16n8k32` (8-bit A/B):
//    operand and accumulator fragments of one warp, tiled over the warp's
//    tile and over the block's warp grid;
//  * sm_90 `wgmma.m64nNk16`: the accumulator of a warpgroup (4 warps, 64
//    rows per atom), tiled the same way;
//  * CDNA `v_mfma_f32_16x16x16f16` (wavefront 64): A, B and the accumulator
//    as TileLang uses it (A and B swapped at the call so that each lane holds
//    consecutive columns of C);
//  * the shared-memory operand layouts the loads expect (see SharedLayouts.h).
//
// Warp partition follows TileLang's policies: Square (balanced warp tiles,
// the default), FullRow (as many warps along M as possible), FullCol (along
// N).
//
// Conventions: a gemm computes C[M, N] += A[M, K] * B[K, N]; with transA the
// A buffer is [K, M], with transB the B buffer is [N, K]. Fragments are over
// the buffer's own shape. Warp w of the grid is `wm + warpRows * wn` (M
// fastest) and owns threads [32 w, 32 w + 32) (64 on CDNA).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_GEMMLAYOUTS_H
#define TLC_LAYOUT_GEMMLAYOUTS_H

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/Layout.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace tlc {
namespace layout {

/// The target families with distinct gemm layouts.
enum class GemmArch : uint8_t {
  SM80, ///< sm_80 .. sm_89: mma.sync, ldmatrix, cp.async.
  SM90, ///< sm_90a: wgmma when legal, else mma.sync.
  CDNA, ///< gfx90a / gfx942: MFMA, wavefront 64.
};

/// The instruction a gemm lowers to.
enum class GemmInstr : uint8_t {
  MMA,   ///< mma.sync m16n8k(256/bits).
  WGMMA, ///< wgmma.mma_async m64nNk(256/bits).
  MFMA,  ///< v_mfma 16x16xk, or 32x32xk (see mfmaTileOf()).
};

/// Which matrix of `C += A * B`.
enum class GemmOperand : uint8_t { A, B, C };

/// TileLang's `T.GemmWarpPolicy`.
enum class WarpPolicy : uint8_t { Square, FullRow, FullCol };

/// "mma", "wgmma", "mfma".
llvm::StringRef stringifyGemmInstr(GemmInstr instr);
/// "A", "B", "C".
llvm::StringRef stringifyGemmOperand(GemmOperand operand);
/// "Square", "FullRow", "FullCol".
llvm::StringRef stringifyWarpPolicy(WarpPolicy policy);
/// Parses the spellings above (also `GemmWarpPolicy.Square` style suffixes).
std::optional<WarpPolicy> parseWarpPolicy(llvm::StringRef text);

/// Threads per warp (32) or wavefront (64).
int64_t warpSizeOf(GemmArch arch);

/// A warp grid: warpRows warps along M times warpCols along N.
struct WarpPartition {
  /// Warps along M (TileLang's m_warp).
  int64_t warpRows = 1;
  /// Warps along N (TileLang's n_warp).
  int64_t warpCols = 1;
};

/// TileLang's warp partition for an M x N accumulator with \p numWarps warps
/// of \p instr. MMA: warp tiles of 16 x 8 units; Square picks m*n == warps
/// minimising |(M/16m) / (N/8n) - M/N|, FullRow maximises m, FullCol n.
/// WGMMA: warpRows is a multiple of 4 (whole warpgroups along M). MFMA:
/// 16 x 16 units and every warp tile must divide the accumulator evenly.
/// Fails with a message when no partition exists.
llvm::Expected<WarpPartition> computeWarpPartition(GemmInstr instr,
                                                   WarpPolicy policy,
                                                   int64_t m, int64_t n,
                                                   int64_t numWarps);

/// One `T.gemm` as layout inference sees it.
struct GemmConfig {
  /// Target family.
  GemmArch arch = GemmArch::SM80;
  /// Problem tile: C is M x N, the reduction is K.
  int64_t m = 0, n = 0, k = 0;
  /// Width of the A and B elements in bits (16 for f16/bf16, 8 for
  /// int8/fp8).
  unsigned abBits = 16;
  /// Width of the accumulator elements (32 for f32/i32, 16 for f16).
  unsigned accBits = 32;
  /// A is stored [K, M].
  bool transA = false;
  /// B is stored [N, K].
  bool transB = false;
  /// Warp partition policy.
  WarpPolicy policy = WarpPolicy::Square;
  /// Threads of the block (or of the gemm's thread range).
  int64_t threads = 128;
};

/// The instruction TileLang selects: on SM90, WGMMA when M % 64 == 0, the
/// warp count is a multiple of 4 and the operand types allow it (16-bit:
/// any transposes, K % 16 == 0; 8-bit: A K-major and B K-major, K % 32 ==
/// 0); otherwise MMA. CDNA: MFMA.
GemmInstr selectGemmInstr(const GemmConfig &config);

/// The warp grid of \p config (instruction from selectGemmInstr()).
llvm::Expected<WarpPartition> gemmWarpPartition(const GemmConfig &config);

//===----------------------------------------------------------------------===//
// Warp-level atoms (lane-relative threads)
//===----------------------------------------------------------------------===//

/// PTX `mma.m16n8k16` / `m16n8k32` accumulator of one instruction: [16, 8],
/// 4 registers, lane = 4 * (i % 8) + j // 2, reg = 2 * (i // 8) + j % 2.
Fragment mmaInstrC();
/// TileLang's 16 x 16 accumulator atom (two n8 instructions side by side):
/// 8 registers, the second n8 half in registers 4..7.
Fragment mmaAtomC();
/// TileLang's A atom over [m, k]: [16, 16] for 16-bit (8 regs), [16, 32]
/// for 8-bit (16 regs), [16, 8] for 32-bit (m16n8k8 .tf32, 4 regs) or
/// [16, 4] for 64-bit (two m8n8k4 .f64, 2 regs), in PTX register order.
Fragment mmaAtomA(unsigned abBits);
/// TileLang's B atom over [n, k] (two n8 instructions): [16, 16] for 16-bit
/// (8 regs), [16, 32] for 8-bit (16 regs), [16, 8] for 32-bit (4 regs),
/// [16, 4] for 64-bit (2 regs); registers of the second n8 half follow
/// those of the first.
Fragment mmaAtomB(unsigned abBits);
/// The wgmma `m64nNk16` accumulator of one warpgroup: [64, N] with
/// N % 8 == 0, N / 2 registers, 128 threads; warp w owns rows 16w..16w+15.
Fragment wgmmaAtomC(int64_t n);
/// CDNA MFMA 16x16x16 A over [m, k]: lane = m + 16 * (k // 4), reg = k % 4.
Fragment mfmaAtomA();
/// CDNA MFMA 16x16x16 B over [k, n]: lane = n + 16 * (k // 4), reg = k % 4.
Fragment mfmaAtomB();
/// CDNA MFMA 16x16 accumulator as the hardware defines D[i][j]:
/// lane = 16 * (i // 4) + j, reg = i % 4.
Fragment mfmaInstrD();
/// TileLang's CDNA accumulator (operands swapped, so C = D^T): lane =
/// m + 16 * (n // 4), reg = n % 4.
Fragment mfmaAtomC();
/// CDNA MFMA 32x32x8 (f16, bf16) A over [m, k] = [32, 8]: lane = m + 32 *
/// (k // 4), reg = k % 4.
Fragment mfma32AtomA();
/// CDNA MFMA 32x32x8 B over [k, n] = [8, 32]: lane = n + 32 * (k // 4),
/// reg = k % 4.
Fragment mfma32AtomB();
/// CDNA MFMA 32x32 accumulator as the hardware defines D[i][j] (16
/// registers): lane = 32 * ((i % 8) // 4) + j, reg = 4 * (i // 8) + i % 4.
Fragment mfma32InstrD();
/// The 32x32 accumulator with the operands swapped (C = D^T): lane = m +
/// 32 * ((n % 8) // 4), reg = 4 * (n // 8) + n % 4. Over a [32, 32 c] tile
/// with K = 32 c it equals mfma32AtomA() repeated c times along K, so a
/// converted accumulator is the next gemm's register A.
Fragment mfma32AtomC();

/// The MFMA tile edge (16 or 32) of \p config's wavefronts: 32 (v_mfma
/// _f32_32x32x8 f16/bf16, _i32_32x32x16_i8, _f32_32x32x16_fp8_fp8) when the
/// operands are 16- or 8-bit and every wavefront's tile of C is a multiple
/// of 32 x 32, else 16. Fails as gemmWarpPartition() does.
llvm::Expected<int64_t> mfmaTileOf(const GemmConfig &config);

/// Swaps the two inputs of a rank-2 fragment (the layout of the transposed
/// buffer).
Fragment transpose2D(const Fragment &fragment);

//===----------------------------------------------------------------------===//
// Block-level layouts
//===----------------------------------------------------------------------===//

/// The accumulator fragment of \p config over [M, N].
llvm::Expected<Fragment> gemmAccumulatorFragment(const GemmConfig &config);
/// The fragment of operand A or B held in registers (`gemm_rs` / `gemm_sr`),
/// over the buffer's shape ([M, K] or [K, M] for A; [K, N] or [N, K] for B).
/// A is replicated over the warps along N, B over the warps along M.
llvm::Expected<Fragment> gemmOperandFragment(const GemmConfig &config,
                                             GemmOperand operand);
/// The shared-memory layout of operand A or B over \p bufferShape (the last
/// two dimensions are the matrix; leading ones are pipeline stages).
llvm::Expected<Layout> gemmOperandSharedLayout(const GemmConfig &config,
                                               GemmOperand operand,
                                               llvm::ArrayRef<int64_t> bufferShape);

/// Where a gemm operand lives.
enum class OperandScope : uint8_t { Shared, Fragment };

/// Either layout of one gemm operand.
struct OperandLayout {
  /// Set for shared operands.
  std::optional<Layout> shared;
  /// Set for fragment operands and for C.
  std::optional<Fragment> fragment;
};

/// The single entry point for layout inference: the layout \p config imposes
/// on \p operand stored in \p scope with \p bufferShape. C must be a
/// fragment; A and B may be either.
llvm::Expected<OperandLayout>
layoutForGemmOperand(const GemmConfig &config, GemmOperand operand,
                     OperandScope scope, llvm::ArrayRef<int64_t> bufferShape);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_GEMMLAYOUTS_H
