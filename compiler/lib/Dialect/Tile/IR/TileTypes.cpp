//===- TileTypes.cpp - Tile dialect buffer type ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `!tile.buffer` type: storage normalisation, assembly, verification and
// the Dim helpers.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tlc::tile;

#define GET_TYPEDEF_CLASSES
#include "tlc/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tlc/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Dim
//===----------------------------------------------------------------------===//

std::optional<bool> Dim::equals(const Dim &other) const {
  if (isStatic() && other.isStatic())
    return value == other.value;
  if (isSymbolic() && other.isSymbolic() && symbol == other.symbol)
    return true;
  return std::nullopt;
}

void Dim::print(llvm::raw_ostream &os) const {
  if (isStatic())
    os << value;
  else if (isSymbolic())
    os << symbol.getValue();
  else
    os << '?';
}

std::string Dim::str() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  print(os);
  return result;
}

std::optional<bool>
tlc::tile::shapesAgreeIgnoringUnitDims(llvm::ArrayRef<Dim> lhs,
                                       llvm::ArrayRef<Dim> rhs) {
  auto isUnit = [](const Dim &d) { return d.isStatic() && d.getValue() == 1; };
  SmallVector<Dim> a, b;
  llvm::copy_if(lhs, std::back_inserter(a), [&](const Dim &d) { return !isUnit(d); });
  llvm::copy_if(rhs, std::back_inserter(b), [&](const Dim &d) { return !isUnit(d); });
  bool unknown = false;
  // A symbolic or unknown dimension may turn out to be 1, so only a
  // difference in the count of static dimensions is certain.
  if (a.size() != b.size()) {
    bool allStatic = llvm::all_of(a, [](const Dim &d) { return d.isStatic(); }) &&
                     llvm::all_of(b, [](const Dim &d) { return d.isStatic(); });
    if (allStatic)
      return false;
    return std::nullopt;
  }
  for (auto [x, y] : llvm::zip_equal(a, b)) {
    std::optional<bool> eq = x.equals(y);
    if (!eq)
      unknown = true;
    else if (!*eq)
      return false;
  }
  if (unknown)
    return std::nullopt;
  return true;
}

//===----------------------------------------------------------------------===//
// BufferType
//===----------------------------------------------------------------------===//

BufferType BufferType::get(MLIRContext *context, ArrayRef<Dim> dims,
                           Type elementType, MemoryScope scope) {
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> symbols;
  bool anySymbol = false;
  for (const Dim &d : dims) {
    shape.push_back(d.getValue());
    symbols.push_back(d.getSymbol());
    anySymbol |= d.isSymbolic();
  }
  if (!anySymbol)
    symbols.clear();
  return Base::get(context, shape, symbols, elementType, scope);
}

SmallVector<Dim> BufferType::getDims() const {
  SmallVector<Dim> dims;
  for (unsigned i = 0, e = getShape().size(); i < e; ++i)
    dims.push_back(getDim(i));
  return dims;
}

Dim BufferType::getDim(unsigned i) const {
  ArrayRef<StringAttr> symbols = getDimSymbols();
  if (!symbols.empty() && symbols[i])
    return Dim::symbolic(symbols[i]);
  return Dim(getShape()[i]);
}

StringRef BufferType::getDimSymbol(unsigned i) const {
  ArrayRef<StringAttr> symbols = getDimSymbols();
  if (symbols.empty() || !symbols[i])
    return {};
  return symbols[i].getValue();
}

bool BufferType::isStatic() const {
  return llvm::none_of(getShape(), ShapedType::isDynamic);
}

BufferType BufferType::withScope(MemoryScope newScope) const {
  return get(getContext(), getShape(), getDimSymbols(), getElementType(),
             newScope);
}

BufferType BufferType::withDims(ArrayRef<Dim> newDims) const {
  return get(getContext(), newDims, getElementType(), getScope());
}

ShapedType BufferType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                 Type elementType) const {
  if (!shape)
    return get(getContext(), getShape(), getDimSymbols(), elementType,
               getScope());
  SmallVector<Dim> dims;
  for (int64_t extent : *shape)
    dims.push_back(Dim(extent));
  return get(getContext(), dims, elementType, getScope());
}

std::string BufferType::getShapeString() const {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << '[';
  llvm::interleaveComma(getDims(), os);
  os << ']';
  return result;
}

LogicalResult
BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> shape, ArrayRef<StringAttr> dimSymbols,
                   Type elementType, MemoryScope scope) {
  if (!dimSymbols.empty()) {
    if (dimSymbols.size() != shape.size())
      return emitError() << "expected " << shape.size()
                         << " dimension symbols, got " << dimSymbols.size();
    if (llvm::none_of(dimSymbols, [](StringAttr s) { return bool(s); }))
      return emitError() << "dimension symbols must be empty when no "
                            "dimension is symbolic";
  }
  for (auto [i, extent] : llvm::enumerate(shape)) {
    StringAttr symbol = dimSymbols.empty() ? StringAttr() : dimSymbols[i];
    if (!ShapedType::isDynamic(extent)) {
      if (extent < 0)
        return emitError() << "dimension " << i << " has negative extent "
                           << extent;
      if (symbol)
        return emitError() << "static dimension " << i
                           << " must not have a symbol";
    } else if (symbol && symbol.getValue().empty()) {
      return emitError() << "symbolic dimension " << i << " has empty text";
    }
  }
  if (!isValidElementType(elementType))
    return emitError() << "invalid buffer element type " << elementType;
  return success();
}

/// True when \p text can be printed without quotes: a Python identifier made
/// of ASCII letters, digits and underscores.
static bool isBareIdentifier(StringRef text) {
  if (text.empty() || !(llvm::isAlpha(text[0]) || text[0] == '_'))
    return false;
  return llvm::all_of(text, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

static ParseResult parseDim(AsmParser &parser, Dim &dim) {
  if (succeeded(parser.parseOptionalQuestion())) {
    dim = Dim::unknown();
    return success();
  }
  int64_t value = 0;
  OptionalParseResult intResult = parser.parseOptionalInteger(value);
  if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    dim = Dim(value);
    return success();
  }
  std::string text;
  if (succeeded(parser.parseOptionalKeywordOrString(&text))) {
    dim = Dim::symbolic(parser.getContext(), text);
    return success();
  }
  return parser.emitError(parser.getCurrentLocation(),
                          "expected an integer, a symbol, a string or '?'");
}

Type BufferType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<Dim> dims;
  Type elementType;
  std::string scopeText;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&] { return parseDim(parser, dims.emplace_back()); }) ||
      parser.parseComma() || parser.parseType(elementType) ||
      parser.parseComma())
    return {};
  SMLoc scopeLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&scopeText))
    return {};
  std::optional<MemoryScope> scope = symbolizeMemoryScope(scopeText);
  if (!scope) {
    parser.emitError(scopeLoc, "unknown memory scope '") << scopeText << "'";
    return {};
  }
  if (parser.parseGreater())
    return {};
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> symbols;
  bool anySymbol = false;
  for (const Dim &d : dims) {
    shape.push_back(d.getValue());
    symbols.push_back(d.getSymbol());
    anySymbol |= d.isSymbolic();
  }
  if (!anySymbol)
    symbols.clear();
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, symbols, elementType, *scope);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getDims(), printer, [&](const Dim &d) {
    if (d.isSymbolic() && !isBareIdentifier(d.getSymbol().getValue()))
      printer.printString(d.getSymbol().getValue());
    else
      printer << d;
  });
  printer << "], " << getElementType() << ", "
          << stringifyMemoryScope(getScope()) << '>';
}

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

StringRef tlc::tile::getScopeDisplayName(MemoryScope s) {
  switch (s) {
  case MemoryScope::Shared:
  case MemoryScope::SharedDyn:
    return "shared";
  case MemoryScope::Fragment:
    return "fragment";
  case MemoryScope::LocalVar:
    return "var";
  case MemoryScope::Barrier:
    return "barrier";
  case MemoryScope::ClusterBarrier:
    return "cluster_barrier";
  case MemoryScope::TensorMemory:
    return "tmem";
  case MemoryScope::Reducer:
    return "reducer";
  case MemoryScope::AscendL1:
    return "l1";
  case MemoryScope::AscendL0A:
    return "l0a";
  case MemoryScope::AscendL0B:
    return "l0b";
  case MemoryScope::AscendL0C:
    return "l0c";
  case MemoryScope::AscendUB:
    return "ub";
  default:
    return stringifyMemoryScope(s);
  }
}
