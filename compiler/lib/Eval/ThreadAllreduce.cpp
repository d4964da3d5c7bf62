//===- ThreadAllreduce.cpp - T.tvm_thread_allreduce -----------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TVM's raw cross-thread reduction, as hand-written TileLang kernels use it:
//
//   with T.attr(T.comm_reducer(lambda x, y: x + y, [T.Cast(acc, 0)]),
//               "reduce_scope", T.reinterpret(T.uint64(0), dtype="handle")):
//       T.evaluate(T.tvm_thread_allreduce(T.uint32(1), partial[0], True,
//                                         total[0], tk, dtype="handle"))
//
// Arguments: the number of values `size`, `size` source values, a condition
// (a thread whose condition is false contributes the reducer's identity),
// `size` destination elements, then the thread indices reduced over. Every
// thread of the block takes part; the threads that agree on the other
// thread indices form one group, and each thread of a group receives the
// combination of the group's values in its destinations.
//
// The reduction is built here from operations every target generates, so
// what runs shows in the Tile IR: with the block's thread extents (X, Y, Z)
// a thread's linear index is t = x + X * (y + Y * z), and the reduced
// dimensions (adjacent ones) split it as t = low + S * r + S * E * high
// (r the position in the group, E the group size, S its stride).
//
// * S and E powers of two with S * E <= 32: a butterfly of `T.shfl_xor`
//   over lane distances S * E / 2, ..., S inside each warp.
// * S and E powers of two, S < 32 < S * E, whole warps: the butterfly over
//   distances 16, ..., S combines each warp's part; the warps' partials
//   meet in shared memory (one slot per thread) and every thread combines
//   the S * E / 32 partials of its group in order.
// * Anything else: every value goes to shared memory and every thread
//   combines its group's E values in order.
//
// Each thread combines in the same order, so all threads of a group get the
// same bits. The shared slots are one `shared.dyn` buffer per call.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace tlc;
using namespace tlc::eval;
using lang::DType;
using lang::MemoryScope;

/// The thread dimension (0, 1, 2) whose index \p v is, looking through
/// casts; nullopt for any other value.
static std::optional<int64_t> threadDimOf(mlir::Value v) {
  while (v) {
    if (auto tb = v.getDefiningOp<tile::ThreadBindingOp>())
      return tb.getDim();
    if (auto c = v.getDefiningOp<mlir::arith::IndexCastOp>())
      v = c.getIn();
    else if (auto c = v.getDefiningOp<mlir::arith::IndexCastUIOp>())
      v = c.getIn();
    else
      return std::nullopt;
  }
  return std::nullopt;
}

/// A constant integer argument (a Python int or an IR constant).
static std::optional<int64_t> constantArg(Value v) {
  if (v.isIntLike())
    return v.getInt();
  if (v.is(ValueKind::Expr)) {
    llvm::APInt c;
    if (mlir::matchPattern(v.as<ExprObj>()->value, mlir::m_ConstantInt(&c)))
      return c.getSExtValue();
  }
  return std::nullopt;
}

static bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

namespace {
/// Builds one T.tvm_thread_allreduce.
struct AllreduceBuilder {
  Interpreter &in;
  Node at;
  mlir::Location l;
  Value combiner;
  /// Element dtypes of the values.
  llvm::SmallVector<DType, 2> dtypes;

  mlir::OpBuilder &b() { return in.ir->b; }
  mlir::Value idx(int64_t v) { return in.ir->constIndex(v, l); }
  mlir::Value mul(mlir::Value a, mlir::Value c) {
    return mlir::arith::MulIOp::create(b(), l, a, c);
  }
  mlir::Value add(mlir::Value a, mlir::Value c) {
    return mlir::arith::AddIOp::create(b(), l, a, c);
  }

  /// combiner(a..., c...) as values of the reduction's dtypes; empty after
  /// an error (reported).
  llvm::SmallVector<mlir::Value, 2> combine(llvm::ArrayRef<mlir::Value> a,
                                            llvm::ArrayRef<mlir::Value> c) {
    CallArgs args;
    for (auto vals : {a, c})
      for (auto [k, v] : llvm::enumerate(vals)) {
        args.pos.push_back(in.wrapScalar({v, dtypes[k], SymExpr()}));
        args.posNodes.push_back(at);
      }
    Value r = in.call(combiner, args, at);
    if (r.isAbrupt())
      return {};
    llvm::SmallVector<Value, 2> parts;
    if (r.isSequence())
      parts.append(getElems(r).begin(), getElems(r).end());
    else
      parts.push_back(r);
    if (parts.size() != dtypes.size()) {
      in.error(at, "the reducer's combiner returns " +
                       llvm::Twine(parts.size()) + " values for " +
                       llvm::Twine(dtypes.size()) + " reduced values");
      return {};
    }
    llvm::SmallVector<mlir::Value, 2> out;
    for (auto [k, part] : llvm::enumerate(parts)) {
      mlir::Type want = in.ir->valueType(dtypes[k]);
      Scalar s = in.toScalar(part, at, want);
      if (!s)
        return {};
      out.push_back(in.ir->convert(s.value, want, l,
                                   s.dtype.isUnsignedInteger()));
    }
    return out;
  }

  /// One warp-shuffle butterfly step: v = combine(v, shfl_xor(v, dist)).
  llvm::SmallVector<mlir::Value, 2>
  butterfly(llvm::ArrayRef<mlir::Value> v, int64_t dist, int64_t threads) {
    llvm::SmallVector<mlir::Value, 2> other;
    for (auto [k, x] : llvm::enumerate(v)) {
      llvm::SmallVector<mlir::Value, 4> ops = {
          x, in.ir->constInt(dist, b().getI32Type(), l)};
      llvm::SmallVector<llvm::StringRef, 4> params = {"value", "delta"};
      if (threads < 32) {
        // A block of fewer than 32 threads: only its lanes take part.
        ops.push_back(in.ir->constInt((int64_t(1) << threads) - 1,
                                      b().getI32Type(), l));
        params.push_back("mask");
      }
      auto op = tile::IntrinsicOp::create(
          b(), l, mlir::TypeRange{x.getType()},
          b().getStringAttr("T.shfl_xor"), ops, b().getStrArrayAttr(params),
          mlir::DictionaryAttr());
      other.push_back(op->getResult(0));
    }
    return combine(v, other);
  }

  /// Every thread stores \p v in its slot t of fresh shared buffers; after a
  /// barrier each combines the \p count slots base, base + stride, ... in
  /// order; a second barrier lets the slots be reused.
  llvm::SmallVector<mlir::Value, 2>
  exchange(llvm::ArrayRef<mlir::Value> v, mlir::Value t, mlir::Value base,
           int64_t stride, int64_t count, int64_t threads) {
    llvm::SmallVector<mlir::Value, 2> slots, acc;
    SymExpr shape[] = {in.syms.constant(threads)};
    for (auto [k, x] : llvm::enumerate(v)) {
      tile::BufferType ty =
          in.ir->bufferType(shape, dtypes[k], MemoryScope::SharedDyn);
      mlir::Value slot = tile::AllocOp::create(
          b(), in.ir->nameLoc("allreduce_slots", at.range()), ty,
          mlir::Value());
      if (in.kernel) {
        auto *buf = in.heap.make<BufferObj>();
        buf->name = "allreduce_slots";
        buf->shape.assign(std::begin(shape), std::end(shape));
        buf->dtype = dtypes[k];
        buf->scope = MemoryScope::SharedDyn;
        buf->range = at.range();
        buf->kernelId = in.kernel->id;
        buf->value = slot;
        buf->hintIndex = -1;
        in.kernel->sharedBuffers.push_back(buf);
      }
      tile::StoreOp::create(b(), l, x, slot, mlir::ValueRange{t});
      slots.push_back(slot);
    }
    tile::SyncThreadsOp::create(b(), l);
    // acc = slots[base]; for j in 1..count: acc = combine(acc, slots[...]).
    llvm::SmallVector<mlir::Value, 2> accBufs;
    SymExpr one[] = {in.syms.constant(1)};
    for (auto [k, slot] : llvm::enumerate(slots)) {
      mlir::Value first = tile::LoadOp::create(
          b(), l, v[k].getType(), slot, mlir::ValueRange{base});
      if (count == 1) {
        acc.push_back(first);
        continue;
      }
      tile::BufferType ty =
          in.ir->bufferType(one, dtypes[k], MemoryScope::Local);
      mlir::Value a = tile::AllocOp::create(
          b(), in.ir->nameLoc("allreduce_acc", at.range()), ty,
          mlir::Value());
      tile::StoreOp::create(b(), l, first, a, mlir::ValueRange{idx(0)});
      accBufs.push_back(a);
    }
    if (count > 1) {
      auto loop = tile::ForOp::create(b(), l, idx(1), idx(count), idx(1));
      mlir::Block *body = &loop.getBody().front();
      {
        mlir::OpBuilder::InsertionGuard guard(b());
        b().setInsertionPointToEnd(body);
        mlir::Value pos = add(base, mul(body->getArgument(0), idx(stride)));
        llvm::SmallVector<mlir::Value, 2> cur, next;
        for (auto [k, slot] : llvm::enumerate(slots)) {
          cur.push_back(tile::LoadOp::create(b(), l, v[k].getType(),
                                             accBufs[k],
                                             mlir::ValueRange{idx(0)}));
          next.push_back(tile::LoadOp::create(b(), l, v[k].getType(), slot,
                                              mlir::ValueRange{pos}));
        }
        llvm::SmallVector<mlir::Value, 2> r = combine(cur, next);
        if (r.empty())
          return {};
        for (auto [k, x] : llvm::enumerate(r))
          tile::StoreOp::create(b(), l, x, accBufs[k],
                                mlir::ValueRange{idx(0)});
      }
      for (auto [k, a] : llvm::enumerate(accBufs))
        acc.push_back(tile::LoadOp::create(b(), l, v[k].getType(), a,
                                           mlir::ValueRange{idx(0)}));
    }
    tile::SyncThreadsOp::create(b(), l);
    return acc;
  }
};
} // namespace

Value tlc::eval::threadAllreduce(Interpreter &in, const PArgs &p) {
  Node at = p.call;
  if (!in.tracing())
    return in.fail(at, "T.tvm_thread_allreduce can only be used while a "
                       "kernel is traced");
  if (in.checkInKernel("T.tvm_thread_allreduce", at))
    return Value::poison();
  llvm::ArrayRef<Value> args = p.rest("args");
  for (Value v : args)
    if (v.isAbrupt())
      return v;
  std::optional<int64_t> size =
      args.empty() ? std::nullopt : constantArg(args.front());
  if (!size || *size < 1)
    return in.fail(at, "T.tvm_thread_allreduce expects the number of reduced "
                       "values (a positive integer) first");
  if (int64_t(args.size()) < 2 + 2 * *size + 1)
    return in.fail(at, "T.tvm_thread_allreduce expects " +
                           llvm::Twine(*size) + " value(s), a condition, " +
                           llvm::Twine(*size) +
                           " destination(s) and the reduced thread indices");
  llvm::ArrayRef<Value> sources = args.slice(1, *size);
  Value cond = args[1 + *size];
  llvm::ArrayRef<Value> dests = args.slice(2 + *size, *size);
  llvm::ArrayRef<Value> threadArgs = args.drop_front(2 + 2 * *size);

  if (in.reduceScopes.empty())
    return in.fail(at, "T.tvm_thread_allreduce must be inside `with "
                       "T.attr(T.comm_reducer(...), \"reduce_scope\", ...)`, "
                       "which gives its combiner");
  auto *reducer = in.reduceScopes.back().as<NamespaceObj>();
  Value *combiner = reducer->find("combiner");
  Value *identity = reducer->find("identity");
  if (!combiner || !identity)
    return in.fail(at, "the enclosing T.comm_reducer needs a combiner and "
                       "its identity values");
  llvm::SmallVector<Value, 2> ids;
  if (identity->isSequence())
    ids.append(getElems(*identity).begin(), getElems(*identity).end());
  else
    ids.push_back(*identity);
  if (int64_t(ids.size()) != *size)
    return in.fail(at, "the reducer has " + llvm::Twine(ids.size()) +
                           " identity value(s) for " + llvm::Twine(*size) +
                           " reduced value(s)");

  // The block's thread extents and the reduced dimensions.
  auto kernelOp = llvm::dyn_cast_or_null<tile::KernelOp>(in.kernel->op);
  if (!kernelOp)
    return Value::poison();
  int64_t ext[3] = {1, 1, 1};
  for (auto [d, f] : llvm::enumerate(kernelOp.getMixedThreads())) {
    std::optional<int64_t> c = mlir::getConstantIntValue(f);
    if (!c)
      return in.fail(at, "T.tvm_thread_allreduce needs a block whose thread "
                         "extents are known when the kernel is compiled");
    ext[d] = *c;
  }
  int64_t threads = ext[0] * ext[1] * ext[2];
  bool reduced[3] = {false, false, false};
  for (Value tv : threadArgs) {
    std::optional<int64_t> d;
    if (tv.is(ValueKind::Expr))
      d = threadDimOf(tv.as<ExprObj>()->value);
    if (!d)
      return in.fail(at, "T.tvm_thread_allreduce reduces over thread indices "
                         "(T.get_thread_binding, T.thread_binding), not " +
                         in.toString(tv, true));
    reduced[*d] = true;
  }
  int64_t lo = 0;
  while (lo < 3 && !reduced[lo])
    ++lo;
  if (lo == 3)
    return in.fail(at, "T.tvm_thread_allreduce needs the thread indices it "
                       "reduces over");
  int64_t hi = lo;
  while (hi < 3 && reduced[hi])
    ++hi;
  for (int64_t d = hi; d < 3; ++d)
    if (reduced[d])
      return in.fail(at, "T.tvm_thread_allreduce over thread dimensions "
                         "that are not adjacent is not supported");
  int64_t S = 1, E = 1;
  for (int64_t d = 0; d < lo; ++d)
    S *= ext[d];
  for (int64_t d = lo; d < hi; ++d)
    E *= ext[d];

  AllreduceBuilder B{in, at, in.ir->loc(at), *combiner, {}};
  mlir::Location l = B.l;

  // The values, the identity where the condition is false.
  std::optional<int64_t> condConst = constantArg(cond);
  mlir::Value condV;
  if (!condConst) {
    Scalar c = in.toScalar(cond, at);
    if (!c)
      return Value::poison();
    condV = in.ir->convert(c.value, in.ir->b.getI1Type(), l);
  }
  llvm::SmallVector<mlir::Value, 2> vals;
  for (int64_t k = 0; k < *size; ++k) {
    Scalar s = in.toScalar(sources[k], at);
    if (!s)
      return Value::poison();
    B.dtypes.push_back(s.dtype);
    mlir::Type want = in.ir->valueType(s.dtype);
    mlir::Value v = s.value;
    if (condConst && *condConst == 0) {
      Scalar id = in.toScalar(ids[k], at, want);
      if (!id)
        return Value::poison();
      v = in.ir->convert(id.value, want, l);
    } else if (condV) {
      Scalar id = in.toScalar(ids[k], at, want);
      if (!id)
        return Value::poison();
      v = mlir::arith::SelectOp::create(in.ir->b, l, condV, v,
                                        in.ir->convert(id.value, want, l));
    }
    vals.push_back(v);
  }

  // t = x + X * (y + Y * z); base = low + S * E * high.
  auto tid = [&](int64_t d) -> mlir::Value {
    return tile::ThreadBindingOp::create(in.ir->b, l, d);
  };
  mlir::Value t = tid(0);
  if (ext[1] * ext[2] > 1)
    t = B.add(t, B.mul(B.idx(ext[0]),
                       ext[2] > 1 ? B.add(tid(1), B.mul(B.idx(ext[1]), tid(2)))
                                  : tid(1)));
  auto base = [&]() {
    mlir::Value low = mlir::arith::RemUIOp::create(in.ir->b, l, t, B.idx(S));
    mlir::Value high =
        mlir::arith::DivUIOp::create(in.ir->b, l, t, B.idx(S * E));
    return B.add(low, B.mul(high, B.idx(S * E)));
  };

  llvm::SmallVector<mlir::Value, 2> result;
  bool wholeWarps = threads % 32 == 0 || threads < 32;
  if (E == 1) {
    result = vals;
  } else if (isPow2(S) && isPow2(E) && S * E <= 32 && wholeWarps) {
    result = vals;
    for (int64_t dist = S * E / 2; dist >= S && !result.empty(); dist /= 2)
      result = B.butterfly(result, dist, threads);
  } else if (isPow2(S) && isPow2(E) && S < 32 && threads % 32 == 0) {
    result = vals;
    for (int64_t dist = 16; dist >= S && !result.empty(); dist /= 2)
      result = B.butterfly(result, dist, threads);
    if (!result.empty())
      result = B.exchange(result, t, base(), 32, S * E / 32, threads);
  } else {
    result = B.exchange(vals, t, base(), S, E, threads);
  }
  if (result.empty())
    return Value::poison();
  for (int64_t k = 0; k < *size; ++k)
    if (in.irStore(dests[k], in.wrapScalar({result[k], B.dtypes[k], {}}),
                   at) != Flow::Normal)
      return Value::poison();
  return Value::none();
}
