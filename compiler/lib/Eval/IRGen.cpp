//===- IRGen.cpp - Building `tile` dialect IR -----------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// IRGen helpers, plus the Interpreter methods that turn IR-valued Python
// (element reads and writes, arithmetic, comparisons, `if`/`while` on IR
// conditions, regions) into operations.
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
      dims.push_back(tile::Dim::symbolic(ctx, d.str()));
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
    elems.push_back(s.isConstant()
                        ? mlir::Attribute(b.getI64IntegerAttr(*s.getConstant()))
                        : mlir::Attribute(b.getStringAttr(s.str())));
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
  case SymKind::Symbol:
    interp.noteSymbolUse(n->name);
    return symbolValue(n->name, l);
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

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

static bool isFloatType(mlir::Type t) { return mlir::isa<mlir::FloatType>(t); }

Value Interpreter::wrapScalar(const Scalar &s) {
  if (!s.value)
    return Value::poison();
  auto *e = heap.make<ExprObj>();
  e->value = s.value;
  e->dtype = s.dtype;
  e->sym = s.sym;
  return Value::object(ValueKind::Expr, e);
}

static mlir::Value rampLoad(Interpreter &in, RegionObj *r, Node at);

Scalar Interpreter::toScalar(Value v, Node at, mlir::Type hint) {
  mlir::Location l = ir->loc(at);
  switch (v.getKind()) {
  case ValueKind::Expr: {
    ExprObj *e = v.as<ExprObj>();
    return {e->value, e->dtype, e->sym};
  }
  case ValueKind::Region: {
    RegionObj *r = v.as<RegionObj>();
    if (!r->isElement) {
      error(at, "a buffer region is not a scalar value");
      return {};
    }
    if (!usable(r->buffer) || !checkVarInScope(r->buffer, at))
      return {};
    if (mlir::Value vec = rampLoad(*this, r, at))
      return {vec,
              r->buffer->dtype.withLanes(
                  unsigned(mlir::cast<mlir::VectorType>(vec.getType())
                               .getNumElements())),
              SymExpr()};
    llvm::SmallVector<mlir::Value, 4> idx;
    for (unsigned i = 0; i < r->starts.size(); ++i) {
      mlir::Value iv = toIndex(r->starts[i], at);
      if (!iv)
        return {};
      idx.push_back(iv);
    }
    // An element of a tensor placed by make_cutlass_metadata_layout.
    if (std::optional<layout::Layout> gl = globalLayoutOf(*this, r->buffer))
      if (!physicalIndices(*this, r->buffer, *gl, l, idx)) {
        error(at, "the layout annotated for '" + r->buffer->name +
                      "' cannot address it");
        return {};
      }
    mlir::Value load = tile::LoadOp::create(ir->b, 
        l, ir->valueType(r->buffer->dtype), r->buffer->value, idx);
    return {load, r->buffer->dtype, SymExpr()};
  }
  case ValueKind::Buffer: {
    BufferObj *buf = v.as<BufferObj>();
    if (buf->scope != lang::MemoryScope::LocalVar) {
      error(at, "buffer '" + buf->name +
                    "' is used as a scalar; index it to read an element");
      return {};
    }
    checkBufferUse(buf, at);
    if (!usable(buf) || !checkVarInScope(buf, at))
      return {};
    mlir::Value load = tile::LoadOp::create(ir->b, 
        l, ir->valueType(buf->dtype), buf->value, mlir::ValueRange());
    return {load, buf->dtype, SymExpr()};
  }
  case ValueKind::Bool:
  case ValueKind::Int: {
    if (hint && isFloatType(hint))
      return {ir->constFloat(double(v.getInt()), hint, l),
              lang::DType(lang::ScalarType::Float32), SymExpr()};
    if (hint && (hint.isIndex() || mlir::isa<mlir::IntegerType>(hint)))
      return {ir->constInt(v.getInt(), hint, l),
              lang::DType(lang::ScalarType::Int32), syms.constant(v.getInt())};
    if (v.isBool())
      return {ir->constInt(v.getInt(), ir->b.getI1Type(), l),
              lang::DType(lang::ScalarType::Bool), SymExpr()};
    return {ir->constInt(v.getInt(), ir->b.getI32Type(), l),
            lang::DType(lang::ScalarType::Int32), syms.constant(v.getInt())};
  }
  case ValueKind::BigInt:
    return bigScalar(v, at, hint);
  case ValueKind::Float: {
    mlir::Type t = hint && isFloatType(hint) ? hint : ir->b.getF32Type();
    lang::DType dt = lang::DType(lang::ScalarType::Float32);
    if (t.isF16())
      dt = lang::DType(lang::ScalarType::Float16);
    else if (t.isBF16())
      dt = lang::DType(lang::ScalarType::BFloat16);
    else if (t.isF64())
      dt = lang::DType(lang::ScalarType::Float64);
    return {ir->constFloat(v.getFloat(), t, l), dt, SymExpr()};
  }
  case ValueKind::Sym:
    return {ir->materialize(v.getSym(), l),
            lang::DType(lang::ScalarType::Int32), v.getSym()};
  case ValueKind::Poison:
  case ValueKind::Exception:
    return {};
  case ValueKind::Opaque: {
    // Float arithmetic on a symbolic integer: evaluated here, in IR, from
    // the symbol's run-time value (an int converts to float exactly as
    // Python's true division and float operations would).
    if (std::optional<DeferredFloat> op = getDeferredFloat(v)) {
      auto operand = [&](Value x) -> Value {
        if (x.isNumber())
          return x;
        Scalar s = toScalar(x, at);
        if (!s)
          return Value::poison();
        if (!isFloatType(mlir::getElementTypeOrSelf(s.value.getType())))
          s = {ir->convert(s.value, ir->b.getF32Type(), l),
               lang::DType(lang::ScalarType::Float32), SymExpr()};
        return wrapScalar(s);
      };
      Value a = operand(op->lhs), b = operand(op->rhs);
      if (a.isPoison() || b.isPoison())
        return {};
      Scalar s = toScalar(irBinary(op->op, a, b, at), at);
      if (s && hint && isFloatType(hint) && s.value.getType() != hint) {
        lang::DType dt(lang::ScalarType::Float32);
        if (hint.isF16())
          dt = lang::DType(lang::ScalarType::Float16);
        else if (hint.isBF16())
          dt = lang::DType(lang::ScalarType::BFloat16);
        else if (hint.isF64())
          dt = lang::DType(lang::ScalarType::Float64);
        s = {ir->convert(s.value, hint, l), dt, SymExpr()};
      }
      return s;
    }
    // A value from outside TileLang (torch, a C extension, a symbol's
    // float arithmetic): analysis goes on with an unknown value of the
    // wanted type; no back end can generate it.
    mlir::Type t = !hint                ? ir->b.getF32Type()
                   : hint.isIndex()     ? ir->b.getI32Type()
                                        : hint;
    // The value prints as `<object>`: the source where it is used (its
    // first line, cut short) says which one.
    std::string what = "'" + toString(v) + "'";
    if (llvm::StringRef text = at ? at.text() : llvm::StringRef();
        !text.empty()) {
      llvm::StringRef first = text.split('\n').first.rtrim();
      what = "a value used at '" +
             (first.size() > 72 ? first.take_front(72).str() + "..."
                                : first.str() + (first == text ? "" : " ...")) +
             "'";
    }
    warning(at, "tlc cannot evaluate " + what +
                    " (a value from outside TileLang); it is analysed as "
                    "an unknown " +
                    (isFloatType(t) ? "floating-point" : "integer") + " value");
    auto op = tile::IntrinsicOp::create(
        ir->b, l, mlir::TypeRange{t}, ir->b.getStringAttr("tlc.unknown_value"),
        mlir::ValueRange(), ir->b.getStrArrayAttr({}),
        ir->b.getDictionaryAttr(ir->b.getNamedAttr(
            "what", ir->b.getStringAttr(v.as<OpaqueObj>()->description))));
    lang::DType dt = isFloatType(t) ? lang::DType(lang::ScalarType::Float32)
                                    : lang::DType(lang::ScalarType::Int32);
    return {op->getResult(0), dt, SymExpr()};
  }
  default:
    error(at, "expected a scalar value, got '" + v.getTypeName() + "'");
    return {};
  }
}

mlir::Value Interpreter::toIndex(Value v, Node at) {
  mlir::Location l = ir->loc(at);
  if (v.isIntLike())
    return ir->constIndex(v.getInt(), l);
  Scalar s = toScalar(v, at, ir->b.getIndexType());
  if (!s)
    return {};
  if (isFloatType(s.value.getType())) {
    error(at, "index must be an integer, not a floating-point value");
    return {};
  }
  return ir->convert(s.value, ir->b.getIndexType(), l);
}

mlir::OpFoldResult Interpreter::toFold(Value v, Node at) {
  if (v.isIntLike())
    return ir->b.getIndexAttr(v.getInt());
  if (v.is(ValueKind::Sym) && v.getSym().isConstant())
    return ir->b.getIndexAttr(*v.getSym().getConstant());
  mlir::Value iv = toIndex(v, at);
  if (!iv)
    return ir->b.getIndexAttr(0);
  return iv;
}

/// Brings two scalars to a common type (TileLang's binary promotion).
/// Gives \p a and \p b one type (by their lane types when both are
/// vectors of one lane count).
static void unify(IRGen &ir, Scalar &a, Scalar &b, mlir::Location l) {
  mlir::Type va = a.value.getType(), vb = b.value.getType();
  if (va == vb)
    return;
  mlir::Type ta = mlir::getElementTypeOrSelf(va);
  mlir::Type tb = mlir::getElementTypeOrSelf(vb);
  bool fa = isFloatType(ta), fb = isFloatType(tb);
  auto toB = [&] {
    a.value = ir.convert(a.value, vb, l, a.dtype.isUnsignedInteger());
    a.dtype = b.dtype;
  };
  auto toA = [&] {
    b.value = ir.convert(b.value, va, l, b.dtype.isUnsignedInteger());
    b.dtype = a.dtype;
  };
  if (fa != fb)
    return fa ? toA() : toB();
  if (fa)
    return mlir::cast<mlir::FloatType>(ta).getWidth() >=
                   mlir::cast<mlir::FloatType>(tb).getWidth()
               ? toA()
               : toB();
  if (ta.isIndex())
    return toA();
  if (tb.isIndex())
    return toB();
  unsigned wa = ta.getIntOrFloatBitWidth(), wb = tb.getIntOrFloatBitWidth();
  return wa >= wb ? toA() : toB();
}

/// i1, or a vector of i1 with the lanes of \p t.
static mlir::Type boolTypeLike(mlir::OpBuilder &b, mlir::Type t) {
  if (auto vt = mlir::dyn_cast<mlir::VectorType>(t))
    return mlir::VectorType::get(vt.getShape(), b.getI1Type());
  return b.getI1Type();
}

/// The lanes of \p v (1 for a scalar).
static int64_t lanesOf(mlir::Value v) {
  auto vt = mlir::dyn_cast<mlir::VectorType>(v.getType());
  return vt ? vt.getNumElements() : 1;
}

bool tlc::eval::matchLanes(IRGen &ir, Scalar &a, Scalar &b,
                           mlir::Location l) {
  int64_t na = lanesOf(a.value), nb = lanesOf(b.value);
  if (na == nb)
    return true;
  if (na != 1 && nb != 1)
    return false;
  Scalar &s = na == 1 ? a : b;
  int64_t n = std::max(na, nb);
  mlir::Type elem = s.value.getType();
  if (elem.isIndex()) {
    elem = ir.b.getI32Type();
    s.value = ir.convert(s.value, elem, l);
  }
  auto op = tile::IntrinsicOp::create(
      ir.b, l, mlir::TypeRange{mlir::VectorType::get({n}, elem)},
      ir.b.getStringAttr("T.Broadcast"), mlir::ValueRange{s.value},
      ir.b.getStrArrayAttr({"value"}), mlir::DictionaryAttr());
  s.value = op->getResult(0);
  s.dtype = s.dtype.withLanes(unsigned(n));
  s.sym = SymExpr();
  return true;
}

/// The error for arithmetic on an unpacked 4/6-bit float value (TileLang's
/// storage tags have no arithmetic): true when \p a or \p b is one.
static bool refuseUnpacked(Interpreter &in, const Scalar &a, const Scalar &b,
                           Node at, llvm::StringRef what) {
  for (const Scalar *s : {&a, &b})
    if (*s && s->dtype.isUnpackedFloat()) {
      in.fail(at, what + " of a " + s->dtype.getName() +
                      " value: unpacked float codes are storage only; "
                      "T.Cast them to float32 first");
      return true;
    }
  return false;
}

Value Interpreter::irBinary(BinaryOp op, Value lv, Value rv, Node at) {
  if (lv.isAbrupt())
    return lv;
  if (rv.isAbrupt())
    return rv;
  if (!tracing())
    return fail(at, "IR values can only be used while a kernel is traced");
  mlir::Location l = ir->loc(at);
  bool lIR =
      !lv.isNumber() && !lv.is(ValueKind::Sym) && !lv.is(ValueKind::BigInt);
  Scalar a, b;
  if (lIR) {
    a = toScalar(lv, at);
    if (!a)
      return Value::poison();
    if (rv.is(ValueKind::BigInt) && !checkIntFits(rv, a.dtype, at))
      return Value::poison();
    b = toScalar(rv, at, mlir::getElementTypeOrSelf(a.value.getType()));
  } else {
    b = toScalar(rv, at);
    if (!b)
      return Value::poison();
    if (lv.is(ValueKind::BigInt) && !checkIntFits(lv, b.dtype, at))
      return Value::poison();
    a = toScalar(lv, at, mlir::getElementTypeOrSelf(b.value.getType()));
  }
  if (!a || !b || refuseUnpacked(*this, a, b, at, "arithmetic"))
    return Value::poison();
  // Vector values (float16x2 elements, T.Broadcast, T.ldg64 ...) work lane
  // by lane, a scalar operand in every lane.
  if (!matchLanes(*ir, a, b, l))
    return fail(at, "arithmetic between " + a.dtype.getName() + " and " +
                        b.dtype.getName() +
                        " values (vectors of different lane counts)");
  SymExpr sa = a.sym, sb = b.sym;
  unify(*ir, a, b, l);
  mlir::Type t = a.value.getType();
  // Vectors of floats (float16x2) take the float ops too.
  bool isF = isFloatType(mlir::getElementTypeOrSelf(t));
  auto &B = ir->b;
  mlir::Value r;
  SymExpr sym;
  switch (op) {
  case BinaryOp::Add:
    r = isF ? mlir::arith::AddFOp::create(B, l, a.value, b.value).getResult()
            : mlir::arith::AddIOp::create(B, l, a.value, b.value).getResult();
    if (sa && sb)
      sym = syms.add(sa, sb);
    break;
  case BinaryOp::Sub:
    r = isF ? mlir::arith::SubFOp::create(B, l, a.value, b.value).getResult()
            : mlir::arith::SubIOp::create(B, l, a.value, b.value).getResult();
    if (sa && sb)
      sym = syms.sub(sa, sb);
    break;
  case BinaryOp::Mult:
    r = isF ? mlir::arith::MulFOp::create(B, l, a.value, b.value).getResult()
            : mlir::arith::MulIOp::create(B, l, a.value, b.value).getResult();
    if (sa && sb)
      sym = syms.mul(sa, sb);
    break;
  case BinaryOp::Div:
    r = isF ? mlir::arith::DivFOp::create(B, l, a.value, b.value).getResult()
            : mlir::arith::DivSIOp::create(B, l, a.value, b.value).getResult();
    break;
  case BinaryOp::FloorDiv:
    if (isF) {
      mlir::Value q = mlir::arith::DivFOp::create(B, l, a.value, b.value);
      r = mlir::math::FloorOp::create(B, l, q);
    } else {
      r = mlir::arith::FloorDivSIOp::create(B, l, a.value, b.value);
      if (sa && sb)
        sym = syms.floorDiv(sa, sb);
    }
    break;
  case BinaryOp::Mod:
    r = ir->floorMod(a.value, b.value, a.dtype.isUnsignedInteger(), l);
    if (!isF && sa && sb)
      sym = syms.mod(sa, sb);
    break;
  case BinaryOp::Pow:
    if (!isF) {
      mlir::Type f = B.getF32Type();
      a.value = ir->convert(a.value, f, l);
      b.value = ir->convert(b.value, f, l);
      a.dtype = lang::DType(lang::ScalarType::Float32);
    }
    r = mlir::math::PowFOp::create(B, l, a.value, b.value);
    break;
  case BinaryOp::LShift:
  case BinaryOp::RShift:
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    if (isF)
      return dtypeCheckFailed(at, "bitwise operator on a floating-point value");
    if (op == BinaryOp::LShift)
      r = mlir::arith::ShLIOp::create(B, l, a.value, b.value);
    else if (op == BinaryOp::RShift)
      r = a.dtype.isUnsignedInteger()
              ? mlir::arith::ShRUIOp::create(B, l, a.value, b.value).getResult()
              : mlir::arith::ShRSIOp::create(B, l, a.value, b.value)
                    .getResult();
    else if (op == BinaryOp::BitAnd)
      r = mlir::arith::AndIOp::create(B, l, a.value, b.value);
    else if (op == BinaryOp::BitOr)
      r = mlir::arith::OrIOp::create(B, l, a.value, b.value);
    else
      r = mlir::arith::XOrIOp::create(B, l, a.value, b.value);
    break;
  case BinaryOp::MatMult:
    return fail(at, "operator @ is not supported on IR values");
  }
  return wrapScalar({r, a.dtype, sym});
}

Value Interpreter::irUnary(UnaryOp op, Value v, Node at) {
  if (!tracing())
    return fail(at, "IR values can only be used while a kernel is traced");
  Scalar s = toScalar(v, at);
  if (!s || refuseUnpacked(*this, s, Scalar(), at, "arithmetic"))
    return Value::poison();
  mlir::Location l = ir->loc(at);
  mlir::Type t = s.value.getType();
  // Vectors: lane by lane (the same ops on vector types).
  mlir::Type elem = mlir::getElementTypeOrSelf(t);
  mlir::Type boolType = boolTypeLike(ir->b, t);
  auto &B = ir->b;
  switch (op) {
  case UnaryOp::UAdd:
    return wrapScalar(s);
  case UnaryOp::USub:
    if (isFloatType(elem))
      return wrapScalar(
          {mlir::arith::NegFOp::create(B, l, s.value), s.dtype, SymExpr()});
    return wrapScalar({mlir::arith::SubIOp::create(B, l, ir->constInt(0, t, l),
                                                     s.value),
                       s.dtype, s.sym ? syms.neg(s.sym) : SymExpr()});
  case UnaryOp::Not: {
    mlir::Value c = ir->convert(s.value, boolType, l);
    mlir::Value r = mlir::arith::XOrIOp::create(B, 
        l, c, ir->constInt(1, boolType, l));
    return wrapScalar({r, s.dtype.isVector()
                              ? lang::DType(lang::ScalarType::Bool,
                                            s.dtype.getLanes())
                              : lang::DType(lang::ScalarType::Bool),
                       SymExpr()});
  }
  case UnaryOp::Invert:
    if (isFloatType(elem))
      return dtypeCheckFailed(at, "operator ~ on a floating-point value");
    return wrapScalar({mlir::arith::XOrIOp::create(B, 
                           l, s.value, ir->constInt(-1, t, l)),
                       s.dtype, SymExpr()});
  }
  return Value::poison();
}

Value Interpreter::irCompare(CmpOp op, Value lv, Value rv, Node at) {
  if (!tracing())
    return fail(at, "IR values can only be used while a kernel is traced");
  if (op == CmpOp::In || op == CmpOp::NotIn || op == CmpOp::Is ||
      op == CmpOp::IsNot)
    return fail(at, "this comparison is not supported on IR values");
  mlir::Location l = ir->loc(at);
  bool lIR =
      !lv.isNumber() && !lv.is(ValueKind::Sym) && !lv.is(ValueKind::BigInt);
  Scalar a, b;
  if (lIR) {
    a = toScalar(lv, at);
    if (!a)
      return Value::poison();
    if (rv.is(ValueKind::BigInt) && !checkIntFits(rv, a.dtype, at))
      return Value::poison();
    b = toScalar(rv, at, mlir::getElementTypeOrSelf(a.value.getType()));
  } else {
    b = toScalar(rv, at);
    if (!b)
      return Value::poison();
    if (lv.is(ValueKind::BigInt) && !checkIntFits(lv, b.dtype, at))
      return Value::poison();
    a = toScalar(lv, at, mlir::getElementTypeOrSelf(b.value.getType()));
  }
  if (!a || !b || refuseUnpacked(*this, a, b, at, "comparison"))
    return Value::poison();
  // Vectors compare lane by lane into a vector of bools (boolx2).
  if (!matchLanes(*ir, a, b, l))
    return fail(at, "comparison of " + a.dtype.getName() + " and " +
                        b.dtype.getName() +
                        " values (vectors of different lane counts)");
  unify(*ir, a, b, l);
  mlir::Value r;
  if (isFloatType(mlir::getElementTypeOrSelf(a.value.getType()))) {
    using P = mlir::arith::CmpFPredicate;
    P p = op == CmpOp::Eq      ? P::OEQ
          : op == CmpOp::NotEq ? P::UNE
          : op == CmpOp::Lt    ? P::OLT
          : op == CmpOp::LtE   ? P::OLE
          : op == CmpOp::Gt    ? P::OGT
                               : P::OGE;
    r = mlir::arith::CmpFOp::create(ir->b, l, p, a.value, b.value);
  } else {
    using P = mlir::arith::CmpIPredicate;
    bool u = a.dtype.isUnsignedInteger();
    P p = op == CmpOp::Eq      ? P::eq
          : op == CmpOp::NotEq ? P::ne
          : op == CmpOp::Lt    ? (u ? P::ult : P::slt)
          : op == CmpOp::LtE   ? (u ? P::ule : P::sle)
          : op == CmpOp::Gt    ? (u ? P::ugt : P::sgt)
                               : (u ? P::uge : P::sge);
    r = mlir::arith::CmpIOp::create(ir->b, l, p, a.value, b.value);
  }
  return wrapScalar({r,
                     lang::DType(lang::ScalarType::Bool,
                                 unsigned(lanesOf(a.value))),
                     SymExpr()});
}

bool Interpreter::regionElements(
    RegionObj *r, Node at,
    llvm::SmallVectorImpl<llvm::SmallVector<mlir::Value, 4>> &elements) {
  mlir::Location l = ir->loc(at);
  llvm::SmallVector<mlir::Value, 4> starts;
  llvm::SmallVector<int64_t, 4> extents;
  for (unsigned d = 0; d < r->starts.size(); ++d) {
    SymExpr e = r->extents[d];
    if (!e || !e.isConstant()) {
      error(at, "the region's extents must be constants here");
      return false;
    }
    mlir::Value iv = toIndex(r->starts[d], at);
    if (!iv)
      return false;
    starts.push_back(iv);
    extents.push_back(*e.getConstant());
  }
  int64_t count = 1;
  for (int64_t e : extents)
    count *= e;
  for (int64_t n = 0; n < count; ++n) {
    llvm::SmallVector<mlir::Value, 4> idx(starts.size());
    int64_t rest = n;
    for (int d = int(starts.size()) - 1; d >= 0; --d) {
      int64_t off = rest % extents[d];
      rest /= extents[d];
      off *= r->getStep(d);
      idx[d] = off == 0 ? starts[d]
                        : mlir::arith::AddIOp::create(ir->b, l, starts[d],
                                                      ir->constIndex(off, l))
                              .getResult();
    }
    elements.push_back(std::move(idx));
  }
  return true;
}

Value Interpreter::vectorLet(RegionObj *r, lang::DType type, Node at) {
  BufferObj *src = r->buffer;
  if (!usable(src))
    return Value::poison();
  if (src->dtype != type.getElementType())
    return fail(at, "a " + type.getName() + " value cannot hold elements of " +
                        src->dtype.getName());
  llvm::SmallVector<llvm::SmallVector<mlir::Value, 4>, 8> elements;
  if (!regionElements(r, at, elements))
    return Value::poison();
  if (int64_t(elements.size()) != int64_t(type.getLanes()))
    return fail(at, "a " + type.getName() + " value holds " +
                        llvm::Twine(type.getLanes()).str() +
                        " elements, the region has " +
                        llvm::Twine(elements.size()).str());
  mlir::Location l = ir->loc(at);
  // Named by the assignment that binds it.
  BufferObj *b =
      makeBuffer("", {syms.constant(type.getLanes())}, type.getElementType(),
                 lang::MemoryScope::Local, at, false);
  b->vectorLet = true;
  for (size_t lane = 0; lane < elements.size(); ++lane) {
    mlir::Value x = tile::LoadOp::create(ir->b, l, ir->valueType(src->dtype),
                                         src->value, elements[lane]);
    tile::StoreOp::create(ir->b, l, x, b->value,
                          mlir::ValueRange{ir->constIndex(lane, l)});
  }
  return Value::object(ValueKind::Buffer, b);
}

namespace {
/// A vector index of an element reference: TVM's vector access, one
/// element per lane in dimension `dim`. A `T.Ramp(base, stride, lanes)` is
/// base + lane * stride there, a `T.Broadcast(i, n)` is i in every lane;
/// any other vector (a ramp plus an offset, ...) gives lane k's index as
/// its lane k (`T.extract_lane`, which ScalarizeVectors folds).
struct RampIndex {
  unsigned dim;
  /// A T.Ramp's base and stride, a T.Broadcast's value (no stride); null
  /// otherwise.
  mlir::Value base, stride;
  mlir::Value vector; ///< The index vector.
  int64_t lanes;
  /// The dimension's extent where it is a constant: a lane below zero
  /// counts from the end (TileLang's LegalizeNegativeIndex, which since
  /// its issue 2554 wraps each lane of a vector index whose sign it cannot
  /// prove at run time, as Python indexing does); 0 when unknown.
  int64_t extent = 0;
};
} // namespace

/// Lane \p lane of the vector value \p vec (`T.extract_lane`, which
/// ScalarizeVectors folds).
static mlir::Value extractLane(Interpreter &in, mlir::Value vec, int64_t lane,
                               mlir::Location l) {
  auto vt = mlir::cast<mlir::VectorType>(vec.getType());
  mlir::Value k = in.ir->constInt(lane, in.ir->b.getI32Type(), l);
  return tile::IntrinsicOp::create(
             in.ir->b, l, mlir::TypeRange{vt.getElementType()},
             in.ir->b.getStringAttr("T.extract_lane"), mlir::ValueRange{vec, k},
             in.ir->b.getStrArrayAttr({"vec", "lane"}), mlir::DictionaryAttr())
      ->getResult(0);
}

/// Lane \p lane of the vector index \p idx where it is a constant.
static std::optional<int64_t> laneConstant(const RampIndex &idx, int64_t lane) {
  if (!idx.base)
    return std::nullopt;
  std::optional<int64_t> b = mlir::getConstantIntValue(idx.base);
  if (!idx.stride || !b)
    return b;
  std::optional<int64_t> s = mlir::getConstantIntValue(idx.stride);
  return s ? std::optional<int64_t>(*b + lane * *s) : std::nullopt;
}

/// The vector index of \p r, if one of its indices is a vector of integers.
static std::optional<RampIndex> rampIndexOf(RegionObj *r) {
  if (!r->isElement)
    return std::nullopt;
  for (unsigned d = 0; d < r->starts.size(); ++d) {
    Value i = r->starts[d];
    if (!i.is(ValueKind::Expr) || !i.as<ExprObj>()->dtype.isVector())
      continue;
    ExprObj *e = i.as<ExprObj>();
    if (!e->dtype.getElementType().isInteger())
      return std::nullopt;
    RampIndex idx{d, {}, {}, e->value, int64_t(e->dtype.getLanes())};
    auto ramp = e->value.getDefiningOp<tile::IntrinsicOp>();
    if (ramp && ramp.getCallee() == "T.Ramp" && ramp.getArgs().size() >= 2) {
      idx.base = ramp.getArgs()[0];
      idx.stride = ramp.getArgs()[1];
    } else if (ramp && ramp.getCallee() == "T.Broadcast" &&
               !ramp.getArgs().empty()) {
      idx.base = ramp.getArgs()[0];
    }
    if (r->buffer->shape[d])
      idx.extent = r->buffer->shape[d].getConstant().value_or(0);
    return idx;
  }
  return std::nullopt;
}

/// The indices of lane \p lane of the element reference \p reg whose
/// dimension `ramp.dim` is the vector index \p ramp.
static bool rampLaneIndices(Interpreter &in, RegionObj *reg,
                            const RampIndex &ramp, int64_t lane, Node at,
                            llvm::SmallVectorImpl<mlir::Value> &out) {
  mlir::Location l = in.ir->loc(at);
  mlir::Type indexTy = in.ir->b.getIndexType();
  for (unsigned d = 0; d < reg->starts.size(); ++d) {
    if (d != ramp.dim) {
      out.push_back(in.toIndex(reg->starts[d], at));
      continue;
    }
    if (std::optional<int64_t> c = laneConstant(ramp, lane)) {
      out.push_back(
          in.ir->constIndex(*c < 0 && ramp.extent ? *c + ramp.extent : *c, l));
      continue;
    }
    mlir::Value index;
    if (!ramp.base) {
      index = in.ir->convert(extractLane(in, ramp.vector, lane, l), indexTy, l);
    } else {
      index = in.ir->convert(ramp.base, indexTy, l);
      if (lane != 0 && ramp.stride) {
        mlir::Value step = mlir::arith::MulIOp::create(
            in.ir->b, l, in.ir->convert(ramp.stride, indexTy, l),
            in.ir->constIndex(lane, l));
        index = mlir::arith::AddIOp::create(in.ir->b, l, index, step);
      }
    }
    // A lane whose sign is known only at run time counts from the end
    // when it is below zero.
    if (index && ramp.extent) {
      mlir::Value zero = in.ir->constIndex(0, l);
      mlir::Value negative = mlir::arith::CmpIOp::create(
          in.ir->b, l, mlir::arith::CmpIPredicate::slt, index, zero);
      mlir::Value wrapped = mlir::arith::AddIOp::create(
          in.ir->b, l, index, in.ir->constIndex(ramp.extent, l));
      index =
          mlir::arith::SelectOp::create(in.ir->b, l, negative, wrapped, index);
    }
    out.push_back(index);
  }
  return llvm::all_of(out, [](mlir::Value x) { return bool(x); });
}

/// `X[T.Ramp(b, s, n)]` read as a value: TVM's vector load, the n element
/// loads gathered into one vector (`T.Shuffle` of the lanes, which
/// ScalarizeVectors takes apart again). A null value when it is not such a
/// reference.
static mlir::Value rampLoad(Interpreter &in, RegionObj *r, Node at) {
  std::optional<RampIndex> ramp = rampIndexOf(r);
  if (!ramp)
    return {};
  mlir::Location l = in.ir->loc(at);
  mlir::Type elem = in.ir->valueType(r->buffer->dtype);
  llvm::SmallVector<mlir::Value, 8> args;
  llvm::SmallVector<llvm::StringRef, 8> params;
  for (int64_t lane = 0; lane < ramp->lanes; ++lane) {
    llvm::SmallVector<mlir::Value, 4> idx;
    if (!rampLaneIndices(in, r, *ramp, lane, at, idx))
      return {};
    args.push_back(
        tile::LoadOp::create(in.ir->b, l, elem, r->buffer->value, idx));
    params.push_back("vectors");
  }
  for (int64_t lane = 0; lane < ramp->lanes; ++lane) {
    args.push_back(in.ir->constInt(lane, in.ir->b.getI32Type(), l));
    params.push_back("indices");
  }
  auto vec = mlir::VectorType::get({ramp->lanes}, elem);
  return tile::IntrinsicOp::create(
             in.ir->b, l, mlir::TypeRange{vec},
             in.ir->b.getStringAttr("T.Shuffle"), args,
             in.ir->b.getStrArrayAttr(params), mlir::DictionaryAttr())
      ->getResult(0);
}

/// `B[T.Ramp(b, s, n)] = v` of an n-lane vector value: lane k of v into
/// element b + k * s.
static Flow rampStoreVector(Interpreter &in, RegionObj *r,
                            const RampIndex &dst, ExprObj *v, Node at) {
  if (int64_t(v->dtype.getLanes()) != dst.lanes) {
    in.error(at, "the stored T.Ramp has " + llvm::Twine(dst.lanes) +
                     " lanes, the value " + llvm::Twine(v->dtype.getLanes()));
    return Flow::Normal;
  }
  if (!in.usable(r->buffer))
    return Flow::Normal;
  mlir::Location l = in.ir->loc(at);
  mlir::Type want = in.ir->valueType(r->buffer->dtype);
  for (int64_t lane = 0; lane < dst.lanes; ++lane) {
    llvm::SmallVector<mlir::Value, 4> to;
    if (!rampLaneIndices(in, r, dst, lane, at, to))
      return Flow::Normal;
    mlir::Value x = extractLane(in, v->value, lane, l);
    x = in.ir->convert(x, want, l,
                       v->dtype.getElementType().isUnsignedInteger());
    tile::StoreOp::create(in.ir->b, l, x, r->buffer->value, to);
  }
  return Flow::Normal;
}

/// `B[i, T.Ramp(b, s, n)] = A[j, T.Ramp(c, t, n)]` (TVM's vector store of a
/// vector load): n element loads and stores. nullopt unless both sides are
/// element references with a T.Ramp index.
static std::optional<Flow> rampStore(Interpreter &in, RegionObj *r, Value v,
                                     Node at) {
  std::optional<RampIndex> dst = rampIndexOf(r);
  if (dst && v.is(ValueKind::Expr) && v.as<ExprObj>()->dtype.isVector())
    return rampStoreVector(in, r, *dst, v.as<ExprObj>(), at);
  RegionObj *src = v.is(ValueKind::Region) ? v.as<RegionObj>() : nullptr;
  std::optional<RampIndex> from = src ? rampIndexOf(src) : std::nullopt;
  // `B[i, T.Ramp(b, 1, 2)] = S[i, j]` of an element of a vector-dtype
  // buffer (int8x2 shared tiles): the element's lanes.
  if (dst && src && !from && src->isElement && src->buffer->dtype.isVector()) {
    Scalar x = in.toScalar(v, at);
    if (!x)
      return Flow::Normal;
    Value e = in.wrapScalar(x);
    if (!e.is(ValueKind::Expr))
      return Flow::Normal;
    return rampStoreVector(in, r, *dst, e.as<ExprObj>(), at);
  }
  if (!dst || !from)
    return std::nullopt;
  if (from->lanes != dst->lanes) {
    in.error(at, "the stored T.Ramp has " + llvm::Twine(dst->lanes) +
                     " lanes, the value " + llvm::Twine(from->lanes));
    return Flow::Normal;
  }
  if (!in.usable(r->buffer) || !in.usable(src->buffer))
    return Flow::Normal;
  mlir::Location l = in.ir->loc(at);
  auto indices = [&](RegionObj *reg, const RampIndex &ramp, int64_t lane,
                     llvm::SmallVectorImpl<mlir::Value> &out) {
    return rampLaneIndices(in, reg, ramp, lane, at, out);
  };
  mlir::Type want = in.ir->valueType(r->buffer->dtype);
  for (int64_t lane = 0; lane < dst->lanes; ++lane) {
    llvm::SmallVector<mlir::Value, 4> to, fromIdx;
    if (!indices(r, *dst, lane, to) || !indices(src, *from, lane, fromIdx))
      return Flow::Normal;
    mlir::Value x = tile::LoadOp::create(
        in.ir->b, l, in.ir->valueType(src->buffer->dtype), src->buffer->value,
        fromIdx);
    x = in.ir->convert(x, want, l, src->buffer->dtype.isUnsignedInteger());
    tile::StoreOp::create(in.ir->b, l, x, r->buffer->value, to);
  }
  return Flow::Normal;
}

Flow Interpreter::irStore(Value target, Value v, Node at) {
  if (v.isPoison() || target.isPoison())
    return Flow::Normal;
  if (!tracing()) {
    error(at, "buffer stores can only appear while a kernel is traced");
    return Flow::Normal;
  }
  mlir::Location l = ir->loc(at);
  BufferObj *buf;
  llvm::SmallVector<mlir::Value, 4> idx;
  if (target.is(ValueKind::Buffer)) {
    buf = target.as<BufferObj>();
    checkBufferUse(buf, at);
    if (buf->scope != lang::MemoryScope::LocalVar) {
      error(at, "cannot assign to the whole buffer '" + buf->name + "'");
      return Flow::Normal;
    }
    if (!checkVarInScope(buf, at))
      return Flow::Normal;
  } else if (target.is(ValueKind::Region)) {
    RegionObj *r = target.as<RegionObj>();
    buf = r->buffer;
    if (!checkVarInScope(buf, at))
      return Flow::Normal;
    if (std::optional<Flow> f = rampStore(*this, r, v, at))
      return *f;
    if (!r->isElement) {
      // `out[0:8] = T.Broadcast(x, 8)`: a vector fills a region of as many
      // elements.
      if (v.is(ValueKind::Expr) && v.as<ExprObj>()->dtype.isVector()) {
        int64_t count = 1;
        for (SymExpr e : r->extents)
          count = e && e.isConstant() ? count * *e.getConstant() : -1;
        if (count == int64_t(v.as<ExprObj>()->dtype.getLanes())) {
          mlir::Value region = regionValue(r, at);
          if (!region)
            return Flow::Normal;
          mlir::Value vec = v.as<ExprObj>()->value;
          tile::IntrinsicOp::create(
              ir->b, l, mlir::TypeRange(), ir->b.getStringAttr("T.buffer_store"),
              mlir::ValueRange{region, vec},
              ir->b.getStrArrayAttr({"buffer", "value"}),
              mlir::DictionaryAttr());
          return Flow::Normal;
        }
      }
      // `A[0, 4:8] = b` of a vector let `b`: lane by lane.
      if (v.is(ValueKind::Buffer) && v.as<BufferObj>()->vectorLet) {
        BufferObj *lanes = v.as<BufferObj>();
        llvm::SmallVector<llvm::SmallVector<mlir::Value, 4>, 8> elements;
        if (!regionElements(r, at, elements) || !usable(buf))
          return Flow::Normal;
        if (int64_t(elements.size()) != *lanes->shape[0].getConstant()) {
          error(at, "the region has " + llvm::Twine(elements.size()).str() +
                        " elements, the vector '" + lanes->name.str() + "' " +
                        llvm::Twine(*lanes->shape[0].getConstant()).str() +
                        " lanes");
          return Flow::Normal;
        }
        mlir::Type want = ir->valueType(buf->dtype);
        for (size_t lane = 0; lane < elements.size(); ++lane) {
          mlir::Value x = tile::LoadOp::create(
              ir->b, l, ir->valueType(lanes->dtype), lanes->value,
              mlir::ValueRange{ir->constIndex(lane, l)});
          x = ir->convert(x, want, l, lanes->dtype.isUnsignedInteger());
          tile::StoreOp::create(ir->b, l, x, buf->value, elements[lane]);
        }
        return Flow::Normal;
      }
      // `A[0, 4:8] = b` of `b = A[0, 0:4]`: TileLang's vector value of a
      // region, stored element by element. The source is read here, at the
      // store (TileLang reads it where `b` is bound).
      if (v.is(ValueKind::Region) && !v.as<RegionObj>()->isElement) {
        RegionObj *src = v.as<RegionObj>();
        llvm::SmallVector<llvm::SmallVector<mlir::Value, 4>, 8> from, to;
        if (!usable(src->buffer) || !usable(buf) ||
            !regionElements(src, at, from) || !regionElements(r, at, to))
          return Flow::Normal;
        if (from.size() != to.size()) {
          error(at, "the region has " + llvm::Twine(to.size()).str() +
                        " elements, the stored region " +
                        llvm::Twine(from.size()).str());
          return Flow::Normal;
        }
        if ((buf->dtype.isUnpackedFloat() ||
             src->buffer->dtype.isUnpackedFloat()) &&
            buf->dtype != src->buffer->dtype) {
          error(at, "cannot store " + src->buffer->dtype.getName() +
                        " elements into '" + buf->name + "' of " +
                        buf->dtype.getName() +
                        ": unpacked float codes convert only with T.Cast "
                        "or T.reinterpret");
          return Flow::Normal;
        }
        mlir::Type want = ir->valueType(buf->dtype);
        for (size_t i = 0; i < from.size(); ++i) {
          mlir::Value x =
              tile::LoadOp::create(ir->b, l, ir->valueType(src->buffer->dtype),
                                   src->buffer->value, from[i]);
          x = ir->convert(x, want, l, src->buffer->dtype.isUnsignedInteger());
          tile::StoreOp::create(ir->b, l, x, buf->value, to[i]);
        }
        return Flow::Normal;
      }
      error(at, "cannot assign to a buffer region; use T.copy or T.fill");
      return Flow::Normal;
    }
    for (Value s : r->starts) {
      mlir::Value iv = toIndex(s, at);
      if (!iv)
        return Flow::Normal;
      idx.push_back(iv);
    }
  } else {
    error(at, "cannot store into a value of type '" + target.getTypeName() +
                  "'");
    return Flow::Normal;
  }
  if (!usable(buf))
    return Flow::Normal;
  mlir::Type want = ir->valueType(buf->dtype);
  if (v.is(ValueKind::BigInt) && !checkIntFits(v, buf->dtype, at))
    return Flow::Normal;
  // A number stored into unpacked float codes is encoded; IR values of
  // another dtype are not converted implicitly in either direction.
  if (buf->dtype.isUnpackedFloat() && v.isNumber())
    v = castTo(v, buf->dtype, at);
  Scalar s = toScalar(v, at, want);
  if (!s)
    return Flow::Normal;
  if ((buf->dtype.isUnpackedFloat() || s.dtype.isUnpackedFloat()) &&
      s.dtype != buf->dtype) {
    error(at, "cannot store a " + s.dtype.getName() + " value into '" +
                  buf->name + "' of " + buf->dtype.getName() +
                  ": unpacked float codes convert only with T.Cast or "
                  "T.reinterpret");
    return Flow::Normal;
  }
  mlir::Value val = ir->convert(s.value, want, l, s.dtype.isUnsignedInteger());
  if (val.getType() != want) {
    error(at, "cannot convert the stored value to the element type of '" +
                  buf->name + "'");
    return Flow::Normal;
  }
  if (std::optional<layout::Layout> gl = globalLayoutOf(*this, buf))
    if (!physicalIndices(*this, buf, *gl, l, idx)) {
      error(at, "the layout annotated for '" + buf->name +
                    "' cannot address it");
      return Flow::Normal;
    }
  tile::StoreOp::create(ir->b, l, val, buf->value, idx);
  return Flow::Normal;
}

//===----------------------------------------------------------------------===//
// Control flow on IR conditions
//===----------------------------------------------------------------------===//

/// Diagnoses `return`/`break`/`continue` escaping an IR region.
static Flow settleRegionFlow(Interpreter &in, Flow f, Node at) {
  if (f == Flow::Return) {
    in.error(at, "'return' inside IR control flow is not supported");
    return Flow::Normal;
  }
  if (f == Flow::Break || f == Flow::Continue) {
    // Its loop is one the interpreter expands (`for i in [0, 1]`): there
    // is no loop to leave when the condition is decided at run time, and
    // leaving an IR loop around it would be wrong. TileLang raises this as
    // a NotImplementedError where the prim_func is defined.
    if (!in.expandedLoops.empty() &&
        in.expandedLoops.back() == in.loops.size()) {
      in.errorAs("NotImplementedError", at.range(),
                 llvm::Twine("a '") +
                     (f == Flow::Break ? "break" : "continue") +
                     "' under a condition on kernel data inside a Python "
                     "loop tlc expands at trace time: the expanded loop has "
                     "no runtime control-flow target (loop with T.serial "
                     "or range() over kernel values, or decide the "
                     "condition at trace time)");
      return Flow::Normal;
    }
    // Leaves the enclosing IR loop at run time (TileLang's tir break /
    // continue); a back end that cannot generate it says so.
    if (in.loops.empty()) {
      in.error(at, "'break'/'continue' outside a loop");
      return Flow::Normal;
    }
    tile::IntrinsicOp::create(
        in.ir->b, in.ir->loc(at), mlir::TypeRange(),
        in.ir->b.getStringAttr(f == Flow::Break ? "T.loop_break"
                                                : "T.loop_continue"),
        mlir::ValueRange(), in.ir->b.getStrArrayAttr({}),
        mlir::DictionaryAttr());
    return Flow::Normal;
  }
  return f;
}

/// TileLang refuses a kernel `if` / `assert` whose run-time condition is
/// not boolean ("If condition must be a boolean expression, but got
/// int32"; before that check, its compilation stopped at an internal one,
/// tile-ai/tilelang#3009): an error at the condition, in TileLang's words,
/// with the comparison that says what was meant.
void Interpreter::checkBooleanCondition(const Scalar &c, Node test,
                                        llvm::StringRef stmt) {
  if (c.dtype.isBool())
    return;
  error(test, stmt + " condition must be a boolean expression, but got " +
                  c.dtype.getName() + " (compare it, e.g. `... != 0`)");
}

Flow Interpreter::execIRIf(Value cond, Node ifNode) {
  Node test = ifNode.child(Field::test);
  Scalar c = toScalar(cond, test);
  if (!c)
    return Flow::Normal;
  checkBooleanCondition(c, test, "If");
  mlir::Location l = ir->loc(test);
  mlir::Value pred = ir->convert(c.value, ir->b.getI1Type(), l);
  bool hasElse = static_cast<bool>(ifNode.child(Field::orelse));
  auto op = tile::IfOp::create(ir->b, ir->loc(ifNode), pred, hasElse);
  mlir::OpBuilder::InsertionGuard guard(ir->b);
  ir->b.setInsertionPointToEnd(op.thenBlock());
  Flow f = settleRegionFlow(*this, execBody(ifNode, Field::body), ifNode);
  if (f == Flow::Raise)
    return f;
  if (hasElse) {
    ir->b.setInsertionPointToEnd(op.elseBlock());
    f = settleRegionFlow(*this, execBody(ifNode, Field::orelse), ifNode);
  }
  return f;
}

Flow Interpreter::execIRWhile(Node whileNode, Node condNode) {
  if (!condNode)
    condNode = whileNode.child(Field::test);
  auto op = tile::WhileOp::create(ir->b, ir->loc(whileNode));
  mlir::OpBuilder::InsertionGuard guard(ir->b);
  ir->b.setInsertionPointToEnd(&op.getCond().front());
  Value c = condNode ? eval(condNode) : Value::poison();
  Node at = condNode ? condNode : whileNode;
  Scalar s = c.isAbrupt() ? Scalar() : toScalar(c, at);
  mlir::Value pred = s ? ir->convert(s.value, ir->b.getI1Type(), ir->loc(at))
                       : ir->constInt(0, ir->b.getI1Type(), ir->loc(at));
  tile::ConditionOp::create(ir->b, ir->loc(at), pred);
  if (c.isException())
    return Flow::Raise;
  ir->b.setInsertionPointToEnd(&op.getBody().front());
  loops.push_back({LoopKind::Serial, 0, whileNode});
  Flow f = execBody(whileNode, Field::body);
  loops.pop_back();
  if (f == Flow::Break || f == Flow::Continue)
    return Flow::Normal;
  return settleRegionFlow(*this, f, whileNode);
}
/// Whether \p a and \p b compute the same value: one SSA value, or the same
/// side-effect-free arithmetic, or tile.loads with nothing that may write
/// between them, over operands that are the same.
static bool sameExpression(mlir::Value a, mlir::Value b, unsigned depth = 0) {
  if (a == b)
    return true;
  mlir::Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || depth > 6 || x->getName() != y->getName() ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumOperands() != y->getNumOperands() || x->getNumResults() != 1 ||
      x->getNumRegions() || y->getNumRegions())
    return false;
  if (mlir::isa<tile::LoadOp>(x)) {
    // Both loads in one block with nothing that may write between them.
    if (x->getBlock() != y->getBlock())
      return false;
    if (y->isBeforeInBlock(x))
      std::swap(x, y);
    for (mlir::Operation *o = x->getNextNode(); o && o != y;
         o = o->getNextNode())
      if (!mlir::isa<tile::LoadOp>(o) && !mlir::isMemoryEffectFree(o))
        return false;
  } else if (!mlir::isMemoryEffectFree(x)) {
    return false;
  }
  for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
    if (!sameExpression(p, q, depth + 1))
      return false;
  return true;
}

/// A sum of integer multiples of terms plus a constant: \p v split
/// through addi / subi / muli by a constant / index casts, terms compared
/// with sameExpression. False where a term cannot be split (an overflow).
static bool
linearForm(mlir::Value v, int64_t scale,
           llvm::SmallVectorImpl<std::pair<mlir::Value, int64_t>> &terms,
           int64_t &constant, unsigned depth = 0) {
  mlir::IntegerAttr c;
  if (mlir::matchPattern(v, mlir::m_Constant(&c))) {
    constant += scale * c.getValue().getSExtValue();
    return true;
  }
  mlir::Operation *def = v.getDefiningOp();
  if (def && depth < 16) {
    // `Starts[b]` (i32) as an index: the same integer.
    if (mlir::isa<mlir::arith::IndexCastOp, mlir::arith::ExtSIOp>(def))
      return linearForm(def->getOperand(0), scale, terms, constant,
                        depth + 1);
    if (mlir::isa<mlir::arith::AddIOp, mlir::arith::SubIOp>(def))
      return linearForm(def->getOperand(0), scale, terms, constant,
                        depth + 1) &&
             linearForm(def->getOperand(1),
                        mlir::isa<mlir::arith::SubIOp>(def) ? -scale : scale,
                        terms, constant, depth + 1);
    if (mlir::isa<mlir::arith::MulIOp>(def))
      for (unsigned i = 0; i < 2; ++i)
        if (mlir::matchPattern(def->getOperand(1 - i), mlir::m_Constant(&c)))
          return linearForm(def->getOperand(i),
                            scale * c.getValue().getSExtValue(), terms,
                            constant, depth + 1);
  }
  for (auto &[term, coeff] : terms)
    if (sameExpression(term, v)) {
      coeff += scale;
      return true;
    }
  terms.push_back({v, scale});
  return true;
}

/// `hi - lo` when it is the same integer whatever the run-time values
/// (`(s + (b + 1) * 64) - (s + b * 64)` is 64).
static std::optional<int64_t> constantDifference(mlir::Value hi,
                                                 mlir::Value lo) {
  llvm::SmallVector<std::pair<mlir::Value, int64_t>, 4> terms;
  int64_t constant = 0;
  if (!linearForm(hi, 1, terms, constant) ||
      !linearForm(lo, -1, terms, constant))
    return std::nullopt;
  for (auto &[term, coeff] : terms)
    if (coeff != 0)
      return std::nullopt;
  return constant;
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// The run-time extents of regions (see regionRuntimeExtents), per
/// evaluating thread; an entry is dropped where a RegionObj is made, so a
/// new object at a recycled address starts with none.
static thread_local llvm::DenseMap<const RegionObj *,
                                   llvm::SmallVector<mlir::Value, 4>>
    runtimeExtentsOfRegions;

llvm::SmallVector<mlir::Value, 4> &
tlc::eval::regionRuntimeExtents(const RegionObj *r) {
  return runtimeExtentsOfRegions[r];
}

void tlc::eval::forgetRuntimeExtents(const RegionObj *r) {
  runtimeExtentsOfRegions.erase(r);
}

Value Interpreter::makeRegion(BufferObj *buf, Value index, Node at) {
  checkBufferUse(buf, at);
  llvm::SmallVector<Value, 4> idx;
  if (index.is(ValueKind::Tuple))
    idx.append(getElems(index).begin(), getElems(index).end());
  else
    idx.push_back(index);
  size_t rank = buf->shape.size();
  if (idx.size() != rank) {
    return fail(at, "buffer '" + buf->name + "' has " + llvm::Twine(rank) +
                        (rank == 1 ? " dimension" : " dimensions") + " but " +
                        llvm::Twine(idx.size()) +
                        (idx.size() == 1 ? " index was" : " indices were") +
                        " given");
  }
  auto *r = heap.make<RegionObj>();
  forgetRuntimeExtents(r);
  r->buffer = buf;
  r->range = at.range();
  r->isElement = true;
  for (size_t d = 0; d < rank; ++d) {
    Value i = idx[d];
    if (i.isAbrupt())
      return i;
    if (i.is(ValueKind::Slice)) {
      SliceObj *s = i.as<SliceObj>();
      // A step of 1 is the contiguous region `a[lo:hi]` (TVM's default);
      // another step selects every step-th element, like TVM's T.Ramp.
      int64_t step = 1;
      if (!s->step.isNone()) {
        if (!s->step.isIntLike())
          return fail(at, "a slice step in a buffer region must be a "
                          "constant integer, not '" +
                              s->step.getTypeName() + "'");
        step = s->step.getInt();
        if (step == 0)
          return fail(at, "slice step cannot be zero");
        if (step < 0)
          return fail(at, "a slice step in a buffer region must be "
                          "positive; TVM counts its elements from the "
                          "lower bound up");
      }
      Value lo = s->lower.isNone() ? Value::integer(0) : s->lower;
      SymExpr loSym, hiSym;
      if (lo.is(ValueKind::Expr))
        loSym = lo.as<ExprObj>()->sym;
      else
        loSym = toSym(lo);
      if (s->upper.isNone())
        hiSym = buf->shape[d];
      else if (s->upper.is(ValueKind::Expr))
        hiSym = s->upper.as<ExprObj>()->sym;
      else
        hiSym = toSym(s->upper);
      SymExpr extent = loSym && hiSym ? syms.sub(hiSym, loSym) : SymExpr();
      // `x[s : s + 32]` or `Q[s + b * 64 : s + (b + 1) * 64]` with s a
      // run-time value (read from memory, no symbolic form): the bounds
      // are IR values whose difference is a constant. Any other extent is
      // computed when the kernel runs (a `?` dimension with its size).
      mlir::Value size;
      if (!extent) {
        if (lo.is(ValueKind::Region)) {
          // `s = Starts[b]`: read it here, once, as the start.
          if (!lo.as<RegionObj>()->isElement)
            return fail(at, "a slice bound must be an integer");
          Scalar start = toScalar(lo, at);
          if (!start)
            return Value::poison();
          lo = wrapScalar(start);
        }
        mlir::Value loV = toIndex(lo, at);
        Value hi = s->upper;
        if (hi.isNone() && buf->shape[d])
          hi = buf->shape[d].isConstant()
                   ? Value::integer(*buf->shape[d].getConstant())
                   : Value::sym(buf->shape[d]);
        mlir::Value hiV = hi.isNone() ? mlir::Value() : toIndex(hi, at);
        if (!loV || (!hiV && !hi.isNone()))
          return Value::poison();
        if (hiV && loV) {
          if (std::optional<int64_t> c = constantDifference(hiV, loV))
            extent = syms.constant(*c);
          else
            size = mlir::arith::SubIOp::create(ir->b, ir->loc(at), hiV, loV);
        }
      }
      if (step != 1) {
        // ceildiv(hi - lo, step) elements: lo, lo + step, ... below hi.
        if (!extent)
          return fail(at, "the number of elements of a slice with a step "
                          "must be known when the kernel is traced");
        extent = syms.ceilDiv(extent, syms.constant(step));
        size = mlir::Value();
      }
      if (size) {
        llvm::SmallVector<mlir::Value, 4> &sizes = regionRuntimeExtents(r);
        sizes.resize(rank);
        sizes[d] = size;
      }
      r->starts.push_back(lo);
      r->extents.push_back(extent);
      r->sliced.push_back(true);
      r->steps.push_back(step);
      r->isElement = false;
      continue;
    }
    if (!i.isIntLike() && !i.is(ValueKind::Sym) && !i.is(ValueKind::Expr) &&
        !(i.is(ValueKind::Region) && i.as<RegionObj>()->isElement) &&
        !(i.is(ValueKind::Buffer) &&
          i.as<BufferObj>()->scope == lang::MemoryScope::LocalVar))
      return fail(at, "buffer index must be an integer, not '" +
                          i.getTypeName() + "'");
    if (i.isIntLike()) {
      int64_t v = i.getInt();
      std::optional<int64_t> dim =
          buf->shape[d] ? buf->shape[d].getConstant() : std::nullopt;
      if (v < 0 && dim)
        i = Value::integer(v + *dim);
      if (dim && (i.getInt() < 0 || i.getInt() >= *dim))
        error(at, "index " + llvm::Twine(v) + " is out of bounds for "
                  "dimension " + llvm::Twine(d) + " of '" + buf->name +
                  "' (size " + llvm::Twine(*dim) + ")");
    }
    r->starts.push_back(i);
    r->extents.push_back(syms.constant(1));
    r->sliced.push_back(false);
    r->steps.push_back(1);
  }
  return Value::object(ValueKind::Region, r);
}

RegionObj *Interpreter::asRegion(Value v, Node at) {
  if (v.is(ValueKind::Region))
    return v.as<RegionObj>();
  if (v.is(ValueKind::Buffer)) {
    BufferObj *buf = v.as<BufferObj>();
    checkBufferUse(buf, at);
    auto *r = heap.make<RegionObj>();
    forgetRuntimeExtents(r);
    r->buffer = buf;
    r->range = at.range();
    for (SymExpr d : buf->shape) {
      r->starts.push_back(Value::integer(0));
      r->extents.push_back(d);
      r->sliced.push_back(true);
    }
    return r;
  }
  return nullptr;
}

mlir::Value Interpreter::regionValue(RegionObj *r, Node at) {
  BufferObj *buf = r->buffer;
  if (!usable(buf))
    return {}; // reported by checkBufferUse
  // `A[0:8:2]` is TVM's vector of elements (a T.Ramp index), not a tile:
  // TileLang's tile operations take contiguous regions only.
  if (r->isStrided()) {
    error(at, "a slice with a step is a vector of elements, not a tile "
              "region; use it in element-wise loads and stores");
    return {};
  }
  bool whole = true;
  for (size_t d = 0; d < r->starts.size(); ++d) {
    Value s = r->starts[d];
    if (!(s.isIntLike() && s.getInt() == 0) || r->extents[d] != buf->shape[d])
      whole = false;
  }
  if (whole)
    return buf->value;
  llvm::SmallVector<mlir::OpFoldResult, 4> offsets;
  for (Value s : r->starts)
    offsets.push_back(toFold(s, at));
  // Tail tiles may extend past the buffer (A[by * 128, ...] with M = 100):
  // TileLang guards out-of-range elements, so this is not diagnosed.
  tile::BufferType t = ir->bufferType(r->extents, buf->dtype, buf->scope);
  for (SymExpr e : r->extents)
    noteSymbols(e);
  return tile::RegionOp::create(ir->b, ir->loc(at), t, buf->value, offsets);
}
