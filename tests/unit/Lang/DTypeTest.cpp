//===- DTypeTest.cpp - Tests for TileLang dtypes --------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expectations are written by hand from language.md section 3.1.
//
//===----------------------------------------------------------------------===//

#include "tlc/Lang/DType.h"

#include <doctest/doctest.h>

#include <string>

using namespace tlc::lang;

namespace {
/// Which parser a case goes through.
enum class Parser { String, Attribute, Torch, Python };

/// Parses \p spelling with \p parser. An empty \p canonical expects failure;
/// otherwise checks the canonical name, short name and bits.
void checkDType(Parser parser, const std::string &spelling,
                const std::string &canonical, const std::string &shortName = "",
                unsigned bits = 0) {
  CAPTURE(spelling);
  std::optional<DType> type;
  switch (parser) {
  case Parser::String:
    type = DType::parse(spelling);
    break;
  case Parser::Attribute:
    type = DType::parseAttribute(spelling);
    break;
  case Parser::Torch:
    type = DType::parseTorch(spelling);
    break;
  case Parser::Python:
    type = DType::fromPythonType(spelling);
    break;
  }
  if (canonical.empty()) {
    CHECK(!type);
    return;
  }
  REQUIRE(type);
  CHECK(type->getName() == canonical);
  if (!shortName.empty())
    CHECK(type->getShortName() == shortName);
  if (bits)
    CHECK(type->getBits() == bits);
}
} // namespace

TEST_CASE("dtype strings") {
  const Parser p = Parser::String;
  checkDType(p, "float16", "float16", "f16", 16);
  checkDType(p, "half", "float16", "f16", 16);
  checkDType(p, "float", "float32", "f32", 32);
  checkDType(p, "float32", "float32", "f32", 32);
  checkDType(p, "double", "float64", "f64", 64);
  checkDType(p, "float64", "float64", "f64", 64);
  checkDType(p, "bfloat16", "bfloat16", "bf16", 16);
  checkDType(p, "tfloat32", "tfloat32", "tf32", 32);
  checkDType(p, "custom[tfloat32]", "tfloat32", "tf32", 32);
  checkDType(p, "float8_e4m3", "float8_e4m3", "e4m3", 8);
  checkDType(p, "float8_e4m3fn", "float8_e4m3fn", "e4m3fn", 8);
  checkDType(p, "float8_e4m3fnuz", "float8_e4m3fnuz", "e4m3fnuz", 8);
  checkDType(p, "float8_e5m2", "float8_e5m2", "e5m2", 8);
  checkDType(p, "float8_e5m2fnuz", "float8_e5m2fnuz", "e5m2fnuz", 8);
  checkDType(p, "float8_e8m0fnu", "float8_e8m0fnu", "e8m0", 8);
  checkDType(p, "float8_e3m4", "float8_e3m4", "e3m4", 8);
  checkDType(p, "float6_e2m3fn", "float6_e2m3fn", "e2m3", 6);
  checkDType(p, "float4_e2m1fn", "float4_e2m1fn", "e2m1", 4);
  checkDType(p, "float4_e2m1_unpacked", "float4_e2m1_unpacked", "e2m1u", 8);
  checkDType(p, "float6_e2m3fn_unpacked", "float6_e2m3fn_unpacked", "e2m3u", 8);
  checkDType(p, "float6_e3m2fn_unpacked", "float6_e3m2fn_unpacked", "e3m2u", 8);
  checkDType(p, "bool", "bool", "bool", 8);
  checkDType(p, "int4", "int4", "i4", 4);
  checkDType(p, "int8", "int8", "i8", 8);
  checkDType(p, "short", "int16", "i16", 16);
  checkDType(p, "int", "int32", "i32", 32);
  checkDType(p, "int32", "int32", "i32", 32);
  checkDType(p, "long", "int64", "i64", 64);
  checkDType(p, "uint4", "uint4", "u4", 4);
  checkDType(p, "uint8", "uint8", "u8", 8);
  checkDType(p, "uint", "uint32", "u32", 32);
  checkDType(p, "ulong", "uint64", "u64", 64);
  checkDType(p, "handle", "handle", "ptr", 64);
  // Vector forms: bits stay per lane.
  checkDType(p, "float16x2", "float16x2", "f16x2", 16);
  checkDType(p, "bfloat16x2", "bfloat16x2", "bf16x2", 16);
  checkDType(p, "float8_e4m3fnx8", "float8_e4m3fnx8", "e4m3fnx8", 8);
  checkDType(p, "int8x4", "int8x4", "i8x4", 8);
  checkDType(p, "float32x3", "float32x3", "f32x3", 32);
  checkDType(p, "float32x1", "float32", "f32", 32);
  // Not dtypes.
  checkDType(p, "float17", "");
  checkDType(p, "fp16", "");
  checkDType(p, "f16", "");
  checkDType(p, "Float16", "");
  checkDType(p, "T.float16", "");
  checkDType(p, "float16x", "");
  checkDType(p, "float16x0", "");
  checkDType(p, "float16x02", "");
  checkDType(p, "halfx2", "");
  checkDType(p, "handlex2", "");
  checkDType(p, "int3", "");
  checkDType(p, "x2", "");
  checkDType(p, "", "");
}

TEST_CASE("dtype attributes of T") {
  const Parser p = Parser::Attribute;
  checkDType(p, "float16", "float16");
  checkDType(p, "half", "float16");
  checkDType(p, "float", "float32");
  checkDType(p, "double", "float64");
  checkDType(p, "int", "int32");
  checkDType(p, "long", "int64");
  checkDType(p, "short", "int16");
  checkDType(p, "uint", "uint32");
  checkDType(p, "int4", "int4");
  checkDType(p, "tfloat32", "tfloat32");
  checkDType(p, "float16x2", "float16x2");
  checkDType(p, "float32x64", "float32x64");
  checkDType(p, "bfloat16x2", "bfloat16x2");
  checkDType(p, "int8x4", "int8x4");
  checkDType(p, "uint64x2", "uint64x2");
  checkDType(p, "float8_e4m3fnx8", "float8_e4m3fnx8");
  checkDType(p, "float4_e2m1fnx2", "float4_e2m1fnx2");
  checkDType(p, "tfloat32x4", "tfloat32x4");
  checkDType(p, "float4_e2m1_unpacked", "float4_e2m1_unpacked");
  // The TileLang version that tests them defines x2 and x4 (lang46).
  checkDType(p, "float4_e2m1_unpackedx2", "float4_e2m1_unpackedx2");
  checkDType(p, "float4_e2m1_unpackedx4", "float4_e2m1_unpackedx4");
  checkDType(p, "float6_e2m3fn_unpacked", "float6_e2m3fn_unpacked");
  checkDType(p, "float6_e3m2fn_unpacked", "float6_e3m2fn_unpacked");
  // Spellings that T.dtype(...) accepts but that are not attributes of T.
  checkDType(p, "ulong", "");
  checkDType(p, "uint4", "");
  checkDType(p, "int4x2", "");
  checkDType(p, "bfloat16x4", "");
  checkDType(p, "float16x3", "");
  checkDType(p, "float16x128", "");
  checkDType(p, "float32x1", "");
  checkDType(p, "boolx2", "");
  checkDType(p, "float4_e2m1_unpackedx8", "");
  checkDType(p, "float6_e3m2fn_unpackedx2", "");
  checkDType(p, "custom[tfloat32]", "");
  checkDType(p, "fp8", "");
}

TEST_CASE("torch and Python dtype names") {
  checkDType(Parser::Torch, "torch.float16", "float16");
  checkDType(Parser::Torch, "torch.half", "float16");
  checkDType(Parser::Torch, "torch.float", "float32");
  checkDType(Parser::Torch, "float32", "float32");
  checkDType(Parser::Torch, "torch.double", "float64");
  checkDType(Parser::Torch, "torch.bfloat16", "bfloat16");
  checkDType(Parser::Torch, "torch.int", "int32");
  checkDType(Parser::Torch, "torch.long", "int64");
  checkDType(Parser::Torch, "torch.short", "int16");
  checkDType(Parser::Torch, "torch.bool", "bool");
  checkDType(Parser::Torch, "torch.uint8", "uint8");
  checkDType(Parser::Torch, "torch.float8_e4m3fn", "float8_e4m3fn");
  checkDType(Parser::Torch, "torch.float8_e5m2", "float8_e5m2");
  checkDType(Parser::Torch, "torch.float8_e4m3fnuz", "float8_e4m3fnuz");
  checkDType(Parser::Torch, "torch.float4_e2m1fn_x2", "float4_e2m1fn");
  checkDType(Parser::Torch, "torch.float8_e4m3", "");
  checkDType(Parser::Torch, "torch.complex64", "");
  checkDType(Parser::Torch, "torch.tfloat32", "");
  checkDType(Parser::Torch, "numpy.float16", "");
  checkDType(Parser::Python, "int", "int32");
  checkDType(Parser::Python, "float", "float32");
  checkDType(Parser::Python, "bool", "bool");
  checkDType(Parser::Python, "str", "");
  checkDType(Parser::Python, "complex", "");
}

TEST_CASE("dtype equality follows TileLang string semantics") {
  DType half = *DType::parse("half");
  DType f16 = *DType::parse("float16");
  DType f32 = *DType::parse("float");
  CHECK(half == f16);
  CHECK(f16 != f32);
  CHECK(f16 != DType(ScalarType::Float16, 2));
  CHECK(f16.equalsString("float16"));
  CHECK(!f16.equalsString("half"));
  CHECK(f32.equalsString("float32"));
  CHECK(!f32.equalsString("float"));
  CHECK(DType(ScalarType::BFloat16, 2).equalsString("bfloat16x2"));
  CHECK(*DType::parse("float8_e4m3") != *DType::parse("float8_e4m3fn"));
  CHECK(DType() == f32);
  CHECK(hash_value(half) == hash_value(f16));
}

TEST_CASE("dtype properties") {
  struct Case {
    const char *spelling;
    bool isFloat, isInteger, isUnsigned, isFloat8, isSubByte;
    unsigned itemSize, expBits, manBits;
  };
  const Case cases[] = {
      {"float16", true, false, false, false, false, 2, 5, 10},
      {"bfloat16", true, false, false, false, false, 2, 8, 7},
      {"float32", true, false, false, false, false, 4, 8, 23},
      {"float64", true, false, false, false, false, 8, 11, 52},
      {"tfloat32", true, false, false, false, false, 4, 8, 10},
      {"float8_e4m3fn", true, false, false, true, false, 1, 4, 3},
      {"float8_e5m2", true, false, false, true, false, 1, 5, 2},
      {"float4_e2m1fn", true, false, false, false, true, 1, 2, 1},
      {"float6_e3m2fn", true, false, false, false, true, 1, 3, 2},
      {"int4", false, true, false, false, true, 1, 0, 0},
      {"int32", false, true, false, false, false, 4, 0, 0},
      {"uint8", false, true, true, false, false, 1, 0, 0},
      {"bool", false, false, false, false, false, 1, 0, 0},
      {"float16x2", true, false, false, false, false, 4, 5, 10},
      {"float8_e4m3fnx8", true, false, false, true, false, 8, 4, 3},
  };
  for (const Case &c : cases) {
    CAPTURE(c.spelling);
    DType type = *DType::parse(c.spelling);
    CHECK(type.isFloat() == c.isFloat);
    CHECK(type.isInteger() == c.isInteger);
    CHECK(type.isUnsignedInteger() == c.isUnsigned);
    CHECK(type.isFloat8() == c.isFloat8);
    CHECK(type.isSubByte() == c.isSubByte);
    CHECK(type.getItemSize() == c.itemSize);
    CHECK(type.getExponentBits() == c.expBits);
    CHECK(type.getMantissaBits() == c.manBits);
    CHECK(!type.getDescription().empty());
  }
  CHECK(DType::parse("bool")->isBool());
  CHECK(DType::parse("handle")->isHandle());
  CHECK(DType::parse("float16x4")->isVector());
  CHECK(DType::parse("float16x4")->getElementType() == *DType::parse("half"));
  CHECK(DType::parse("float16x4")->getTotalBits() == 64);
}

TEST_CASE("every spelling parses to its scalar") {
  unsigned canonical = 0;
  for (const DTypeSpelling &s : getAllDTypeSpellings()) {
    CAPTURE(s.spelling.str());
    std::optional<DType> type = DType::parse(s.spelling);
    REQUIRE(type);
    CHECK(type->getScalarType() == s.scalar);
    if (s.isCanonical) {
      ++canonical;
      CHECK(type->getName() == s.spelling.str());
    }
    CHECK(DType::parseAttribute(s.spelling).has_value() == s.isAttribute);
  }
  CHECK(canonical == kNumScalarTypes);
}
