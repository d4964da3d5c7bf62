//===- DType.cpp - Element types of kernel tensors on the host ------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/DType.h"

#include "tlc_device/cpu.h"


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
    DTypeCode code;
  };
  using C = DTypeCode;
  static const Row rows[] = {
      {"float16", 2, DTypeClass::Float, "<f2", 1e-2, 1e-2, C::F16},
      {"bfloat16", 2, DTypeClass::Float, "<f4", 2e-2, 2e-2, C::BF16},
      {"float32", 4, DTypeClass::Float, "<f4", 1e-3, 1e-4, C::F32},
      {"tfloat32", 4, DTypeClass::Float, "<f4", 1e-2, 1e-2, C::TF32},
      {"float64", 8, DTypeClass::Float, "<f8", 1e-7, 1e-9, C::F64},
      {"float8_e4m3fn", 1, DTypeClass::Float, "<f4", 1.25e-1, 1e-1, C::E4M3FN},
      {"float8_e5m2", 1, DTypeClass::Float, "<f4", 2.5e-1, 1e-1, C::E5M2},
      {"float8_e4m3fnuz", 1, DTypeClass::Float, "<f4", 1.25e-1, 1e-1,
       C::E4M3FNUZ},
      {"float8_e5m2fnuz", 1, DTypeClass::Float, "<f4", 2.5e-1, 1e-1,
       C::E5M2FNUZ},
      {"float8_e8m0fnu", 1, DTypeClass::Float, "<f4", 5e-1, 1e-1, C::E8M0FNU},
      // Packed pairs: .npy files hold the bytes as uint8, last extent
      // halved (rounded up), like torch's float4_e2m1fn_x2 viewed as uint8.
      {"float4_e2m1fn", 1, DTypeClass::Float, "|u1", 2.5e-1, 2.5e-1,
       C::E2M1FN},
      // Packed pairs too: .npy files hold the bytes (int8 / uint8).
      {"int4", 1, DTypeClass::SignedInt, "|i1", 0, 0, C::I4},
      {"uint4", 1, DTypeClass::UnsignedInt, "|u1", 0, 0, C::U4},
      {"int8", 1, DTypeClass::SignedInt, "|i1", 0, 0, C::I8},
      {"int16", 2, DTypeClass::SignedInt, "<i2", 0, 0, C::I16},
      {"int32", 4, DTypeClass::SignedInt, "<i4", 0, 0, C::I32},
      {"int64", 8, DTypeClass::SignedInt, "<i8", 0, 0, C::I64},
      {"uint8", 1, DTypeClass::UnsignedInt, "|u1", 0, 0, C::U8},
      {"uint16", 2, DTypeClass::UnsignedInt, "<u2", 0, 0, C::U16},
      {"uint32", 4, DTypeClass::UnsignedInt, "<u4", 0, 0, C::U32},
      {"uint64", 8, DTypeClass::UnsignedInt, "<u8", 0, 0, C::U64},
      {"bool", 1, DTypeClass::Bool, "|b1", 0, 0, C::Bool},
  };
  for (const Row &r : rows)
    if (name == r.name)
      return DType{r.name, r.size, r.cls, r.descr, r.rtol, r.atol, r.code};
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
  switch (code) {
  case DTypeCode::F16:
    return cpu::halfBitsToFloat(readAs<uint16_t>(p));
  case DTypeCode::BF16:
    return cpu::bfloat16BitsToFloat(readAs<uint16_t>(p));
  case DTypeCode::F32:
  case DTypeCode::TF32:
    return readAs<float>(p);
  case DTypeCode::F64:
    return readAs<double>(p);
  case DTypeCode::E4M3FN:
    return cpu::e4m3BitsToFloat(readAs<uint8_t>(p));
  case DTypeCode::E5M2:
    return cpu::e5m2BitsToFloat(readAs<uint8_t>(p));
  case DTypeCode::E4M3FNUZ:
    return cpu::e4m3FnuzBitsToFloat(readAs<uint8_t>(p));
  case DTypeCode::E5M2FNUZ:
    return cpu::e5m2FnuzBitsToFloat(readAs<uint8_t>(p));
  case DTypeCode::E8M0FNU:
    return cpu::e8m0BitsToFloat(readAs<uint8_t>(p));
  case DTypeCode::E2M1FN:
    return cpu::e2m1BitsToFloat(uint8_t(readAs<uint8_t>(p) & 0xf));
  case DTypeCode::Bool:
    return readAs<uint8_t>(p) != 0;
  case DTypeCode::I4:
    return tlc::fp4::int4FromCode(readAs<uint8_t>(p));
  case DTypeCode::U4:
    return tlc::fp4::uint4FromCode(readAs<uint8_t>(p));
  case DTypeCode::I8:
    return readAs<int8_t>(p);
  case DTypeCode::I16:
    return readAs<int16_t>(p);
  case DTypeCode::I32:
    return readAs<int32_t>(p);
  case DTypeCode::I64:
    return double(readAs<int64_t>(p));
  case DTypeCode::U8:
    return readAs<uint8_t>(p);
  case DTypeCode::U16:
    return readAs<uint16_t>(p);
  case DTypeCode::U32:
    return readAs<uint32_t>(p);
  case DTypeCode::U64:
    return double(readAs<uint64_t>(p));
  }
  return 0;
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
  switch (code) {
  case DTypeCode::F16:
    return writeAs(p, cpu::floatToHalfBits(f));
  case DTypeCode::BF16:
    return writeAs(p, cpu::floatToBFloat16Bits(f));
  case DTypeCode::F32:
  case DTypeCode::TF32:
    return writeAs(p, f);
  case DTypeCode::F64:
    return writeAs(p, v);
  case DTypeCode::E4M3FN:
    return writeAs(p, cpu::floatToE4M3Bits(f));
  case DTypeCode::E5M2:
    return writeAs(p, cpu::floatToE5M2Bits(f));
  case DTypeCode::E4M3FNUZ:
    return writeAs(p, cpu::floatToE4M3FnuzBits(f));
  case DTypeCode::E5M2FNUZ:
    return writeAs(p, cpu::floatToE5M2FnuzBits(f));
  case DTypeCode::E8M0FNU:
    return writeAs(p, cpu::floatToE8M0Bits(f));
  case DTypeCode::E2M1FN:
    return writeAs(p, cpu::floatToE2M1Bits(f));
  case DTypeCode::Bool:
    return writeAs(p, uint8_t(v != 0));
  case DTypeCode::I4: // saturated like the wider integers
    return writeAs(p, tlc::fp4::int4ToCode(
                          std::clamp<int>(saturate<int8_t>(v), -8, 7)));
  case DTypeCode::U4:
    return writeAs(p, tlc::fp4::int4ToCode(
                          std::clamp<int>(saturate<uint8_t>(v), 0, 15)));
  case DTypeCode::I8:
    return writeAs(p, saturate<int8_t>(v));
  case DTypeCode::I16:
    return writeAs(p, saturate<int16_t>(v));
  case DTypeCode::I32:
    return writeAs(p, saturate<int32_t>(v));
  case DTypeCode::I64:
    return writeAs(p, saturate<int64_t>(v));
  case DTypeCode::U8:
    return writeAs(p, saturate<uint8_t>(v));
  case DTypeCode::U16:
    return writeAs(p, saturate<uint16_t>(v));
  case DTypeCode::U32:
    return writeAs(p, saturate<uint32_t>(v));
  case DTypeCode::U64:
    return writeAs(p, saturate<uint64_t>(v));
  }
}

/// The poison bits of \p code (see storeNaN), or nullopt when its NaNs
/// carry no payload.
static std::optional<uint64_t> poisonBits(DTypeCode code) {
  switch (code) {
  case DTypeCode::F16:
    return 0x7e5aull;
  case DTypeCode::BF16:
    return 0x7fdaull;
  case DTypeCode::F32:
  case DTypeCode::TF32:
    return 0x7fe5a5a5ull;
  case DTypeCode::F64:
    return 0x7ffa5a5a5a5a5a5aull;
  case DTypeCode::E5M2:
    return 0x7dull;
  default:
    return std::nullopt;
  }
}

void DType::storeNaN(void *p) const {
  if (!isFloat())
    return;
  if (std::optional<uint64_t> bits = poisonBits(code)) {
    std::memcpy(p, &*bits, size); // little-endian hosts
    return;
  }
  store(p, std::numeric_limits<double>::quiet_NaN());
}

bool DType::isPoison(const void *p) const {
  if (!isFloat())
    return false;
  if (std::optional<uint64_t> bits = poisonBits(code)) {
    uint64_t v = 0;
    std::memcpy(&v, p, size);
    return v == *bits;
  }
  return std::isnan(load(p));
}

/// loadMany for a dtype of \p Bits storage whose values \p decode gives
/// and whose poison is \p poisonBits.
template <typename Bits, typename Decode>
static void loadRun(const void *p, int64_t n, double *values, bool *poison,
                    Bits poisonBits, Decode decode) {
  const auto *bytes = static_cast<const uint8_t *>(p);
  for (int64_t i = 0; i < n; ++i) {
    Bits b;
    std::memcpy(&b, bytes + i * int64_t(sizeof(Bits)), sizeof(Bits));
    values[i] = double(decode(b));
    poison[i] = b == poisonBits;
  }
}

void DType::loadMany(const void *p, int64_t n, double *values,
                     bool *poison) const {
  switch (code) {
  case DTypeCode::F16:
    return loadRun<uint16_t>(p, n, values, poison, uint16_t(*poisonBits(code)),
                             cpu::halfBitsToFloat);
  case DTypeCode::BF16:
    return loadRun<uint16_t>(p, n, values, poison, uint16_t(*poisonBits(code)),
                             cpu::bfloat16BitsToFloat);
  case DTypeCode::F32:
  case DTypeCode::TF32:
    return loadRun<uint32_t>(p, n, values, poison, uint32_t(*poisonBits(code)),
                             [](uint32_t b) { return cpu::bitsFloat(b); });
  case DTypeCode::F64:
    return loadRun<uint64_t>(p, n, values, poison, *poisonBits(code),
                             [](uint64_t b) {
                               double d;
                               std::memcpy(&d, &b, sizeof(d));
                               return d;
                             });
  default:
    break;
  }
  const auto *bytes = static_cast<const uint8_t *>(p);
  for (int64_t i = 0; i < n; ++i) {
    values[i] = load(bytes + i * int64_t(size));
    poison[i] = isPoison(bytes + i * int64_t(size));
  }
}
