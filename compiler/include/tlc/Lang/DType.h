//===- DType.h - TileLang data types ----------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The data types of the TileLang surface: every spelling a program may use
// for a dtype (`T.float16`, `"float16"`, `T.half`, `"float"`, `torch.float16`,
// `T.float16x2`, Python `float`), its canonical name, a short name for editor
// hints, its width and its class. This is plain data with no dependency on
// MLIR; the Tile dialect maps it to its own element types.
//
// Equality follows TileLang: a dtype object is a string subclass holding its
// canonical name, so `T.half == T.float16` holds, `dtype == "float16"` holds
// for a float16 dtype, and `T.float32 == "float"` does NOT (string compare).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LANG_DTYPE_H
#define TLC_LANG_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tlc {
namespace lang {

/// The scalar element types, one per row of DType.def.
enum class ScalarType : uint8_t {
#define TLC_DTYPE(Id, ...) Id,
#include "tlc/Lang/DType.def"
};

/// Number of ScalarType enumerators.
constexpr unsigned kNumScalarTypes = 0
#define TLC_DTYPE(Id, ...) +1
#include "tlc/Lang/DType.def"
    ;

/// Broad class of a scalar type.
enum class DTypeClass : uint8_t {
  /// `bool`.
  Bool,
  /// `int4` ... `int64`.
  SignedInt,
  /// `uint4` ... `uint64`.
  UnsignedInt,
  /// `float16`, `float32`, `float64`.
  IEEEFloat,
  /// `bfloat16`.
  BFloat,
  /// `tfloat32`.
  TFloat,
  /// `float8_*`.
  Float8,
  /// `float6_*`.
  Float6,
  /// `float4_*`.
  Float4,
  /// `handle` (opaque pointer).
  Handle,
};

/// A TileLang dtype: a scalar type and a lane count (1 for scalars,
/// `float16x2` has 2 lanes). Cheap to copy; compare with `==`.
class DType {
public:
  /// Creates `float32`, the default dtype of `T.Tensor`.
  constexpr DType() = default;
  /// Creates a dtype of \p scalar with \p lanes lanes (lanes >= 1).
  constexpr DType(ScalarType scalar, unsigned lanes = 1)
      : scalar(scalar), lanes(lanes) {}

  /// Parses a dtype string as `T.dtype(...)` accepts it: canonical names
  /// (`"float16"`), C aliases (`"half"`, `"float"`, `"int"`, `"long"`, ...),
  /// `custom[...]` spellings and vector forms (`"float16x2"`). Returns
  /// std::nullopt for anything else (e.g. `"float17"`, `"fp16"`).
  static std::optional<DType> parse(llvm::StringRef spelling);

  /// Parses the attribute name of `T.<name>` (e.g. `half`, `bfloat16x2`).
  /// Only names that exist as attributes of tilelang.language are accepted:
  /// `T.ulong` and `T.uint4` do not exist, `T.int4x2` does not either.
  static std::optional<DType> parseAttribute(llvm::StringRef name);

  /// Parses a torch dtype attribute name, with or without the `torch.`
  /// prefix (`float16`, `torch.half`, `torch.float`, `float8_e4m3fn`,
  /// `float4_e2m1fn_x2`).
  static std::optional<DType> parseTorch(llvm::StringRef name);

  /// Maps a Python builtin type name used as a dtype (`bool`, `int`,
  /// `float`) to `bool`, `int32` and `float32`.
  static std::optional<DType> fromPythonType(llvm::StringRef name);

  /// The scalar element type.
  constexpr ScalarType getScalarType() const { return scalar; }
  /// Number of lanes (1 for a scalar dtype).
  constexpr unsigned getLanes() const { return lanes; }
  /// True when the dtype has more than one lane.
  constexpr bool isVector() const { return lanes > 1; }
  /// The dtype of one lane.
  constexpr DType getElementType() const { return DType(scalar); }
  /// The same scalar type with \p newLanes lanes.
  constexpr DType withLanes(unsigned newLanes) const {
    return DType(scalar, newLanes);
  }

  /// The class of the scalar type.
  DTypeClass getClass() const;
  /// Bits of one lane, as TileLang's `.bits` (16 for `float16x2`).
  unsigned getBits() const;
  /// Bits of all lanes together.
  unsigned getTotalBits() const { return getBits() * lanes; }
  /// Bytes of one (vector) element rounded up (`itemsize`): 1 for `int4`.
  unsigned getItemSize() const { return (getTotalBits() + 7) / 8; }
  /// Exponent bits of a floating type, 0 otherwise.
  unsigned getExponentBits() const;
  /// Explicit mantissa bits of a floating type, 0 otherwise.
  unsigned getMantissaBits() const;

  /// The canonical name: `float16`, `float16x2`, `float8_e4m3fn`.
  std::string getName() const;
  /// The short name for hints: `f16`, `bf16x2`, `e4m3fn`, `i32`.
  std::string getShortName() const;
  /// The canonical name of the scalar type (no lane suffix).
  llvm::StringRef getScalarName() const;
  /// The one-line description of the scalar type, for hover.
  llvm::StringRef getDescription() const;

  /// `bool`.
  bool isBool() const { return getClass() == DTypeClass::Bool; }
  /// Signed or unsigned integer (not bool).
  bool isInteger() const { return isSignedInteger() || isUnsignedInteger(); }
  /// `int*`.
  bool isSignedInteger() const { return getClass() == DTypeClass::SignedInt; }
  /// `uint*`.
  bool isUnsignedInteger() const {
    return getClass() == DTypeClass::UnsignedInt;
  }
  /// Any floating type: IEEE, bfloat16, tfloat32, float8/6/4.
  bool isFloat() const;
  /// `float16`, `float32` or `float64`.
  bool isIEEEFloat() const { return getClass() == DTypeClass::IEEEFloat; }
  /// `float8_*`.
  bool isFloat8() const { return getClass() == DTypeClass::Float8; }
  /// Element narrower than a byte (`int4`, `uint4`, `float6_*`,
  /// `float4_e2m1fn`): several values share one byte in storage.
  bool isSubByte() const { return getBits() < 8; }
  /// `float4_e2m1_unpacked`, `float6_e2m3fn_unpacked` or
  /// `float6_e3m2fn_unpacked`: a 4- or 6-bit float code in the low bits of
  /// a byte of its own (TileLang's shared-memory storage tags, CUTLASS's
  /// `float_e2m1_unpacksmem_t`). Such values have no arithmetic; they are
  /// copied, reinterpreted as 8-bit integers and converted with T.Cast.
  bool isUnpackedFloat() const {
    return scalar == ScalarType::Float4E2M1Unpacked ||
           scalar == ScalarType::Float6E2M3FNUnpacked ||
           scalar == ScalarType::Float6E3M2FNUnpacked;
  }
  /// `handle`.
  bool isHandle() const { return getClass() == DTypeClass::Handle; }

  /// True when `T.<getName()>` is an attribute of tilelang.language.
  bool isAttribute() const;

  /// TileLang `==` between this dtype and a Python string: the string must
  /// equal the canonical name exactly (`"float"` is not `float32`).
  bool equalsString(llvm::StringRef str) const { return getName() == str; }

  /// Identity of canonical names (`T.half == T.float16`).
  friend constexpr bool operator==(DType a, DType b) {
    return a.scalar == b.scalar && a.lanes == b.lanes;
  }
  /// Negation of ==.
  friend constexpr bool operator!=(DType a, DType b) { return !(a == b); }

private:
  ScalarType scalar = ScalarType::Float32;
  unsigned lanes = 1;
};

/// Hash of a dtype, for DenseMap/unordered containers.
inline llvm::hash_code hash_value(DType type) {
  return llvm::hash_combine(static_cast<unsigned>(type.getScalarType()),
                            type.getLanes());
}

/// One spelling of a dtype, for completion and tests.
struct DTypeSpelling {
  /// The spelling (`half`, `float16`).
  llvm::StringRef spelling;
  /// The scalar type it denotes.
  ScalarType scalar;
  /// True when `T.<spelling>` exists.
  bool isAttribute;
  /// True for canonical names, false for aliases.
  bool isCanonical;
};

/// Every scalar spelling (canonical names first, then aliases), in DType.def
/// order. Vector forms are not listed.
llvm::ArrayRef<DTypeSpelling> getAllDTypeSpellings();

} // namespace lang
} // namespace tlc

#endif // TLC_LANG_DTYPE_H
