//===- FloatLiteral.h - Float constants in the CPU target's C++ -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host C++ spelling of a floating-point value: a literal that keeps the
// value's sign (-0.0 is `-0.0`, not the integer `-0`), and
// std::numeric_limits for the infinities and NaN.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CPP_FLOATLITERAL_H
#define TLC_LIB_TARGET_CPP_FLOATLITERAL_H

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <string>

namespace tlc::target::cpp_detail {

/// \p d as a float literal (`1.5f`, 9 significant digits) when \p isFloat,
/// else as a double one (17 digits).
inline std::string floatLiteral(double d, bool isFloat) {
  std::string ty = isFloat ? "float" : "double";
  if (std::isnan(d))
    return "std::numeric_limits<" + ty + ">::quiet_NaN()";
  if (std::isinf(d))
    return std::string(d < 0 ? "-" : "") + "std::numeric_limits<" + ty +
           ">::infinity()";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(isFloat ? "%.9g" : "%.17g", d);
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return isFloat ? s + "f" : s;
}

} // namespace tlc::target::cpp_detail

#endif // TLC_LIB_TARGET_CPP_FLOATLITERAL_H
