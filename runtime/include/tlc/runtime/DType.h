//===- DType.h - Element types of kernel tensors on the host ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The TileLang dtypes a manifest names (`float16`, `bfloat16`,
// `float8_e4m3fn`, `int32`, ...): their storage size, conversions of one
// element to and from double (rounding as the device stores them), their
// NumPy spelling and the verification tolerances.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_DTYPE_H
#define TLC_RUNTIME_DTYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tlc::runtime {

/// The kind of values a dtype holds.
enum class DTypeClass { Float, SignedInt, UnsignedInt, Bool };

/// Which dtype (the element conversions switch on it, not on the name).
enum class DTypeCode {
  F16, BF16, F32, TF32, F64, E4M3FN, E5M2, E4M3FNUZ, E5M2FNUZ, E8M0FNU,
  E2M1FN,
  I4, U4, I8, I16, I32, I64, U8, U16, U32, U64, Bool
};

/// Facts about one dtype.
struct DType {
  /// TileLang name (`float16`).
  std::string name;
  /// Bytes per element.
  size_t size = 0;
  /// Value kind.
  DTypeClass cls = DTypeClass::Float;
  /// NumPy descr of the stored `.npy` (`<f2`); types NumPy lacks (bf16,
  /// fp8, tf32) are saved as float32 (`<f4`).
  std::string npyDescr;
  /// Relative tolerance of verification.
  double rtol = 0;
  /// Absolute tolerance of verification.
  double atol = 0;
  /// The dtype as a code (set by lookupDType together with the name).
  DTypeCode code = DTypeCode::F32;

  /// True for floating-point dtypes.
  bool isFloat() const { return cls == DTypeClass::Float; }
  /// True for float4_e2m1fn, int4 and uint4, stored two elements a byte
  /// (element 2k in the low nibble, like torch's float4_e2m1fn_x2 and its
  /// int4 in int8 bytes); `size` is then the byte holding a pair and
  /// load()/store() read and write a low nibble.
  bool isPacked() const {
    return code == DTypeCode::E2M1FN || code == DTypeCode::I4 ||
           code == DTypeCode::U4;
  }
  /// The bytes \p n elements take in memory.
  size_t storageBytes(int64_t n) const {
    return isPacked() ? size_t((n + 1) / 2) : size_t(n) * size;
  }
  /// Reads the element at \p p as a double (exact).
  double load(const void *p) const;
  /// Stores \p v at \p p, rounding to nearest even for floats (fp8
  /// saturating), truncating toward zero and saturating for integers.
  void store(void *p, double v) const;
  /// Stores tlc-run's poison (floats only): a quiet NaN with a payload no
  /// arithmetic produces (float16 0x7e5a, bfloat16 0x7fda, float32 and
  /// tfloat32 0x7fe5a5a5, float64 0x7ffa5a5a5a5a5a5a, float8_e5m2 0x7d),
  /// so an element still holding it was not written; dtypes with one NaN
  /// (float8_e4m3fn) or none get that NaN.
  void storeNaN(void *p) const;
  /// Whether the element at \p p holds the poison storeNaN() stores (for
  /// dtypes whose NaNs cannot be told apart: whether it is a NaN).
  bool isPoison(const void *p) const;
  /// Reads the \p n consecutive elements at \p p (not packed) as load()
  /// does into \p values and, into \p poison, whether each holds the
  /// poison (isPoison()): one dispatch on the dtype for the whole run, so
  /// the loops over float16, bfloat16, float32 and float64 carry no call
  /// per element (tlc-run --verify on tensors of 10^9 elements).
  void loadMany(const void *p, int64_t n, double *values, bool *poison) const;
};

/// The dtype named \p name, or nullopt when the runtime does not know it.
std::optional<DType> lookupDType(llvm::StringRef name);

} // namespace tlc::runtime

#endif // TLC_RUNTIME_DTYPE_H
