//===- Statements.cpp - Compound and simple statements --------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The statement dispatcher and the statements other than assignments and
// definitions: `for`, `while`, `if`, `with`, `import` / `from ... import`,
// `assert`, `raise` and `return`.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "IRGen.h"
#include "Uncertain.h"
#include "tlc/Eval/Slices.h"
#include "tlc/Support/ThreadClock.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <functional>

using namespace tlc;
using namespace tlc::eval;

namespace tlc::eval {
bool usedOnlyWhereExpectedToFail(syntax::Node owner, llvm::StringRef name,
                                 unsigned bindings = 0);
bool passedOnlyWhereExpectedToFail(syntax::Node module, llvm::StringRef name);
} // namespace tlc::eval
using syntax::BinaryOp;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

Flow Interpreter::execBody(Node owner, Field field) {
  for (Node stmt : owner.children(field)) {
    Flow f = exec(stmt);
    if (f != Flow::Normal)
      return f;
  }
  return Flow::Normal;
}

Flow Interpreter::exec(Node stmt) {
  if (!step(stmt))
    return Flow::Raise;
  switch (stmt.kind()) {
  case NodeKind::Expr:
    return execExpr(stmt);
  case NodeKind::Assign:
    return execAssign(stmt);
  case NodeKind::AugAssign:
    return execAugAssign(stmt);
  case NodeKind::AnnAssign:
    return execAnnAssign(stmt);
  case NodeKind::For:
    return execFor(stmt);
  case NodeKind::While:
    return execWhile(stmt);
  case NodeKind::If:
    return execIf(stmt);
  case NodeKind::With:
    return execWith(stmt);
  case NodeKind::Try:
  case NodeKind::TryStar:
    return execTry(stmt);
  case NodeKind::Import:
    return execImport(stmt);
  case NodeKind::ImportFrom:
    return execImportFrom(stmt);
  case NodeKind::FunctionDef:
    return execFunctionDef(stmt);
  case NodeKind::AsyncFunctionDef:
    bind(stmt.identifier(), heap.opaque("coroutine function"));
    return Flow::Normal;
  case NodeKind::ClassDef:
    return execClassDef(stmt);
  case NodeKind::Assert:
    return execAssert(stmt);
  case NodeKind::Raise:
    return execRaise(stmt);
  case NodeKind::Return:
    return execReturn(stmt);
  case NodeKind::Pass:
    return Flow::Normal;
  case NodeKind::Break:
    return Flow::Break;
  case NodeKind::Continue:
    return Flow::Continue;
  case NodeKind::Global:
    for (const syntax::Identifier &id : stmt.identifiers(Field::names))
      env->globals.push_back(id.name);
    return Flow::Normal;
  case NodeKind::Nonlocal:
    for (const syntax::Identifier &id : stmt.identifiers(Field::names))
      env->nonlocals.push_back(id.name);
    return Flow::Normal;
  case NodeKind::Delete:
    for (Node t : stmt.children(Field::targets))
      if (!deleteTarget(t))
        return Flow::Raise;
    return Flow::Normal;
  case NodeKind::Error:
    return Flow::Normal;
  case NodeKind::Match:
    // Traced, every pattern would compare a symbolic subject and the
    // wildcard arm would be taken whatever the value; TileLang rejects the
    // statement in a kernel (a NotImplementedError naming its line).
    if (tracing()) {
      TextRange at = foreignDepth > 0 ? foreignAnchor : stmt.range();
      unsigned line = tree.lines().toUtf8(at.begin).line + 1;
      errorAs("NotImplementedError",
              {stmt.range().begin, stmt.range().begin + 5},
              "`match` is not supported in a TileLang kernel (line " +
                  llvm::Twine(line) + "); write it as an if/elif chain");
      return Flow::Normal;
    }
    // Outside kernels: not evaluated (as async with/for, type aliases).
    return Flow::Normal;
  default:
    // async with/for, type aliases: not evaluated.
    return Flow::Normal;
  }
}


namespace {
/// Marks the body of a loop the interpreter expands (Interpreter::
/// expandedLoops) while it runs.
struct ExpandedLoopScope {
  Interpreter &in;
  explicit ExpandedLoopScope(Interpreter &in) : in(in) {
    in.expandedLoops.push_back(in.loops.size());
  }
  ~ExpandedLoopScope() { in.expandedLoops.pop_back(); }
};
} // namespace

/// Whether a `return` in the body of the loop \p loop (not in a function
/// or class defined there) can end the function.
static bool bodyCanReturn(Node loop) {
  bool found = false;
  for (Node stmt : loop.children(Field::body))
    syntax::walk(stmt, [&](Node n) {
      if (n.kind() == NodeKind::FunctionDef ||
          n.kind() == NodeKind::AsyncFunctionDef ||
          n.kind() == NodeKind::ClassDef || n.kind() == NodeKind::Lambda)
        return syntax::WalkResult::Skip;
      if (n.kind() != NodeKind::Return)
        return syntax::WalkResult::Advance;
      found = true;
      return syntax::WalkResult::Interrupt;
    });
  return found;
}

Flow Interpreter::execFor(Node stmt) {
  Value iter = eval(stmt.child(Field::iter));
  if (iter.isException())
    return Flow::Raise;
  if (iter.isPoison())
    return Flow::Normal;
  if (iter.isObj(ObjKind::LoopFrame) ||
      (traced && tracing() && iter.is(ValueKind::Range))) {
    if (!tracing()) {
      error(stmt.child(Field::iter),
            "TileLang loops can only be used inside a kernel");
      return Flow::Normal;
    }
    LoopFrameObj *loop;
    if (iter.is(ValueKind::Range)) {
      // range() inside a traced body is T.serial.
      RangeObj *r = iter.as<RangeObj>();
      loop = heap.make<LoopFrameObj>();
      loop->objKind = ObjKind::LoopFrame;
      loop->loopKind = LoopKind::Serial;
      loop->starts.push_back(Value::integer(r->start));
      loop->stops.push_back(Value::integer(r->stop));
      loop->steps.push_back(Value::integer(r->step));
      loop->call = stmt.child(Field::iter);
    } else {
      loop = iter.as<LoopFrameObj>();
    }
    return execIRLoop(loop, stmt, stmt.child(Field::target));
  }
  if (iter.is(ValueKind::Opaque)) {
    // Unknown iteration count: the loop is skipped. In a function whose
    // loop body can return, what follows the loop may never run (`for line
    // in src.splitlines(): if ...: return line`, then `raise`): the call's
    // result is unknown instead.
    if (!callStack.empty() && !tracing() && bodyCanReturn(stmt)) {
      returnValue = heap.opaque("result of a loop over a value tlc does "
                                "not model");
      return Flow::Return;
    }
    return Flow::Normal;
  }
  ExpandedLoopScope expanded(*this);
  Node target = stmt.child(Field::target);
  // One iteration with \p item bound to the target: nullopt to go on, else
  // the flow the loop ends with.
  auto iteration = [&](Value item) -> std::optional<Flow> {
    if (!step(stmt) || assign(target, item) != Flow::Normal)
      return Flow::Raise;
    Flow f = execBody(stmt, Field::body);
    if (f == Flow::Break)
      return Flow::Normal;
    if (f == Flow::Return || f == Flow::Raise)
      return f;
    return std::nullopt;
  };
  if (iter.isObj(ObjKind::Iterator)) {
    // One value at a time: a `break` leaves the rest for the next reader.
    IteratorObj *it = iter.as<IteratorObj>();
    while (it->pos < it->items.size())
      if (std::optional<Flow> f = iteration(it->items[it->pos++]))
        return *f;
    return execBody(stmt, Field::orelse);
  }
  if (iter.is(ValueKind::Range)) {
    RangeObj *r = iter.as<RangeObj>();
    for (int64_t i = r->start; r->step > 0 ? i < r->stop : i > r->stop;
         i += r->step)
      if (std::optional<Flow> f = iteration(Value::integer(i)))
        return *f;
    return execBody(stmt, Field::orelse);
  }
  llvm::SmallVector<Value, 16> items;
  if (!iterate(iter, items, stmt.child(Field::iter)))
    return Flow::Raise;
  for (Value item : items)
    if (std::optional<Flow> f = iteration(item))
      return *f;
  return execBody(stmt, Field::orelse);
}

Flow Interpreter::execWhile(Node stmt) {
  Node test = stmt.child(Field::test);
  ExpandedLoopScope expanded(*this);
  while (true) {
    if (!step(stmt))
      return Flow::Raise;
    // Remember where the IR ends: an IR condition is rebuilt inside the
    // tile.while, so the ops of this first evaluation are dropped.
    mlir::Block *block = ir->b.getInsertionBlock();
    mlir::Operation *last =
        block && !block->empty() ? &block->back() : nullptr;
    Value c = eval(test);
    Truth t = truth(c, test);
    if (t == Truth::Abrupt)
      return flowOf(c.isException() ? c : Value::none());
    if (t == Truth::IR) {
      if (!tracing())
        return Flow::Normal;
      if (block)
        while (!block->empty() && &block->back() != last &&
               block->back().use_empty())
          block->back().erase();
      return execIRWhile(stmt);
    }
    if (t == Truth::Unknown)
      warnUnknownCondition(c, test, "the loop is assumed not to run");
    if (t != Truth::True)
      break;
    Flow f = execBody(stmt, Field::body);
    if (f == Flow::Break)
      return Flow::Normal;
    if (f == Flow::Return || f == Flow::Raise)
      return f;
  }
  return execBody(stmt, Field::orelse);
}

Flow Interpreter::execIf(Node stmt) {
  Node test = stmt.child(Field::test);
  Value c = eval(test);
  switch (truth(c, test)) {
  case Truth::Unknown: {
    // A check of values from outside TileLang whose branch only raises
    // (`if int(idx.max()) >= n: raise ValueError(...)`) is assumed to
    // pass, as an assert on such a value is: the program runs without
    // raising, and taking the raise would end the analysis of the code
    // that launches its kernels.
    // (A check that reads a symbolic parameter keeps the `if` branch: a
    // default instance's raise is a warning there,
    // Eval/default-instance-raise.py.)
    bool readsSymbol = false;
    syntax::walk(test, [&](Node n) {
      if (n.kind() == NodeKind::Lambda || n.kind() == NodeKind::ListComp ||
          n.kind() == NodeKind::SetComp || n.kind() == NodeKind::DictComp ||
          n.kind() == NodeKind::GeneratorExp)
        return syntax::WalkResult::Skip;
      if (n.kind() != NodeKind::Name)
        return syntax::WalkResult::Advance;
      Value v = lookup(n.identifier(), n);
      if (v.isException())
        pending = {};
      readsSymbol |= v.is(ValueKind::Sym);
      return readsSymbol ? syntax::WalkResult::Interrupt
                         : syntax::WalkResult::Advance;
    });
    auto body = stmt.children(Field::body);
    if ((c.is(ValueKind::Opaque) || isUncertain(c)) && !readsSymbol &&
        std::distance(body.begin(), body.end()) == 1 &&
        (*body.begin()).kind() == NodeKind::Raise) {
      warnUnknownCondition(c, test, "the check is assumed to pass");
      return execBody(stmt, Field::orelse);
    }
    warnUnknownCondition(c, test, "the `if` branch is assumed");
    ++assumedBranchDepth();
    Flow f = execBody(stmt, Field::body);
    --assumedBranchDepth();
    if (f == Flow::Raise && assumedBranchDepth() == 0 &&
        pending.type == "RecursionError") {
      warning(test, "following the `if` branch assumed here recursed past "
                    "the maximum call depth (" +
                        llvm::Twine(options.maxCallDepth) +
                        "): what it does is not analysed");
      pending = {};
      return Flow::Normal;
    }
    return f;
  }
  case Truth::True:
    return execBody(stmt, Field::body);
  case Truth::False:
    return execBody(stmt, Field::orelse);
  case Truth::IR:
    return execIRIf(c, stmt);
  case Truth::Abrupt:
    return c.isException() ? Flow::Raise : Flow::Normal;
  }
  return Flow::Normal;
}

Flow Interpreter::execWith(Node stmt) {
  llvm::SmallVector<Node, 2> items(stmt.children(Field::items).begin(),
                                   stmt.children(Field::items).end());
  for (unsigned itemIndex = 0; itemIndex < items.size(); ++itemIndex) {
    Node item = items[itemIndex];
    Node ctxNode = item.child(Field::context_expr);
    // `with T.While(cond):` evaluates its condition on every iteration,
    // so the call is not evaluated here.
    if (ctxNode.kind() == NodeKind::Call && traced &&
        (ctxNode.child(Field::func).kind() == NodeKind::Attribute ||
         ctxNode.child(Field::func).kind() == NodeKind::Name)) {
      Value fn = eval(ctxNode.child(Field::func));
      if (fn.isException())
        return Flow::Raise;
      if (fn.is(ValueKind::Primitive) &&
          fn.getPrimitive()->getCanonical().id == lang::BuiltinId::While) {
        Node cond;
        for (Node a : ctxNode.children(Field::args)) {
          cond = a;
          break;
        }
        if (!tracing() || !kernel) {
          error(stmt, "T.While can only be used inside a T.Kernel region");
          return Flow::Normal;
        }
        return execIRWhile(stmt, cond);
      }
    }
    Value ctx = eval(ctxNode);
    if (ctx.isException())
      return Flow::Raise;
    Node var = item.child(Field::optional_vars);
    if (ctx.isObj(ObjKind::KernelFrame)) {
      // `with T.Kernel(n) as bx, T.SimtVF(threads=t):` (Ascend): the
      // kernel's body is the vector function's.
      bool ascend = false;
      if (items.size() == 2 && itemIndex == 0) {
        Node other = items[1].child(Field::context_expr);
        Value f = eval(other);
        if (f.isException())
          return Flow::Raise;
        if (f.isObj(ObjKind::GenericFrame) &&
            f.as<FrameObj>()->id == lang::BuiltinId::SimtVF) {
          ascend = true;
          ascendKernelFrame = f.as<FrameObj>();
        }
      }
      if (items.size() > 1 && !ascend)
        warning(item, "other context managers of this `with` are ignored");
      return execKernel(ctx.as<KernelFrameObj>(), stmt, var);
    }
    if (ctx.isObj(ObjKind::GenericFrame)) {
      if (items.size() > 1 && !isIfThenPair(stmt))
        warning(item, "other context managers of this `with` are ignored");
      return execFrame(ctx.as<FrameObj>(), stmt, var);
    }
    // `with T.Persistent(...) as (bx, by):` is TVM's frame form of the
    // loop: the body is the loop body, the names its variables.
    if (ctx.isObj(ObjKind::LoopFrame)) {
      if (itemIndex + 1 != items.size())
        warning(item, "the context managers after this loop frame are "
                      "ignored");
      if (tracing())
        return execIRLoop(ctx.as<LoopFrameObj>(), stmt, var);
      return execLoopFrameOutsideKernel(ctx.as<LoopFrameObj>(), stmt, var);
    }
    // `with pytest.raises(...)`: code that is meant to fail, not
    // evaluated, unless asked for (`tlc-build --trace-expected-failures`:
    // the Python package checks a prim_func defined there for the error
    // TileLang raises).
    if (ctx.is(ValueKind::Opaque) &&
        ctx.as<OpaqueObj>()->description == "pytest.raises") {
      const char *trace = std::getenv("TLC_TRACE_EXPECTED_FAILURES");
      if (!trace || llvm::StringRef(trace) != "1")
        return Flow::Normal;
    }
    // A launch tlc could not make (reported already): its body would only
    // repeat that every allocation is outside a kernel.
    if (ctx.isPoison() && traced && !kernel)
      return Flow::Normal;
    if (var && assign(var, ctx) != Flow::Normal)
      return Flow::Raise;
  }
  return execBody(stmt, Field::body);
}

Flow Interpreter::execImport(Node stmt) {
  for (Node alias : stmt.children(Field::names)) {
    llvm::StringRef name = alias.identifier(Field::name);
    llvm::StringRef as = alias.identifier(Field::asname);
    if (std::optional<Value> local = importSibling(name, 0, stmt)) {
      if (local->isException())
        return Flow::Raise;
      // `import pkg.mod` binds `pkg`; `import pkg.mod as m` the module.
      llvm::StringRef top = name.split('.').first;
      bind(as.empty() ? top : as,
           as.empty() ? Value::object(ValueKind::Module,
                                      siblingModules.lookup(top))
                      : *local);
    } else if (missingModule(name, alias)) {
      return Flow::Raise;
    } else if (!as.empty()) {
      bind(as, importModule(name));
    } else {
      llvm::StringRef top = name.split('.').first;
      bind(top, importModule(top));
    }
  }
  return Flow::Normal;
}

/// `from <local module> import name`: the module's global, else its
/// submodule when it is a package, else Python's ImportError.
Value Interpreter::importFromLocal(ModuleObj *m, llvm::StringRef name,
                                   Node alias) {
  auto it = m->globals->vars.find(name);
  if (it != m->globals->vars.end())
    return it->second;
  if (!m->dir.empty()) {
    std::optional<Value> sub =
        loadLocalModule((m->name + "." + name).str(), alias);
    if (sub && !sub->isException())
      return *sub;
    if (sub)
      pending = {};
  }
  return raiseDefinite("ImportError",
                       "cannot import name '" + name + "' from '" + m->name +
                           "'",
                       alias);
}

Flow Interpreter::execImportFrom(Node stmt) {
  llvm::StringRef modName = stmt.identifier(Field::module);
  unsigned level = stmt.importLevel();
  // `from . import helper`: the names are modules of the package (or, in
  // the analysed file's directory, modules next to it).
  if (modName.empty() && level > 0) {
    std::optional<Value> pkg = importSibling("", level, stmt);
    if (pkg && pkg->isException())
      return Flow::Raise;
    for (Node alias : stmt.children(Field::names)) {
      llvm::StringRef name = alias.identifier(Field::name);
      llvm::StringRef as = alias.identifier(Field::asname);
      Value v;
      if (pkg) {
        v = importFromLocal(pkg->as<ModuleObj>(), name, alias);
      } else if (std::optional<Value> sib =
                     importSibling(name, level, stmt)) {
        v = *sib;
      } else {
        v = heap.opaque(name);
      }
      if (v.isException())
        return Flow::Raise;
      bind(as.empty() ? name : as, v);
    }
    return Flow::Normal;
  }
  if (std::optional<Value> sib = importSibling(modName, level, stmt)) {
    if (sib->isException())
      return Flow::Raise;
    auto *m = sib->as<ModuleObj>();
    for (Node alias : stmt.children(Field::names)) {
      llvm::StringRef name = alias.identifier(Field::name);
      llvm::StringRef as = alias.identifier(Field::asname);
      if (name == "*") {
        importStar(m);
        continue;
      }
      Value v = importFromLocal(m, name, alias);
      if (v.isException())
        return Flow::Raise;
      bind(as.empty() ? name : as, v);
    }
    return Flow::Normal;
  }
  if (level == 0)
    if (missingModule(modName, stmt))
      return Flow::Raise;
  if (stmt.importLevel() > 0) {
    // Relative imports refer to files tlc does not read.
    for (Node alias : stmt.children(Field::names)) {
      llvm::StringRef as = alias.identifier(Field::asname);
      llvm::StringRef name = alias.identifier(Field::name);
      if (name == "*")
        hasOpaqueStarImport = true;
      else
        bind(as.empty() ? name : as, heap.opaque(name));
    }
    return Flow::Normal;
  }
  Value mod = importModule(modName);
  for (Node alias : stmt.children(Field::names)) {
    llvm::StringRef name = alias.identifier(Field::name);
    llvm::StringRef as = alias.identifier(Field::asname);
    if (name == "*") {
      hasOpaqueStarImport = true;
      if (isTileLangModule(modName) &&
          !llvm::is_contained(tileLangStarImports, modName))
        tileLangStarImports.push_back(modName.str());
      continue;
    }
    Value v;
    // `from tilelang import language as T` imports a submodule.
    std::string sub = (modName + "." + name).str();
    if (isTileLangModule(sub))
      v = importModule(sub);
    else
      v = moduleAttr(mod.as<ModuleObj>(), name, alias);
    if (v.isAbrupt())
      v = heap.opaque(name);
    bind(as.empty() ? name : as, v);
  }
  return Flow::Normal;
}


Flow Interpreter::execAssert(Node stmt) {
  Node test = stmt.child(Field::test);
  Value c = eval(test);
  switch (truth(c, test)) {
  case Truth::False: {
    std::string msg = "assertion failed";
    if (Node m = stmt.child(Field::msg)) {
      Value mv = eval(m);
      if (!mv.isAbrupt())
        msg = toString(mv);
    }
    raise("AssertionError", msg, test);
    return Flow::Raise;
  }
  case Truth::Abrupt:
    return c.isException() ? Flow::Raise : Flow::Normal;
  case Truth::Unknown: {
    // A comparison with a value tlc does not model, or a list filtered by
    // one (Uncertain.h): whether the assertion holds is not known, so it is
    // not checked, and a remark says so.
    if (!isUncertain(c) &&
        !(c.is(ValueKind::Opaque) &&
          c.as<OpaqueObj>()->description == kUnmodelledComparison))
      return Flow::Normal;
    std::string text = test.text().str();
    if (text.size() > 60 || text.find('\n') != std::string::npos)
      text = "its condition";
    else
      text = "`" + text + "`";
    report(Severity::Remark, test.range(),
           "tlc cannot check this assertion: " + text +
               " depends on a value tlc does not model (an object from "
               "outside TileLang), so whether it holds is unknown");
    return Flow::Normal;
  }
  case Truth::IR: {
    // `assert cond` on an IR condition is a device-side assertion.
    if (!tracing() || !kernel)
      return Flow::Normal;
    if (Scalar s = toScalar(c, test))
      checkBooleanCondition(s, test, "Assert");
    CallArgs args;
    args.pos.push_back(c);
    args.posNodes.push_back(test);
    if (Node m = stmt.child(Field::msg)) {
      Value mv = eval(m);
      if (mv.isStr()) {
        args.pos.push_back(mv);
        args.posNodes.push_back(m);
      }
    }
    Value r = callPrimitive(*lang::lookupBuiltin("T.device_assert"), args,
                            stmt);
    return flowOf(r);
  }
  default:
    return Flow::Normal;
  }
}

Flow Interpreter::execRaise(Node stmt) {
  Node excNode = stmt.child(Field::exc);
  if (!excNode) {
    raise(pending.type.empty() ? "RuntimeError" : pending.type,
          pending.message, stmt);
    return Flow::Raise;
  }
  Value exc = eval(excNode);
  if (exc.isException())
    return Flow::Raise;
  std::string type = "Exception", msg;
  if (exc.isObj(ObjKind::Exception)) {
    auto *o = exc.as<NamespaceObj>();
    type = o->name.str();
    if (Value *args = o->find("args"))
      if (args->isSequence() && !getElems(*args).empty())
        msg = toString(getElems(*args)[0]);
  } else if (exc.is(ValueKind::Opaque)) {
    type = exc.as<OpaqueObj>()->description.str();
  }
  raise(type, msg, stmt);
  return Flow::Raise;
}

Flow Interpreter::execReturn(Node stmt) {
  Node v = stmt.child(Field::value);
  returnValue = v ? eval(v) : Value::none();
  if (returnValue.isException())
    return Flow::Raise;
  return Flow::Return;
}
