//===- EnumerationLimit.h - How far layouts are enumerated -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Layouts and fragments are checked by enumerating their tile. No tile a
// block holds comes near kMaxEnumeratedInputs (shared memory holds at most
// 228 KiB, the register file 255 registers per thread), so past it an
// analysis answers without enumerating: Layout::get by interval bounds (an
// error when they do not hold), the evaluator, the bank-conflict check and
// the layout views by skipping the tile (an error at its allocation or
// kernel already).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_ENUMERATIONLIMIT_H
#define TLC_LAYOUT_ENUMERATIONLIMIT_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <limits>

namespace tlc {
namespace layout {

/// The most inputs a layout or fragment is enumerated over.
constexpr int64_t kMaxEnumeratedInputs = int64_t(1) << 22;

/// Number of elements of \p shape, INT64_MAX when the product overflows
/// int64 (0 when an extent is 0 or less).
inline int64_t numElementsSaturated(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t e : shape) {
    if (e <= 0)
      return 0;
    n = n > std::numeric_limits<int64_t>::max() / e
            ? std::numeric_limits<int64_t>::max()
            : n * e;
  }
  return n;
}

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_ENUMERATIONLIMIT_H
