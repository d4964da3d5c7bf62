//===- FloatLiteral.h - Float constants in generated C++ --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ spelling of a floating-point value in the code the targets
// generate: a literal that keeps the value's sign (-0.0 is `-0.0f`, not the
// integer `-0`), and, for the infinities and NaN, which have no literal,
// bit casts in CUDA/HIP device code or std::numeric_limits in the CPU
// target's host C++.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_FLOATLITERAL_H
#define TLC_TARGET_FLOATLITERAL_H

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <string>

namespace tlc::target {

/// Which C++ the literal is compiled as.
enum class FloatSpelling {
  /// CUDA or HIP device code: NaN and the infinities as bit casts
  /// (`__int_as_float`, `__longlong_as_double`); 17 significant digits.
  Device,
  /// The CPU target's host C++: std::numeric_limits; 9 significant digits
  /// for a float (enough to give back any float), 17 for a double.
  Host,
};

/// \p v as a literal of type double when \p isDouble, else float (`1.5f`).
inline std::string floatLiteral(double v, bool isDouble, FloatSpelling how) {
  if (std::isnan(v) || std::isinf(v)) {
    std::string sign = std::isinf(v) && v < 0 ? "-" : "";
    if (how == FloatSpelling::Host)
      return sign + "std::numeric_limits<" + (isDouble ? "double" : "float") +
             ">::" + (std::isnan(v) ? "quiet_NaN()" : "infinity()");
    if (std::isnan(v))
      return isDouble ? "__longlong_as_double(0x7ff8000000000000ll)"
                      : "__int_as_float(0x7fc00000)";
    return sign + (isDouble ? "__longlong_as_double(0x7ff0000000000000ll)"
                            : "__int_as_float(0x7f800000)");
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(how == FloatSpelling::Host && !isDouble ? "%.9g" : "%.17g",
                     v);
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return isDouble ? s : s + "f";
}

} // namespace tlc::target

#endif // TLC_TARGET_FLOATLITERAL_H
