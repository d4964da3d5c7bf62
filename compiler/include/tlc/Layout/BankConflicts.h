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

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/Layout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>
#include <cstdint>
#include <memory>
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
  /// CDNA's LDS instead of NVIDIA's shared memory: the access is one half
  /// of a 64-lane wavefront (address[l] is lane 32 h + l's; every phase of
  /// CDNA lies inside one half) and is served in CDNA's phases.
  bool lds = false;
  /// A write: CDNA serves 16-byte reads and writes in different lane groups.
  bool store = false;
  WarpAccess() { address.fill(-1); }
};

/// Lanes of one phase for accesses of \p bytes bytes: 16 for 8-byte
/// accesses, else the whole warp.
int64_t lanesPerPhase(int64_t bytes);

/// The conflict degree of \p access (1 when conflict-free, 0 when no lane
/// is active). An LDS access (WarpAccess::lds) is served in CDNA's phases:
/// LDS is 32 banks of 4 bytes (bank = address bits 6:2) and a phase serves
/// 128 bytes, the most distinct words of one bank in a phase its degree
/// (lanes reading one word share it). 4-byte and narrower accesses: a
/// phase per half wavefront (lanes 0-31, 32-63); 8-byte: quarter
/// wavefronts (16 consecutive lanes); ds_write_b128: 8 consecutive lanes;
/// ds_read_b128: the lane groups 0-3 + 20-23, 4-7 + 16-19, 8-11 + 28-31,
/// 12-15 + 24-27 (and the same + 32). Sources: AMD Accelerated Parallel
/// Processing OpenCL Programming Guide, "Local Memory (LDS) Optimization"
/// (32 banks, bits 6:2, half-wavefront checks; a sequential float2 per
/// work-item conflict-free across a quarter wavefront), and AMD's CK-Tile
/// documentation "Understanding AMD GPU LDS and Bank Conflicts"
/// (rocm.docs.amd.com, composable_kernel docs/conceptual/ck_tile/hardware/
/// lds_bank_conflicts.rst: the ds_write_b128 and ds_read_b128 groups). The
/// CDNA3 ISA guide describes the instructions, not these phases.
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

/// Fragment::invertTable() of \p f, kept by the fragment's structure
/// (shape, replication, formulas) and shared: the analysis inverts the same
/// fragments again after every edit. Null when it fails.
std::shared_ptr<const std::vector<std::vector<int64_t>>>
invertTableShared(const Fragment &f);

/// How the CUDA printer spreads a T.Parallel loop over a block's threads
/// (CUDAEmitterTileOps: emitParallel). Without a fragment, step r of
/// thread t takes flat element r * threads + t of the row-major loop.
/// With one (a fragment the loop accesses at exactly its variables), thread
/// t's register r takes the fragment's element there, in every replica,
/// and threads past the fragment's thread extent do nothing.
struct LoopPartition {
  const Fragment *fragment = nullptr;
  /// Loop variable v is fragment dimension varDim[v] (identity when empty).
  std::vector<unsigned> varDim;
  /// When not empty, fragment elements outside this box are skipped.
  std::vector<int64_t> bound;
};

/// The loop coordinates of every lane of each warp instruction of a
/// T.Parallel loop of shape \p loopShape over \p threads threads
/// partitioned as \p partition: one entry per (register, warp), registers
/// outer. std::nullopt when the fragment cannot be inverted.
std::optional<std::vector<LaneCoords>>
parallelLoopWarps(llvm::ArrayRef<int64_t> loopShape, int64_t threads,
                  const LoopPartition &partition);

/// The shared scratch accesses of a reduction across warps (CUDA printer,
/// CUDAEmitterReduce): thread t stores its partial of register k at element
/// k * threads + t, then reads element k * threads + ((t & ~blockMask) | p)
/// for every p whose bits are inside \p blockMask (the cross-warp thread
/// bits). Stores first, then reads; \p bytes per element.
std::vector<WarpAccess> reductionScratchAccesses(int64_t threads,
                                                 int64_t blockMask,
                                                 int64_t regs, int64_t bytes);

/// The exchange of a fragment through shared memory (CUDA printer,
/// CUDAEmitterTileOps: emitExchange): the fragment is a row-major tile of
/// its own shape there; thread t < min(threads, thread extent) stores
/// (\p store: threads whose replica bits, those that change no
/// register's coordinate, are 0) or loads (every replica) its
/// register r at the fragment coordinate (t, r) holds, one element per
/// instruction. One entry per (register, warp), registers outer; lanes hold
/// fragment coordinates. std::nullopt when the fragment cannot be inverted.
std::optional<std::vector<LaneCoords>>
fragmentExchangeWarps(const Fragment &f, int64_t threads, bool store);

/// The shared accesses of a staged epilogue store (CUDA printer,
/// CUDAEmitterStagedStore): a 2-d fragment (its two non-unit dimensions the
/// rows and columns) is stored into a row-major tile whose rows are padded
/// by 16 bytes, \p vec registers per step and one replica, then read back
/// as 16-byte chunks in row-major order, chunk c * threads + t per step.
struct StagedStore {
  /// The padded tile (element offsets).
  Layout tile;
  /// Elements per register store.
  int64_t storeVec = 1;
  /// Rows and columns of the tile; the 16-byte pad in elements.
  int64_t rows = 0, cols = 0, padElems = 0;
  std::vector<LaneCoords> stores;
  std::vector<LaneCoords> reads;
};

/// The staged store of fragment \p f with \p elementBytes-byte elements and
/// \p vec registers per store over \p threads threads, or std::nullopt when
/// the printer would not stage it (not two non-unit dimensions with the
/// columns last, columns not whole 16-byte chunks, stores of 16 bytes).
std::optional<StagedStore> stagedStoreAccesses(const Fragment &f,
                                               int64_t threads,
                                               int64_t elementBytes,
                                               int64_t vec);

/// The worst degree of the accesses of stagedStoreAccesses() (the stores
/// and the reads back), 0 when the store is not staged; kept by the
/// fragment's structure and the arguments. \p lds: in CDNA's LDS.
int64_t stagedStoreDegree(const Fragment &f, int64_t threads,
                          int64_t elementBytes, int64_t vec, bool lds = false);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_BANKCONFLICTS_H
