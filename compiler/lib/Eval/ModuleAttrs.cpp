//===- ModuleAttrs.cpp - Modules and their attributes ---------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Resolves modules and their attributes: tilelang through the TLCLang
// registry; math, itertools, functools, argparse natively; torch, numpy and
// anything else opaquely; `os.environ` reads; unknown `T.` names.
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
// Modules
//===----------------------------------------------------------------------===//

static bool isModelledPythonModule(llvm::StringRef name) {
  return name == "math" || name == "itertools" || name == "functools" ||
         name == "argparse" || name == "types";
}

/// TileLang's per-backend language modules (`tilelang.cpu.language`,
/// `tilelang.rocm.language`, ...) and `tilelang.language.common`: the
/// common tile language plus one backend's names, which tlc models as one
/// `tilelang.language` (T).
static bool isDialectLanguage(llvm::StringRef name) {
  return llvm::is_contained(
      {"tilelang.cuda.language", "tilelang.cpu.language",
       "tilelang.rocm.language", "tilelang.metal.language",
       "tilelang.webgpu.language", "tilelang.language.common"},
      name);
}

bool Interpreter::isTileLangModule(llvm::StringRef name) {
  static const char *const known[] = {
      "tilelang",          "tilelang.language", "tilelang.math",
      "tilelang.layout",   "tilelang.autotuner",
      "tilelang.profiler", "tilelang.carver",   "tilelang.carver.arch",
      "tilelang.intrinsics", "tilelang.utils",  "tilelang.cuda",
      "tilelang.cuda.language", "tilelang.tools", "tilelang.transform",
      "tilelang.engine",   "tilelang.contrib",  "tilelang.env",
      "tilelang.testing",  "tilelang.language.dtypes", "tilelang.cpu",
      "tilelang.rocm",     "tilelang.metal",    "tilelang.webgpu"};
  for (const char *k : known)
    if (name == k)
      return true;
  return isDialectLanguage(name);
}

Value Interpreter::importModule(llvm::StringRef qualified) {
  auto *m = heap.make<ModuleObj>();
  m->name = heap.copyString(qualified);
  if (isDialectLanguage(qualified)) {
    m->name = "tilelang.language";
    LanguageDialect d = qualified == "tilelang.cuda.language"
                            ? LanguageDialect::Cuda
                        : qualified == "tilelang.rocm.language"
                            ? LanguageDialect::Rocm
                            : LanguageDialect::Common;
    m->dialect = uint8_t(d);
  }
  m->opaque = !(isModelledPythonModule(qualified) ||
                qualified == "tilelang" || qualified.starts_with("tilelang."));
  return Value::object(ValueKind::Module, m);
}

Value Interpreter::osEnviron() {
  if (osEnvironDict.isNone()) {
    osEnvironDict = heap.dict();
    for (const auto &[name, value] : options.environ)
      dictPut(osEnvironDict.as<DictObj>(), heap.str(name), heap.str(value));
  }
  return osEnvironDict;
}

void Interpreter::noteEnvironRead(Value dict, Value key) {
  if (!dict.is(ValueKind::Dict) || osEnvironDict.isNone() ||
      dict.as<DictObj>() != osEnvironDict.as<DictObj>())
    return;
  if (!key.isStr()) {
    environReadAll = true;
    return;
  }
  std::string name = getStr(key).str();
  if (!llvm::is_contained(environReads, name))
    environReads.push_back(std::move(name));
}

/// True when the `os.environ` of the Attribute node \p at is read by one
/// variable's name, which noteEnvironRead records: `os.environ.get(...)`,
/// `os.environ[...]` (or assigned to, not augmented) and `... in
/// os.environ`. Any other use may read every variable.
static bool isKeyedEnvironUse(Node at) {
  using syntax::CmpOp;
  using syntax::ExprContext;
  if (at.kind() != NodeKind::Attribute)
    return false;
  Node p = at.parent();
  if (p.kind() == NodeKind::Attribute && p.identifier() == "get")
    return p.parent().kind() == NodeKind::Call && p.field() == Field::func;
  if (p.kind() == NodeKind::Subscript)
    return at.field() == Field::value && p.context() != ExprContext::Del &&
           p.parent().kind() != NodeKind::AugAssign;
  if (p.kind() == NodeKind::Compare && at.field() == Field::comparators) {
    llvm::SmallVector<CmpOp, 2> ops = p.compareOps();
    return ops.size() == 1 && (ops[0] == CmpOp::In || ops[0] == CmpOp::NotIn);
  }
  return false;
}

/// True when \p name looks like a dtype spelling (`float17`, `int3`).
static bool looksLikeDType(llvm::StringRef name) {
  return name.starts_with("float") || name.starts_with("int") ||
         name.starts_with("uint") || name.starts_with("bfloat") ||
         name.starts_with("tfloat");
}

bool Interpreter::isUnknownTName(Value obj, llvm::StringRef attr) {
  if (!obj.is(ValueKind::Module))
    return false;
  ModuleObj *m = obj.as<ModuleObj>();
  if (m->globals || m->opaque || m->name != "tilelang.language")
    return false;
  std::string qualified = (m->name + "." + attr).str();
  return !findNative(qualified) && !lang::lookupBuiltin(("T." + attr).str()) &&
         !looksLikeDType(attr) && attr != "language";
}

Value Interpreter::raiseUnknownTName(llvm::StringRef attr, Node at) {
  std::string message =
      ("module 'tilelang.language' has no attribute '" + attr + "'").str();
  // The closest T.* function or class, if close enough to be a typo.
  unsigned limit = static_cast<unsigned>(attr.size() + 2) / 3 + 1;
  unsigned best = limit + 1;
  llvm::StringRef hint;
  for (const lang::BuiltinInfo *info : lang::getBuiltinMembers("T")) {
    llvm::StringRef name = llvm::StringRef(info->name).drop_front(2);
    unsigned d = attr.edit_distance(name, true, limit);
    if (d <= limit && d < best) {
      best = d;
      hint = name;
    }
  }
  if (!hint.empty())
    message += ("; did you mean 'T." + hint + "'?").str();
  return raise("AttributeError", message, at);
}

Value Interpreter::moduleAttr(ModuleObj *m, llvm::StringRef attr, Node at) {
  if (m->globals) {
    auto it = m->globals->vars.find(attr);
    if (it != m->globals->vars.end())
      return it->second;
    return raise("AttributeError",
                 "module '" + m->name + "' has no attribute '" + attr + "'",
                 at);
  }
  if (m->opaque) {
    if (m->name == "os" && attr == "environ") {
      if (!isKeyedEnvironUse(at))
        environReadAll = true;
      return osEnviron();
    }
    std::string d = (m->name + "." + attr).str();
    // Functions modelled in modules that are otherwise not
    // (`dataclasses.dataclass`).
    if (std::optional<NativeId> id = findNative(d))
      return Value::native(uint32_t(*id));
    // TileLang's quantization helpers under its examples tree.
    if (std::optional<Value> modelled = quantizeAttr(m->name, attr, at))
      return *modelled;
    return heap.opaque(heap.copyString(d));
  }
  std::string qualified = (m->name + "." + attr).str();
  if (m->name == "math") {
    if (attr == "pi")
      return Value::floating(M_PI);
    if (attr == "e")
      return Value::floating(M_E);
    if (attr == "inf")
      return Value::floating(std::numeric_limits<double>::infinity());
    if (attr == "nan")
      return Value::floating(std::numeric_limits<double>::quiet_NaN());
  }
  if (std::optional<NativeId> id = findNative(qualified))
    return Value::native(uint32_t(*id));
  if (m->name == "argparse") {
    // Values scripts pass to the parser: an action is only compared with
    // the `store_true`/`store_false` spellings, formatters only affect
    // --help.
    if (attr == "SUPPRESS")
      return heap.str("==SUPPRESS==");
    if (attr == "BooleanOptionalAction" || attr == "Action" ||
        attr == "HelpFormatter" || attr.ends_with("HelpFormatter") ||
        attr == "Namespace" || attr == "FileType")
      return heap.opaque(heap.copyString(qualified));
  }
  if (isModelledPythonModule(m->name))
    return raise("AttributeError",
                 "module '" + m->name + "' has no attribute '" + attr + "'",
                 at);
  // tilelang.*
  if (std::optional<Value> modelled = intrinsicsAttr(m->name, attr, at))
    return *modelled;
  if (std::optional<Value> modelled = quantizeAttr(m->name, attr, at))
    return *modelled;
  if (isTileLangModule(qualified) && m->name != "tilelang.language")
    return importModule(qualified);
  bool isT = m->name == "tilelang.language";
  std::string lookupName = isT ? ("T." + attr).str() : qualified;
  if (const lang::BuiltinInfo *info = lang::lookupBuiltin(lookupName)) {
    if (info->dtype)
      return Value::dtype(*info->dtype);
    if (info->kind == lang::BuiltinKind::Value && !info->aliasOf) {
      auto *e = heap.make<EnumMemberObj>();
      e->info = info;
      return heap.obj(ObjKind::EnumMember, e);
    }
    return Value::primitive(info, m->dialect);
  }
  if (isT) {
    if (looksLikeDType(attr))
      return fail(at, "unknown dtype 'T." + attr + "'");
    // Reading a name tilelang.language does not have raises Python's
    // AttributeError at the attribute (`f = T.atomic_ad`), as a direct call
    // does: the builtin registry lists TileLang's names.
    return raiseUnknownTName(attr, at);
  }
  if (m->name == "tilelang" && attr == "language")
    return importModule("tilelang.language");
  return heap.opaque(heap.copyString(qualified));
}

Value Interpreter::primitiveAttr(const lang::BuiltinInfo &info,
                                 llvm::StringRef attr, Node at) {
  std::string member = (info.name + "." + attr).str();
  if (const lang::BuiltinInfo *m = lang::lookupBuiltin(member)) {
    // A function reached through its class (`T.Tensor.from_ptr`).
    if (m->kind != lang::BuiltinKind::Value)
      return Value::primitive(m);
    auto *e = heap.make<EnumMemberObj>();
    e->info = m;
    return heap.obj(ObjKind::EnumMember, e);
  }
  if (info.kind == lang::BuiltinKind::Namespace)
    return heap.opaque(heap.copyString(member));
  return heap.opaque("attribute");
}
