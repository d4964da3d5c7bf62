//===- TileOps.cpp - Tile dialect structure and memory ops ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernel structure (func, kernel, symbol, thread_binding), allocation and
// views, synchronisation and debug ops. Loops and control flow are in
// TileOpsControl.cpp, tile compute and element access ops in
// TileOpsCompute.cpp.
//
//===----------------------------------------------------------------------===//

#include "TileOpsDetail.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tlc::tile;
using namespace tlc::tile::detail;

ParseResult tlc::tile::parseBody(OpAsmParser &parser, Region &region) {
  if (parser.parseRegion(region, /*arguments=*/{}))
    return failure();
  if (region.empty())
    region.push_back(new Block());
  return success();
}

void tlc::tile::printBody(OpAsmPrinter &p, Operation *, Region &region) {
  p.printRegion(region, /*printEntryBlockArgs=*/false);
}

#define GET_OP_CLASSES
#include "tlc/Dialect/Tile/IR/TileOps.cpp.inc"

KernelOp tlc::tile::getEnclosingKernel(Operation *op) {
  return op->getParentOfType<KernelOp>();
}

FuncOp tlc::tile::getEnclosingFunc(Operation *op) {
  return op->getParentOfType<FuncOp>();
}

bool tlc::tile::detail::isIdentifier(StringRef text) {
  if (text.empty() || !(llvm::isAlpha(text[0]) || text[0] == '_'))
    return false;
  return llvm::all_of(text,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

Location tlc::tile::detail::stripName(Location loc) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getChildLoc();
  return loc;
}

Block *tlc::tile::detail::addIndexBlock(OpBuilder &builder, Region *region,
                                        unsigned numArgs, Location loc) {
  OpBuilder::InsertionGuard guard(builder);
  loc = stripName(loc);
  SmallVector<Type> types(numArgs, builder.getIndexType());
  SmallVector<Location> locs(numArgs, loc);
  return builder.createBlock(region, region->end(), types, locs);
}

/// Collects the symbol names of a symbolic dimension text: `M // block_M`
/// gives M and block_M; function names (`ceildiv` in `ceildiv(N, 128)`) and
/// attribute names (`x` in `a.x`) are skipped.
static void collectIdentifiers(StringRef text,
                               SmallVectorImpl<StringRef> &names) {
  size_t i = 0;
  while (i < text.size()) {
    if (!(llvm::isAlpha(text[i]) || text[i] == '_')) {
      // Skip numbers whole so `1e5` or `0x1f` yield no identifier.
      if (llvm::isDigit(text[i]))
        while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '_'))
          ++i;
      else
        ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '_'))
      ++i;
    StringRef rest = text.drop_front(i).ltrim();
    bool isCall = rest.starts_with("(");
    bool isAttribute = start > 0 && text[start - 1] == '.';
    if (!isCall && !isAttribute)
      names.push_back(text.slice(start, i));
  }
}

/// Checks that every identifier in the symbolic dimensions of \p type is a
/// symbol declared by \p func.
static LogicalResult verifyDimSymbolsDeclared(Operation *op, FuncOp func,
                                              BufferType type,
                                              StringRef what) {
  if (!func)
    return success();
  for (unsigned i = 0, e = type.getRank(); i < e; ++i) {
    SmallVector<StringRef> names;
    collectIdentifiers(type.getDimSymbol(i), names);
    for (StringRef name : names)
      if (!func.lookupSymbol(name))
        return op->emitOpError() << what << " dimension " << i << " uses '"
                                 << name
                                 << "', which is not a declared symbol of @"
                                 << func.getSymName();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ArrayRef<SymbolDeclAttr> symbols) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  if (!symbols.empty())
    state.addAttribute(getSymbolsAttrName(state.name),
                       builder.getArrayAttr(SmallVector<Attribute>(
                           symbols.begin(), symbols.end())));
  state.addRegion();
}

SymbolDeclAttr FuncOp::lookupSymbol(StringRef name) {
  if (ArrayAttr symbols = getSymbolsAttr())
    for (Attribute attr : symbols)
      if (auto decl = dyn_cast<SymbolDeclAttr>(attr))
        if (decl.getName().getValue() == name)
          return decl;
  return {};
}

Block *FuncOp::addEntryBlock(ArrayRef<Location> argLocs) {
  assert(getBody().empty() && "function already has a body");
  ArrayRef<Type> types = getArgumentTypes();
  SmallVector<Location> locs(argLocs.begin(), argLocs.end());
  if (locs.empty())
    locs.assign(types.size(), stripName(getLoc()));
  assert(locs.size() == types.size() && "one location per argument");
  Block *block = new Block();
  getBody().push_back(block);
  block->addArguments(types, locs);
  return block;
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringAttr nameAttr;
  (void)impl::parseOptionalVisibilityKeyword(parser, result.attributes);
  if (parser.parseSymbolName(nameAttr, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : args)
    argTypes.push_back(arg.type);
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(builder.getFunctionType(argTypes,
                                                            resultTypes)));
  call_interface_impl::addArgAndResultAttrs(
      builder, result, args, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));

  // symbols(NAME: KIND, ...)
  if (succeeded(parser.parseOptionalKeyword("symbols"))) {
    SmallVector<Attribute> decls;
    auto parseDecl = [&]() -> ParseResult {
      std::string name;
      StringRef kindText;
      if (parser.parseKeywordOrString(&name) || parser.parseColon())
        return failure();
      SMLoc kindLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&kindText))
        return failure();
      std::optional<SymbolKind> kind = symbolizeSymbolKind(kindText);
      if (!kind)
        return parser.emitError(kindLoc, "unknown symbol kind '")
               << kindText << "' (expected dynamic, const or meta)";
      decls.push_back(
          SymbolDeclAttr::get(builder.getContext(),
                              builder.getStringAttr(name), *kind));
      return success();
    };
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                       parseDecl))
      return failure();
    result.addAttribute(getSymbolsAttrName(result.name),
                        builder.getArrayAttr(decls));
  }

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  OptionalParseResult regionResult = parser.parseOptionalRegion(
      *body, args, /*enableNameShadowing=*/false);
  if (regionResult.has_value()) {
    if (failed(*regionResult))
      return failure();
    // `{}` is an empty body, not a declaration.
    if (body->empty())
      body->push_back(new Block());
  }
  return success();
}

void FuncOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (std::optional<StringRef> visibility = getSymVisibility())
    p << *visibility << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  if (ArrayAttr symbols = getSymbolsAttr()) {
    p << " symbols(";
    llvm::interleaveComma(symbols, p, [&](Attribute attr) {
      auto decl = cast<SymbolDeclAttr>(attr);
      StringRef name = decl.getName().getValue();
      if (isIdentifier(name))
        p << name;
      else
        p.printString(name);
      p << ": " << stringifySymbolKind(decl.getKind());
    });
    p << ')';
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {SymbolTable::getSymbolAttrName(), getFunctionTypeAttrName(),
       getArgAttrsAttrName(), getResAttrsAttrName(), getSymbolsAttrName(),
       getSymVisibilityAttrName()});
  if (!getBody().empty()) {
    p << ' ';
    p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
}

LogicalResult FuncOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("kernel functions return no values; outputs are "
                       "buffer parameters");
  llvm::StringSet<> seen;
  if (ArrayAttr symbols = getSymbolsAttr())
    for (Attribute attr : symbols) {
      StringRef name = cast<SymbolDeclAttr>(attr).getName().getValue();
      if (name.empty())
        return emitOpError("symbol names must not be empty");
      if (!seen.insert(name).second)
        return emitOpError("symbol '") << name << "' is declared twice";
    }
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    if (auto buffer = dyn_cast<BufferType>(type)) {
      if (buffer.getScope() != MemoryScope::Global)
        return emitOpError("buffer parameter ")
               << i << " must be in global scope, got '"
               << stringifyMemoryScope(buffer.getScope()) << "'";
      if (failed(verifyDimSymbolsDeclared(*this, *this, buffer,
                                          "parameter " + std::to_string(i))))
        return failure();
      continue;
    }
    if (!type.isSignlessIntOrIndexOrFloat())
      return emitOpError("parameter ")
             << i << " must be a global buffer or a scalar, got " << type;
  }
  return success();
}

void FuncOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  for (BlockArgument arg : region.getArguments())
    if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc()))
      if (isIdentifier(nameLoc.getName().getValue()))
        setNameFn(arg, nameLoc.getName().getValue());
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state,
                     ArrayRef<OpFoldResult> grid,
                     ArrayRef<OpFoldResult> threads) {
  SmallVector<Value> dynamicGrid, dynamicThreads;
  SmallVector<int64_t> staticGrid, staticThreads;
  dispatchIndexOpFoldResults(grid, dynamicGrid, staticGrid);
  dispatchIndexOpFoldResults(threads, dynamicThreads, staticThreads);
  build(builder, state, dynamicGrid, builder.getDenseI64ArrayAttr(staticGrid),
        dynamicThreads, builder.getDenseI64ArrayAttr(staticThreads));
  addIndexBlock(builder, state.regions.front().get(), grid.size(),
                state.location);
}

SmallVector<OpFoldResult> KernelOp::getMixedGrid() {
  return getMixedValues(getStaticGrid(), getGrid(), getContext());
}

SmallVector<OpFoldResult> KernelOp::getMixedThreads() {
  return getMixedValues(getStaticThreads(), getThreads(), getContext());
}

std::optional<int64_t> KernelOp::getStaticNumThreads() {
  int64_t total = 1;
  for (int64_t extent : getStaticThreads()) {
    if (ShapedType::isDynamic(extent))
      return std::nullopt;
    total *= extent;
  }
  return total;
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  Type indexType = builder.getIndexType();
  SmallVector<OpAsmParser::Argument> blockArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> grid, threads;
  DenseI64ArrayAttr staticGrid, staticThreads;
  if (parser.parseArgumentList(blockArgs, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("grid") ||
      parseDynamicIndexList(parser, grid, staticGrid) ||
      parser.parseKeyword("threads") ||
      parseDynamicIndexList(parser, threads, staticThreads) ||
      parser.resolveOperands(grid, indexType, result.operands) ||
      parser.resolveOperands(threads, indexType, result.operands))
    return failure();
  result.addAttribute(getStaticGridAttrName(result.name), staticGrid);
  result.addAttribute(getStaticThreadsAttrName(result.name), staticThreads);
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      builder.getDenseI32ArrayAttr(
                          {static_cast<int32_t>(grid.size()),
                           static_cast<int32_t>(threads.size())}));
  for (OpAsmParser::Argument &arg : blockArgs)
    arg.type = indexType;
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, blockArgs))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getBody().getArguments(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") grid ";
  printDynamicIndexList(p, *this, getGrid(), getStaticGrid());
  p << " threads ";
  printDynamicIndexList(p, *this, getThreads(), getStaticThreads());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getStaticGridAttrName(), getStaticThreadsAttrName(),
                            getOperandSegmentSizesAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

/// Checks a static/dynamic extent list: 1 to 3 entries, static ones positive
/// (or zero where \p allowZero: a grid of zero blocks launches nothing, as
/// TileLang's `T.Kernel(0)` does).
static LogicalResult verifyExtentList(Operation *op, StringRef what,
                                      ArrayRef<int64_t> statics,
                                      ValueRange values, unsigned maxSize,
                                      bool allowZero = false) {
  if (statics.empty() || statics.size() > maxSize)
    return op->emitOpError() << "expects 1 to " << maxSize << " " << what
                             << " extents, got " << statics.size();
  if (failed(verifyListOfOperandsOrIntegers(op, what, statics.size(), statics,
                                            values)))
    return failure();
  for (int64_t extent : statics)
    if (!ShapedType::isDynamic(extent) &&
        (extent < 0 || (!allowZero && !extent)))
      return op->emitOpError()
             << what << " extents must be "
             << (allowZero ? "non-negative" : "positive") << ", got " << extent;
  return success();
}

LogicalResult KernelOp::verify() {
  if (failed(verifyExtentList(*this, "grid", getStaticGrid(), getGrid(), 3,
                              /*allowZero=*/true)) ||
      failed(verifyExtentList(*this, "thread", getStaticThreads(),
                              getThreads(), 3)))
    return failure();
  if (getBody().getNumArguments() != getStaticGrid().size())
    return emitOpError("expects one block index per grid extent (")
           << getStaticGrid().size() << "), got "
           << getBody().getNumArguments();
  for (BlockArgument arg : getBody().getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("block indices must have type index");
  if (!getEnclosingFunc(*this))
    return emitOpError("must be nested in a tile.func");
  if (getEnclosingKernel(*this))
    return emitOpError("must not be nested in another tile.kernel");
  return success();
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  static const char *const names[] = {"bx", "by", "bz"};
  for (auto [i, arg] : llvm::enumerate(region.getArguments())) {
    if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc());
        nameLoc && isIdentifier(nameLoc.getName().getValue()))
      setNameFn(arg, nameLoc.getName().getValue());
    else if (i < 3)
      setNameFn(arg, names[i]);
  }
}

//===----------------------------------------------------------------------===//
// SymbolOp, ThreadBindingOp
//===----------------------------------------------------------------------===//

void SymbolOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (isIdentifier(getName()))
    setNameFn(getResult(), getName());
}

LogicalResult SymbolOp::verify() {
  if (FuncOp func = getEnclosingFunc(*this))
    if (!func.lookupSymbol(getName()))
      return emitOpError("symbol '")
             << getName() << "' is not declared by @" << func.getSymName();
  return success();
}

void ThreadBindingOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  static const char *const names[] = {"tx", "ty", "tz"};
  setNameFn(getResult(), names[getDim() % 3]);
}

LogicalResult ThreadBindingOp::verify() {
  if (!getEnclosingKernel(*this))
    return emitOpError("must be nested in a tile.kernel");
  return success();
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

void AllocOp::build(OpBuilder &builder, OperationState &state, BufferType type,
                    Value init) {
  build(builder, state, type, init, /*arrive_counts=*/nullptr,
        /*layout=*/nullptr);
}

void AllocOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  StringRef name;
  switch (getBufferType(getResult()).getScope()) {
  case MemoryScope::Global:
    name = "global";
    break;
  case MemoryScope::Shared:
  case MemoryScope::SharedDyn:
    name = "shared";
    break;
  case MemoryScope::Fragment:
    name = "frag";
    break;
  case MemoryScope::Local:
    name = "local";
    break;
  case MemoryScope::LocalVar:
    name = "var";
    break;
  case MemoryScope::Barrier:
  case MemoryScope::ClusterBarrier:
    name = "bar";
    break;
  default:
    name = "buf";
    break;
  }
  setNameFn(getResult(), name);
}

LogicalResult AllocOp::verify() {
  BufferType type = getBufferType(getResult());
  MemoryScope scope = type.getScope();
  StringRef scopeName = stringifyMemoryScope(scope);
  // A function that launches no kernel (TVMScript-level code a program only
  // inspects) may hold any buffer; one that launches kernels allocates its
  // on-chip buffers inside them.
  auto launchesKernels = [&] {
    Operation *func = getOperation()->getParentOfType<FuncOp>();
    return !func || func->walk([](KernelOp) { return WalkResult::interrupt(); })
                        .wasInterrupted();
  };
  if (requiresKernelScope(scope) && !getEnclosingKernel(*this) &&
      launchesKernels())
    return emitOpError("'") << scopeName
                            << "' buffers must be allocated inside a "
                               "tile.kernel";
  if (!requiresKernelScope(scope) && getEnclosingKernel(*this))
    return emitOpError("global buffers must be allocated outside of "
                       "tile.kernel");
  if (scope == MemoryScope::LocalVar) {
    if (type.getRank() != 1 || type.getDim(0) != Dim(1))
      return emitOpError("'local.var' buffers must have shape [1], got ")
             << type.getShapeString();
  } else if (getInit()) {
    return emitOpError("only 'local.var' buffers take an init value");
  }
  if (Value init = getInit())
    if (init.getType() != getElementValueType(type))
      return emitOpError("init value has type ")
             << init.getType() << ", expected "
             << getElementValueType(type);
  if (isBarrierScope(scope)) {
    if (type.getRank() != 1)
      return emitOpError("barrier buffers must have rank 1");
    auto intType = dyn_cast<IntegerType>(type.getElementType());
    if (!intType || intType.getWidth() != 64)
      return emitOpError("barrier buffers must have a 64-bit integer "
                         "element type, got ")
             << type.getElementType();
    if (std::optional<ArrayRef<int64_t>> counts = getArriveCounts()) {
      std::optional<int64_t> n = type.getDim(0).getStaticValue();
      if (n && static_cast<int64_t>(counts->size()) != *n)
        return emitOpError("expects ")
               << *n << " arrive counts, got " << counts->size();
    }
  } else if (getArriveCounts()) {
    return emitOpError("only barrier buffers take arrive counts");
  }
  return verifyDimSymbolsDeclared(*this, getEnclosingFunc(*this), type,
                                  "allocated");
}

//===----------------------------------------------------------------------===//
// RegionOp
//===----------------------------------------------------------------------===//

void RegionOp::build(OpBuilder &builder, OperationState &state,
                     BufferType resultType, Value source,
                     ArrayRef<OpFoldResult> offsets) {
  SmallVector<Value> dynamicOffsets;
  SmallVector<int64_t> staticOffsets;
  dispatchIndexOpFoldResults(offsets, dynamicOffsets, staticOffsets);
  build(builder, state, resultType, source, dynamicOffsets,
        builder.getDenseI64ArrayAttr(staticOffsets));
}

SmallVector<OpFoldResult> RegionOp::getMixedOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}

Value RegionOp::getViewSource() { return getSource(); }

LogicalResult RegionOp::verify() {
  BufferType source = getBufferType(getSource());
  BufferType result = getBufferType(getResult());
  if (failed(verifyListOfOperandsOrIntegers(*this, "offset",
                                            source.getRank(),
                                            getStaticOffsets(), getOffsets())))
    return failure();
  if (result.getRank() != source.getRank())
    return emitOpError("result rank ")
           << result.getRank() << " differs from source rank "
           << source.getRank();
  if (result.getElementType() != source.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from source element type "
           << source.getElementType();
  if (result.getScope() != source.getScope())
    return emitOpError("result scope '")
           << stringifyMemoryScope(result.getScope())
           << "' differs from source scope '"
           << stringifyMemoryScope(source.getScope()) << "'";
  // A region may extend past the end of its source (ragged tiles, or a tile
  // that deliberately over-reads as in GQA decoding): out-of-range elements
  // are guarded, never accessed. Only a negative static offset is an error.
  for (auto [i, offset] : llvm::enumerate(getStaticOffsets()))
    if (!ShapedType::isDynamic(offset) && offset < 0)
      return emitOpError("offset ") << offset << " of dimension " << i
                                    << " is negative";
  return success();
}

//===----------------------------------------------------------------------===//
// Synchronisation, annotations and debug
//===----------------------------------------------------------------------===//

LogicalResult SyncThreadsOp::verify() {
  if (getArriveCount() && !getBarrierId())
    return emitOpError("'arrive_count' requires 'barrier_id'");
  if (IntegerAttr count = getArriveCountAttr(); count && count.getInt() <= 0)
    return emitOpError("'arrive_count' must be positive");
  return success();
}

LogicalResult UseSwizzleOp::verify() {
  if (!getEnclosingKernel(*this))
    return emitOpError("must be nested in a tile.kernel");
  return success();
}

LogicalResult AnnotateLayoutOp::verify() {
  BufferType type = getBufferType(getBuffer());
  if (isBarrierScope(type.getScope()) ||
      type.getScope() == MemoryScope::LocalVar)
    return emitOpError("cannot annotate the layout of a '")
           << stringifyMemoryScope(type.getScope()) << "' buffer";
  return success();
}

LogicalResult PrintOp::verify() {
  if (Value value = getValue()) {
    Type type = value.getType();
    if (!isa<BufferType>(type) && !isValidElementType(type))
      return emitOpError("expects a scalar or a buffer, got ") << type;
  }
  return success();
}
