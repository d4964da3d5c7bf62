//===- InstanceDefines.cpp - -D values and instance labels ----------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What tells kernel instances apart and what binds their parameters from
// the command line: `-D name=value` values parsed as Python literals (or
// the module globals they name), and the label of each instance, its
// identity for dedup.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tlc/Syntax/StringLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace tlc;
using namespace tlc::eval;

//===----------------------------------------------------------------------===//
// -D bindings and labels
//===----------------------------------------------------------------------===//

/// Splits the inside of a `(...)` / `[...]` -D value at its top-level commas
/// (commas inside nested brackets or quotes belong to an element). A
/// trailing comma, as in `(4,)`, adds no element.
static llvm::SmallVector<llvm::StringRef, 4>
splitDefineElements(llvm::StringRef inner) {
  llvm::SmallVector<llvm::StringRef, 4> elems;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t k = 0; k < inner.size(); ++k) {
    char c = inner[k];
    if (quote) {
      if (c == '\\')
        ++k; // an escaped character, a quote among them
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      elems.push_back(inner.slice(start, k).trim());
      start = k + 1;
    }
  }
  llvm::StringRef last = inner.drop_front(start).trim();
  if (!last.empty())
    elems.push_back(last);
  return elems;
}

/// Whether \p text is a Python identifier.
static bool isDefineIdentifier(llvm::StringRef text) {
  if (text.empty() || !(llvm::isAlpha(text.front()) || text.front() == '_'))
    return false;
  return llvm::all_of(text, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Whether a module global a -D value names is a value it may bind: a
/// callable (a user function or lambda, a functools.partial, a macro, a T.*
/// primitive, a builtin: `range`, `min`; `-Dloop=NAME` where the package
/// appended `NAME = range`) or a layout (`-Dloop_layout=NAME` where the
/// package appended `NAME = T.Fragment(...)` for a layout made in Python).
static bool isDefineCallable(Value v) {
  return v.is(ValueKind::Function) || v.is(ValueKind::Primitive) ||
         v.is(ValueKind::NativeFn) || v.isObj(ObjKind::Partial) ||
         v.isObj(ObjKind::Macro) || v.isObj(ObjKind::JitFunction) ||
         v.isObj(ObjKind::Layout);
}

Value Interpreter::parseDefine(llvm::StringRef text) {
  text = text.trim();
  // `iter((1, 2))`: an iterator over a -D tuple or list (the Python
  // package passes a generator or zip object a kernel body reads this way,
  // so that loops resume it as Python's do).
  if (text.size() > 6 && text.starts_with("iter(") && text.ends_with(")")) {
    llvm::StringRef inner = text.drop_front(5).drop_back().trim();
    if (inner.size() >= 2 &&
        ((inner.front() == '(' && inner.back() == ')') ||
         (inner.front() == '[' && inner.back() == ']'))) {
      Value seq = parseDefine(inner);
      if (seq.isSequence()) {
        auto *it = heap.make<IteratorObj>();
        it->items.append(getElems(seq).begin(), getElems(seq).end());
        return heap.obj(ObjKind::Iterator, it);
      }
    }
  }
  // A tuple or list of -D values, as Python prints one: `(4, 128)`,
  // `[0, 1, 2]`, `(T.float16, 'max')`, nested ones.
  if (text.size() >= 2 &&
      ((text.front() == '(' && text.back() == ')') ||
       (text.front() == '[' && text.back() == ']'))) {
    llvm::StringRef inner = text.drop_front().drop_back().trim();
    llvm::SmallVector<Value, 4> elems;
    for (llvm::StringRef e : splitDefineElements(inner))
      elems.push_back(parseDefine(e));
    // `(4)` is 4, as in Python; `(4,)` is a tuple.
    if (text.front() == '(' && elems.size() == 1 && !inner.ends_with(","))
      return elems.front();
    return text.front() == '(' ? heap.tuple(elems) : heap.list(elems);
  }
  int64_t i;
  if (!text.getAsInteger(0, i))
    return Value::integer(i);
  double d;
  if (!text.getAsDouble(d))
    return Value::floating(d);
  if (text == "True" || text == "true")
    return Value::boolean(true);
  if (text == "False" || text == "false")
    return Value::boolean(false);
  if (text == "None")
    return Value::none();
  // A quoted value is a Python string literal: `'a\nb'`, `"it's"`,
  // `'\x00'` (the package passes a str as its repr()).
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front()) {
    std::string decoded;
    if (syntax::decodeStringLiteral(text, decoded))
      return heap.str(decoded);
    return heap.str(text.drop_front().drop_back());
  }
  if (text.consume_front("T."))
    if (std::optional<lang::DType> t = lang::DType::parseAttribute(text))
      return Value::dtype(*t);
  // The name of a module-level callable or layout (`-Dscore_mod=causal_mask`;
  // the Python package appends a function, lambda, functools.partial or
  // layout passed to a factory to a copy of the script under such a name)
  // is that value. Read when the instance is traced, after the module ran.
  if (moduleEnv && isDefineIdentifier(text)) {
    auto it = moduleEnv->vars.find(text);
    if (it != moduleEnv->vars.end() && isDefineCallable(it->second))
      return it->second;
  }
  return heap.str(text);
}

std::optional<Value> Interpreter::defineFor(llvm::StringRef name) {
  for (auto &[k, v] : options.defines)
    if (k == name) {
      usedDefines.insert(k);
      return parseDefine(v);
    }
  return std::nullopt;
}

/// How a function passed to a kernel factory shows in its instance's label:
/// its source (a lambda's text, a function's name) and the values it reads
/// from the function scopes around its definition, so that two callables
/// whose traces may differ (two lambdas of a parametrized test, one lambda
/// made per loop value) label two instances.
static std::string functionLabel(Interpreter &in, FunctionObj *fn) {
  std::string text;
  if (fn->def.kind() == NodeKind::Lambda) {
    // One line, single spaces: a lambda may span lines inside brackets.
    bool space = false;
    for (char c : fn->def.text()) {
      bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
      if (ws && !text.empty())
        space = true;
      if (ws)
        continue;
      if (space)
        text += ' ';
      space = false;
      text += c;
    }
  } else {
    text = ("function " + fn->name).str();
  }
  llvm::SmallVector<llvm::StringRef, 8> names;
  syntax::walk(fn->def, [&](Node n) {
    if (n.kind() == NodeKind::Name &&
        n.context() == syntax::ExprContext::Load &&
        !llvm::is_contained(names, n.identifier()))
      names.push_back(n.identifier());
    return syntax::WalkResult::Advance;
  });
  std::string captured;
  llvm::SmallVector<llvm::StringRef, 8> seen;
  for (Env *e = fn->closure; e && e->parent; e = e->parent)
    for (llvm::StringRef name : names) {
      auto it = e->vars.find(name);
      if (it == e->vars.end() || llvm::is_contained(seen, name))
        continue;
      seen.push_back(name);
      captured += (captured.empty() ? "" : ", ") + name.str() + "=" +
                  in.toString(it->second, true);
    }
  if (!captured.empty())
    text += " [" + captured + "]";
  return "<" + text + ">";
}

/// The label of a call's instance is also its identity: two calls with
/// the same label share one instance (the second is not traced), so the
/// label must tell apart every pair of calls whose traces differ.
std::string Interpreter::makeLabel(llvm::StringRef fnName, CallArgs &args) {
  std::string s = fnName.str() + "(";
  bool first = true;
  auto item = [&](Value v) {
    std::string t;
    if (v.is(ValueKind::Opaque)) {
      // A tensor the call site created with literal sizes (an eager
      // kernel's argument): its shape is what the trace reads. Other
      // opaque objects read nothing, so they trace alike.
      auto *o = v.as<OpaqueObj>();
      if (!o->hasShape)
        return std::string("...");
      t = "tensor[";
      for (auto [i, d] : llvm::enumerate(o->shape))
        t += (i ? ", " : "") + toString(d, true);
      t += "]";
    } else if (v.is(ValueKind::Function)) {
      t = functionLabel(*this, v.as<FunctionObj>());
    } else {
      t = toString(v, true);
    }
    // A long value is shortened for display, with a hash of the whole text
    // so that values that differ past the cut keep distinct labels.
    if (t.size() > 40)
      t = t.substr(0, 28) + "...#" +
          llvm::utohexstr(llvm::xxh3_64bits(t) & 0xffffffff, true, 8);
    return t;
  };
  for (Value v : args.pos) {
    if (!first)
      s += ", ";
    s += item(v);
    first = false;
  }
  for (auto &kv : args.kw) {
    if (!first)
      s += ", ";
    s += kv.first.str() + "=" + item(kv.second);
    first = false;
  }
  return s + ")";
}

std::string Interpreter::closureLabel(FunctionObj *fn,
                                      const std::string &label) {
  // The names the definition reads (its nested prim_func's included), in
  // order of first use.
  llvm::SmallVector<llvm::StringRef, 8> names;
  syntax::walk(fn->def, [&](Node n) {
    if (n.kind() == NodeKind::Name && n.context() == syntax::ExprContext::Load &&
        !llvm::is_contained(names, n.identifier()))
      names.push_back(n.identifier());
    return syntax::WalkResult::Advance;
  });
  // Their values in the function scopes around the definition (the
  // module's are the same for every definition).
  std::string sig;
  llvm::SmallVector<llvm::StringRef, 8> seen;
  for (Env *e = fn->closure; e && e->parent; e = e->parent)
    for (llvm::StringRef name : names) {
      auto it = e->vars.find(name);
      if (it == e->vars.end() || llvm::is_contained(seen, name))
        continue;
      seen.push_back(name);
      std::string t = toString(it->second, true);
      if (t.size() > 40)
        t = t.substr(0, 28) + "...#" +
            llvm::utohexstr(llvm::xxh3_64bits(t) & 0xffffffff, true, 8);
      sig += (sig.empty() ? "" : ", ") + name.str() + "=" + t;
    }
  if (sig.empty())
    return label;
  auto &sigs = closureSignatures[(fn->name + "\x1f" + label).str()];
  auto it = llvm::find(sigs, sig);
  size_t index = it - sigs.begin();
  if (it == sigs.end())
    sigs.push_back(sig);
  // The first definition keeps the plain label.
  return index == 0 ? label : label + " [" + sig + "]";
}
