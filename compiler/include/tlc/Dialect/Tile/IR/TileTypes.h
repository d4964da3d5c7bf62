//===- TileTypes.h - Tile dialect types and dtype helpers -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `!tile.buffer` type and helpers to build and inspect it:
//
//   MLIRContext *ctx = ...;
//   auto f16 = Float16Type::get(ctx);
//   // !tile.buffer<[128, 32], f16, shared.dyn>
//   auto a = BufferType::get(ctx, {Dim(128), Dim(32)}, f16,
//                            MemoryScope::SharedDyn);
//   // !tile.buffer<[M, block_K], f16, global>
//   auto b = BufferType::get(ctx, {Dim::symbolic(ctx, "M"),
//                                  Dim::symbolic(ctx, "block_K")},
//                            f16, MemoryScope::Global);
//   b.getShapeString();            // "[M, block_K]"
//   getDTypeShortName(f16);        // "f16"
//   getDTypeName(f16);             // "float16"
//   getElementTypeForDType(ctx, "float8_e4m3fn");  // f8E4M3FN
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_TILETYPES_H
#define TLC_DIALECT_TILE_IR_TILETYPES_H

#include "tlc/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include <optional>
#include <string>

namespace tlc {
namespace tile {

/// One dimension of a buffer shape: a static extent, a symbolic extent (the
/// name of a kernel symbol or the text of an expression over symbols, e.g.
/// `block_M` or `M // 128`), or an unknown extent (`?`). Cheap to copy.
class Dim {
public:
  /// The unknown extent `?`.
  Dim() = default;
  /// The static extent \p value (>= 0).
  Dim(int64_t value) : value(value) {}
  /// A symbolic extent with text \p text.
  static Dim symbolic(mlir::StringAttr text) {
    Dim d;
    d.symbol = text;
    return d;
  }
  /// A symbolic extent with text \p text, uniqued in \p context.
  static Dim symbolic(mlir::MLIRContext *context, llvm::StringRef text) {
    return symbolic(mlir::StringAttr::get(context, text));
  }
  /// The unknown extent `?`.
  static Dim unknown() { return Dim(); }

  /// True for a static extent.
  bool isStatic() const { return !mlir::ShapedType::isDynamic(value); }
  /// True for a symbolic extent.
  bool isSymbolic() const { return static_cast<bool>(symbol); }
  /// True for `?`.
  bool isUnknown() const { return !isStatic() && !isSymbolic(); }
  /// The static extent, or ShapedType::kDynamic.
  int64_t getValue() const { return value; }
  /// The static extent if there is one.
  std::optional<int64_t> getStaticValue() const {
    if (isStatic())
      return value;
    return std::nullopt;
  }
  /// The symbolic text; null unless isSymbolic().
  mlir::StringAttr getSymbol() const { return symbol; }

  /// Decides whether two extents are equal: true for equal static values or
  /// identical symbolic texts, false for different static values, nullopt
  /// when it cannot be known (a symbol against anything else, or `?`).
  std::optional<bool> equals(const Dim &other) const;

  /// Prints the display form: `128`, `M // 128`, `?`.
  void print(llvm::raw_ostream &os) const;
  /// The display form as a string.
  std::string str() const;

  /// Structural identity (same kind and value/text).
  bool operator==(const Dim &other) const {
    return value == other.value && symbol == other.symbol;
  }
  /// Negation of ==.
  bool operator!=(const Dim &other) const { return !(*this == other); }

private:
  int64_t value = mlir::ShapedType::kDynamic;
  mlir::StringAttr symbol;
};

/// Prints a Dim in display form.
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Dim &dim) {
  dim.print(os);
  return os;
}

/// Decides whether two shapes are equal once every dimension of extent 1 is
/// dropped (TileLang's rule for `T.copy` operands): false when they are known
/// to differ, true when known equal, nullopt when symbols or `?` prevent a
/// decision.
std::optional<bool> shapesAgreeIgnoringUnitDims(llvm::ArrayRef<Dim> lhs,
                                                llvm::ArrayRef<Dim> rhs);

//===----------------------------------------------------------------------===//
// Element types and TileLang dtypes
//===----------------------------------------------------------------------===//

/// True for a type a buffer element may have: i1, signless/unsigned
/// integers, builtin floats, index, or a 1-D vector of those.
bool isValidElementType(mlir::Type type);

/// The type element values of a buffer of element type \p elementType have
/// in arithmetic: the signless integer of the same width for integers
/// (`ui8` -> `i8`), the type itself otherwise. Given a BufferType, uses its
/// element type; given anything else returns it unchanged.
mlir::Type getElementValueType(mlir::Type type);

/// The element type for a canonical TileLang dtype name (as
/// tlc::lang::DType::getName() prints it): `float16` -> f16, `bfloat16` ->
/// bf16, `bool` -> i1, `int8` -> i8, `uint8` -> ui8, `tfloat32` -> tf32,
/// `float8_e4m3fn` -> f8E4M3FN, `float4_e2m1fn` -> f4E2M1FN, `float16x2` ->
/// vector<2xf16>. C aliases (`half`, `float`, `int`, ...) are accepted too.
/// Returns a null type for names without an MLIR element type
/// (`float4_e2m1_unpacked`, `handle`) or unknown names.
mlir::Type getElementTypeForDType(mlir::MLIRContext *context,
                                  llvm::StringRef name);

/// The canonical TileLang dtype name of an element type (`float16`,
/// `uint8`, `float8_e4m3fn`, `float16x2`); empty for types that are not
/// TileLang dtypes.
std::string getDTypeName(mlir::Type type);

/// The short dtype name used in hints (`f16`, `bf16`, `f32`, `i32`, `u8`,
/// `bool`, `e4m3fn`, `f16x2`); the MLIR spelling for other types.
std::string getDTypeShortName(mlir::Type type);

/// The storage size in bits of one element as TileLang counts it (`.bits`
/// times lanes): 8 for bool, 32 for tfloat32, 4 for int4/float4_e2m1fn;
/// 0 for types that are not element types.
unsigned getElementBitWidth(mlir::Type type);

//===----------------------------------------------------------------------===//
// Memory scopes
//===----------------------------------------------------------------------===//

/// `shared` or `shared.dyn`.
inline bool isSharedScope(MemoryScope s) {
  return s == MemoryScope::Shared || s == MemoryScope::SharedDyn;
}
/// `shared.barrier` or `shared.cluster_barrier`.
inline bool isBarrierScope(MemoryScope s) {
  return s == MemoryScope::Barrier || s == MemoryScope::ClusterBarrier;
}
/// True when buffers of this scope may only be allocated in a kernel.
inline bool requiresKernelScope(MemoryScope s) {
  return s != MemoryScope::Global;
}
/// The short display name of a scope for hints: `shared` for both shared
/// scopes, `fragment`, `var`, `barrier`, otherwise the scope string.
llvm::StringRef getScopeDisplayName(MemoryScope s);

} // namespace tile
} // namespace tlc

#define GET_TYPEDEF_CLASSES
#include "tlc/Dialect/Tile/IR/TileTypes.h.inc"

#endif // TLC_DIALECT_TILE_IR_TILETYPES_H
