//===- IRElements.cpp - Element reads and writes in IR --------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reading and writing buffer elements from IR-valued Python: the elements
// of a region, vector lets, TVM's vector (T.Ramp) loads and stores, and
// stores into element references and regions.
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
mlir::Value tlc::eval::rampLoad(Interpreter &in, RegionObj *r, Node at) {
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
