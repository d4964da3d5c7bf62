//===- Formatting.cpp - str() and repr() of trace-time values -------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// str() and repr() of trace-time values as CPython writes them (floats,
// string quoting, containers, objects), and torch dtype names.
//
//===----------------------------------------------------------------------===//

#include "DeferredFloat.h"
#include "Interpreter.h"
#include "Operators.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace tlc;
using namespace tlc::eval;
using syntax::BinaryOp;
using syntax::CmpOp;
using syntax::UnaryOp;

//===----------------------------------------------------------------------===//
// Formatting
//===----------------------------------------------------------------------===//

static void formatFloat(double d, llvm::raw_ostream &os) {
  if (std::isinf(d)) {
    os << (d > 0 ? "inf" : "-inf");
    return;
  }
  if (std::isnan(d)) {
    os << "nan";
    return;
  }
  if (d == std::floor(d) && std::fabs(d) < 1e16) {
    os << llvm::format("%.1f", d);
    return;
  }
  for (int prec = 1; prec <= 17; ++prec) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%.*g", prec, d);
    if (std::strtod(buf, nullptr) == d) {
      os << buf;
      return;
    }
  }
  os << llvm::format("%.17g", d);
}

/// CPython's repr of a str: single quotes unless the text has a single
/// quote and no double one; backslashes, the quote and control characters
/// escaped (unicode_repr). Bytes of UTF-8 text at or past 0x80 are kept.
static void formatStrRepr(llvm::StringRef text, llvm::raw_ostream &os) {
  char quote = text.contains('\'') && !text.contains('"') ? '"' : '\'';
  os << quote;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == quote || c == '\\')
      os << '\\' << c;
    else if (c == '\n')
      os << "\\n";
    else if (c == '\r')
      os << "\\r";
    else if (c == '\t')
      os << "\\t";
    else if (u < 0x20 || u == 0x7f)
      os << llvm::format("\\x%02x", u);
    else
      os << c;
  }
  os << quote;
}

void Interpreter::format(Value v, llvm::raw_ostream &os, bool repr) {
  switch (v.getKind()) {
  case ValueKind::None:
    os << "None";
    return;
  case ValueKind::Bool:
    os << (v.getBool() ? "True" : "False");
    return;
  case ValueKind::Int:
    os << v.getInt();
    return;
  case ValueKind::BigInt:
    os << intToString(v);
    return;
  case ValueKind::Float:
    formatFloat(v.getFloat(), os);
    return;
  case ValueKind::Str:
    if (repr)
      formatStrRepr(getStr(v), os);
    else
      os << getStr(v);
    return;
  case ValueKind::Tuple:
  case ValueKind::List: {
    bool tuple = v.is(ValueKind::Tuple);
    os << (tuple ? '(' : '[');
    llvm::interleaveComma(getElems(v), os,
                          [&](Value e) { format(e, os, true); });
    if (tuple && getElems(v).size() == 1)
      os << ',';
    os << (tuple ? ')' : ']');
    return;
  }
  case ValueKind::Dict:
    os << '{';
    llvm::interleaveComma(v.as<DictObj>()->items, os, [&](auto &kv) {
      format(kv.first, os, true);
      os << ": ";
      format(kv.second, os, true);
    });
    os << '}';
    return;
  case ValueKind::Set: {
    auto *s = v.as<SetObj>();
    if (s->used == 0) {
      os << (s->frozen ? "frozenset()" : "set()");
      return;
    }
    llvm::SmallVector<Value, 16> elems;
    iterate(v, elems, Node());
    os << (s->frozen ? "frozenset({" : "{");
    llvm::interleaveComma(elems, os, [&](Value e) { format(e, os, true); });
    os << (s->frozen ? "})" : "}");
    return;
  }
  case ValueKind::Sym:
    v.getSym().print(os);
    return;
  case ValueKind::DType: {
    lang::DType t = v.getDType();
    // TVM registers the unpacked floats as custom types: `str()` spells them
    // `custom[float4_e2m1_unpacked]8` (and `...]8x2` for vectors).
    if (t.isUnpackedFloat()) {
      os << "custom[" << t.getScalarName() << "]8";
      if (t.isVector())
        os << "x" << t.getLanes();
      return;
    }
    os << t.getName();
    return;
  }
  case ValueKind::Buffer:
    os << v.as<BufferObj>()->name;
    return;
  case ValueKind::Function:
    os << "<function " << v.as<FunctionObj>()->name << ">";
    return;
  case ValueKind::Opaque:
    // A torch dtype prints as torch does (`str(torch.float16)` is
    // "torch.float16"); scripts slice the name off to get TileLang's.
    if (std::optional<std::string> name = torchDTypeName(v)) {
      os << *name;
      return;
    }
    os << '<' << v.getTypeName() << '>';
    return;
  case ValueKind::Range: {
    RangeObj *r = v.as<RangeObj>();
    os << "range(" << r->start << ", " << r->stop;
    if (r->step != 1)
      os << ", " << r->step;
    os << ')';
    return;
  }
  case ValueKind::Object:
    if (v.getObjKind() == ObjKind::EnumMember) {
      os << v.as<EnumMemberObj>()->info->name;
      return;
    }
    if (v.getObjKind() == ObjKind::DictView) {
      llvm::SmallVector<Value, 16> elems;
      iterate(v, elems, Node());
      os << v.getTypeName() << "([";
      llvm::interleaveComma(elems, os, [&](Value e) { format(e, os, true); });
      os << "])";
      return;
    }

    // str(e) of a caught exception: its one argument, or its arguments.
    if (v.getObjKind() == ObjKind::Exception && !repr)
      if (Value *args = v.as<NamespaceObj>()->find("args");
          args && args->is(ValueKind::Tuple)) {
        if (getElems(*args).size() == 1)
          format(getElems(*args)[0], os, false);
        else if (!getElems(*args).empty())
          format(*args, os, true);
        return;
      }
    os << '<' << v.getTypeName() << '>';
    return;
  default:
    os << '<' << v.getTypeName() << '>';
    return;
  }
}

std::optional<std::string> Interpreter::torchDTypeName(Value v) {
  if (!v.is(ValueKind::Opaque))
    return std::nullopt;
  llvm::StringRef d = v.as<OpaqueObj>()->description;
  if (!d.consume_front("torch.") || !lang::DType::parseTorch(d))
    return std::nullopt;
  // torch prints its aliases by their canonical names (torch.half is
  // "torch.float16").
  llvm::StringRef canonical = llvm::StringSwitch<llvm::StringRef>(d)
                                  .Case("half", "float16")
                                  .Case("float", "float32")
                                  .Case("double", "float64")
                                  .Case("short", "int16")
                                  .Case("int", "int32")
                                  .Case("long", "int64")
                                  .Default(d);
  return ("torch." + canonical).str();
}

std::string Interpreter::toString(Value v, bool repr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  format(v, os, repr);
  return s;
}
