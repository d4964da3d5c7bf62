//===- IRScalars.cpp - Scalars, arithmetic and comparisons in IR ----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The Interpreter methods that turn IR-valued Python scalars into
// operations: conversion of trace-time values to IR scalars and indices,
// TileLang's binary promotion, vector lanes, and arithmetic, unary
// operators and comparisons on IR values.
//
//===----------------------------------------------------------------------===//

#include "DeferredFloat.h"
#include "IRElements.h"
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
