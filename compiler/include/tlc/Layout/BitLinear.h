//===- BitLinear.h - Maps linear in the bits of their inputs ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A fragment layout's inverse, (thread, register) -> coordinate, is what
// code generators index registers with; for tensor-core and chunked
// layouts it is linear in the bits of the thread id and the register
// number, so generated loops over registers unroll into constant register
// indices. BitLinear fits such a map from samples and prints it as a C++
// expression of shifts, masks and multiplies.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_BITLINEAR_H
#define TLC_LAYOUT_BITLINEAR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tlc::layout {

/// A map from small non-negative integers to integer vectors that is linear
/// in the bits of its inputs: out[d] = base[d] + sum over inputs v and bits b
/// of bit(x_v, b) * coef[v][b][d]. Thread/register maps of tensor-core and
/// chunked fragment layouts have this form; emitted with the register index
/// an unrolled-loop constant, so register arrays are indexed statically.
///
/// A flat map (flatShape set) fits one output, the row-major flat index over
/// flatShape, and output d is that index's coordinate d,
/// `flat / stride(d) % flatShape[d]`: the thread/register maps of
/// partitioned tiles whose extents are not powers of two (a [32, 576]
/// fragment over 128 threads) are linear in the bits only before the
/// division into rows.
struct BitLinear {
  llvm::SmallVector<int64_t> base;
  /// [input][bit][fitted output] (one fitted output when flat).
  llvm::SmallVector<llvm::SmallVector<llvm::SmallVector<int64_t>>> coef;
  /// The shape a flat map's fitted output indexes; empty otherwise.
  llvm::SmallVector<int64_t> flatShape;

  /// True when the fitted output is a flat index over flatShape.
  bool isFlat() const { return !flatShape.empty(); }

  /// Fits \p f over the box of \p extents (one per input) into \p dims
  /// outputs; std::nullopt when \p f is undefined somewhere or not linear in
  /// the bits. With \p skipUndefined, points where \p f is undefined other
  /// than 0 and the single-bit inputs are left out of the check (the map
  /// extends over them linearly: the empty slots of a guarded partition).
  static std::optional<BitLinear>
  fit(llvm::ArrayRef<int64_t> extents, unsigned dims,
      llvm::function_ref<
          std::optional<llvm::SmallVector<int64_t>>(llvm::ArrayRef<int64_t>)>
          f,
      bool skipUndefined = false);
  /// C++ expression of output \p d over the input names \p vars.
  std::string expr(unsigned d, llvm::ArrayRef<std::string> vars) const;
  /// C++ expression of fitted output \p d (the flat index of a flat map).
  std::string linearExpr(unsigned d, llvm::ArrayRef<std::string> vars) const;
  /// Bits of input \p v whose coefficients are all zero.
  int64_t zeroMask(unsigned v) const;
  /// Output \p d at \p inputs (what expr() computes at run time).
  int64_t evaluate(unsigned d, llvm::ArrayRef<int64_t> inputs) const;
  /// Fitted output \p d at \p inputs (the flat index of a flat map).
  int64_t evaluateLinear(unsigned d, llvm::ArrayRef<int64_t> inputs) const;
  /// Output \p d of a flat map at flat index \p flat.
  int64_t unflatten(unsigned d, int64_t flat) const;
};

} // namespace tlc::layout

#endif // TLC_LAYOUT_BITLINEAR_H
