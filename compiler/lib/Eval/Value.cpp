//===- Value.cpp - Trace-time values --------------------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tlc/Eval/Value.h"

#include "llvm/ADT/STLExtras.h"

using namespace tlc::eval;

Heap::~Heap() {
  for (auto it = destructors.rbegin(); it != destructors.rend(); ++it)
    it->second(it->first);
}

llvm::StringRef Heap::copyString(llvm::StringRef s) {
  if (s.empty())
    return {};
  char *buf = allocator.Allocate<char>(s.size());
  llvm::copy(s, buf);
  return llvm::StringRef(buf, s.size());
}

Value Heap::str(llvm::StringRef s) { return strNoCopy(copyString(s)); }

Value Heap::strNoCopy(llvm::StringRef s) {
  auto *o = make<StrObj>();
  o->text = s;
  return Value::object(ValueKind::Str, o);
}

Value Heap::tuple(llvm::ArrayRef<Value> elems) {
  auto *o = make<SeqObj>();
  o->elems.assign(elems.begin(), elems.end());
  elementBytes += elems.size() * sizeof(Value);
  return Value::object(ValueKind::Tuple, o);
}

Value Heap::list(llvm::ArrayRef<Value> elems) {
  auto *o = make<SeqObj>();
  o->elems.assign(elems.begin(), elems.end());
  elementBytes += elems.size() * sizeof(Value);
  return Value::object(ValueKind::List, o);
}

Value Heap::dict() { return Value::object(ValueKind::Dict, make<DictObj>()); }

Value Heap::opaque(llvm::StringRef what) {
  auto *o = make<OpaqueObj>();
  o->description = what;
  return Value::object(ValueKind::Opaque, o);
}

llvm::StringRef Value::getTypeName() const {
  switch (kind) {
  case ValueKind::Poison:
    return "<error>";
  case ValueKind::Exception:
    return "<exception>";
  case ValueKind::None:
    return "NoneType";
  case ValueKind::Bool:
    return "bool";
  case ValueKind::Int:
  case ValueKind::BigInt:
    return "int";
  case ValueKind::Float:
    return "float";
  case ValueKind::Str:
    return "str";
  case ValueKind::Ellipsis:
    return "ellipsis";
  case ValueKind::Tuple:
    return "tuple";
  case ValueKind::List:
    return "list";
  case ValueKind::Dict:
    return "dict";
  case ValueKind::Set:
    return static_cast<const SetObj *>(payload.obj)->frozen ? "frozenset"
                                                            : "set";
  case ValueKind::Range:
    return "range";
  case ValueKind::Slice:
    return "slice";
  case ValueKind::Function:
    return "function";
  case ValueKind::NativeFn:
    return "builtin_function_or_method";
  case ValueKind::Primitive:
    return "TileLang primitive";
  case ValueKind::Module:
    return "module";
  case ValueKind::Opaque:
    return "object";
  case ValueKind::DType:
    return "dtype";
  case ValueKind::Sym:
    return "symbolic int";
  case ValueKind::Expr:
    return "PrimExpr";
  case ValueKind::Buffer:
    return "Buffer";
  case ValueKind::Region:
    return "BufferRegion";
  case ValueKind::Object:
    switch (getObjKind()) {
    case ObjKind::BoundMethod:
      return "method";
    case ObjKind::Partial:
      return "functools.partial";
    case ObjKind::JitFunction:
      return "JITImpl";
    case ObjKind::PrimFunc:
      return "PrimFunc";
    case ObjKind::Macro:
      return "macro";
    case ObjKind::KernelFrame:
      return "KernelLaunchFrame";
    case ObjKind::LoopFrame:
      return "ForFrame";
    case ObjKind::ArgParser:
      return "ArgumentParser";
    case ObjKind::Namespace:
      return "Namespace";
    case ObjKind::Layout:
      return "Layout";
    case ObjKind::EnumMember:
      return "enum";
    case ObjKind::Class:
      return "type";
    case ObjKind::Instance:
      return static_cast<NamespaceObj *>(payload.obj)->name;
    case ObjKind::GenericFrame:
      return "frame";
    case ObjKind::TensorType:
      return "Tensor";
    case ObjKind::Exception:
      return "Exception";
    case ObjKind::Iterator:
      return "iterator";
    case ObjKind::DictView:
      switch (static_cast<DictViewObj *>(payload.obj)->which) {
      case DictViewObj::Keys:
        return "dict_keys";
      case DictViewObj::Values:
        return "dict_values";
      case DictViewObj::Items:
        return "dict_items";
      }
      return "dict_keys";
    case ObjKind::Super:
      return "super";
    }
  }
  return "object";
}
