//===- TileDTypes.cpp - TileLang dtypes as MLIR element types -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The mapping between TileLang dtype names (`float16`, `uint8`,
// `float8_e4m3fn`, `float16x2`) and the builtin MLIR types buffers hold.
// Signed integers are signless MLIR integers, unsigned ones are `ui*`.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tlc::tile;

namespace {
/// One TileLang scalar dtype with an MLIR element type.
struct DTypeEntry {
  /// Canonical TileLang name.
  StringRef name;
  /// Short name for hints.
  StringRef shortName;
  /// Builds the element type.
  Type (*build)(MLIRContext *);
};
} // namespace

template <unsigned Width>
static Type signlessInt(MLIRContext *ctx) {
  return IntegerType::get(ctx, Width);
}
template <unsigned Width>
static Type unsignedInt(MLIRContext *ctx) {
  return IntegerType::get(ctx, Width, IntegerType::Unsigned);
}
template <typename T>
static Type floatType(MLIRContext *ctx) {
  return T::get(ctx);
}

/// Every scalar dtype that has an MLIR element type, in the order of
/// tlc/Lang/DType.def.
static const DTypeEntry kDTypes[] = {
    {"bool", "bool", signlessInt<1>},
    {"int4", "i4", signlessInt<4>},
    {"int8", "i8", signlessInt<8>},
    {"int16", "i16", signlessInt<16>},
    {"int32", "i32", signlessInt<32>},
    {"int64", "i64", signlessInt<64>},
    {"uint4", "u4", unsignedInt<4>},
    {"uint8", "u8", unsignedInt<8>},
    {"uint16", "u16", unsignedInt<16>},
    {"uint32", "u32", unsignedInt<32>},
    {"uint64", "u64", unsignedInt<64>},
    {"float16", "f16", floatType<Float16Type>},
    {"float32", "f32", floatType<Float32Type>},
    {"float64", "f64", floatType<Float64Type>},
    {"bfloat16", "bf16", floatType<BFloat16Type>},
    {"tfloat32", "tf32", floatType<FloatTF32Type>},
    {"float8_e3m4", "e3m4", floatType<Float8E3M4Type>},
    {"float8_e4m3", "e4m3", floatType<Float8E4M3Type>},
    {"float8_e4m3b11fnuz", "e4m3b11fnuz", floatType<Float8E4M3B11FNUZType>},
    {"float8_e4m3fn", "e4m3fn", floatType<Float8E4M3FNType>},
    {"float8_e4m3fnuz", "e4m3fnuz", floatType<Float8E4M3FNUZType>},
    {"float8_e5m2", "e5m2", floatType<Float8E5M2Type>},
    {"float8_e5m2fnuz", "e5m2fnuz", floatType<Float8E5M2FNUZType>},
    {"float8_e8m0fnu", "e8m0", floatType<Float8E8M0FNUType>},
    {"float6_e2m3fn", "e2m3", floatType<Float6E2M3FNType>},
    {"float6_e3m2fn", "e3m2", floatType<Float6E3M2FNType>},
    {"float4_e2m1fn", "e2m1", floatType<Float4E2M1FNType>},
};

/// C-style aliases accepted by `T.dtype(...)`.
static StringRef canonicalizeAlias(StringRef name) {
  return llvm::StringSwitch<StringRef>(name)
      .Case("half", "float16")
      .Case("float", "float32")
      .Case("double", "float64")
      .Case("short", "int16")
      .Case("int", "int32")
      .Case("long", "int64")
      .Case("uint", "uint32")
      .Case("ulong", "uint64")
      .Cases({"custom[tfloat32]", "custom[tfloat32]32"}, "tfloat32")
      .Default(name);
}

static const DTypeEntry *findScalar(StringRef name) {
  name = canonicalizeAlias(name);
  for (const DTypeEntry &entry : kDTypes)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

static const DTypeEntry *findScalar(Type type) {
  for (const DTypeEntry &entry : kDTypes)
    if (entry.build(type.getContext()) == type)
      return &entry;
  return nullptr;
}

Type tlc::tile::getElementTypeForDType(MLIRContext *context, StringRef name) {
  if (const DTypeEntry *entry = findScalar(name))
    return entry->build(context);
  // Vector forms: `<scalar>x<lanes>` with lanes a power of two in [2, 64].
  size_t pos = name.rfind('x');
  if (pos == StringRef::npos || pos == 0)
    return {};
  unsigned lanes;
  if (name.drop_front(pos + 1).getAsInteger(10, lanes) || lanes < 2 ||
      lanes > 64 || !llvm::isPowerOf2_32(lanes))
    return {};
  const DTypeEntry *entry = findScalar(name.take_front(pos));
  if (!entry)
    return {};
  return VectorType::get({lanes}, entry->build(context));
}

std::string tlc::tile::getDTypeName(Type type) {
  if (auto vec = dyn_cast<VectorType>(type)) {
    if (vec.getRank() != 1 || vec.isScalable())
      return {};
    std::string scalar = getDTypeName(vec.getElementType());
    if (scalar.empty())
      return {};
    return scalar + "x" + std::to_string(vec.getDimSize(0));
  }
  if (const DTypeEntry *entry = findScalar(type))
    return entry->name.str();
  return {};
}

std::string tlc::tile::getDTypeShortName(Type type) {
  if (auto vec = dyn_cast<VectorType>(type)) {
    if (vec.getRank() == 1 && !vec.isScalable())
      return getDTypeShortName(vec.getElementType()) + "x" +
             std::to_string(vec.getDimSize(0));
  } else if (const DTypeEntry *entry = findScalar(type)) {
    return entry->shortName.str();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

bool tlc::tile::isValidElementType(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getRank() == 1 && !vec.isScalable() &&
           isValidElementType(vec.getElementType());
  if (auto intType = dyn_cast<IntegerType>(type))
    return !intType.isSigned();
  return isa<FloatType, IndexType>(type);
}

Type tlc::tile::getElementValueType(Type type) {
  if (auto buffer = dyn_cast<BufferType>(type))
    type = buffer.getElementType();
  if (auto intType = dyn_cast<IntegerType>(type))
    if (!intType.isSignless())
      return IntegerType::get(type.getContext(), intType.getWidth());
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.clone(getElementValueType(vec.getElementType()));
  return type;
}

unsigned tlc::tile::getElementBitWidth(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getNumElements() * getElementBitWidth(vec.getElementType());
  // TileLang stores bool in a byte and tfloat32 in 32 bits.
  if (type.isInteger(1))
    return 8;
  if (isa<FloatTF32Type>(type))
    return 32;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  if (isa<IndexType>(type))
    return 64;
  return 0;
}
