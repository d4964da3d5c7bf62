//===- BankConflicts.h - Shared-memory bank conflicts of warp accesses -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared memory is 32 banks of 4 bytes (LayoutMap.h). A warp's access is
// served in phases: 4-byte (and narrower) accesses in one phase of 32
// lanes, 8-byte accesses in two of 16 lanes, 16-byte accesses in four of 8
// lanes (each phase moves at most one 128-byte wavefront's worth). Within a
// phase, lanes reading the same 4-byte word share it (broadcast); distinct
// words of one bank are served one wavefront each. The conflict degree of a
// phase is the most distinct words any bank holds; an access's degree is
// the largest over its phases (1: conflict-free). ldmatrix reads its 8x8
// matrices one per phase, each as eight 16-byte row reads, which is the
// 16-byte rule.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_BANKCONFLICTS_H
#define TLC_LAYOUT_BANKCONFLICTS_H

#include "tlc/Layout/Layout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace tlc {
namespace layout {

/// One warp-wide shared-memory instruction.
struct WarpAccess {
  /// Byte address of each lane's access, or -1 for an inactive lane.
  std::array<int64_t, 32> address;
  /// Bytes each lane accesses: 1, 2, 4, 8 or 16 (naturally aligned).
  int64_t bytes = 4;
  WarpAccess() { address.fill(-1); }
};

/// Lanes served together for accesses of \p bytes bytes: 32, 16 or 8.
int64_t lanesPerPhase(int64_t bytes);

/// The conflict degree of \p access (1 when conflict-free, 0 when no lane
/// is active).
int64_t bankConflictDegree(const WarpAccess &access);

/// The element offsets a warp accesses, by lane: the logical coordinate of
/// each active lane's first element (std::nullopt for an inactive lane).
using LaneCoords = std::array<std::optional<std::vector<int64_t>>, 32>;

/// The access of lanes \p lanes to a shared buffer of layout \p layout (one
/// output, the element offset) whose elements are \p elementBytes wide,
/// each lane moving \p vectorElems elements at once (consecutive in the
/// layout: the caller checks). \p baseBytes is added to every address.
WarpAccess sharedAccess(const Layout &layout, int64_t elementBytes,
                        int64_t vectorElems, const LaneCoords &lanes,
                        int64_t baseBytes = 0);

/// True when elements coord .. coord + n - 1 along the last dimension are
/// consecutive in \p layout for every coord whose last index is a multiple
/// of \p n (a vector of n elements is one naturally aligned access).
bool isVectorContiguous(const Layout &layout, int64_t n);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_BANKCONFLICTS_H
