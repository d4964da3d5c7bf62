//===- AutoScope.cpp - T.auto_alloc and its memory scope inference --------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.auto_alloc(shape, dtype)` allocates a buffer whose scope TileLang
// leaves as "auto" while tracing; its InferMemoryScope pass then picks the
// scope from every use of the buffer in the function:
//
//   gemm / gemm_sp accumulator                  -> local.fragment (hard)
//   gemm / gemm_sp A or B operand               -> shared.dyn     (hard)
//   T.copy destination from a global buffer in a
//     pipelined loop (num_stages)               -> shared.dyn     (hard)
//   T.cumsum / T.cummax source or destination   -> shared.dyn     (hard)
//   a fragment and a shared requirement         -> error listing both
//   no access at all                            -> local
//   only element loads/stores, all in T.Parallel nests, each index a
//     distinct loop variable and every nest the same mapping and
//     extents                                   -> local.fragment
//   only element loads/stores outside parallel loops -> local
//   anything else                               -> shared.dyn
//                                                  ("shared" for bool)
//
// An element access indexed by a thread variable (T.get_thread_binding,
// T.thread_binding loops) or under a condition on one is neither a
// sequential nor a parallel-nest access (each thread's private copy would
// see only its own writes). Every other tile op touching the buffer makes
// it a non-plain use.
//
// tlc traces a kernel once and its ops depend on the scopes, so the scope
// is decided when the call is evaluated, from the uses of the name it is
// assigned to in the enclosing function's syntax. Limits of that reading:
// the buffer passed to a helper (a macro) counts as a tile-op use (TileLang
// sees the inlined accesses), and an index mapping is "bijective" only as
// bare loop variables (TileLang's iterator-map detection also accepts
// fused affine forms such as `i * 4 + j`).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "KernelFrames.h"
#include "Primitives.h"

#include "llvm/ADT/StringSet.h"

using namespace tlc;
using namespace tlc::eval;
using lang::MemoryScope;

namespace {

/// What the uses of one auto buffer imply (TileLang's per-buffer facts).
struct ScopeFacts {
  bool hasAccess = false;
  bool allPlain = true;
  bool allParallelNest = true;
  bool allSequential = true;
  bool bijective = true;
  bool consistent = true;
  bool hasCanonical = false;
  llvm::SmallVector<std::string, 2> fragmentReasons, sharedReasons;
  /// Per index: the position of its loop variable in the nest.
  llvm::SmallVector<unsigned, 4> canonicalIndices;
  /// The nest's extents as written.
  llvm::SmallVector<std::string, 4> canonicalExtents;
};

/// One enclosing `for` of a use.
struct ScanLoop {
  bool parallel = false;
  bool pipelined = false;
  llvm::SmallVector<llvm::StringRef, 3> vars;
  llvm::SmallVector<std::string, 3> extents;
};

/// The callee's last name: `T.gemm` and `gemm` are both "gemm".
llvm::StringRef calleeName(Node call) {
  Node f = call.child(Field::func);
  if (!f)
    return "";
  if (f.kind() == NodeKind::Attribute)
    return f.identifier();
  if (f.kind() == NodeKind::Name)
    return f.identifier();
  return "";
}

/// The keyword argument \p name of \p call, else its positional argument
/// \p pos (null when neither is given).
Node argOf(Node call, llvm::StringRef name, unsigned pos) {
  for (Node k : call.children(Field::keywords))
    if (k.identifier() == name)
      return k.child(Field::value);
  unsigned i = 0;
  for (Node a : call.children(Field::args)) {
    if (a.kind() == NodeKind::Starred)
      return Node();
    if (i++ == pos)
      return a;
  }
  return Node();
}

/// The buffer name an argument designates: `X` or `X[...]`.
llvm::StringRef baseName(Node arg) {
  if (!arg)
    return "";
  if (arg.kind() == NodeKind::Subscript)
    arg = arg.child(Field::value);
  return arg && arg.kind() == NodeKind::Name ? arg.identifier() : "";
}

/// Tile operations: a buffer (or region) argument of one is a tile-op use,
/// not an element access.
bool isTileOp(llvm::StringRef n) {
  return n == "copy" || n == "async_copy" || n == "tma_copy" || n == "fill" ||
         n == "clear" || n.starts_with("gemm") || n == "wgmma_gemm" ||
         n == "tcgen05_gemm" || n == "cumsum" || n == "cummax" ||
         n == "cummin" || n == "reduce" || n.starts_with("reduce_") ||
         n.starts_with("atomic_") || n == "print" || n == "transpose" ||
         n == "finalize_reducer";
}

class UseScanner {
public:
  UseScanner(Interpreter &in, llvm::StringRef name, ScopeFacts &facts)
      : in(in), name(name), f(facts) {}

  void stmts(syntax::ChildRange body) {
    for (Node s : body)
      stmt(s);
  }

private:
  Interpreter &in;
  llvm::StringRef name;
  ScopeFacts &f;
  std::vector<ScanLoop> loops;
  llvm::StringSet<> threadVars;
  unsigned threadConditions = 0;

  void stmt(Node s) {
    switch (s.kind()) {
    case NodeKind::For:
      forStmt(s);
      return;
    case NodeKind::If:
    case NodeKind::While: {
      expr(s.child(Field::test));
      bool onThread = mentionsThreadVar(s.child(Field::test));
      threadConditions += onThread;
      stmts(s.children(Field::body));
      stmts(s.children(Field::orelse));
      threadConditions -= onThread;
      return;
    }
    case NodeKind::Assign: {
      Node value = s.child(Field::value);
      if (value && value.kind() == NodeKind::Call) {
        llvm::StringRef c = calleeName(value);
        if (c == "get_thread_binding" || c == "get_thread_bindings" ||
            c == "launch_thread" || c == "thread_binding")
          for (Node t : s.children(Field::targets))
            syntax::walk(t, [&](Node n) {
              if (n.kind() == NodeKind::Name)
                threadVars.insert(n.identifier());
              return syntax::WalkResult::Advance;
            });
      }
      for (Node t : s.children(Field::targets))
        expr(t);
      expr(value);
      return;
    }
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef:
    case NodeKind::ClassDef:
      // A nested helper's body runs where it is called; its uses count as
      // uses of the buffer (a macro taking it is an opaque use).
      stmts(s.children(Field::body));
      return;
    default:
      break;
    }
    for (Node c : s.children()) {
      if (syntax::isStatement(c.kind()))
        stmt(c);
      else
        expr(c);
    }
  }

  void forStmt(Node s) {
    Node iter = s.child(Field::iter);
    ScanLoop loop;
    bool threadLoop = false;
    if (iter && iter.kind() == NodeKind::Call) {
      llvm::StringRef c = calleeName(iter);
      loop.parallel = c == "Parallel";
      if (c == "Pipelined") {
        Node stages = argOf(iter, "num_stages", 2);
        loop.pipelined = stages && stages.text() != "0";
      }
      threadLoop = c == "thread_binding";
      if (loop.parallel)
        for (Node a : iter.children(Field::args))
          loop.extents.push_back(a.text().str());
    }
    expr(iter);
    syntax::walk(s.child(Field::target), [&](Node n) {
      if (n.kind() == NodeKind::Name) {
        if (threadLoop)
          threadVars.insert(n.identifier());
        else
          loop.vars.push_back(n.identifier());
      }
      return syntax::WalkResult::Advance;
    });
    if (!threadLoop)
      loops.push_back(loop);
    stmts(s.children(Field::body));
    if (!threadLoop)
      loops.pop_back();
    stmts(s.children(Field::orelse));
  }

  bool mentionsThreadVar(Node e) {
    if (!e || threadVars.empty())
      return false;
    bool found = false;
    syntax::walk(e, [&](Node n) {
      if (n.kind() == NodeKind::Name && threadVars.contains(n.identifier())) {
        found = true;
        return syntax::WalkResult::Interrupt;
      }
      return syntax::WalkResult::Advance;
    });
    return found;
  }

  bool inPipelinedLoop() const {
    return llvm::any_of(loops, [](const ScanLoop &l) { return l.pipelined; });
  }

  /// True when the buffer \p n names is a global one (a kernel tensor).
  bool isGlobalBuffer(Node arg) {
    llvm::StringRef n = baseName(arg);
    if (n.empty())
      return false;
    // The name's current binding, without lookup()'s diagnostics (a name
    // bound later in the function is not known yet: not global here).
    Value v = Value::poison();
    for (Env *e = in.env; e; e = e->parent) {
      auto it = e->vars.find(n);
      if (it != e->vars.end()) {
        v = it->second;
        break;
      }
    }
    if (v.is(ValueKind::Buffer))
      return lang::isGlobalScope(v.as<BufferObj>()->scope);
    if (v.is(ValueKind::Region))
      return lang::isGlobalScope(v.as<RegionObj>()->buffer->scope);
    return false;
  }

  void tileOpUse() {
    f.hasAccess = true;
    f.allPlain = f.allParallelNest = f.allSequential = false;
  }

  void call(Node c) {
    llvm::StringRef callee = calleeName(c);
    bool tileOp = isTileOp(callee);
    // A layout made of the buffer (`T.annotate_layout({X:
    // make_swizzled_layout(X)})`) reads only its shape: no access.
    bool layoutOf = callee.starts_with("make_");
    auto is = [&](Node a) { return baseName(a) == name; };
    if (tileOp) {
      std::string op = ("T." + callee).str();
      if (callee.starts_with("gemm") || callee == "wgmma_gemm" ||
          callee == "tcgen05_gemm") {
        bool sparse = callee.starts_with("gemm_sp");
        Node a = argOf(c, sparse ? "A_sparse" : "A", 0),
             b = argOf(c, "B", sparse ? 2 : 1);
        Node acc = argOf(c, "C", sparse ? 3 : 2);
        if (is(acc))
          f.fragmentReasons.push_back("used as " + op +
                                      " accumulator (requires local.fragment)");
        if (is(a))
          f.sharedReasons.push_back("used as " + op +
                                    " A operand (requires shared.dyn)");
        if (is(b))
          f.sharedReasons.push_back("used as " + op +
                                    " B operand (requires shared.dyn)");
      } else if (callee == "copy") {
        Node src = argOf(c, "src", 0), dst = argOf(c, "dst", 1);
        if (is(dst) && inPipelinedLoop() && isGlobalBuffer(src))
          f.sharedReasons.push_back(
              "used as T.copy destination fed from global memory inside a "
              "pipelined loop (requires shared.dyn)");
      } else if (callee == "cumsum" || callee == "cummax") {
        if (is(argOf(c, "src", 0)) || is(argOf(c, "dst", 1)))
          f.sharedReasons.push_back("used as " + op +
                                    " operand (requires shared.dyn)");
      }
    }
    expr(c.child(Field::func));
    auto argument = [&](Node a) {
      if (a && a.kind() == NodeKind::Starred)
        a = a.child(Field::value);
      if (!a)
        return;
      // A tile op's buffer or region argument, or the buffer itself passed
      // to anything else (a helper): a use that is not an element access.
      if ((tileOp && is(a)) ||
          (!layoutOf && a.kind() == NodeKind::Name && a.identifier() == name)) {
        tileOpUse();
        if (a.kind() == NodeKind::Subscript)
          expr(a.child(Field::slice));
        return;
      }
      expr(a);
    };
    for (Node a : c.children(Field::args))
      argument(a);
    for (Node k : c.children(Field::keywords))
      argument(k.child(Field::value));
  }

  void expr(Node e) {
    if (!e)
      return;
    switch (e.kind()) {
    case NodeKind::Call:
      call(e);
      return;
    case NodeKind::Subscript:
      if (baseName(e) == name &&
          e.child(Field::value).kind() == NodeKind::Name) {
        elementAccess(e.child(Field::slice));
        expr(e.child(Field::slice));
        return;
      }
      break;
    case NodeKind::Lambda:
      return;
    default:
      break;
    }
    for (Node c : e.children())
      expr(c);
  }

  /// An element load or store `X[indices]`.
  void elementAccess(Node slice) {
    f.hasAccess = true;
    llvm::SmallVector<Node, 4> indices;
    if (slice.kind() == NodeKind::Tuple)
      llvm::append_range(indices, slice.children(Field::elts));
    else
      indices.push_back(slice);
    if (threadConditions || mentionsThreadVar(slice)) {
      f.allSequential = f.allParallelNest = false;
      return;
    }
    llvm::SmallVector<llvm::StringRef, 4> vars;
    llvm::SmallVector<std::string, 4> extents;
    bool allParallel = !loops.empty();
    for (const ScanLoop &l : loops) {
      if (l.parallel) {
        vars.append(l.vars.begin(), l.vars.end());
        extents.append(l.extents.begin(), l.extents.end());
      } else {
        allParallel = false;
      }
    }
    if (vars.empty()) {
      f.allParallelNest = false;
      return;
    }
    f.allSequential = false;
    if (!allParallel) {
      f.allParallelNest = false;
      return;
    }
    // Each index a distinct loop variable, every variable used: the access
    // maps the nest one-to-one onto its elements.
    llvm::SmallVector<unsigned, 4> positions;
    llvm::SmallVector<bool, 4> used(vars.size(), false);
    for (Node i : indices) {
      if (i.kind() != NodeKind::Name) {
        f.bijective = false;
        return;
      }
      auto *it = llvm::find(vars, i.identifier());
      if (it == vars.end() || used[it - vars.begin()]) {
        f.bijective = false;
        return;
      }
      used[it - vars.begin()] = true;
      positions.push_back(it - vars.begin());
    }
    if (positions.size() != vars.size()) {
      f.bijective = false;
      return;
    }
    if (!f.hasCanonical) {
      f.hasCanonical = true;
      f.canonicalIndices = positions;
      f.canonicalExtents = extents;
      return;
    }
    if (f.canonicalIndices != positions || f.canonicalExtents != extents)
      f.consistent = false;
  }
};

/// The name `T.auto_alloc(...)` at \p call is assigned to ("" when it is
/// not assigned to a plain name).
llvm::StringRef assignedName(Node call) {
  Node parent = call.parent();
  Node tuple;
  unsigned pos = 0;
  if (parent && parent.kind() == NodeKind::Tuple) {
    tuple = parent;
    for (Node e : tuple.children(Field::elts)) {
      if (e.range().begin == call.range().begin)
        break;
      ++pos;
    }
    parent = tuple.parent();
  }
  if (!parent || parent.kind() != NodeKind::Assign)
    return "";
  for (Node t : parent.children(Field::targets)) {
    if (!tuple && t.kind() == NodeKind::Name)
      return t.identifier();
    if (tuple && (t.kind() == NodeKind::Tuple || t.kind() == NodeKind::List)) {
      unsigned i = 0;
      for (Node e : t.children(Field::elts))
        if (i++ == pos && e.kind() == NodeKind::Name)
          return e.identifier();
    }
  }
  return "";
}

} // namespace

Value tlc::eval::autoAllocate(Interpreter &in, const PArgs &p) {
  Node call = p.call;
  llvm::StringRef name = assignedName(call);
  Node def = call.parent();
  while (def && def.kind() != NodeKind::FunctionDef &&
         def.kind() != NodeKind::AsyncFunctionDef)
    def = def.parent();
  ScopeFacts facts;
  if (!name.empty() && def) {
    UseScanner scan(in, name, facts);
    scan.stmts(def.children(Field::body));
  }
  // bool buffers decided as shared use the static "shared" scope
  // (TileLang's dynamic shared-memory merging cannot take them).
  bool isBool = false;
  if (std::optional<Value> dt = p.get("dtype"); dt && !dt->isAbrupt())
    if (std::optional<lang::DType> d = in.toDType(*dt, p.node("dtype")))
      isBool = d->isBool();
  bool cpu =
      in.instance && in.instance->target && in.instance->target->name == "cpu";
  MemoryScope shared = cpu      ? MemoryScope::Local
                       : isBool ? MemoryScope::Shared
                                : MemoryScope::SharedDyn;
  MemoryScope scope;
  if (!facts.fragmentReasons.empty() && !facts.sharedReasons.empty()) {
    std::string why;
    for (const std::string &r : facts.fragmentReasons)
      why += "; " + r;
    for (const std::string &r : facts.sharedReasons)
      why += "; " + r;
    in.errorAtCompileAs("InternalError", call.range(),
                        "cannot infer memory scope for buffer '" + name + "'" +
                            why +
                            " (use T.alloc_shared / T.alloc_fragment "
                            "explicitly)");
    scope = MemoryScope::Fragment;
  } else if (!facts.fragmentReasons.empty()) {
    scope = MemoryScope::Fragment;
  } else if (!facts.sharedReasons.empty()) {
    scope = shared;
  } else if (!facts.hasAccess) {
    scope = MemoryScope::Local;
  } else if (facts.allPlain && facts.allParallelNest && facts.bijective &&
             facts.consistent) {
    scope = MemoryScope::Fragment;
  } else if (facts.allPlain && facts.allSequential) {
    scope = MemoryScope::Local;
  } else {
    scope = shared;
  }
  Value v = allocate(in, p, scope);
  if (v.is(ValueKind::Buffer))
    v.as<BufferObj>()->autoScope = true;
  return v;
}
