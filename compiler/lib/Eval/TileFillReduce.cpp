//===- TileFillReduce.cpp - T.fill, T.clear, reductions, T.cumsum ---------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.fill` / `T.clear` (with the element loop for run-time extents and the
// reducer-buffer rules), the tile reductions `T.reduce_*` and `T.cumsum`:
// checked, then built as tile ops.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"
#include "RuntimeExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace tlc;
using namespace tlc::eval;
using lang::MemoryScope;

static Value fillRuntimeExtents(Interpreter &in, const PArgs &p, RegionObj *r,
                                bool clear) {
  const char *what = clear ? "T.clear" : "T.fill";
  if (!in.usable(r->buffer))
    return Value::poison();
  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  mlir::Type want = in.ir->valueType(r->buffer->dtype);
  mlir::Value v;
  if (clear) {
    v = mlir::arith::ConstantOp::create(
        B, l, mlir::cast<mlir::TypedAttr>(B.getZeroAttr(want)));
  } else {
    Scalar s =
        in.toScalar(p.getOr("value", Value::poison()), p.node("value"), want);
    if (!s)
      return Value::poison();
    v = in.ir->convert(s.value, want, l, s.dtype.isUnsignedInteger());
  }
  // A copy: the table behind regionRuntimeExtents may grow (and move)
  // while the starts below are evaluated.
  llvm::SmallVector<mlir::Value, 4> sizes = regionRuntimeExtents(r);
  llvm::SmallVector<mlir::Value, 4> starts;
  llvm::SmallVector<mlir::OpFoldResult, 4> ext;
  for (auto [d, e] : llvm::enumerate(r->extents)) {
    mlir::Value start = in.toIndex(r->starts[d], p.node("buffer"));
    if (!start)
      return Value::poison();
    starts.push_back(start);
    if (!e) {
      if (d >= sizes.size() || !sizes[d])
        return in.fail(p.node("buffer"),
                       llvm::Twine(what) + ": the extent of dimension " +
                           llvm::Twine(d) + " of '" + r->buffer->name +
                           "' is not known when the kernel runs");
      ext.push_back(sizes[d]);
    } else {
      ext.push_back(in.ir->foldResult(e, l));
    }
  }
  mlir::OpBuilder::InsertionGuard guard(B);
  auto par = tile::ParallelOp::create(B, l, ext);
  B.setInsertionPointToEnd(&par.getBody().front());
  llvm::SmallVector<mlir::Value, 4> idx;
  for (auto [d, iv] : llvm::enumerate(par.getInductionVars())) {
    mlir::Value step = r->getStep(d) == 1
                           ? iv
                           : mlir::arith::MulIOp::create(
                                 B, l, iv, in.ir->constIndex(r->getStep(d), l))
                                 .getResult();
    idx.push_back(mlir::arith::AddIOp::create(B, l, starts[d], step));
  }
  tile::StoreOp::create(B, l, v, r->buffer->value, idx);
  return Value::none();
}

Value eval::tileFill(Interpreter &in, const PArgs &p, bool clear) {
  Value bufV = p.getOr("buffer", Value::poison());
  if (bufV.isAbrupt())
    return bufV;
  const char *what = clear ? "T.clear" : "T.fill";
  if (in.checkInKernel(what, p.call))
    return Value::poison();
  RegionObj *r = in.asRegion(bufV, p.node("buffer"));
  if (!r)
    return in.fail(p.node("buffer"), llvm::Twine(what) +
                                         " expects a buffer or region, not '" +
                                         bufV.getTypeName() + "'");
  // A thread's own buffer (local, var) may be filled inside T.Parallel:
  // each iteration fills its thread's copy.
  bool perThread = r->buffer->scope == MemoryScope::Local ||
                   r->buffer->scope == MemoryScope::LocalVar;
  if (!r->isElement && !perThread && in.checkNotInParallel(what, p.call))
    return Value::poison();
  if (r->isElement) {
    auto *copy = in.heap.make<RegionObj>(*r);
    forgetRuntimeExtents(copy);
    copy->isElement = false;
    r = copy;
  }
  if (llvm::any_of(r->extents, [](SymExpr e) { return !e; }))
    return fillRuntimeExtents(in, p, r, clear);
  mlir::Value target = in.regionValue(r, p.node("buffer"));
  if (!target)
    return Value::poison();
  mlir::Location l = in.ir->loc(p.call);
  if (clear) {
    tile::ClearOp::create(in.ir->b, l, target);
    return Value::none();
  }
  mlir::Type want = in.ir->valueType(r->buffer->dtype);
  Scalar s =
      in.toScalar(p.getOr("value", Value::poison()), p.node("value"), want);
  if (!s)
    return Value::poison();
  mlir::Value v = in.ir->convert(s.value, want, l, s.dtype.isUnsignedInteger());
  // TileLang fills a reducer's partial in every thread (its legacy form;
  // the epoch form rejects T.fill): a sum or bitxor reducer must be filled
  // with 0, or the value would count once per thread.
  if (r->buffer->scope == MemoryScope::Reducer) {
    llvm::StringRef kind = "sum";
    if (mlir::Operation *def = r->buffer->value.getDefiningOp())
      if (auto k = def->getAttrOfType<mlir::StringAttr>("reducer"))
        kind = k.getValue();
    mlir::Attribute c;
    bool zero = false;
    if (mlir::matchPattern(v, mlir::m_Constant(&c))) {
      if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(c))
        zero = i.getValue().isZero();
      else if (auto f = llvm::dyn_cast<mlir::FloatAttr>(c))
        zero = f.getValue().isZero();
    }
    if ((kind == "sum" || kind == "bitxor") && !zero)
      return in.fail(p.node("value"),
                     "T.fill: a '" + kind +
                         "' reducer must be filled with 0 (every thread's "
                         "partial takes the value, so it would count once "
                         "per thread); give an initial value to "
                         "T.reducer_init(reducer, init)");
  }
  tile::FillOp::create(in.ir->b, l, target, v);
  return Value::none();
}

Value eval::tileReduce(Interpreter &in, const PArgs &p, tile::ReduceKind kind) {
  if (in.checkInKernel(p.info.name, p.call) ||
      in.checkNotInParallel(p.info.name, p.call))
    return Value::poison();
  Value srcV = p.getOr("buffer", Value::poison());
  Value dstV = p.getOr("out", Value::poison());
  if (srcV.isAbrupt() || dstV.isAbrupt())
    return Value::poison();
  RegionObj *s = in.asRegion(srcV, p.node("buffer"));
  RegionObj *d = in.asRegion(dstV, p.node("out"));
  if (!s || !d)
    return in.fail(p.call, p.info.name + " expects buffers");
  bool bitwise = kind == tile::ReduceKind::BitAnd ||
                 kind == tile::ReduceKind::BitOr ||
                 kind == tile::ReduceKind::BitXor;
  if (bitwise && s->buffer && !s->buffer->dtype.isInteger() &&
      !s->buffer->dtype.isBool())
    return in.fail(p.node("buffer"),
                   p.info.name + " requires an integer or bool buffer, got " +
                       s->buffer->dtype.getName());
  int64_t rank = s->extents.size();
  Value dimV = p.getOr("dim", Value::integer(-1));
  if (!dimV.isIntLike())
    return in.fail(p.node("dim"), "dim must be an integer");
  int64_t dim = dimV.getInt();
  if (dim < 0)
    dim += rank;
  if (dim < 0 || dim >= rank)
    return in.fail(p.node("dim"), "dim " + llvm::Twine(dimV.getInt()) +
                                      " is out of range for a " +
                                      llvm::Twine(rank) + "-D buffer");
  llvm::SmallVector<SymExpr, 4> expect;
  for (int64_t i = 0; i < rank; ++i)
    if (i != dim)
      expect.push_back(s->extents[i]);
  auto *e = in.heap.make<RegionObj>();
  forgetRuntimeExtents(e);
  e->extents = expect;
  RegionObj withUnit = *e;
  if (!shapesAgree(in, e, d))
    return in.fail(p.call,
                   p.info.name + ": output shape " + shapeStr(d->extents) +
                       " does not match input shape " + shapeStr(s->extents) +
                       " reduced along dim " + llvm::Twine(dim));
  mlir::Value sv = in.regionValue(s, p.node("buffer"));
  mlir::Value dv = in.regionValue(d, p.node("out"));
  if (!sv || !dv)
    return Value::poison();
  bool clear = p.info.findParam("clear") >= 0 ? p.flag("clear", true) : true;
  auto &B = in.ir->b;
  tile::ReduceOp::create(B, in.ir->loc(p.call),
                         tile::ReduceKindAttr::get(B.getContext(), kind), sv,
                         dv, B.getI64IntegerAttr(dim),
                         clear ? B.getUnitAttr() : mlir::UnitAttr());
  return Value::none();
}

Value eval::tileCumsum(Interpreter &in, const PArgs &p) {
  if (in.checkInKernel("T.cumsum", p.call) ||
      in.checkNotInParallel("T.cumsum", p.call))
    return Value::poison();
  Value srcV = p.getOr("src", Value::poison());
  Value dstV = p.getOr("dst", Value::none());
  if (dstV.isNone())
    dstV = srcV;
  RegionObj *s = in.asRegion(srcV, p.node("src"));
  RegionObj *d = in.asRegion(dstV, p.node("dst"));
  if (!s || !d)
    return srcV.isAbrupt() ? srcV : in.fail(p.call, "T.cumsum expects buffers");
  if (!shapesAgree(in, s, d))
    return in.fail(p.call, "T.cumsum between buffers of different shapes: " +
                               shapeStr(s->extents) + " and " +
                               shapeStr(d->extents));
  if (!in.usable(s->buffer) || !in.usable(d->buffer))
    return Value::poison();
  int64_t rank = s->extents.size();
  Value dimV = p.getOr("dim", Value::integer(0));
  int64_t dim = dimV.isIntLike() ? dimV.getInt() : 0;
  if (dim < 0)
    dim += rank;
  if (dim < 0 || dim >= rank)
    return in.fail(p.node("dim"), "dim is out of range");
  auto &B = in.ir->b;
  tile::CumSumOp::create(
      B, in.ir->loc(p.call), in.regionValue(s, p.node("src")),
      in.regionValue(d, p.node("dst")), B.getI64IntegerAttr(dim),
      p.flag("reverse", false) ? B.getUnitAttr() : mlir::UnitAttr());
  return Value::none();
}

/// T.atomic_addx2 / T.atomic_addx4: `width` adjacent elements along the
/// innermost dimension, dst[..., j + e] += value[..., c + e] for each e
/// (TileLang passes both as addresses, so \p val is an element of a buffer,
