//===- FragmentTables.h - Enumerated facts of a fragment layout ---*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which thread and register hold each element of a fragment layout, and
// the layout's inverse fitted as a BitLinear map, enumerated once per
// layout and shared process-wide: the GPU printers and the planning
// passes that reason about fragment accesses ask these instead of
// evaluating the layout's formulas per slot.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_FRAGMENTTABLES_H
#define TLC_LAYOUT_FRAGMENTTABLES_H

#include "tlc/Layout/BitLinear.h"
#include "tlc/Layout/Fragment.h"

#include <memory>
#include <vector>

namespace tlc::layout {

/// Facts of one fragment layout that depend only on the layout (its
/// structural key), found by enumerating it once and shared by every buffer
/// and emission that uses the same layout (memoised process-wide).
struct FragmentTables {
  /// Why the layout cannot be inverted ("" when it can).
  std::string error;
  /// The inverse (tid, register) -> the first `fitRank` coordinates,
  /// fitted over [0, threadExtent) x [0, regs); std::nullopt when it is not
  /// linear in the bits. Meaningless when `error` is set.
  std::optional<BitLinear> coords;
  /// The logical shape and its row-major strides.
  llvm::SmallVector<int64_t> shape, strides;
  /// Replicas per element.
  int64_t replicate = 1;
  /// Per element (row-major): the register holding it.
  std::vector<int32_t> registerOf;
  /// Per element and replica (`[element * replicate + rep]`): the thread.
  std::vector<int32_t> threadOf;
  /// Some (thread, register) slots below the thread extent and the register
  /// count hold no element (a guarded partition's last round: 4096 elements
  /// in 4-element chunks on 384 threads leave threads 256..383 four empty
  /// registers). `coords` then extends linearly over the empty slots and
  /// maps each outside the shape (a flat map: to a flat index past the
  /// last element), so that code over the registers skips a slot whose
  /// coordinates are out of range; `filled` says which slots hold one.
  bool emptySlots = false;
  /// Per slot (`[thread * regs + register]`), when emptySlots.
  std::vector<bool> filled;
  /// Empty slots `coords` maps inside the shape are registers empty in
  /// every thread whose digit `(r >> padShift) & padMask` is at least
  /// padLimit (padMask 0: none): the padding of a register digit to a
  /// power of two (an mma accumulator of 3 m x 6 n atoms a warp).
  int64_t padShift = 0, padMask = 0, padLimit = 0;
  /// Whether slot (\p thread, \p reg) holds an element (inside the
  /// thread extent and the register count).
  bool holds(int64_t thread, int64_t reg) const {
    return !emptySlots || filled[thread * regsPerThread + reg];
  }
  /// Registers per thread.
  int64_t regsPerThread = 0;

  /// The register of thread \p thread that holds \p coord, or -1 when the
  /// coordinate is outside the shape or no replica of it is on that thread
  /// (what Fragment::apply over every replica says, without evaluating the
  /// formulas).
  int64_t registerAt(llvm::ArrayRef<int64_t> coord, int64_t thread) const;
  /// The tables of \p layout with `coords` fitted to \p fitRank outputs
  /// (the rank of the buffer), computed on first use.
  static std::shared_ptr<const FragmentTables> get(const Fragment &layout,
                                                   unsigned fitRank);
};

} // namespace tlc::layout

#endif // TLC_LAYOUT_FRAGMENTTABLES_H
