//===- DType.cpp - TileLang data types ------------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Lang/DType.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <vector>

using namespace tlc;
using namespace tlc::lang;

namespace {
/// One row of DType.def.
struct ScalarRow {
  llvm::StringRef name;
  llvm::StringRef shortName;
  unsigned bits;
  DTypeClass cls;
  unsigned expBits;
  unsigned manBits;
  bool isAttr;
  unsigned vecMask;
  llvm::StringRef doc;
};
} // namespace

static const ScalarRow kScalarRows[] = {
#define TLC_DTYPE(Id, Name, Short, Bits, Class, ExpBits, ManBits, Attr, Vec,   \
                  Doc)                                                         \
  {Name, Short, Bits, DTypeClass::Class, ExpBits, ManBits, Attr != 0, Vec, Doc},
#include "tlc/Lang/DType.def"
};

static_assert(sizeof(kScalarRows) / sizeof(kScalarRows[0]) == kNumScalarTypes,
              "DType.def rows and ScalarType disagree");

static const ScalarRow &row(ScalarType scalar) {
  return kScalarRows[static_cast<unsigned>(scalar)];
}

llvm::ArrayRef<DTypeSpelling> lang::getAllDTypeSpellings() {
  static const std::vector<DTypeSpelling> spellings = [] {
    std::vector<DTypeSpelling> result;
#define TLC_DTYPE(Id, Name, Short, Bits, Class, ExpBits, ManBits, Attr, Vec,   \
                  Doc)                                                         \
  result.push_back({Name, ScalarType::Id, Attr != 0, true});
#include "tlc/Lang/DType.def"
#define TLC_DTYPE_ALIAS(Alias, Id, Attr)                                       \
  result.push_back({Alias, ScalarType::Id, Attr != 0, false});
#include "tlc/Lang/DType.def"
    return result;
  }();
  return spellings;
}

/// The spelling table as a map from spelling to its entry.
static const llvm::StringMap<DTypeSpelling> &spellingMap() {
  static const llvm::StringMap<DTypeSpelling> map = [] {
    llvm::StringMap<DTypeSpelling> result;
    for (const DTypeSpelling &s : getAllDTypeSpellings())
      result.try_emplace(s.spelling, s);
    return result;
  }();
  return map;
}

/// Splits a vector spelling `base` + `x` + decimal lanes. Succeeds only when
/// the lane count is a positive decimal without leading zeros.
static bool splitVector(llvm::StringRef spelling, llvm::StringRef &base,
                        unsigned &lanes) {
  size_t pos = spelling.rfind('x');
  if (pos == llvm::StringRef::npos || pos == 0 || pos + 1 >= spelling.size())
    return false;
  llvm::StringRef digits = spelling.substr(pos + 1);
  if (digits.front() == '0' || digits.size() > 5)
    return false;
  unsigned value = 0;
  if (digits.getAsInteger(10, value) || value == 0 || value > 65535)
    return false;
  base = spelling.take_front(pos);
  lanes = value;
  return true;
}

std::optional<DType> DType::parse(llvm::StringRef spelling) {
  const auto &map = spellingMap();
  auto it = map.find(spelling);
  if (it != map.end())
    return DType(it->second.scalar);
  llvm::StringRef base;
  unsigned lanes = 0;
  if (!splitVector(spelling, base, lanes))
    return std::nullopt;
  // Vector forms are only spelled with canonical scalar names.
  auto baseIt = map.find(base);
  if (baseIt == map.end() || !baseIt->second.isCanonical)
    return std::nullopt;
  if (row(baseIt->second.scalar).cls == DTypeClass::Handle)
    return std::nullopt;
  return DType(baseIt->second.scalar, lanes);
}

std::optional<DType> DType::parseAttribute(llvm::StringRef name) {
  const auto &map = spellingMap();
  auto it = map.find(name);
  if (it != map.end()) {
    if (!it->second.isAttribute)
      return std::nullopt;
    return DType(it->second.scalar);
  }
  // Only vector forms remain; `T.float32x1` does not exist.
  std::optional<DType> parsed = parse(name);
  if (!parsed || !parsed->isVector() || !parsed->isAttribute())
    return std::nullopt;
  return parsed;
}

std::optional<DType> DType::parseTorch(llvm::StringRef name) {
  name.consume_front("torch.");
  std::optional<ScalarType> scalar =
      llvm::StringSwitch<std::optional<ScalarType>>(name)
          .Cases({"float16", "half"}, ScalarType::Float16)
          .Cases({"float32", "float"}, ScalarType::Float32)
          .Cases({"float64", "double"}, ScalarType::Float64)
          .Case("bfloat16", ScalarType::BFloat16)
          .Case("bool", ScalarType::Bool)
          .Case("int8", ScalarType::Int8)
          .Cases({"int16", "short"}, ScalarType::Int16)
          .Cases({"int32", "int"}, ScalarType::Int32)
          .Cases({"int64", "long"}, ScalarType::Int64)
          .Case("uint8", ScalarType::UInt8)
          .Case("uint16", ScalarType::UInt16)
          .Case("uint32", ScalarType::UInt32)
          .Case("uint64", ScalarType::UInt64)
          .Case("float8_e4m3fn", ScalarType::Float8E4M3FN)
          .Case("float8_e4m3fnuz", ScalarType::Float8E4M3FNUZ)
          .Case("float8_e5m2", ScalarType::Float8E5M2)
          .Case("float8_e5m2fnuz", ScalarType::Float8E5M2FNUZ)
          .Case("float8_e8m0fnu", ScalarType::Float8E8M0FNU)
          .Case("float4_e2m1fn_x2", ScalarType::Float4E2M1FN)
          .Default(std::nullopt);
  if (!scalar)
    return std::nullopt;
  return DType(*scalar);
}

std::optional<DType> DType::fromPythonType(llvm::StringRef name) {
  if (name == "bool")
    return DType(ScalarType::Bool);
  if (name == "int")
    return DType(ScalarType::Int32);
  if (name == "float")
    return DType(ScalarType::Float32);
  return std::nullopt;
}

DTypeClass DType::getClass() const { return row(scalar).cls; }

unsigned DType::getBits() const { return row(scalar).bits; }

unsigned DType::getExponentBits() const { return row(scalar).expBits; }

unsigned DType::getMantissaBits() const { return row(scalar).manBits; }

llvm::StringRef DType::getScalarName() const { return row(scalar).name; }

llvm::StringRef DType::getDescription() const { return row(scalar).doc; }

std::string DType::getName() const {
  std::string name = row(scalar).name.str();
  if (lanes != 1)
    name += "x" + std::to_string(lanes);
  return name;
}

std::string DType::getShortName() const {
  std::string name = row(scalar).shortName.str();
  if (lanes != 1)
    name += "x" + std::to_string(lanes);
  return name;
}

bool DType::isFloat() const {
  switch (getClass()) {
  case DTypeClass::IEEEFloat:
  case DTypeClass::BFloat:
  case DTypeClass::TFloat:
  case DTypeClass::Float8:
  case DTypeClass::Float6:
  case DTypeClass::Float4:
    return true;
  case DTypeClass::Bool:
  case DTypeClass::SignedInt:
  case DTypeClass::UnsignedInt:
  case DTypeClass::Handle:
    return false;
  }
  return false;
}

bool DType::isAttribute() const {
  const ScalarRow &r = row(scalar);
  if (!r.isAttr)
    return false;
  if (lanes == 1)
    return true;
  if (!llvm::isPowerOf2_32(lanes))
    return false;
  unsigned bit = llvm::Log2_32(lanes);
  return bit < 32 && (r.vecMask >> bit) & 1u;
}
