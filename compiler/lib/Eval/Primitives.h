//===- Primitives.h - Matched arguments of T.* calls (private) --*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_PRIMITIVES_H
#define TLC_LIB_EVAL_PRIMITIVES_H

#include "Interpreter.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/Layout.h"

namespace tlc::eval {

/// The arguments of a T.* call matched against its registry parameters.
struct PArgs {
  /// The canonical registry entry.
  const lang::BuiltinInfo &info;
  /// The successful match.
  const lang::ArgumentMatch &match;
  /// The call's arguments.
  CallArgs &args;
  /// The call node.
  Node call;

  /// The value bound to \p param (nullopt when defaulted).
  std::optional<Value> get(llvm::StringRef param) const;
  /// The value bound to \p param or \p dflt.
  Value getOr(llvm::StringRef param, Value dflt) const;
  /// The argument node of \p param (the call when defaulted).
  Node node(llvm::StringRef param) const;
  /// The values collected by `*args` (named \p param).
  llvm::ArrayRef<Value> rest(llvm::StringRef param) const;
  /// A boolean parameter (Python truthiness of ints/bools).
  bool flag(llvm::StringRef param, bool dflt) const;
};

/// `T.alloc_*(shape, dtype, scope=...)`: a buffer in \p scope (or the
/// `scope` argument) with its hint (Allocations.cpp).
Value allocate(Interpreter &in, const PArgs &p, lang::MemoryScope scope);
/// `T.alloc_barrier` / `T.alloc_cluster_barrier(arrive_count)`: mbarriers in
/// \p scope, one per arrive count (Allocations.cpp).
Value allocateBarriers(Interpreter &in, const PArgs &p,
                       lang::MemoryScope scope);
/// The memory of \p src seen as a buffer of \p shape and \p dtype, in its
/// scope (a tile.view; Buffers.cpp). Poison when \p src is not usable here.
Value viewBuffer(Interpreter &in, BufferObj *src,
                 llvm::ArrayRef<SymExpr> shape, lang::DType dtype, Node at);
/// Extents of a region with unit dimensions dropped (TileCopy.cpp).
llvm::SmallVector<SymExpr, 4> squeeze(llvm::ArrayRef<SymExpr> ext);
/// Extents as `[a, b, ?]` for diagnostics (TileCopy.cpp).
std::string shapeStr(llvm::ArrayRef<SymExpr> ext);
/// A copy of element-form region \p r with the extents of \p other
/// (right-aligned); null when \p other has more non-unit dimensions than
/// \p r has (TileCopy.cpp).
RegionObj *inferExtents(Interpreter &in, RegionObj *r, const RegionObj *other);
/// True when two regions agree in shape ignoring unit dimensions (an
/// unknown extent agrees; TileCopy.cpp).
bool shapesAgree(Interpreter &in, const RegionObj *a, const RegionObj *b);
/// `T.copy(src, dst)` and its variants (TileCopy.cpp).
Value tileCopy(Interpreter &in, const PArgs &p);
/// `T.tma_copy(src, dst, barrier=...)`: the tile copy, marked as TMA's
/// (TileCopy.cpp).
Value tileTmaCopy(Interpreter &in, const PArgs &p);
/// `T.async_copy(src, dst)`: a global-to-shared copy issued as cp.async and
/// committed (TileCopy.cpp).
Value tileAsyncCopy(Interpreter &in, const PArgs &p);
/// `T.gemm(A, B, C, ...)`: checked and built as a tile.gemm; \p denseA,
/// when not None, is the A operand in place of the call's (T.gemm_sp's
/// expanded tile; TileGemm.cpp).
Value tileGemm(Interpreter &in, const PArgs &p, Value denseA = Value::none());
/// `T.fill(buffer, value)` / `T.clear(buffer)` (\p clear; TileFillReduce.cpp).
Value tileFill(Interpreter &in, const PArgs &p, bool clear);
/// `T.reduce_*(buffer, out, dim, clear)` of \p kind (TileFillReduce.cpp).
Value tileReduce(Interpreter &in, const PArgs &p, tile::ReduceKind kind);
/// `T.cumsum(src, dst, dim, reverse)` (TileFillReduce.cpp).
Value tileCumsum(Interpreter &in, const PArgs &p);
/// `T.atomic_add` (\p width 1) and `T.atomic_addx2` / `T.atomic_addx4`
/// (AtomicAdd.cpp).
Value tileAtomicAdd(Interpreter &in, const PArgs &p, int width = 1);
/// `T.gemm_sp` / `T.gemm_sp_v2`: checked, then built as the expansion of
/// the 2:4-compressed A into a dense shared tile and a tile.gemm
/// (GemmSp.cpp).
Value tileGemmSp(Interpreter &in, const PArgs &p);
/// `T.gemm_blockscaled` / `T.mma_gemm_blockscaled`: checked, then built as
/// one tile.intrinsic of A, B, C, the scale factors and k_start
/// (GemmBlockscaled.cpp).
Value tileGemmBlockscaled(Interpreter &in, const PArgs &p);
/// `tilelang.layout.make_cutlass_metadata_layout(buffer, mma_dtype, arch,
/// block_k=...)`: the CUTLASS order of T.gemm_sp's metadata as a real
/// layout of the buffer (MetadataLayout.cpp).
Value makeCutlassMetadataLayout(Interpreter &in, const PArgs &p);
/// The attribute that marks a tile.annotate_layout of
/// make_cutlass_metadata_layout's order.
inline constexpr llvm::StringLiteral kMetadataOrderAttr = "tile.metadata_order";
/// The make_cutlass_metadata_layout annotated on global tensor \p b (where
/// its elements lie in memory), or nullopt (MetadataLayout.cpp). Other
/// layouts annotated on global tensors (FlashAttention's dQ order) are not
/// applied to their copies: their atomic updates do not honour them either.
std::optional<layout::Layout> globalLayoutOf(Interpreter &in, BufferObj *b);
/// Replaces the logical element indices \p idx of \p b by the indices of
/// the place \p layout puts that element (a one-output layout's flat
/// offset is unflattened over b's static shape); false when it cannot.
bool physicalIndices(Interpreter &in, BufferObj *b,
                     const layout::Layout &layout, mlir::Location l,
                     llvm::SmallVectorImpl<mlir::Value> &idx);
/// `T.ptx_ldmatrix(trans, num, src_access_ptr, dst_access_ptr, variant)`:
/// checked, then built as a tile.intrinsic on the elements the two
/// pointers name (Ldmatrix.cpp).
Value ptxLdmatrix(Interpreter &in, const PArgs &p);
/// Rewrites the explicit schedule of the T.Pipelined loop \p op, built
/// from \p loop, when it has TileLang's warp-specialised forms (group=
/// runs, -1 producer entries) into one stage and order per statement, or
/// marks it as one no target can build (PipelineSchedules.cpp).
void normalizePipelineSchedule(Interpreter &in, tile::PipelinedOp op,
                               const LoopFrameObj &loop);
/// `T.tvm_thread_allreduce(size, values..., cond, dests..., threads...)`
/// under the reducer of the enclosing `T.attr(..., "reduce_scope", ...)`:
/// built from warp shuffles and shared memory (ThreadAllreduce.cpp).
Value threadAllreduce(Interpreter &in, const PArgs &p);
/// `T.reduce_argmax` (\p isMax) / `T.reduce_argmin(buffer, out, dim)`:
/// checked, then expanded into two tile reductions (ArgReduce.cpp).
Value tileArgReduce(Interpreter &in, const PArgs &p, bool isMax);
/// `T.transpose(src, dst)`: checked, then a T.Parallel copy with the last
/// two axes swapped (Transpose.cpp).
Value tileTranspose(Interpreter &in, const PArgs &p);

// TileLang's Ascend back end (Ascend.cpp).
/// Checks the `l2_cache_ctrl` argument of \p p (T.copy, T.dual_copy): an
/// integer or the name of an Ascend L2 policy. False after an error.
bool checkL2CacheCtrl(Interpreter &in, const PArgs &p);
/// Checks T.copy's Ascend keywords (l2_cache_ctrl, pad_value / data_select,
/// scale) for a copy of \p src into \p dst; marks the kernel Ascend-only
/// for pad_value. False after an error.
bool checkAscendCopyOptions(Interpreter &in, const PArgs &p, RegionObj *src,
                            RegionObj *dst);
/// `T.copy(src, dst, transpose=True)`: dst is src with its last two axes
/// swapped (T.transpose); the kernel is marked Ascend-only.
Value ascendTransposeCopy(Interpreter &in, const PArgs &p, Value src,
                          Value dst);
/// `T.alloc_l0a_sf(buf, sf_dtype, sf_shape)` / `T.alloc_l0b_sf`: the MX
/// scale-factor handle bound to the L0A / L0B data tile `buf`.
Value allocScaleHandle(Interpreter &in, const PArgs &p);
/// `T.assume_no_conflict(a, b, level=, cross=, group=)`: checked; no IR.
Value assumeNoConflict(Interpreter &in, const PArgs &p);
/// `T.annotate_manual_multi_buffer(*items)` / `T.annotate_unlimit_memory(
/// *scopes)`: checked; the kernel is marked Ascend-only.
Value ascendScheduleAnnotation(Interpreter &in, const PArgs &p);
/// `T.blockscaled_gemm` into an L0C accumulator (Ascend's form): the scales
/// are both given or, for L0A / L0B operands, both left to T.copy(scale=);
/// the kernel is marked Ascend-only. Otherwise SFA_tmem and SFB_tmem are
/// required (the SM100 form). False after an error.
bool checkAscendBlockscaledGemm(Interpreter &in, const PArgs &p);
/// `T.atomic_max` / `T.atomic_min` with a tile as the value: element by
/// element over a T.Parallel (AtomicMinMax.cpp); nullopt for the scalar
/// forms.
std::optional<Value> tileAtomicMinMax(Interpreter &in, const PArgs &p);

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_PRIMITIVES_H
