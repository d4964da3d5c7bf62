//===- Allocations.cpp - Buffer allocations and tensor types --------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.alloc_*` allocations in every memory scope with their hints and
// checks, `T.alloc_barrier` / `T.alloc_cluster_barrier`, and `T.Tensor`
// and friends used as parameter types.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "KernelFrames.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::MemoryScope;

Value tlc::eval::makeTensorType(Interpreter &in, const PArgs &p,
                                MemoryScope scope) {
  Value shapeV = p.getOr("shape", Value::poison());
  if (shapeV.isAbrupt())
    return shapeV;
  auto *t = in.heap.make<BufferObj>();
  t->objKind = ObjKind::TensorType;
  if (!in.toShape(shapeV, t->shape, p.node("shape")))
    return Value::poison();
  // Which opaque value each extent tlc cannot evaluate is (one symbol per
  // value, makeTensorFromAnnotation).
  llvm::ArrayRef<Value> dims =
      shapeV.isSequence() ? getElems(shapeV) : llvm::ArrayRef<Value>(shapeV);
  for (Value d : dims)
    t->opaqueExtents.push_back(d.is(ValueKind::Opaque) ? d.as<OpaqueObj>()
                                                       : nullptr);
  t->dtype = lang::DType(lang::ScalarType::Float32);
  if (std::optional<Value> dt = p.get("dtype")) {
    // `typing.Any` in a generic annotation: the argument's dtype, which
    // tlc does not know before the call.
    if (dt->is(ValueKind::Opaque) &&
        dt->as<OpaqueObj>()->description == "typing.Any") {
      in.anyDTypeTensors.insert(t);
      dt = in.heap.strNoCopy("float32");
    }
    // Whether toDType falls back to float32 for a dtype it cannot
    // evaluate: such a tensor's dtype is not checked at kernel calls.
    bool wasAssumed = in.instance && in.instance->assumedDType;
    if (in.instance)
      in.instance->assumedDType = false;
    std::optional<lang::DType> d = in.toDType(*dt, p.node("dtype"));
    if (in.instance) {
      if (in.instance->assumedDType)
        in.assumedDTypeTensors.insert(t);
      in.instance->assumedDType |= wasAssumed;
    }
    if (!d) {
      if (dt->isAbrupt())
        return *dt;
      return in.fail(p.node("dtype"), "unknown dtype " + in.toString(*dt, true));
    }
    t->dtype = *d;
  }
  // T.StridedTensor[shape, strides, dtype] / T.Buffer(..., strides=...):
  // one stride per dimension, in elements.
  if (std::optional<Value> st = p.get("strides"); st && !st->isNone()) {
    if (st->isAbrupt())
      return *st;
    Node at = p.node("strides");
    llvm::ArrayRef<Value> elems =
        st->isSequence() ? getElems(*st) : llvm::ArrayRef<Value>(*st);
    for (Value e : elems) {
      if (e.isIntLike() && e.getInt() >= 0)
        t->strides.push_back(in.syms.constant(e.getInt()));
      else if (e.is(ValueKind::Sym))
        t->strides.push_back(e.getSym());
      else if (e.is(ValueKind::Expr) && e.as<ExprObj>()->sym)
        t->strides.push_back(e.as<ExprObj>()->sym);
      // A stride tlc cannot evaluate (`x.stride(0)` of a torch view) is
      // the argument's own at run time, as an opaque extent is: a symbol
      // of the kernel (makeTensorFromAnnotation).
      else if (e.is(ValueKind::Opaque))
        t->strides.push_back(SymExpr());
      else if (e.isIntLike())
        return in.fail(at, "negative stride " + llvm::Twine(e.getInt()));
      else
        return in.fail(at, "strides must be integers or symbols, not '" +
                               e.getTypeName() + "'");
    }
    if (t->strides.size() != t->shape.size())
      return in.fail(at, llvm::Twine(t->strides.size()) +
                             " strides for a shape of rank " +
                             llvm::Twine(t->shape.size()) +
                             "; give one stride per dimension");
  }
  t->scope = scope;
  if (std::optional<Value> sc = p.get("scope"))
    if (sc->isStr())
      if (std::optional<MemoryScope> s = lang::parseScope(getStr(*sc)))
        t->scope = *s;
  t->range = p.call.range();
  // `T.Tensor(shape, dtype, buffer.data)` inside a kernel: the same memory
  // seen with another shape.
  if (std::optional<Value> data = p.get("data");
      data && data->is(ValueKind::Buffer) && in.tracing())
    return viewBuffer(in, data->as<BufferObj>(), t->shape, t->dtype, p.call);
  return Value::object(ValueKind::Object, t);
}

/// T.alloc_* with a shape.
Value tlc::eval::allocate(Interpreter &in, const PArgs &p, MemoryScope scope) {
  // A prim_func with no launch at all (TIR written for TVM's own passes,
  // e.g. the body an intrinsic emitter fills): TileLang accepts its
  // allocations, but there is no kernel to analyse them in (checkInKernel
  // warns once per function).
  if (!lang::isGlobalScope(scope) && !in.kernel && in.tracing() &&
      in.checkInKernel(p.info.name, p.call))
    return Value::poison();
  // Plain Python outside any prim_func (a lambda a test keeps for later):
  // no IR is being built, so the call is an inert placeholder object,
  // which cannot be iterated (Comparisons.cpp iterate).
  if (!in.tracing())
    return in.heap.opaque(
        in.heap.copyString(std::string(p.info.name) + " placeholder"));
  if (!lang::isGlobalScope(scope) && in.checkInKernel(p.info.name, p.call))
    return Value::poison();
  Value shapeV = p.getOr("shape", Value::poison());
  if (shapeV.isAbrupt())
    return shapeV;
  llvm::SmallVector<SymExpr, 4> shape;
  if (!in.toShape(shapeV, shape, p.node("shape")))
    return Value::poison();
  Value dt = p.getOr("dtype", in.heap.strNoCopy("float32"));
  std::optional<lang::DType> dtype = in.toDType(dt, p.node("dtype"));
  if (!dtype) {
    if (dt.isAbrupt())
      return dt;
    return in.fail(p.node("dtype"), "unknown dtype " + in.toString(dt, true));
  }
  if (std::optional<Value> sc = p.get("scope")) {
    if (!sc->isStr())
      return in.fail(p.node("scope"), "scope must be a string");
    std::optional<MemoryScope> s = lang::parseScope(getStr(*sc));
    if (!s)
      return in.fail(p.node("scope"),
                     "unknown memory scope '" + getStr(*sc) + "'");
    scope = *s;
  }
  // TVM's T.alloc_buffer defaults to the 'global' scope. Inside a kernel
  // such an allocation reaches TileLang's device code generators, which
  // refuse it (PrintStorageScope: "Cannot allocate global memory when
  // targeting CUDA. You must pass all global arrays as input instead"),
  // for every GPU target.
  if (lang::isGlobalScope(scope) && in.kernel)
    return in.fail(
        p.call,
        p.info.name +
            " of a 'global' buffer inside T.Kernel: TileLang cannot "
            "allocate global memory in a kernel (its code generators ask "
            "to pass every global array as an input instead); make it a "
            "parameter of the prim_func, allocate it with T.alloc_global "
            "before the T.Kernel, or give it an on-chip scope "
            "(scope=\"shared\", \"local\", \"local.fragment\")");
  BufferObj *b = in.makeBuffer("", shape, *dtype, scope, p.call, false);
  return Value::object(ValueKind::Buffer, b);
}

Value tlc::eval::allocateBarriers(Interpreter &in, const PArgs &p,
                                  MemoryScope scope) {
  if (in.checkInKernel(p.info.name, p.call))
    return Value::poison();
  Value counts = p.getOr("arrive_count", Value::poison());
  llvm::SmallVector<int64_t, 4> ints;
  if (counts.isSequence()) {
    for (Value c : getElems(counts))
      ints.push_back(c.isIntLike() ? c.getInt() : 0);
  } else {
    ints.push_back(counts.isIntLike() ? counts.getInt() : 0);
  }
  // An mbarrier counts arrivals in 20 bits; TileLang rejects a count
  // outside [1, 2^20 - 1] with a ValueError when the kernel is traced.
  llvm::SmallVector<Value, 4> given;
  if (counts.isSequence())
    llvm::append_range(given, getElems(counts));
  else
    given.push_back(counts);
  for (Value c : given) {
    if (!c.isIntLike())
      continue;
    int64_t n = c.getInt();
    if (n < 1 || n > (int64_t(1) << 20) - 1) {
      in.errorAs("ValueError", p.node("arrive_count").range(),
                 llvm::Twine(p.info.name) + ": arrive_count must be " +
                     (n < 1 ? "at least 1" : "at most 1048575") +
                     " (an mbarrier's 20-bit arrival count), got " +
                     llvm::Twine(n));
      return Value::poison();
    }
  }
  BufferObj *b = in.makeBuffer("", {in.syms.constant(ints.size())},
                               lang::DType(lang::ScalarType::UInt64), scope,
                               p.call, false);
  b->value.getDefiningOp()->setAttr("arrive_counts",
                                    in.ir->b.getDenseI64ArrayAttr(ints));
  return Value::object(ValueKind::Buffer, b);
}
