//===- DType.cpp - Element types of kernel tensors on the host ------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/DType.h"

#include "tlc_device/cpu.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

using namespace tlc::runtime;
namespace cpu = tlc::cpu;

std::optional<DType> tlc::runtime::lookupDType(llvm::StringRef name) {
  struct Row {
    const char *name;
    size_t size;
    DTypeClass cls;
    const char *descr;
    double rtol, atol;
  };
  static const Row rows[] = {
      {"float16", 2, DTypeClass::Float, "<f2", 1e-2, 1e-2},
      {"bfloat16", 2, DTypeClass::Float, "<f4", 2e-2, 2e-2},
      {"float32", 4, DTypeClass::Float, "<f4", 1e-3, 1e-4},
      {"tfloat32", 4, DTypeClass::Float, "<f4", 1e-2, 1e-2},
      {"float64", 8, DTypeClass::Float, "<f8", 1e-7, 1e-9},
      {"float8_e4m3fn", 1, DTypeClass::Float, "<f4", 1.25e-1, 1e-1},
      {"float8_e5m2", 1, DTypeClass::Float, "<f4", 2.5e-1, 1e-1},
      {"float8_e4m3fnuz", 1, DTypeClass::Float, "<f4", 1.25e-1, 1e-1},
      {"float8_e5m2fnuz", 1, DTypeClass::Float, "<f4", 2.5e-1, 1e-1},
      {"float8_e8m0fnu", 1, DTypeClass::Float, "<f4", 5e-1, 1e-1},
      {"int8", 1, DTypeClass::SignedInt, "|i1", 0, 0},
      {"int16", 2, DTypeClass::SignedInt, "<i2", 0, 0},
      {"int32", 4, DTypeClass::SignedInt, "<i4", 0, 0},
      {"int64", 8, DTypeClass::SignedInt, "<i8", 0, 0},
      {"uint8", 1, DTypeClass::UnsignedInt, "|u1", 0, 0},
      {"uint16", 2, DTypeClass::UnsignedInt, "<u2", 0, 0},
      {"uint32", 4, DTypeClass::UnsignedInt, "<u4", 0, 0},
      {"uint64", 8, DTypeClass::UnsignedInt, "<u8", 0, 0},
      {"bool", 1, DTypeClass::Bool, "|b1", 0, 0},
  };
  for (const Row &r : rows)
    if (name == r.name)
      return DType{r.name, r.size, r.cls, r.descr, r.rtol, r.atol};
  return std::nullopt;
}

template <typename T> static T readAs(const void *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T> static void writeAs(void *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

double DType::load(const void *p) const {
  if (name == "float16")
    return cpu::halfBitsToFloat(readAs<uint16_t>(p));
  if (name == "bfloat16")
    return cpu::bfloat16BitsToFloat(readAs<uint16_t>(p));
  if (name == "float32" || name == "tfloat32")
    return readAs<float>(p);
  if (name == "float64")
    return readAs<double>(p);
  if (name == "float8_e4m3fn")
    return cpu::e4m3BitsToFloat(readAs<uint8_t>(p));
  if (name == "float8_e5m2")
    return cpu::e5m2BitsToFloat(readAs<uint8_t>(p));
  if (name == "float8_e4m3fnuz")
    return cpu::e4m3FnuzBitsToFloat(readAs<uint8_t>(p));
  if (name == "float8_e5m2fnuz")
    return cpu::e5m2FnuzBitsToFloat(readAs<uint8_t>(p));
  if (name == "float8_e8m0fnu")
    return cpu::e8m0BitsToFloat(readAs<uint8_t>(p));
  if (cls == DTypeClass::Bool)
    return readAs<uint8_t>(p) != 0;
  if (cls == DTypeClass::SignedInt)
    switch (size) {
    case 1: return readAs<int8_t>(p);
    case 2: return readAs<int16_t>(p);
    case 4: return readAs<int32_t>(p);
    default: return double(readAs<int64_t>(p));
    }
  switch (size) {
  case 1: return readAs<uint8_t>(p);
  case 2: return readAs<uint16_t>(p);
  case 4: return readAs<uint32_t>(p);
  default: return double(readAs<uint64_t>(p));
  }
}

template <typename T> static T saturate(double v) {
  if (std::isnan(v))
    return T(0);
  v = std::trunc(v);
  if (v <= double(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (v >= double(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return T(v);
}

void DType::store(void *p, double v) const {
  float f = float(v);
  if (name == "float16")
    return writeAs(p, cpu::floatToHalfBits(f));
  if (name == "bfloat16")
    return writeAs(p, cpu::floatToBFloat16Bits(f));
  if (name == "float32" || name == "tfloat32")
    return writeAs(p, f);
  if (name == "float64")
    return writeAs(p, v);
  if (name == "float8_e4m3fn")
    return writeAs(p, cpu::floatToE4M3Bits(f));
  if (name == "float8_e5m2")
    return writeAs(p, cpu::floatToE5M2Bits(f));
  if (name == "float8_e4m3fnuz")
    return writeAs(p, cpu::floatToE4M3FnuzBits(f));
  if (name == "float8_e5m2fnuz")
    return writeAs(p, cpu::floatToE5M2FnuzBits(f));
  if (name == "float8_e8m0fnu")
    return writeAs(p, cpu::floatToE8M0Bits(f));
  if (cls == DTypeClass::Bool)
    return writeAs(p, uint8_t(v != 0));
  if (cls == DTypeClass::SignedInt)
    switch (size) {
    case 1: return writeAs(p, saturate<int8_t>(v));
    case 2: return writeAs(p, saturate<int16_t>(v));
    case 4: return writeAs(p, saturate<int32_t>(v));
    default: return writeAs(p, saturate<int64_t>(v));
    }
  switch (size) {
  case 1: return writeAs(p, saturate<uint8_t>(v));
  case 2: return writeAs(p, saturate<uint16_t>(v));
  case 4: return writeAs(p, saturate<uint32_t>(v));
  default: return writeAs(p, saturate<uint64_t>(v));
  }
}

/// The poison bits of \p name (see storeNaN), or nullopt when its NaNs
/// carry no payload.
static std::optional<uint64_t> poisonBits(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<uint64_t>>(name)
      .Case("float16", 0x7e5aull)
      .Case("bfloat16", 0x7fdaull)
      .Case("float32", 0x7fe5a5a5ull)
      .Case("tfloat32", 0x7fe5a5a5ull)
      .Case("float64", 0x7ffa5a5a5a5a5a5aull)
      .Case("float8_e5m2", 0x7dull)
      .Default(std::nullopt);
}

void DType::storeNaN(void *p) const {
  if (!isFloat())
    return;
  if (std::optional<uint64_t> bits = poisonBits(name)) {
    std::memcpy(p, &*bits, size); // little-endian hosts
    return;
  }
  store(p, std::numeric_limits<double>::quiet_NaN());
}

bool DType::isPoison(const void *p) const {
  if (!isFloat())
    return false;
  if (std::optional<uint64_t> bits = poisonBits(name)) {
    uint64_t v = 0;
    std::memcpy(&v, p, size);
    return v == *bits;
  }
  return std::isnan(load(p));
}
