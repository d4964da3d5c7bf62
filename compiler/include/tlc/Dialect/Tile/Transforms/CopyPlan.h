//===- CopyPlan.h - How a GPU block carries out a tile.copy -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The instruction choice of a `tile.copy` between memories (global, shared,
// local) on the CUDA and HIP targets: the chunk each thread moves at a
// time, whether a chunk is one vector access, a cp.async or element by
// element, HIP's whole-chunk stores into a swizzled LDS tile and whether
// the instruction itself may zero-fill a chunk outside the tensor.
// tile-plan-copies records the choice on each copy (Passes.td has the
// attributes); the GPU printer reads it. The printer falls back to
// chooseCopy() only for IR that did not go through the pass, so the
// decision has this one implementation.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_COPYPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_COPYPLAN_H

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/MfmaSharedLayouts.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace tlc {
namespace tile {

/// How the threads move one chunk of a copy.
enum class CopyInstr {
  /// Element by element (conversions, chunks that are no 4-, 8- or 16-byte
  /// vector, strided or swizzled runs).
  Element,
  /// One vector load and store per chunk (`copyVector<B>`).
  Vector,
  /// One `cp.async` of the chunk into shared memory (CUDA, in a
  /// multi-buffered pipeline's producers and `T.async_copy`).
  CpAsync,
};

/// The choice for one copy (`tile.instr`, `tile.vec`, `tile.xor_runs`,
/// `tile.zero_fill`).
struct CopyChoice {
  CopyInstr instr = CopyInstr::Element;
  /// Elements per chunk (a power of two; 1 for a conversion).
  int64_t vec = 1;
  /// HIP: the chunk is stored whole into an LDS tile swizzled in runs of
  /// this many bytes, its runs permuted in registers
  /// (`tlc::hip::storeXorRuns`); 0 otherwise.
  int64_t xorRunBytes = 0;
  /// The instruction may itself fill a chunk outside the tensor with zeros
  /// (the program's safe value for the source is 0): a `cp.async` with
  /// source size 0, or on HIP a raw buffer load of the global source
  /// through a resource that covers the whole tensor. The printer uses it
  /// where a chunk is wholly in or wholly out of bounds.
  bool zeroFill = false;
};

/// What the target offers the choice.
struct CopyTarget {
  bool hip = false;
  /// cp.async exists (every CUDA target tlc builds for).
  bool asyncCopy = false;
};

/// Whether \p copy is one chooseCopy() decides: neither side a fragment or
/// tensor memory, both of static shape with the same non-unit extents, not
/// a TMA copy (tile-plan-tma's `tile.tma`).
bool isPlannedCopy(CopyOp copy);

/// Whether \p copy is issued asynchronously where the target has cp.async:
/// a producer (`tile.prefetch`) of a multi-buffered `tile.pipelined`
/// (`tile.stages`) that TMA does not load (no `tile.tma_barriers`), or a
/// `T.async_copy` / async-scope copy (`tile.async_copy`).
bool isAsyncCopyContext(CopyOp copy);

/// Whether a HIP raw buffer resource can cover the global tensor \p root
/// (dense row-major: no `tile.strides`): a static size under 2 GiB, or a
/// symbolic one whose static factor is under 2 GiB (the rest is tested at
/// run time).
bool fitsBufferResource(mlir::Value root);

/// Whether \p vec consecutive elements (from a multiple of vec) stay
/// consecutive in the root buffer \p root given the HIP LDS swizzles
/// \p ldsSwizzle: not in a tile swizzled in shorter runs (a swizzle of one
/// phase is row-major).
bool keepsLdsRuns(
    const llvm::DenseMap<mlir::Value, layout::XorSwizzle> &ldsSwizzle,
    mlir::Value root, int64_t vec);

/// The choice for \p copy (isPlannedCopy()) on \p target, given the HIP
/// LDS swizzles of its kernel (planLdsSwizzles(); entries of one phase are
/// stored row-major and keep every run).
CopyChoice
chooseCopy(CopyOp copy, const CopyTarget &target,
           const llvm::DenseMap<mlir::Value, layout::XorSwizzle> &ldsSwizzle);

/// Records \p choice on \p copy as tile-plan-copies' attributes.
void setCopyChoice(CopyOp copy, const CopyChoice &choice);

/// The choice tile-plan-copies recorded on \p copy, if any; an error on the
/// op (and failure) when the attributes are malformed.
mlir::FailureOr<std::optional<CopyChoice>> getCopyChoice(CopyOp copy);

/// The name of \p instr as `tile.instr` spells it.
llvm::StringRef stringifyCopyInstr(CopyInstr instr);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_COPYPLAN_H
