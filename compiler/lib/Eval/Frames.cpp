//===- Frames.cpp - with-frames, launch queries and T.Persistent ----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The `with` frames other than T.Kernel and the launch-frame queries:
//
//   with T.ws(1):            a tile.if on the thread's warp group
//   with T.If(c): with T.Then(): ... with T.Else(): ...
//                            TVM's frame form of `if`, a tile.if
//   with T.While(c):         a tile.while whose condition is re-evaluated
//   with T.Assert(c, msg):   a device assertion, then the body
//   with T.sblock()/T.attr(...)/T.ws_op(...):
//                            transparent: the body is traced as written
//   T.launch_thread / T.thread_binding
//                            the block or thread index named by a tag
//   T.get_thread_extents / T.get_block_extent(s)
//   for bx, by in T.Persistent(domain, wave_size, index, group_size):
//                            a serial loop over waves of tiles, the last
//                            dimension visited in groups
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;

/// Threads in one warp group (four warps of 32).
static constexpr int64_t kWarpGroupThreads = 128;

/// The thread or block index a TVM thread tag names (`threadIdx.x`,
/// `blockIdx.y`); nullopt for other tags.
static std::optional<std::pair<bool, unsigned>> parseThreadTag(
    llvm::StringRef tag) {
  bool isThread = tag.consume_front("threadIdx.");
  if (!isThread && !tag.consume_front("blockIdx."))
    return std::nullopt;
  if (tag.size() != 1 || tag[0] < 'x' || tag[0] > 'z')
    return std::nullopt;
  return std::make_pair(isThread, unsigned(tag[0] - 'x'));
}

/// The index value of a thread tag inside the current kernel, the index of
/// the function's raw TIR launch (T.launch_thread before any T.Kernel,
/// with its \p extent), or a run-time symbol named after the tag outside
/// of any traced function.
static Value threadTagValue(Interpreter &in, llvm::StringRef tag,
                            Value extent, Node at) {
  std::optional<std::pair<bool, unsigned>> t = parseThreadTag(tag);
  if (!t) {
    in.error(at, "unknown thread tag '" + tag +
                     "'; expected threadIdx.x/y/z or blockIdx.x/y/z");
    return Value::poison();
  }
  if (!in.tracing() || !in.ir || !in.ir->currentFunc)
    return Value::sym(in.syms.freshSymbol(t->first ? "tx" : "bx"));
  if (!in.kernel || (in.instance->rawLaunch &&
                     in.kernel == &in.instance->rawLaunch->kernel))
    return in.rawLaunchIndex(t->first, t->second, extent, at);
  if (!t->first) {
    if (t->second >= in.kernel->blockVars.size()) {
      in.error(at, "'" + tag + "' is not a dimension of this kernel's grid");
      return Value::poison();
    }
    return in.kernel->blockVars[t->second];
  }
  mlir::Value v = tile::ThreadBindingOp::create(
      in.ir->b, in.ir->loc(at), in.ir->b.getIndexType(),
      in.ir->b.getI64IntegerAttr(t->second));
  static const char *const names[] = {"tx", "ty", "tz"};
  return in.wrapScalar({v, lang::DType(lang::ScalarType::Int32),
                        in.syms.freshSymbol(names[t->second])});
}

/// The static value of an extent, if it has one.
static std::optional<int64_t> staticExtent(mlir::OpFoldResult f) {
  if (auto a = llvm::dyn_cast_if_present<mlir::Attribute>(f))
    return mlir::cast<mlir::IntegerAttr>(a).getInt();
  return std::nullopt;
}

Value Interpreter::rawLaunchIndex(bool isThread, unsigned dim, Value extent,
                                  Node at) {
  auto &B = ir->b;
  std::unique_ptr<RawLaunchCtx> &raw = instance->rawLaunch;
  if (!raw) {
    // The launch covers the rest of the function, so it must start where
    // the function's own statements are, not in a loop or branch of IR.
    if (B.getInsertionBlock() != &ir->currentFunc.getBody().front()) {
      error(at, "a raw TIR launch (T.launch_thread / T.thread_binding "
                "outside a T.Kernel) must be at the top level of the "
                "function, not inside a loop or condition");
      return Value::poison();
    }
    raw = std::make_unique<RawLaunchCtx>();
    // Three grid dimensions while the launches are traced; closeRawLaunch
    // builds the op again with those launched.
    llvm::SmallVector<mlir::OpFoldResult, 3> ones(3, B.getIndexAttr(1));
    auto op = tile::KernelOp::create(B, ir->loc(at), ones, {ones[0]});
    mlir::Block &body = op.getBody().front();
    KernelCtx &k = raw->kernel;
    k.id = ++lastKernelId;
    k.op = op.getOperation();
    k.threads = 1;
    k.call = at;
    static const char *const names[] = {"bx", "by", "bz"};
    for (unsigned i = 0; i < 3; ++i) {
      SymExpr sym = syms.freshSymbol(names[i]);
      ir->bindSymbol(sym, body.getArgument(i));
      k.blockVars.push_back(wrapScalar(
          {body.getArgument(i), lang::DType(lang::ScalarType::Int32), sym}));
    }
    kernel = &k;
    B.setInsertionPointToEnd(&body);
  }
  KernelCtx &k = raw->kernel;
  // The extent, computed before the launch (it sizes it).
  mlir::OpFoldResult f;
  {
    mlir::OpBuilder::InsertionGuard guard(B);
    B.setInsertionPoint(k.op);
    f = toFold(extent, at);
  }
  if (auto v = llvm::dyn_cast_if_present<mlir::Value>(f)) {
    if (k.op->isAncestor(v.getParentBlock()->getParentOp())) {
      error(at, "the extent of a raw TIR launch must be known before the "
                "launch (it depends on a value computed inside it)");
      return Value::poison();
    }
  }
  mlir::OpFoldResult &slot = isThread ? raw->threads[dim] : raw->grid[dim];
  std::optional<int64_t> now = staticExtent(f);
  if (now && *now <= 0) {
    error(at, "the extent of a raw TIR launch must be positive, got " +
                  llvm::Twine(*now));
    return Value::poison();
  }
  if (slot) {
    std::optional<int64_t> before = staticExtent(slot);
    if (before && now && *before != *now) {
      error(at, (isThread ? "threadIdx." : "blockIdx.") +
                    llvm::Twine(char('x' + dim)) + " is launched with " +
                    llvm::Twine(*now) + " here and " + llvm::Twine(*before) +
                    " before: one launch has one extent per tag");
      return Value::poison();
    }
  } else {
    slot = f;
  }
  if (!isThread) {
    while (k.gridExtents.size() <= dim)
      k.gridExtents.push_back(Value::integer(1));
    k.gridExtents[dim] = extent;
    return k.blockVars[dim];
  }
  // Threads per block: the product of the launched extents, 0 when one is
  // symbolic.
  int64_t threads = 1;
  for (mlir::OpFoldResult e : raw->threads)
    if (e)
      threads = staticExtent(e) && threads ? threads * *staticExtent(e) : 0;
  k.threads = threads;
  const TargetInfo &tgt = target();
  if (threads > tgt.maxThreads)
    error(at, "thread count " + llvm::Twine(threads) +
                  " exceeds the maximum of " + llvm::Twine(tgt.maxThreads) +
                  " threads per block");
  mlir::Value v = tile::ThreadBindingOp::create(
      B, ir->loc(at), B.getIndexType(), B.getI64IntegerAttr(dim));
  static const char *const names[] = {"tx", "ty", "tz"};
  return wrapScalar({v, lang::DType(lang::ScalarType::Int32),
                     syms.freshSymbol(names[dim])});
}

void Interpreter::closeRawLaunch() {
  if (!instance || !instance->rawLaunch)
    return;
  std::unique_ptr<RawLaunchCtx> raw = std::move(instance->rawLaunch);
  KernelCtx &k = raw->kernel;
  if (kernel == &k)
    kernel = nullptr;
  auto old = mlir::cast<tile::KernelOp>(k.op);
  auto &B = ir->b;
  mlir::OpBuilder::InsertionGuard guard(B);
  B.setInsertionPoint(old);
  // The dimensions up to the last one launched (at least one of each).
  auto launched = [&](mlir::OpFoldResult(&dims)[3]) {
    llvm::SmallVector<mlir::OpFoldResult, 3> out;
    unsigned n = 1;
    for (unsigned d = 0; d < 3; ++d)
      if (dims[d])
        n = d + 1;
    for (unsigned d = 0; d < n; ++d)
      out.push_back(dims[d] ? dims[d] : B.getIndexAttr(1));
    return out;
  };
  llvm::SmallVector<mlir::OpFoldResult, 3> grid = launched(raw->grid);
  llvm::SmallVector<mlir::OpFoldResult, 3> threads = launched(raw->threads);
  auto op = tile::KernelOp::create(B, old.getLoc(), grid, threads);
  mlir::Block &body = op.getBody().front();
  mlir::Block &oldBody = old.getBody().front();
  body.getOperations().splice(body.end(), oldBody.getOperations());
  for (unsigned i = 0; i < oldBody.getNumArguments(); ++i) {
    mlir::BlockArgument a = oldBody.getArgument(i);
    if (i < body.getNumArguments()) {
      body.getArgument(i).setLoc(a.getLoc());
      a.replaceAllUsesWith(body.getArgument(i));
    } else if (!a.use_empty()) {
      // Not launched: block index 0.
      B.setInsertionPointToStart(&body);
      a.replaceAllUsesWith(ir->constIndex(0, old.getLoc()));
    }
  }
  old->erase();
  k.op = op.getOperation();
  checkSharedMemory(k);
}

bool Interpreter::isAscendFrame(lang::BuiltinId id) {
  return id == BuiltinId::SimtVF || id == BuiltinId::SimdVF ||
         id == BuiltinId::PerCoreTask || id == BuiltinId::Cube ||
         id == BuiltinId::Vector || id == BuiltinId::Stage;
}

void Interpreter::markAscend(Node at, llvm::StringRef what) {
  markUnbuildable(at, "tlc.ascend", what);
}

void Interpreter::markUnbuildable(Node at, llvm::StringRef callee,
                                  llvm::StringRef what) {
  if (!tracing() || !kernel)
    return;
  mlir::NamedAttribute option(ir->b.getStringAttr("what"),
                              ir->b.getStringAttr(what));
  tile::IntrinsicOp::create(ir->b, ir->loc(at), mlir::TypeRange{},
                            ir->b.getStringAttr(callee), mlir::ValueRange{},
                            ir->b.getStrArrayAttr({}),
                            ir->b.getDictionaryAttr({option}));
}

std::optional<Value> Interpreter::callFramePrimitive(const PArgs &p) {
  Node at = p.call;
  auto frame = [&]() {
    auto *f = heap.make<FrameObj>();
    f->id = p.info.id;
    f->call = at;
    return f;
  };
  switch (p.info.id) {
  case BuiltinId::WarpSpecialize: {
    FrameObj *f = frame();
    for (Value g : p.rest("warp_group_ids")) {
      if (g.isAbrupt())
        return g;
      llvm::SmallVector<Value, 4> ids;
      if (g.isSequence())
        ids.append(getElems(g).begin(), getElems(g).end());
      else
        ids.push_back(g);
      for (Value id : ids) {
        if (!id.isIntLike())
          return fail(at, "T.ws takes integer warp-group ids, not " +
                              toString(id, true));
        // A negative id (T.ws(-1)) binds no warp group: every thread runs.
        if (id.getInt() < 0)
          return heap.obj(ObjKind::GenericFrame, frame());
        f->groups.push_back(id.getInt());
      }
    }
    if (f->groups.empty() && p.rest("warp_group_ids").empty())
      return fail(at, "T.ws needs at least one warp-group id");
    return heap.obj(ObjKind::GenericFrame, f);
  }
  case BuiltinId::If:
  case BuiltinId::AssertFrame: {
    FrameObj *f = frame();
    f->cond = p.getOr("condition", Value::poison());
    f->msg = p.getOr("message", heap.strNoCopy(""));
    if (f->cond.isAbrupt())
      return f->cond;
    return heap.obj(ObjKind::GenericFrame, f);
  }
  case BuiltinId::Attr: {
    // `T.attr(T.comm_reducer(...), "reduce_scope", ...)`: the reducer of
    // the T.tvm_thread_allreduce calls in its body.
    FrameObj *f = frame();
    Value key = p.getOr("attr_key", Value::none());
    Value node = p.getOr("node", Value::none());
    if (key.isStr() && getStr(key) == "reduce_scope" &&
        node.isObj(ObjKind::Namespace))
      f->cond = node;
    // `T.attr(..., "async_scope", 1)`: the copies in its body are cp.async.
    if (key.isStr() && getStr(key) == "async_scope")
      f->msg = key;
    return heap.obj(ObjKind::GenericFrame, f);
  }
  case BuiltinId::Then:
  case BuiltinId::Else:
  case BuiltinId::Sblock:
  case BuiltinId::WsOp:
  case BuiltinId::SimtVF:
  case BuiltinId::SimdVF:
  case BuiltinId::PerCoreTask:
  case BuiltinId::Cube:
    return heap.obj(ObjKind::GenericFrame, frame());
  case BuiltinId::Vector: {
    // T.Vector(vector=2): one or two vector cores.
    Value n = p.getOr("vector", Value::integer(2));
    if (n.isAbrupt())
      return n;
    if (!n.isInt() || (n.getInt() != 1 && n.getInt() != 2))
      return fail(p.node("vector"), "T.Vector runs on 1 or 2 vector cores, "
                                    "not " +
                                        toString(n, true));
    FrameObj *f = frame();
    f->groups.push_back(n.getInt());
    return heap.obj(ObjKind::GenericFrame, f);
  }
  case BuiltinId::Stage: {
    Value s = p.getOr("stage", Value::poison());
    if (s.isAbrupt())
      return s;
    if (!s.isInt() || s.is(ValueKind::Bool) || s.getInt() < 0) {
      errorAs("ValueError", p.node("stage").range(),
              "T.Stage: the stage must be a non-negative integer, got " +
                  toString(s, true));
      return Value::poison();
    }
    return heap.obj(ObjKind::GenericFrame, frame());
  }
  case BuiltinId::While:
    // Reached only when T.While is called outside a `with` statement.
    return fail(at, "T.While is a frame: use it as `with T.While(cond):`");
  case BuiltinId::LaunchThread: {
    Value tag = p.getOr("thread", Value::poison());
    if (!tag.isStr())
      return tag.isAbrupt() ? tag
                            : fail(p.node("thread"),
                                   "T.launch_thread expects a thread tag "
                                   "such as 'threadIdx.x'");
    return threadTagValue(*this, getStr(tag),
                          p.getOr("extent", Value::integer(1)), at);
  }
  case BuiltinId::ThreadBinding: {
    Value tag = p.getOr("thread", Value::none());
    if (!tag.isStr())
      return tag.isAbrupt() ? tag
                            : fail(at, "T.thread_binding needs thread= "
                                       "naming a tag such as 'threadIdx.x'");
    // T.thread_binding(n, ...) runs over [0, n), T.thread_binding(a, b, ...)
    // over [a, b): a launch of b - a threads.
    Value start = p.getOr("start", Value::integer(0));
    std::optional<Value> stop = p.get("stop");
    Value extent = start;
    if (stop && !stop->isNone())
      extent = binary(syntax::BinaryOp::Sub, *stop, start, at);
    if (extent.isAbrupt())
      return extent;
    Value idx = threadTagValue(*this, getStr(tag), extent, at);
    if (stop && !stop->isNone() && !(start.isIntLike() && start.getInt() == 0))
      idx = binary(syntax::BinaryOp::Add, idx, start, at);
    // As the iterable of a `for`, the loop is the launch itself.
    Node parent = at.parent();
    if (parent && parent.kind() == NodeKind::For &&
        parent.child(Field::iter) == at) {
      auto *loop = heap.make<LoopFrameObj>();
      loop->loopKind = LoopKind::Serial;
      loop->call = at;
      loop->boundIndex = idx;
      return heap.obj(ObjKind::LoopFrame, loop);
    }
    return idx;
  }
  case BuiltinId::GetThreadExtents:
  case BuiltinId::GetBlockExtent:
  case BuiltinId::GetBlockExtents: {
    if (checkInKernel(p.info.name, at))
      return Value::poison();
    if (p.info.id == BuiltinId::GetThreadExtents) {
      llvm::SmallVector<Value, 3> ext = {Value::integer(kernel->threads),
                                         Value::integer(1),
                                         Value::integer(1)};
      return heap.list(ext);
    }
    llvm::SmallVector<Value, 3> ext;
    for (Value v : kernel->gridExtents)
      ext.push_back(v);
    if (p.info.id == BuiltinId::GetBlockExtents)
      return heap.list(ext);
    Value d = p.getOr("dim", Value::integer(0));
    int64_t dim = d.isIntLike() ? d.getInt() : 0;
    if (dim < 0 || dim >= int64_t(ext.size()))
      return fail(p.node("dim"), "block dimension out of range");
    return ext[dim];
  }
  // TileLang's cluster queries (KernelLaunchFrame): a cluster is a
  // cluster_dims-shaped tile of the grid, so the block's cluster along an
  // axis is its block index // cluster_dims[axis] and there are
  // ceildiv(grid extent, cluster_dims[axis]) of them; a launch without
  // clusters has clusters of one block.
  case BuiltinId::GetClusterDims:
  case BuiltinId::GetClusterSize:
  case BuiltinId::GetClusterId:
  case BuiltinId::GetClusterIds:
  case BuiltinId::GetClusterExtent:
  case BuiltinId::GetClusterExtents: {
    if (checkInKernel(p.info.name, at))
      return Value::poison();
    int64_t dims[3] = {1, 1, 1};
    for (auto [i, d] : llvm::enumerate(kernel->clusterDims))
      if (i < 3)
        dims[i] = d;
    BuiltinId id = p.info.id;
    if (id == BuiltinId::GetClusterDims)
      return heap.list({Value::integer(dims[0]), Value::integer(dims[1]),
                        Value::integer(dims[2])});
    if (id == BuiltinId::GetClusterSize)
      return Value::integer(dims[0] * dims[1] * dims[2]);
    auto clusterId = [&](size_t dim) -> Value {
      if (dim >= kernel->blockVars.size())
        return Value::integer(0);
      if (dims[dim] == 1)
        return kernel->blockVars[dim];
      return binary(syntax::BinaryOp::FloorDiv, kernel->blockVars[dim],
                    Value::integer(dims[dim]), at);
    };
    auto clusterExtent = [&](size_t dim) -> Value {
      Value g = dim < kernel->gridExtents.size() ? kernel->gridExtents[dim]
                                                 : Value::integer(1);
      if (dims[dim] == 1)
        return g;
      // ceildiv(g, c) = -((-g) // c), as TileLang computes it.
      Value q = binary(syntax::BinaryOp::FloorDiv,
                       binary(syntax::BinaryOp::Sub, Value::integer(0), g, at),
                       Value::integer(dims[dim]), at);
      return binary(syntax::BinaryOp::Sub, Value::integer(0), q, at);
    };
    if (id == BuiltinId::GetClusterIds) {
      llvm::SmallVector<Value, 3> ids;
      for (size_t d = 0; d < kernel->blockVars.size() && d < 3; ++d)
        ids.push_back(clusterId(d));
      return heap.list(ids);
    }
    if (id == BuiltinId::GetClusterExtents)
      return heap.list({clusterExtent(0), clusterExtent(1), clusterExtent(2)});
    Value d = p.getOr("dim", Value::integer(0));
    if (d.isAbrupt())
      return d;
    if (!d.isIntLike() || d.getInt() < 0 || d.getInt() > 2)
      return raise("IndexError",
                   p.info.name + ": dim must be 0, 1 or 2, not " +
                       toString(d, true),
                   p.node("dim"));
    return id == BuiltinId::GetClusterId ? clusterId(d.getInt())
                                         : clusterExtent(d.getInt());
  }
  case BuiltinId::Persistent: {
    auto *loop = heap.make<LoopFrameObj>();
    loop->loopKind = LoopKind::Serial;
    loop->call = at;
    Value domain = p.getOr("domain", Value::poison());
    if (!domain.isSequence() || getElems(domain).empty())
      return domain.isAbrupt()
                 ? domain
                 : fail(p.node("domain"),
                        "T.Persistent expects a list of tile counts");
    loop->persistentDomain.append(getElems(domain).begin(),
                                  getElems(domain).end());
    loop->waveSize = p.getOr("wave_size", Value::poison());
    loop->waveIndex = p.getOr("index", Value::poison());
    Value group = p.getOr("group_size", Value::integer(8));
    if (group.isNone())
      group = Value::integer(8);
    for (Value v : {loop->waveSize, loop->waveIndex, group})
      if (v.isAbrupt())
        return v;
    // TileLang visits the last dimension in groups of group_size tiles
    // (clamped to [1, last extent]): the group is the slowest coordinate,
    // then the other dimensions row-major, then the offset in the group.
    // The loop runs over the waves of that padded domain; tiles past the
    // last extent or the padded total are skipped.
    Value last = loop->persistentDomain.back();
    loop->groupSize = minMax(minMax(group, last, /*isMax=*/false, at),
                             Value::integer(1), /*isMax=*/true, at);
    Value total = intDiv(last, loop->groupSize, SymKind::CeilDiv, at);
    total = binary(syntax::BinaryOp::Mult, total, loop->groupSize, at);
    for (Value d : llvm::ArrayRef(loop->persistentDomain).drop_back())
      total = binary(syntax::BinaryOp::Mult, total, d, at);
    if (total.isAbrupt())
      return total;
    loop->starts.push_back(Value::integer(0));
    loop->stops.push_back(intDiv(total, loop->waveSize, SymKind::CeilDiv, at));
    loop->steps.push_back(Value::integer(1));
    return heap.obj(ObjKind::LoopFrame, loop);
  }
  default:
    return std::nullopt;
  }
}

/// The i1 condition `tx` is in one of the warp groups \p groups.
static mlir::Value warpGroupCondition(Interpreter &in,
                                      llvm::ArrayRef<int64_t> groups,
                                      mlir::Location l) {
  auto &B = in.ir->b;
  mlir::Value tx = tile::ThreadBindingOp::create(B, l, B.getIndexType(),
                                                 B.getI64IntegerAttr(0));
  mlir::Value cond;
  for (int64_t g : groups) {
    mlir::Value lo = in.ir->constIndex(g * kWarpGroupThreads, l);
    mlir::Value hi = in.ir->constIndex((g + 1) * kWarpGroupThreads, l);
    mlir::Value inGroup = mlir::arith::AndIOp::create(
        B, l,
        mlir::arith::CmpIOp::create(B, l, mlir::arith::CmpIPredicate::sge, tx,
                                    lo),
        mlir::arith::CmpIOp::create(B, l, mlir::arith::CmpIPredicate::slt, tx,
                                    hi));
    cond = cond ? mlir::arith::OrIOp::create(B, l, cond, inGroup).getResult()
                : inGroup;
  }
  return cond;
}

/// True when a `with T.If` body has a `with T.Else()` statement.
static bool hasElseFrame(Node withNode) {
  for (Node stmt : withNode.children(Field::body)) {
    if (stmt.kind() != NodeKind::With)
      continue;
    for (Node item : stmt.children(Field::items)) {
      Node ctx = item.child(Field::context_expr);
      if (ctx.kind() == NodeKind::Call &&
          ctx.child(Field::func).text().ends_with("Else"))
        return true;
    }
  }
  return false;
}

bool Interpreter::isIfThenPair(Node withStmt) {
  llvm::SmallVector<Node, 2> items(withStmt.children(Field::items).begin(),
                                   withStmt.children(Field::items).end());
  auto calls = [&](Node item, llvm::StringRef name) {
    Node ctx = item.child(Field::context_expr);
    return ctx.kind() == NodeKind::Call &&
           ctx.child(Field::func).text().ends_with(name);
  };
  return items.size() == 2 && calls(items[0], "If") && calls(items[1], "Then");
}

Flow Interpreter::execFrame(FrameObj *frame, Node withNode, Node target) {
  if (target && assign(target, Value::poison()) != Flow::Normal)
    return Flow::Raise;
  Node call = frame->call;
  switch (frame->id) {
  case BuiltinId::WarpSpecialize: {
    if (checkInKernel("T.ws", call))
      return Flow::Normal;
    if (frame->groups.empty()) // T.ws(-1): every thread.
      return execBody(withNode, Field::body);
    int64_t maxGroup = *llvm::max_element(frame->groups);
    if (kernel->threads &&
        (maxGroup + 1) * kWarpGroupThreads > kernel->threads) {
      error(call, "warp group " + llvm::Twine(maxGroup) + " needs " +
                      llvm::Twine((maxGroup + 1) * kWarpGroupThreads) +
                      " threads, but the kernel has " +
                      llvm::Twine(kernel->threads));
      return Flow::Normal;
    }
    mlir::Location l = ir->loc(call);
    mlir::Value cond = warpGroupCondition(*this, frame->groups, l);
    auto op = tile::IfOp::create(ir->b, l, cond, /*withElse=*/false);
    op->setAttr("warp_groups", ir->b.getDenseI64ArrayAttr(frame->groups));
    mlir::OpBuilder::InsertionGuard guard(ir->b);
    ir->b.setInsertionPointToEnd(op.thenBlock());
    return execBody(withNode, Field::body);
  }
  case BuiltinId::If: {
    // `with T.If(c), T.Then():` is T.If with its T.Then nested.
    bool thenToo = isIfThenPair(withNode);
    Truth t = truth(frame->cond, call);
    if (t == Truth::Abrupt)
      return flowOf(frame->cond);
    if (t == Truth::True || t == Truth::False || t == Truth::Unknown) {
      if (t == Truth::Unknown)
        warnUnknownCondition(frame->cond, call, "the T.Then branch");
      tirIfs.push_back({nullptr, t != Truth::False});
    } else {
      Scalar c = toScalar(frame->cond, call);
      if (!c)
        return Flow::Normal;
      mlir::Location l = ir->loc(call);
      auto op = tile::IfOp::create(
          ir->b, l, ir->convert(c.value, ir->b.getI1Type(), l),
          hasElseFrame(withNode));
      tirIfs.push_back({op.getOperation(), true});
    }
    Flow f = Flow::Normal;
    if (!thenToo) {
      f = execBody(withNode, Field::body);
    } else if (!tirIfs.back().op) {
      if (tirIfs.back().known)
        f = execBody(withNode, Field::body);
    } else {
      mlir::OpBuilder::InsertionGuard guard(ir->b);
      ir->b.setInsertionPointToEnd(
          llvm::cast<tile::IfOp>(tirIfs.back().op).thenBlock());
      f = execBody(withNode, Field::body);
    }
    tirIfs.pop_back();
    return f;
  }
  case BuiltinId::Then:
  case BuiltinId::Else: {
    bool isThen = frame->id == BuiltinId::Then;
    if (tirIfs.empty()) {
      error(call, llvm::Twine(isThen ? "T.Then" : "T.Else") +
                      " must be directly inside `with T.If(...)`");
      return Flow::Normal;
    }
    TIRIf &top = tirIfs.back();
    if (!top.op) {
      if (top.known != isThen)
        return Flow::Normal;
      return execBody(withNode, Field::body);
    }
    auto op = llvm::cast<tile::IfOp>(top.op);
    mlir::Block *block = isThen ? op.thenBlock() : op.elseBlock();
    if (!block)
      return Flow::Normal;
    mlir::OpBuilder::InsertionGuard guard(ir->b);
    ir->b.setInsertionPointToEnd(block);
    return execBody(withNode, Field::body);
  }
  case BuiltinId::AssertFrame: {
    if (checkInKernel("T.Assert", call))
      return Flow::Normal;
    Truth t = truth(frame->cond, call);
    if (t == Truth::Abrupt)
      return flowOf(frame->cond);
    if (t == Truth::False)
      error(call, "assertion is always false" +
                      (frame->msg.isStr() && !getStr(frame->msg).empty()
                           ? ": " + getStr(frame->msg)
                           : std::string()));
    if (t == Truth::IR) {
      Scalar s = toScalar(frame->cond, call);
      if (s)
        tile::DeviceAssertOp::create(
            ir->b, ir->loc(call),
            ir->convert(s.value, ir->b.getI1Type(), ir->loc(call)),
            ir->b.getStringAttr(frame->msg.isStr() ? getStr(frame->msg) : ""));
    }
    return execBody(withNode, Field::body);
  }
  default:
    // T.sblock, T.attr, T.ws_op: the body as written. A raw TIR block
    // outside any T.Kernel (IR written for TVM's own passes) has no launch
    // to check it against.
    if (frame->id == BuiltinId::Sblock && !kernel) {
      warning(call, "a T.block outside T.Kernel is not analysed by tlc");
      return Flow::Normal;
    }
    if (frame->id == BuiltinId::Attr &&
        frame->cond.isObj(ObjKind::Namespace)) {
      reduceScopes.push_back(frame->cond);
      Flow f = execBody(withNode, Field::body);
      reduceScopes.pop_back();
      return f;
    }
    if (isAscendFrame(frame->id))
      markAscend(call, lang::getBuiltin(frame->id).name);
    // `with T.Vector() as sid`: the vector core's index.
    if (frame->id == BuiltinId::Vector && target && kernel && tracing()) {
      mlir::Location l = ir->loc(call);
      auto sid = tile::IntrinsicOp::create(
          ir->b, l, mlir::TypeRange{ir->b.getI32Type()},
          ir->b.getStringAttr("T.Vector"), mlir::ValueRange{},
          ir->b.getStrArrayAttr({}),
          ir->b.getDictionaryAttr({ir->b.getNamedAttr(
              "vector", ir->b.getI64IntegerAttr(frame->groups.front()))}));
      Value v = wrapScalar(
          {sid->getResult(0), lang::DType(lang::ScalarType::Int32), SymExpr()});
      if (assign(target, v) != Flow::Normal)
        return Flow::Raise;
    }
    if (frame->id == BuiltinId::Attr && frame->msg.isStr() &&
        getStr(frame->msg) == "async_scope") {
      ++asyncScopes;
      Flow f = execBody(withNode, Field::body);
      --asyncScopes;
      return f;
    }
    return execBody(withNode, Field::body);
  }
}

/// `with T.Persistent(...) as coords:` (or any TileLang loop frame) outside
/// a traced function: TVM's IRBuilder form, which builds a loop statement
/// into whichever builder the program opened. tlc does not model that IR;
/// the body is analysed once with the loop variables unknown, as TVM's
/// ForFrame hands them out (one variable, or a list of them).
Flow Interpreter::execLoopFrameOutsideKernel(LoopFrameObj *loop,
                                             Node withNode, Node target) {
  warning(loop->call, "this loop frame is entered outside a kernel: it builds "
                      "TVM IR that tlc does not model; its body is analysed "
                      "once with unknown loop variables");
  size_t n = loop->persistentDomain.empty() ? loop->stops.size()
                                            : loop->persistentDomain.size();
  llvm::SmallVector<Value, 3> vars;
  for (size_t i = 0; i < std::max<size_t>(n, 1); ++i)
    vars.push_back(heap.opaque("loop variable"));
  if (target &&
      assign(target, vars.size() == 1 ? vars[0] : heap.list(vars)) !=
          Flow::Normal)
    return Flow::Raise;
  return execBody(withNode, Field::body);
}
