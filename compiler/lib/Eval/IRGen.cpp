//===- IRGen.cpp - Building `tile` dialect IR -----------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// IRGen: the builder helpers every part of the evaluator uses to make Tile
// IR (locations, types, functions and parameters, constants, symbolic
// expressions, floor division and modulo, conversions). The Interpreter
// methods that lower IR-valued Python are in IRScalars.cpp, IRElements.cpp,
// IRControlFlow.cpp and IRRegions.cpp.
//
//===----------------------------------------------------------------------===//

#include "DeferredFloat.h"
#include "IRGen.h"
#include "Primitives.h"
#include "RuntimeExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace tlc;
using namespace tlc::eval;
using syntax::BinaryOp;
using syntax::CmpOp;
using syntax::UnaryOp;

//===----------------------------------------------------------------------===//
// IRGen
//===----------------------------------------------------------------------===//

IRGen::IRGen(Interpreter &interp)
    : ctx(&interp.mlirContext), b(ctx), interp(interp) {
  fileName = mlir::StringAttr::get(ctx, interp.tree.fileName());
  module = mlir::ModuleOp::create(mlir::FileLineColLoc::get(fileName, 1, 1));
  b.setInsertionPointToEnd(module.getBody());
}

IRGen::~IRGen() = default;

IRGen::InsertionGuard::InsertionGuard(IRGen &gen)
    : gen(gen), saved(gen.b.saveInsertionPoint()) {
  gen.b.setInsertionPointToEnd(gen.module.getBody());
}

IRGen::InsertionGuard::~InsertionGuard() { gen.b.restoreInsertionPoint(saved); }

mlir::Location IRGen::loc(TextRange r) {
  // Code of an imported file is located where the analysed file entered it.
  if (interp.foreignDepth > 0)
    r = interp.foreignAnchor;
  const LineIndex &lines = interp.tree.lines();
  LinePosition s = lines.toUtf8(r.begin), e = lines.toUtf8(r.end);
  return mlir::FileLineColRange::get(fileName, s.line + 1, s.column + 1,
                                     e.line + 1, e.column + 1);
}

mlir::Location IRGen::nameLoc(llvm::StringRef name, TextRange r) {
  return mlir::NameLoc::get(mlir::StringAttr::get(ctx, name), loc(r));
}

mlir::Type IRGen::elementType(lang::DType t) {
  std::string name = t.getName(); // getName() returns a temporary
  // `float8_e4m3` is TileLang's platform-neutral e4m3: the finite e4m3fn of
  // NVIDIA GPUs (and of the CPU reference), the unsigned-zero e4m3fnuz of
  // CDNA 2/3 (gfx90a, gfx942) — the type the instance's target stores.
  if (name == "float8_e4m3") {
    std::string target = interp.target().name;
    bool fnuz = llvm::StringRef(target).starts_with("hip:gfx90") ||
                llvm::StringRef(target).starts_with("hip:gfx94");
    name = fnuz ? "float8_e4m3fnuz" : "float8_e4m3fn";
  }
  // Unpacked 4/6-bit float codes are stored one per byte.
  if (t.isUnpackedFloat())
    return b.getIntegerType(8, /*isSigned=*/false);
  // A pointer (`T.ptr`, `T.handle`) is carried as its 64-bit address.
  if (t.getScalarType() == lang::ScalarType::Handle)
    return b.getI64Type();
  mlir::Type ty = tile::getElementTypeForDType(ctx, name);
  return ty ? ty : b.getF32Type();
}

mlir::Type IRGen::valueType(lang::DType t) {
  mlir::Type ty = elementType(t);
  mlir::Type v = tile::getElementValueType(ty);
  return v ? v : ty;
}

tile::BufferType IRGen::bufferType(llvm::ArrayRef<SymExpr> shape,
                                   lang::DType t, lang::MemoryScope scope) {
  llvm::SmallVector<tile::Dim, 4> dims;
  for (SymExpr d : shape) {
    if (!d)
      dims.push_back(tile::Dim::unknown());
    else if (d.isConstant())
      dims.push_back(tile::Dim(*d.getConstant()));
    else
      dims.push_back(tile::Dim::symbolic(ctx, interp.instanceNamed(d).str()));
  }
  return tile::BufferType::get(ctx, dims, elementType(t),
                               static_cast<tile::MemoryScope>(scope));
}

tile::FuncOp IRGen::beginFunc(llvm::StringRef name, mlir::Location l) {
  b.setInsertionPointToEnd(module.getBody());
  // Instance names must be unique symbols.
  std::string symName = name.str();
  for (unsigned i = 1; mlir::SymbolTable::lookupSymbolIn(module, symName); ++i)
    symName = (name + "_" + llvm::Twine(i)).str();
  auto func = tile::FuncOp::create(b, l, symName, b.getFunctionType({}, {}));
  func.addEntryBlock();
  b.setInsertionPointToEnd(&func.getBody().front());
  currentFunc = func;
  symbolCache.clear();
  symValues.clear();
  return func;
}

mlir::Value IRGen::addParam(mlir::Type t, mlir::Location l) {
  return currentFunc.getBody().front().addArgument(t, l);
}

void IRGen::setParamAttr(mlir::Value arg, llvm::StringRef name,
                         mlir::Attribute value) {
  auto blockArg = mlir::cast<mlir::BlockArgument>(arg);
  paramAttrs.push_back({blockArg.getArgNumber(),
                        mlir::StringAttr::get(ctx, name), value});
}

mlir::ArrayAttr IRGen::stridesAttr(llvm::ArrayRef<SymExpr> strides) {
  llvm::SmallVector<mlir::Attribute, 4> elems;
  for (SymExpr s : strides)
    elems.push_back(
        s.isConstant()
            ? mlir::Attribute(b.getI64IntegerAttr(*s.getConstant()))
            : mlir::Attribute(b.getStringAttr(interp.instanceNamed(s).str())));
  return b.getArrayAttr(elems);
}

void IRGen::finishFunc(tile::FuncOp func,
                       llvm::ArrayRef<std::pair<std::string, int>> symbols) {
  mlir::Block &entry = func.getBody().front();
  llvm::SmallVector<mlir::Type, 8> types(entry.getArgumentTypes());
  func.setFunctionTypeAttr(mlir::TypeAttr::get(b.getFunctionType(types, {})));
  for (auto &[index, name, value] : paramAttrs)
    func.setArgAttr(index, name, value);
  paramAttrs.clear();
  if (!symbols.empty()) {
    llvm::SmallVector<mlir::Attribute, 4> decls;
    for (auto &[name, kind] : symbols)
      decls.push_back(tile::SymbolDeclAttr::get(
          ctx, mlir::StringAttr::get(ctx, name),
          static_cast<tile::SymbolKind>(kind)));
    func->setAttr("symbols", b.getArrayAttr(decls));
  }
  currentFunc = nullptr;
  b.setInsertionPointToEnd(module.getBody());
}

mlir::Value IRGen::constIndex(int64_t v, mlir::Location l) {
  return mlir::arith::ConstantIndexOp::create(b, l, v);
}

mlir::Value IRGen::constInt(int64_t v, mlir::Type t, mlir::Location l) {
  if (t.isIndex())
    return constIndex(v, l);
  // A vector (float16x2 arithmetic): the value in every lane.
  if (auto vt = mlir::dyn_cast<mlir::VectorType>(t))
    return mlir::arith::ConstantOp::create(
        b, l, vt,
        mlir::DenseElementsAttr::get(
            vt, mlir::Attribute(b.getIntegerAttr(vt.getElementType(), v))));
  return mlir::arith::ConstantOp::create(b, l, t, b.getIntegerAttr(t, v));
}

mlir::Value IRGen::constFloat(double v, mlir::Type t, mlir::Location l) {
  if (auto vt = mlir::dyn_cast<mlir::VectorType>(t))
    if (auto ft = mlir::dyn_cast<mlir::FloatType>(vt.getElementType()))
      return mlir::arith::ConstantOp::create(
          b, l, vt,
          mlir::DenseElementsAttr::get(vt,
                                       mlir::Attribute(b.getFloatAttr(ft, v))));
  auto ft = mlir::dyn_cast<mlir::FloatType>(t);
  if (!ft)
    ft = b.getF32Type();
  return mlir::arith::ConstantOp::create(b, l, ft, b.getFloatAttr(ft, v));
}

mlir::Value IRGen::symbolValue(llvm::StringRef name, mlir::Location l) {
  auto it = symbolCache.find(name);
  if (it != symbolCache.end())
    return it->second;
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&currentFunc.getBody().front());
  mlir::Value v =
      tile::SymbolOp::create(b, l, b.getIndexType(), b.getStringAttr(name));
  symbolCache[name] = v;
  return v;
}

mlir::OpFoldResult IRGen::foldResult(SymExpr e, mlir::Location l) {
  if (std::optional<int64_t> c = e.getConstant())
    return b.getIndexAttr(*c);
  return materialize(e, l);
}

mlir::Value IRGen::materialize(SymExpr e, mlir::Location l) {
  const SymNode *n = e.getNode();
  if (!n)
    return constIndex(0, l);
  auto found = symValues.find(n);
  if (found != symValues.end())
    return found->second;
  switch (n->kind) {
  case SymKind::Constant:
    return constIndex(n->value, l);
  case SymKind::Symbol: {
    llvm::StringRef name = interp.symbolName(n);
    interp.noteSymbolUse(name);
    return symbolValue(name, l);
  }
  case SymKind::Sum: {
    mlir::Value acc = n->value ? constIndex(n->value, l) : mlir::Value();
    for (const SymTerm &t : n->terms) {
      mlir::Value term = materialize(SymExpr(t.term), l);
      if (t.coef != 1)
        term = mlir::arith::MulIOp::create(b, l, term, constIndex(t.coef, l));
      acc = acc ? mlir::arith::AddIOp::create(b, l, acc, term).getResult()
                : term;
    }
    return acc;
  }
  case SymKind::Product: {
    mlir::Value acc;
    for (const SymNode *f : n->factors) {
      mlir::Value v = materialize(SymExpr(f), l);
      acc = acc ? mlir::arith::MulIOp::create(b, l, acc, v).getResult() : v;
    }
    return acc;
  }
  default: {
    mlir::Value lhs = materialize(SymExpr(n->lhs), l);
    mlir::Value rhs = materialize(SymExpr(n->rhs), l);
    switch (n->kind) {
    case SymKind::FloorDiv:
      return mlir::arith::FloorDivSIOp::create(b, l, lhs, rhs);
    case SymKind::Mod:
      return floorMod(lhs, rhs, /*isUnsigned=*/false, l);
    case SymKind::CeilDiv:
      return mlir::arith::CeilDivSIOp::create(b, l, lhs, rhs);
    case SymKind::Min:
      return mlir::arith::MinSIOp::create(b, l, lhs, rhs);
    default:
      return mlir::arith::MaxSIOp::create(b, l, lhs, rhs);
    }
  }
  }
}

/// The constant integer \p v is, if it is one.
static std::optional<int64_t> constantInt(mlir::Value v) {
  llvm::APInt c;
  if (mlir::matchPattern(v, mlir::m_ConstantInt(&c)))
    return c.getSExtValue();
  return std::nullopt;
}

/// Whether the IR shows the signed integer \p v to be >= 0: constants,
/// thread indices, kernel and parallel indices, the coordinates of a traced
/// index function, loop variables counting up from a non-negative start,
/// and sums, products, quotients and remainders of such values. \p depth
/// bounds the walk.
static bool isKnownNonNegative(mlir::Value v, unsigned depth = 8) {
  if (std::optional<int64_t> c = constantInt(v))
    return *c >= 0;
  if (depth == 0)
    return false;
  if (auto arg = mlir::dyn_cast<mlir::BlockArgument>(v)) {
    mlir::Operation *owner = arg.getOwner()->getParentOp();
    // A detached block holds the coordinates a layout's index function is
    // traced over (MetaObjects.cpp).
    if (!owner || mlir::isa<tile::KernelOp, tile::ParallelOp>(owner))
      return true;
    if (auto loop = mlir::dyn_cast_or_null<tile::ForOp>(owner)) {
      std::optional<int64_t> step = constantInt(loop.getStep());
      return step && *step > 0 &&
             isKnownNonNegative(loop.getLowerBound(), depth - 1);
    }
    if (auto loop = mlir::dyn_cast_or_null<tile::PipelinedOp>(owner))
      return isKnownNonNegative(loop.getLowerBound(), depth - 1);
    return false;
  }
  mlir::Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (mlir::isa<tile::ThreadBindingOp>(def))
    return true;
  auto operandsNonNegative = [&] {
    return llvm::all_of(def->getOperands(), [&](mlir::Value o) {
      return isKnownNonNegative(o, depth - 1);
    });
  };
  if (mlir::isa<mlir::arith::AddIOp, mlir::arith::MulIOp, mlir::arith::DivSIOp,
                mlir::arith::FloorDivSIOp, mlir::arith::CeilDivSIOp,
                mlir::arith::RemSIOp, mlir::arith::MinSIOp,
                mlir::arith::IndexCastOp, mlir::arith::ExtSIOp>(def))
    return operandsNonNegative();
  if (mlir::isa<mlir::arith::ExtUIOp>(def))
    return true;
  if (mlir::isa<mlir::arith::MaxSIOp, mlir::arith::AndIOp>(def))
    return llvm::any_of(def->getOperands(), [&](mlir::Value o) {
      return isKnownNonNegative(o, depth - 1);
    });
  return false;
}

mlir::Value IRGen::floorMod(mlir::Value lhs, mlir::Value rhs, bool isUnsigned,
                            mlir::Location l) {
  mlir::Type t = lhs.getType();
  if (mlir::isa<mlir::FloatType>(mlir::getElementTypeOrSelf(t))) {
    mlir::Value q = mlir::arith::DivFOp::create(b, l, lhs, rhs);
    mlir::Value f = mlir::math::FloorOp::create(b, l, q);
    mlir::Value m = mlir::arith::MulFOp::create(b, l, f, rhs);
    return mlir::arith::SubFOp::create(b, l, lhs, m);
  }
  if (isUnsigned)
    return mlir::arith::RemUIOp::create(b, l, lhs, rhs);
  mlir::Value r = mlir::arith::RemSIOp::create(b, l, lhs, rhs);
  std::optional<int64_t> d = constantInt(rhs);
  bool positiveDivisor = d ? *d > 0 : isKnownNonNegative(rhs);
  if (positiveDivisor && isKnownNonNegative(lhs))
    return r;
  // A non-zero remainder whose sign differs from the divisor's moves by
  // one divisor: (r != 0) && ((r < 0) != (rhs < 0)).
  using mlir::arith::CmpIPredicate;
  mlir::Value zero = constInt(0, t, l);
  mlir::Value fix;
  if (positiveDivisor) {
    fix = mlir::arith::CmpIOp::create(b, l, CmpIPredicate::slt, r, zero);
  } else if (d && *d < 0) {
    fix = mlir::arith::CmpIOp::create(b, l, CmpIPredicate::sgt, r, zero);
  } else {
    mlir::Value rNeg =
        mlir::arith::CmpIOp::create(b, l, CmpIPredicate::slt, r, zero);
    mlir::Value rNonZero =
        mlir::arith::CmpIOp::create(b, l, CmpIPredicate::ne, r, zero);
    mlir::Value dNeg =
        mlir::arith::CmpIOp::create(b, l, CmpIPredicate::slt, rhs, zero);
    mlir::Value signsDiffer = mlir::arith::XOrIOp::create(b, l, rNeg, dNeg);
    fix = mlir::arith::AndIOp::create(b, l, rNonZero, signsDiffer);
  }
  mlir::Value moved = mlir::arith::AddIOp::create(b, l, r, rhs);
  return mlir::arith::SelectOp::create(b, l, fix, moved, r);
}

mlir::Value IRGen::convert(mlir::Value v, mlir::Type to, mlir::Location l,
                           bool isUnsigned) {
  mlir::Type from = v.getType();
  if (from == to)
    return v;
  // Vectors convert lane by lane (the same ops on vector types); a
  // different lane count is the caller's error.
  auto fromVec = mlir::dyn_cast<mlir::VectorType>(from);
  auto toVec = mlir::dyn_cast<mlir::VectorType>(to);
  if (fromVec || toVec) {
    if (!fromVec || !toVec ||
        fromVec.getNumElements() != toVec.getNumElements() ||
        fromVec.getElementType().isIndex() || toVec.getElementType().isIndex())
      return v;
  }
  auto fromInt =
      mlir::dyn_cast<mlir::IntegerType>(mlir::getElementTypeOrSelf(from));
  auto toInt = mlir::dyn_cast<mlir::IntegerType>(mlir::getElementTypeOrSelf(to));
  auto fromFloat =
      mlir::dyn_cast<mlir::FloatType>(mlir::getElementTypeOrSelf(from));
  auto toFloat = mlir::dyn_cast<mlir::FloatType>(mlir::getElementTypeOrSelf(to));
  if (from.isIndex()) {
    if (toInt && toInt.getWidth() == 1)
      return mlir::arith::CmpIOp::create(b, l, mlir::arith::CmpIPredicate::ne,
                                         v, constIndex(0, l));
    if (toInt)
      return mlir::arith::IndexCastOp::create(b, l, to, v);
    if (toFloat) {
      mlir::Value i = mlir::arith::IndexCastOp::create(b, l, b.getI64Type(), v);
      return mlir::arith::SIToFPOp::create(b, l, to, i);
    }
  }
  if (fromInt) {
    if (to.isIndex())
      return mlir::arith::IndexCastOp::create(b, l, to, v);
    if (toInt) {
      if (toInt.getWidth() == 1)
        return mlir::arith::CmpIOp::create(b, 
            l, mlir::arith::CmpIPredicate::ne, v, constInt(0, from, l));
      if (toInt.getWidth() > fromInt.getWidth()) {
        if (isUnsigned || fromInt.getWidth() == 1)
          return mlir::arith::ExtUIOp::create(b, l, to, v);
        return mlir::arith::ExtSIOp::create(b, l, to, v);
      }
      return mlir::arith::TruncIOp::create(b, l, to, v);
    }
    if (toFloat) {
      if (isUnsigned || fromInt.getWidth() == 1)
        return mlir::arith::UIToFPOp::create(b, l, to, v);
      return mlir::arith::SIToFPOp::create(b, l, to, v);
    }
  }
  if (fromFloat) {
    if (toFloat) {
      if (toFloat.getWidth() > fromFloat.getWidth())
        return mlir::arith::ExtFOp::create(b, l, to, v);
      return mlir::arith::TruncFOp::create(b, l, to, v);
    }
    if (toInt) {
      if (toInt.getWidth() == 1)
        return mlir::arith::CmpFOp::create(b, 
            l, mlir::arith::CmpFPredicate::UNE, v, constFloat(0, from, l));
      return mlir::arith::FPToSIOp::create(b, l, to, v);
    }
    if (to.isIndex()) {
      mlir::Value i = mlir::arith::FPToSIOp::create(b, l, b.getI64Type(), v);
      return mlir::arith::IndexCastOp::create(b, l, to, i);
    }
  }
  return v;
}
