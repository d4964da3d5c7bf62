//===- Buffers.cpp - Special allocations, pointer tensors and views -------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The buffer primitives beyond T.alloc_shared/fragment/local/var/barrier:
//
//   T.alloc_cluster_barrier, T.alloc_tmem, T.alloc_reducer,
//   T.alloc_descriptor (+ the wgmma/tcgen05 spellings),
//   T.decl_buffer, T.sblock_alloc_buffer   allocations in their scopes
//   T.ptr                                  a raw pointer parameter type
//   T.make_tensor, T.match_buffer          a global tensor over a pointer
//   T.reshape, T.view                      the same memory, reshaped
//   T.clone_buffer, T.load_buffer          a new buffer filled by T.copy
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::DType;
using lang::MemoryScope;
using lang::ScalarType;

/// The product of \p dims when all are static.
static std::optional<int64_t> staticCount(llvm::ArrayRef<SymExpr> dims) {
  int64_t n = 1;
  for (SymExpr d : dims) {
    if (!d || !d.isConstant())
      return std::nullopt;
    n *= *d.getConstant();
  }
  return n;
}

Value tlc::eval::viewBuffer(Interpreter &in, BufferObj *src,
                            llvm::ArrayRef<SymExpr> shape, DType dtype,
                            Node at) {
  if (!in.usable(src))
    return Value::poison();
  in.checkBufferUse(src, at);
  auto *b = in.heap.make<BufferObj>(*src);
  b->shape.assign(shape.begin(), shape.end());
  b->dtype = dtype;
  b->hintIndex = -1;
  b->value = tile::ViewOp::create(in.ir->b, in.ir->loc(at),
                                  in.ir->bufferType(shape, dtype, src->scope),
                                  src->value);
  return Value::object(ValueKind::Buffer, b);
}

/// A one-element buffer of \p dtype in \p scope (descriptors).
static Value scalarBuffer(Interpreter &in, const PArgs &p, DType dtype,
                          MemoryScope scope) {
  if (in.checkInKernel(p.info.name, p.call))
    return Value::poison();
  BufferObj *b =
      in.makeBuffer("", {in.syms.constant(1)}, dtype, scope, p.call, false);
  return Value::object(ValueKind::Buffer, b);
}

/// `T.reshape(src, shape)` / `T.view(src, shape, dtype)`.
static Value reshapeOrView(Interpreter &in, const PArgs &p) {
  Value srcV = p.getOr("src", p.getOr("buffer", Value::poison()));
  if (srcV.isAbrupt())
    return srcV;
  if (!srcV.is(ValueKind::Buffer))
    return in.fail(p.node("src"), p.info.name + " expects a buffer, not '" +
                                      srcV.getTypeName() + "'");
  BufferObj *src = srcV.as<BufferObj>();
  llvm::SmallVector<SymExpr, 4> shape(src->shape.begin(), src->shape.end());
  if (std::optional<Value> s = p.get("shape"); s && !s->isNone()) {
    shape.clear();
    if (!in.toShape(*s, shape, p.node("shape")))
      return Value::poison();
  }
  DType dtype = src->dtype;
  if (std::optional<Value> d = p.get("dtype"); d && !d->isNone()) {
    std::optional<DType> t = in.toDType(*d, p.node("dtype"));
    if (!t)
      return in.fail(p.node("dtype"), "unknown dtype " + in.toString(*d, true));
    dtype = *t;
  }
  std::optional<int64_t> srcCount = staticCount(src->shape);
  std::optional<int64_t> dstCount = staticCount(shape);
  if (srcCount && dstCount &&
      *srcCount * src->dtype.getTotalBits() !=
          *dstCount * dtype.getTotalBits())
    return in.fail(p.call, p.info.name + " of '" + src->name + "' (" +
                               llvm::Twine(*srcCount) + " x " +
                               src->dtype.getName() + ") to " +
                               llvm::Twine(*dstCount) + " x " +
                               dtype.getName() +
                               " changes the number of bytes");
  if (!in.tracing())
    return Value::poison();
  return viewBuffer(in, src, shape, dtype, p.call);
}

/// `T.make_tensor(ptr, shape, dtype)` / `T.match_buffer(param, shape, dtype)`.
static Value pointerTensor(Interpreter &in, const PArgs &p,
                           llvm::StringRef ptrParam) {
  Value ptrV = p.getOr(ptrParam, Value::poison());
  Value shapeV = p.getOr("shape", Value::poison());
  if (ptrV.isAbrupt() || shapeV.isAbrupt())
    return Value::poison();
  llvm::SmallVector<SymExpr, 4> shape;
  if (!in.toShape(shapeV, shape, p.node("shape")))
    return Value::poison();
  Value dt = p.getOr("dtype", in.heap.strNoCopy("float32"));
  std::optional<DType> dtype = in.toDType(dt, p.node("dtype"));
  if (!dtype)
    return in.fail(p.node("dtype"), "unknown dtype " + in.toString(dt, true));
  if (!in.tracing())
    return in.fail(p.call, p.info.name + " needs a kernel");
  // A tensor parameter passed where a pointer is expected views the same
  // memory (T.match_buffer(A, ...) on a T.handle-like parameter).
  if (ptrV.is(ValueKind::Buffer))
    return viewBuffer(in, ptrV.as<BufferObj>(), shape, *dtype, p.call);
  Scalar s = in.toScalar(ptrV, p.node(ptrParam));
  if (!s)
    return Value::poison();
  mlir::Location l = in.ir->loc(p.call);
  mlir::Value addr = in.ir->convert(s.value, in.ir->b.getI64Type(), l);
  auto *b = in.heap.make<BufferObj>();
  b->shape.assign(shape.begin(), shape.end());
  b->dtype = *dtype;
  b->scope = MemoryScope::Global;
  b->range = p.call.range();
  b->value = tile::MakeTensorOp::create(
      in.ir->b, l, in.ir->bufferType(shape, *dtype, MemoryScope::Global), addr);
  return Value::object(ValueKind::Buffer, b);
}

/// The on-chip scopes a tile copy fills element by element.
static bool isTileScope(MemoryScope s) {
  return lang::isSharedScope(s) || s == MemoryScope::Local ||
         s == MemoryScope::Fragment;
}

/// `T.clone_buffer(buffer)`: a buffer of \p buffer's shape, dtype and scope;
/// `T.load_buffer(buffer, offsets, shape, target)`: a buffer of \p shape in
/// scope \p target. Either is then filled by the tile copy of the buffer
/// (from \p offsets on), as `T.alloc_buffer` followed by `T.copy` would be.
static Value cloneOrLoadBuffer(Interpreter &in, const PArgs &p) {
  if (in.checkInKernel(p.info.name, p.call))
    return Value::poison();
  Value srcV = p.getOr("buffer", Value::poison());
  if (srcV.isAbrupt())
    return srcV;
  if (!srcV.is(ValueKind::Buffer))
    return in.fail(p.node("buffer"), p.info.name + " expects a buffer, not '" +
                                         srcV.getTypeName() + "'");
  BufferObj *src = srcV.as<BufferObj>();
  llvm::SmallVector<SymExpr, 4> shape(src->shape.begin(), src->shape.end());
  MemoryScope scope = src->scope;
  Value from = srcV;
  if (p.info.id == BuiltinId::LoadBuffer) {
    Value shapeV = p.getOr("shape", Value::poison());
    Value offsets = p.getOr("offsets", Value::poison());
    Value target = p.getOr("target", in.heap.strNoCopy("shared"));
    if (shapeV.isAbrupt() || offsets.isAbrupt() || target.isAbrupt())
      return Value::poison();
    shape.clear();
    if (!in.toShape(shapeV, shape, p.node("shape")))
      return Value::poison();
    if (!offsets.isSequence())
      return in.fail(p.node("offsets"),
                     "T.load_buffer: offsets must be a tuple or list of "
                     "indices, not '" + offsets.getTypeName() + "'");
    llvm::ArrayRef<Value> starts = getElems(offsets);
    if (starts.size() != src->shape.size() || shape.size() != starts.size())
      return in.fail(p.call, "T.load_buffer: buffer '" + src->name + "' has " +
                                 llvm::Twine(src->shape.size()) +
                                 " dimensions; got " +
                                 llvm::Twine(starts.size()) + " offsets and " +
                                 llvm::Twine(shape.size()) + " extents");
    if (!target.isStr())
      return in.fail(p.node("target"), "T.load_buffer: target must be a "
                                       "memory scope string");
    std::optional<MemoryScope> s = lang::parseScope(getStr(target));
    if (!s)
      return in.fail(p.node("target"), "unknown memory scope '" +
                                           getStr(target) + "'");
    scope = *s;
    if (!isTileScope(scope))
      return in.fail(p.node("target"),
                     "T.load_buffer loads into on-chip memory ('shared', "
                     "'shared.dyn', 'local', 'local.fragment'), not '" +
                         getStr(target) + "'");
    from = in.makeRegion(src, in.heap.tuple(starts), p.node("offsets"));
    if (!from.is(ValueKind::Region))
      return from.isAbrupt() ? from : Value::poison();
  }
  if (!isTileScope(scope))
    return in.fail(p.node("buffer"),
                   "T.clone_buffer copies a buffer in on-chip memory "
                   "('shared', 'shared.dyn', 'local', 'local.fragment'); '" +
                       src->name + "' is in '" +
                       lang::getScopeString(scope) + "'");
  BufferObj *dst = in.makeBuffer("", shape, src->dtype, scope, p.call, false);
  Value dstV = Value::object(ValueKind::Buffer, dst);
  CallArgs copy;
  copy.pos = {from, dstV};
  copy.posNodes = {p.node("buffer"), p.call};
  Value r = in.callPrimitive(*lang::lookupBuiltin("T.copy"), copy, p.call);
  if (r.isAbrupt() || r.isPoison())
    return r;
  return dstV;
}

std::optional<Value> Interpreter::callBufferPrimitive(const PArgs &p) {
  Node at = p.call;
  switch (p.info.id) {
  case BuiltinId::AllocClusterBarrier:
    return allocateBarriers(*this, p, MemoryScope::ClusterBarrier);
  case BuiltinId::AllocTmem: {
    Value shapeV = p.getOr("shape", Value::poison());
    llvm::SmallVector<SymExpr, 4> shape;
    if (!shapeV.isAbrupt() && toShape(shapeV, shape, p.node("shape")) &&
        shape.size() < 2)
      return fail(p.node("shape"), "T.alloc_tmem needs a shape of rank 2 or "
                                   "more (rows, columns)");
    return allocate(*this, p, MemoryScope::TensorMemory);
  }
  // Ascend (BuiltinsAscend.def): buffers of scopes no tlc target has.
  case BuiltinId::AllocL1:
    return allocate(*this, p, MemoryScope::AscendL1);
  case BuiltinId::AllocL0A:
    return allocate(*this, p, MemoryScope::AscendL0A);
  case BuiltinId::AllocL0B:
    return allocate(*this, p, MemoryScope::AscendL0B);
  case BuiltinId::AllocL0C:
    return allocate(*this, p, MemoryScope::AscendL0C);
  case BuiltinId::AllocUb:
    return allocate(*this, p, MemoryScope::AscendUB);
  case BuiltinId::AllocL0ASf:
  case BuiltinId::AllocL0BSf:
    return allocScaleHandle(*this, p);
  case BuiltinId::AllocReducer: {
    Value op = p.getOr("op", heap.strNoCopy("sum"));
    if (op.isStr() && !llvm::is_contained({"sum", "max", "min", "bitand",
                                           "bitor", "bitxor"},
                                          getStr(op)))
      return fail(p.node("op"), "unknown reducer op '" + getStr(op) +
                                    "'; expected sum, max, min, bitand, "
                                    "bitor or bitxor");
    Value r = allocate(*this, p, MemoryScope::Reducer);
    if (r.is(ValueKind::Buffer) && op.isStr())
      r.as<BufferObj>()->value.getDefiningOp()->setAttr(
          "reducer", ir->b.getStringAttr(getStr(op)));
    return r;
  }
  case BuiltinId::AllocDescriptor: {
    Value kind = p.getOr("kind", heap.strNoCopy("wgmma"));
    MemoryScope scope = MemoryScope::DescriptorWgmma;
    if (kind.isStr() && getStr(kind) == "tcgen05_smem")
      scope = MemoryScope::DescriptorTcgen05Smem;
    else if (kind.isStr() && getStr(kind) == "tcgen05_instr")
      scope = MemoryScope::DescriptorTcgen05Instr;
    else if (!kind.isStr() || getStr(kind) != "wgmma")
      return fail(p.node("kind"), "descriptor kind must be 'wgmma', "
                                  "'tcgen05_smem' or 'tcgen05_instr'");
    Value dt = p.getOr("dtype", heap.strNoCopy("uint64"));
    std::optional<DType> dtype = toDType(dt);
    return scalarBuffer(*this, p, dtype ? *dtype : DType(ScalarType::UInt64),
                        scope);
  }
  case BuiltinId::AllocWgmmaDesc:
  case BuiltinId::AllocTcgen05SmemDesc:
  case BuiltinId::AllocTcgen05InstrDesc: {
    MemoryScope scope = p.info.id == BuiltinId::AllocWgmmaDesc
                            ? MemoryScope::DescriptorWgmma
                        : p.info.id == BuiltinId::AllocTcgen05SmemDesc
                            ? MemoryScope::DescriptorTcgen05Smem
                            : MemoryScope::DescriptorTcgen05Instr;
    Value dt = p.getOr("dtype", heap.strNoCopy("uint64"));
    std::optional<DType> dtype = toDType(dt);
    return scalarBuffer(*this, p, dtype ? *dtype : DType(ScalarType::UInt64),
                        scope);
  }
  case BuiltinId::DeclBuffer:
  case BuiltinId::SblockAllocBuffer: {
    // With data=, a declaration names memory that exists already.
    if (std::optional<Value> data = p.get("data"))
      if (data->is(ValueKind::Buffer))
        return pointerTensor(*this, p, "data");
    Value sc = p.getOr("scope", heap.strNoCopy("global"));
    if (kernel && sc.isStr() && getStr(sc) == "global")
      return fail(at, p.info.name + " of a global buffer inside a T.Kernel "
                                    "needs data=; allocate global memory "
                                    "with T.alloc_global before the kernel");
    return allocate(*this, p, MemoryScope::Global);
  }
  case BuiltinId::Ptr: {
    // T.ptr(...) used as an annotation: a raw address parameter.
    return Value::dtype(DType(ScalarType::Handle));
  }
  case BuiltinId::MakeTensor:
    return pointerTensor(*this, p, "ptr");
  case BuiltinId::MatchBuffer:
    return pointerTensor(*this, p, "param");
  case BuiltinId::Reshape:
  case BuiltinId::View:
    return reshapeOrView(*this, p);
  case BuiltinId::CloneBuffer:
  case BuiltinId::LoadBuffer:
    return cloneOrLoadBuffer(*this, p);
  default:
    return std::nullopt;
  }
}
