//===- TileOps.cpp - Tile dialect structure, memory and control ops -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernel structure (func, kernel, symbol, thread_binding), allocation and
// views, loops and control flow, synchronisation and debug ops. The tile
// compute and element access ops are in TileOpsCompute.cpp.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tlc::tile;

/// Parses a region without arguments; an empty `{}` gets one empty block
/// so that single-block regions round-trip.
static ParseResult parseBody(OpAsmParser &parser, Region &region) {
  if (parser.parseRegion(region, /*arguments=*/{}))
    return failure();
  if (region.empty())
    region.push_back(new Block());
  return success();
}

/// Prints a region parsed by parseBody.
static void printBody(OpAsmPrinter &p, Operation *, Region &region) {
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

/// True when \p text is an ASCII identifier usable as an SSA name hint.
static bool isIdentifier(StringRef text) {
  if (text.empty() || !(llvm::isAlpha(text[0]) || text[0] == '_'))
    return false;
  return llvm::all_of(text,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// \p loc without a NameLoc wrapper: block arguments created for an op take
/// its source location but not its name.
static Location stripName(Location loc) {
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return nameLoc.getChildLoc();
  return loc;
}

/// Creates a block with \p numArgs `index` arguments at the end of \p region.
static Block *addIndexBlock(OpBuilder &builder, Region *region,
                            unsigned numArgs, Location loc) {
  OpBuilder::InsertionGuard guard(builder);
  loc = stripName(loc);
  SmallVector<Type> types(numArgs, builder.getIndexType());
  SmallVector<Location> locs(numArgs, loc);
  return builder.createBlock(region, region->end(), types, locs);
}

/// Collects the identifiers of a symbolic dimension text (`M // block_M`
/// gives M and block_M).
static void collectIdentifiers(StringRef text,
                               SmallVectorImpl<StringRef> &names) {
  size_t i = 0;
  while (i < text.size()) {
    if (llvm::isAlpha(text[i]) || text[i] == '_') {
      size_t start = i;
      while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '_'))
        ++i;
      names.push_back(text.slice(start, i));
    } else {
      ++i;
    }
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

/// Checks a static/dynamic extent list: 1 to 3 entries, static ones positive.
static LogicalResult verifyExtentList(Operation *op, StringRef what,
                                      ArrayRef<int64_t> statics,
                                      ValueRange values, unsigned maxSize) {
  if (statics.empty() || statics.size() > maxSize)
    return op->emitOpError() << "expects 1 to " << maxSize << " " << what
                             << " extents, got " << statics.size();
  if (failed(verifyListOfOperandsOrIntegers(op, what, statics.size(), statics,
                                            values)))
    return failure();
  for (int64_t extent : statics)
    if (!ShapedType::isDynamic(extent) && extent <= 0)
      return op->emitOpError() << what << " extents must be positive, got "
                               << extent;
  return success();
}

LogicalResult KernelOp::verify() {
  if (failed(verifyExtentList(*this, "grid", getStaticGrid(), getGrid(), 3)) ||
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
  if (requiresKernelScope(scope) && !getEnclosingKernel(*this))
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
  for (int64_t i = 0, e = source.getRank(); i < e; ++i) {
    int64_t offset = getStaticOffsets()[i];
    std::optional<int64_t> size = result.getDim(i).getStaticValue();
    std::optional<int64_t> extent = source.getDim(i).getStaticValue();
    if (!ShapedType::isDynamic(offset) && offset < 0)
      return emitOpError("offset ") << offset << " of dimension " << i
                                    << " is negative";
    if (size && extent && *size > *extent)
      return emitOpError("region extent ")
             << *size << " exceeds source extent " << *extent
             << " in dimension " << i;
    if (size && extent && !ShapedType::isDynamic(offset) &&
        offset + *size > *extent)
      return emitOpError("region [")
             << offset << ", " << offset + *size << ") is out of bounds of "
             << "extent " << *extent << " in dimension " << i;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// Checks that \p body contains no tile-level operation (T.Parallel bodies
/// hold only element-level code).
static LogicalResult verifyNoTileOpsInside(Operation *op, Region &body) {
  WalkResult result = body.walk([&](Operation *nested) {
    if (isa<CopyOp, GemmOp, ReduceOp, CumSumOp, FillOp, ClearOp, PipelinedOp,
            KernelOp, AllocOp>(nested) ||
        (isa<AtomicAddOp>(nested) &&
         cast<AtomicAddOp>(nested).getIndices().empty())) {
      InFlightDiagnostic diag = op->emitOpError("must not contain '")
                                << nested->getName() << "'";
      diag.attachNote(nested->getLoc()) << "nested operation here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void ParallelOp::build(OpBuilder &builder, OperationState &state,
                       ArrayRef<OpFoldResult> extents) {
  SmallVector<Value> dynamicExtents;
  SmallVector<int64_t> staticExtents;
  dispatchIndexOpFoldResults(extents, dynamicExtents, staticExtents);
  build(builder, state, dynamicExtents,
        builder.getDenseI64ArrayAttr(staticExtents),
        /*coalesced_width=*/nullptr, /*loop_layout=*/nullptr);
  addIndexBlock(builder, state.regions.front().get(), extents.size(),
                state.location);
}

SmallVector<OpFoldResult> ParallelOp::getMixedExtents() {
  return getMixedValues(getStaticExtents(), getExtents(), getContext());
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  Type indexType = parser.getBuilder().getIndexType();
  SmallVector<OpAsmParser::Argument> ivs;
  SmallVector<OpAsmParser::UnresolvedOperand> extents;
  DenseI64ArrayAttr staticExtents;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parseDynamicIndexList(parser, extents, staticExtents) ||
      parser.resolveOperands(extents, indexType, result.operands))
    return failure();
  result.addAttribute(getStaticExtentsAttrName(result.name), staticExtents);
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = indexType;
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getBody().getArguments(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") in ";
  printDynamicIndexList(p, *this, getExtents(), getStaticExtents());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getStaticExtentsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ParallelOp::verify() {
  if (getStaticExtents().empty())
    return emitOpError("expects at least one extent");
  if (failed(verifyListOfOperandsOrIntegers(*this, "extent",
                                            getStaticExtents().size(),
                                            getStaticExtents(), getExtents())))
    return failure();
  for (int64_t extent : getStaticExtents())
    if (!ShapedType::isDynamic(extent) && extent < 0)
      return emitOpError("extents must be non-negative, got ") << extent;
  if (getBody().getNumArguments() != getStaticExtents().size())
    return emitOpError("expects one loop variable per extent (")
           << getStaticExtents().size() << "), got "
           << getBody().getNumArguments();
  for (BlockArgument arg : getBody().getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("loop variables must have type index");
  return verifyNoTileOpsInside(*this, getBody());
}

void ParallelOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setNameFn) {
  static const char *const names[] = {"i", "j", "k", "l"};
  for (auto [i, arg] : llvm::enumerate(region.getArguments())) {
    if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc());
        nameLoc && isIdentifier(nameLoc.getName().getValue()))
      setNameFn(arg, nameLoc.getName().getValue());
    else if (i < 4)
      setNameFn(arg, names[i]);
  }
}

/// Names a loop variable after its NameLoc, or \p fallback.
static void nameLoopVariable(Region &region, StringRef fallback,
                             OpAsmSetValueNameFn setNameFn) {
  if (region.getNumArguments() != 1)
    return;
  BlockArgument iv = region.getArgument(0);
  if (auto nameLoc = dyn_cast<NameLoc>(iv.getLoc());
      nameLoc && isIdentifier(nameLoc.getName().getValue()))
    setNameFn(iv, nameLoc.getName().getValue());
  else
    setNameFn(iv, fallback);
}

void PipelinedOp::getAsmBlockArgumentNames(Region &region,
                                           OpAsmSetValueNameFn setNameFn) {
  nameLoopVariable(region, "k", setNameFn);
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  nameLoopVariable(region, "i", setNameFn);
}

/// Parses `%iv = %lb to %ub` and resolves the bounds as index values.
static ParseResult parseLoopHeader(OpAsmParser &parser,
                                   OperationState &result,
                                   OpAsmParser::Argument &iv) {
  Type indexType = parser.getBuilder().getIndexType();
  OpAsmParser::UnresolvedOperand lb, ub;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) ||
      parser.resolveOperand(lb, indexType, result.operands) ||
      parser.resolveOperand(ub, indexType, result.operands))
    return failure();
  iv.type = indexType;
  return success();
}

/// Parses the loop body with \p iv as its argument.
static ParseResult parseLoopBody(OpAsmParser &parser, OperationState &result,
                                 OpAsmParser::Argument &iv) {
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

/// Checks that a loop body has exactly one index argument.
static LogicalResult verifyLoopBody(Operation *op, Region &body) {
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return op->emitOpError("expects one index loop variable");
  return success();
}

void PipelinedOp::build(OpBuilder &builder, OperationState &state,
                        Value lowerBound, Value upperBound, int64_t numStages) {
  build(builder, state, lowerBound, upperBound,
        builder.getI64IntegerAttr(numStages), /*order=*/nullptr,
        /*stage=*/nullptr);
  addIndexBlock(builder, state.regions.front().get(), 1, state.location);
}

ParseResult PipelinedOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  OpAsmParser::Argument iv;
  int64_t numStages;
  if (parseLoopHeader(parser, result, iv) || parser.parseKeyword("stages") ||
      parser.parseInteger(numStages))
    return failure();
  result.addAttribute(getNumStagesAttrName(result.name),
                      builder.getI64IntegerAttr(numStages));
  for (StringRef keyword : {"order", "stage"}) {
    if (failed(parser.parseOptionalKeyword(keyword)))
      continue;
    SmallVector<int64_t> values;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square,
            [&] { return parser.parseInteger(values.emplace_back()); }))
      return failure();
    result.addAttribute(keyword, builder.getDenseI64ArrayAttr(values));
  }
  return parseLoopBody(parser, result, iv);
}

/// Prints ` keyword [a, b, c]`.
static void printIntList(OpAsmPrinter &p, StringRef keyword,
                         ArrayRef<int64_t> values) {
  p << ' ' << keyword << " [";
  llvm::interleaveComma(values, p);
  p << ']';
}

void PipelinedOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getInductionVar());
  p << " = " << getLowerBound() << " to " << getUpperBound() << " stages "
    << getNumStages();
  if (std::optional<ArrayRef<int64_t>> order = getOrder())
    printIntList(p, "order", *order);
  if (std::optional<ArrayRef<int64_t>> stage = getStage())
    printIntList(p, "stage", *stage);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getNumStagesAttrName(), getOrderAttrName(), getStageAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult PipelinedOp::verify() {
  if (failed(verifyLoopBody(*this, getBody())))
    return failure();
  std::optional<ArrayRef<int64_t>> order = getOrder();
  std::optional<ArrayRef<int64_t>> stage = getStage();
  if (order && stage && order->size() != stage->size())
    return emitOpError("'order' has ")
           << order->size() << " entries but 'stage' has " << stage->size();
  int64_t numStages = getNumStagesAttr().getInt();
  if (stage)
    for (int64_t s : *stage)
      if (s < -1 || s > numStages)
        return emitOpError("stage ")
               << s << " is outside [-1, num_stages = " << numStages << "]";
  // Nesting in tile.parallel is rejected by tile.parallel's verifier.
  if (!getEnclosingKernel(*this))
    return emitOpError("must be nested in a tile.kernel");
  return success();
}

void ForOp::build(OpBuilder &builder, OperationState &state, Value lowerBound,
                  Value upperBound, Value step, LoopKind kind) {
  build(builder, state, lowerBound, upperBound, step,
        LoopKindAttr::get(builder.getContext(), kind),
        /*unroll_factor=*/nullptr);
  addIndexBlock(builder, state.regions.front().get(), 1, state.location);
}

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand step;
  if (parseLoopHeader(parser, result, iv) || parser.parseKeyword("step") ||
      parser.parseOperand(step) ||
      parser.resolveOperand(step, parser.getBuilder().getIndexType(),
                            result.operands))
    return failure();
  StringRef kindText;
  if (succeeded(parser.parseOptionalKeyword(
          &kindText, {"serial", "unroll", "vectorized"})))
    result.addAttribute(
        getKindAttrName(result.name),
        LoopKindAttr::get(parser.getContext(),
                          *symbolizeLoopKind(kindText)));
  return parseLoopBody(parser, result, iv);
}

void ForOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getInductionVar());
  p << " = " << getLowerBound() << " to " << getUpperBound() << " step "
    << getStep();
  if (getKind() != LoopKind::Serial)
    p << ' ' << stringifyLoopKind(getKind());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getKindAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// IfOp, WhileOp
//===----------------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &state, Value condition,
                 bool withElse) {
  state.addOperands(condition);
  Region *thenRegion = state.addRegion();
  Region *elseRegion = state.addRegion();
  thenRegion->push_back(new Block());
  if (withElse)
    elseRegion->push_back(new Block());
}

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand condition;
  if (parser.parseOperand(condition) ||
      parser.resolveOperand(condition, parser.getBuilder().getI1Type(),
                            result.operands))
    return failure();
  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parseBody(parser, *thenRegion))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("else")) &&
      parseBody(parser, *elseRegion))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void IfOp::print(OpAsmPrinter &p) {
  p << ' ' << getCondition() << ' ';
  printBody(p, *this, getThenRegion());
  if (!getElseRegion().empty()) {
    p << " else ";
    printBody(p, *this, getElseRegion());
  }
  p.printOptionalAttrDict((*this)->getAttrs());
}

void WhileOp::build(OpBuilder &builder, OperationState &state) {
  state.addRegion()->push_back(new Block());
  state.addRegion()->push_back(new Block());
}

LogicalResult WhileOp::verify() {
  Block &cond = getCond().front();
  if (cond.empty() || !isa<ConditionOp>(cond.back()))
    return emitOpError("condition region must end with tile.condition");
  for (Operation &op : llvm::drop_end(cond))
    if (isa<ConditionOp>(op))
      return op.emitOpError("must be the last operation of the condition "
                            "region");
  WalkResult bad = getBody().walk([](ConditionOp) {
    return WalkResult::interrupt();
  });
  if (bad.wasInterrupted())
    return emitOpError("tile.condition may only end the condition region");
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
