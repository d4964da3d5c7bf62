//===- AtomicMinMax.cpp - Tile forms of T.atomic_max / T.atomic_min ------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.atomic_max(dst, src)` / `T.atomic_min` with a buffer or region as the
// value (TileLang's tile form, testing/python/cpu's atomic test): element
// by element, dst[i] = max(dst[i], src[i]) atomically, over a T.Parallel of
// dst's extents, so the elements spread over the block's threads as the
// tile form of T.atomic_add does; each element of a shared or global dst
// is the scalar form of the same builtin (one tile.intrinsic every target
// builds). A thread's own local dst is updated whole in each thread, by
// serial loops and a plain read-modify-write. The shapes must agree;
// return_prev needs an element destination.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tlc;
using namespace tlc::eval;

std::optional<Value> eval::tileAtomicMinMax(Interpreter &in, const PArgs &p) {
  Value dstV = p.getOr("dst", Value::none());
  Value valV = p.getOr("value", Value::none());
  bool tileValue =
      (valV.is(ValueKind::Buffer) &&
       valV.as<BufferObj>()->scope != lang::MemoryScope::LocalVar) ||
      (valV.is(ValueKind::Region) && !valV.as<RegionObj>()->isElement);
  if (!tileValue || !in.tracing())
    return std::nullopt;
  llvm::StringRef name = p.info.name;
  if (in.checkInKernel(name, p.call) || in.checkNotInParallel(name, p.call))
    return Value::poison();
  if (p.flag("return_prev", false))
    return in.fail(p.node("dst"), name + " with return_prev needs an element "
                                         "destination such as C[i, j]");
  RegionObj *d = in.asRegion(dstV, p.node("dst"));
  RegionObj *s = in.asRegion(valV, p.node("value"));
  if (!d || !s)
    return in.fail(p.call, name + " expects a buffer or region as dst");
  if (d->isElement || d->extents != s->extents)
    return in.fail(p.call, name + " between regions of different shapes");
  if (!in.usable(d->buffer) || !in.usable(s->buffer))
    return Value::poison();

  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  llvm::SmallVector<mlir::OpFoldResult, 4> ext;
  for (SymExpr e : d->extents) {
    if (!e)
      return in.fail(p.call, name + ": the extents must be known when the "
                                    "kernel is built");
    ext.push_back(in.ir->foldResult(e, l));
  }
  mlir::OpBuilder::InsertionGuard guard(B);
  llvm::SmallVector<mlir::Value, 4> ivs;
  if (d->buffer->scope == lang::MemoryScope::Local) {
    // A thread's own buffer: each thread updates all of its copy (nested
    // serial loops), as a T.Parallel would give each only a share.
    for (mlir::OpFoldResult e : ext) {
      mlir::Value ub = mlir::isa<mlir::Value>(e)
                           ? mlir::cast<mlir::Value>(e)
                           : in.ir->constIndex(
                                 mlir::cast<mlir::IntegerAttr>(
                                     mlir::cast<mlir::Attribute>(e))
                                     .getInt(),
                                 l);
      auto loop = tile::ForOp::create(B, l, in.ir->constIndex(0, l), ub,
                                      in.ir->constIndex(1, l));
      B.setInsertionPointToEnd(&loop.getBody().front());
      ivs.push_back(loop.getInductionVar());
    }
  } else {
    auto par = tile::ParallelOp::create(B, l, ext);
    B.setInsertionPointToEnd(&par.getBody().front());
    ivs.append(par.getInductionVars().begin(), par.getInductionVars().end());
  }
  bool isMax = p.info.id == lang::BuiltinId::AtomicMax;
  if (d->buffer->scope == lang::MemoryScope::Local) {
    // No other thread sees the copy: a plain read-modify-write with T.max /
    // T.min's semantics.
    llvm::SmallVector<mlir::Value, 4> dIdx, sIdx;
    for (auto [k, iv] : llvm::enumerate(ivs)) {
      mlir::Value ds = in.toIndex(d->starts[k], p.node("dst"));
      mlir::Value ss = in.toIndex(s->starts[k], p.node("value"));
      if (!ds || !ss)
        return Value::poison();
      dIdx.push_back(mlir::arith::AddIOp::create(B, l, ds, iv));
      sIdx.push_back(mlir::arith::AddIOp::create(B, l, ss, iv));
    }
    mlir::Type want = in.ir->valueType(d->buffer->dtype);
    mlir::Value dv = tile::LoadOp::create(B, l, want, d->buffer->value, dIdx);
    mlir::Value sv = tile::LoadOp::create(
        B, l, in.ir->valueType(s->buffer->dtype), s->buffer->value, sIdx);
    Value m = in.minMax(in.wrapScalar({dv, d->buffer->dtype, SymExpr()}),
                        in.wrapScalar({sv, s->buffer->dtype, SymExpr()}),
                        isMax, p.call);
    Scalar ms = in.toScalar(m, p.call, want);
    if (!ms)
      return Value::poison();
    tile::StoreOp::create(B, l, in.ir->convert(ms.value, want, l),
                          d->buffer->value, dIdx);
    return Value::none();
  }
  // The element of each side at the loop's indices (start + i, dimension
  // by dimension), as `dst[...]` / `src[...]` subscripts, each the scalar
  // (atomic) form of the builtin.
  llvm::SmallVector<Value, 4> di, si;
  for (auto [k, iv] : llvm::enumerate(ivs)) {
    SymExpr sym = in.syms.freshSymbol("i");
    in.ir->bindSymbol(sym, iv);
    Value var = in.wrapScalar({iv, lang::DType(lang::ScalarType::Int32), sym});
    di.push_back(in.binary(syntax::BinaryOp::Add, d->starts[k], var, p.call));
    si.push_back(in.binary(syntax::BinaryOp::Add, s->starts[k], var, p.call));
  }
  Value de = in.subscript(Value::object(ValueKind::Buffer, d->buffer),
                          in.heap.tuple(di), p.node("dst"));
  Value se = in.subscript(Value::object(ValueKind::Buffer, s->buffer),
                          in.heap.tuple(si), p.node("value"));
  if (de.isAbrupt() || se.isAbrupt())
    return Value::poison();
  CallArgs args;
  args.pos = {de, se};
  args.posNodes = {p.node("dst"), p.node("value")};
  if (std::optional<Value> order = p.get("memory_order")) {
    args.kw.push_back({"memory_order", *order});
    args.kwNodes.push_back(p.node("memory_order"));
  }
  Value r = in.callPrimitive(p.info, args, p.call);
  return r.isAbrupt() ? r : Value::none();
}
