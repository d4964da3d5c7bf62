//===- KernelOps.cpp - Kernel frames, buffers, loops and dispatch ---------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The kernel-level T.* primitives: `T.Kernel`, allocations and tensor
// annotations, loops, thread and block bindings, layout annotations and
// debug ops, with their checks (nesting, thread counts, cluster shapes) and
// hints, and the dispatch of every kernel primitive to its builder (the
// tile operations live in TileCopy.cpp, TileGemm.cpp, TileFillReduce.cpp
// and AtomicAdd.cpp).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::MemoryScope;

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// T.Tensor(shape, dtype) and friends used as a type.
static Value makeTensorType(Interpreter &in, const PArgs &p,
                            MemoryScope scope) {
  Value shapeV = p.getOr("shape", Value::poison());
  if (shapeV.isAbrupt())
    return shapeV;
  auto *t = in.heap.make<BufferObj>();
  t->objKind = ObjKind::TensorType;
  if (!in.toShape(shapeV, t->shape, p.node("shape")))
    return Value::poison();
  // Which opaque value each extent tlc cannot evaluate is (one symbol per
  // value, makeTensorFromAnnotation).
  llvm::ArrayRef<Value> dims =
      shapeV.isSequence() ? getElems(shapeV) : llvm::ArrayRef<Value>(shapeV);
  for (Value d : dims)
    t->opaqueExtents.push_back(d.is(ValueKind::Opaque) ? d.as<OpaqueObj>()
                                                       : nullptr);
  t->dtype = lang::DType(lang::ScalarType::Float32);
  if (std::optional<Value> dt = p.get("dtype")) {
    // `typing.Any` in a generic annotation: the argument's dtype, which
    // tlc does not know before the call.
    if (dt->is(ValueKind::Opaque) &&
        dt->as<OpaqueObj>()->description == "typing.Any") {
      in.anyDTypeTensors.insert(t);
      dt = in.heap.strNoCopy("float32");
    }
    // Whether toDType falls back to float32 for a dtype it cannot
    // evaluate: such a tensor's dtype is not checked at kernel calls.
    bool wasAssumed = in.instance && in.instance->assumedDType;
    if (in.instance)
      in.instance->assumedDType = false;
    std::optional<lang::DType> d = in.toDType(*dt, p.node("dtype"));
    if (in.instance) {
      if (in.instance->assumedDType)
        in.assumedDTypeTensors.insert(t);
      in.instance->assumedDType |= wasAssumed;
    }
    if (!d) {
      if (dt->isAbrupt())
        return *dt;
      return in.fail(p.node("dtype"), "unknown dtype " + in.toString(*dt, true));
    }
    t->dtype = *d;
  }
  // T.StridedTensor[shape, strides, dtype] / T.Buffer(..., strides=...):
  // one stride per dimension, in elements.
  if (std::optional<Value> st = p.get("strides"); st && !st->isNone()) {
    if (st->isAbrupt())
      return *st;
    Node at = p.node("strides");
    llvm::ArrayRef<Value> elems =
        st->isSequence() ? getElems(*st) : llvm::ArrayRef<Value>(*st);
    for (Value e : elems) {
      if (e.isIntLike() && e.getInt() >= 0)
        t->strides.push_back(in.syms.constant(e.getInt()));
      else if (e.is(ValueKind::Sym))
        t->strides.push_back(e.getSym());
      else if (e.is(ValueKind::Expr) && e.as<ExprObj>()->sym)
        t->strides.push_back(e.as<ExprObj>()->sym);
      else if (e.isIntLike())
        return in.fail(at, "negative stride " + llvm::Twine(e.getInt()));
      else
        return in.fail(at, "strides must be integers or symbols, not '" +
                               e.getTypeName() + "'");
    }
    if (t->strides.size() != t->shape.size())
      return in.fail(at, llvm::Twine(t->strides.size()) +
                             " strides for a shape of rank " +
                             llvm::Twine(t->shape.size()) +
                             "; give one stride per dimension");
  }
  t->scope = scope;
  if (std::optional<Value> sc = p.get("scope"))
    if (sc->isStr())
      if (std::optional<MemoryScope> s = lang::parseScope(getStr(*sc)))
        t->scope = *s;
  t->range = p.call.range();
  // `T.Tensor(shape, dtype, buffer.data)` inside a kernel: the same memory
  // seen with another shape.
  if (std::optional<Value> data = p.get("data");
      data && data->is(ValueKind::Buffer) && in.tracing())
    return viewBuffer(in, data->as<BufferObj>(), t->shape, t->dtype, p.call);
  return Value::object(ValueKind::Object, t);
}

/// True when the body of \p def calls T.Kernel (or another launch frame
/// whose name ends in `Kernel`) somewhere.
static bool launchesKernel(Node def) {
  bool found = false;
  for (Node stmt : def.children(Field::body))
    syntax::walk(stmt, [&](Node n) {
      if (n.kind() == NodeKind::Call &&
          n.child(Field::func).text().ends_with("Kernel")) {
        found = true;
        return syntax::WalkResult::Interrupt;
      }
      return syntax::WalkResult::Advance;
    });
  return found;
}

/// T.alloc_* with a shape.
Value tlc::eval::allocate(Interpreter &in, const PArgs &p, MemoryScope scope) {
  // A prim_func with no launch at all (TIR written for TVM's own passes,
  // e.g. the body an intrinsic emitter fills): TileLang accepts its
  // allocations, but there is no kernel to analyse them in.
  if (!lang::isGlobalScope(scope) && !in.kernel && in.tracing() &&
      in.instance->def && !launchesKernel(in.instance->def)) {
    in.warning(p.call, p.info.name +
                           " outside any T.Kernel, in a prim_func that "
                           "launches none (TIR-level code): tlc does not "
                           "analyse this buffer or the code that uses it");
    return Value::poison();
  }
  // Plain Python outside any prim_func (a lambda a test keeps for later):
  // no IR is being built, so the call is an inert placeholder object,
  // which cannot be iterated (Operators.cpp iterate).
  if (!in.tracing())
    return in.heap.opaque(
        in.heap.copyString(std::string(p.info.name) + " placeholder"));
  if (!lang::isGlobalScope(scope) && in.checkInKernel(p.info.name, p.call))
    return Value::poison();
  Value shapeV = p.getOr("shape", Value::poison());
  if (shapeV.isAbrupt())
    return shapeV;
  llvm::SmallVector<SymExpr, 4> shape;
  if (!in.toShape(shapeV, shape, p.node("shape")))
    return Value::poison();
  Value dt = p.getOr("dtype", in.heap.strNoCopy("float32"));
  std::optional<lang::DType> dtype = in.toDType(dt, p.node("dtype"));
  if (!dtype) {
    if (dt.isAbrupt())
      return dt;
    return in.fail(p.node("dtype"), "unknown dtype " + in.toString(dt, true));
  }
  if (std::optional<Value> sc = p.get("scope")) {
    if (!sc->isStr())
      return in.fail(p.node("scope"), "scope must be a string");
    std::optional<MemoryScope> s = lang::parseScope(getStr(*sc));
    if (!s)
      return in.fail(p.node("scope"),
                     "unknown memory scope '" + getStr(*sc) + "'");
    scope = *s;
  }
  // TVM's T.alloc_buffer defaults to the 'global' scope. Inside a kernel
  // such an allocation reaches TileLang's device code generators, which
  // refuse it (PrintStorageScope: "Cannot allocate global memory when
  // targeting CUDA. You must pass all global arrays as input instead"),
  // for every GPU target.
  if (lang::isGlobalScope(scope) && in.kernel)
    return in.fail(
        p.call,
        p.info.name +
            " of a 'global' buffer inside T.Kernel: TileLang cannot "
            "allocate global memory in a kernel (its code generators ask "
            "to pass every global array as an input instead); make it a "
            "parameter of the prim_func, allocate it with T.alloc_global "
            "before the T.Kernel, or give it an on-chip scope "
            "(scope=\"shared\", \"local\", \"local.fragment\")");
  BufferObj *b = in.makeBuffer("", shape, *dtype, scope, p.call, false);
  return Value::object(ValueKind::Buffer, b);
}

Value tlc::eval::allocateBarriers(Interpreter &in, const PArgs &p,
                                  MemoryScope scope) {
  if (in.checkInKernel(p.info.name, p.call))
    return Value::poison();
  Value counts = p.getOr("arrive_count", Value::poison());
  llvm::SmallVector<int64_t, 4> ints;
  if (counts.isSequence()) {
    for (Value c : getElems(counts))
      ints.push_back(c.isIntLike() ? c.getInt() : 0);
  } else {
    ints.push_back(counts.isIntLike() ? counts.getInt() : 0);
  }
  // An mbarrier counts arrivals in 20 bits; TileLang rejects a count
  // outside [1, 2^20 - 1] with a ValueError when the kernel is traced.
  llvm::SmallVector<Value, 4> given;
  if (counts.isSequence())
    llvm::append_range(given, getElems(counts));
  else
    given.push_back(counts);
  for (Value c : given) {
    if (!c.isIntLike())
      continue;
    int64_t n = c.getInt();
    if (n < 1 || n > (int64_t(1) << 20) - 1) {
      in.errorAs("ValueError", p.node("arrive_count").range(),
                 llvm::Twine(p.info.name) + ": arrive_count must be " +
                     (n < 1 ? "at least 1" : "at most 1048575") +
                     " (an mbarrier's 20-bit arrival count), got " +
                     llvm::Twine(n));
      return Value::poison();
    }
  }
  BufferObj *b = in.makeBuffer("", {in.syms.constant(ints.size())},
                               lang::DType(lang::ScalarType::UInt64), scope,
                               p.call, false);
  b->value.getDefiningOp()->setAttr("arrive_counts",
                                    in.ir->b.getDenseI64ArrayAttr(ints));
  return Value::object(ValueKind::Buffer, b);
}

/// Builds a LoopFrame from (start, stop, step) arguments.
static Value makeRangeLoop(Interpreter &in, const PArgs &p, LoopKind kind) {
  auto *loop = in.heap.make<LoopFrameObj>();
  loop->objKind = ObjKind::LoopFrame;
  loop->loopKind = kind;
  loop->call = p.call;
  Value start = p.getOr("start", Value::integer(0));
  std::optional<Value> stop = p.get("stop");
  if (!stop || stop->isNone()) {
    loop->starts.push_back(Value::integer(0));
    loop->stops.push_back(start);
  } else {
    loop->starts.push_back(start);
    loop->stops.push_back(*stop);
  }
  Value step = p.getOr("step", Value::integer(1));
  loop->steps.push_back(step.isNone() ? Value::integer(1) : step);
  for (Value v : {loop->starts[0], loop->stops[0], loop->steps[0]})
    if (v.isAbrupt())
      return v;
  if (kind == LoopKind::Pipelined) {
    Value ns = p.getOr("num_stages", Value::integer(0));
    loop->numStages = ns.isIntLike() ? ns.getInt() : 0;
    loop->order = p.getOr("order", Value::none());
    loop->stage = p.getOr("stage", Value::none());
    loop->group = p.getOr("group", Value::none());
    // `T.Pipelined(n, order=..., stage=...)` without num_stages: the stage
    // list says how many stages there are (TileLang plans from it).
    if ((ns.isNone() || !p.get("num_stages")) && loop->stage.isSequence()) {
      int64_t maxStage = -1;
      for (const Value &s : getElems(loop->stage))
        if (s.isIntLike())
          maxStage = std::max<int64_t>(maxStage, s.getInt());
      if (maxStage >= 0)
        loop->numStages = std::max<int64_t>(loop->numStages, maxStage + 1);
    }
  }
  return in.heap.obj(ObjKind::LoopFrame, loop);
}

/// Whether the instance being traced is one of a factory nothing calls
/// (its parameters symbols), with no --kernel asking for one. TileLang
/// traces a factory only when it is called, so such an instance does not
/// warn about a value only a call supplies.
static bool inUncalledInstance(Interpreter &in) {
  return in.tracingDefaults && in.defaultsSymbolic &&
         in.options.kernelFilter.empty();
}

/// Whether \p b's shape is not static only through parameters no call site
/// gave a value, in an uncalled instance (inUncalledInstance).
static bool shapeFromUncalledParams(Interpreter &in, BufferObj *b) {
  if (!inUncalledInstance(in))
    return false;
  bool onlyParams = true, any = false;
  for (SymExpr d : b->shape) {
    if (!d || d.isConstant())
      continue;
    in.syms.substitute(d, [&](const SymNode *n) {
      auto it = in.symbolKinds.find(n->name);
      any = true;
      // Meta (2): a factory parameter without a value.
      if (it == in.symbolKinds.end() || it->second != 2)
        onlyParams = false;
      return SymExpr();
    });
  }
  return any && onlyParams;
}

/// T.Parallel(..., loop_layout=F): F, a T.Fragment over the loop's
/// iterations (its input shape the extents), decides which thread runs
/// each iteration, and so the layouts of the fragments the loop touches
/// (layout inference pins the loop's `loop_layout`, as TileLang prefers a
/// user annotation to every other source). What is not such a fragment is
/// an error at the argument; a fragment tlc cannot evaluate is a warning.
static void setParallelLoopLayout(Interpreter &in, LoopFrameObj &loop, Value f,
                                  syntax::Node arg) {
  if (f.isNone() || f.isAbrupt())
    return;
  // A layout parameter no call site binds (a default instance): the loop
  // is analysed as if it had none (silently where nothing calls the
  // factory).
  if (f.is(ValueKind::Sym) && f.getSym().isSymbol()) {
    if (!inUncalledInstance(in))
      in.warning(arg, "loop_layout '" + f.getSym().str() +
                          "' has no value in this instance; the loop is "
                          "analysed without it");
    return;
  }
  if (!f.isObj(ObjKind::Layout)) {
    in.error(arg, "loop_layout of T.Parallel must be a T.Fragment");
    return;
  }
  auto *lo = f.as<LayoutObj>();
  if (!lo->attr) {
    std::string why = lo->whyOpaque.empty()
                          ? "tlc cannot evaluate " + lo->description.str()
                          : lo->whyOpaque;
    in.warning(arg, "the loop_layout of this T.Parallel is not used: " + why);
    return;
  }
  std::optional<layout::Fragment> frag = tile::decodeFragment(lo->attr);
  if (!frag) {
    in.error(arg, "loop_layout of T.Parallel must be a T.Fragment (this is "
                  "a T.Layout: it places elements, not iterations on "
                  "threads)");
    return;
  }
  llvm::ArrayRef<int64_t> shape = frag->getInputShape();
  bool fits = shape.size() == loop.stops.size();
  for (unsigned d = 0; fits && d < shape.size(); ++d)
    if (loop.stops[d].isIntLike() && loop.stops[d].getInt() != shape[d])
      fits = false;
  if (!fits) {
    std::string want, have;
    for (const Value &e : loop.stops)
      want += (want.empty() ? "" : ", ") +
              (e.isIntLike() ? std::to_string(e.getInt()) : std::string("?"));
    for (int64_t e : shape)
      have += (have.empty() ? "" : ", ") + std::to_string(e);
    in.error(arg, "the loop_layout fragment is over [" + have +
                      "] but the T.Parallel iterates over [" + want +
                      "] (its input shape must be the loop's extents)");
    return;
  }
  loop.loopLayout = lo->attr;
  loop.loopLayoutArg = arg;
}

/// Checks the CUDA Tile IR launch hints of `T.Kernel` (num_ctas, occupancy,
/// num_worker_warps, tileir_hints). TileLang converts each with int() when
/// it builds the launch (a non-integer raises there) and leaves the ranges
/// to its Tile IR lowering; tlc has no Tile IR backend and its targets
/// ignore the hints, so a value out of Tile IR's range is a warning.
/// False when an error was reported.
static bool checkTileIRHints(Interpreter &in, const PArgs &p) {
  struct Hint {
    llvm::StringRef name;
    bool (*valid)(int64_t);
    llvm::StringRef range;
  };
  static const Hint hints[] = {
      {"num_ctas",
       [](int64_t v) { return v >= 1 && v <= 16 && (v & (v - 1)) == 0; },
       "a power of two in [1, 16]"},
      {"occupancy", [](int64_t v) { return v >= 1 && v <= 32; },
       "in [1, 32]"},
      {"num_worker_warps", [](int64_t v) { return v == 4 || v == 8; },
       "4 or 8"},
  };
  bool scalarHint = false;
  for (const Hint &h : hints) {
    std::optional<Value> v = p.get(h.name);
    if (!v || v->isNone())
      continue;
    scalarHint = true;
    if (!v->isIntLike()) {
      in.error(p.node(h.name), "T.Kernel's " + h.name +
                                   " must be an integer, not '" +
                                   v->getTypeName() + "'");
      return false;
    }
    if (!h.valid(v->getInt()))
      in.warning(p.node(h.name),
                 "CUDA Tile IR takes " + h.name + " " + h.range + ", not " +
                     llvm::Twine(v->getInt()) +
                     " (tlc's targets ignore this hint)");
  }
  // TileLang's OpenMP thread count for the C target (`num_threads(n)` on
  // the parallel grid loop): a positive integer; tlc's CPU target ignores
  // it.
  if (std::optional<Value> n = p.get("cpu_num_threads");
      n && !n->isNone() && !n->is(ValueKind::Sym) &&
      (!n->isIntLike() || n->isBool() || n->getInt() < 1)) {
    in.errorAs("ValueError", p.node("cpu_num_threads").range(),
               "T.Kernel's cpu_num_threads must be a positive integer, not " +
                   in.toString(*n, true));
    return false;
  }
  std::optional<Value> t = p.get("tileir_hints");
  if (!t || t->isNone())
    return true;
  if (!t->is(ValueKind::Dict)) {
    in.error(p.node("tileir_hints"),
             "tileir_hints must be a dict of per-architecture hint dicts, "
             "not '" +
                 t->getTypeName() + "'");
    return false;
  }
  for (auto &arch : t->as<DictObj>()->items) {
    bool ok = arch.second.is(ValueKind::Dict) || arch.second.isNone();
    if (ok && arch.second.is(ValueKind::Dict))
      for (auto &kv : arch.second.as<DictObj>()->items)
        ok = ok && kv.second.isIntLike();
    if (!ok) {
      in.error(p.node("tileir_hints"),
               "tileir_hints: each per-architecture value must be a dict of "
               "integer hint values (e.g. {'sm_100': {'num_cta_in_cga': 2}})");
      return false;
    }
  }
  if (scalarHint)
    in.warning(p.node("tileir_hints"),
               "tileir_hints cannot be combined with num_ctas, occupancy or "
               "num_worker_warps (CUDA Tile IR rejects the launch; tlc's "
               "targets ignore the hints)");
  return true;
}

/// The frame of `T.Kernel`, `T.ClusterKernel` or `T.CUDASourceCodeKernel`.
/// A grid extent tlc cannot know (a value from outside TileLang) becomes a
/// run-time symbol with a warning, so the body is still analysed.
Value Interpreter::makeKernelFrame(const PArgs &p) {
  Node at = p.call;
  auto *k = heap.make<KernelFrameObj>();
  k->call = at;
  llvm::ArrayRef<Value> blocks = p.rest("blocks");
  for (size_t i = 0; i < blocks.size(); ++i) {
    Value g = blocks[i];
    if (g.isAbrupt())
      return g;
    if (g.is(ValueKind::Opaque)) {
      // Said at the extent, by its text: `'<object>'` named nothing.
      Node extent = p.args.pos.size() == blocks.size() &&
                            i < p.args.posNodes.size() && p.args.posNodes[i]
                        ? p.args.posNodes[i]
                        : at;
      warning(extent, "tlc cannot evaluate the grid extent '" +
                          (extent == at ? toString(g) : extent.text().str()) +
                          "' (a value from outside TileLang); it is "
                          "analysed as a run-time value");
      g = Value::sym(syms.freshSymbol("grid"));
    } else if (!g.isIntLike() && !g.is(ValueKind::Sym) &&
               !g.is(ValueKind::Expr)) {
      error(at, "grid extents must be integers, not '" + g.getTypeName() +
                    "'");
      g = Value::sym(syms.freshSymbol("grid"));
    }
    k->grid.push_back(g);
  }
  // T.PersistentKernel's tile order (order=, panel_size=): which worker
  // takes which tile, as T.use_swizzle; each tile's indices are the same.
  if (p.info.id == BuiltinId::PersistentKernel) {
    Value order = p.getOr("order", Value::none());
    if (!order.isNone() && !order.isAbrupt() &&
        !(order.isStr() &&
          (getStr(order) == "row" || getStr(order) == "column")))
      return fail(p.node("order"),
                  "T.PersistentKernel(order=...) is 'row' or 'column', not " +
                      toString(order, true));
    Value ps = p.getOr("panel_size", Value::none());
    if (!ps.isNone() && !ps.isAbrupt() && ps.isIntLike() && ps.getInt() <= 0)
      return fail(p.node("panel_size"),
                  "T.PersistentKernel(panel_size=...) must be positive");
  }
  // T.MixedKernel(blocks, sids=2): TileLang's checks, then a 1-D launch
  // whose `as (bx, sid)` also binds the vector sub-core (KernelRegions.cpp).
  if (p.info.id == BuiltinId::MixedKernel) {
    if (k->grid.size() != 1) {
      errorAs("ValueError", at.range(),
              "T.MixedKernel() only supports 1-D block grid. Got " +
                  llvm::Twine(k->grid.size()) + "-D");
      return Value::poison();
    }
    Value sids = p.getOr("sids", Value::integer(2));
    if (sids.isAbrupt())
      return sids;
    if (!sids.isInt() || (sids.getInt() != 1 && sids.getInt() != 2)) {
      errorAs("ValueError", p.node("sids").range(),
              "T.MixedKernel() sids must be 1 or 2. Got " +
                  toString(sids, true));
      return Value::poison();
    }
    mixedKernelSids[k] = sids.getInt();
  }
  // `T.Kernel()` launches one block.
  if (k->grid.empty())
    k->grid.push_back(Value::integer(1));
  if (k->grid.size() > 3)
    return fail(at, "T.Kernel takes 1 to 3 grid extents, got " +
                        llvm::Twine(k->grid.size()));
  Value threads = p.getOr("threads", Value::integer(128));
  if (threads.isNone())
    threads = Value::integer(128);
  if (threads.isSequence())
    k->threads.append(getElems(threads).begin(), getElems(threads).end());
  else
    k->threads.push_back(threads);
  for (Value &t : k->threads) {
    if (t.isAbrupt())
      return t;
    if (t.is(ValueKind::Opaque))
      t = Value::sym(syms.freshSymbol("threads"));
  }
  if (std::optional<Value> c = p.get("cluster_dims")) {
    llvm::SmallVector<Value, 3> dims;
    if (c->isSequence())
      dims.append(getElems(*c).begin(), getElems(*c).end());
    else
      dims.push_back(*c);
    for (Value d : dims) {
      if (d.isNone())
        continue;
      if (d.isAbrupt())
        return d;
      // A symbol of an instance no call site made (a factory's parameter
      // with no value): checked where a call gives it one. The launch is
      // then analysed without a cluster.
      if (!d.isIntLike() && tracingDefaults && defaultsSymbolic &&
          (d.is(ValueKind::Sym) || d.is(ValueKind::Expr))) {
        k->clusterDims.clear();
        break;
      }
      if (!d.isIntLike() || d.getInt() <= 0)
        return fail(p.node("cluster_dims"),
                    "cluster_dims must be positive integers, got " +
                        toString(d, true));
      k->clusterDims.push_back(d.getInt());
    }
    // A cluster launch tiles the grid with clusters: every static grid
    // extent must be a multiple of the cluster's extent along it (a grid
    // extent known only at run time is checked by the launcher).
    for (auto [i, d] : llvm::enumerate(k->clusterDims)) {
      int64_t g = i < k->grid.size()
                      ? (k->grid[i].isIntLike() ? k->grid[i].getInt() : 0)
                      : 1;
      if (d > 1 && g > 0 && g % d)
        return fail(p.node("cluster_dims"),
                    "the grid's extent " + llvm::Twine(g) + " along " +
                        std::string(1, "xyz"[std::min<size_t>(i, 2)]) +
                        " is not a multiple of the cluster's extent " +
                        llvm::Twine(d) +
                        " (a cluster launch tiles the grid with clusters)");
    }
  }
  if (!checkTileIRHints(*this, p))
    return Value::poison();
  if (std::optional<Value> s = p.get("source_code_or_path"))
    if (s->isStr())
      k->sourceCode = getStr(*s);
  if (std::optional<Value> prelude = p.get("prelude")) {
    Value r = importSource(*prelude, p.node("prelude"));
    if (r.isAbrupt())
      return r;
  }
  return heap.obj(ObjKind::KernelFrame, k);
}

/// The tile operations that compute with their operands' values: an
/// operand of unpacked 4/6-bit float codes would be computed on as bytes.
static bool computesOnElements(lang::BuiltinId id) {
  using lang::BuiltinId;
  switch (id) {
  case BuiltinId::Gemm:
  case BuiltinId::Tcgen05Gemm:
  case BuiltinId::GemmSp:
  case BuiltinId::GemmBlockscaled:
  case BuiltinId::MmaGemmBlockscaled:
  case BuiltinId::WgmmaGemm:
  case BuiltinId::Fill:
  case BuiltinId::ReduceMax:
  case BuiltinId::ReduceMin:
  case BuiltinId::ReduceSum:
  case BuiltinId::ReduceAbssum:
  case BuiltinId::ReduceAbsmax:
  case BuiltinId::ReduceBitand:
  case BuiltinId::ReduceBitor:
  case BuiltinId::ReduceBitxor:
  case BuiltinId::Reduce:
  case BuiltinId::ReduceArgmax:
  case BuiltinId::ReduceArgmin:
  case BuiltinId::Cumsum:
  case BuiltinId::AtomicAdd:
  case BuiltinId::AtomicAddx2:
  case BuiltinId::AtomicAddx4:
    return true;
  default:
    return false;
  }
}

std::optional<Value> Interpreter::callKernelPrimitive(const PArgs &p) {
  Node at = p.call;
  // Unpacked float codes are storage: TileLang has no arithmetic on them
  // and tlc no MMA that reads them (f8f6f4 kinds), so an operation that
  // computes with an operand's values refuses them (T.clear writes code 0,
  // +0.0, and stays allowed).
  if (computesOnElements(p.info.id)) {
    auto check = [&](const Value &v) -> bool {
      BufferObj *buf = nullptr;
      if (v.is(ValueKind::Buffer))
        buf = v.as<BufferObj>();
      else if (v.is(ValueKind::Region))
        buf = v.as<RegionObj>()->buffer;
      if (!buf || !buf->dtype.isUnpackedFloat())
        return true;
      error(at, p.info.name + " of '" + buf->name + "' (" +
                    buf->dtype.getName() +
                    "): unpacked float codes are storage only (T.copy, "
                    "T.reinterpret, T.Cast); convert them to a float tile "
                    "first");
      return false;
    };
    for (const Value &v : p.args.pos)
      if (!check(v))
        return Value::poison();
    for (const auto &kv : p.args.kw)
      if (!check(kv.second))
        return Value::poison();
  }
  switch (p.info.id) {
  case BuiltinId::Tensor:
  case BuiltinId::Buffer:
  case BuiltinId::StridedTensor:
    return makeTensorType(*this, p, MemoryScope::Global);
  case BuiltinId::SharedBuffer:
    return makeTensorType(*this, p, MemoryScope::SharedDyn);
  case BuiltinId::FragmentBuffer:
    return makeTensorType(*this, p, MemoryScope::Fragment);
  case BuiltinId::LocalBuffer:
    return makeTensorType(*this, p, MemoryScope::Local);
  case BuiltinId::Empty: {
    if (!tracing())
      return fail(at, "T.empty can only be used in an eager @tilelang.jit "
                      "function");
    llvm::ArrayRef<Value> dims = p.rest("shape");
    Value dt = p.getOr("dtype", heap.strNoCopy("float32"));
    // T.empty(shape, dtype) passes the dtype positionally.
    if (!p.get("dtype") && dims.size() >= 2 &&
        (dims.back().is(ValueKind::DType) || dims.back().isStr() ||
         dims.back().is(ValueKind::Opaque) ||
         (dims.size() == 2 && dims[0].isSequence()))) {
      dt = dims.back();
      dims = dims.drop_back();
    }
    Value shapeV = dims.size() == 1 && dims[0].isSequence()
                       ? dims[0]
                       : heap.tuple(dims);
    llvm::SmallVector<SymExpr, 4> shape;
    if (!toShape(shapeV, shape, at))
      return Value::poison();
    std::optional<lang::DType> dtype = toDType(dt, p.node("dtype"));
    if (!dtype)
      return dt.isAbrupt() ? dt
                           : fail(p.node("dtype"),
                                  "unknown dtype " + toString(dt, true));
    BufferObj *b = makeBuffer("", shape, *dtype, MemoryScope::Global, at, true);
    instance->outputs.push_back(b);
    return Value::object(ValueKind::Buffer, b);
  }
  case BuiltinId::AllocShared:
    return allocate(*this, p, MemoryScope::SharedDyn);
  case BuiltinId::AllocFragment:
    return allocate(*this, p, MemoryScope::Fragment);
  case BuiltinId::AllocLocal:
    return allocate(*this, p, MemoryScope::Local);
  case BuiltinId::AllocGlobal:
    return allocate(*this, p, MemoryScope::Global);
  case BuiltinId::AllocBuffer:
    return allocate(*this, p, MemoryScope::Global);
  case BuiltinId::AllocVar: {
    // A prim_func without a T.Kernel is host code: a variable there is a
    // scalar of the host function (what TileLang's TIR holds too).
    if (!tracing() && checkInKernel("T.alloc_var", at))
      return Value::poison();
    Value dt = p.getOr("dtype", Value::poison());
    std::optional<lang::DType> dtype = toDType(dt, p.node("dtype"));
    if (!dtype)
      return dt.isAbrupt() ? dt
                           : fail(p.node("dtype"),
                                  "unknown dtype " + toString(dt, true));
    Value init = p.getOr("init", Value::none());
    for (Value extra : p.rest("args")) {
      if (extra.isStr())
        continue; // a scope string
      init = extra;
    }
    mlir::Value initValue;
    if (!init.isNone() && !init.isAbrupt()) {
      mlir::Type want = ir->valueType(*dtype);
      Scalar s = toScalar(init, p.node("init"), want);
      if (s)
        initValue = ir->convert(s.value, want, ir->loc(at),
                                s.dtype.isUnsignedInteger());
    }
    BufferObj *b = makeBuffer("", {syms.constant(1)}, *dtype,
                              MemoryScope::LocalVar, at, false, initValue);
    return Value::object(ValueKind::Buffer, b);
  }
  case BuiltinId::AllocBarrier:
    return allocateBarriers(*this, p, MemoryScope::Barrier);
  case BuiltinId::Kernel:
  case BuiltinId::ClusterKernel:
  case BuiltinId::CUDASourceCodeKernel:
  case BuiltinId::PersistentKernel:
  case BuiltinId::MixedKernel:
    return makeKernelFrame(p);
  case BuiltinId::Parallel: {
    auto *loop = heap.make<LoopFrameObj>();
    loop->loopKind = LoopKind::Parallel;
    loop->call = at;
    for (Value e : p.rest("extents")) {
      if (e.isAbrupt())
        return e;
      loop->starts.push_back(Value::integer(0));
      loop->stops.push_back(e);
      loop->steps.push_back(Value::integer(1));
    }
    if (loop->stops.empty())
      return fail(at, "T.Parallel needs at least one extent");
    if (std::optional<Value> f = p.get("loop_layout"))
      setParallelLoopLayout(*this, *loop, *f, p.node("loop_layout"));
    return heap.obj(ObjKind::LoopFrame, loop);
  }
  case BuiltinId::Grid: {
    auto *loop = heap.make<LoopFrameObj>();
    loop->loopKind = LoopKind::Serial;
    loop->call = at;
    for (Value e : p.rest("extents")) {
      loop->starts.push_back(Value::integer(0));
      loop->stops.push_back(e);
      loop->steps.push_back(Value::integer(1));
    }
    return heap.obj(ObjKind::LoopFrame, loop);
  }
  case BuiltinId::Pipelined:
    return makeRangeLoop(*this, p, LoopKind::Pipelined);
  case BuiltinId::ParallelFor: {
    // TIR's parallel-kind loop: inside a kernel TileLang lays it out as a
    // T.Parallel (both are ForKind.PARALLEL loops to its layout
    // inference); one from 0 with step 1 is one here too.
    Value loop = makeRangeLoop(*this, p, LoopKind::Serial);
    if (loop.isAbrupt() || !kernel)
      return loop;
    auto *frame = loop.as<LoopFrameObj>();
    Value start = frame->starts[0], step = frame->steps[0];
    if (start.isIntLike() && start.getInt() == 0 && step.isIntLike() &&
        step.getInt() == 1)
      frame->loopKind = LoopKind::Parallel;
    return loop;
  }
  case BuiltinId::Serial:
    return makeRangeLoop(*this, p, LoopKind::Serial);
  case BuiltinId::Unroll:
    return makeRangeLoop(*this, p, LoopKind::Unroll);
  case BuiltinId::Vectorized:
    return makeRangeLoop(*this, p, LoopKind::Vectorized);
  case BuiltinId::Copy:
    return tileCopy(*this, p);
  case BuiltinId::Gemm:
  case BuiltinId::Tcgen05Gemm:
    // T.tcgen05_gemm: T.gemm into tensor memory with its mbar (Blackwell).
    return tileGemm(*this, p);
  case BuiltinId::GemmSp:
    return tileGemmSp(*this, p);
  case BuiltinId::GemmBlockscaled:
  case BuiltinId::MmaGemmBlockscaled:
    return tileGemmBlockscaled(*this, p);
  case BuiltinId::WgmmaGemm: {
    // T.wgmma_gemm: T.gemm on Hopper's wgmma only (tile.wgmma_only); layout
    // inference treats it as T.gemm, a target without wgmma refuses it.
    Value r = tileGemm(*this, p);
    mlir::Block *block = ir->b.getInsertionBlock();
    if (!r.isAbrupt() && !r.isPoison() && block && !block->empty())
      if (auto gemm = llvm::dyn_cast<tile::GemmOp>(block->back()))
        gemm->setAttr("tile.wgmma_only", ir->b.getUnitAttr());
    return r;
  }
  case BuiltinId::Fill:
    return tileFill(*this, p, false);
  case BuiltinId::Clear:
    return tileFill(*this, p, true);
  case BuiltinId::ReduceMax:
    return tileReduce(*this, p, tile::ReduceKind::Max);
  case BuiltinId::ReduceMin:
    return tileReduce(*this, p, tile::ReduceKind::Min);
  case BuiltinId::ReduceSum:
    return tileReduce(*this, p, tile::ReduceKind::Sum);
  case BuiltinId::ReduceAbssum:
    return tileReduce(*this, p, tile::ReduceKind::AbsSum);
  case BuiltinId::ReduceAbsmax:
    return tileReduce(*this, p, tile::ReduceKind::AbsMax);
  case BuiltinId::ReduceBitand:
    return tileReduce(*this, p, tile::ReduceKind::BitAnd);
  case BuiltinId::ReduceBitor:
    return tileReduce(*this, p, tile::ReduceKind::BitOr);
  case BuiltinId::ReduceBitxor:
    return tileReduce(*this, p, tile::ReduceKind::BitXor);
  case BuiltinId::Reduce: {
    Value t = p.getOr("reduce_type", Value::poison());
    if (!t.isStr())
      return fail(p.node("reduce_type"), "reduce_type must be a string");
    std::optional<tile::ReduceKind> k =
        llvm::StringSwitch<std::optional<tile::ReduceKind>>(getStr(t))
            .Case("sum", tile::ReduceKind::Sum)
            .Case("max", tile::ReduceKind::Max)
            .Case("min", tile::ReduceKind::Min)
            .Case("abssum", tile::ReduceKind::AbsSum)
            .Case("absmax", tile::ReduceKind::AbsMax)
            .Case("bitand", tile::ReduceKind::BitAnd)
            .Case("bitor", tile::ReduceKind::BitOr)
            .Case("bitxor", tile::ReduceKind::BitXor)
            .Default(std::nullopt);
    if (!k)
      return fail(p.node("reduce_type"),
                  "unknown reduce_type '" + getStr(t) + "'");
    return tileReduce(*this, p, *k);
  }
  case BuiltinId::ReduceArgmax:
    return tileArgReduce(*this, p, /*isMax=*/true);
  case BuiltinId::ReduceArgmin:
    return tileArgReduce(*this, p, /*isMax=*/false);
  case BuiltinId::Cumsum:
    return tileCumsum(*this, p);
  case BuiltinId::Transpose:
    return tileTranspose(*this, p);
  case BuiltinId::AtomicAdd:
    return tileAtomicAdd(*this, p);
  case BuiltinId::AtomicAddx2:
    return tileAtomicAdd(*this, p, 2);
  case BuiltinId::AtomicAddx4:
    return tileAtomicAdd(*this, p, 4);
  case BuiltinId::AsyncCopy:
    return tileAsyncCopy(*this, p);
  case BuiltinId::TmaCopy:
    return tileTmaCopy(*this, p);
  case BuiltinId::GetThreadBinding: {
    if (checkInKernel("T.get_thread_binding", at))
      return Value::poison();
    Value d = p.getOr("dim", Value::integer(0));
    int64_t dim = d.isIntLike() ? d.getInt() : 0;
    if (dim < 0 || dim > 2)
      return fail(p.node("dim"), "thread dimension must be 0, 1 or 2");
    mlir::Value v = tile::ThreadBindingOp::create(ir->b, 
        ir->loc(at), ir->b.getIndexType(), ir->b.getI64IntegerAttr(dim));
    static const char *const names[] = {"tx", "ty", "tz"};
    return wrapScalar({v, lang::DType(lang::ScalarType::Int32),
                       syms.freshSymbol(names[dim])});
  }
  case BuiltinId::GetThreadBindings: {
    if (checkInKernel("T.get_thread_bindings", at))
      return Value::poison();
    llvm::SmallVector<Value, 3> vs;
    static const char *const names[] = {"tx", "ty", "tz"};
    for (int dim = 0; dim < 3; ++dim) {
      mlir::Value v = tile::ThreadBindingOp::create(ir->b, 
          ir->loc(at), ir->b.getIndexType(), ir->b.getI64IntegerAttr(dim));
      vs.push_back(wrapScalar({v, lang::DType(lang::ScalarType::Int32),
                               syms.freshSymbol(names[dim])}));
    }
    return heap.list(vs);
  }
  case BuiltinId::GetBlockBinding: {
    if (checkInKernel("T.get_block_binding", at))
      return Value::poison();
    Value d = p.getOr("dim", Value::integer(0));
    int64_t dim = d.isIntLike() ? d.getInt() : 0;
    if (dim < 0 || dim >= int64_t(kernel->blockVars.size()))
      return fail(p.node("dim"), "block dimension out of range");
    return kernel->blockVars[dim];
  }
  case BuiltinId::GetBlockBindings:
    if (checkInKernel("T.get_block_bindings", at))
      return Value::poison();
    return heap.list(kernel->blockVars);
  case BuiltinId::GetThreadExtent:
    if (checkInKernel("T.get_thread_extent", at))
      return Value::poison();
    return Value::integer(kernel->threads);
  case BuiltinId::UseSwizzle: {
    if (checkInKernel("T.use_swizzle", at))
      return Value::poison();
    Value ps = p.getOr("panel_size", Value::poison());
    if (!ps.isIntLike() || ps.getInt() <= 0)
      return ps.isAbrupt() ? ps
                           : fail(p.node("panel_size"),
                                  "panel_size must be a positive integer");
    Value order = p.getOr("order", heap.strNoCopy("row"));
    tile::SwizzleOrder o = tile::SwizzleOrder::Row;
    if (order.isStr() && getStr(order) == "column")
      o = tile::SwizzleOrder::Column;
    else if (order.isStr() && getStr(order) == "mlx")
      o = tile::SwizzleOrder::Mlx;
    auto &B = ir->b;
    tile::UseSwizzleOp::create(B, 
        ir->loc(at), B.getI64IntegerAttr(ps.getInt()),
        tile::SwizzleOrderAttr::get(B.getContext(), o),
        B.getBoolAttr(p.flag("enable", true)));
    return Value::none();
  }
  case BuiltinId::AnnotateLayout: {
    if (checkInKernel("T.annotate_layout", at))
      return Value::poison();
    Value m = p.getOr("layout_map", Value::poison());
    if (!m.is(ValueKind::Dict))
      return m.isAbrupt() ? m
                          : fail(p.node("layout_map"),
                                 "T.annotate_layout expects a dict from "
                                 "buffers to layouts");
    for (auto &kv : m.as<DictObj>()->items) {
      if (!kv.first.is(ValueKind::Buffer) || kv.second.isAbrupt())
        continue;
      BufferObj *b = kv.first.as<BufferObj>();
      checkBufferUse(b, at);
      if (!usable(b))
        continue;
      mlir::Attribute layout = ir->b.getStringAttr("layout");
      if (kv.second.isObj(ObjKind::Layout)) {
        LayoutObj *lo = kv.second.as<LayoutObj>();
        // Two elements in one place of shared memory: each write would
        // clobber the other's.
        // TileLang rejects it with a ValueError when it lowers the kernel
        // (scripts match "shared buffer `NAME`" and "must be injective").
        if (!lo->notInjective.empty() && !lang::isFragmentScope(b->scope)) {
          errorAtCompileAs(
              "ValueError", at.range(),
              "the layout annotated for " +
                  llvm::Twine(lang::isSharedScope(b->scope) ? "shared " : "") +
                  "buffer `" + b->name + "` is not injective " +
                  lo->notInjective +
                  " (a buffer's layout must be injective: one place holds "
                  "one element)");
          continue;
        }
        layout = lo->attr ? lo->attr : ir->b.getStringAttr(lo->description);
        if (!lo->whyOpaque.empty() &&
            !(lo->whyOpaque == "its shape is not static" &&
              shapeFromUncalledParams(*this, b)))
          warning(at, "the layout annotated for '" + b->name +
                          "' is not used: " + lo->whyOpaque);
      } else if (kv.second.is(ValueKind::Function)) {
        // A callable is wrapped as T.Layout(buffer.shape, fn).
        Value shape = getAttr(kv.first, "shape", at);
        CallArgs args;
        args.pos = {shape, kv.second};
        args.posNodes = {at, at};
        Value lv = callPrimitive(lang::getBuiltin(BuiltinId::Layout), args, at);
        if (lv.isObj(ObjKind::Layout) && lv.as<LayoutObj>()->attr)
          layout = lv.as<LayoutObj>()->attr;
      }
      auto annotation =
          tile::AnnotateLayoutOp::create(ir->b, ir->loc(at), b->value, layout);
      if (kv.second.isObj(ObjKind::Layout) &&
          kv.second.as<LayoutObj>()->description ==
              "make_cutlass_metadata_layout")
        annotation->setAttr(kMetadataOrderAttr, ir->b.getUnitAttr());
      // Fragment.bind_thread_range: the threads the fragment is numbered
      // in (the GPU targets check its users run there).
      if (kv.second.isObj(ObjKind::Layout))
        if (auto range = kv.second.as<LayoutObj>()->threadRange)
          annotation->setAttr(
              "thread_range",
              ir->b.getDenseI64ArrayAttr({range->first, range->second}));
    }
    return Value::none();
  }
  case BuiltinId::SyncThreads: {
    if (checkInKernel("T.sync_threads", at))
      return Value::poison();
    auto op = tile::SyncThreadsOp::create(ir->b, ir->loc(at), mlir::IntegerAttr(),
                                                mlir::IntegerAttr());
    if (std::optional<Value> id = p.get("barrier_id"))
      if (id->isIntLike())
        op->setAttr("barrier_id", ir->b.getI64IntegerAttr(id->getInt()));
    if (std::optional<Value> c = p.get("arrive_count"))
      if (c->isIntLike())
        op->setAttr("arrive_count", ir->b.getI64IntegerAttr(c->getInt()));
    return Value::none();
  }
  case BuiltinId::Print: {
    if (checkInKernel("T.print", at))
      return Value::poison();
    Value obj = p.getOr("obj", Value::none());
    Value msg = p.getOr("msg", heap.strNoCopy(""));
    mlir::Value v;
    if (obj.is(ValueKind::Buffer) ||
        (obj.is(ValueKind::Region) && !obj.as<RegionObj>()->isElement)) {
      v = regionValue(asRegion(obj, p.node("obj")), p.node("obj"));
      if (!v)
        return Value::poison();
    } else if (!obj.isNone() && !obj.isStr()) {
      Scalar s = toScalar(obj, p.node("obj"));
      if (!s)
        return Value::poison();
      v = s.value;
    } else if (obj.isStr() && msg.isStr() && getStr(msg).empty()) {
      msg = obj;
    }
    tile::PrintOp::create(ir->b, 
        ir->loc(at), ir->b.getStringAttr(msg.isStr() ? getStr(msg) : ""), v);
    return Value::none();
  }
  case BuiltinId::DeviceAssert: {
    if (checkInKernel("T.device_assert", at))
      return Value::poison();
    Value c = p.getOr("condition", Value::poison());
    Truth t = truth(c, p.node("condition"));
    if (t == Truth::Abrupt)
      return c;
    if (t != Truth::IR)
      return Value::none();
    Scalar s = toScalar(c, p.node("condition"));
    if (!s)
      return Value::poison();
    Value msg = p.getOr("msg", heap.strNoCopy(""));
    tile::DeviceAssertOp::create(ir->b, 
        ir->loc(at), ir->convert(s.value, ir->b.getI1Type(), ir->loc(at)),
        ir->b.getStringAttr(msg.isStr() ? getStr(msg) : ""));
    return Value::none();
  }
  default:
    return std::nullopt;
  }
}
