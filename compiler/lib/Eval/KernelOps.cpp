//===- KernelOps.cpp - Dispatch of the kernel-level T.* primitives --------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The dispatch of every kernel-level T.* primitive to its builder, with
// the checks they share (unpacked float operands). Allocations are in
// Allocations.cpp, `T.Kernel` and loops in KernelFrames.cpp, tile
// operations in TileCopy.cpp, TileGemm.cpp, TileFillReduce.cpp and
// AtomicAdd.cpp.
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

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// The tile operations that compute with their operands' values: an
/// operand of unpacked 4/6-bit float codes would be computed on as bytes.
/// The block-scaled GEMMs are not among them: unpacked codes are an
/// operand format of their instructions (TileLang's kind::mxf8f6f4 MMAs
/// read float4_e2m1_unpacked tiles, tcgen05's descriptors encode it).
static bool computesOnElements(lang::BuiltinId id) {
  using lang::BuiltinId;
  switch (id) {
  case BuiltinId::Gemm:
  case BuiltinId::Tcgen05Gemm:
  case BuiltinId::GemmSp:
  case BuiltinId::WgmmaGemm:
  case BuiltinId::Fill:
  case BuiltinId::ReduceMax:
  case BuiltinId::ReduceMin:
  case BuiltinId::ReduceSum:
  case BuiltinId::ReduceAbssum:
  case BuiltinId::ReduceAbsmax:
  case BuiltinId::ReduceBitand:
  case BuiltinId::ReduceBitor:
  case BuiltinId::ReduceBitxor:
  case BuiltinId::Reduce:
  case BuiltinId::ReduceArgmax:
  case BuiltinId::ReduceArgmin:
  case BuiltinId::Cumsum:
  case BuiltinId::AtomicAdd:
  case BuiltinId::AtomicAddx2:
  case BuiltinId::AtomicAddx4:
    return true;
  default:
    return false;
  }
}

/// The primitives TileLang's frontend refuses on a buffer whose scope is
/// still "auto" (T.auto_alloc; InferMemoryScope decides it only after the
/// kernel is traced): reductions and T.print dispatch on the scope.
static bool needsConcreteScope(lang::BuiltinId id) {
  using lang::BuiltinId;
  switch (id) {
  case BuiltinId::ReduceMax:
  case BuiltinId::ReduceMin:
  case BuiltinId::ReduceSum:
  case BuiltinId::ReduceAbssum:
  case BuiltinId::ReduceAbsmax:
  case BuiltinId::ReduceBitand:
  case BuiltinId::ReduceBitor:
  case BuiltinId::ReduceBitxor:
  case BuiltinId::Reduce:
  case BuiltinId::Print:
    return true;
  default:
    return false;
  }
}

std::optional<Value> Interpreter::callKernelPrimitive(const PArgs &p) {
  Node at = p.call;
  if (needsConcreteScope(p.info.id))
    for (const Value &v : p.args.pos) {
      BufferObj *buf = v.is(ValueKind::Buffer)   ? v.as<BufferObj>()
                       : v.is(ValueKind::Region) ? v.as<RegionObj>()->buffer
                                                 : nullptr;
      if (buf && buf->autoScope)
        return raiseDefinite(
            "ValueError",
            p.info.name + " of '" + buf->name +
                "', a T.auto_alloc buffer: its scope is 'auto' while the "
                "kernel is traced (TileLang's InferMemoryScope decides it "
                "afterwards), and this operation needs a concrete one; "
                "allocate it with T.alloc_fragment or T.alloc_shared",
            at);
    }
  // Unpacked float codes are storage: TileLang has no arithmetic on them
  // and tlc no MMA that reads them (f8f6f4 kinds), so an operation that
  // computes with an operand's values refuses them (T.clear writes code 0,
  // +0.0, and stays allowed).
  if (computesOnElements(p.info.id)) {
    auto check = [&](const Value &v) -> bool {
      BufferObj *buf = nullptr;
      if (v.is(ValueKind::Buffer))
        buf = v.as<BufferObj>();
      else if (v.is(ValueKind::Region))
        buf = v.as<RegionObj>()->buffer;
      if (!buf || !buf->dtype.isUnpackedFloat())
        return true;
      error(at, p.info.name + " of '" + buf->name + "' (" +
                    buf->dtype.getName() +
                    "): unpacked float codes are storage only (T.copy, "
                    "T.reinterpret, T.Cast); convert them to a float tile "
                    "first");
      return false;
    };
    for (const Value &v : p.args.pos)
      if (!check(v))
        return Value::poison();
    for (const auto &kv : p.args.kw)
      if (!check(kv.second))
        return Value::poison();
  }
  // The block-scaled GEMMs take unpacked codes as an operand format, which
  // no tlc target generates yet: the kernel checks clean and is refused
  // when built.
  if (p.info.id == BuiltinId::GemmBlockscaled ||
      p.info.id == BuiltinId::MmaGemmBlockscaled ||
      p.info.id == BuiltinId::Tcgen05GemmBlockscaled)
    for (const Value &v : p.args.pos) {
      BufferObj *buf = v.is(ValueKind::Buffer)   ? v.as<BufferObj>()
                       : v.is(ValueKind::Region) ? v.as<RegionObj>()->buffer
                                                 : nullptr;
      if (!buf || !buf->dtype.isUnpackedFloat())
        continue;
      markUnbuildable(at, "tlc.unbuildable",
                      (p.info.name + " of the " + buf->dtype.getName() +
                       " operand '" + buf->name +
                       "': no tlc target generates that operand format yet")
                          .str());
      break;
    }
  switch (p.info.id) {
  case BuiltinId::Tensor:
  case BuiltinId::Buffer:
  case BuiltinId::StridedTensor:
    return makeTensorType(*this, p, MemoryScope::Global);
  case BuiltinId::SharedBuffer:
    return makeTensorType(*this, p, MemoryScope::SharedDyn);
  case BuiltinId::FragmentBuffer:
    return makeTensorType(*this, p, MemoryScope::Fragment);
  case BuiltinId::LocalBuffer:
    return makeTensorType(*this, p, MemoryScope::Local);
  case BuiltinId::Empty: {
    if (!tracing())
      return fail(at, "T.empty can only be used in an eager @tilelang.jit "
                      "function");
    llvm::ArrayRef<Value> dims = p.rest("shape");
    Value dt = p.getOr("dtype", heap.strNoCopy("float32"));
    // T.empty(shape, dtype) passes the dtype positionally.
    if (!p.get("dtype") && dims.size() >= 2 &&
        (dims.back().is(ValueKind::DType) || dims.back().isStr() ||
         dims.back().is(ValueKind::Opaque) ||
         (dims.size() == 2 && dims[0].isSequence()))) {
      dt = dims.back();
      dims = dims.drop_back();
    }
    Value shapeV = dims.size() == 1 && dims[0].isSequence()
                       ? dims[0]
                       : heap.tuple(dims);
    llvm::SmallVector<SymExpr, 4> shape;
    if (!toShape(shapeV, shape, at))
      return Value::poison();
    std::optional<lang::DType> dtype = toDType(dt, p.node("dtype"));
    if (!dtype)
      return dt.isAbrupt() ? dt
                           : fail(p.node("dtype"),
                                  "unknown dtype " + toString(dt, true));
    BufferObj *b = makeBuffer("", shape, *dtype, MemoryScope::Global, at, true);
    instance->outputs.push_back(b);
    return Value::object(ValueKind::Buffer, b);
  }
  case BuiltinId::AllocShared:
    return allocate(*this, p, MemoryScope::SharedDyn);
  case BuiltinId::AllocFragment:
    return allocate(*this, p, MemoryScope::Fragment);
  case BuiltinId::AllocLocal:
    return allocate(*this, p, MemoryScope::Local);
  case BuiltinId::AutoAlloc:
    return autoAllocate(*this, p);
  case BuiltinId::AllocGlobal:
    return allocate(*this, p, MemoryScope::Global);
  case BuiltinId::AllocBuffer:
    return allocate(*this, p, MemoryScope::Global);
  case BuiltinId::AllocVar: {
    // A prim_func without a T.Kernel is host code: a variable there is a
    // scalar of the host function (what TileLang's TIR holds too).
    if (!tracing() && checkInKernel("T.alloc_var", at))
      return Value::poison();
    Value dt = p.getOr("dtype", Value::poison());
    std::optional<lang::DType> dtype = toDType(dt, p.node("dtype"));
    if (!dtype)
      return dt.isAbrupt() ? dt
                           : fail(p.node("dtype"),
                                  "unknown dtype " + toString(dt, true));
    Value init = p.getOr("init", Value::none());
    for (Value extra : p.rest("args")) {
      if (extra.isStr())
        continue; // a scope string
      init = extra;
    }
    mlir::Value initValue;
    if (!init.isNone() && !init.isAbrupt()) {
      mlir::Type want = ir->valueType(*dtype);
      Scalar s = toScalar(init, p.node("init"), want);
      if (s)
        initValue = ir->convert(s.value, want, ir->loc(at),
                                s.dtype.isUnsignedInteger());
    }
    // In a T.Parallel body every iteration has its own scalar (TileLang
    // lowers it to a local of the thread running the iteration). A
    // parallel body holds no allocation, so the variable is allocated
    // before the outermost enclosing T.Parallel and its initial value is
    // stored where the call stands, in every iteration.
    mlir::Operation *outerParallel = nullptr;
    if (tracing())
      for (mlir::Operation *o = ir->b.getInsertionBlock()->getParentOp();
           o && !mlir::isa<tile::KernelOp, tile::FuncOp>(o);
           o = o->getParentOp())
        if (mlir::isa<tile::ParallelOp>(o))
          outerParallel = o;
    if (outerParallel) {
      BufferObj *b;
      {
        mlir::OpBuilder::InsertionGuard guard(ir->b);
        ir->b.setInsertionPoint(outerParallel);
        b = makeBuffer("", {syms.constant(1)}, *dtype, MemoryScope::LocalVar,
                       at, false, mlir::Value());
      }
      if (initValue) {
        mlir::Location l = ir->loc(at);
        tile::StoreOp::create(ir->b, l, initValue, b->value,
                              mlir::ValueRange{ir->constIndex(0, l)});
      }
      return Value::object(ValueKind::Buffer, b);
    }
    BufferObj *b = makeBuffer("", {syms.constant(1)}, *dtype,
                              MemoryScope::LocalVar, at, false, initValue);
    return Value::object(ValueKind::Buffer, b);
  }
  case BuiltinId::AllocBarrier:
    return allocateBarriers(*this, p, MemoryScope::Barrier);
  case BuiltinId::Kernel:
  case BuiltinId::ClusterKernel:
  case BuiltinId::CUDASourceCodeKernel:
  case BuiltinId::PersistentKernel:
  case BuiltinId::MixedKernel:
    return makeKernelFrame(p);
  case BuiltinId::Parallel: {
    auto *loop = heap.make<LoopFrameObj>();
    loop->loopKind = LoopKind::Parallel;
    loop->call = at;
    for (Value e : p.rest("extents")) {
      if (e.isAbrupt())
        return e;
      loop->starts.push_back(Value::integer(0));
      loop->stops.push_back(e);
      loop->steps.push_back(Value::integer(1));
    }
    if (loop->stops.empty())
      return fail(at, "T.Parallel needs at least one extent");
    if (std::optional<Value> f = p.get("loop_layout"))
      setParallelLoopLayout(*this, *loop, *f, p.node("loop_layout"));
    return heap.obj(ObjKind::LoopFrame, loop);
  }
  case BuiltinId::Grid: {
    auto *loop = heap.make<LoopFrameObj>();
    loop->loopKind = LoopKind::Serial;
    loop->call = at;
    for (Value e : p.rest("extents")) {
      loop->starts.push_back(Value::integer(0));
      loop->stops.push_back(e);
      loop->steps.push_back(Value::integer(1));
    }
    return heap.obj(ObjKind::LoopFrame, loop);
  }
  case BuiltinId::Pipelined:
    return makeRangeLoop(*this, p, LoopKind::Pipelined);
  case BuiltinId::ParallelFor: {
    // TIR's parallel-kind loop: inside a kernel TileLang lays it out as a
    // T.Parallel (both are ForKind.PARALLEL loops to its layout
    // inference); one from 0 with step 1 is one here too.
    Value loop = makeRangeLoop(*this, p, LoopKind::Serial);
    if (loop.isAbrupt() || !kernel)
      return loop;
    auto *frame = loop.as<LoopFrameObj>();
    Value start = frame->starts[0], step = frame->steps[0];
    if (start.isIntLike() && start.getInt() == 0 && step.isIntLike() &&
        step.getInt() == 1)
      frame->loopKind = LoopKind::Parallel;
    return loop;
  }
  case BuiltinId::Serial:
    return makeRangeLoop(*this, p, LoopKind::Serial);
  case BuiltinId::Unroll:
    return makeRangeLoop(*this, p, LoopKind::Unroll);
  case BuiltinId::Vectorized:
    return makeRangeLoop(*this, p, LoopKind::Vectorized);
  case BuiltinId::Copy:
    return tileCopy(*this, p);
  case BuiltinId::Gemm:
  case BuiltinId::Tcgen05Gemm:
    // T.tcgen05_gemm: T.gemm into tensor memory with its mbar (Blackwell).
    return tileGemm(*this, p);
  case BuiltinId::GemmSp:
    return tileGemmSp(*this, p);
  case BuiltinId::GemmBlockscaled:
  case BuiltinId::MmaGemmBlockscaled:
    return tileGemmBlockscaled(*this, p);
  case BuiltinId::WgmmaGemm: {
    // T.wgmma_gemm: T.gemm on Hopper's wgmma only (tile.wgmma_only); layout
    // inference treats it as T.gemm, a target without wgmma refuses it.
    Value r = tileGemm(*this, p);
    mlir::Block *block = ir->b.getInsertionBlock();
    if (!r.isAbrupt() && !r.isPoison() && block && !block->empty())
      if (auto gemm = llvm::dyn_cast<tile::GemmOp>(block->back()))
        gemm->setAttr("tile.wgmma_only", ir->b.getUnitAttr());
    return r;
  }
  case BuiltinId::Fill:
    return tileFill(*this, p, false);
  case BuiltinId::Clear:
    return tileFill(*this, p, true);
  case BuiltinId::ReduceMax:
    return tileReduce(*this, p, tile::ReduceKind::Max);
  case BuiltinId::ReduceMin:
    return tileReduce(*this, p, tile::ReduceKind::Min);
  case BuiltinId::ReduceSum:
    return tileReduce(*this, p, tile::ReduceKind::Sum);
  case BuiltinId::ReduceAbssum:
    return tileReduce(*this, p, tile::ReduceKind::AbsSum);
  case BuiltinId::ReduceAbsmax:
    return tileReduce(*this, p, tile::ReduceKind::AbsMax);
  case BuiltinId::ReduceBitand:
    return tileReduce(*this, p, tile::ReduceKind::BitAnd);
  case BuiltinId::ReduceBitor:
    return tileReduce(*this, p, tile::ReduceKind::BitOr);
  case BuiltinId::ReduceBitxor:
    return tileReduce(*this, p, tile::ReduceKind::BitXor);
  case BuiltinId::Reduce: {
    Value t = p.getOr("reduce_type", Value::poison());
    if (!t.isStr())
      return fail(p.node("reduce_type"), "reduce_type must be a string");
    std::optional<tile::ReduceKind> k =
        llvm::StringSwitch<std::optional<tile::ReduceKind>>(getStr(t))
            .Case("sum", tile::ReduceKind::Sum)
            .Case("max", tile::ReduceKind::Max)
            .Case("min", tile::ReduceKind::Min)
            .Case("abssum", tile::ReduceKind::AbsSum)
            .Case("absmax", tile::ReduceKind::AbsMax)
            .Case("bitand", tile::ReduceKind::BitAnd)
            .Case("bitor", tile::ReduceKind::BitOr)
            .Case("bitxor", tile::ReduceKind::BitXor)
            .Default(std::nullopt);
    if (!k)
      return fail(p.node("reduce_type"),
                  "unknown reduce_type '" + getStr(t) + "'");
    return tileReduce(*this, p, *k);
  }
  case BuiltinId::ReduceArgmax:
    return tileArgReduce(*this, p, /*isMax=*/true);
  case BuiltinId::ReduceArgmin:
    return tileArgReduce(*this, p, /*isMax=*/false);
  case BuiltinId::Cumsum:
    return tileCumsum(*this, p);
  case BuiltinId::Transpose:
    return tileTranspose(*this, p);
  case BuiltinId::AtomicAdd:
    return tileAtomicAdd(*this, p);
  case BuiltinId::AtomicAddx2:
    return tileAtomicAdd(*this, p, 2);
  case BuiltinId::AtomicAddx4:
    return tileAtomicAdd(*this, p, 4);
  case BuiltinId::AsyncCopy:
    return tileAsyncCopy(*this, p);
  case BuiltinId::TmaCopy:
    return tileTmaCopy(*this, p);
  case BuiltinId::GetThreadBinding: {
    if (checkInKernel("T.get_thread_binding", at))
      return Value::poison();
    Value d = p.getOr("dim", Value::integer(0));
    int64_t dim = d.isIntLike() ? d.getInt() : 0;
    if (dim < 0 || dim > 2)
      return fail(p.node("dim"), "thread dimension must be 0, 1 or 2");
    mlir::Value v = tile::ThreadBindingOp::create(ir->b, 
        ir->loc(at), ir->b.getIndexType(), ir->b.getI64IntegerAttr(dim));
    static const char *const names[] = {"tx", "ty", "tz"};
    return wrapScalar({v, lang::DType(lang::ScalarType::Int32),
                       syms.freshSymbol(names[dim])});
  }
  case BuiltinId::GetThreadBindings: {
    if (checkInKernel("T.get_thread_bindings", at))
      return Value::poison();
    llvm::SmallVector<Value, 3> vs;
    static const char *const names[] = {"tx", "ty", "tz"};
    for (int dim = 0; dim < 3; ++dim) {
      mlir::Value v = tile::ThreadBindingOp::create(ir->b, 
          ir->loc(at), ir->b.getIndexType(), ir->b.getI64IntegerAttr(dim));
      vs.push_back(wrapScalar({v, lang::DType(lang::ScalarType::Int32),
                               syms.freshSymbol(names[dim])}));
    }
    return heap.list(vs);
  }
  case BuiltinId::GetBlockBinding: {
    if (checkInKernel("T.get_block_binding", at))
      return Value::poison();
    Value d = p.getOr("dim", Value::integer(0));
    int64_t dim = d.isIntLike() ? d.getInt() : 0;
    if (dim < 0 || dim >= int64_t(kernel->blockVars.size()))
      return fail(p.node("dim"), "block dimension out of range");
    return kernel->blockVars[dim];
  }
  case BuiltinId::GetBlockBindings:
    if (checkInKernel("T.get_block_bindings", at))
      return Value::poison();
    return heap.list(kernel->blockVars);
  case BuiltinId::GetThreadExtent:
    if (checkInKernel("T.get_thread_extent", at))
      return Value::poison();
    return Value::integer(kernel->threads);
  case BuiltinId::UseSwizzle: {
    if (checkInKernel("T.use_swizzle", at))
      return Value::poison();
    Value ps = p.getOr("panel_size", Value::poison());
    if (!ps.isIntLike() || ps.getInt() <= 0)
      return ps.isAbrupt() ? ps
                           : fail(p.node("panel_size"),
                                  "panel_size must be a positive integer");
    Value order = p.getOr("order", heap.strNoCopy("row"));
    tile::SwizzleOrder o = tile::SwizzleOrder::Row;
    if (order.isStr() && getStr(order) == "column")
      o = tile::SwizzleOrder::Column;
    else if (order.isStr() && getStr(order) == "mlx")
      o = tile::SwizzleOrder::Mlx;
    auto &B = ir->b;
    tile::UseSwizzleOp::create(B, 
        ir->loc(at), B.getI64IntegerAttr(ps.getInt()),
        tile::SwizzleOrderAttr::get(B.getContext(), o),
        B.getBoolAttr(p.flag("enable", true)));
    return Value::none();
  }
  case BuiltinId::AnnotateLayout: {
    if (checkInKernel("T.annotate_layout", at))
      return Value::poison();
    Value m = p.getOr("layout_map", Value::poison());
    if (!m.is(ValueKind::Dict))
      return m.isAbrupt() ? m
                          : fail(p.node("layout_map"),
                                 "T.annotate_layout expects a dict from "
                                 "buffers to layouts");
    for (auto &kv : m.as<DictObj>()->items) {
      if (!kv.first.is(ValueKind::Buffer) || kv.second.isAbrupt())
        continue;
      BufferObj *b = kv.first.as<BufferObj>();
      checkBufferUse(b, at);
      if (!usable(b))
        continue;
      mlir::Attribute layout = ir->b.getStringAttr("layout");
      if (kv.second.isObj(ObjKind::Layout)) {
        LayoutObj *lo = kv.second.as<LayoutObj>();
        // Two elements in one place of shared memory: each write would
        // clobber the other's.
        // TileLang rejects it with a ValueError when it lowers the kernel
        // (scripts match "shared buffer `NAME`" and "must be injective").
        if (!lo->notInjective.empty() && !lang::isFragmentScope(b->scope)) {
          errorAtCompileAs(
              "ValueError", at.range(),
              "the layout annotated for " +
                  llvm::Twine(lang::isSharedScope(b->scope) ? "shared " : "") +
                  "buffer `" + b->name + "` is not injective " +
                  lo->notInjective +
                  " (a buffer's layout must be injective: one place holds "
                  "one element)");
          continue;
        }
        layout = lo->attr ? lo->attr : ir->b.getStringAttr(lo->description);
        if (!lo->whyOpaque.empty() &&
            !(lo->whyOpaque == "its shape is not static" &&
              shapeFromUncalledParams(*this, b)))
          warning(at, "the layout annotated for '" + b->name +
                          "' is not used: " + lo->whyOpaque);
      } else if (kv.second.is(ValueKind::Function)) {
        // A callable is wrapped as T.Layout(buffer.shape, fn).
        Value shape = getAttr(kv.first, "shape", at);
        CallArgs args;
        args.pos = {shape, kv.second};
        args.posNodes = {at, at};
        Value lv = callPrimitive(lang::getBuiltin(BuiltinId::Layout), args, at);
        if (lv.isObj(ObjKind::Layout) && lv.as<LayoutObj>()->attr)
          layout = lv.as<LayoutObj>()->attr;
      }
      auto annotation =
          tile::AnnotateLayoutOp::create(ir->b, ir->loc(at), b->value, layout);
      if (kv.second.isObj(ObjKind::Layout) &&
          kv.second.as<LayoutObj>()->description ==
              "make_cutlass_metadata_layout")
        annotation->setAttr(kMetadataOrderAttr, ir->b.getUnitAttr());
      // Fragment.bind_thread_range: the threads the fragment is numbered
      // in (the GPU targets check its users run there).
      if (kv.second.isObj(ObjKind::Layout))
        if (auto range = kv.second.as<LayoutObj>()->threadRange)
          annotation->setAttr(
              "thread_range",
              ir->b.getDenseI64ArrayAttr({range->first, range->second}));
    }
    return Value::none();
  }
  case BuiltinId::SyncThreads: {
    if (checkInKernel("T.sync_threads", at))
      return Value::poison();
    auto op = tile::SyncThreadsOp::create(ir->b, ir->loc(at), mlir::IntegerAttr(),
                                                mlir::IntegerAttr());
    if (std::optional<Value> id = p.get("barrier_id"))
      if (id->isIntLike())
        op->setAttr("barrier_id", ir->b.getI64IntegerAttr(id->getInt()));
    if (std::optional<Value> c = p.get("arrive_count"))
      if (c->isIntLike())
        op->setAttr("arrive_count", ir->b.getI64IntegerAttr(c->getInt()));
    return Value::none();
  }
  case BuiltinId::Print: {
    if (checkInKernel("T.print", at))
      return Value::poison();
    Value obj = p.getOr("obj", Value::none());
    Value msg = p.getOr("msg", heap.strNoCopy(""));
    mlir::Value v;
    if (obj.is(ValueKind::Buffer) ||
        (obj.is(ValueKind::Region) && !obj.as<RegionObj>()->isElement)) {
      v = regionValue(asRegion(obj, p.node("obj")), p.node("obj"));
      if (!v)
        return Value::poison();
    } else if (!obj.isNone() && !obj.isStr()) {
      Scalar s = toScalar(obj, p.node("obj"));
      if (!s)
        return Value::poison();
      v = s.value;
    } else if (obj.isStr() && msg.isStr() && getStr(msg).empty()) {
      msg = obj;
    }
    tile::PrintOp::create(ir->b, 
        ir->loc(at), ir->b.getStringAttr(msg.isStr() ? getStr(msg) : ""), v);
    return Value::none();
  }
  case BuiltinId::DeviceAssert: {
    if (checkInKernel("T.device_assert", at))
      return Value::poison();
    Value c = p.getOr("condition", Value::poison());
    Truth t = truth(c, p.node("condition"));
    if (t == Truth::Abrupt)
      return c;
    if (t != Truth::IR)
      return Value::none();
    Scalar s = toScalar(c, p.node("condition"));
    if (!s)
      return Value::poison();
    Value msg = p.getOr("msg", heap.strNoCopy(""));
    tile::DeviceAssertOp::create(ir->b, 
        ir->loc(at), ir->convert(s.value, ir->b.getI1Type(), ir->loc(at)),
        ir->b.getStringAttr(msg.isStr() ? getStr(msg) : ""));
    return Value::none();
  }
  default:
    return std::nullopt;
  }
}
