//===- ScalarMath.cpp - Scalar math primitives ----------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The scalar-math primitives on trace-time and IR values: unary math
// functions, select, min/max, truncated modulo, integer division,
// unflattening an index, and casts.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;

/// A unary math function on an IR value, folding Python numbers.
Value Interpreter::unaryMath(const PArgs &p) {
  Value x = p.getOr("x", Value::poison());
  Node xn = p.node("x");
  BuiltinId id = p.info.id;
  if (x.isAbrupt())
    return x;
  if (x.isNumber()) {
    double d = x.getFloat();
    switch (id) {
    case BuiltinId::Exp:
      return Value::floating(std::exp(d));
    case BuiltinId::Exp2:
      return Value::floating(std::exp2(d));
    case BuiltinId::Log:
      return Value::floating(std::log(d));
    case BuiltinId::Log2:
      return Value::floating(std::log2(d));
    case BuiltinId::Sqrt:
      return Value::floating(std::sqrt(d));
    case BuiltinId::Rsqrt:
      return Value::floating(1.0 / std::sqrt(d));
    case BuiltinId::Abs:
      return x.isFloat() ? Value::floating(std::fabs(d))
                         : Value::integer(std::llabs(x.getInt()));
    default:
      break;
    }
  }
  if (!tracing())
    return fail(p.call, p.info.name + " on IR values needs a kernel");
  Scalar s = toScalar(x, xn);
  if (!s)
    return Value::poison();
  mlir::Location l = ir->loc(p.call);
  auto &B = ir->b;
  mlir::Value v = s.value;
  bool isF = mlir::isa<mlir::FloatType>(v.getType());
  if (id == BuiltinId::Abs) {
    mlir::Value r = isF ? mlir::math::AbsFOp::create(B, l, v).getResult()
                        : mlir::math::AbsIOp::create(B, l, v).getResult();
    return wrapScalar({r, s.dtype, SymExpr()});
  }
  if (!isF) {
    v = ir->convert(v, B.getF32Type(), l);
    s.dtype = lang::DType(lang::ScalarType::Float32);
  }
  mlir::Value r;
  switch (id) {
  case BuiltinId::Exp:
    r = mlir::math::ExpOp::create(B, l, v);
    break;
  case BuiltinId::Exp2:
    r = mlir::math::Exp2Op::create(B, l, v);
    break;
  case BuiltinId::Exp10:
    r = mlir::math::PowFOp::create(B, l, ir->constFloat(10, v.getType(), l),
                                     v);
    break;
  case BuiltinId::Log:
    r = mlir::math::LogOp::create(B, l, v);
    break;
  case BuiltinId::Log2:
    r = mlir::math::Log2Op::create(B, l, v);
    break;
  case BuiltinId::Log10:
    r = mlir::math::Log10Op::create(B, l, v);
    break;
  case BuiltinId::Log1p:
    r = mlir::math::Log1pOp::create(B, l, v);
    break;
  case BuiltinId::Sqrt:
    r = mlir::math::SqrtOp::create(B, l, v);
    break;
  case BuiltinId::Rsqrt:
    r = mlir::math::RsqrtOp::create(B, l, v);
    break;
  case BuiltinId::Sigmoid: {
    mlir::Value one = ir->constFloat(1, v.getType(), l);
    mlir::Value e =
        mlir::math::ExpOp::create(B, l, mlir::arith::NegFOp::create(B, l, v));
    r = mlir::arith::DivFOp::create(B, l, one,
                                      mlir::arith::AddFOp::create(B, l, one, e));
    break;
  }
  case BuiltinId::Tanh:
    r = mlir::math::TanhOp::create(B, l, v);
    break;
  case BuiltinId::Sinh:
    r = mlir::math::SinhOp::create(B, l, v);
    break;
  case BuiltinId::Cosh:
    r = mlir::math::CoshOp::create(B, l, v);
    break;
  case BuiltinId::Sin:
    r = mlir::math::SinOp::create(B, l, v);
    break;
  case BuiltinId::Cos:
    r = mlir::math::CosOp::create(B, l, v);
    break;
  case BuiltinId::Tan:
    r = mlir::math::TanOp::create(B, l, v);
    break;
  case BuiltinId::Atan:
    r = mlir::math::AtanOp::create(B, l, v);
    break;
  case BuiltinId::Erf:
    r = mlir::math::ErfOp::create(B, l, v);
    break;
  case BuiltinId::Floor:
    r = mlir::math::FloorOp::create(B, l, v);
    break;
  case BuiltinId::Ceil:
    r = mlir::math::CeilOp::create(B, l, v);
    break;
  case BuiltinId::Trunc:
    r = mlir::math::TruncOp::create(B, l, v);
    break;
  case BuiltinId::Nearbyint:
    r = mlir::math::RoundEvenOp::create(B, l, v);
    break;
  case BuiltinId::Isfinite:
    return wrapScalar({mlir::math::IsFiniteOp::create(B, l, v),
                       lang::DType(lang::ScalarType::Bool), SymExpr()});
  case BuiltinId::Isnan:
    return wrapScalar({mlir::math::IsNaNOp::create(B, l, v),
                       lang::DType(lang::ScalarType::Bool), SymExpr()});
  case BuiltinId::Isinf:
    return wrapScalar({mlir::math::IsInfOp::create(B, l, v),
                       lang::DType(lang::ScalarType::Bool), SymExpr()});
  default:
    return fail(p.call, p.info.name + " is not implemented by tlc yet");
  }
  return wrapScalar({r, s.dtype, SymExpr()});
}

/// Picks one of two IR values: arith.select after unifying types.
Value Interpreter::selectValue(Value c, Value t, Value f, Node at) {
  if (c.isAbrupt())
    return c;
  Truth truthC = truth(c, at);
  if (truthC == Truth::True)
    return t;
  if (truthC == Truth::False)
    return f;
  // Outside any kernel (TVM IR a script builds with `tirx.Select`, say)
  // TileLang only makes the expression node, and tlc builds no IR there:
  // a value it does not model, not an error.
  if (!tracing())
    return heap.opaque("T.Select of IR values");
  Scalar cs = toScalar(c, at);
  if (!cs)
    return Value::poison();
  mlir::Location l = ir->loc(at);
  bool tIR = !t.isNumber() && !t.is(ValueKind::Sym);
  Scalar a, b;
  if (tIR) {
    a = toScalar(t, at);
    if (!a)
      return Value::poison();
    b = toScalar(f, at, mlir::getElementTypeOrSelf(a.value.getType()));
  } else {
    b = toScalar(f, at);
    if (!b)
      return Value::poison();
    a = toScalar(t, at, mlir::getElementTypeOrSelf(b.value.getType()));
  }
  if (!a || !b)
    return Value::poison();
  // Vectors select lane by lane; a scalar value or condition is in every
  // lane.
  if (!matchLanes(*ir, a, b, l) || !matchLanes(*ir, cs, a, l) ||
      !matchLanes(*ir, cs, b, l))
    return fail(at, "select between " + a.dtype.getName() + " and " +
                        b.dtype.getName() + " values on a " +
                        cs.dtype.getName() +
                        " condition (vectors of different lane counts)");
  if (a.value.getType() != b.value.getType())
    b.value = ir->convert(b.value, a.value.getType(), l);
  mlir::Type boolType = ir->b.getI1Type();
  if (auto vt = mlir::dyn_cast<mlir::VectorType>(a.value.getType()))
    boolType = mlir::VectorType::get(vt.getShape(), boolType);
  mlir::Value pred = ir->convert(cs.value, boolType, l);
  mlir::Value r = mlir::arith::SelectOp::create(ir->b, l, pred, a.value, b.value);
  return wrapScalar({r, a.dtype, SymExpr()});
}

/// min/max of two values: folds Python numbers and symbols.
Value Interpreter::minMax(Value a, Value b, bool isMax, Node at) {
  if (a.isAbrupt())
    return a;
  if (b.isAbrupt())
    return b;
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat()) {
      double x = a.getFloat(), y = b.getFloat();
      return Value::floating(isMax ? std::max(x, y) : std::min(x, y));
    }
    return Value::integer(isMax ? std::max(a.getInt(), b.getInt())
                                : std::min(a.getInt(), b.getInt()));
  }
  if ((a.isIntLike() || a.is(ValueKind::Sym)) &&
      (b.isIntLike() || b.is(ValueKind::Sym)))
    return fromSym(isMax ? syms.max(toSym(a), toSym(b))
                         : syms.min(toSym(a), toSym(b)),
                   at);
  if (!tracing())
    return heap.opaque("min/max");
  mlir::Location l = ir->loc(at);
  bool aIR = !a.isNumber() && !a.is(ValueKind::Sym);
  Scalar x, y;
  if (aIR) {
    x = toScalar(a, at);
    if (!x)
      return Value::poison();
    y = toScalar(b, at, mlir::getElementTypeOrSelf(x.value.getType()));
  } else {
    y = toScalar(b, at);
    if (!y)
      return Value::poison();
    x = toScalar(a, at, mlir::getElementTypeOrSelf(y.value.getType()));
  }
  if (!x || !y)
    return Value::poison();
  // Vectors: lane by lane, a scalar in every lane.
  if (!matchLanes(*ir, x, y, l))
    return fail(at, std::string(isMax ? "T.max" : "T.min") + " of " +
                        x.dtype.getName() + " and " + y.dtype.getName() +
                        " values (vectors of different lane counts)");
  if (x.value.getType() != y.value.getType()) {
    if (mlir::isa<mlir::FloatType>(
            mlir::getElementTypeOrSelf(y.value.getType())))
      x.value = ir->convert(x.value, y.value.getType(), l);
    else
      y.value = ir->convert(y.value, x.value.getType(), l);
  }
  auto &B = ir->b;
  mlir::Value r;
  // The operands now share a type: the float one when either is float,
  // else x's; an integer comparison is unsigned when either dtype of that
  // width is (TVM's promotion of uint with int keeps the uint).
  bool isFloat = mlir::isa<mlir::FloatType>(
      mlir::getElementTypeOrSelf(x.value.getType()));
  lang::DType dtype = isFloat && !x.dtype.isFloat() ? y.dtype : x.dtype;
  if (!isFloat && !x.dtype.isUnsignedInteger() &&
      y.dtype.isUnsignedInteger() && y.dtype.getBits() == x.dtype.getBits())
    dtype = y.dtype;
  if (isFloat)
    r = isMax ? mlir::arith::MaximumFOp::create(B, l, x.value, y.value)
                    .getResult()
              : mlir::arith::MinimumFOp::create(B, l, x.value, y.value)
                    .getResult();
  else if (dtype.isUnsignedInteger())
    r = isMax ? mlir::arith::MaxUIOp::create(B, l, x.value, y.value).getResult()
              : mlir::arith::MinUIOp::create(B, l, x.value, y.value).getResult();
  else
    r = isMax ? mlir::arith::MaxSIOp::create(B, l, x.value, y.value).getResult()
              : mlir::arith::MinSIOp::create(B, l, x.value, y.value).getResult();
  SymExpr sym;
  if (x.sym && y.sym && !dtype.isUnsignedInteger())
    sym = isMax ? syms.max(x.sym, y.sym) : syms.min(x.sym, y.sym);
  return wrapScalar({r, dtype, sym});
}

/// `T.truncmod(a, b)`: the remainder with the sign of \p a (C's `%`), where
/// Python's `%` on IR values is floormod.
Value Interpreter::truncMod(Value a, Value b, Node at) {
  if (a.isAbrupt())
    return a;
  if (b.isAbrupt())
    return b;
  if (a.isIntLike() && b.isIntLike()) {
    if (b.getInt() == 0)
      return raise("ZeroDivisionError", "integer modulo by zero", at);
    return Value::integer(a.getInt() % b.getInt());
  }
  if (!tracing())
    return binary(syntax::BinaryOp::Mod, a, b, at);
  Scalar x = toScalar(a, at);
  if (!x)
    return Value::poison();
  Scalar y = toScalar(b, at, x.value.getType());
  if (!y)
    return Value::poison();
  if (x.value.getType() != y.value.getType() ||
      !x.value.getType().isIntOrIndex())
    return binary(syntax::BinaryOp::Mod, a, b, at);
  mlir::Location l = ir->loc(at);
  mlir::Value r =
      x.dtype.isUnsignedInteger()
          ? mlir::arith::RemUIOp::create(ir->b, l, x.value, y.value).getResult()
          : mlir::arith::RemSIOp::create(ir->b, l, x.value, y.value)
                .getResult();
  return wrapScalar({r, x.dtype, SymExpr()});
}

/// Integer division helpers on Python ints, symbols and IR values.
Value Interpreter::intDiv(Value a, Value b, SymKind kind, Node at) {
  if ((a.isIntLike() || a.is(ValueKind::Sym)) &&
      (b.isIntLike() || b.is(ValueKind::Sym))) {
    SymExpr x = toSym(a), y = toSym(b);
    if (y.isConstant() && *y.getConstant() == 0)
      return raise("ZeroDivisionError", "integer division by zero", at);
    switch (kind) {
    case SymKind::CeilDiv:
      return fromSym(syms.ceilDiv(x, y), at);
    case SymKind::Mod:
      return fromSym(syms.mod(x, y), at);
    default:
      return fromSym(syms.floorDiv(x, y), at);
    }
  }
  if (kind == SymKind::FloorDiv)
    return binary(syntax::BinaryOp::FloorDiv, a, b, at);
  if (kind == SymKind::Mod)
    return binary(syntax::BinaryOp::Mod, a, b, at);
  // ceildiv(a, b) == (a + b - 1) // b on IR values.
  Value sum = binary(syntax::BinaryOp::Add, a, b, at);
  Value m1 = binary(syntax::BinaryOp::Sub, sum, Value::integer(1), at);
  return binary(syntax::BinaryOp::FloorDiv, m1, b, at);
}

llvm::SmallVector<Value, 4> Interpreter::unflatten(Value linear,
                                                   llvm::ArrayRef<Value> dims,
                                                   Node at) {
  llvm::SmallVector<Value, 4> coords(dims.size());
  Value rest = linear;
  for (size_t d = dims.size(); d-- > 0;) {
    coords[d] = d == 0 ? rest : intDiv(rest, dims[d], SymKind::Mod, at);
    if (d != 0)
      rest = intDiv(rest, dims[d], SymKind::FloorDiv, at);
  }
  return coords;
}

/// Converts \p v to \p dtype (T.cast).
Value Interpreter::castTo(Value v, lang::DType dtype, Node at) {
  if (v.isAbrupt())
    return v;
  if (v.isNumber() && !tracing())
    return dtype.isFloat() ? Value::floating(v.getFloat())
                           : Value::integer(int64_t(v.getFloat()));
  if (!tracing())
    return heap.opaque("cast");
  mlir::Type want = ir->valueType(dtype);
  mlir::Type f32 = ir->b.getF32Type();
  // Unpacked 4/6-bit float codes convert through float32 (decoded from
  // and encoded into the byte's low bits, UnpackedFloats.cpp).
  mlir::Type hint =
      dtype.isUnpackedFloat() ? f32 : mlir::getElementTypeOrSelf(want);
  Scalar s = toScalar(v, at, hint);
  if (!s)
    return Value::poison();
  if (s.dtype == dtype && dtype.isUnpackedFloat())
    return wrapScalar(s);
  if ((s.dtype.isUnpackedFloat() || dtype.isUnpackedFloat()) &&
      (s.dtype.isVector() || dtype.isVector()))
    return fail(at, "cannot cast " + s.dtype.getName() + " to " +
                        dtype.getName() +
                        " (unpacked float codes are scalars)");
  if (s.dtype.isUnpackedFloat()) {
    s.value = decodeUnpackedFloat(*ir, s.value, s.dtype, ir->loc(at));
    s.dtype = lang::DType(lang::ScalarType::Float32);
    s.sym = SymExpr();
  }
  if (dtype.isUnpackedFloat()) {
    mlir::Value x = ir->convert(s.value, f32, ir->loc(at),
                                s.dtype.isUnsignedInteger());
    return wrapScalar(
        {encodeUnpackedFloat(*ir, x, dtype, ir->loc(at)), dtype, SymExpr()});
  }
  // Vectors convert lane by lane; a scalar cast to a vector type is in
  // every lane (TVM's cast); other lane counts do not convert.
  auto vt = mlir::dyn_cast<mlir::VectorType>(want);
  auto from = mlir::dyn_cast<mlir::VectorType>(s.value.getType());
  if (from && (!vt || vt.getNumElements() != from.getNumElements()))
    return fail(at, "cannot cast " + s.dtype.getName() + " to " +
                        dtype.getName() + " (a different number of lanes)");
  if (vt && !from) {
    mlir::Type elem = vt.getElementType();
    mlir::Value x = ir->convert(s.value, elem, ir->loc(at),
                                s.dtype.isUnsignedInteger());
    auto op = tile::IntrinsicOp::create(
        ir->b, ir->loc(at), mlir::TypeRange{want},
        ir->b.getStringAttr("T.Broadcast"), mlir::ValueRange{x},
        ir->b.getStrArrayAttr({"value"}), mlir::DictionaryAttr());
    return wrapScalar({op->getResult(0), dtype, SymExpr()});
  }
  mlir::Value r = ir->convert(s.value, want, ir->loc(at),
                              s.dtype.isUnsignedInteger());
  return wrapScalar({r, dtype, from ? SymExpr() : s.sym});
}
