//===- IRRegions.cpp - Buffer regions -------------------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Buffer regions (`A[i:j, k]` and friends): making a region from a
// buffer index, its run-time extents, reading a region as a value, and the
// SSA-expression matching that proves slice bounds equal.
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
