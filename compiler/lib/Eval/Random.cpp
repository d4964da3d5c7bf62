//===- Random.cpp - T.rng_init, T.rng_rand, T.rng_rand_float --------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TileLang's per-thread random numbers: `T.rng_init(seed, seq, off,
// generator)` starts a thread's curand-style generator at subsequence `seq`
// and offset `off` of the stream of `seed`; `T.rng_rand()` draws a uint32,
// `T.rng_rand_float(bit, dist)` a float32/float64 uniform in (0, 1] or
// standard normal. Each becomes one `tile.intrinsic`; `T.rng_init` always
// carries its three operands (seed, seq, off as i64): a `seq` left out is
// the thread's flat index over the launch, block dimensions slowest and x
// fastest (`((bz * gy + by) * gx + bx) * threads + (tz * ty_n + ty) * tx_n +
// tx` over the dimensions the launch has), as TileLang computes it. What
// is checked here is what is wrong with the program whatever the target: a
// generator TileLang does not know, a draw with no `T.rng_init` before it
// in the kernel, a `bit` or `dist` TileLang refuses. Which generators a
// back end implements is decided when building for it.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::DType;
using lang::ScalarType;
using syntax::BinaryOp;

/// The generators TileLang's `T.rng_init` accepts (curand state types).
static bool isKnownGenerator(llvm::StringRef g) {
  return llvm::is_contained({"curandStatePhilox4_32_10_t",
                             "curandStateXORWOW_t", "curandStateMRG32k3a_t"},
                            g);
}

/// The default `seq` of `T.rng_init`: the flat index of the calling thread
/// over the whole launch (see the file comment); poison when it cannot be
/// formed (a thread extent only known at run time).
static Value defaultSequence(Interpreter &in, KernelCtx &k, Node at) {
  auto kernelOp = llvm::dyn_cast_or_null<tile::KernelOp>(k.op);
  if (!kernelOp)
    return Value::integer(0);
  llvm::ArrayRef<int64_t> threads = kernelOp.getStaticThreads();
  // id = id * extent + index over the dimensions, slowest first.
  std::optional<Value> id;
  auto fold = [&](Value ext, Value index) {
    id = id ? in.binary(BinaryOp::Add, in.binary(BinaryOp::Mult, *id, ext, at),
                        index, at)
            : index;
  };
  for (size_t d = k.blockVars.size(); d-- > 0;)
    fold(d < k.gridExtents.size() ? k.gridExtents[d] : Value::integer(1),
         k.blockVars[d]);
  static const char *const names[] = {"tx", "ty", "tz"};
  for (size_t d = threads.size(); d-- > 0;) {
    if (mlir::ShapedType::isDynamic(threads[d]))
      return in.fail(at, "T.rng_init without seq needs thread extents known "
                         "when the kernel is traced; pass seq=");
    mlir::Value tv = tile::ThreadBindingOp::create(
        in.ir->b, in.ir->loc(at), in.ir->b.getIndexType(),
        in.ir->b.getI64IntegerAttr(int64_t(d)));
    Value t = in.wrapScalar(
        {tv, DType(ScalarType::Int32), in.syms.freshSymbol(names[d])});
    fold(Value::integer(threads[d]), t);
  }
  return id ? *id : Value::integer(0);
}

Value Interpreter::callRngPrimitive(const PArgs &p) {
  Node at = p.call;
  if (checkInKernel(p.info.name, at))
    return Value::poison();
  auto &B = ir->b;
  auto loc = ir->loc(at);
  if (p.info.id == BuiltinId::RngInit) {
    Value gen = p.getOr("generator", Value::none());
    llvm::StringRef generator = "curandStatePhilox4_32_10_t";
    if (!gen.isNone()) {
      if (!gen.isStr())
        return fail(p.node("generator"),
                    "T.rng_init: generator must be a string naming a curand "
                    "state type");
      generator = getStr(gen);
      if (!isKnownGenerator(generator))
        return fail(p.node("generator"),
                    "T.rng_init: unknown generator '" + generator +
                        "' (curandStatePhilox4_32_10_t, curandStateXORWOW_t "
                        "or curandStateMRG32k3a_t)");
    }
    Value seq = p.getOr("seq", Value::none());
    if (seq.isNone())
      seq = defaultSequence(*this, *kernel, at);
    if (seq.isAbrupt())
      return seq;
    Value off = p.getOr("off", Value::integer(0));
    llvm::SmallVector<mlir::Value, 3> operands;
    llvm::SmallVector<mlir::Attribute, 3> params;
    std::pair<const char *, Value> args[] = {
        {"seed", p.getOr("seed", Value::poison())}, {"seq", seq}, {"off", off}};
    for (auto &[name, v] : args) {
      if (v.isAbrupt())
        return v;
      Node n = p.get(name) ? p.node(name) : at;
      Scalar s = toScalar(v, n, B.getI64Type());
      if (!s)
        return Value::poison();
      if (!s.dtype.isInteger())
        return fail(n, llvm::Twine("T.rng_init: ") + name +
                           " must be an integer, not " + s.dtype.getName());
      operands.push_back(ir->convert(s.value, B.getI64Type(), loc,
                                     s.dtype.isUnsignedInteger()));
      params.push_back(B.getStringAttr(name));
    }
    tile::IntrinsicOp::create(B, loc, mlir::TypeRange(),
                              B.getStringAttr(p.info.name), operands,
                              B.getArrayAttr(params),
                              B.getDictionaryAttr(B.getNamedAttr(
                                  "generator", B.getStringAttr(generator))));
    kernel->rngInitialized = true;
    kernel->lastRngInit = at;
    return Value::none();
  }
  if (!kernel->rngInitialized)
    return fail(at, p.info.name +
                        " requires a preceding `T.rng_init(...)` in the "
                        "kernel: each thread's generator starts there");
  DType result(ScalarType::UInt32);
  llvm::SmallVector<mlir::NamedAttribute, 2> options;
  if (p.info.id == BuiltinId::RngRandFloat) {
    Value bit = p.getOr("bit", Value::integer(32));
    if (!bit.isIntLike() || (bit.getInt() != 32 && bit.getInt() != 64))
      return bit.isAbrupt() ? bit
                            : fail(p.node("bit"),
                                   "T.rng_rand_float: bit must be 32 or 64");
    Value dist = p.getOr("dist", Value::none());
    llvm::StringRef d = "uniform";
    if (!dist.isNone()) {
      if (!dist.isStr() ||
          (getStr(dist) != "uniform" && getStr(dist) != "normal"))
        return dist.isAbrupt()
                   ? dist
                   : fail(p.node("dist"), "T.rng_rand_float: dist must be "
                                          "'uniform' or 'normal'");
      d = getStr(dist);
    }
    result =
        DType(bit.getInt() == 64 ? ScalarType::Float64 : ScalarType::Float32);
    options.push_back(B.getNamedAttr("dist", B.getStringAttr(d)));
  }
  auto op = tile::IntrinsicOp::create(
      B, loc, mlir::TypeRange{ir->valueType(result)},
      B.getStringAttr(p.info.name), mlir::ValueRange(), B.getArrayAttr({}),
      options.empty() ? mlir::DictionaryAttr() : B.getDictionaryAttr(options));
  return wrapScalar({op->getResult(0), result, SymExpr()});
}
