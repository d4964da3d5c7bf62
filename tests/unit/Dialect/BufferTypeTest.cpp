//===- BufferTypeTest.cpp - Tests for the buffer type helpers -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expectations are written by hand (shape strings, MLIR spellings) or taken
// from tlc/Lang/DType.def, the dtype table of the language library, so the
// dialect's dtype names cannot drift from the names the rest of tlc uses.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileTypes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace tlc::tile;

namespace {

/// A context with the tile dialect loaded.
MLIRContext &getContext() {
  static MLIRContext *context = [] {
    auto *ctx = new MLIRContext();
    ctx->loadDialect<TileDialect>();
    return ctx;
  }();
  return *context;
}

/// Prints a type to a string.
std::string print(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Dimension spelled as in tests: an integer, `?`, or symbol text.
Dim dim(const std::string &text) {
  if (text == "?")
    return Dim::unknown();
  if (!text.empty() && (std::isdigit(text[0]) || text[0] == '-'))
    return Dim(std::stoll(text));
  return Dim::symbolic(&getContext(), text);
}

/// Builds a buffer from \p dims, checks its display shape, its printed form,
/// that the printed form parses back to the same type, and its element
/// value type.
void checkBuffer(const std::vector<std::string> &dims, const std::string &dtype,
                 MemoryScope scope, const std::string &shape,
                 const std::string &printed, const std::string &valueType) {
  CAPTURE(printed);
  SmallVector<Dim> dimList;
  for (const std::string &d : dims)
    dimList.push_back(dim(d));
  Type element = getElementTypeForDType(&getContext(), dtype);
  REQUIRE(element);
  BufferType type = BufferType::get(&getContext(), dimList, element, scope);
  CHECK(type.getShapeString() == shape);
  CHECK(print(type) == printed);
  CHECK(parseType(printed, &getContext()) == type);
  CHECK(print(getElementValueType(type)) == valueType);
  CHECK(type.getDims() == dimList);
}

/// Checks shapesAgreeIgnoringUnitDims on two shapes; \p expected is "yes",
/// "no" or "unknown".
void checkAgree(const std::vector<std::string> &lhs,
                const std::vector<std::string> &rhs,
                const std::string &expected) {
  SmallVector<Dim> a, b;
  for (const std::string &d : lhs)
    a.push_back(dim(d));
  for (const std::string &d : rhs)
    b.push_back(dim(d));
  std::optional<bool> result = shapesAgreeIgnoringUnitDims(a, b);
  std::string got = !result ? "unknown" : *result ? "yes" : "no";
  CHECK(got == expected);
}

/// Checks the dtype mapping of \p name: the MLIR spelling of its element
/// type (empty: no element type), canonical name and short name.
void checkDType(const std::string &name, const std::string &mlir,
                const std::string &canonical = "",
                const std::string &shortName = "", unsigned bits = 0) {
  CAPTURE(name);
  Type type = getElementTypeForDType(&getContext(), name);
  if (mlir.empty()) {
    CHECK(!type);
    return;
  }
  REQUIRE(type);
  CHECK(print(type) == mlir);
  CHECK(getDTypeName(type) == canonical);
  CHECK(getDTypeShortName(type) == shortName);
  CHECK(getElementBitWidth(type) == bits);
}

} // namespace

TEST_CASE("buffer types: shapes, printing and parsing") {
  checkBuffer({"128", "32"}, "float16", MemoryScope::SharedDyn, "[128, 32]",
              "!tile.buffer<[128, 32], f16, shared.dyn>", "f16");
  checkBuffer({"M", "block_K"}, "bfloat16", MemoryScope::Global,
              "[M, block_K]", "!tile.buffer<[M, block_K], bf16, global>",
              "bf16");
  checkBuffer({"M // 128", "?"}, "float32", MemoryScope::Fragment,
              "[M // 128, ?]",
              "!tile.buffer<[\"M // 128\", ?], f32, local.fragment>", "f32");
  checkBuffer({"1"}, "int32", MemoryScope::LocalVar, "[1]",
              "!tile.buffer<[1], i32, local.var>", "i32");
  checkBuffer({"2"}, "uint64", MemoryScope::Barrier, "[2]",
              "!tile.buffer<[2], ui64, shared.barrier>", "i64");
  checkBuffer({"4", "8"}, "uint8", MemoryScope::Local, "[4, 8]",
              "!tile.buffer<[4, 8], ui8, local>", "i8");
  checkBuffer({"64"}, "float16x2", MemoryScope::Shared, "[64]",
              "!tile.buffer<[64], vector<2xf16>, shared>", "vector<2xf16>");
  checkBuffer({}, "float32", MemoryScope::Global, "[]",
              "!tile.buffer<[], f32, global>", "f32");
}

TEST_CASE("buffer types: uniquing and accessors") {
  MLIRContext *ctx = &getContext();
  Type f16 = Float16Type::get(ctx);
  // A dimension written as a string that is an identifier is the same type.
  CHECK(parseType("!tile.buffer<[\"M\", 4], f16, global>", ctx) ==
        BufferType::get(ctx, {Dim::symbolic(ctx, "M"), Dim(4)}, f16,
                        MemoryScope::Global));
  // Static-only shapes built either way are one type.
  BufferType a = BufferType::get(ctx, {Dim(8), Dim(4)}, f16, MemoryScope::Local);
  CHECK(a == BufferType::get(ArrayRef<int64_t>{8, 4}, f16, MemoryScope::Local));
  CHECK(a.isStatic());
  CHECK(a.getNumElements() == 32);
  BufferType s = BufferType::get(ctx, {Dim::symbolic(ctx, "M"), Dim(4)}, f16,
                                 MemoryScope::Global);
  CHECK(!s.isStatic());
  CHECK(s.isDynamicDim(0));
  CHECK(s.getDimSymbol(0) == "M");
  CHECK(s.getDimSymbol(1) == "");
  CHECK(s.getShape()[1] == 4);
  CHECK(s.withScope(MemoryScope::SharedDyn).getShapeString() == "[M, 4]");
  CHECK(s.withDims({Dim(2), Dim(4)}).isStatic());
  CHECK(Dim::symbolic(ctx, "M").equals(Dim::symbolic(ctx, "M")) ==
        std::optional<bool>(true));
  CHECK(!Dim::symbolic(ctx, "M").equals(Dim::symbolic(ctx, "N")).has_value());
  CHECK(Dim(3).equals(Dim(4)) == std::optional<bool>(false));
  CHECK(!Dim::unknown().equals(Dim::unknown()).has_value());
}

TEST_CASE("shapes agree ignoring unit dimensions") {
  checkAgree({"128", "32"}, {"128", "32"}, "yes");
  checkAgree({"1", "64"}, {"64"}, "yes");
  checkAgree({"64", "1"}, {"1", "64", "1"}, "yes");
  checkAgree({"64", "32"}, {"32", "64"}, "no");
  checkAgree({"64", "32"}, {"64"}, "no");
  checkAgree({"M", "32"}, {"M", "32"}, "yes");
  checkAgree({"M", "32"}, {"N", "32"}, "unknown");
  checkAgree({"M", "32"}, {"M", "64"}, "no");
  checkAgree({"M", "32"}, {"32"}, "unknown");
  checkAgree({"?"}, {"?"}, "unknown");
}

TEST_CASE("dtype names") {
  checkDType("float16", "f16", "float16", "f16", 16);
  checkDType("half", "f16", "float16", "f16", 16);
  checkDType("float", "f32", "float32", "f32", 32);
  checkDType("double", "f64", "float64", "f64", 64);
  checkDType("bfloat16", "bf16", "bfloat16", "bf16", 16);
  checkDType("tfloat32", "tf32", "tfloat32", "tf32", 32);
  checkDType("bool", "i1", "bool", "bool", 8);
  checkDType("int4", "i4", "int4", "i4", 4);
  checkDType("int", "i32", "int32", "i32", 32);
  checkDType("long", "i64", "int64", "i64", 64);
  checkDType("uint8", "ui8", "uint8", "u8", 8);
  checkDType("ulong", "ui64", "uint64", "u64", 64);
  checkDType("float8_e4m3fn", "f8E4M3FN", "float8_e4m3fn", "e4m3fn", 8);
  checkDType("float8_e5m2", "f8E5M2", "float8_e5m2", "e5m2", 8);
  checkDType("float8_e4m3", "f8E4M3", "float8_e4m3", "e4m3", 8);
  checkDType("float8_e8m0fnu", "f8E8M0FNU", "float8_e8m0fnu", "e8m0", 8);
  checkDType("float6_e3m2fn", "f6E3M2FN", "float6_e3m2fn", "e3m2", 6);
  checkDType("float4_e2m1fn", "f4E2M1FN", "float4_e2m1fn", "e2m1", 4);
  checkDType("float16x2", "vector<2xf16>", "float16x2", "f16x2", 32);
  checkDType("float8_e4m3fnx8", "vector<8xf8E4M3FN>", "float8_e4m3fnx8",
             "e4m3fnx8", 64);
  // Not dtypes, or without an MLIR element type.
  checkDType("float17", "");
  checkDType("fp16", "");
  checkDType("float16x3", "");
  checkDType("float16x128", "");
  checkDType("x2", "");
  checkDType("float4_e2m1_unpacked", "");
  checkDType("float6_e2m3fn_unpacked", "");
  checkDType("float6_e3m2fn_unpacked", "");
  checkDType("handle", "");
  // Types that are not TileLang dtypes have no canonical name.
  CHECK(getDTypeName(IndexType::get(&getContext())).empty());
  CHECK(getDTypeShortName(IndexType::get(&getContext())) == "index");
}

TEST_CASE("dtype names agree with tlc/Lang/DType.def") {
  unsigned checked = 0;
#define TLC_DTYPE(Id, Name, Short, Bits, Class, ExpBits, ManBits, Attr, Vec,   \
                  Doc)                                                         \
  {                                                                            \
    Type type = getElementTypeForDType(&getContext(), Name);                   \
    if (type) {                                                                \
      CAPTURE(Name);                                                           \
      CHECK(getDTypeName(type) == Name);                                       \
      CHECK(getDTypeShortName(type) == Short);                                 \
      CHECK(getElementBitWidth(type) == Bits);                                 \
      ++checked;                                                               \
    }                                                                          \
  }
#define TLC_DTYPE_ALIAS(Alias, Id, Attr)                                       \
  {                                                                            \
    CAPTURE(Alias);                                                            \
    Type type = getElementTypeForDType(&getContext(), Alias);                  \
    if (type) {                                                                \
      CHECK(getElementTypeForDType(&getContext(), getDTypeName(type)) ==       \
            type);                                                             \
    }                                                                          \
  }
#include "tlc/Lang/DType.def"
  // Every dtype but the three unpacked floats and handle has an element
  // type.
  CHECK(checked >= 27);
}

TEST_CASE("scope display names") {
  CHECK(getScopeDisplayName(MemoryScope::SharedDyn) == "shared");
  CHECK(getScopeDisplayName(MemoryScope::Shared) == "shared");
  CHECK(getScopeDisplayName(MemoryScope::Fragment) == "fragment");
  CHECK(getScopeDisplayName(MemoryScope::LocalVar) == "var");
  CHECK(getScopeDisplayName(MemoryScope::Global) == "global");
  CHECK(getScopeDisplayName(MemoryScope::Local) == "local");
  CHECK(getScopeDisplayName(MemoryScope::Barrier) == "barrier");
  CHECK(stringifyMemoryScope(MemoryScope::SharedDyn) == "shared.dyn");
  CHECK(symbolizeMemoryScope("local.fragment") == MemoryScope::Fragment);
  CHECK(!symbolizeMemoryScope("fragment").has_value());
}
