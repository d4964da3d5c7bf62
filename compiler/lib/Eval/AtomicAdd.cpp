//===- AtomicAdd.cpp - T.atomic_add and its vector forms ------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.atomic_add` of a scalar or a tile (with its memory order and
// return_prev), and `T.atomic_addx2` / `T.atomic_addx4`.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"
#include "RuntimeExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tlc;
using namespace tlc::eval;
using lang::MemoryScope;

/// the packed instruction, which is atomic per element too.
static Value atomicAddVector(Interpreter &in, const PArgs &p, RegionObj *d,
                             llvm::ArrayRef<mlir::Value> idx, Value val,
                             int width) {
  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  std::string name = "T.atomic_addx" + std::to_string(width);
  if (!val.is(ValueKind::Region) || !val.as<RegionObj>()->isElement)
    return in.fail(p.node("value"),
                   name + " adds " + std::to_string(width) +
                       " adjacent elements: its value must be a buffer "
                       "element such as S[i, 2 * j], not a scalar");
  if (p.flag("return_prev", false))
    return in.fail(p.call, name + "(..., return_prev=True) is not supported: "
                                  "it returns a vector");
  RegionObj *v = val.as<RegionObj>();
  if (!in.usable(v->buffer) || idx.empty() || v->starts.empty())
    return Value::poison();
  llvm::SmallVector<mlir::Value, 4> vidx;
  for (Value s : v->starts) {
    mlir::Value iv = in.toIndex(s, p.node("value"));
    if (!iv)
      return Value::poison();
    vidx.push_back(iv);
  }
  mlir::Type want = in.ir->valueType(d->buffer->dtype);
  for (int e = 0; e < width; ++e) {
    llvm::SmallVector<mlir::Value, 4> di(idx), si(vidx);
    if (e) {
      mlir::Value off = in.ir->constInt(e, B.getIndexType(), l);
      di.back() = mlir::arith::AddIOp::create(B, l, di.back(), off);
      si.back() = mlir::arith::AddIOp::create(B, l, si.back(), off);
    }
    mlir::Value x = tile::LoadOp::create(
        B, l, in.ir->valueType(v->buffer->dtype), v->buffer->value, si);
    tile::AtomicAddOp::create(B, l, mlir::Type(), d->buffer->value, di,
                              in.ir->convert(x, want, l),
                              tile::MemoryOrderAttr());
  }
  return Value::none();
}

/// The memory_order argument of T.atomic_add as an attribute: null when it
/// is None or absent (a relaxed add), failure (reported as TileLang's
/// ValueError) when it names no C++ memory order.
static mlir::FailureOr<tile::MemoryOrderAttr> atomicOrder(Interpreter &in,
                                                          const PArgs &p) {
  std::optional<Value> v = p.get("memory_order");
  if (!v || v->isNone())
    return tile::MemoryOrderAttr();
  std::optional<tile::MemoryOrder> order;
  if (v->is(ValueKind::Str))
    order = tile::symbolizeMemoryOrder(getStr(*v));
  if (!order) {
    in.errorAs("ValueError", p.node("memory_order").range(),
               "T.atomic_add: memory_order must be one of 'relaxed', "
               "'consume', 'acquire', 'release', 'acq_rel', 'seq_cst' or "
               "None");
    return mlir::failure();
  }
  return tile::MemoryOrderAttr::get(in.ir->b.getContext(), *order);
}

Value eval::tileAtomicAdd(Interpreter &in, const PArgs &p, int width) {
  if (in.checkInKernel("T.atomic_add", p.call))
    return Value::poison();
  mlir::FailureOr<tile::MemoryOrderAttr> order = atomicOrder(in, p);
  if (mlir::failed(order))
    return Value::poison();
  Value dstV = p.getOr("dst", Value::poison());
  Value val = p.getOr("value", Value::poison());
  if (dstV.isAbrupt() || val.isAbrupt())
    return Value::poison();
  RegionObj *d = in.asRegion(dstV, p.node("dst"));
  if (!d)
    return in.fail(p.node("dst"), "T.atomic_add destination must be a buffer "
                                  "element or region");
  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  bool tileForm =
      (val.is(ValueKind::Buffer) &&
       val.as<BufferObj>()->scope != MemoryScope::LocalVar) ||
      (val.is(ValueKind::Region) && !val.as<RegionObj>()->isElement);
  if (tileForm) {
    if (in.checkNotInParallel("T.atomic_add of a tile", p.call))
      return Value::poison();
    RegionObj *s = in.asRegion(val, p.node("value"));
    if (d->isElement)
      d = inferExtents(in, d, s);
    if (!d || !shapesAgree(in, s, d))
      return in.fail(p.call, "T.atomic_add between regions of different "
                             "shapes");
    if (!in.usable(d->buffer) || !in.usable(s->buffer))
      return Value::poison();
    auto add = tile::AtomicAddOp::create(
        B, l, mlir::Type(), in.regionValue(d, p.node("dst")),
        mlir::ValueRange(), in.regionValue(s, p.node("value")), *order);
    // use_tma=True: the CUDA target adds with the copy engine's bulk
    // reduction where it can (CUDAEmitterAtomicAdd.cpp).
    if (p.flag("use_tma", false))
      add->setAttr("tile.use_tma", B.getUnitAttr());
    return Value::none();
  }
  if (!d->isElement && (width > 1 || p.flag("return_prev", false)))
    return in.fail(p.node("dst"),
                   width > 1 ? "T.atomic_addx" + llvm::Twine(width) +
                                   " of a scalar needs an element "
                                   "destination such as C[i, j]"
                             : llvm::Twine("T.atomic_add with return_prev "
                                           "needs an element destination "
                                           "such as C[i, j]"));
  if (!in.usable(d->buffer))
    return Value::poison();
  if (!d->isElement) {
    // T.atomic_add(region, value): the scalar is added to every element of
    // the region, the elements spread over the block's threads as a
    // T.Parallel spreads them (TileLang's tile form with a value source).
    if (in.checkNotInParallel("T.atomic_add of a region", p.call))
      return Value::poison();
    mlir::Type want = in.ir->valueType(d->buffer->dtype);
    Scalar s = in.toScalar(val, p.node("value"), want);
    if (!s)
      return Value::poison();
    mlir::Value v = in.ir->convert(s.value, want, l);
    llvm::SmallVector<mlir::Value, 4> starts;
    for (Value st : d->starts) {
      mlir::Value iv = in.toIndex(st, p.node("dst"));
      if (!iv)
        return Value::poison();
      starts.push_back(iv);
    }
    llvm::SmallVector<mlir::OpFoldResult, 4> ext;
    for (SymExpr e : d->extents)
      ext.push_back(in.ir->foldResult(e, l));
    mlir::OpBuilder::InsertionGuard guard(B);
    auto par = tile::ParallelOp::create(B, l, ext);
    B.setInsertionPointToEnd(&par.getBody().front());
    llvm::SmallVector<mlir::Value, 4> idx;
    for (auto [start, iv] : llvm::zip(starts, par.getInductionVars()))
      idx.push_back(mlir::arith::AddIOp::create(B, l, start, iv));
    tile::AtomicAddOp::create(B, l, mlir::Type(), d->buffer->value, idx, v,
                              *order);
    return Value::none();
  }
  llvm::SmallVector<mlir::Value, 4> idx;
  for (Value s : d->starts) {
    mlir::Value iv = in.toIndex(s, p.node("dst"));
    if (!iv)
      return Value::poison();
    idx.push_back(iv);
  }
  mlir::Type want = in.ir->valueType(d->buffer->dtype);
  if (width > 1)
    return atomicAddVector(in, p, d, idx, val, width);
  Scalar s = in.toScalar(val, p.node("value"), want);
  if (!s)
    return Value::poison();
  mlir::Value v = in.ir->convert(s.value, want, l);
  bool prev = p.flag("return_prev", false);
  auto op = tile::AtomicAddOp::create(B, l, prev ? want : mlir::Type(),
                                      d->buffer->value, idx, v, *order);
  if (prev)
    return in.wrapScalar({op.getPrev(), d->buffer->dtype, SymExpr()});
  return Value::none();
}
