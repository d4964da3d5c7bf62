//===- NativeMethods.cpp - Methods of str, list, dict and argparse --------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The methods the interpreter runs natively (NativeFns.def, METHOD
// entries): str, list and dict methods and the argparse calls of example
// harnesses; the builtin functions are in NativeFns.cpp.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include <algorithm>
#include <deque>

using namespace tlc;
using namespace tlc::eval;

//===----------------------------------------------------------------------===//
// Methods
//===----------------------------------------------------------------------===//

/// The argparse destination of an add_argument call.
static llvm::StringRef argDest(Interpreter &in, CallArgs &args) {
  if (const Value *d = args.keyword("dest"))
    if (d->isStr())
      return getStr(*d);
  llvm::StringRef best;
  for (Value v : args.pos) {
    if (!v.isStr())
      continue;
    llvm::StringRef s = getStr(v);
    if (s.starts_with("--")) {
      best = s.drop_front(2);
      break;
    }
    if (best.empty())
      best = s.ltrim('-');
  }
  std::string dest = best.str();
  std::replace(dest.begin(), dest.end(), '-', '_');
  return in.heap.copyString(dest);
}

Value Interpreter::callMethod(BoundMethodObj *m, CallArgs &args, Node at) {
  Value self = m->self;
  NativeId id = NativeId(m->method);
  Value a0 = args.positional(0);
  auto noMethod = [&]() {
    return raise("AttributeError",
                 "'" + self.getTypeName() + "' object has no attribute '" +
                     m->name + "'",
                 at);
  };
  if (self.is(ValueKind::Set))
    return callSetMethod(id, self, args, m->name, at);
  switch (id) {
  case NativeId::SetRemove: {
    if (!self.is(ValueKind::List))
      return noMethod();
    auto &elems = self.as<SeqObj>()->elems;
    for (size_t i = 0; i < elems.size(); ++i) {
      std::optional<bool> e = equals(elems[i], a0);
      if (!e)
        return heap.opaque("list.remove");
      if (*e) {
        elems.erase(elems.begin() + i);
        return Value::none();
      }
    }
    return raiseDefinite("ValueError", "list.remove(x): x not in list", at);
  }
  case NativeId::SetClear:
    if (self.is(ValueKind::List))
      self.as<SeqObj>()->elems.clear();
    else if (self.is(ValueKind::Dict))
      self.as<DictObj>()->items.clear();
    else
      return noMethod();
    return Value::none();
  case NativeId::ListAppend:
    if (!self.is(ValueKind::List))
      return noMethod();
    self.as<SeqObj>()->elems.push_back(a0);
    return Value::none();
  case NativeId::ListExtend: {
    if (!self.is(ValueKind::List))
      return noMethod();
    llvm::SmallVector<Value, 16> vals;
    if (!iterate(a0, vals, at))
      return Value::exception();
    self.as<SeqObj>()->elems.append(vals.begin(), vals.end());
    return Value::none();
  }
  case NativeId::ListPop: {
    if (self.is(ValueKind::Dict)) {
      auto &items = self.as<DictObj>()->items;
      for (size_t i = 0; i < items.size(); ++i)
        if (equals(items[i].first, a0).value_or(false)) {
          Value v = items[i].second;
          items.erase(items.begin() + i);
          return v;
        }
      if (args.pos.size() > 1)
        return args.pos[1];
      return raise("KeyError", toString(a0, true), at);
    }
    if (!self.is(ValueKind::List))
      return noMethod();
    auto &elems = self.as<SeqObj>()->elems;
    if (elems.empty())
      return raise("IndexError", "pop from empty list", at);
    int64_t i = args.pos.empty() ? int64_t(elems.size()) - 1 : a0.getInt();
    if (i < 0)
      i += elems.size();
    if (i < 0 || i >= int64_t(elems.size()))
      return raise("IndexError", "pop index out of range", at);
    Value v = elems[i];
    elems.erase(elems.begin() + i);
    return v;
  }
  case NativeId::ListInsert: {
    if (!self.is(ValueKind::List))
      return noMethod();
    auto &elems = self.as<SeqObj>()->elems;
    int64_t i = std::clamp<int64_t>(a0.getInt(), 0, elems.size());
    elems.insert(elems.begin() + i, args.positional(1, Value::none()));
    return Value::none();
  }
  case NativeId::SeqIndex:
  case NativeId::SeqCount: {
    if (!self.isSequence()) {
      if (self.isStr() && a0.isStr()) {
        size_t pos = getStr(self).find(getStr(a0));
        if (id == NativeId::SeqCount)
          return Value::integer(getStr(self).count(getStr(a0)));
        if (pos == llvm::StringRef::npos)
          return raise("ValueError", "substring not found", at);
        return Value::integer(pos);
      }
      return noMethod();
    }
    int64_t count = 0;
    auto elems = getElems(self);
    for (size_t i = 0; i < elems.size(); ++i)
      if (equals(elems[i], a0).value_or(false)) {
        if (id == NativeId::SeqIndex)
          return Value::integer(i);
        ++count;
      }
    if (id == NativeId::SeqIndex)
      return raise("ValueError", "value is not in list", at);
    return Value::integer(count);
  }
  case NativeId::DictGet:
  case NativeId::DictSetDefault: {
    if (!self.is(ValueKind::Dict))
      return self.is(ValueKind::Opaque) ? heap.opaque("get") : noMethod();
    noteEnvironRead(self, a0);
    bool unknown = false;
    for (auto &kv : self.as<DictObj>()->items) {
      std::optional<bool> e = equals(kv.first, a0);
      if (e && *e)
        return kv.second;
      unknown |= !e;
    }
    if (unknown)
      return heap.opaque("get");
    Value d = args.positional(1, Value::none());
    if (id == NativeId::DictSetDefault)
      self.as<DictObj>()->items.push_back({a0, d});
    return d;
  }
  case NativeId::DictItems:
  case NativeId::DictKeys:
  case NativeId::DictValues: {
    if (!self.is(ValueKind::Dict))
      return noMethod();
    // A live view: it sees later insertions and deletions (dictview.c).
    auto *view = heap.make<DictViewObj>();
    view->dict = self.as<DictObj>();
    view->which = id == NativeId::DictItems  ? DictViewObj::Items
                  : id == NativeId::DictKeys ? DictViewObj::Keys
                                             : DictViewObj::Values;
    return heap.obj(ObjKind::DictView, view);
  }
  case NativeId::DictUpdate: {
    if (!self.is(ValueKind::Dict))
      return noMethod();
    auto &items = self.as<DictObj>()->items;
    auto put = [&](Value k, Value v) {
      for (auto &kv : items)
        if (equals(kv.first, k).value_or(false)) {
          kv.second = v;
          return;
        }
      items.push_back({k, v});
    };
    if (a0.is(ValueKind::Dict)) {
      for (auto &kv : a0.as<DictObj>()->items)
        put(kv.first, kv.second);
    } else if (!a0.isPoison() && !a0.is(ValueKind::Opaque)) {
      // An iterable of key/value pairs (`d.update(other.items())`).
      llvm::SmallVector<Value, 16> pairs;
      if (!iterate(a0, pairs, at))
        return Value::exception();
      for (Value p : pairs) {
        llvm::SmallVector<Value, 2> kv;
        if (!iterate(p, kv, at))
          return Value::exception();
        if (kv.size() != 2)
          return raise("ValueError",
                       "dictionary update sequence element has length " +
                           llvm::Twine(kv.size()) + "; 2 is required",
                       at);
        put(kv[0], kv[1]);
      }
    }
    for (auto &kv : args.kw)
      put(heap.str(kv.first), kv.second);
    return Value::none();
  }
  case NativeId::DictCopy:
    if (self.is(ValueKind::Dict)) {
      Value d = heap.dict();
      d.as<DictObj>()->items = self.as<DictObj>()->items;
      return d;
    }
    if (self.is(ValueKind::List))
      return heap.list(getElems(self));
    return noMethod();
  case NativeId::StrFormat: {
    if (!self.isStr())
      return noMethod();
    llvm::StringRef fmt = getStr(self);
    std::string outStr;
    llvm::raw_string_ostream os(outStr);
    unsigned auto_ = 0;
    for (size_t i = 0; i < fmt.size(); ++i) {
      char c = fmt[i];
      if (c == '{' && i + 1 < fmt.size() && fmt[i + 1] == '{') {
        os << '{';
        ++i;
        continue;
      }
      if (c == '}' && i + 1 < fmt.size() && fmt[i + 1] == '}') {
        os << '}';
        ++i;
        continue;
      }
      if (c != '{') {
        os << c;
        continue;
      }
      size_t close = fmt.find('}', i);
      if (close == llvm::StringRef::npos)
        break;
      llvm::StringRef field = fmt.slice(i + 1, close).split(':').first;
      field = field.split('!').first;
      Value v = Value::none();
      unsigned idx;
      if (field.empty())
        v = args.positional(auto_++, Value::none());
      else if (!field.getAsInteger(10, idx))
        v = args.positional(idx, Value::none());
      else if (const Value *kv = args.keyword(field))
        v = *kv;
      format(v, os, false);
      i = close;
    }
    return heap.str(outStr);
  }
  case NativeId::StrJoin: {
    if (!self.isStr())
      return noMethod();
    llvm::SmallVector<Value, 16> vals;
    if (!iterate(a0, vals, at))
      return Value::exception();
    std::string s;
    for (size_t i = 0; i < vals.size(); ++i) {
      if (i)
        s += getStr(self);
      s += toString(vals[i]);
    }
    return heap.str(s);
  }
  case NativeId::StrSplit:
  case NativeId::StrRSplit: {
    // str.split / str.rsplit(sep=None, maxsplit=-1): at most maxsplit cuts,
    // from the left or the right; no sep cuts at runs of spaces.
    if (!self.isStr())
      return noMethod();
    Value sep = a0;
    if (const Value *k = args.keyword("sep"))
      sep = *k;
    Value maxv = args.positional(1, Value::integer(-1));
    if (const Value *k = args.keyword("maxsplit"))
      maxv = *k;
    if ((!sep.isStr() && !sep.isNone() && !sep.isPoison()) ||
        !maxv.isIntLike())
      return heap.opaque("list");
    int64_t max = maxv.getInt();
    bool byString = sep.isStr();
    llvm::StringRef ws = " \t\n\r\f\v";
    llvm::StringRef rest = getStr(self);
    llvm::StringRef cut = byString ? getStr(sep) : llvm::StringRef();
    if (byString && cut.empty())
      return raise("ValueError", "empty separator", at);
    bool right = id == NativeId::StrRSplit;
    std::deque<llvm::StringRef> parts;
    // Without sep, whitespace on the side the cuts start from is dropped;
    // the rest after the last cut keeps its own.
    if (!byString)
      rest = right ? rest.rtrim(ws) : rest.ltrim(ws);
    while (!rest.empty() && max != 0) {
      size_t hit = byString ? (right ? rest.rfind(cut) : rest.find(cut))
                            : (right ? rest.find_last_of(ws)
                                     : rest.find_first_of(ws));
      if (hit == llvm::StringRef::npos)
        break;
      llvm::StringRef before = rest.take_front(hit);
      llvm::StringRef after =
          rest.drop_front(hit + (byString ? cut.size() : 1));
      if (!byString) {
        before = before.rtrim(ws);
        after = after.ltrim(ws);
      }
      if (right) {
        parts.push_front(after);
        rest = before;
      } else {
        parts.push_back(before);
        rest = after;
      }
      --max;
    }
    if (byString || !rest.empty()) {
      if (right)
        parts.push_front(rest);
      else
        parts.push_back(rest);
    }
    llvm::SmallVector<Value, 8> out;
    for (llvm::StringRef p : parts)
      out.push_back(heap.str(p));
    return heap.list(out);
  }
  case NativeId::StrUpper:
  case NativeId::StrLower: {
    if (!self.isStr())
      return noMethod();
    return heap.str(id == NativeId::StrUpper ? getStr(self).upper()
                                             : getStr(self).lower());
  }
  case NativeId::StrStartsWith:
  case NativeId::StrEndsWith:
    if (!self.isStr() || !a0.isStr())
      return self.isStr() ? heap.opaque("str") : noMethod();
    return Value::boolean(id == NativeId::StrStartsWith
                              ? getStr(self).starts_with(getStr(a0))
                              : getStr(self).ends_with(getStr(a0)));
  case NativeId::StrReplace: {
    if (!self.isStr() || !a0.isStr() || !args.positional(1).isStr())
      return self.isStr() ? heap.opaque("str") : noMethod();
    std::string s = getStr(self).str(), from = getStr(a0).str(),
                to = getStr(args.pos[1]).str();
    if (from.empty())
      return self;
    std::string result;
    size_t pos = 0, hit;
    while ((hit = s.find(from, pos)) != std::string::npos) {
      result += s.substr(pos, hit - pos) + to;
      pos = hit + from.size();
    }
    result += s.substr(pos);
    return heap.str(result);
  }
  case NativeId::StrStrip:
  case NativeId::StrLStrip:
  case NativeId::StrRStrip: {
    // str.strip([chars]): whitespace, or any of the characters given.
    Value chars = args.positional(0, Value::none());
    if (!self.isStr() || args.pos.size() > 1 ||
        (!chars.isNone() && !chars.isStr()))
      return noMethod();
    llvm::StringRef set = chars.isStr() ? getStr(chars) : " \t\n\v\f\r";
    llvm::StringRef s = getStr(self);
    if (id != NativeId::StrRStrip)
      s = s.ltrim(set);
    if (id != NativeId::StrLStrip)
      s = s.rtrim(set);
    return heap.str(s);
  }
  case NativeId::StrRemovePrefix:
  case NativeId::StrRemoveSuffix: {
    if (!self.isStr() || args.pos.size() != 1 || !args.pos[0].isStr())
      return noMethod();
    llvm::StringRef s = getStr(self), affix = getStr(args.pos[0]);
    if (id == NativeId::StrRemovePrefix)
      s.consume_front(affix);
    else
      s.consume_back(affix);
    return heap.str(s);
  }
  case NativeId::StrIsDigit: {
    if (!self.isStr())
      return noMethod();
    llvm::StringRef s = getStr(self);
    return Value::boolean(!s.empty() && llvm::all_of(s, [](char c) { return c >= '0' && c <= '9'; }));
  }
  case NativeId::AddArgument: {
    if (!self.isObj(ObjKind::ArgParser))
      return heap.opaque("add_argument");
    Value dflt = Value::none();
    if (const Value *d = args.keyword("default"))
      dflt = *d;
    else if (const Value *act = args.keyword("action")) {
      if (act->isStr() && getStr(*act) == "store_true")
        dflt = Value::boolean(false);
      else if (act->isStr() && getStr(*act) == "store_false")
        dflt = Value::boolean(true);
    }
    llvm::StringRef dest = argDest(*this, args);
    // A -D binding with the argument's name overrides its default.
    std::optional<Value> define = defineFor(dest);
    if (define) {
      dflt = *define;
    } else if (const Value *req = args.keyword("required");
               req && req->isBool() && req->getBool() &&
               !args.keyword("default")) {
      // `required=True`: the script needs the option on its command line,
      // and tlc runs it with none. It is analysed with its first choice
      // (what a user runs most often), or as an unknown value without
      // choices; a remark says which, a -D binding picks another.
      const Value *choices = args.keyword("choices");
      if (choices && choices->isSequence() && !getElems(*choices).empty()) {
        dflt = getElems(*choices)[0];
        report(Severity::Remark, at.range(),
               "the required option '" + dest +
                   "' has no value when tlc runs the script: analysed with "
                   "its first choice, " +
                   toString(dflt, true) + " (-D" + dest +
                   "=VALUE picks another)");
      } else {
        dflt = heap.opaque("command-line argument");
        report(Severity::Remark, at.range(),
               "the required option '" + dest +
                   "' has no value when tlc runs the script: analysed as "
                   "an unknown value (-D" +
                   dest + "=VALUE gives one)");
      }
    }
    auto *p = self.as<ArgParserObj>();
    for (auto &kv : p->defaults)
      if (kv.first == dest) {
        kv.second = dflt;
        return Value::none();
      }
    p->defaults.push_back({dest, dflt});
    return Value::none();
  }
  case NativeId::SetDefaults:
    if (self.isObj(ObjKind::ArgParser))
      for (auto &kv : args.kw)
        self.as<ArgParserObj>()->defaults.push_back(kv);
    return Value::none();
  case NativeId::AddGroup:
  case NativeId::AddExclusiveGroup:
    return self;
  case NativeId::ParseArgs:
  case NativeId::ParseKnownArgs: {
    if (!self.isObj(ObjKind::ArgParser))
      return heap.opaque("namespace");
    auto *ns = heap.make<NamespaceObj>();
    ns->name = "Namespace";
    for (auto &kv : self.as<ArgParserObj>()->defaults)
      ns->set(kv.first, kv.second);
    Value nsv = heap.obj(ObjKind::Namespace, ns);
    if (id == NativeId::ParseKnownArgs)
      return heap.tuple({nsv, heap.list({})});
    return nsv;
  }
  case NativeId::JitCompile:
  case NativeId::JitGetTir:
    if (self.isObj(ObjKind::JitFunction))
      return callJit(self.as<JitFunctionObj>(), args, at, true);
    return heap.opaque("compiled kernel");
  case NativeId::TunerSetCompileArgs:
  case NativeId::TunerSetProfileArgs:
  case NativeId::TunerRun: {
    // The tuner TileLang's `AutoTuner.from_kernel(kernel=f, configs=...)`
    // makes (a JitFunction here, see autotunerFromKernel): the compile
    // arguments are the jit's options, the profile arguments only time
    // it, and `run()` compiles the factory with the configurations bound.
    if (!self.isObj(ObjKind::JitFunction)) {
      if (self.is(ValueKind::Str) || self.isSequence() ||
          self.is(ValueKind::Dict) || self.is(ValueKind::Set))
        return raise("AttributeError", "'" + self.getTypeName() +
                                           "' object has no attribute '" +
                                           m->name + "'",
                     at);
      return heap.opaque("attribute call result");
    }
    auto *jit = self.as<JitFunctionObj>();
    if (id == NativeId::TunerSetCompileArgs) {
      if (const Value *v = args.keyword("out_idx"))
        jit->outIdx = *v;
      if (const Value *v = args.keyword("pass_configs"))
        readPassConfigs(*v, jit->build);
      if (const Value *v = args.keyword("target"))
        jit->target = fileTarget(*v);
    }
    if (id != NativeId::TunerRun)
      return self;
    CallArgs none;
    return callJit(jit, none, at, true);
  }
  case NativeId::JitParCompile:
    if (self.isObj(ObjKind::JitFunction) && a0.isSequence()) {
      for (Value cfg : getElems(a0)) {
        CallArgs ca;
        if (cfg.is(ValueKind::Dict)) {
          for (auto &kv : cfg.as<DictObj>()->items)
            if (kv.first.isStr()) {
              ca.kw.push_back({getStr(kv.first), kv.second});
              ca.kwNodes.push_back(at);
            }
        } else if (cfg.isSequence()) {
          for (Value v : getElems(cfg)) {
            ca.pos.push_back(v);
            ca.posNodes.push_back(at);
          }
        }
        Value r = callJit(self.as<JitFunctionObj>(), ca, at, true);
        if (r.isException())
          return r;
      }
    }
    return heap.opaque("compiled kernels");
  case NativeId::AutogradApply: {
    // `Cls.apply(*args)` of a torch.autograd.Function: `forward(ctx,
    // *args)` with a context that keeps what it is given
    // (`ctx.save_for_backward(...)`, `ctx.causal = ...`); then, as the
    // program's `loss.backward()` would, `backward(ctx, *grads)` with one
    // gradient of each output's shape, so the backward kernels trace at the
    // sizes the forward pass saw. A failure inside backward is not the
    // program's (tlc cannot tell whether it calls backward at all): it
    // ends the backward pass silently.
    if (!self.isObj(ObjKind::Class))
      return noMethod();
    auto *cls = self.as<NamespaceObj>();
    Value *fwd = cls->find("forward");
    if (!fwd || !fwd->is(ValueKind::Function))
      return noMethod();
    auto *ctxCls = heap.make<NamespaceObj>();
    ctxCls->name = "FunctionCtx";
    auto *ctxObj = heap.make<NamespaceObj>();
    ctxObj->name = "FunctionCtx";
    ctxObj->cls = ctxCls;
    Value ctx = heap.obj(ObjKind::Instance, ctxObj);
    ctxObj->set("save_for_backward", findMethod(ctx, "save_for_backward"));
    ctxObj->set("saved_tensors", heap.tuple({}));
    ctxObj->set("needs_input_grad", heap.opaque("needs_input_grad"));
    CallArgs fargs = args;
    fargs.pos.insert(fargs.pos.begin(), ctx);
    fargs.posNodes.insert(fargs.posNodes.begin(), at);
    Value out = call(*fwd, fargs, at);
    if (out.isAbrupt())
      return out;
    Value *bwd = cls->find("backward");
    if (!bwd || !bwd->is(ValueKind::Function))
      return out;
    CallArgs bargs;
    bargs.pos.push_back(ctx);
    bargs.posNodes.push_back(at);
    auto gradOf = [&](Value o) {
      auto *g = heap.make<OpaqueObj>();
      g->description = "torch tensor";
      if (o.is(ValueKind::Opaque) && o.as<OpaqueObj>()->hasShape) {
        g->shape = o.as<OpaqueObj>()->shape;
        g->hasShape = true;
      }
      return Value::object(ValueKind::Opaque, g);
    };
    if (out.is(ValueKind::Tuple))
      for (Value o : getElems(out)) {
        bargs.pos.push_back(gradOf(o));
        bargs.posNodes.push_back(at);
      }
    else {
      bargs.pos.push_back(gradOf(out));
      bargs.posNodes.push_back(at);
    }
    Value r = call(*bwd, bargs, at);
    if (r.isException())
      pending = {};
    return out;
  }
  case NativeId::SaveForBackward: {
    if (!self.isObj(ObjKind::Instance))
      return noMethod();
    self.as<NamespaceObj>()->set("saved_tensors", heap.tuple(args.pos));
    return Value::none();
  }
  case NativeId::DTypeAsTorch: {
    // `T.float16.torch()`: torch.float16, which converts back to the dtype.
    if (self.is(ValueKind::DType)) {
      std::string n = self.getDType().getName();
      if (n == "float8_e4m3")
        n = "float8_e4m3fn";
      if (lang::DType::parseTorch(n))
        return heap.opaque(heap.copyString("torch." + n));
    }
    return heap.opaque("torch dtype");
  }
  case NativeId::BufferAccessPtr: {
    // Buffer.access_ptr(access_mask, ptr_type="handle", content_lanes=1,
    // offset=0, extent=None): the address of the buffer's first element,
    // which tlc passes as the buffer itself (as `.data`). The access mask
    // only tells TVM's analyses how the pointer is used.
    if (!self.is(ValueKind::Buffer))
      return noMethod();
    Value offset = args.positional(3, Value::integer(0));
    for (auto &kv : args.kw)
      if (kv.first == "offset")
        offset = kv.second;
    if (!offset.isIntLike() || offset.getInt() != 0)
      return fail(at, "access_ptr: tlc takes the address of a whole buffer "
                      "(offset 0); slice the buffer instead");
    return self;
  }
  case NativeId::ExprAstype: {
    // PrimExpr.astype(dtype): T.cast.
    if (args.pos.size() != 1)
      return raise("TypeError", "astype() takes one dtype", at);
    std::optional<lang::DType> t = toDType(args.pos[0], at);
    if (!t)
      return fail(at, "unknown dtype " + toString(args.pos[0], true));
    return castTo(self, *t, at);
  }
  default:
    return noMethod();
  }
}
