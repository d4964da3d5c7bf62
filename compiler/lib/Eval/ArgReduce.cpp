//===- ArgReduce.cpp - T.reduce_argmax / T.reduce_argmin ------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.reduce_argmax(buffer, out, dim=-1)` and `T.reduce_argmin`: the index
// along `dim` of the largest (smallest) element of a fragment or shared
// tile, into an int32 or int64 fragment or shared tile whose shape is the
// input's without `dim` (or with extent 1 there). TileLang's rules:
//
// * the first index wins on equal values (+0.0 and -0.0 are equal);
// * when a row holds a NaN, the index of its first NaN is the result;
// * the extent along `dim` is a positive constant the index type holds.
//
// The operation is built here from tile operations every target generates,
// as TileLang expands it (two reductions in the same kernel, no new kernel
// or global memory):
//
//   1. values  = reduce max/min of the input along dim (a fragment; a
//      shared input is first copied into one, and one whose extent is not
//      a power of two, which the targets' thread reductions need, is
//      padded to the next with the reduction's identity);
//   2. candidate[..., j, ...] = j - extent  where the element is NaN,
//                               j           where it equals its row's value,
//                               extent      otherwise and in the padding;
//   3. indices = reduce min of the candidates along dim;
//   4. out = indices, with extent added back to a negative (NaN) one.
//
// The smallest candidate is the first NaN when there is one (NaN
// candidates are negative), the first index of the extreme value
// otherwise; a row without NaN never compares a NaN, so how the value
// reduction treats NaN does not matter.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace tlc;
using namespace tlc::eval;
using lang::DType;
using lang::MemoryScope;
using lang::ScalarType;

/// Input element types TileLang's arg reductions accept.
static bool isArgReduceInput(DType t) {
  if (t.isVector())
    return false;
  switch (t.getScalarType()) {
  case ScalarType::Float16:
  case ScalarType::BFloat16:
  case ScalarType::Float32:
  case ScalarType::Float64:
  case ScalarType::Int8:
  case ScalarType::Int16:
  case ScalarType::Int32:
  case ScalarType::Int64:
  case ScalarType::UInt8:
  case ScalarType::UInt16:
  case ScalarType::UInt32:
  case ScalarType::UInt64:
    return true;
  default:
    return false;
  }
}

static std::string shapeString(llvm::ArrayRef<SymExpr> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + (shape[i] ? shape[i].str() : std::string("?"));
  return s + "]";
}

/// True when \p a and \p b have the same rank and no extent pair is known
/// to differ.
static bool sameShape(Interpreter &in, llvm::ArrayRef<SymExpr> a,
                      llvm::ArrayRef<SymExpr> b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] && b[i] && in.syms.equal(a[i], b[i]) == false)
      return false;
  return true;
}

namespace {
/// Builds the expansion of one arg reduction.
struct ArgReduceBuilder {
  Interpreter &in;
  mlir::Location l;
  Node at;

  mlir::OpBuilder &b() { return in.ir->b; }

  /// A fragment temporary named \p name (for the generated code).
  mlir::Value fragment(llvm::StringRef name, llvm::ArrayRef<SymExpr> shape,
                       DType dtype) {
    tile::BufferType ty = in.ir->bufferType(shape, dtype, MemoryScope::Fragment);
    return tile::AllocOp::create(b(), in.ir->nameLoc(name, at.range()), ty,
                                 mlir::Value());
  }

  /// A tile.parallel over \p shape; the builder moves into its body (the
  /// caller restores it).
  tile::ParallelOp parallel(llvm::ArrayRef<SymExpr> shape) {
    llvm::SmallVector<mlir::OpFoldResult, 4> ext;
    for (SymExpr e : shape)
      ext.push_back(in.ir->foldResult(e, l));
    auto par = tile::ParallelOp::create(b(), l, ext);
    b().setInsertionPointToEnd(&par.getBody().front());
    return par;
  }
};
} // namespace

Value eval::tileArgReduce(Interpreter &in, const PArgs &p, bool isMax) {
  llvm::StringRef name = p.info.name;
  if (in.checkInKernel(name, p.call) || in.checkNotInParallel(name, p.call))
    return Value::poison();
  Value srcV = p.getOr("buffer", Value::poison());
  Value dstV = p.getOr("out", Value::poison());
  if (srcV.isAbrupt() || dstV.isAbrupt())
    return Value::poison();
  for (auto [v, param] : {std::pair(srcV, "buffer"), std::pair(dstV, "out")})
    if (!v.is(ValueKind::Buffer))
      return in.fail(p.node(param),
                     name + " expects input and output buffers, not '" +
                         v.getTypeName() + "'");
  BufferObj *src = srcV.as<BufferObj>(), *dst = dstV.as<BufferObj>();
  if (!in.usable(src) || !in.usable(dst))
    return Value::poison();

  // dim: a Python integer in [-rank, rank).
  int64_t rank = src->shape.size();
  Value dimV = p.getOr("dim", Value::integer(-1));
  if (!dimV.isIntLike() || dimV.isBool())
    return in.fail(p.node("dim"), name + " dim must be an integer, not '" +
                                      dimV.getTypeName() + "'");
  int64_t dim = dimV.getInt();
  if (dim < -rank || dim >= rank)
    return in.fail(p.node("dim"), name + " dim " + llvm::Twine(dim) +
                                      " is out of bounds for input rank " +
                                      llvm::Twine(rank));
  if (dim < 0)
    dim += rank;

  // Element types and scopes.
  DType index = dst->dtype;
  if (index != DType(ScalarType::Int32) && index != DType(ScalarType::Int64))
    return in.fail(p.node("out"), name + " output dtype must be int32 or "
                                         "int64, not " +
                                         index.getName());
  if (!isArgReduceInput(src->dtype))
    return in.fail(p.node("buffer"),
                   name + " does not support input dtype " +
                       src->dtype.getName() +
                       " (a float16, bfloat16, float32, float64 or 8- to "
                       "64-bit integer tile)");
  for (auto [buf, param] : {std::pair(src, "buffer"), std::pair(dst, "out")})
    if (!lang::isFragmentScope(buf->scope) && !lang::isSharedScope(buf->scope))
      return in.fail(p.node(param),
                     name + " expects fragment or shared buffers, but '" +
                         buf->name + "' is in " +
                         lang::getScopeString(buf->scope));

  // The reduced extent: a positive constant the index type can hold.
  std::optional<int64_t> extent =
      src->shape[dim] ? src->shape[dim].getConstant() : std::nullopt;
  if (!extent || *extent <= 0)
    return in.fail(p.node("buffer"),
                   name + " requires a positive constant reduction extent, "
                          "but dimension " +
                       llvm::Twine(dim) + " of '" + src->name + "' is " +
                       (src->shape[dim] ? src->shape[dim].str() : "?"));
  int64_t limit = index.getBits() == 32 ? INT32_MAX : INT64_MAX;
  if (*extent > limit)
    return in.fail(p.node("out"),
                   name + " reduction extent " + llvm::Twine(*extent) +
                       " cannot be represented by output dtype " +
                       index.getName());

  // The output drops dim or keeps it with extent 1.
  llvm::SmallVector<SymExpr, 4> squeezed, kept(src->shape);
  for (int64_t i = 0; i < rank; ++i)
    if (i != dim)
      squeezed.push_back(src->shape[i]);
  kept[dim] = in.syms.constant(1);
  bool keepDim = sameShape(in, dst->shape, kept);
  if (!keepDim && !sameShape(in, dst->shape, squeezed))
    return in.fail(p.node("out"), name + " output shape must be " +
                                      shapeString(squeezed) + " or " +
                                      shapeString(kept) + ", not " +
                                      shapeString(dst->shape));

  ArgReduceBuilder gen{in, in.ir->loc(p.call), p.call};
  mlir::Location l = gen.l;
  mlir::OpBuilder &B = gen.b();
  std::string tag = isMax ? "argmax" : "argmin";

  // 1. The extreme value of every row, from a fragment whose reduced
  // extent is a power of two (what the targets' thread reductions
  // combine): a shared or non-power-of-two input is first copied into one,
  // padded with the reduction's identity.
  int64_t padded = llvm::PowerOf2Ceil(*extent);
  llvm::SmallVector<SymExpr, 4> work(src->shape);
  work[dim] = in.syms.constant(padded);
  mlir::Type valueTy = in.ir->valueType(src->dtype);
  bool isFloat = !src->dtype.isInteger();
  mlir::Value input = src->value;
  if (padded != *extent) {
    input = gen.fragment(tag + "_input", work, src->dtype);
    mlir::OpBuilder::InsertionGuard guard(B);
    tile::ParallelOp par = gen.parallel(work);
    llvm::SmallVector<mlir::Value, 4> ivs(par.getInductionVars());
    mlir::Value inside = mlir::arith::CmpIOp::create(
        B, l, mlir::arith::CmpIPredicate::slt, ivs[dim],
        in.ir->constIndex(*extent, l));
    llvm::SmallVector<mlir::Value, 4> at(ivs);
    at[dim] = mlir::arith::SelectOp::create(B, l, inside, ivs[dim],
                                            in.ir->constIndex(*extent - 1, l));
    mlir::Value x = tile::LoadOp::create(B, l, src->value, at);
    mlir::Value identity;
    if (isFloat) {
      double inf = std::numeric_limits<double>::infinity();
      identity = in.ir->constFloat(isMax ? -inf : inf, valueTy, l);
    } else {
      unsigned bits = src->dtype.getBits();
      llvm::APInt v =
          src->dtype.isUnsignedInteger()
              ? (isMax ? llvm::APInt::getMinValue(bits)
                       : llvm::APInt::getMaxValue(bits))
              : (isMax ? llvm::APInt::getSignedMinValue(bits)
                       : llvm::APInt::getSignedMaxValue(bits));
      identity = in.ir->constInt(v.getSExtValue(), valueTy, l);
    }
    x = mlir::arith::SelectOp::create(B, l, inside, x, identity);
    tile::StoreOp::create(B, l, x, input, ivs);
  } else if (!lang::isFragmentScope(src->scope)) {
    input = gen.fragment(tag + "_input", src->shape, src->dtype);
    tile::CopyOp::create(B, l, src->value, input);
  }
  llvm::SmallVector<SymExpr, 4> rows(squeezed);
  if (rows.empty())
    rows.push_back(in.syms.constant(1));
  mlir::Value values = gen.fragment(tag + "_values", rows, src->dtype);
  auto kindAttr = [&](tile::ReduceKind k) {
    return tile::ReduceKindAttr::get(B.getContext(), k);
  };
  tile::ReduceOp::create(
      B, l, kindAttr(isMax ? tile::ReduceKind::Max : tile::ReduceKind::Min),
      input, values, B.getI64IntegerAttr(dim), B.getUnitAttr());

  // 2. Candidate indices (padding elements get the extent: never chosen).
  mlir::Type indexTy = in.ir->valueType(index);
  mlir::Value candidates = gen.fragment(tag + "_candidates", work, index);
  {
    mlir::OpBuilder::InsertionGuard guard(B);
    tile::ParallelOp par = gen.parallel(work);
    llvm::SmallVector<mlir::Value, 4> ivs(par.getInductionVars());
    llvm::SmallVector<mlir::Value, 4> rowIdx;
    for (int64_t i = 0; i < rank; ++i)
      if (i != dim)
        rowIdx.push_back(ivs[i]);
    if (rowIdx.empty())
      rowIdx.push_back(in.ir->constIndex(0, l));
    mlir::Value x = tile::LoadOp::create(B, l, input, ivs);
    mlir::Value best = tile::LoadOp::create(B, l, values, rowIdx);
    mlir::Value j = mlir::arith::IndexCastOp::create(B, l, indexTy, ivs[dim]);
    mlir::Value n = in.ir->constInt(*extent, indexTy, l);
    mlir::Value equal =
        isFloat ? mlir::arith::CmpFOp::create(
                      B, l, mlir::arith::CmpFPredicate::OEQ, x, best)
                      .getResult()
                : mlir::arith::CmpIOp::create(
                      B, l, mlir::arith::CmpIPredicate::eq, x, best)
                      .getResult();
    mlir::Value c = mlir::arith::SelectOp::create(B, l, equal, j, n);
    if (isFloat) {
      mlir::Value nan = mlir::math::IsNaNOp::create(B, l, x);
      mlir::Value first = mlir::arith::SubIOp::create(B, l, j, n);
      c = mlir::arith::SelectOp::create(B, l, nan, first, c);
    }
    if (padded != *extent) {
      mlir::Value inside = mlir::arith::CmpIOp::create(
          B, l, mlir::arith::CmpIPredicate::slt, j, n);
      c = mlir::arith::SelectOp::create(B, l, inside, c, n);
    }
    tile::StoreOp::create(B, l, c, candidates, ivs);
  }

  // 3. The smallest candidate of every row.
  mlir::Value indices = gen.fragment(tag + "_indices", rows, index);
  tile::ReduceOp::create(B, l, kindAttr(tile::ReduceKind::Min), candidates,
                         indices, B.getI64IntegerAttr(dim), B.getUnitAttr());

  // 4. Into out (a NaN's candidate is its index minus the extent).
  {
    mlir::OpBuilder::InsertionGuard guard(B);
    llvm::SmallVector<SymExpr, 4> outShape(dst->shape);
    if (outShape.empty())
      outShape.push_back(in.syms.constant(1));
    tile::ParallelOp par = gen.parallel(outShape);
    llvm::SmallVector<mlir::Value, 4> ivs(par.getInductionVars());
    llvm::SmallVector<mlir::Value, 4> rowIdx;
    for (size_t i = 0; i < dst->shape.size(); ++i)
      if (!keepDim || int64_t(i) != dim)
        rowIdx.push_back(ivs[i]);
    // One row (a rank-1 input): the loop runs once, over indices[0].
    if (rowIdx.empty())
      rowIdx.push_back(ivs[0]);
    mlir::Value r = tile::LoadOp::create(B, l, indices, rowIdx);
    if (isFloat) {
      mlir::Value zero = in.ir->constInt(0, indexTy, l);
      mlir::Value n = in.ir->constInt(*extent, indexTy, l);
      mlir::Value neg = mlir::arith::CmpIOp::create(
          B, l, mlir::arith::CmpIPredicate::slt, r, zero);
      mlir::Value fixed = mlir::arith::AddIOp::create(B, l, r, n);
      r = mlir::arith::SelectOp::create(B, l, neg, fixed, r);
    }
    llvm::SmallVector<mlir::Value, 4> outIdx(ivs);
    if (dst->shape.empty())
      outIdx.clear();
    tile::StoreOp::create(B, l, r, dst->value, outIdx);
  }
  return Value::none();
}
