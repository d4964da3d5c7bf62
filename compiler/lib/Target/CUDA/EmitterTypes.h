//===- EmitterTypes.h - Values of the CUDA emitter --------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The values the parts of the CUDA emitter pass each other: a fragment's
// layout as the printer reads it, the part of a fragment a copy touches, a
// buffer access resolved to its root.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CUDA_EMITTERTYPES_H
#define TLC_LIB_TARGET_CUDA_EMITTERTYPES_H

#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/FragmentRegisters.h"
#include "tlc/Layout/FragmentTables.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>

namespace tlc::target::cuda_detail {

using layout::BitLinear;
using layout::FragmentTables;

/// How a `local.fragment` buffer is spread over the threads: its TLCLayout
/// fragment plus the fitted inverse map (thread, register) -> coordinate.
struct FragmentInfo {
  llvm::SmallVector<int64_t> shape;
  int64_t numel = 0;
  /// The layout (from a gemm, a reduction, a T.Parallel or the default).
  layout::Fragment layout;
  /// Registers per thread.
  int64_t regs = 0;
  /// Threads [0, threadExtent) hold elements.
  int64_t threadExtent = 0;
  /// Inputs (tid, register) -> logical coordinate.
  BitLinear coords;
  /// Thread bits that only select a replica.
  int64_t repMask = 0;
  /// The test true in one replica of each element (replica 0), for code
  /// that must run once per element: "(tid & M) == 0" ("" when unique).
  std::string oneReplica() const {
    return repMask ? "(tid & " + std::to_string(repMask) + ") == 0" : "";
  }
  /// `if (oneReplica())`, or "" when every element has one thread.
  std::string ifOneReplica() const {
    return repMask ? "if (" + oneReplica() + ")" : "";
  }
  /// Consecutive registers that hold consecutive elements of the last
  /// dimension (aligned): the vector width of copies.
  int64_t vec = 1;
  /// The enumerated facts of `layout` (null for a default-constructed info).
  std::shared_ptr<const FragmentTables> tables;
  /// A layout with empty slots (tables->emptySlots, a guarded partition's
  /// last round): the dimensions whose fitted coordinate an empty slot
  /// takes past the extent / below 0, or for a flat map whether its flat
  /// index does; emitCoords skips such slots.
  llvm::SmallVector<unsigned> guardAbove, guardBelow;
  bool guardFlat = false;
  bool hasEmptySlots() const { return tables && tables->emptySlots; }
  /// The layout as the exchange choice and register maps read it.
  layout::IndexedFragment indexed() const {
    return {&layout, tables.get(), &coords, shape};
  }
};

/// What is statically known about an integer index value (the shared
/// analysis of IndexIntervals.h).
using IndexRange = tile::IndexInterval;

/// The part of a fragment a T.copy touches: a tile.region of it, or the
/// whole fragment. An offset is a constant plus, where the region starts at
/// a run-time value (`C_local[:, i * 64 : (i + 1) * 64]` in a loop), a C++
/// expression.
struct FragmentWindow {
  llvm::SmallVector<int64_t> offsets, extents;
  /// Per dimension, the run-time part of the offset ("" when constant) and
  /// the multiple it is known to be of.
  llvm::SmallVector<std::string> dynamicOffsets;
  llvm::SmallVector<int64_t> dynamicDivisors;
  bool whole = true;
  /// Whether dimension \p d's offset is a constant.
  bool isConstant(unsigned d) const { return dynamicOffsets[d].empty(); }
  /// The offset of dimension \p d as a C++ expression.
  std::string offset(unsigned d) const {
    if (isConstant(d))
      return std::to_string(offsets[d]);
    if (offsets[d] == 0)
      return "(" + dynamicOffsets[d] + ")";
    return "(" + dynamicOffsets[d] + " + " + std::to_string(offsets[d]) + ")";
  }
  /// Whether dimension \p d's offset is a multiple of \p n.
  bool offsetMultipleOf(unsigned d, int64_t n) const {
    return offsets[d] % n == 0 &&
           (isConstant(d) || dynamicDivisors[d] % n == 0);
  }
};

/// A buffer access resolved to its allocation or parameter.
struct RootAccess {
  /// The tile.alloc result or tile.func argument.
  mlir::Value root;
  /// One C++ index expression per dimension of the root.
  llvm::SmallVector<std::string> indices;
  /// Per dimension, what is known about the index (empty: nothing).
  llvm::SmallVector<std::optional<IndexRange>> ranges;
};

/// What the CUDA targets' instruction sets have, by compute capability
/// \p cc (the oldest of the build's architectures). The 'a' targets'
/// features belong to that architecture family alone (PTX ISA, "Target
/// ISA notes"), so a higher number does not imply them: sm_120a (consumer
/// Blackwell) has TMA, clusters and mbarrier transaction counts, as
/// sm_90a, but neither Hopper's wgmma nor the sm_100 family's tcgen05 and
/// tensor memory; its tensor cores are reached through mma.sync.
/// wgmma.mma_async and its descriptors: sm_90a.
inline bool hasWgmma(unsigned cc) { return cc == 90; }
/// The sm_100 family's own (sm_100a; sm_103a has them too): tcgen05 and
/// tensor memory, TMA gather4 / scatter4, cvt.rs stochastic rounding
/// (ptxas 13 refuses the last two for sm_120a).
inline bool hasTcgen05(unsigned cc) { return cc == 100 || cc == 103; }
/// Blackwell's on both families (ptxas 13 assembles them for sm_100a and
/// sm_120a): cluster launch control, the m8n16 sub-byte ldmatrix.
inline bool hasBlackwell(unsigned cc) { return hasTcgen05(cc) || cc == 120; }
/// The `a` that tlc's target name for \p cc carries (sm_90a, sm_100a,
/// sm_120a), else "".
inline const char *archSuffix(unsigned cc) {
  return cc == 90 || cc == 100 || cc == 103 || cc == 120 ? "a" : "";
}

} // namespace tlc::target::cuda_detail

#endif // TLC_LIB_TARGET_CUDA_EMITTERTYPES_H
