//===- KernelFrames.cpp - `T.Kernel` frames and loops ---------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The frames kernels are written with: `T.Kernel` (grid, threads, cluster
// shapes, nesting and thread-count checks) and the range loops
// (`T.serial`, `T.Pipelined`, `T.unroll`, `T.vectorized`), with
// `T.Parallel(..., loop_layout=)`.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "KernelFrames.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::MemoryScope;

Value tlc::eval::makeRangeLoop(Interpreter &in, const PArgs &p,
                               LoopKind kind) {
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
  // unroll_factor=n: TileLang's `pragma_unroll_factor` annotation of the
  // loop (`#pragma unroll n`), on T.unroll and, in the TileLang versions
  // whose T.serial takes it, on T.serial.
  if (std::optional<Value> f = p.get("unroll_factor"); f && !f->isNone()) {
    if (f->isAbrupt())
      return *f;
    if (!f->isIntLike() || f->is(ValueKind::Bool) || f->getInt() < 0)
      return in.fail(p.node("unroll_factor"),
                     p.info.name +
                         ": unroll_factor must be a non-negative "
                         "integer constant, not " +
                         in.toString(*f, true));
    if (kind == LoopKind::Unroll && p.flag("explicit", false)) {
      in.errorAs("ValueError", p.node("unroll_factor").range(),
                 "T.unroll's explicit and unroll_factor params are mutually "
                 "exclusive.");
      return Value::poison();
    }
    loop->unrollFactor = f->getInt();
  }
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

bool tlc::eval::shapeFromUncalledParams(Interpreter &in, BufferObj *b) {
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

void tlc::eval::setParallelLoopLayout(Interpreter &in, LoopFrameObj &loop,
                                      Value f, syntax::Node arg) {
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
    // A cluster launch tiles the grid with clusters: CUDA refuses to
    // launch a grid with an extent that is not a multiple of the
    // cluster's along it. TileLang traces and compiles such a kernel (its
    // pass tests inspect one's annotations), so this is a warning; the
    // launcher refuses the launch (a grid extent known only at run time is
    // checked there too).
    for (auto [i, d] : llvm::enumerate(k->clusterDims)) {
      int64_t g = i < k->grid.size()
                      ? (k->grid[i].isIntLike() ? k->grid[i].getInt() : 0)
                      : 1;
      if (d > 1 && g > 0 && g % d) {
        warning(p.node("cluster_dims"),
                "the grid's extent " + llvm::Twine(g) + " along " +
                    std::string(1, "xyz"[std::min<size_t>(i, 2)]) +
                    " is not a multiple of the cluster's extent " +
                    llvm::Twine(d) +
                    " (a cluster launch tiles the grid with clusters): "
                    "CUDA refuses to launch this kernel");
        break;
      }
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
