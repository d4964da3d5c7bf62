//===- Fragment.h - Distribution of a tile over thread registers -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A Fragment describes a `local.fragment` buffer: logically block-wide,
// physically spread over the registers of the block's threads. For an element
// at logical coordinate (i, j, ...) and a replica `rep` in [0, replicate):
//
//   thread = forwardThread(i, j, ..., rep)     owning thread (block-relative)
//   index  = forwardIndex(i, j, ...)           register index in that thread
//
// Inputs have ids 0 .. rank-1 and are printed i, j, k, ...; the replica input
// has id `rank` and is printed `rep`. A Fragment is valid for a block of T
// threads when every (element, replica) lands on a distinct (thread, index)
// slot with thread < T (verify()).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_FRAGMENT_H
#define TLC_LAYOUT_FRAGMENT_H

#include "tlc/Layout/IndexExpr.h"
#include "tlc/Layout/Layout.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tlc {
namespace layout {

/// Where a fragment came from; used by labels and hovers.
struct FragmentOrigin {
  /// Short name of the hardware layout or derivation: `mma.C`, `mma.A`,
  /// `wgmma.C`, `mfma.B`, `mma.C row` (a reduction), `parallel`, ...
  std::string tag;
  /// Warp grid along M (rows) and N (columns) for gemm fragments, 0 if none.
  int64_t warpRows = 0;
  /// See warpRows.
  int64_t warpCols = 0;
};

/// The slot an element replica lives in.
struct FragmentSlot {
  /// Owning thread, block-relative.
  int64_t thread;
  /// Register index inside the thread (row-major flat over getIndexShape()).
  int64_t index;
};

/// A thread/register distribution of a tile.
class Fragment {
public:
  /// Creates an empty fragment.
  Fragment() = default;

  /// Creates a fragment over \p inputShape. \p forwardIndex may only mention
  /// the inputs; \p forwardThread may also mention `rep` (id = rank).
  /// \p replicate >= 1. Expressions are simplified; every expression must be
  /// defined and non-negative on the tile.
  static llvm::Expected<Fragment> get(std::vector<int64_t> inputShape,
                                      std::vector<IndexExpr> forwardIndex,
                                      IndexExpr forwardThread,
                                      int64_t replicate = 1,
                                      FragmentOrigin origin = {});
  /// Parses the expressions from text over the names `i, j, ...` and `rep`
  /// (see parseIndexExpr) and calls get().
  static llvm::Expected<Fragment>
  parse(std::vector<int64_t> inputShape,
        llvm::ArrayRef<std::string> forwardIndex,
        llvm::StringRef forwardThread, int64_t replicate = 1,
        FragmentOrigin origin = {});
  /// Every thread of \p threads holds the whole tile (thread = rep,
  /// replicate = threads), row-major in registers. Used for scalars read in
  /// conditions and indices.
  static Fragment fullyReplicated(llvm::ArrayRef<int64_t> shape,
                                  int64_t threads);

  /// The logical shape.
  llvm::ArrayRef<int64_t> getInputShape() const { return inputShape; }
  /// Number of logical dimensions.
  unsigned getInputRank() const { return inputShape.size(); }
  /// The register index expressions (usually one).
  llvm::ArrayRef<IndexExpr> getForwardIndex() const { return forwardIndex; }
  /// The thread expression (may mention `rep`).
  const IndexExpr &getForwardThread() const { return forwardThread; }
  /// Number of threads holding each element.
  int64_t getReplicate() const { return replicas; }
  /// The id of the `rep` input (= rank).
  unsigned getRepId() const { return inputShape.size(); }
  /// Provenance for labels.
  const FragmentOrigin &getOrigin() const { return origin; }
  /// Replaces the provenance.
  void setOrigin(FragmentOrigin newOrigin) { origin = std::move(newOrigin); }

  /// The per-thread register array shape (max + 1 of each index output).
  llvm::ArrayRef<int64_t> getIndexShape() const { return indexShape; }
  /// Registers per thread: the number of elements of getIndexShape().
  int64_t getRegsPerThread() const { return numElements(indexShape); }
  /// max(thread) + 1 over the tile and all replicas.
  int64_t getThreadExtent() const { return threadExtent; }

  /// The slot of element \p coord, replica \p rep; std::nullopt outside the
  /// tile.
  std::optional<FragmentSlot> apply(llvm::ArrayRef<int64_t> coord,
                                    int64_t rep = 0) const;

  /// Checks that every element is held exactly getReplicate() times, by
  /// distinct threads, all below \p blockThreads, and that no two
  /// (element, replica) pairs share a (thread, index) slot. The error names
  /// the first offending element.
  llvm::Error verify(int64_t blockThreads) const;

  /// Tiles input dimension \p dim \p factor times. The tile number t of the
  /// new coordinate x' (x = x' % extent, t = x' // extent) is added to the
  /// thread (`+ t * getThreadExtent()`) when \p onThread, else to the
  /// register index (`+ t * getRegsPerThread()`).
  Fragment repeat(unsigned dim, int64_t factor, bool onThread) const;
  /// Multiplies the replication by \p factor: copy c of each replica goes to
  /// thread `thread + c * getThreadExtent()`.
  Fragment replicate(int64_t factor) const;
  /// Adds \p offset to every thread id (a fragment bound to a thread range
  /// that does not start at 0, e.g. a consumer warpgroup).
  Fragment shiftThreads(int64_t offset) const;
  /// Reorders the inputs: input d of the result is input \p perm[d] of this
  /// fragment (a transpose for rank 2 with perm = {1, 0}).
  Fragment permuteInputs(llvm::ArrayRef<unsigned> perm) const;

  /// The inverse map as a table: for every (thread, flat index) slot, the
  /// logical coordinate and replica stored there, or an empty vector for an
  /// unused slot. Indexed `[thread * getRegsPerThread() + index]`; each entry
  /// is the coordinate followed by the replica number. Fails when two
  /// replicas share a slot.
  llvm::Expected<std::vector<std::vector<int64_t>>> invertTable() const;

  /// Semantic equality: same shape, same replication, and every element
  /// replica on the same slot.
  bool isEquivalentTo(const Fragment &other) const;
  /// True when every thread that holds an element in \p other also holds it
  /// here (TileLang's "contains": switching to this layout keeps what each
  /// thread had).
  bool contains(const Fragment &other) const;

  /// `Fragment([16, 8] -> [4], replicate: 1, threads: 32, thread = ...,
  /// index = ...)`.
  void print(llvm::raw_ostream &os) const;
  /// A label for inlay hints: `mma.C · 2×2 warps · 64 regs/thread`, with
  /// `· rep 4` appended when replicated.
  std::string shortLabel() const;
  /// A multi-line description for hovers: shape, threads, registers,
  /// replication, the two formulas and a table `T<thread>:<register>` of the
  /// top-left \p rows x \p cols corner (replica 0).
  std::string longForm(unsigned rows = 8, unsigned cols = 8) const;
  /// A string that determines the map: the shape, the replication, the
  /// simplified formulas and the extents (not the origin). Fragments with
  /// equal keys place every element replica on the same slot; for caches of
  /// facts derived by enumeration.
  std::string structuralKey() const;

private:
  /// Builds a fragment whose extents are already known (derived
  /// analytically from a valid fragment); only simplifies.
  static Fragment getWithExtents(std::vector<int64_t> inputShape,
                                 std::vector<IndexExpr> forwardIndex,
                                 IndexExpr forwardThread, int64_t replicate,
                                 FragmentOrigin origin,
                                 std::vector<int64_t> indexShape,
                                 int64_t threadExtent);

  std::vector<int64_t> inputShape;
  std::vector<IndexExpr> forwardIndex;
  IndexExpr forwardThread;
  int64_t replicas = 1;
  FragmentOrigin origin;
  std::vector<int64_t> indexShape;
  int64_t threadExtent = 0;
  /// Postfix forms of forwardIndex / forwardThread for enumeration.
  std::vector<CompiledIndexExpr> compiledIndex;
  CompiledIndexExpr compiledThread;
  /// Fills compiledIndex / compiledThread.
  void compile();
  /// The slot of \p point (a coordinate followed by the replica), which
  /// must lie in the tile.
  FragmentSlot slotAt(llvm::ArrayRef<int64_t> point) const;
};

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_FRAGMENT_H
