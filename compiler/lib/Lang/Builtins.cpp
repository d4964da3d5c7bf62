//===- Builtins.cpp - TileLang builtin registry ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds the registry from Builtins.def and DType.def on first use, parses
// every parameter list, and binds call arguments the way CPython does.
//
//===----------------------------------------------------------------------===//

#include "tlc/Lang/Builtins.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

#include <deque>
#include <vector>

using namespace tlc;
using namespace tlc::lang;

//===----------------------------------------------------------------------===//
// Parameter lists
//===----------------------------------------------------------------------===//

/// Splits \p text at commas that are not nested in brackets or quotes.
/// Returns false on unbalanced brackets or an unterminated string.
static bool splitTopLevel(llvm::StringRef text,
                          llvm::SmallVectorImpl<llvm::StringRef> &items) {
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    switch (c) {
    case '\'':
    case '"':
      quote = c;
      break;
    case '(':
    case '[':
    case '{':
      ++depth;
      break;
    case ')':
    case ']':
    case '}':
      if (--depth < 0)
        return false;
      break;
    case ',':
      if (depth == 0) {
        items.push_back(text.slice(start, i));
        start = i + 1;
      }
      break;
    default:
      break;
    }
  }
  if (quote || depth != 0)
    return false;
  items.push_back(text.substr(start));
  return true;
}

/// True for a Python identifier made of ASCII letters, digits and '_'.
static bool isIdentifier(llvm::StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

bool lang::parseParamList(llvm::StringRef text,
                          llvm::SmallVectorImpl<ParamInfo> &out) {
  text = text.trim();
  if (text.empty())
    return true;
  llvm::SmallVector<llvm::StringRef, 8> items;
  if (!splitTopLevel(text, items))
    return false;
  bool keywordOnly = false;
  bool sawVarKeyword = false;
  bool sawSlash = false;
  bool sawPositionalDefault = false;
  size_t firstOut = out.size();
  for (llvm::StringRef item : items) {
    item = item.trim();
    if (item.empty() || sawVarKeyword)
      return false;
    if (item == "/") {
      if (sawSlash || keywordOnly || out.size() == firstOut)
        return false;
      sawSlash = true;
      for (size_t i = firstOut; i < out.size(); ++i)
        out[i].kind = ParamKind::PositionalOnly;
      continue;
    }
    if (item == "*") {
      if (keywordOnly)
        return false;
      keywordOnly = true;
      continue;
    }
    ParamInfo param;
    if (item.consume_front("**")) {
      param.kind = ParamKind::VarKeyword;
      sawVarKeyword = true;
    } else if (item.consume_front("*")) {
      if (keywordOnly)
        return false;
      param.kind = ParamKind::VarPositional;
      keywordOnly = true;
    } else {
      param.kind =
          keywordOnly ? ParamKind::KeywordOnly : ParamKind::PositionalOrKeyword;
    }
    auto [name, defaultText] = item.split('=');
    param.name = name.trim();
    if (!isIdentifier(param.name))
      return false;
    if (item.contains('=')) {
      param.defaultText = defaultText.trim();
      if (param.defaultText.empty() || param.kind == ParamKind::VarPositional ||
          param.kind == ParamKind::VarKeyword)
        return false;
    }
    if (param.kind == ParamKind::PositionalOrKeyword) {
      // Python: a required positional parameter cannot follow a default.
      if (param.defaultText.empty() && sawPositionalDefault)
        return false;
      if (!param.defaultText.empty())
        sawPositionalDefault = true;
    }
    for (size_t i = firstOut; i < out.size(); ++i)
      if (out[i].name == param.name)
        return false;
    out.push_back(param);
  }
  // A bare `*` must be followed by a keyword-only parameter.
  if (keywordOnly &&
      !llvm::any_of(llvm::drop_begin(out, firstOut), [](const ParamInfo &p) {
        return p.kind == ParamKind::KeywordOnly ||
               p.kind == ParamKind::VarPositional;
      }))
    return false;
  return true;
}

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

namespace {
/// Static description of one Builtins.def row before it is finalised.
struct RawRow {
  BuiltinId id;
  const char *name;
  BuiltinKind kind;
  BuiltinCategory category;
  SupportLevel support;
  const char *params;
  const char *returns;
  const char *doc;
  /// For TLC_ALIAS rows, the target id; equal to `id` otherwise.
  BuiltinId target;
  bool deprecated;
};

#define TLC_SUPPORT_Supported SupportLevel::Supported
#define TLC_SUPPORT_Unsupported SupportLevel::NotSupportedByTlc

const RawRow kRawRows[] = {
#define TLC_BUILTIN(Id, Name, Kind, Category, Support, Params, Returns, Doc)   \
  {                                                                            \
      BuiltinId::Id,                                                           \
      Name,                                                                    \
      BuiltinKind::Kind,                                                       \
      BuiltinCategory::Category,                                               \
      TLC_SUPPORT_##Support,                                                   \
      Params,                                                                  \
      Returns,                                                                 \
      Doc,                                                                     \
      BuiltinId::Id,                                                           \
      false},
#define TLC_ALIAS(Id, Name, TargetId, Deprecated)                              \
  {BuiltinId::Id,                                                              \
   Name,                                                                       \
   BuiltinKind::Function,                                                      \
   BuiltinCategory::Kernel,                                                    \
   SupportLevel::Supported,                                                    \
   "",                                                                         \
   "",                                                                         \
   "",                                                                         \
   BuiltinId::TargetId,                                                        \
   Deprecated != 0},
#include "tlc/Lang/Builtins.def"
};

#undef TLC_SUPPORT_Supported
#undef TLC_SUPPORT_Unsupported

constexpr unsigned kNumRows = sizeof(kRawRows) / sizeof(kRawRows[0]);
static_assert(kNumRows == static_cast<unsigned>(BuiltinId::DTypeAttribute),
              "every Builtins.def row has a BuiltinId");

/// The immutable registry. Built once; see getRegistry().
class Registry {
public:
  Registry();

  std::vector<BuiltinInfo> entries;
  llvm::StringMap<unsigned> byName;

private:
  /// Owns generated strings (signatures, dtype docs); deque keeps
  /// references stable.
  std::deque<std::string> strings;
  /// Owns parsed parameter lists.
  std::deque<llvm::SmallVector<ParamInfo, 4>> paramLists;

  llvm::StringRef own(std::string str) {
    strings.push_back(std::move(str));
    return strings.back();
  }
  llvm::ArrayRef<ParamInfo> parseParams(llvm::StringRef name,
                                        llvm::StringRef text);
  static std::string makeSignature(const BuiltinInfo &info);
  void addDTypeEntry(llvm::StringRef attrName, DType type, bool isAlias);
};
} // namespace

llvm::ArrayRef<ParamInfo> Registry::parseParams(llvm::StringRef name,
                                                llvm::StringRef text) {
  paramLists.emplace_back();
  if (!parseParamList(text, paramLists.back()))
    llvm::report_fatal_error(llvm::Twine("Builtins.def: malformed parameter "
                                         "list of ") +
                             name + ": " + text);
  return paramLists.back();
}

std::string Registry::makeSignature(const BuiltinInfo &info) {
  std::string sig;
  switch (info.kind) {
  case BuiltinKind::Decorator:
    sig = "@" + info.name.str();
    if (!info.paramText.empty())
      sig += "(" + info.paramText.str() + ")";
    return sig;
  case BuiltinKind::Value:
    sig = info.name.str();
    if (!info.returns.empty())
      sig += ": " + info.returns.str();
    return sig;
  case BuiltinKind::Namespace:
    return info.name.str();
  case BuiltinKind::Annotation:
    if (info.paramText.empty())
      return info.name.str();
    [[fallthrough]];
  case BuiltinKind::Function:
  case BuiltinKind::ContextManager:
  case BuiltinKind::Loop:
  case BuiltinKind::Class:
    sig = info.name.str() + "(" + info.paramText.str() + ")";
    if (!info.returns.empty())
      sig += " -> " + info.returns.str();
    return sig;
  }
  return info.name.str();
}

/// Appends the entry of the dtype attribute `T.<attrName>`. Alias entries
/// (`T.half`) get their aliasOf pointer once all entries exist.
void Registry::addDTypeEntry(llvm::StringRef attrName, DType type,
                             bool isAlias) {
  BuiltinInfo info;
  info.id = BuiltinId::DTypeAttribute;
  info.name = own(("T." + attrName).str());
  info.kind = BuiltinKind::Value;
  info.category = BuiltinCategory::DType;
  info.support = SupportLevel::Supported;
  info.paramText = "*values";
  info.params = parseParams(info.name, info.paramText);
  info.returns = "dtype";
  info.dtype = type;
  if (isAlias) {
    info.doc = own("Alias of T." + type.getName() + ": " +
                   type.getDescription().str());
  } else if (type.isVector()) {
    info.doc = own("Vector of " + std::to_string(type.getLanes()) + " " +
                   type.getScalarName().str() + " lanes. " +
                   type.getDescription().str());
  } else {
    info.doc = type.getDescription();
  }
  info.signature = own(info.name.str() + ": dtype (" + type.getName() + ", " +
                       std::to_string(type.getBits()) + " bits)");
  byName.try_emplace(info.name, static_cast<unsigned>(entries.size()));
  entries.push_back(std::move(info));
}

Registry::Registry() {
  entries.reserve(kNumRows + 512);
  for (const RawRow &raw : kRawRows) {
    BuiltinInfo info;
    info.id = raw.id;
    info.name = raw.name;
    info.deprecated = raw.deprecated;
    if (raw.target == raw.id) {
      info.kind = raw.kind;
      info.category = raw.category;
      info.support = raw.support;
      info.paramText = raw.params;
      info.returns = raw.returns;
      info.doc = raw.doc;
      info.params = parseParams(info.name, info.paramText);
      info.signature = own(makeSignature(info));
    }
    if (!byName.try_emplace(info.name, static_cast<unsigned>(entries.size()))
             .second)
      llvm::report_fatal_error(llvm::Twine("Builtins.def: duplicate name ") +
                               info.name);
    entries.push_back(std::move(info));
  }

  // Dtype attributes: canonical scalars, their vector forms, then aliases.
  for (const DTypeSpelling &s : getAllDTypeSpellings()) {
    if (!s.isAttribute || !s.isCanonical)
      continue;
    DType scalar(s.scalar);
    addDTypeEntry(s.spelling, scalar, /*isAlias=*/false);
    for (unsigned lanes = 2; lanes <= 64; lanes *= 2) {
      DType vec = scalar.withLanes(lanes);
      if (vec.isAttribute())
        addDTypeEntry(vec.getName(), vec, /*isAlias=*/false);
    }
  }
  for (const DTypeSpelling &s : getAllDTypeSpellings()) {
    if (!s.isAttribute || s.isCanonical)
      continue;
    addDTypeEntry(s.spelling, DType(s.scalar), /*isAlias=*/true);
  }

  // Deprecated entries that are not aliases.
#define TLC_DEPRECATED(Id)                                                     \
  entries[static_cast<unsigned>(BuiltinId::Id)].deprecated = true;
#include "tlc/Lang/Builtins.def"

  // Resolve aliases now that the vector no longer grows.
  for (BuiltinInfo &info : entries) {
    if (info.id != BuiltinId::DTypeAttribute) {
      const RawRow &raw = kRawRows[static_cast<unsigned>(info.id)];
      if (raw.target == raw.id)
        continue;
      BuiltinInfo &target = entries[static_cast<unsigned>(raw.target)];
      if (target.aliasOf)
        llvm::report_fatal_error("Builtins.def: alias of an alias");
      info.aliasOf = &target;
      info.kind = target.kind;
      info.category = target.category;
      info.support = target.support;
      info.paramText = target.paramText;
      info.returns = target.returns;
      info.doc = target.doc;
      info.params = target.params;
      info.signature = own(makeSignature(info));
      continue;
    }
    // Dtype alias (`T.half`): its canonical entry is `T.<canonical name>`.
    std::string canonical = "T." + info.dtype->getName();
    if (info.name != canonical) {
      info.aliasOf = &entries[byName.lookup(canonical)];
      info.params = info.aliasOf->params;
    }
  }
}

static const Registry &getRegistry() {
  static const Registry registry;
  return registry;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

llvm::StringRef BuiltinInfo::getShortName() const {
  size_t dot = name.rfind('.');
  return dot == llvm::StringRef::npos ? name : name.substr(dot + 1);
}

int BuiltinInfo::findParam(llvm::StringRef paramName) const {
  for (size_t i = 0, e = params.size(); i < e; ++i) {
    const ParamInfo &p = params[i];
    if (p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword)
      continue;
    if (p.name == paramName)
      return static_cast<int>(i);
  }
  return -1;
}

const BuiltinInfo *lang::lookupBuiltin(llvm::StringRef qualifiedName) {
  const Registry &registry = getRegistry();
  std::string normalized;
  for (llvm::StringRef prefix :
       {"tilelang.language.common.", "tilelang.language.",
        "tilelang.cuda.language.", "tilelang.cpu.language.",
        "tilelang.rocm.language.", "tilelang.metal.language.",
        "tilelang.webgpu.language."}) {
    if (qualifiedName.starts_with(prefix)) {
      normalized = ("T." + qualifiedName.drop_front(prefix.size())).str();
      qualifiedName = normalized;
      break;
    }
  }
  auto it = registry.byName.find(qualifiedName);
  if (it == registry.byName.end())
    return nullptr;
  return &registry.entries[it->second];
}

const BuiltinInfo &lang::getBuiltin(BuiltinId id) {
  assert(id != BuiltinId::DTypeAttribute && "dtype entries have no row");
  return getRegistry().entries[static_cast<unsigned>(id)];
}

llvm::ArrayRef<BuiltinInfo> lang::getAllBuiltins() {
  return getRegistry().entries;
}

llvm::SmallVector<const BuiltinInfo *, 0>
lang::getBuiltinMembers(llvm::StringRef prefix) {
  llvm::SmallVector<const BuiltinInfo *, 0> result;
  for (const BuiltinInfo &info : getRegistry().entries) {
    llvm::StringRef name = info.name;
    if (!name.consume_front(prefix) || !name.consume_front("."))
      continue;
    if (!name.empty() && !name.contains('.'))
      result.push_back(&info);
  }
  return result;
}

llvm::StringRef lang::getCategoryName(BuiltinCategory category) {
  switch (category) {
  case BuiltinCategory::Kernel:
    return "kernel";
  case BuiltinCategory::Launch:
    return "launch";
  case BuiltinCategory::Type:
    return "type";
  case BuiltinCategory::Meta:
    return "meta";
  case BuiltinCategory::Alloc:
    return "alloc";
  case BuiltinCategory::Loop:
    return "loop";
  case BuiltinCategory::Copy:
    return "copy";
  case BuiltinCategory::Compute:
    return "compute";
  case BuiltinCategory::Reduce:
    return "reduce";
  case BuiltinCategory::Atomic:
    return "atomic";
  case BuiltinCategory::Math:
    return "math";
  case BuiltinCategory::Warp:
    return "warp";
  case BuiltinCategory::Sync:
    return "sync";
  case BuiltinCategory::Debug:
    return "debug";
  case BuiltinCategory::Annotation:
    return "annotation";
  case BuiltinCategory::Layout:
    return "layout";
  case BuiltinCategory::DType:
    return "dtype";
  case BuiltinCategory::Jit:
    return "jit";
  case BuiltinCategory::Intrinsic:
    return "intrinsic";
  }
  llvm_unreachable("unknown builtin category");
}

llvm::StringRef lang::getKindName(BuiltinKind kind) {
  switch (kind) {
  case BuiltinKind::Function:
    return "function";
  case BuiltinKind::ContextManager:
    return "context manager";
  case BuiltinKind::Loop:
    return "loop";
  case BuiltinKind::Decorator:
    return "decorator";
  case BuiltinKind::Value:
    return "value";
  case BuiltinKind::Annotation:
    return "annotation";
  case BuiltinKind::Class:
    return "class";
  case BuiltinKind::Namespace:
    return "namespace";
  }
  llvm_unreachable("unknown builtin kind");
}

std::string lang::getNotSupportedMessage(const BuiltinInfo &info) {
  return "'" + info.name.str() + "' is not supported by tlc";
}

//===----------------------------------------------------------------------===//
// Argument matching
//===----------------------------------------------------------------------===//

/// Joins quoted names as `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
static std::string joinQuoted(llvm::ArrayRef<llvm::StringRef> names) {
  std::string result;
  for (size_t i = 0, e = names.size(); i < e; ++i) {
    if (i != 0)
      result += i + 1 == e ? " and " : ", ";
    result += "'" + names[i].str() + "'";
  }
  return result;
}

/// The keyword-accepting parameter closest to \p name, if close enough to
/// be a likely typo (`trans_B` -> `transpose_B`, `num_stage` ->
/// `num_stages`).
static std::optional<llvm::StringRef> suggestKeyword(const BuiltinInfo &info,
                                                     llvm::StringRef name) {
  unsigned limit = static_cast<unsigned>(name.size() + 2) / 3 + 1;
  unsigned bestDistance = limit + 1;
  std::optional<llvm::StringRef> best;
  for (const ParamInfo &p : info.params) {
    if (!p.acceptsKeyword())
      continue;
    unsigned distance = name.edit_distance(p.name, true, limit);
    if (distance <= limit && distance < bestDistance) {
      bestDistance = distance;
      best = p.name;
    }
  }
  return best;
}

ArgumentMatch lang::matchArguments(const BuiltinInfo &info,
                                   unsigned numPositional,
                                   llvm::ArrayRef<llvm::StringRef> keywords,
                                   llvm::StringRef displayName) {
  ArgumentMatch match;
  std::string callee =
      (displayName.empty() ? info.name : displayName).str() + "()";
  llvm::ArrayRef<ParamInfo> params = info.params;
  match.bindings.resize(params.size());

  auto fail = [&](std::string message, ArgumentRef::Kind kind, unsigned index) {
    match.error = callee + " " + message;
    match.errorArg = {kind, index};
    return match;
  };

  // Positional arguments fill positional parameters in order, then *args.
  int varPositional = -1, varKeyword = -1;
  unsigned numPositionalParams = 0, numRequiredPositional = 0;
  for (size_t i = 0, e = params.size(); i < e; ++i) {
    if (params[i].kind == ParamKind::VarPositional)
      varPositional = static_cast<int>(i);
    else if (params[i].kind == ParamKind::VarKeyword)
      varKeyword = static_cast<int>(i);
    else if (params[i].acceptsPositional()) {
      ++numPositionalParams;
      if (!params[i].isOptional())
        ++numRequiredPositional;
    }
  }
  unsigned arg = 0;
  for (size_t i = 0, e = params.size(); i < e && arg < numPositional; ++i) {
    if (!params[i].acceptsPositional())
      continue;
    match.bindings[i] = {ParamBinding::Source::Positional, arg++};
  }
  if (arg < numPositional) {
    if (varPositional < 0) {
      std::string message;
      if (numPositionalParams == 0)
        message = "takes no positional arguments";
      else
        message =
            (numRequiredPositional == numPositionalParams ? "takes exactly "
                                                          : "takes at most ") +
            std::to_string(numPositionalParams) + " positional argument" +
            (numPositionalParams == 1 ? "" : "s");
      message += " (" + std::to_string(numPositional) + " given)";
      return fail(message, ArgumentRef::Kind::Positional, numPositionalParams);
    }
    match.bindings[varPositional] = {ParamBinding::Source::VarPositional, arg};
  } else if (varPositional >= 0) {
    match.bindings[varPositional] = {ParamBinding::Source::VarPositional,
                                     numPositional};
  }
  if (varKeyword >= 0)
    match.bindings[varKeyword] = {ParamBinding::Source::VarKeyword, 0};

  // Keyword arguments bind by name, or go to **kwargs.
  for (size_t k = 0, e = keywords.size(); k < e; ++k) {
    llvm::StringRef name = keywords[k];
    int index = -1;
    bool positionalOnly = false;
    for (size_t i = 0, pe = params.size(); i < pe; ++i) {
      if (params[i].name != name ||
          params[i].kind == ParamKind::VarPositional ||
          params[i].kind == ParamKind::VarKeyword)
        continue;
      if (params[i].kind == ParamKind::PositionalOnly)
        positionalOnly = true;
      else
        index = static_cast<int>(i);
    }
    if (index >= 0) {
      if (match.bindings[index].source != ParamBinding::Source::Missing)
        return fail("got multiple values for argument '" + name.str() + "'",
                    ArgumentRef::Kind::Keyword, k);
      match.bindings[index] = {ParamBinding::Source::Keyword,
                               static_cast<unsigned>(k)};
      continue;
    }
    if (varKeyword >= 0) {
      match.extraKeywords.push_back(static_cast<unsigned>(k));
      continue;
    }
    if (positionalOnly)
      return fail("got positional-only argument '" + name.str() +
                      "' passed as keyword",
                  ArgumentRef::Kind::Keyword, k);
    std::string message =
        "got an unexpected keyword argument '" + name.str() + "'";
    if (std::optional<llvm::StringRef> hint = suggestKeyword(info, name))
      message += "; did you mean '" + hint->str() + "'?";
    return fail(message, ArgumentRef::Kind::Keyword, k);
  }

  // Defaults, then report what is still missing.
  llvm::SmallVector<llvm::StringRef, 4> missing, missingKeywordOnly;
  for (size_t i = 0, e = params.size(); i < e; ++i) {
    if (match.bindings[i].source != ParamBinding::Source::Missing)
      continue;
    if (!params[i].defaultText.empty())
      match.bindings[i] = {ParamBinding::Source::Default, 0};
    else if (params[i].kind == ParamKind::KeywordOnly)
      missingKeywordOnly.push_back(params[i].name);
    else
      missing.push_back(params[i].name);
  }
  if (!missing.empty())
    return fail(std::string("missing required argument") +
                    (missing.size() == 1 ? " " : "s ") + joinQuoted(missing),
                ArgumentRef::Kind::None, 0);
  if (!missingKeywordOnly.empty())
    return fail(std::string("missing required keyword-only argument") +
                    (missingKeywordOnly.size() == 1 ? " " : "s ") +
                    joinQuoted(missingKeywordOnly),
                ArgumentRef::Kind::None, 0);
  return match;
}
