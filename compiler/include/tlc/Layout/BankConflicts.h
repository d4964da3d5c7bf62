//===- BankConflicts.h - Shared-memory bank conflicts of warp accesses -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared memory is 32 banks of 4 bytes (LayoutMap.h). A warp's access is
// served in wavefronts of at most one 4-byte word per bank (128 bytes);
// lanes reading the same word share it (broadcast). 4-byte (and narrower)
// accesses are one phase of 32 lanes and 8-byte accesses two phases of 16
// lanes (NVIDIA's documented rule): the conflict degree of a phase is the
// most distinct words any bank holds, an access's degree the largest over
// its phases. 16-byte accesses are not served in the documented quarter
// warps on the H200 (docs/perf/bank-conflicts-h200.md: eight rows of one
// chunk column per quarter took 8 wavefronts for the whole warp, not 32):
// the warp is served at once, in as many wavefronts as the most distinct
// words of one bank, and the degree is that over the wavefronts its words
// need at least (a quarter of the warp's words when all are distinct).
// The 1 is conflict-free. ldmatrix reads its 8x8 matrices one per phase,
// each as eight 16-byte row reads: callers pass one matrix (8 lanes) per
// access.
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

/// Lanes of one phase for accesses of \p bytes bytes: 16 for 8-byte
/// accesses, else the whole warp.
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
