//===- Transpose.cpp - T.transpose ------------------------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.transpose(src, dst)`: dst[..., j, i] = src[..., i, j], the last two
// axes swapped and any leading axes kept (TileLang's rule: dst's shape is
// src's with its final two extents exchanged). The operands are buffers or
// regions of any scope; the copy is built as a T.Parallel over dst's
// elements, which every target generates (the elements spread over the
// block's threads), with the value converted to dst's dtype as T.copy
// converts it.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tlc;
using namespace tlc::eval;

Value eval::tileTranspose(Interpreter &in, const PArgs &p) {
  if (in.checkInKernel("T.transpose", p.call) ||
      in.checkNotInParallel("T.transpose", p.call))
    return Value::poison();
  Value srcV = p.getOr("src", Value::poison());
  Value dstV = p.getOr("dst", Value::poison());
  if (srcV.isAbrupt() || dstV.isAbrupt())
    return Value::poison();
  RegionObj *s = in.asRegion(srcV, p.node("src"));
  RegionObj *d = in.asRegion(dstV, p.node("dst"));
  if (!s || !d)
    return in.fail(p.call, "T.transpose expects a buffer or region as src "
                           "and as dst");
  size_t rank = s->extents.size();
  auto shapeOf = [&](const RegionObj *r) {
    std::string out = "(";
    for (size_t i = 0; i < r->extents.size(); ++i)
      out += (i ? ", " : "") + r->extents[i].str();
    return out + (r->extents.size() == 1 ? ",)" : ")");
  };
  if (rank < 2)
    return in.fail(p.node("src"), "T.transpose needs a source of rank 2 or "
                                  "more, not " +
                                      shapeOf(s));
  bool ok = d->extents.size() == rank;
  for (size_t i = 0; ok && i + 2 < rank; ++i)
    ok = d->extents[i] == s->extents[i];
  ok = ok && d->extents[rank - 2] == s->extents[rank - 1] &&
       d->extents[rank - 1] == s->extents[rank - 2];
  if (!ok)
    return in.fail(p.node("dst"),
                   "T.transpose: dst's shape " + shapeOf(d) +
                       " is not src's " + shapeOf(s) +
                       " with its last two extents swapped");
  if (!in.usable(s->buffer) || !in.usable(d->buffer))
    return Value::poison();

  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  auto startsOf = [&](RegionObj *r, Node at,
                      llvm::SmallVectorImpl<mlir::Value> &out) {
    for (Value st : r->starts) {
      mlir::Value iv = in.toIndex(st, at);
      if (!iv)
        return false;
      out.push_back(iv);
    }
    return true;
  };
  llvm::SmallVector<mlir::Value, 4> s0, d0;
  if (!startsOf(s, p.node("src"), s0) || !startsOf(d, p.node("dst"), d0))
    return Value::poison();
  llvm::SmallVector<mlir::OpFoldResult, 4> ext;
  for (SymExpr e : d->extents)
    ext.push_back(in.ir->foldResult(e, l));
  mlir::OpBuilder::InsertionGuard guard(B);
  auto par = tile::ParallelOp::create(B, l, ext);
  B.setInsertionPointToEnd(&par.getBody().front());
  mlir::ValueRange iv = par.getInductionVars();
  // dst[..., a, b] = src[..., b, a].
  llvm::SmallVector<mlir::Value, 4> si, di;
  for (size_t k = 0; k < rank; ++k) {
    size_t from = k + 2 < rank ? k : (k == rank - 2 ? rank - 1 : rank - 2);
    di.push_back(mlir::arith::AddIOp::create(B, l, d0[k], iv[k]));
    si.push_back(mlir::arith::AddIOp::create(B, l, s0[k], iv[from]));
  }
  mlir::Value x = tile::LoadOp::create(
      B, l, in.ir->valueType(s->buffer->dtype), s->buffer->value, si);
  tile::StoreOp::create(
      B, l, in.ir->convert(x, in.ir->valueType(d->buffer->dtype), l),
      d->buffer->value, di);
  return Value::none();
}
