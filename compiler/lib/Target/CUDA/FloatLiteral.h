//===- FloatLiteral.h - Float constants in CUDA/HIP C++ --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device C++ spelling of a floating-point value: a literal that keeps
// the value's sign (-0.0 is `-0.0f`, not the integer `-0`), and bit
// patterns for the infinities and NaN, which have no literal.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CUDA_FLOATLITERAL_H
#define TLC_LIB_TARGET_CUDA_FLOATLITERAL_H

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <string>

namespace tlc::target::cuda_detail {

/// \p v as a float literal (`1.5f`), or a double one when \p isDouble.
inline std::string floatLiteral(double v, bool isDouble) {
  if (std::isnan(v))
    return isDouble ? "__longlong_as_double(0x7ff8000000000000ll)"
                    : "__int_as_float(0x7fc00000)";
  if (std::isinf(v))
    return std::string(v < 0 ? "-" : "") +
           (isDouble ? "__longlong_as_double(0x7ff0000000000000ll)"
                     : "__int_as_float(0x7f800000)");
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.17g", v);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return isDouble ? s : s + "f";
}

} // namespace tlc::target::cuda_detail

#endif // TLC_LIB_TARGET_CUDA_FLOATLITERAL_H
