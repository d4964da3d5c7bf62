//===- MetaPrimitives.cpp - Meta-level T.* primitives ---------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The meta-level primitives (symbols, dtypes, `T.ceildiv`, `T.if_then_else`,
// math and the other T.* calls evaluated at trace time) and their
// dispatch.
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

//===----------------------------------------------------------------------===//
// Meta-level and math primitives
//===----------------------------------------------------------------------===//

bool Interpreter::isDynamicDecl(const SymNode *n) {
  return n && n->kind == SymKind::Symbol && n->value < 0;
}

llvm::StringRef Interpreter::symbolName(const SymNode *n) {
  if (!isDynamicDecl(n) || !instance)
    return n->name;
  auto found = instance->dynamicNames.find(n);
  if (found == instance->dynamicNames.end()) {
    // TVM names two Vars of one name apart where they meet in one function
    // (`size`, `size_1`); the first symbol of the instance keeps the name.
    auto taken = [&](llvm::StringRef candidate) {
      return llvm::any_of(instance->symbols,
                          [&](const auto &s) { return s.first == candidate; });
    };
    std::string name = n->name.str();
    for (unsigned i = 1; taken(name); ++i)
      name = (n->name + "_" + llvm::Twine(i)).str();
    instance->symbols.push_back({name, /*Dynamic=*/0});
    found = instance->dynamicNames.try_emplace(n, std::move(name)).first;
  }
  // The context keeps a copy of the name for its lifetime.
  return syms.symbol(found->second).getNode()->name;
}

SymExpr Interpreter::instanceNamed(SymExpr e) {
  if (!e || !instance || e.isConstant())
    return e;
  return syms.substitute(e, [&](const SymNode *n) {
    return isDynamicDecl(n) ? syms.symbol(symbolName(n)) : SymExpr();
  });
}

/// Declares T.const / T.dynamic names.
Value Interpreter::declareSymbols(const PArgs &p, int kind) {
  Value names = p.getOr("names", p.getOr("name", Value::none()));
  if (!names.isStr())
    return fail(p.node("names"), p.info.name + " expects a string of names");
  llvm::SmallVector<llvm::StringRef, 4> parts;
  getStr(names).split(parts, ',', -1, false);
  llvm::SmallVector<Value, 4> values;
  for (llvm::StringRef part : parts) {
    llvm::SmallVector<llvm::StringRef, 2> words;
    part.split(words, ' ', -1, false);
    for (llvm::StringRef w : words) {
      w = w.trim();
      if (w.empty())
        continue;
      llvm::StringRef name = heap.copyString(w);
      Value v;
      if (instance) {
        auto it = instance->constBindings.find(name);
        if (it != instance->constBindings.end()) {
          v = it->second;
          if (llvm::any_of(options.defines,
                           [&](const auto &d) { return d.first == name; }))
            usedDefines.insert(name);
        }
      }
      if (v.isNone())
        if (std::optional<Value> d = defineFor(name))
          v = *d;
      if (v.isNone()) {
        symbolKinds[name] = kind;
        // Each T.dynamic call is a new variable (a fresh tir.Var in
        // TileLang), whatever its name; T.const names one of the call.
        v = Value::sym(kind == /*Dynamic=*/0
                           ? syms.symbol(name, --lastDynamicSymbol)
                           : syms.symbol(name));
      }
      values.push_back(v);
    }
  }
  if (values.size() == 1)
    return values[0];
  return heap.tuple(values);
}


Value Interpreter::callMetaPrimitive(const PArgs &p) {
  Node at = p.call;
  switch (p.info.id) {
  case BuiltinId::Const:
    return declareSymbols(p, /*Const=*/1);
  case BuiltinId::Dynamic:
    return declareSymbols(p, /*Dynamic=*/0);
  case BuiltinId::DTypeCtor: {
    Value v = p.getOr("value", Value::none());
    if (std::optional<lang::DType> t = toDType(v))
      return Value::dtype(*t);
    if (v.is(ValueKind::Opaque) || v.isAbrupt())
      return v;
    return fail(p.node("value"), "unknown dtype " + toString(v, true));
  }
  case BuiltinId::TypeAnnotation: {
    // TVMScript's T.type_annotation(dtype): the dtype, where an expression
    // is expected (the ptype of T.tvm_access_ptr).
    Value v = p.getOr("dtype", Value::none());
    if (v.isAbrupt())
      return v;
    if (std::optional<lang::DType> t = toDType(v, p.node("dtype")))
      return Value::dtype(*t);
    return fail(p.node("dtype"), "unknown dtype " + toString(v, true));
  }
  case BuiltinId::Bind: {
    // `x = T.bind(expr)`: TVMScript's let binding. The new variable is the
    // value, of type_annotation's dtype where one is given.
    Value v = p.getOr("value", Value::none());
    Value t = p.getOr("type_annotation", Value::none());
    if (v.isAbrupt() || t.isNone())
      return v;
    if (t.isAbrupt())
      return t;
    std::optional<lang::DType> dt = toDType(t, p.node("type_annotation"));
    if (!dt)
      return fail(p.node("type_annotation"),
                  "unknown dtype " + toString(t, true));
    return castTo(v, *dt, at);
  }
  case BuiltinId::AnnotatePassConfigs:
    if (instance)
      readPassConfigs(p.getOr("configs", Value::none()), instance->annotated);
    return Value::none();
  case BuiltinId::FuncAttr: {
    Value attrs = p.getOr("attrs", Value::none());
    if (attrs.is(ValueKind::Opaque) || attrs.isAbrupt())
      return attrs.isAbrupt() ? attrs : Value::none();
    if (!attrs.is(ValueKind::Dict))
      return fail(p.node("attrs"), "T.func_attr expects a dict of attributes, "
                                   "got " + toString(attrs, true));
    for (auto &kv : attrs.as<DictObj>()->items)
      if (!kv.first.is(ValueKind::Str))
        return fail(p.node("attrs"), "T.func_attr: attribute names are "
                                     "strings, got " +
                                         toString(kv.first, true));
    return Value::none();
  }
  case BuiltinId::AnnotateCompileFlags:
    if (instance)
      readCompileFlags(p.getOr("flags", Value::none()), instance->annotated);
    return Value::none();
  case BuiltinId::ImportSource:
    return importSource(p.getOr("source", Value::none()), p.node("source"));
  case BuiltinId::BuildPrimFunc:
    return buildPrimFunc(p);
  case BuiltinId::DisableCache:
    return Value::none();
  case BuiltinId::Layout:
  case BuiltinId::Fragment:
    return makeLayoutObject(p);
  case BuiltinId::MakeSwizzledLayout:
  case BuiltinId::MakeLinearLayout: {
    auto *o = heap.make<LayoutObj>();
    o->description = p.info.getShortName();
    return heap.obj(ObjKind::Layout, o);
  }
  case BuiltinId::Jit:
  case BuiltinId::Autotune: {
    std::optional<Value> fn = p.get("func");
    if (!fn || fn->isNone()) {
      // @tilelang.jit(out_idx=...) returns a decorator.
      auto *part = heap.make<PartialObj>();
      part->fn = Value::primitive(&p.info);
      for (auto &kv : p.args.kw)
        part->kwargs.push_back(kv);
      return heap.obj(ObjKind::Partial, part);
    }
    return applyDecoratorValue(p, *fn);
  }
  case BuiltinId::Compile: {
    Value fn = p.getOr("func", Value::none());
    std::string tgt = fileTarget(p.getOr("target", Value::none()));
    // Its pass_configs and compile_flags win over the function's own.
    BuildConfigs build;
    readPassConfigs(p.getOr("pass_configs", Value::none()), build);
    readCompileFlags(p.getOr("compile_flags", Value::none()), build);
    if (fn.isObj(ObjKind::JitFunction)) {
      CallArgs none;
      JitFunctionObj *jit = fn.as<JitFunctionObj>();
      std::string saved = jit->target;
      BuildConfigs savedBuild = jit->build;
      if (!tgt.empty())
        jit->target = tgt;
      jit->build.merge(build);
      Value r = callJit(jit, none, at, true);
      jit->target = saved;
      jit->build = std::move(savedBuild);
      return r;
    }
    if (fn.isObj(ObjKind::PrimFunc) && !build.empty()) {
      int idx = fn.as<PrimFuncObj>()->instance;
      if (idx >= 0 && size_t(idx) < instances.size() && instances[idx]->func) {
        instances[idx]->external.merge(build);
        applyBuildConfigs(*instances[idx]);
      }
    }
    // An already traced prim_func: its layouts are inferred for the
    // target it is compiled for.
    if (fn.isObj(ObjKind::PrimFunc) && !tgt.empty() &&
        !options.targetExplicit) {
      int idx = fn.as<PrimFuncObj>()->instance;
      if (idx >= 0 && size_t(idx) < instances.size() && instances[idx]->func)
        instances[idx]->func->setAttr(
            "tile.target", mlir::StringAttr::get(&mlirContext, tgt));
    }
    Value kernel = compiledKernel(fn, p.getOr("out_idx", Value::none()), "");
    Value backend = p.getOr("execution_backend", Value::none());
    if (backend.isStr() && getStr(backend) != "tvm_ffi" &&
        getStr(backend) != "auto" && kernel.is(ValueKind::Opaque))
      nonFfiKernels.insert(kernel.getObj());
    return kernel;
  }
  case BuiltinId::ParCompile:
  case BuiltinId::DoBench:
    return heap.opaque("tilelang result");
  case BuiltinId::Cdiv:
  case BuiltinId::Ceildiv:
    return intDiv(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  SymKind::CeilDiv, at);
  case BuiltinId::Floordiv:
    return intDiv(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  SymKind::FloorDiv, at);
  case BuiltinId::Floormod:
    return intDiv(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  SymKind::Mod, at);
  case BuiltinId::Truncdiv:
    return binary(syntax::BinaryOp::Div, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::Truncmod:
    return truncMod(p.getOr("a", Value::poison()),
                    p.getOr("b", Value::poison()), at);
  case BuiltinId::NextPowerOf2: {
    Value x = p.getOr("x", Value::poison());
    if (!x.isIntLike())
      return x.is(ValueKind::Sym) ? heap.opaque("next_power_of_2") : x;
    int64_t v = x.getInt(), r = 1;
    while (r < v && r < (int64_t(1) << 62))
      r <<= 1;
    return Value::integer(r);
  }
  case BuiltinId::ShiftLeft:
    return binary(syntax::BinaryOp::LShift, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::ShiftRight:
    return binary(syntax::BinaryOp::RShift, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseAnd:
    return binary(syntax::BinaryOp::BitAnd, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseOr:
    return binary(syntax::BinaryOp::BitOr, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseXor:
    return binary(syntax::BinaryOp::BitXor, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseNot:
    return unary(syntax::UnaryOp::Invert, p.getOr("a", Value::poison()), at);
  case BuiltinId::Not:
    return unary(syntax::UnaryOp::Not, p.getOr("a", Value::poison()), at);
  case BuiltinId::Clz:
  case BuiltinId::Popcount: {
    // Bit counts of an integer in its own width, as int32 (TileLang's
    // tl.clz / popcount).
    Value x = p.getOr("x", Value::poison());
    if (x.isAbrupt())
      return x;
    if (!tracing())
      return fail(at, p.info.name + " on IR values needs a kernel");
    Scalar s = toScalar(x, p.node("x"));
    if (!s)
      return Value::poison();
    if (!mlir::isa<mlir::IntegerType>(s.value.getType()) ||
        s.value.getType().isInteger(1))
      return raise("TypeError",
                   p.info.name + " expects an integer, got " +
                       s.dtype.getName(),
                   p.node("x"));
    mlir::Location l = ir->loc(at);
    mlir::Value r =
        p.info.id == BuiltinId::Clz
            ? mlir::math::CountLeadingZerosOp::create(ir->b, l, s.value)
                  .getResult()
            : mlir::math::CtPopOp::create(ir->b, l, s.value).getResult();
    lang::DType i32(lang::ScalarType::Int32);
    return wrapScalar({ir->convert(r, ir->b.getI32Type(), l), i32, SymExpr()});
  }
  case BuiltinId::Max:
  case BuiltinId::Min:
    return minMax(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  p.info.id == BuiltinId::Max, at);
  case BuiltinId::Clamp: {
    Value lo = minMax(p.getOr("x", Value::poison()),
                      p.getOr("min_val", Value::poison()), true, at);
    return minMax(lo, p.getOr("max_val", Value::poison()), false, at);
  }
  case BuiltinId::IfThenElse:
    return selectValue(p.getOr("cond", Value::poison()),
                       p.getOr("t", Value::poison()),
                       p.getOr("f", Value::poison()), at);
  case BuiltinId::Select:
    return selectValue(p.getOr("condition", Value::poison()),
                       p.getOr("true_value", Value::poison()),
                       p.getOr("false_value", Value::poison()), at);
  case BuiltinId::Cast:
  case BuiltinId::CastNode:
  case BuiltinId::Reinterpret: {
    Value dt = p.getOr("dtype", Value::poison());
    Value v = p.getOr("value", Value::poison());
    // T.cast's rounding hints, checked as TileLang checks them. tlc's
    // conversions round to nearest (TileLang lowers only "rs" differently).
    if (p.info.id == BuiltinId::Cast) {
      Value round = p.getOr("round", Value::none());
      Value sat = p.getOr("sat", Value::boolean(true));
      Value rbits = p.getOr("rbits", Value::none());
      static const char *const modes[] = {"", "rn", "rz", "rp", "rm", "rs"};
      bool known = round.isNone();
      if (round.isStr())
        known = llvm::is_contained(modes, getStr(round));
      if (!known)
        return fail(p.node("round"),
                    "Invalid round " + toString(round, true) +
                        " for T.cast: one of '', 'rn', 'rz', 'rp', 'rm', 'rs'");
      if (!sat.isBool() && !sat.isAbrupt())
        return fail(p.node("sat"), "Invalid sat " + toString(sat, true) +
                                       " for T.cast: a bool");
      bool rs = round.isStr() && getStr(round) == "rs";
      if (rs && rbits.isNone())
        return fail(p.node("round"), "rbits is required when round='rs' "
                                     "(stochastic rounding)");
      if (!rs && !rbits.isNone())
        return fail(p.node("rbits"),
                    "rbits is only valid with round='rs' (stochastic "
                    "rounding)");
      if (rs) {
        std::optional<lang::DType> t = toDType(dt, p.node("dtype"));
        if (!t)
          return dt.isAbrupt() ? dt
                               : fail(p.node("dtype"),
                                      "unknown dtype " + toString(dt, true));
        return castStochastic(v, *t, rbits, p);
      }
    }
    // T.reinterpret accepts the old (dtype, value) order too.
    if (p.info.id == BuiltinId::Reinterpret && toDType(v) && !toDType(dt))
      std::swap(v, dt);
    std::optional<lang::DType> t = toDType(dt, p.node("dtype"));
    if (!t) {
      if (dt.isAbrupt())
        return dt;
      return fail(p.node("dtype"), "unknown dtype " + toString(dt, true));
    }
    if (p.info.id == BuiltinId::Reinterpret && tracing()) {
      mlir::Type want = ir->valueType(*t);
      // A Python int (`T.uint8(0)` is one) is an integer of the target's
      // width.
      mlir::Type hint;
      if (v.isIntLike() && want.isIntOrFloat())
        hint = ir->b.getIntegerType(want.getIntOrFloatBitWidth());
      Scalar s = toScalar(v, p.node("value"), hint);
      if (!s)
        return Value::poison();
      // A handle is an address: an integer reinterpreted as one keeps its
      // value (`T.reinterpret(T.uint64(0), dtype="handle")`).
      if (t->getScalarType() == lang::ScalarType::Handle &&
          mlir::isa<mlir::IntegerType>(s.value.getType()))
        return wrapScalar({ir->convert(s.value, want, ir->loc(at),
                                       s.dtype.isUnsignedInteger()),
                           *t, SymExpr()});
      auto bits = [](mlir::Type ty) -> int64_t {
        if (auto vec = mlir::dyn_cast<mlir::VectorType>(ty))
          return vec.getNumElements() *
                 int64_t(vec.getElementType().getIntOrFloatBitWidth());
        return ty.isIntOrFloat() ? int64_t(ty.getIntOrFloatBitWidth()) : -1;
      };
      if (bits(s.value.getType()) != bits(want) || bits(want) < 0)
        return fail(at, "T.reinterpret needs types of the same width");
      // Bytes reinterpreted as bytes (uint8 <-> float4_e2m1_unpacked, whose
      // values are all i8) keep their value.
      if (s.value.getType() == want)
        return wrapScalar({s.value, *t, SymExpr()});
      auto lanes = [](mlir::Type ty) -> int64_t {
        auto vec = mlir::dyn_cast<mlir::VectorType>(ty);
        return vec ? vec.getNumElements() : 0;
      };
      // arith.bitcast keeps the lane count; other reinterpretations
      // (uint32 -> float16x2) are one T.reinterpret intrinsic.
      if (lanes(s.value.getType()) != lanes(want)) {
        auto op = tile::IntrinsicOp::create(
            ir->b, ir->loc(at), mlir::TypeRange{want},
            ir->b.getStringAttr("T.reinterpret"), mlir::ValueRange{s.value},
            ir->b.getStrArrayAttr({"value"}), mlir::DictionaryAttr());
        return wrapScalar({op->getResult(0), *t, SymExpr()});
      }
      return wrapScalar({mlir::arith::BitcastOp::create(ir->b, ir->loc(at),
                                                              want, s.value),
                         *t, SymExpr()});
    }
    return castTo(v, *t, at);
  }
  case BuiltinId::Infinity:
  case BuiltinId::MaxValue:
  case BuiltinId::MinValue: {
    Value dt = p.getOr("dtype", Value::poison());
    std::optional<lang::DType> t = toDType(dt, p.node("dtype"));
    if (!t) {
      if (dt.isAbrupt())
        return dt;
      return fail(p.node("dtype"), "unknown dtype " + toString(dt, true));
    }
    mlir::Type vt = ir->valueType(*t);
    mlir::Location l = ir->loc(at);
    if (auto ft = mlir::dyn_cast<mlir::FloatType>(vt)) {
      llvm::APFloat f =
          p.info.id == BuiltinId::Infinity
              ? llvm::APFloat::getInf(ft.getFloatSemantics())
              : llvm::APFloat::getLargest(ft.getFloatSemantics(),
                                          p.info.id == BuiltinId::MinValue);
      // At trace time outside a kernel: the number itself.
      if (!tracing())
        return Value::floating(f.convertToDouble());
      mlir::Value c = mlir::arith::ConstantOp::create(ir->b, 
          l, ft, ir->b.getFloatAttr(ft, f));
      return wrapScalar({c, *t, SymExpr()});
    }
    if (p.info.id == BuiltinId::Infinity)
      return fail(at, "T.infinity needs a floating-point dtype");
    unsigned bits = vt.getIntOrFloatBitWidth();
    bool u = t->isUnsignedInteger();
    llvm::APInt v = p.info.id == BuiltinId::MaxValue
                        ? (u ? llvm::APInt::getMaxValue(bits)
                             : llvm::APInt::getSignedMaxValue(bits))
                        : (u ? llvm::APInt::getMinValue(bits)
                             : llvm::APInt::getSignedMinValue(bits));
    if (!tracing())
      return bits <= 63 || !u ? Value::integer(u ? int64_t(v.getZExtValue())
                                                 : v.getSExtValue())
                              : heap.opaque("typed constant");
    mlir::Value c = mlir::arith::ConstantOp::create(ir->b, 
        l, vt, ir->b.getIntegerAttr(vt, v));
    return wrapScalar({c, *t, SymExpr()});
  }
  case BuiltinId::Round:
  case BuiltinId::Pow:
  case BuiltinId::Fmod: {
    if (p.info.id == BuiltinId::Pow)
      return binary(syntax::BinaryOp::Pow, p.getOr("x", Value::poison()),
                    p.getOr("y", Value::poison()), at);
    if (p.info.id == BuiltinId::Fmod) {
      Value x = p.getOr("x", Value::poison()), y = p.getOr("y", Value::poison());
      if (x.isNumber() && y.isNumber())
        return Value::floating(std::fmod(x.getFloat(), y.getFloat()));
      return binary(syntax::BinaryOp::Mod, x, y, at);
    }
    Value x = p.getOr("x", Value::poison());
    if (x.isNumber())
      return Value::floating(std::nearbyint(x.getFloat()));
    if (!tracing())
      return heap.opaque("round");
    Scalar s = toScalar(x, p.node("x"));
    if (!s)
      return Value::poison();
    return wrapScalar(
        {mlir::math::RoundEvenOp::create(ir->b, ir->loc(at), s.value), s.dtype,
         SymExpr()});
  }
  case BuiltinId::Assume: {
    // A promise about IR values inside a kernel becomes tile.assume (the
    // bounds pass and the printers read it); one the trace decides, or one
    // outside a kernel, is no code.
    Value c = p.getOr("cond", Value::none());
    Truth t = truth(c, p.node("cond"));
    if (t == Truth::Abrupt)
      return c;
    if (t != Truth::IR || !kernel || !tracing())
      return Value::none();
    Scalar s = toScalar(c, p.node("cond"));
    if (!s)
      return Value::poison();
    tile::AssumeOp::create(
        ir->b, ir->loc(at),
        ir->convert(s.value, ir->b.getI1Type(), ir->loc(at)));
    return Value::none();
  }
  case BuiltinId::Likely:
    return p.getOr("cond", Value::none());
  case BuiltinId::Ldg: {
    // T.__ldg(x[i]) is the load x[i]; T.__ldg(buf, i) loads element i of a
    // 1-D buffer (TileLang's flat index, one index or a one-index list).
    Value v = p.getOr("load_or_buf", Value::poison());
    Value idx = p.getOr("index", Value::none());
    if (v.isAbrupt())
      return v;
    if (idx.isAbrupt())
      return idx;
    if (v.is(ValueKind::Region) && v.as<RegionObj>()->isElement) {
      if (!idx.isNone())
        return fail(p.node("index"), "T.__ldg takes an index only with a "
                                     "buffer; x[i] is already one element");
      return v;
    }
    if (!v.is(ValueKind::Buffer))
      return fail(p.node("load_or_buf"),
                  "T.__ldg expects an element load (x[i]) or a buffer, not " +
                      v.getTypeName());
    if (idx.isNone())
      return fail(at, "T.__ldg(buffer, index) needs an index when given a "
                      "buffer");
    if (idx.is(ValueKind::Tuple) || idx.is(ValueKind::List)) {
      if (getElems(idx).size() != 1)
        return fail(p.node("index"), "T.__ldg takes one flat index, got " +
                                         std::to_string(getElems(idx).size()));
      idx = getElems(idx)[0];
    }
    if (v.as<BufferObj>()->shape.size() != 1)
      return fail(p.node("load_or_buf"),
                  "T.__ldg(buffer, index) takes a 1-D buffer; index an "
                  "element instead (T.__ldg(x[i, j]))");
    return subscript(v, idx, p.node("index"));
  }
  default:
    if (p.info.category == lang::BuiltinCategory::Math &&
        p.info.findParam("x") == 0 && p.info.params.size() == 1)
      return unaryMath(p);
    if (p.info.kind == lang::BuiltinKind::Namespace ||
        p.info.kind == lang::BuiltinKind::Value)
      return fail(at, "'" + p.info.name + "' is not callable");
    return fail(at, "'" + p.info.name + "' is not implemented by tlc yet");
  }
}
