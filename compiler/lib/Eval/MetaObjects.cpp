//===- MetaObjects.cpp - Trace-time objects of the TileLang surface -------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Primitives that make Python objects at trace time rather than IR:
//
//   layout constructors (tilelang.layout.make_*), the warp-specialisation
//   schedule objects (T.WSSchedule, T.WSRole, T.WSPipeline, T.WSScope),
//   T.comm_reducer, T.PersistentTileScheduler (state in T.alloc_var
//   buffers, methods init / valid / next_tile / coord), and the expression
//   helpers T.evaluate, T.index_to_coordinates, T.Broadcast, T.Ramp,
//   T.Shuffle, T.extract_lane, T.tma_gather4_bytes.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "tlc/Dialect/Tile/IR/IndexTranslator.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/IndexExpr.h"

#include <limits>
#include <map>

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::DType;
using lang::ScalarType;
using syntax::BinaryOp;

/// An attribute bag named \p name holding the matched arguments of \p p.
static Value argumentObject(Interpreter &in, const PArgs &p,
                            llvm::StringRef name) {
  auto *o = in.heap.make<NamespaceObj>();
  o->name = name;
  for (const lang::ParamInfo &param : p.info.params)
    if (std::optional<Value> v = p.get(param.name))
      o->set(param.name, *v);
  return in.heap.obj(ObjKind::Namespace, o);
}

/// A vector dtype of \p lanes lanes of \p elem.
static DType withLanes(DType elem, int64_t lanes) {
  return DType(elem.getScalarType(), unsigned(lanes));
}

//===----------------------------------------------------------------------===//
// T.Layout and T.Fragment
//===----------------------------------------------------------------------===//

namespace {
/// Traces the index functions of one T.Layout / T.Fragment.
struct LayoutTracer {
  Interpreter &in;
  const PArgs &p;
  std::vector<int64_t> shape;
  /// Coordinate names, then `__rep`.
  std::vector<std::string> names;
  std::string why;

  /// Calls \p fn with the symbolic coordinates (and the replica when
  /// \p withRep); the results, flattened one level.
  std::optional<llvm::SmallVector<Value, 4>> call(Value fn, bool withRep) {
    CallArgs args;
    for (size_t d = 0; d < shape.size(); ++d) {
      args.pos.push_back(Value::sym(in.syms.symbol(names[d])));
      args.posNodes.push_back(p.call);
    }
    if (withRep) {
      args.pos.push_back(Value::sym(in.syms.symbol(names.back())));
      args.posNodes.push_back(p.call);
    }
    Value r = in.call(fn, args, p.call);
    if (r.isAbrupt()) {
      why = "its index function could not be evaluated";
      return std::nullopt;
    }
    llvm::SmallVector<Value, 4> out;
    if (r.isSequence())
      out.append(getElems(r).begin(), getElems(r).end());
    else
      out.push_back(r);
    return out;
  }

  /// Index functions with bit operations (XOR swizzles) are beyond the
  /// symbolic arithmetic: while a kernel is traced, they are traced again
  /// over IR index values in a scratch block, and their results read back
  /// as index expressions. Empty when that is not possible.
  std::optional<std::vector<layout::IndexExpr>>
  traceThroughIR(Value fn, bool withRep) {
    if (!in.tracing())
      return std::nullopt;
    auto &B = in.ir->b;
    mlir::Location l = in.ir->loc(p.call);
    auto scratch = std::make_unique<mlir::Block>();
    size_t rank = shape.size() + (withRep ? 1 : 0);
    CallArgs args;
    for (size_t d = 0; d < rank; ++d) {
      mlir::Value arg = scratch->addArgument(B.getIndexType(), l);
      args.pos.push_back(
          in.wrapScalar({arg, lang::DType(lang::ScalarType::Int32), SymExpr()}));
      args.posNodes.push_back(p.call);
    }
    std::optional<std::vector<layout::IndexExpr>> result;
    {
      mlir::OpBuilder::InsertionGuard guard(B);
      B.setInsertionPointToEnd(scratch.get());
      Value r = in.call(fn, args, p.call);
      llvm::SmallVector<Value, 4> outs;
      if (r.isSequence())
        outs.append(getElems(r).begin(), getElems(r).end());
      else
        outs.push_back(r);
      tile::IndexTranslator translator(*scratch);
      std::vector<layout::IndexExpr> exprs;
      bool ok = !r.isAbrupt();
      for (Value v : outs) {
        if (!ok)
          break;
        if (v.isIntLike()) {
          exprs.push_back(layout::IndexExpr::constant(v.getInt()));
          continue;
        }
        Scalar s = v.is(ValueKind::Expr) ? in.toScalar(v, p.call) : Scalar();
        std::optional<layout::IndexExpr> e =
            s ? translator.translate(s.value) : std::nullopt;
        ok = e.has_value();
        if (e)
          exprs.push_back(std::move(*e));
      }
      if (ok)
        result = std::move(exprs);
    }
    // The scratch ops were only read; nothing outside refers to them.
    scratch->dropAllDefinedValueUses();
    scratch->dropAllReferences();
    return result;
  }

  /// The index expression of one traced result.
  std::optional<layout::IndexExpr> expr(Value v) {
    SymExpr s = in.toSym(v);
    if (!s) {
      why = "an index function returned '" + in.toString(v) +
            "', not an integer expression of the coordinates";
      return std::nullopt;
    }
    llvm::Expected<layout::IndexExpr> e =
        layout::parseIndexExpr(s.str(), names);
    if (!e) {
      why = "tlc cannot represent the index expression '" + s.str() +
            "': " + llvm::toString(e.takeError());
      return std::nullopt;
    }
    return std::move(*e);
  }
};
} // namespace

/// Why \p l, found not injective, is not: two elements that share a place
/// (`elements (0, 1) and (1, 0) both map to 1`), or an element with no place
/// (`element (3, 0) maps to -1`). Empty when no witness is found.
static std::string nonInjectiveWitness(const layout::Layout &l) {
  llvm::ArrayRef<int64_t> shape = l.getInputShape();
  auto tuple = [](llvm::ArrayRef<int64_t> v) {
    std::string s = "(";
    for (size_t d = 0; d < v.size(); ++d)
      s += (d ? ", " : "") + std::to_string(v[d]);
    return s + (v.size() == 1 ? ",)" : ")");
  };
  auto place = [&](llvm::ArrayRef<int64_t> v) {
    return v.size() == 1 ? std::to_string(v[0]) : tuple(v);
  };
  if (llvm::any_of(shape, [](int64_t e) { return e <= 0; }))
    return "";
  std::map<std::vector<int64_t>, std::vector<int64_t>> owner;
  std::vector<int64_t> coord(shape.size(), 0);
  while (true) {
    std::optional<std::vector<int64_t>> out = l.apply(coord);
    if (!out)
      return "element " + tuple(coord) + " has no place (its index overflows)";
    if (llvm::any_of(*out, [](int64_t v) { return v < 0; }))
      return "element " + tuple(coord) + " maps to " + place(*out) +
             ", below 0";
    auto [it, inserted] = owner.try_emplace(*out, coord);
    if (!inserted)
      return "elements " + tuple(it->second) + " and " + tuple(coord) +
             " both map to " + place(*out);
    // The next coordinate, row-major.
    size_t d = shape.size();
    while (d > 0 && ++coord[d - 1] == shape[d - 1])
      coord[--d] = 0;
    if (d == 0)
      return "";
  }
}

/// TileLang's register index for a fragment given by its thread map alone:
/// the parts of each coordinate the thread map does not use, flattened with
/// the first dimension outermost. Each coordinate's unused part is sought
/// as (x // a) % b (a and b dividing the extent, b = 1 for none); the first
/// choice, in dimension order, under which no two elements of one thread
/// share a register and the registers are dense is taken. \p probe holds
/// the thread map (with any index). Only unreplicated fragments.
static std::optional<layout::Fragment>
complementIndex(const std::vector<int64_t> &shape,
                const layout::Fragment &probe, int64_t blockThreads,
                const std::vector<std::string> &names) {
  if (probe.getReplicate() != 1 || shape.empty())
    return std::nullopt;
  int64_t elements = 1;
  for (int64_t n : shape)
    elements *= n;
  int64_t threads = std::max<int64_t>(1, probe.getThreadExtent());
  if (elements > (int64_t(1) << 16) || elements % threads)
    return std::nullopt;
  int64_t regs = elements / threads;
  // Every element's coordinates and thread.
  std::vector<std::vector<int64_t>> coords;
  std::vector<int64_t> owner;
  std::vector<int64_t> c(shape.size(), 0);
  for (int64_t e = 0; e < elements; ++e) {
    std::optional<layout::FragmentSlot> slot = probe.apply(c);
    if (!slot)
      return std::nullopt;
    coords.push_back(c);
    owner.push_back(slot->thread);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++c[d] < shape[d])
        break;
      c[d] = 0;
    }
  }
  // Candidate (a, b) per dimension.
  std::vector<std::vector<std::pair<int64_t, int64_t>>> cands(shape.size());
  for (size_t d = 0; d < shape.size(); ++d)
    for (int64_t a = 1; a <= shape[d]; ++a)
      if (shape[d] % a == 0)
        for (int64_t b = 1; b <= shape[d] / a; ++b)
          if ((shape[d] / a) % b == 0 && regs % b == 0)
            cands[d].push_back({a, b});
  std::vector<size_t> pick(shape.size(), 0);
  std::vector<char> used;
  int64_t tried = 0;
  while (true) {
    int64_t product = 1;
    for (size_t d = 0; d < shape.size(); ++d)
      product *= cands[d][pick[d]].second;
    if (product == regs) {
      if (++tried > 20000)
        return std::nullopt;
      used.assign(size_t(threads * regs), 0);
      bool injective = true;
      for (int64_t e = 0; e < elements && injective; ++e) {
        int64_t index = 0;
        for (size_t d = 0; d < shape.size(); ++d) {
          auto [a, b] = cands[d][pick[d]];
          index = index * b + (coords[e][d] / a) % b;
        }
        char &slot = used[size_t(owner[e] * regs + index)];
        injective = !slot;
        slot = 1;
      }
      if (injective) {
        std::string text = "0";
        for (size_t d = 0; d < shape.size(); ++d) {
          auto [a, b] = cands[d][pick[d]];
          if (b == 1)
            continue;
          text = "(" + text + ") * " + std::to_string(b) + " + (" + names[d] +
                 " // " + std::to_string(a) + ") % " + std::to_string(b);
        }
        llvm::Expected<layout::IndexExpr> idx =
            layout::parseIndexExpr(text, names);
        if (!idx) {
          llvm::consumeError(idx.takeError());
          return std::nullopt;
        }
        llvm::Expected<layout::Fragment> f =
            layout::Fragment::get(shape, {*idx}, probe.getForwardThread(), 1);
        if (!f) {
          llvm::consumeError(f.takeError());
          return std::nullopt;
        }
        if (llvm::Error err = f->verify(std::max(blockThreads, threads))) {
          llvm::consumeError(std::move(err));
          return std::nullopt;
        }
        return std::move(*f);
      }
    }
    // Next combination, the last dimension fastest.
    size_t d = shape.size();
    while (d-- > 0) {
      if (++pick[d] < cands[d].size())
        break;
      pick[d] = 0;
    }
    if (d == size_t(-1))
      return std::nullopt;
  }
}

/// The register index TileLang infers for a fragment given only its thread
/// map: each thread's elements numbered in row-major order. Found among the
/// two forms that give that numbering for the usual maps (`flat // T` when
/// threads take consecutive elements cyclically, `flat % (E / T)` when each
/// thread holds a contiguous run), checked by Fragment::verify; failing those,
/// complementIndex.
static std::optional<layout::Fragment>
withInferredIndex(const std::vector<int64_t> &shape,
                  const layout::IndexExpr &thread, int64_t replicate,
                  int64_t blockThreads, const std::vector<std::string> &names) {
  std::string flat;
  int64_t elements = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    flat = d == 0 ? names[d] : "(" + flat + ") * " +
                                   std::to_string(shape[d]) + " + " + names[d];
    elements *= shape[d];
  }
  // The number of distinct threads of replica 0.
  llvm::Expected<layout::Fragment> probe = layout::Fragment::get(
      shape, {*layout::parseIndexExpr(flat, names)}, thread, replicate);
  if (!probe) {
    llvm::consumeError(probe.takeError());
    return std::nullopt;
  }
  int64_t threads = std::max<int64_t>(1, probe->getThreadExtent());
  for (std::string index :
       {"(" + flat + ") // " + std::to_string(threads),
        "(" + flat + ") % " +
            std::to_string(std::max<int64_t>(1, elements * replicate /
                                                    threads))}) {
    llvm::Expected<layout::IndexExpr> e = layout::parseIndexExpr(index, names);
    if (!e) {
      llvm::consumeError(e.takeError());
      continue;
    }
    llvm::Expected<layout::Fragment> f =
        layout::Fragment::get(shape, {*e}, thread, replicate);
    if (!f) {
      llvm::consumeError(f.takeError());
      continue;
    }
    if (llvm::Error err = f->verify(std::max(blockThreads, threads))) {
      llvm::consumeError(std::move(err));
      continue;
    }
    return std::move(*f);
  }
  return complementIndex(shape, *probe, blockThreads, names);
}

Value Interpreter::makeLayoutObject(const PArgs &p) {
  auto *o = heap.make<LayoutObj>();
  o->description = p.info.getShortName();
  Value result = heap.obj(ObjKind::Layout, o);
  LayoutTracer tr{*this, p, {}, {}, {}};
  auto give = [&](llvm::StringRef why) {
    o->whyOpaque = why.str();
    return result;
  };
  Value shapeV = p.getOr("shape", Value::poison());
  llvm::SmallVector<SymExpr, 4> dims;
  if (shapeV.isAbrupt() || !toShape(shapeV, dims, p.node("shape")))
    return shapeV.isAbrupt() ? shapeV : result;
  // A T.Layout of symbolic shape is traced all the same (its index
  // function sees only the coordinates) to check it on sample extents.
  bool symbolic = false;
  for (SymExpr d : dims) {
    if (d && d.isConstant() && *d.getConstant() > 0) {
      tr.shape.push_back(*d.getConstant());
      continue;
    }
    if (p.info.id != BuiltinId::Layout)
      return give("its shape is not static");
    symbolic = true;
    tr.shape.push_back(0);
  }
  // The names the layout attributes print and parse (`i, j, ...`, `rep`).
  static const char *const kNames[] = {"i", "j", "k", "l", "m", "n"};
  if (tr.shape.size() > std::size(kNames))
    return give("it has more than 6 dimensions");
  for (size_t d = 0; d < tr.shape.size(); ++d)
    tr.names.push_back(kNames[d]);
  tr.names.push_back("rep");
  mlir::MLIRContext *ctx = &mlirContext;
  if (p.info.id == BuiltinId::Layout) {
    std::optional<Value> fn = p.get("forward_fn");
    if (!fn)
      return give("it has no forward_fn");
    std::optional<llvm::SmallVector<Value, 4>> outs = tr.call(*fn, false);
    if (!outs)
      return give(tr.why);
    std::vector<layout::IndexExpr> forward;
    for (Value v : *outs) {
      std::optional<layout::IndexExpr> e = tr.expr(v);
      if (!e) {
        forward.clear();
        break;
      }
      forward.push_back(std::move(*e));
    }
    if (forward.empty()) {
      std::optional<std::vector<layout::IndexExpr>> viaIR =
          tr.traceThroughIR(*fn, false);
      if (viaIR)
        forward = std::move(*viaIR);
      else if (!symbolic)
        return give(tr.why);
    }
    if (symbolic) {
      std::string whyNotUsed =
          forward.empty() ? tr.why : std::string("its shape is not static");
      // The index function at one sample of the symbolic extents: the
      // traced one, or, when it names the extents themselves (rows of
      // `i * (n - 1) + j`), its expressions with each extent replaced.
      auto atSample =
          [&](int64_t sample) -> std::optional<std::vector<layout::IndexExpr>> {
        if (!forward.empty())
          return forward;
        std::vector<layout::IndexExpr> exprs;
        for (Value v : *outs) {
          SymExpr e = syms.substitute(toSym(v), [&](const SymNode *n) {
            for (size_t d = 0; d < dims.size(); ++d)
              if (tr.shape[d] == 0 && dims[d] && dims[d].getNode() == n)
                return syms.constant(sample);
            return SymExpr();
          });
          if (!e)
            return std::nullopt;
          llvm::Expected<layout::IndexExpr> x =
              layout::parseIndexExpr(e.str(), tr.names);
          if (!x) {
            llvm::consumeError(x.takeError());
            return std::nullopt;
          }
          exprs.push_back(std::move(*x));
        }
        return exprs;
      };
      // Non-injective at some extents: two elements of a buffer of that
      // shape would share a place. Each symbolic extent takes the sample.
      for (int64_t sample : {2, 3, 8, 64, 256}) {
        std::vector<int64_t> shape = tr.shape;
        for (size_t d = 0; d < shape.size(); ++d)
          if (shape[d] == 0)
            shape[d] = sample;
        if (layout::numElementsSaturated(shape) > (int64_t(1) << 20))
          break;
        std::optional<std::vector<layout::IndexExpr>> sampled =
            atSample(sample);
        if (!sampled)
          break;
        llvm::Expected<layout::Layout> l =
            layout::Layout::get(shape, std::move(*sampled));
        if (!l) {
          llvm::consumeError(l.takeError());
          break;
        }
        if (!l->isInjective()) {
          std::string at;
          for (size_t d = 0; d < dims.size(); ++d)
            if (tr.shape[d] == 0)
              at += (at.empty() ? "" : ", ") + dims[d].str() + " = " +
                    std::to_string(sample);
          o->notInjective = "at " + at;
          if (std::string why = nonInjectiveWitness(*l); !why.empty())
            o->notInjective += ": " + why;
          break;
        }
      }
      return give(whyNotUsed);
    }
    llvm::Expected<layout::Layout> l =
        layout::Layout::get(tr.shape, std::move(forward));
    if (!l)
      return give(llvm::toString(l.takeError()));
    // Checked where it can be a shared buffer's layout (shared memory holds
    // far fewer elements): enumerating a whole global tensor's is slow.
    int64_t elements = layout::numElementsSaturated(tr.shape);
    if (elements <= (int64_t(1) << 21) && !l->isInjective()) {
      o->notInjective = "on its shape";
      if (std::string why = nonInjectiveWitness(*l); !why.empty())
        o->notInjective += ": " + why;
    }
    o->attr = tile::encodeLayout(ctx, *l);
    return result;
  }
  // T.Fragment.
  Value rep = p.getOr("replicate", Value::integer(1));
  int64_t replicate = rep.isIntLike() ? rep.getInt() : 1;
  if (replicate < 1)
    return give("replicate must be a positive integer");
  std::optional<layout::IndexExpr> thread;
  std::vector<layout::IndexExpr> index;
  if (std::optional<Value> fn = p.get("forward_fn"); fn && !fn->isNone()) {
    std::optional<llvm::SmallVector<Value, 4>> outs =
        tr.call(*fn, replicate > 1);
    if (!outs || outs->size() != 2)
      return give(outs ? "forward_fn must return (thread, index)" : tr.why);
    thread = tr.expr((*outs)[0]);
    if (!thread)
      return give(tr.why);
    llvm::SmallVector<Value, 2> idx;
    if ((*outs)[1].isSequence())
      idx.append(getElems((*outs)[1]).begin(), getElems((*outs)[1]).end());
    else
      idx.push_back((*outs)[1]);
    for (Value v : idx) {
      std::optional<layout::IndexExpr> e = tr.expr(v);
      if (!e)
        return give(tr.why);
      index.push_back(std::move(*e));
    }
  } else {
    std::optional<Value> tfn = p.get("forward_thread_fn");
    if (!tfn || tfn->isNone())
      return give("it has neither forward_fn nor forward_thread_fn");
    std::optional<llvm::SmallVector<Value, 4>> t = tr.call(*tfn, replicate > 1);
    if (!t || t->size() != 1)
      return give(t ? "forward_thread_fn must return one thread index"
                    : tr.why);
    thread = tr.expr((*t)[0]);
    if (!thread)
      return give(tr.why);
    if (std::optional<Value> ifn = p.get("forward_index_fn");
        ifn && !ifn->isNone()) {
      std::optional<llvm::SmallVector<Value, 4>> outs = tr.call(*ifn, false);
      if (!outs)
        return give(tr.why);
      for (Value v : *outs) {
        std::optional<layout::IndexExpr> e = tr.expr(v);
        if (!e)
          return give(tr.why);
        index.push_back(std::move(*e));
      }
    }
  }
  // Bounded analysis: a fragment is checked element by element (and
  // replica by replica). One past what layouts enumerate is far past any
  // register file (its allocation is an error of its own), so it is not
  // enumerated (found by tlc-fuzz-eval: T.Fragment over (128, 2^62) ran for
  // minutes).
  int64_t elements = layout::numElementsSaturated(tr.shape);
  if (elements > layout::kMaxEnumeratedInputs / replicate)
    return give("its " +
                (elements == std::numeric_limits<int64_t>::max()
                     ? std::string("more than 2^63")
                     : std::to_string(elements)) +
                " elements" +
                (replicate > 1 ? " x " + std::to_string(replicate) + " replicas"
                               : std::string()) +
                " are more than the " +
                std::to_string(layout::kMaxEnumeratedInputs) +
                " tlc checks a fragment on");
  int64_t blockThreads = kernel && kernel->threads ? kernel->threads : 1024;
  if (index.empty()) {
    std::optional<layout::Fragment> f = withInferredIndex(
        tr.shape, *thread, replicate, blockThreads, tr.names);
    if (!f)
      return give("tlc cannot infer a register index for its thread map; "
                  "give forward_index_fn");
    o->attr = tile::encodeFragment(ctx, *f);
    return result;
  }
  llvm::Expected<layout::Fragment> f =
      layout::Fragment::get(tr.shape, std::move(index), *thread, replicate);
  if (!f)
    return give(llvm::toString(f.takeError()));
  o->attr = tile::encodeFragment(ctx, *f);
  return result;
}

//===----------------------------------------------------------------------===//
// T.PersistentTileScheduler
//===----------------------------------------------------------------------===//

/// `m, n = coord(tile_id)`: the panel-swizzled decode of a linear tile index
/// (panels of `swizzle_size` tiles along the slow axis; the fast axis is M
/// when column-major).
static Value schedulerCoord(Interpreter &in, NamespaceObj *s, Value tile,
                            Node at) {
  Value primary = *s->find("_primary");
  Value secondary = *s->find("_secondary");
  Value swizzle = *s->find("swizzle_size");
  Value panel = in.binary(BinaryOp::Mult, primary, swizzle, at);
  Value group = in.intDiv(tile, panel, SymKind::FloorDiv, at);
  Value base = in.binary(BinaryOp::Mult, group, swizzle, at);
  Value width = in.minMax(
      Value::integer(1),
      in.minMax(swizzle, in.binary(BinaryOp::Sub, secondary, base, at), false,
                at),
      true, at);
  Value inGroup = in.binary(BinaryOp::Sub, tile,
                            in.binary(BinaryOp::Mult, group, panel, at), at);
  Value fast = in.intDiv(inGroup, width, SymKind::FloorDiv, at);
  Value slow = in.binary(BinaryOp::Add, base,
                         in.intDiv(inGroup, width, SymKind::Mod, at), at);
  bool columnMajor = in.truth(*s->find("_column_major"), at) != Truth::False;
  return columnMajor ? in.heap.tuple({fast, slow})
                     : in.heap.tuple({slow, fast});
}

/// Stores the decode of the linear cursor into m_idx / n_idx.
static void schedulerUpdate(Interpreter &in, NamespaceObj *s, Node at) {
  Value coord = schedulerCoord(in, s, *s->find("linear_idx"), at);
  in.irStore(*s->find("m_idx"), getElems(coord)[0], at);
  in.irStore(*s->find("n_idx"), getElems(coord)[1], at);
}

Value Interpreter::callSchedulerMethod(NativeId id, CallArgs &args, Node at) {
  Value self = args.positional(0);
  if (!self.isObj(ObjKind::Instance))
    return fail(at, "a PersistentTileScheduler method needs its scheduler");
  auto *s = self.as<NamespaceObj>();
  bool stateful = s->find("m_idx") != nullptr;
  if (id == NativeId::SchedCoord) {
    if (args.pos.size() != 2)
      return raise("TypeError", "coord() takes one tile index", at);
    return schedulerCoord(*this, s, args.pos[1], at);
  }
  if (!stateful)
    return fail(at, "this PersistentTileScheduler was made with "
                    "stateful=False; only coord() is available");
  switch (id) {
  case NativeId::SchedInit:
    if (args.pos.size() != 2)
      return raise("TypeError", "init() takes the worker's first tile index",
                   at);
    irStore(*s->find("current_iter"), Value::integer(0), at);
    irStore(*s->find("linear_idx"), args.pos[1], at);
    schedulerUpdate(*this, s, at);
    return Value::none();
  case NativeId::SchedNextTile: {
    Value iter = *s->find("current_iter");
    irStore(iter, binary(BinaryOp::Add, iter, Value::integer(1), at), at);
    Value lin = *s->find("linear_idx");
    Value step = args.pos.size() > 1 ? args.pos[1] : *s->find("num_workers");
    irStore(lin, binary(BinaryOp::Add, lin, step, at), at);
    schedulerUpdate(*this, s, at);
    return Value::none();
  }
  case NativeId::SchedValid:
    return compare(syntax::CmpOp::Lt, *s->find("linear_idx"),
                   *s->find("_total_tiles"), at);
  default:
    return Value::poison();
  }
}

/// `T.PersistentTileScheduler([prefix,] num_m_tiles, num_n_tiles, ...)`.
static Value makeScheduler(Interpreter &in, const PArgs &p) {
  Node at = p.call;
  // Newer TileLang takes a name prefix first; older releases take it last
  // (`name=`). Both spellings are accepted.
  llvm::SmallVector<Value, 8> pos(p.args.pos.begin(), p.args.pos.end());
  llvm::StringRef prefix = "sched";
  if (!pos.empty() && pos[0].isStr()) {
    prefix = getStr(pos[0]);
    pos.erase(pos.begin());
  }
  auto arg = [&](unsigned i, llvm::StringRef kw, Value dflt) {
    if (const Value *v = p.args.keyword(kw))
      return *v;
    return i < pos.size() ? pos[i] : dflt;
  };
  Value m = arg(0, "num_m_tiles", Value::poison());
  Value n = arg(1, "num_n_tiles", Value::poison());
  if (m.isPoison() || n.isPoison())
    return in.fail(at, "T.PersistentTileScheduler needs num_m_tiles and "
                       "num_n_tiles");
  Value workers = arg(2, "num_workers", Value::none());
  Value swizzle = arg(3, "swizzle_size", Value::integer(1));
  Value columnMajor = arg(4, "column_major", Value::boolean(true));
  Value cluster = arg(5, "cluster_size", Value::integer(1));
  Value stateful = arg(6, "stateful", Value::boolean(true));
  if (const Value *nm = p.args.keyword("name"))
    if (nm->isStr())
      prefix = getStr(*nm);
  if (workers.isNone()) {
    const lang::DeviceInfo *d = in.target().device;
    if (!d)
      return in.fail(at, "num_workers is needed: the target has no SM count");
    workers = in.intDiv(Value::integer(d->numSMs), cluster, SymKind::FloorDiv,
                        at);
  }
  auto *cls = in.heap.make<NamespaceObj>();
  cls->name = "PersistentTileScheduler";
  auto *s = in.heap.make<NamespaceObj>();
  s->name = "PersistentTileScheduler";
  s->cls = cls;
  Value self = in.heap.obj(ObjKind::Instance, s);
  Value mClusters = in.intDiv(m, cluster, SymKind::CeilDiv, at);
  bool colMajor = in.truth(columnMajor, at) != Truth::False;
  s->set("num_workers", workers);
  s->set("swizzle_size", swizzle);
  s->set("cluster_size", cluster);
  s->set("_column_major", Value::boolean(colMajor));
  s->set("_total_tiles", in.binary(BinaryOp::Mult, mClusters, n, at));
  s->set("_primary", colMajor ? mClusters : n);
  s->set("_secondary", colMajor ? n : mClusters);
  if (in.truth(stateful, at) != Truth::False) {
    if (in.checkInKernel("T.PersistentTileScheduler", at))
      return Value::poison();
    for (llvm::StringRef field :
         {"m_idx", "n_idx", "linear_idx", "current_iter"}) {
      std::string name = (prefix + "_" + field).str();
      BufferObj *b =
          in.makeBuffer(in.heap.copyString(name), {in.syms.constant(1)},
                        DType(ScalarType::Int32),
                        lang::MemoryScope::LocalVar, at, false);
      s->set(field, Value::object(ValueKind::Buffer, b));
    }
  }
  auto method = [&](llvm::StringRef name, NativeId id) {
    auto *part = in.heap.make<PartialObj>();
    part->fn = Value::native(uint32_t(id));
    part->args.push_back(self);
    s->set(name, in.heap.obj(ObjKind::Partial, part));
  };
  method("init", NativeId::SchedInit);
  method("valid", NativeId::SchedValid);
  method("next_tile", NativeId::SchedNextTile);
  method("coord", NativeId::SchedCoord);
  return self;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

std::optional<Value> Interpreter::callObjectPrimitive(const PArgs &p) {
  Node at = p.call;
  switch (p.info.id) {
  case BuiltinId::MakeGemmFragment8x8:
  case BuiltinId::MakeGemmFragment8x8Transposed: {
    // The 8x8 tile of an mma.sync operand as ldmatrix delivers it: each of
    // 32 threads holds two neighbours of one row (of one column when
    // transposed).
    bool transposed = p.info.id == BuiltinId::MakeGemmFragment8x8Transposed;
    layout::IndexExpr i = layout::IndexExpr::var(0, "i");
    layout::IndexExpr j = layout::IndexExpr::var(1, "j");
    layout::IndexExpr along = transposed ? i : j, across = transposed ? j : i;
    llvm::Expected<layout::Fragment> f = layout::Fragment::get(
        {8, 8}, {layout::floorMod(along, 2)},
        layout::floorDiv(along, 2) + across * 4);
    auto *o = heap.make<LayoutObj>();
    o->description = p.info.getShortName();
    if (f)
      o->attr = tile::encodeFragment(&mlirContext, *f);
    else
      o->whyOpaque = llvm::toString(f.takeError());
    return heap.obj(ObjKind::Layout, o);
  }
  case BuiltinId::MakeFullBankSwizzledLayout:
  case BuiltinId::MakeHalfBankSwizzledLayout:
  case BuiltinId::MakeQuarterBankSwizzledLayout: {
    // TileLang takes a buffer (or region), or its geometry as (stride,
    // continuous, element_size): the rows, the elements of a row and the
    // element's bits; other counts are its ValueError.
    size_t n = p.rest("args").size();
    if (n != 1 && n != 3)
      return raise("ValueError",
                   p.info.name +
                       ": invalid arguments: expected a buffer or "
                       "(stride, continuous, element_size), got " +
                       llvm::Twine(n) + " arguments",
                   at);
    auto *o = heap.make<LayoutObj>();
    o->description = p.info.getShortName();
    return heap.obj(ObjKind::Layout, o);
  }
  case BuiltinId::MakeWgmmaSwizzledLayout:
  case BuiltinId::MakeTcgen05mmaSwizzledLayout:
  case BuiltinId::MakeVoltaSwizzledLayout:
  case BuiltinId::MakeFullyReplicatedLayoutFragment: {
    auto *o = heap.make<LayoutObj>();
    o->description = p.info.getShortName();
    return heap.obj(ObjKind::Layout, o);
  }
  case BuiltinId::MakeCutlassMetadataLayout:
    return makeCutlassMetadataLayout(*this, p);
  case BuiltinId::WSSchedule:
  case BuiltinId::WSRole:
  case BuiltinId::WSPipeline:
  case BuiltinId::WSScope:
  case BuiltinId::CommReducer:
    return argumentObject(*this, p, p.info.getShortName());
  case BuiltinId::PersistentTileScheduler:
    return makeScheduler(*this, p);
  case BuiltinId::Var: {
    // A run-time variable, like T.dynamic.
    Value n = p.getOr("name", Value::poison());
    if (!n.isStr())
      return fail(p.node("name"), "T.Var expects a name");
    llvm::StringRef name = heap.copyString(getStr(n));
    if (std::optional<Value> bound = defineFor(name))
      return *bound;
    symbolKinds[name] = /*Dynamic=*/0;
    return Value::sym(syms.symbol(name));
  }
  case BuiltinId::Evaluate: {
    // The expression was evaluated (and its ops built) as the argument.
    Value v = p.getOr("value", Value::none());
    return v.isAbrupt() ? v : Value::none();
  }
  case BuiltinId::IndexToCoordinates: {
    Value index = p.getOr("index", Value::poison());
    Value shape = p.getOr("shape", Value::poison());
    if (index.isAbrupt() || shape.isAbrupt())
      return Value::poison();
    llvm::SmallVector<Value, 4> dims;
    if (shape.is(ValueKind::Buffer)) {
      for (SymExpr d : shape.as<BufferObj>()->shape)
        dims.push_back(fromSym(d, at));
    } else if (shape.isSequence()) {
      dims.append(getElems(shape).begin(), getElems(shape).end());
    } else {
      return fail(p.node("shape"), "T.index_to_coordinates expects a shape");
    }
    return heap.list(unflatten(index, dims, at));
  }
  case BuiltinId::TmaGather4Bytes: {
    // Four rows of K_box elements.
    Value k = p.getOr("K_box", Value::poison());
    std::optional<DType> t = toDType(p.getOr("dtype", Value::none()));
    if (!t)
      return fail(p.node("dtype"), "T.tma_gather4_bytes needs a dtype");
    return binary(BinaryOp::Mult, k,
                  Value::integer(4 * int64_t(t->getTotalBits()) / 8), at);
  }
  case BuiltinId::Broadcast:
  case BuiltinId::Ramp:
  case BuiltinId::Shuffle:
  case BuiltinId::ExtractLane: {
    if (!tracing())
      return heap.opaque(p.info.name);
    llvm::SmallVector<mlir::Value, 4> operands;
    llvm::SmallVector<llvm::StringRef, 4> params;
    auto addScalar = [&](llvm::StringRef param, Value v) -> Scalar {
      Scalar s = toScalar(v, p.node(param));
      if (s) {
        operands.push_back(s.value);
        params.push_back(param);
      }
      return s;
    };
    std::optional<DType> result;
    if (p.info.id == BuiltinId::Broadcast || p.info.id == BuiltinId::Ramp) {
      Value lanes = p.getOr("lanes", Value::poison());
      if (!lanes.isIntLike() || lanes.getInt() < 2 || lanes.getInt() > 64)
        return fail(p.node("lanes"), "lanes must be an integer from 2 to 64");
      Scalar base = addScalar(p.info.id == BuiltinId::Ramp ? "base" : "value",
                              p.getOr(p.info.id == BuiltinId::Ramp ? "base"
                                                                   : "value",
                                      Value::poison()));
      if (!base)
        return Value::poison();
      if (p.info.id == BuiltinId::Ramp &&
          !addScalar("stride", p.getOr("stride", Value::poison())))
        return Value::poison();
      result = withLanes(base.dtype, lanes.getInt());
    } else if (p.info.id == BuiltinId::ExtractLane) {
      Scalar vec = addScalar("vec", p.getOr("vec", Value::poison()));
      if (!vec || !addScalar("lane", p.getOr("lane", Value::poison())))
        return Value::poison();
      result = withLanes(vec.dtype, 1);
    } else {
      Value vecs = p.getOr("vectors", Value::poison());
      Value idx = p.getOr("indices", Value::poison());
      llvm::SmallVector<Value, 4> vs;
      if (vecs.isSequence())
        vs.append(getElems(vecs).begin(), getElems(vecs).end());
      else
        vs.push_back(vecs);
      std::optional<DType> elem;
      for (Value v : vs)
        if (Scalar s = addScalar("vectors", v); s && !elem)
          elem = s.dtype;
      size_t lanes = idx.isSequence() ? getElems(idx).size() : 1;
      if (idx.isSequence())
        for (Value i : getElems(idx))
          addScalar("indices", i);
      if (!elem)
        return Value::poison();
      result = withLanes(*elem, int64_t(lanes));
    }
    auto &B = ir->b;
    auto op = tile::IntrinsicOp::create(
        B, ir->loc(at), mlir::TypeRange{ir->valueType(*result)},
        B.getStringAttr(p.info.name), operands, B.getStrArrayAttr(params),
        mlir::DictionaryAttr());
    return wrapScalar({op->getResult(0), *result, SymExpr()});
  }
  default:
    return std::nullopt;
  }
}
