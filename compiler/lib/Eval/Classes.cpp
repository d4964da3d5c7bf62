//===- Classes.cpp - User classes, inheritance, super() and type() --------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Classes as CPython builds them: `class B(A1, A2):` keeps its bases and the
// C3 linearization of them (its method resolution order), attribute lookups
// on a class or an instance search that order, zero-argument `super()`
// starts after the class whose body defined the running method, and
// `isinstance` follows the order. `@staticmethod`, `@classmethod` and
// `@property` bind as the descriptors do. `@dataclass` classes get the
// `__init__` of their fields (inherited fields first, `field(default=...,
// default_factory=...)`, `__post_init__`). A base tlc does not model (a
// torch.nn.Module, an exception class) leaves the class open: attributes
// found nowhere are opaque rather than missing.
//
// `type(x)` is a class value: the builtin (`int`, `list` ...) for builtin
// values, the user class for instances, and otherwise a class named as
// CPython names the type (`NoneType`, `function`, `dict_keys`).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace tlc;
using namespace tlc::eval;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

/// C3 merge of \p seqs into \p out; false when no consistent order exists.
static bool c3Merge(llvm::SmallVector<llvm::SmallVector<NamespaceObj *, 4>, 4>
                        seqs,
                    llvm::SmallVectorImpl<NamespaceObj *> &out) {
  while (true) {
    llvm::erase_if(seqs, [](auto &s) { return s.empty(); });
    if (seqs.empty())
      return true;
    NamespaceObj *pick = nullptr;
    for (auto &s : seqs) {
      NamespaceObj *head = s.front();
      bool inTail = llvm::any_of(seqs, [&](auto &t) {
        return llvm::is_contained(llvm::ArrayRef(t).drop_front(), head);
      });
      if (!inTail) {
        pick = head;
        break;
      }
    }
    if (!pick)
      return false;
    out.push_back(pick);
    for (auto &s : seqs)
      if (s.front() == pick)
        s.erase(s.begin());
  }
}

/// Collects the names of a class body's annotated fields, in order
/// (`x: int` and `x: int = 1`; `ClassVar` annotations are not fields).
static void collectFields(Node classDef,
                          llvm::SmallVectorImpl<llvm::StringRef> &out) {
  for (Node s : classDef.children(Field::body)) {
    if (s.kind() != NodeKind::AnnAssign)
      continue;
    Node target = s.child(Field::target);
    if (target.kind() != NodeKind::Name)
      continue;
    if (s.child(Field::annotation).text().contains("ClassVar"))
      continue;
    if (!llvm::is_contained(out, target.identifier()))
      out.push_back(target.identifier());
  }
}

Flow Interpreter::execClassDef(Node stmt) {
  auto *cls = heap.make<NamespaceObj>();
  cls->name = stmt.identifier();
  for (Node b : stmt.children(Field::bases)) {
    Value bv = eval(b);
    if (bv.isException())
      return Flow::Raise;
    if (bv.isObj(ObjKind::Class)) {
      auto *base = bv.as<NamespaceObj>();
      if (llvm::is_contained(cls->bases, base)) {
        raise("TypeError", "duplicate base class " + base->name, b);
        return Flow::Raise;
      }
      cls->bases.push_back(base);
      cls->externalBase |= base->externalBase;
      continue;
    }
    // `object` adds nothing; any other base is a class tlc does not model.
    if (bv.is(ValueKind::NativeFn) &&
        NativeId(bv.getNativeId()) == NativeId::Object)
      continue;
    cls->externalBase = true;
  }
  llvm::SmallVector<llvm::SmallVector<NamespaceObj *, 4>, 4> seqs;
  for (NamespaceObj *base : cls->bases)
    seqs.emplace_back(base->mro.begin(), base->mro.end());
  seqs.emplace_back(cls->bases.begin(), cls->bases.end());
  cls->mro.push_back(cls);
  if (!c3Merge(std::move(seqs), cls->mro)) {
    std::string names;
    for (NamespaceObj *base : cls->bases)
      names += (names.empty() ? "" : ", ") + base->name.str();
    raise("TypeError",
          "Cannot create a consistent method resolution order (MRO) for "
          "bases " + names,
          stmt);
    return Flow::Raise;
  }

  Env *classEnv = heap.make<Env>();
  classEnv->parent = env;
  Env *saved = env;
  env = classEnv;
  Flow f = execBody(stmt, Field::body);
  env = saved;
  if (f == Flow::Raise)
    return f;
  // The body's names in definition order (the Env map is unordered).
  llvm::SmallVector<llvm::StringRef, 8> order;
  for (Node s : stmt.children(Field::body)) {
    llvm::StringRef n;
    if (s.kind() == NodeKind::FunctionDef || s.kind() == NodeKind::ClassDef)
      n = s.identifier();
    else if (s.kind() == NodeKind::AnnAssign &&
             s.child(Field::target).kind() == NodeKind::Name)
      n = s.child(Field::target).identifier();
    else if (s.kind() == NodeKind::Assign)
      for (Node t : s.children(Field::targets))
        if (t.kind() == NodeKind::Name && !llvm::is_contained(order, t.identifier()))
          order.push_back(t.identifier());
    if (!n.empty() && !llvm::is_contained(order, n))
      order.push_back(n);
  }
  for (auto &kv : classEnv->vars)
    if (!llvm::is_contained(order, kv.first))
      order.push_back(kv.first);
  for (llvm::StringRef n : order) {
    auto it = classEnv->vars.find(n);
    if (it == classEnv->vars.end())
      continue;
    cls->attrs.push_back({it->first, it->second});
    if (it->second.is(ValueKind::Function))
      it->second.as<FunctionObj>()->ownerClass = cls;
  }
  collectFields(stmt, cls->fields);
  Value clsValue = heap.obj(ObjKind::Class, cls);

  // Class decorators apply bottom-up (`@dataclass`, `@dataclass(...)`).
  llvm::SmallVector<Node, 2> decos;
  llvm::SmallVector<Value, 2> decoValues;
  if (!evalDecorators(stmt, decos, decoValues))
    return Flow::Raise;
  for (unsigned i = decos.size(); i-- > 0;) {
    Value dv = decoValues[i];
    if (!dv.is(ValueKind::Function) && !dv.is(ValueKind::NativeFn) &&
        !dv.isObj(ObjKind::Partial))
      continue; // Unknown decorators are transparent.
    CallArgs args;
    args.pos.push_back(clsValue);
    args.posNodes.push_back(decos[i]);
    Value r = call(dv, args, decos[i]);
    if (r.isException())
      return Flow::Raise;
    if (!r.is(ValueKind::Opaque) && !r.isPoison())
      clsValue = r;
  }
  bind(stmt.identifier(), clsValue);
  return Flow::Normal;
}

Value Interpreter::applyDataclass(CallArgs &args) {
  Value c = args.positional(0);
  if (!c.isObj(ObjKind::Class)) {
    // `@dataclass(frozen=True)`: the decorator with those options.
    auto *p = heap.make<PartialObj>();
    p->fn = Value::native(uint32_t(NativeId::Dataclass));
    return heap.obj(ObjKind::Partial, p);
  }
  auto *cls = c.as<NamespaceObj>();
  // Fields of dataclass bases come first, in reverse MRO order.
  llvm::SmallVector<llvm::StringRef, 8> fields;
  for (NamespaceObj *k : llvm::reverse(cls->mro))
    if (k == cls || k->isDataclass)
      for (llvm::StringRef f : k->fields)
        if (!llvm::is_contained(fields, f))
          fields.push_back(f);
  cls->fields.assign(fields.begin(), fields.end());
  cls->isDataclass = true;
  // `x: list = field(default_factory=list)` is no class attribute;
  // `field(default=v)` leaves `v` as the class attribute.
  llvm::erase_if(cls->attrs, [&](auto &kv) {
    if (!kv.second.isObj(ObjKind::Namespace) ||
        kv.second.template as<NamespaceObj>()->name != "dataclasses.Field")
      return false;
    auto *field = kv.second.template as<NamespaceObj>();
    if (Value *d = field->find("default")) {
      kv.second = *d;
      return false;
    }
    if (Value *d = field->find("default_factory"))
      cls->factories.push_back({kv.first, *d});
    return true;
  });
  return c;
}

Value Interpreter::makeField(CallArgs &args) {
  auto *f = heap.make<NamespaceObj>();
  f->name = "dataclasses.Field";
  if (const Value *d = args.keyword("default"))
    f->set("default", *d);
  if (const Value *d = args.keyword("default_factory"))
    f->set("default_factory", *d);
  return heap.obj(ObjKind::Namespace, f);
}

Value *Interpreter::classLookup(NamespaceObj *cls, llvm::StringRef attr,
                                NamespaceObj *after,
                                NamespaceObj **owner) {
  bool searching = after == nullptr;
  for (NamespaceObj *k : cls->mro.empty() ? llvm::ArrayRef(&cls, 1)
                                          : llvm::ArrayRef(cls->mro)) {
    if (!searching) {
      searching = k == after;
      continue;
    }
    if (Value *v = k->find(attr)) {
      if (owner)
        *owner = k;
      return v;
    }
  }
  return nullptr;
}

Value Interpreter::bindAttr(Value v, Value self, NamespaceObj *cls,
                            Node at) {
  if (!v.is(ValueKind::Function))
    return v;
  FunctionObj *fn = v.as<FunctionObj>();
  auto partial = [&](Value first) {
    auto *p = heap.make<PartialObj>();
    p->fn = v;
    p->args.push_back(first);
    return heap.obj(ObjKind::Partial, p);
  };
  switch (fn->methodKind) {
  case FunctionObj::StaticMethod:
    return v;
  case FunctionObj::ClassMethod:
    return partial(heap.obj(ObjKind::Class, cls));
  case FunctionObj::Property: {
    if (!self.isObj(ObjKind::Instance))
      return v;
    CallArgs args;
    args.pos.push_back(self);
    args.posNodes.push_back(at);
    return callFunction(fn, args, at);
  }
  case FunctionObj::PlainFunction:
    break;
  }
  return self.isObj(ObjKind::Instance) ? partial(self) : v;
}

Value Interpreter::classAttr(Value obj, llvm::StringRef attr, Node at) {
  auto *cls = obj.as<NamespaceObj>();
  if (attr == "__name__" || attr == "__qualname__")
    return heap.str(cls->name);
  if (attr == "__mro__") {
    llvm::SmallVector<Value, 4> ks;
    for (NamespaceObj *k : cls->mro)
      ks.push_back(heap.obj(ObjKind::Class, k));
    ks.push_back(Value::native(uint32_t(NativeId::Object)));
    return heap.tuple(ks);
  }
  if (attr == "__bases__") {
    llvm::SmallVector<Value, 2> ks;
    for (NamespaceObj *k : cls->bases)
      ks.push_back(heap.obj(ObjKind::Class, k));
    if (ks.empty() && !cls->externalBase)
      ks.push_back(Value::native(uint32_t(NativeId::Object)));
    return heap.tuple(ks);
  }
  if (Value *v = classLookup(cls, attr))
    return bindAttr(*v, obj, cls, at);
  // torch.autograd.Function subclasses: `Cls.apply(*args)` runs
  // `Cls.forward(ctx, *args)`, then `Cls.backward` (callMethod).
  if (attr == "apply" && classLookup(cls, "forward"))
    return findMethod(obj, "apply");
  if (cls->externalBase || (attr.starts_with("__") && attr.ends_with("__")))
    return heap.opaque("attribute");
  return raise("AttributeError",
               "type object '" + cls->name + "' has no attribute '" + attr +
                   "'",
               at);
}

Value Interpreter::instanceAttr(Value obj, llvm::StringRef attr, Node at) {
  auto *inst = obj.as<NamespaceObj>();
  if (attr == "__class__" && inst->cls)
    return heap.obj(ObjKind::Class, inst->cls);
  if (Value *v = inst->find(attr))
    return *v;
  if (inst->cls)
    if (Value *v = classLookup(inst->cls, attr))
      return bindAttr(*v, obj, inst->cls, at);
  return heap.opaque("attribute");
}

Value Interpreter::instantiate(NamespaceObj *cls, CallArgs &args, Node at) {
  auto *inst = heap.make<NamespaceObj>();
  inst->name = cls->name;
  inst->cls = cls;
  Value self = heap.obj(ObjKind::Instance, inst);
  NamespaceObj *owner = nullptr;
  Value *init = classLookup(cls, "__init__", nullptr, &owner);
  // The generated __init__ of the nearest dataclass, unless a class before
  // it in the MRO defines one.
  NamespaceObj *dataclass = nullptr;
  for (NamespaceObj *k : cls->mro) {
    if (k == owner)
      break;
    if (k->isDataclass) {
      dataclass = k;
      break;
    }
  }
  if (dataclass) {
    if (args.pos.size() > dataclass->fields.size())
      return raise("TypeError",
                   "__init__() takes " +
                       llvm::Twine(dataclass->fields.size() + 1) +
                       " positional arguments but " +
                       llvm::Twine(args.pos.size() + 1) + " were given",
                   at);
    for (auto &kv : args.kw)
      if (!llvm::is_contained(dataclass->fields, kv.first))
        return raise("TypeError",
                     "__init__() got an unexpected keyword argument '" +
                         kv.first + "'",
                     at);
    for (size_t i = 0; i < dataclass->fields.size(); ++i) {
      llvm::StringRef f = dataclass->fields[i];
      const Value *kw = args.keyword(f);
      if (i < args.pos.size() && kw)
        return raise("TypeError",
                     "__init__() got multiple values for argument '" + f +
                         "'",
                     at);
      Value v;
      if (i < args.pos.size()) {
        v = args.pos[i];
      } else if (kw) {
        v = *kw;
      } else if (Value *d = classLookup(cls, f)) {
        v = *d;
      } else {
        // A `field(default_factory=...)`.
        Value *factory = dataclassFactory(cls, f);
        if (!factory)
          return raise("TypeError",
                       "__init__() missing 1 required positional argument: '" +
                           f + "'",
                       at);
        CallArgs none;
        v = call(*factory, none, at);
        if (v.isException())
          return v;
      }
      inst->set(f, v);
    }
    if (Value *post = classLookup(cls, "__post_init__");
        post && post->is(ValueKind::Function)) {
      CallArgs a2;
      a2.pos.push_back(self);
      a2.posNodes.push_back(at);
      Value r = callFunction(post->as<FunctionObj>(), a2, at);
      if (r.isException())
        return r;
    }
    return self;
  }
  if (init && init->is(ValueKind::Function)) {
    CallArgs a2 = args;
    a2.pos.insert(a2.pos.begin(), self);
    a2.posNodes.insert(a2.posNodes.begin(), at);
    Value r = callFunction(init->as<FunctionObj>(), a2, at);
    if (r.isException())
      return r;
  }
  return self;
}

Value *Interpreter::dataclassFactory(NamespaceObj *cls, llvm::StringRef f) {
  for (NamespaceObj *k : cls->mro)
    for (auto &kv : k->factories)
      if (kv.first == f)
        return &kv.second;
  return nullptr;
}

Value Interpreter::makeSuper(CallArgs &args, Node at) {
  auto *s = heap.make<SuperObj>();
  if (args.pos.size() == 2) {
    // super(cls, obj)
    if (!args.pos[0].isObj(ObjKind::Class))
      return heap.opaque("super");
    s->after = args.pos[0].as<NamespaceObj>();
    s->self = args.pos[1];
    return heap.obj(ObjKind::Super, s);
  }
  if (!args.pos.empty() || callStack.empty())
    return heap.opaque("super");
  FunctionObj *fn = callStack.back().first;
  CallArgs *callArgs = callStack.back().second;
  if (!fn->ownerClass || callArgs->pos.empty()) {
    if (!fn->ownerClass)
      return raise("RuntimeError", "super(): __class__ cell not found", at);
    return raise("RuntimeError", "super(): no arguments", at);
  }
  s->after = fn->ownerClass;
  s->self = callArgs->pos[0];
  return heap.obj(ObjKind::Super, s);
}

Value Interpreter::superAttr(SuperObj *s, llvm::StringRef attr, Node at) {
  NamespaceObj *cls = s->self.isObj(ObjKind::Instance)
                          ? s->self.as<NamespaceObj>()->cls
                      : s->self.isObj(ObjKind::Class)
                          ? s->self.as<NamespaceObj>()
                          : nullptr;
  if (!cls || !llvm::is_contained(cls->mro, s->after))
    return heap.opaque("super attribute");
  if (Value *v = classLookup(cls, attr, s->after))
    return bindAttr(*v, s->self, cls, at);
  // object's own methods (`super().__init__()` at the top of a hierarchy),
  // and whatever a base tlc does not model has.
  if (cls->externalBase || (attr.starts_with("__") && attr.ends_with("__")))
    return heap.opaque("super attribute");
  return raise("AttributeError", "'super' object has no attribute '" + attr +
                                     "'",
               at);
}

Value Interpreter::typeOf(Value v) {
  auto builtin = [](NativeId id) { return Value::native(uint32_t(id)); };
  switch (v.getKind()) {
  case ValueKind::Poison:
  case ValueKind::Exception:
    return v;
  case ValueKind::Bool:
    return builtin(NativeId::Bool);
  case ValueKind::Int:
  case ValueKind::BigInt:
    return builtin(NativeId::Int);
  case ValueKind::Float:
    return builtin(NativeId::Float);
  case ValueKind::Str:
    return builtin(NativeId::Str);
  case ValueKind::Tuple:
    return builtin(NativeId::Tuple);
  case ValueKind::List:
    return builtin(NativeId::List);
  case ValueKind::Dict:
    return builtin(NativeId::Dict);
  case ValueKind::Set:
    return builtin(v.as<SetObj>()->frozen ? NativeId::FrozenSet
                                          : NativeId::Set);
  case ValueKind::Range:
    return builtin(NativeId::Range);
  case ValueKind::Slice:
    return builtin(NativeId::Slice);
  case ValueKind::NativeFn:
    switch (NativeId(v.getNativeId())) {
    case NativeId::Int:
    case NativeId::Float:
    case NativeId::Bool:
    case NativeId::Str:
    case NativeId::List:
    case NativeId::Tuple:
    case NativeId::Dict:
    case NativeId::Set:
    case NativeId::FrozenSet:
    case NativeId::Range:
    case NativeId::Slice:
    case NativeId::Type:
    case NativeId::Object:
    case NativeId::Super:
      return builtin(NativeId::Type);
    default:
      break;
    }
    break;
  case ValueKind::Opaque:
  case ValueKind::Sym:
  case ValueKind::Expr:
    return heap.opaque("type");
  case ValueKind::Object:
    switch (v.getObjKind()) {
    case ObjKind::Instance:
      if (NamespaceObj *cls = v.as<NamespaceObj>()->cls)
        return heap.obj(ObjKind::Class, cls);
      break;
    case ObjKind::Class:
      return builtin(NativeId::Type);
    case ObjKind::Exception: {
      auto *cls = heap.make<NamespaceObj>();
      cls->name = v.as<NamespaceObj>()->name;
      return heap.obj(ObjKind::Exception, cls);
    }
    default:
      break;
    }
    break;
  default:
    break;
  }
  // One class object per type name, so that `type(a) is type(b)` holds.
  NamespaceObj *&cls = typeClasses[v.getTypeName()];
  if (!cls) {
    cls = heap.make<NamespaceObj>();
    cls->name = heap.copyString(v.getTypeName());
    cls->mro.push_back(cls);
  }
  return heap.obj(ObjKind::Class, cls);
}

std::optional<bool> Interpreter::isInstanceOf(Value v, NamespaceObj *cls) {
  if (v.isObj(ObjKind::Instance)) {
    NamespaceObj *k = v.as<NamespaceObj>()->cls;
    return k && llvm::is_contained(k->mro, cls);
  }
  if (v.is(ValueKind::Opaque) || v.is(ValueKind::Sym))
    return std::nullopt;
  // A value of a type with a synthesised class (`type(None)`).
  auto it = typeClasses.find(v.getTypeName());
  return it != typeClasses.end() && it->second == cls;
}
