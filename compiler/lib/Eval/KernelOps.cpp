//===- KernelOps.cpp - Kernel regions, buffers, loops and tile ops --------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The kernel-level T.* primitives: `T.Kernel`, allocations and tensor
// annotations, loops, tile operations (copy, gemm, fill, reduce, cumsum,
// atomic_add), annotations and debug ops, with their checks (shapes,
// dtypes, scopes, nesting, thread counts, shared memory budget) and hints.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"
#include "RuntimeExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringExtras.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::MemoryScope;

//===----------------------------------------------------------------------===//
// Tile operations
//===----------------------------------------------------------------------===//

/// Extents of a region with unit dimensions dropped.
static llvm::SmallVector<SymExpr, 4> squeeze(llvm::ArrayRef<SymExpr> ext) {
  llvm::SmallVector<SymExpr, 4> out;
  for (SymExpr e : ext)
    if (!(e && e.isConstant() && *e.getConstant() == 1))
      out.push_back(e);
  return out;
}

static std::string shapeStr(llvm::ArrayRef<SymExpr> ext) {
  std::string s = "[";
  for (size_t i = 0; i < ext.size(); ++i) {
    if (i)
      s += ", ";
    s += ext[i] ? ext[i].str() : "?";
  }
  return s + "]";
}

/// Gives an element-form region the extents of \p other (right-aligned).
static RegionObj *inferExtents(Interpreter &in, RegionObj *r,
                               const RegionObj *other) {
  auto *copy = in.heap.make<RegionObj>(*r);
  copy->isElement = false;
  size_t rank = r->starts.size();
  llvm::SmallVector<SymExpr, 4> ext(other->extents.begin(),
                                    other->extents.end());
  while (ext.size() > rank && ext.front() && ext.front().isConstant() &&
         *ext.front().getConstant() == 1)
    ext.erase(ext.begin());
  if (ext.size() > rank)
    return nullptr;
  copy->extents.assign(rank - ext.size(), in.syms.constant(1));
  copy->extents.append(ext.begin(), ext.end());
  // Run-time extents of the other side's unknown dimensions come along.
  forgetRuntimeExtents(copy);
  const llvm::SmallVector<mlir::Value, 4> &sizes = regionRuntimeExtents(other);
  if (!sizes.empty()) {
    llvm::SmallVector<mlir::Value, 4> &mine = regionRuntimeExtents(copy);
    mine.assign(rank, mlir::Value());
    size_t shift = sizes.size() - ext.size();
    for (size_t k = 0; k < ext.size(); ++k)
      mine[rank - ext.size() + k] = sizes[shift + k];
  }
  return copy;
}

/// True when two regions agree in shape ignoring unit dims (unknown = agree).
static bool shapesAgree(Interpreter &in, const RegionObj *a,
                        const RegionObj *b) {
  auto sa = squeeze(a->extents), sb = squeeze(b->extents);
  if (sa.size() != sb.size()) {
    // A symbolic extent might be 1; only complain when all are static.
    auto allStatic = [](llvm::ArrayRef<SymExpr> s) {
      return llvm::all_of(s, [](SymExpr e) { return e && e.isConstant(); });
    };
    return !(allStatic(a->extents) && allStatic(b->extents));
  }
  for (size_t i = 0; i < sa.size(); ++i)
    if (sa[i] && sb[i] && in.syms.equal(sa[i], sb[i]) == false)
      return false;
  return true;
}

/// T.copy between regions of one rank and static extents that differ:
/// TileLang loops over the destination when it loads global memory into
/// another scope, over the source otherwise, and indexes the other region at
/// the same offsets. A loop region no larger than the other copies into (or
/// out of) that part of it: the other region is cut to the loop's extents.
/// A larger one would go outside the other region: an error naming the
/// dimension, false returned. True with \p s, \p d unchanged when the rule
/// does not apply (other ranks, symbolic extents).
static bool cutToLoopRegion(Interpreter &in, const PArgs &p, RegionObj *&s,
                            RegionObj *&d) {
  if (s->extents.size() != d->extents.size())
    return true;
  auto isStatic = [](const RegionObj *r) {
    return llvm::all_of(r->extents,
                        [](SymExpr e) { return e && e.isConstant(); });
  };
  if (!isStatic(s) || !isStatic(d))
    return true;
  bool loopIsDst = lang::isGlobalScope(s->buffer->scope) &&
                   !lang::isGlobalScope(d->buffer->scope);
  RegionObj *loop = loopIsDst ? d : s, *other = loopIsDst ? s : d;
  for (size_t i = 0; i < loop->extents.size(); ++i) {
    int64_t l = *loop->extents[i].getConstant();
    int64_t o = *other->extents[i].getConstant();
    if (l > o) {
      // TileLang's semantic check raises this as a ValueError in these
      // words when it compiles the kernel (scripts match them, the closing
      // period included).
      const char *side = loopIsDst ? "src" : "dst";
      in.errorAtCompileAs(
          "ValueError", p.call.range(),
          llvm::Twine("[TileLang Semantic Check] T.copy would ") +
              (loopIsDst ? "read" : "write") + " outside the " + side +
              " region (the copy loops over the " +
              (loopIsDst ? "dst" : "src") + " region): non-unit dimension " +
              llvm::Twine(i) + " has extent " + llvm::Twine(l) + ", but the " +
              side + " region has extent " + llvm::Twine(o) + ".");
      return false;
    }
  }
  auto *cut = in.heap.make<RegionObj>(*other);
  cut->isElement = false;
  cut->extents.assign(loop->extents.begin(), loop->extents.end());
  forgetRuntimeExtents(cut);
  (loopIsDst ? s : d) = cut;
  return true;
}

/// True when both regions have static extents with the same product.
static bool sameElementCount(Interpreter &in, const RegionObj *a,
                             const RegionObj *b) {
  auto count = [](const RegionObj *r) -> std::optional<int64_t> {
    int64_t n = 1;
    for (SymExpr e : r->extents) {
      if (!e || !e.isConstant())
        return std::nullopt;
      n *= *e.getConstant();
    }
    return n;
  };
  std::optional<int64_t> na = count(a), nb = count(b);
  return na && nb && *na == *nb;
}

/// Whether dimension \p d of \p r has a static extent.
static bool staticExtent(const RegionObj *r, size_t d) {
  return r->extents[d] && r->extents[d].isConstant();
}

/// True when \p r is the whole of its buffer: starts 0 and the buffer's
/// static extents.
static bool isWholeBuffer(const RegionObj *r) {
  const BufferObj *b = r->buffer;
  if (r->starts.size() != b->shape.size() ||
      r->extents.size() != b->shape.size())
    return false;
  for (size_t i = 0; i < b->shape.size(); ++i) {
    if (!r->starts[i].isIntLike() || r->starts[i].getInt() != 0)
      return false;
    std::optional<int64_t> e = r->extents[i] ? r->extents[i].getConstant()
                                              : std::nullopt;
    std::optional<int64_t> n =
        b->shape[i] ? b->shape[i].getConstant() : std::nullopt;
    if (!e || !n || *e != *n)
      return false;
  }
  return true;
}

/// T.copy between a region whose extent is known only when the kernel
/// runs (a varlen slice `X[s:e, :]`, a T.dynamic row `X[b, :]`) and a tile
/// of static shape, as the element loop TileLang lowers every copy to: a
/// T.Parallel over the tile's indices that copies an element only inside
/// every run-time extent (so a tile element past it keeps its value, and
/// nothing past the tile is touched); reads outside a tensor give its safe
/// value and writes outside it are skipped, as for every global access.
/// std::nullopt when no extent of the copy is a run-time one (unless
/// \p always), or when no side gives static extents (left to the plain copy
/// and the back ends).
static std::optional<Value> elementLoopCopy(Interpreter &in, const PArgs &p,
                                            RegionObj *s, RegionObj *d,
                                            bool always) {
  auto copyDims = [](const RegionObj *r) {
    llvm::SmallVector<size_t, 4> dims;
    for (size_t i = 0; i < r->extents.size(); ++i)
      if (!(staticExtent(r, i) && *r->extents[i].getConstant() == 1))
        dims.push_back(i);
    return dims;
  };
  llvm::SmallVector<size_t, 4> ks = copyDims(s), kd = copyDims(d);
  bool runtime = false;
  for (size_t k : ks)
    runtime |= !staticExtent(s, k);
  for (size_t k : kd)
    runtime |= !staticExtent(d, k);
  if ((!runtime && !always) || ks.size() != kd.size())
    return std::nullopt;
  llvm::SmallVector<mlir::OpFoldResult, 3> loop;
  mlir::OpBuilder &b = in.ir->b;
  for (size_t k = 0; k < ks.size(); ++k) {
    if (staticExtent(s, ks[k]))
      loop.push_back(b.getIndexAttr(*s->extents[ks[k]].getConstant()));
    else if (staticExtent(d, kd[k]))
      loop.push_back(b.getIndexAttr(*d->extents[kd[k]].getConstant()));
    else
      return std::nullopt;
  }
  mlir::Location l = in.ir->loc(p.call);
  auto par = tile::ParallelOp::create(b, l, loop);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&par.getBody().front());
  llvm::SmallVector<mlir::Value, 3> ivs(par.getBody().front().getArguments());
  // Each side's element indices, and the run-time extents they must stay in.
  mlir::Value inside;
  auto indices = [&](RegionObj *r, llvm::ArrayRef<size_t> dims,
                     llvm::SmallVectorImpl<mlir::Value> &idx) -> bool {
    for (size_t i = 0; i < r->starts.size(); ++i) {
      mlir::OpFoldResult f = in.toFold(r->starts[i], p.call);
      mlir::Value start =
          mlir::isa<mlir::Attribute>(f)
              ? in.ir->constIndex(mlir::cast<mlir::IntegerAttr>(
                                      mlir::cast<mlir::Attribute>(f))
                                      .getInt(),
                                  l)
              : mlir::cast<mlir::Value>(f);
      idx.push_back(start);
    }
    for (auto [k, dim] : llvm::enumerate(dims)) {
      idx[dim] = mlir::arith::AddIOp::create(b, l, idx[dim], ivs[k]);
      if (staticExtent(r, dim))
        continue;
      mlir::Value n;
      if (r->extents[dim]) {
        n = in.toIndex(Value::sym(r->extents[dim]), p.call);
      } else {
        const llvm::SmallVector<mlir::Value, 4> &sizes =
            regionRuntimeExtents(r);
        n = dim < sizes.size() ? sizes[dim] : mlir::Value();
      }
      if (!n) {
        in.error(p.call, "T.copy: the extent of dimension " + llvm::Twine(dim) +
                             " of '" + r->buffer->name +
                             "' is not known when the kernel runs");
        return false;
      }
      mlir::Value c = mlir::arith::CmpIOp::create(
          b, l, mlir::arith::CmpIPredicate::slt, ivs[k], n);
      inside = inside ? mlir::arith::AndIOp::create(b, l, inside, c) : c;
    }
    return true;
  };
  llvm::SmallVector<mlir::Value, 4> si, di;
  if (!indices(s, ks, si) || !indices(d, kd, di))
    return Value::poison();
  // A global tensor with an annotated layout holds each element at the
  // layout's place (make_cutlass_metadata_layout's metadata order).
  for (auto [r, idx] : {std::pair(s, &si), std::pair(d, &di)})
    if (std::optional<layout::Layout> gl = globalLayoutOf(in, r->buffer))
      if (!physicalIndices(in, r->buffer, *gl, l, *idx)) {
        in.error(p.call, "T.copy: the layout annotated for '" +
                             r->buffer->name +
                             "' cannot address it (its shape is not static)");
        return Value::poison();
      }
  if (inside) {
    auto branch = tile::IfOp::create(b, l, inside, /*withElse=*/false);
    b.setInsertionPointToEnd(branch.thenBlock());
  }
  mlir::Value x = tile::LoadOp::create(b, l, in.ir->valueType(s->buffer->dtype),
                                       s->buffer->value, si);
  if (!(s->buffer->dtype == d->buffer->dtype))
    x = in.ir->convert(x, in.ir->valueType(d->buffer->dtype), l,
                       s->buffer->dtype.isUnsignedInteger());
  tile::StoreOp::create(b, l, x, d->buffer->value, di);
  return Value::none();
}

/// `T.copy(SF_shared, SF_tmem)`: the per-warp scale-factor transpose in
/// shared memory, then the copy into tensor memory (what TileLang's copy
/// lowers to for this pair of scopes).
static Value scaleFactorCopy(Interpreter &in, const PArgs &p, Value src,
                             Value dst) {
  CallArgs transpose;
  transpose.pos.push_back(src);
  transpose.posNodes.push_back(p.node("src"));
  Value r = in.callPrimitive(
      *lang::lookupBuiltin("T.tcgen05_sf_warp_transpose"), transpose, p.call);
  if (r.isAbrupt())
    return r;
  CallArgs cp;
  cp.pos.push_back(src);
  cp.posNodes.push_back(p.node("src"));
  cp.pos.push_back(dst);
  cp.posNodes.push_back(p.node("dst"));
  return in.callPrimitive(*lang::lookupBuiltin("T.tcgen05_cp_warpx4"), cp,
                          p.call);
}

Value tlc::eval::tileCopy(Interpreter &in, const PArgs &p) {
  if (in.checkInKernel("T.copy", p.call) ||
      in.checkNotInParallel("T.copy", p.call))
    return Value::poison();
  Value src = p.getOr("src", Value::poison());
  Value dst = p.getOr("dst", Value::poison());
  if (src.isAbrupt() || dst.isAbrupt())
    return Value::poison();
  // The PTX cache operators a copy's global loads / stores may name;
  // TileLang rejects others with a ValueError when the copy is traced.
  static const llvm::StringRef loadPolicies[] = {"ca", "cg", "cs", "lu",
                                                 "cv"};
  static const llvm::StringRef storePolicies[] = {"wb", "cg", "cs", "wt"};
  for (auto [param, allowed] :
       {std::pair<llvm::StringRef, llvm::ArrayRef<llvm::StringRef>>{
            "load_cache_policy", loadPolicies},
        std::pair<llvm::StringRef, llvm::ArrayRef<llvm::StringRef>>{
            "store_cache_policy", storePolicies}}) {
    std::optional<Value> v = p.get(param);
    if (!v || v->isNone() || !v->is(ValueKind::Str) ||
        llvm::is_contained(allowed, getStr(*v)))
      continue;
    in.errorAs("ValueError", p.node(param).range(),
               "T.copy: " + param + " must be one of '" +
                   llvm::join(allowed, "', '") + "' or None, got '" +
                   getStr(*v) + "'");
    return Value::poison();
  }
  RegionObj *s = in.asRegion(src, p.node("src"));
  RegionObj *d = in.asRegion(dst, p.node("dst"));
  if (!s)
    return in.fail(p.node("src"), "T.copy source must be a buffer or region, "
                                  "not '" + src.getTypeName() + "'");
  if (!d)
    return in.fail(p.node("dst"), "T.copy destination must be a buffer or "
                                  "region, not '" + dst.getTypeName() + "'");
  // Ascend's fixpipe flag: only a copy out of the cube unit's L0C has it.
  if (std::optional<Value> flag = p.get("unit_flag_ctrl");
      flag && !flag->isNone() && s->buffer->scope != MemoryScope::AscendL0C)
    return in.fail(p.node("unit_flag_ctrl"),
                   "T.copy: unit_flag_ctrl is TileLang's Ascend argument of a "
                   "copy out of L0C (T.alloc_l0c), but '" +
                       s->buffer->name + "' is in " +
                       lang::getScopeString(s->buffer->scope));
  // Unpacked float codes copy only as themselves: TileLang has no
  // converting copy into or out of them (a SIMT copy of packed fp4 into
  // float4_e2m1_unpacked is its error too).
  if (s->buffer->dtype != d->buffer->dtype &&
      (s->buffer->dtype.isUnpackedFloat() ||
       d->buffer->dtype.isUnpackedFloat()))
    return in.fail(p.call, "T.copy from " + s->buffer->dtype.getName() +
                               " to " + d->buffer->dtype.getName() +
                               ": unpacked float codes are copied only "
                               "between buffers of their own dtype (convert "
                               "element by element with T.Cast)");
  if (s->isElement && !d->isElement)
    s = inferExtents(in, s, d);
  else if (d->isElement && !s->isElement)
    d = inferExtents(in, d, s);
  // Scale factors copied from shared to tensor memory (block-scaled UMMA):
  // TileLang transposes them per warp and issues tcgen05.cp, so the tensor
  // memory tile has another shape with the same elements.
  if (s && d && d->buffer->scope == MemoryScope::TensorMemory &&
      lang::isSharedScope(s->buffer->scope) && !shapesAgree(in, s, d) &&
      sameElementCount(in, s, d))
    return scaleFactorCopy(in, p, src, dst);
  if (s && d && !shapesAgree(in, s, d) && !cutToLoopRegion(in, p, s, d))
    return Value::poison();
  if (!s || !d || !shapesAgree(in, s, d)) {
    RegionObj *rs = in.asRegion(src, p.node("src"));
    RegionObj *rd = in.asRegion(dst, p.node("dst"));
    return in.fail(p.call, "T.copy between regions of different shapes: " +
                               shapeStr(s ? s->extents : rs->extents) +
                               " and " +
                               shapeStr(d ? d->extents : rd->extents));
  }
  // A part of a fragment copied to or from a fragment (`T.copy(lse[k, :],
  // row)`) is TileLang's element loop too: a T.Parallel whose layout
  // inference makes each thread hold what it copies.
  bool fragmentPart = s->buffer->scope == MemoryScope::Fragment &&
                      d->buffer->scope == MemoryScope::Fragment &&
                      (!isWholeBuffer(s) || !isWholeBuffer(d));
  bool placed = globalLayoutOf(in, s->buffer) || globalLayoutOf(in, d->buffer);
  if (std::optional<Value> r =
          elementLoopCopy(in, p, s, d, fragmentPart || placed))
    return *r;
  // Loads from global memory into shared memory are what T.Pipelined
  // multi-buffers (its producer stage).
  if (lang::isSharedScope(d->buffer->scope) &&
      lang::isGlobalScope(s->buffer->scope))
    for (auto it = in.loops.rbegin(); it != in.loops.rend(); ++it)
      if (it->kind == LoopKind::Pipelined) {
        d->buffer->stages = std::max(d->buffer->stages, it->numStages);
        break;
      }
  mlir::Value sv = in.regionValue(s, p.node("src"));
  mlir::Value dv = in.regionValue(d, p.node("dst"));
  if (!sv || !dv)
    return Value::poison();
  auto op = tile::CopyOp::create(in.ir->b, in.ir->loc(p.call), sv, dv);
  // Inside `T.attr(..., "async_scope", 1)` a global-to-shared copy is issued
  // as cp.async with no commit: the program's T.ptx_commit_group closes
  // the group (T.async_copy marks its copy "commit" itself).
  if (in.asyncScopes && lang::isSharedScope(d->buffer->scope) &&
      lang::isGlobalScope(s->buffer->scope))
    op->setAttr("tile.async_copy", in.ir->b.getStringAttr("scope"));
  if (std::optional<Value> w = p.get("coalesced_width"))
    if (w->isIntLike())
      op->setAttr("coalesced_width", in.ir->b.getI64IntegerAttr(w->getInt()));
  if (p.flag("disable_tma", false))
    op->setAttr("disable_tma", in.ir->b.getUnitAttr());
  // The PTX cache operators of the copy's global loads / stores (checked
  // above), for the CUDA printer.
  for (llvm::StringRef param : {"load_cache_policy", "store_cache_policy"})
    if (std::optional<Value> v = p.get(param); v && v->is(ValueKind::Str))
      op->setAttr(("tile." + param).str(), in.ir->b.getStringAttr(getStr(*v)));
  return Value::none();
}

/// `T.tma_copy(src, dst, barrier=bar)`: TileLang's split-phase TMA copy
/// (one elected thread raises the barrier's expected bytes and issues the
/// bulk copy that completes them; the program's own arrivals end the
/// phase). tlc lowers it as the threads' synchronous tile copy, done before
/// those arrivals: a wait on the phase sees the same bytes, with nothing
/// left to complete on the barrier (as `T.async_copy` is the synchronous
/// copy).
static Value tileTmaCopy(Interpreter &in, const PArgs &p) {
  if (std::optional<Value> bar = p.get("barrier"); bar && !bar->isNone()) {
    if (bar->isAbrupt())
      return Value::poison();
    if (RegionObj *r = in.asRegion(*bar, p.node("barrier"));
        r && r->buffer->scope != MemoryScope::Barrier &&
        r->buffer->scope != MemoryScope::ClusterBarrier)
      return in.fail(p.node("barrier"),
                     "T.tma_copy: barrier must be an mbarrier "
                     "(T.alloc_barrier), not a buffer of scope '" +
                         lang::getScopeString(r->buffer->scope) + "'");
  }
  Value r = tileCopy(in, p);
  // The copy remembers it was one (the HIP target refuses TMA copies).
  mlir::Block *block = in.ir->b.getInsertionBlock();
  if (!r.isAbrupt() && !r.isPoison() && block && !block->empty())
    if (auto copy = llvm::dyn_cast<tile::CopyOp>(block->back()))
      copy->setAttr("tile.tma_copy", in.ir->b.getUnitAttr());
  return r;
}

/// `T.async_copy(src, dst)`: a global-to-shared copy issued as cp.async
/// followed by cp.async.commit_group, with no wait (the program waits with
/// T.ptx_wait_group). A copy between other scopes is the plain copy.
static Value tileAsyncCopy(Interpreter &in, const PArgs &p) {
  ++in.asyncScopes;
  Value r = tileCopy(in, p);
  --in.asyncScopes;
  mlir::Block *block = in.ir->b.getInsertionBlock();
  if (!r.isAbrupt() && !r.isPoison() && block && !block->empty())
    if (auto copy = llvm::dyn_cast<tile::CopyOp>(block->back());
        copy && copy->hasAttr("tile.async_copy"))
      copy->setAttr("tile.async_copy", in.ir->b.getStringAttr("commit"));
  return r;
}

Value eval::tileGemm(Interpreter &in, const PArgs &p, Value denseA) {
  if (in.checkInKernel("T.gemm", p.call) ||
      in.checkNotInParallel("T.gemm", p.call))
    return Value::poison();
  Value av = denseA.isNone() ? p.getOr("A", Value::poison()) : denseA, bv = p.getOr("B", Value::poison()),
        cv = p.getOr("C", Value::poison());
  if (av.isAbrupt() || bv.isAbrupt() || cv.isAbrupt())
    return Value::poison();
  RegionObj *regs[3];
  const char *names[3] = {"A", "B", "C"};
  Value vals[3] = {av, bv, cv};
  llvm::SmallVector<SymExpr, 4> shapes[3];
  bool bad = false;
  for (int i = 0; i < 3; ++i) {
    regs[i] = in.asRegion(vals[i], p.node(names[i]));
    if (!regs[i] || regs[i]->isElement) {
      in.error(p.node(names[i]), llvm::Twine("T.gemm operand ") + names[i] +
                                     " must be a buffer or region");
      return Value::poison();
    }
    shapes[i].assign(regs[i]->extents.begin(), regs[i]->extents.end());
    while (shapes[i].size() > 2 && shapes[i].front() &&
           shapes[i].front().isConstant() &&
           *shapes[i].front().getConstant() == 1)
      shapes[i].erase(shapes[i].begin());
    if (shapes[i].size() != 2) {
      in.error(p.node(names[i]), llvm::Twine("T.gemm operand ") + names[i] +
                                     " must be 2-D, got shape " +
                                     shapeStr(regs[i]->extents));
      bad = true;
    }
  }
  if (bad)
    return Value::poison();
  bool tA = p.flag("transpose_A", false), tB = p.flag("transpose_B", false);
  SymExpr m = shapes[0][tA ? 1 : 0], kA = shapes[0][tA ? 0 : 1];
  SymExpr kB = shapes[1][tB ? 1 : 0], n = shapes[1][tB ? 0 : 1];
  SymExpr mC = shapes[2][0], nC = shapes[2][1];
  auto differ = [&](SymExpr a, SymExpr b) {
    return a && b && in.syms.equal(a, b) == false;
  };
  auto sh = [&](int i) { return shapeStr(shapes[i]); };
  if (differ(kA, kB)) {
    in.error(p.call, "T.gemm: K of A " + sh(0) + " (" + kA.str() +
                         ") does not match K of B " + sh(1) + " (" +
                         kB.str() + ")");
    bad = true;
  }
  if (differ(m, mC)) {
    in.error(p.call, "T.gemm: M of A " + sh(0) + " (" + m.str() +
                         ") does not match M of C " + sh(2) + " (" +
                         mC.str() + ")");
    bad = true;
  }
  // use_2cta (Blackwell's CTA pair): each CTA holds half of B's N columns
  // and the pair's MMA writes all N columns of each CTA's C.
  if (p.flag("use_2cta", false) && n && nC && n.isConstant() &&
      nC.isConstant()) {
    if (2 * *n.getConstant() != *nC.getConstant()) {
      in.error(p.call, "T.tcgen05_gemm(use_2cta=True): each CTA holds half "
                       "of B's columns, so N of C " + sh(2) + " (" +
                           nC.str() + ") must be twice N of B " + sh(1) +
                           " (" + n.str() + ")");
      bad = true;
    }
  } else if (differ(n, nC)) {
    in.error(p.call, "T.gemm: N of B " + sh(1) + " (" + n.str() +
                         ") does not match N of C " + sh(2) + " (" +
                         nC.str() + ")");
    bad = true;
  }
  BufferObj *a = regs[0]->buffer, *b = regs[1]->buffer, *c = regs[2]->buffer;
  if (a->dtype != b->dtype) {
    in.error(p.call, "T.gemm operands A and B have different dtypes (" +
                         a->dtype.getName() + " and " + b->dtype.getName() +
                         ")");
    bad = true;
  }
  // Ascend's cube unit: A and B in L1, L0A or L0B and C in L0C (TileLang's
  // Ascend back end; checkBuildable refuses to build such a kernel).
  auto ascendOperand = [](MemoryScope s) {
    return s == MemoryScope::AscendL1 || s == MemoryScope::AscendL0A ||
           s == MemoryScope::AscendL0B;
  };
  bool ascend = c->scope == MemoryScope::AscendL0C;
  if (ascend) {
    for (int i = 0; i < 2; ++i) {
      BufferObj *x = regs[i]->buffer;
      if (ascendOperand(x->scope))
        continue;
      in.error(p.node(names[i]),
               llvm::Twine("T.gemm operand ") + names[i] +
                   " of an L0C accumulator must be in the cube unit's L1, "
                   "L0A or L0B (T.alloc_l1 / T.alloc_l0a / T.alloc_l0b), "
                   "but '" +
                   x->name + "' is in " + lang::getScopeString(x->scope));
      bad = true;
    }
  } else if (std::optional<Value> flag = p.get("unit_flag_ctrl");
             flag && !flag->isNone()) {
    in.error(p.node("unit_flag_ctrl"),
             "T.gemm: unit_flag_ctrl is TileLang's Ascend argument of a "
             "gemm into L0C (T.alloc_l0c), but '" +
                 c->name + "' is in " + lang::getScopeString(c->scope));
    bad = true;
  }
  if (!ascend && c->scope != MemoryScope::Fragment &&
      c->scope != MemoryScope::TensorMemory) {
    in.error(p.node("C"), "T.gemm accumulator C must be a fragment "
                          "(T.alloc_fragment), but '" +
                              c->name + "' is in " +
                              lang::getScopeString(c->scope));
    bad = true;
  } else if (a->dtype.isInteger() != c->dtype.isInteger()) {
    in.error(p.node("C"), "T.gemm accumulator dtype " + c->dtype.getName() +
                              " does not suit " + a->dtype.getName() +
                              " operands");
    bad = true;
  }
  for (int i = 0; !ascend && i < 2; ++i) {
    BufferObj *x = regs[i]->buffer;
    if (!lang::isSharedScope(x->scope) && x->scope != MemoryScope::Fragment &&
        x->scope != MemoryScope::TensorMemory) {
      in.error(p.node(names[i]), llvm::Twine("T.gemm operand ") + names[i] +
                                     " must be in shared memory or a "
                                     "fragment, but '" +
                                     x->name + "' is in " +
                                     lang::getScopeString(x->scope));
      bad = true;
    }
  }
  if (bad)
    return Value::poison();
  auto &B = in.ir->b;
  mlir::Value ops[3];
  for (int i = 0; i < 3; ++i)
    if (!(ops[i] = in.regionValue(regs[i], p.node(names[i]))))
      return Value::poison();
  // clear_accum known only at run time (`clear_accum=k == 0` in the first
  // iteration of a loop): C is cleared under that condition, then the gemm
  // accumulates, which is what TileLang's lowering of the flag does.
  std::optional<Value> clearArg = p.get("clear_accum");
  if (clearArg && !clearArg->isNone() && !clearArg->isIntLike()) {
    Scalar c = in.toScalar(*clearArg, p.node("clear_accum"));
    if (!c)
      return Value::poison();
    mlir::Location l = in.ir->loc(p.node("clear_accum"));
    mlir::Value pred = in.ir->convert(c.value, B.getI1Type(), l);
    auto ifOp = tile::IfOp::create(B, l, pred, /*withElse=*/false);
    mlir::OpBuilder::InsertionGuard guard(B);
    B.setInsertionPointToEnd(ifOp.thenBlock());
    tile::ClearOp::create(B, l, ops[2]);
  }
  auto op = tile::GemmOp::create(B, in.ir->loc(p.call), ops[0], ops[1], ops[2]);
  if (tA)
    op->setAttr("transpose_a", B.getUnitAttr());
  if (tB)
    op->setAttr("transpose_b", B.getUnitAttr());
  if (p.flag("clear_accum", false))
    op->setAttr("clear_accum", B.getUnitAttr());
  if (std::optional<Value> pol = p.get("policy")) {
    tile::GemmWarpPolicy policy = tile::GemmWarpPolicy::Square;
    llvm::StringRef name;
    if (pol->isObj(ObjKind::EnumMember))
      name = pol->as<EnumMemberObj>()->info->getShortName();
    if (name == "FullRow" || (pol->isIntLike() && pol->getInt() == 1))
      policy = tile::GemmWarpPolicy::FullRow;
    else if (name == "FullCol" || (pol->isIntLike() && pol->getInt() == 2))
      policy = tile::GemmWarpPolicy::FullCol;
    op->setAttr("policy", tile::GemmWarpPolicyAttr::get(B.getContext(), policy));
  }
  if (std::optional<Value> kp = p.get("k_pack"))
    if (kp->isIntLike())
      op->setAttr("k_pack", B.getI64IntegerAttr(kp->getInt()));
  // A tensor-memory accumulator (Blackwell's tcgen05.mma): the gemm runs
  // asynchronously and `mbar` receives one arrival when it is done
  // (tcgen05.commit), the statement T.tcgen05_mma_arrive(mbar) stands for.
  if (c->scope != MemoryScope::TensorMemory)
    return Value::none();
  if (p.flag("use_2cta", false))
    op->setAttr("tile.use_2cta", B.getUnitAttr());
  std::optional<Value> mbar = p.get("mbar");
  if (!mbar || mbar->isNone())
    return Value::none();
  CallArgs arrive;
  arrive.pos.push_back(*mbar);
  arrive.posNodes.push_back(p.node("mbar"));
  if (p.flag("use_2cta", false)) {
    arrive.kw.push_back({"arrive_2cta", Value::boolean(true)});
    arrive.kwNodes.push_back(p.node("use_2cta"));
  }
  Value r = in.callPrimitive(*lang::lookupBuiltin("T.tcgen05_mma_arrive"),
                             arrive, p.call);
  return r.isAbrupt() ? r : Value::none();
}

/// T.fill / T.clear of a slice whose extent is known only when the kernel
/// runs (`x[a:b]`, a and b read from memory): no tile op addresses such a
/// region, so its elements are written by a T.Parallel over the run-time
/// extents (TileLang lowers the fill to such a loop).
static Value fillRuntimeExtents(Interpreter &in, const PArgs &p, RegionObj *r,
                                bool clear) {
  const char *what = clear ? "T.clear" : "T.fill";
  if (!in.usable(r->buffer))
    return Value::poison();
  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  mlir::Type want = in.ir->valueType(r->buffer->dtype);
  mlir::Value v;
  if (clear) {
    v = mlir::arith::ConstantOp::create(
        B, l, mlir::cast<mlir::TypedAttr>(B.getZeroAttr(want)));
  } else {
    Scalar s = in.toScalar(p.getOr("value", Value::poison()),
                           p.node("value"), want);
    if (!s)
      return Value::poison();
    v = in.ir->convert(s.value, want, l, s.dtype.isUnsignedInteger());
  }
  // A copy: the table behind regionRuntimeExtents may grow (and move)
  // while the starts below are evaluated.
  llvm::SmallVector<mlir::Value, 4> sizes = regionRuntimeExtents(r);
  llvm::SmallVector<mlir::Value, 4> starts;
  llvm::SmallVector<mlir::OpFoldResult, 4> ext;
  for (auto [d, e] : llvm::enumerate(r->extents)) {
    mlir::Value start = in.toIndex(r->starts[d], p.node("buffer"));
    if (!start)
      return Value::poison();
    starts.push_back(start);
    if (!e) {
      if (d >= sizes.size() || !sizes[d])
        return in.fail(p.node("buffer"),
                       llvm::Twine(what) + ": the extent of dimension " +
                           llvm::Twine(d) + " of '" + r->buffer->name +
                           "' is not known when the kernel runs");
      ext.push_back(sizes[d]);
    } else {
      ext.push_back(in.ir->foldResult(e, l));
    }
  }
  mlir::OpBuilder::InsertionGuard guard(B);
  auto par = tile::ParallelOp::create(B, l, ext);
  B.setInsertionPointToEnd(&par.getBody().front());
  llvm::SmallVector<mlir::Value, 4> idx;
  for (auto [d, iv] : llvm::enumerate(par.getInductionVars())) {
    mlir::Value step = r->getStep(d) == 1
                           ? iv
                           : mlir::arith::MulIOp::create(
                                 B, l, iv, in.ir->constIndex(r->getStep(d), l))
                                 .getResult();
    idx.push_back(mlir::arith::AddIOp::create(B, l, starts[d], step));
  }
  tile::StoreOp::create(B, l, v, r->buffer->value, idx);
  return Value::none();
}

static Value tileFill(Interpreter &in, const PArgs &p, bool clear) {
  Value bufV = p.getOr("buffer", Value::poison());
  if (bufV.isAbrupt())
    return bufV;
  const char *what = clear ? "T.clear" : "T.fill";
  if (in.checkInKernel(what, p.call))
    return Value::poison();
  RegionObj *r = in.asRegion(bufV, p.node("buffer"));
  if (!r)
    return in.fail(p.node("buffer"), llvm::Twine(what) +
                                         " expects a buffer or region, not '" +
                                         bufV.getTypeName() + "'");
  // A thread's own buffer (local, var) may be filled inside T.Parallel:
  // each iteration fills its thread's copy.
  bool perThread = r->buffer->scope == MemoryScope::Local ||
                   r->buffer->scope == MemoryScope::LocalVar;
  if (!r->isElement && !perThread && in.checkNotInParallel(what, p.call))
    return Value::poison();
  if (r->isElement) {
    auto *copy = in.heap.make<RegionObj>(*r);
    forgetRuntimeExtents(copy);
    copy->isElement = false;
    r = copy;
  }
  if (llvm::any_of(r->extents, [](SymExpr e) { return !e; }))
    return fillRuntimeExtents(in, p, r, clear);
  mlir::Value target = in.regionValue(r, p.node("buffer"));
  if (!target)
    return Value::poison();
  mlir::Location l = in.ir->loc(p.call);
  if (clear) {
    tile::ClearOp::create(in.ir->b, l, target);
    return Value::none();
  }
  mlir::Type want = in.ir->valueType(r->buffer->dtype);
  Scalar s = in.toScalar(p.getOr("value", Value::poison()), p.node("value"),
                         want);
  if (!s)
    return Value::poison();
  mlir::Value v = in.ir->convert(s.value, want, l, s.dtype.isUnsignedInteger());
  // TileLang fills a reducer's partial in every thread (its legacy form;
  // the epoch form rejects T.fill): a sum or bitxor reducer must be filled
  // with 0, or the value would count once per thread.
  if (r->buffer->scope == MemoryScope::Reducer) {
    llvm::StringRef kind = "sum";
    if (mlir::Operation *def = r->buffer->value.getDefiningOp())
      if (auto k = def->getAttrOfType<mlir::StringAttr>("reducer"))
        kind = k.getValue();
    mlir::Attribute c;
    bool zero = false;
    if (mlir::matchPattern(v, mlir::m_Constant(&c))) {
      if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(c))
        zero = i.getValue().isZero();
      else if (auto f = llvm::dyn_cast<mlir::FloatAttr>(c))
        zero = f.getValue().isZero();
    }
    if ((kind == "sum" || kind == "bitxor") && !zero)
      return in.fail(p.node("value"),
                     "T.fill: a '" + kind +
                         "' reducer must be filled with 0 (every thread's "
                         "partial takes the value, so it would count once "
                         "per thread); give an initial value to "
                         "T.reducer_init(reducer, init)");
  }
  tile::FillOp::create(in.ir->b, l, target, v);
  return Value::none();
}

static Value tileReduce(Interpreter &in, const PArgs &p, tile::ReduceKind kind) {
  if (in.checkInKernel(p.info.name, p.call) ||
      in.checkNotInParallel(p.info.name, p.call))
    return Value::poison();
  Value srcV = p.getOr("buffer", Value::poison());
  Value dstV = p.getOr("out", Value::poison());
  if (srcV.isAbrupt() || dstV.isAbrupt())
    return Value::poison();
  RegionObj *s = in.asRegion(srcV, p.node("buffer"));
  RegionObj *d = in.asRegion(dstV, p.node("out"));
  if (!s || !d)
    return in.fail(p.call, p.info.name + " expects buffers");
  bool bitwise = kind == tile::ReduceKind::BitAnd ||
                 kind == tile::ReduceKind::BitOr ||
                 kind == tile::ReduceKind::BitXor;
  if (bitwise && s->buffer && !s->buffer->dtype.isInteger() &&
      !s->buffer->dtype.isBool())
    return in.fail(p.node("buffer"),
                   p.info.name + " requires an integer or bool buffer, got " +
                       s->buffer->dtype.getName());
  int64_t rank = s->extents.size();
  Value dimV = p.getOr("dim", Value::integer(-1));
  if (!dimV.isIntLike())
    return in.fail(p.node("dim"), "dim must be an integer");
  int64_t dim = dimV.getInt();
  if (dim < 0)
    dim += rank;
  if (dim < 0 || dim >= rank)
    return in.fail(p.node("dim"), "dim " + llvm::Twine(dimV.getInt()) +
                                      " is out of range for a " +
                                      llvm::Twine(rank) + "-D buffer");
  llvm::SmallVector<SymExpr, 4> expect;
  for (int64_t i = 0; i < rank; ++i)
    if (i != dim)
      expect.push_back(s->extents[i]);
  auto *e = in.heap.make<RegionObj>();
  forgetRuntimeExtents(e);
  e->extents = expect;
  RegionObj withUnit = *e;
  if (!shapesAgree(in, e, d))
    return in.fail(p.call, p.info.name + ": output shape " +
                               shapeStr(d->extents) +
                               " does not match input shape " +
                               shapeStr(s->extents) + " reduced along dim " +
                               llvm::Twine(dim));
  mlir::Value sv = in.regionValue(s, p.node("buffer"));
  mlir::Value dv = in.regionValue(d, p.node("out"));
  if (!sv || !dv)
    return Value::poison();
  bool clear = p.info.findParam("clear") >= 0 ? p.flag("clear", true) : true;
  auto &B = in.ir->b;
  tile::ReduceOp::create(B, in.ir->loc(p.call),
                           tile::ReduceKindAttr::get(B.getContext(), kind), sv,
                           dv, B.getI64IntegerAttr(dim),
                           clear ? B.getUnitAttr() : mlir::UnitAttr());
  return Value::none();
}

static Value tileCumsum(Interpreter &in, const PArgs &p) {
  if (in.checkInKernel("T.cumsum", p.call) ||
      in.checkNotInParallel("T.cumsum", p.call))
    return Value::poison();
  Value srcV = p.getOr("src", Value::poison());
  Value dstV = p.getOr("dst", Value::none());
  if (dstV.isNone())
    dstV = srcV;
  RegionObj *s = in.asRegion(srcV, p.node("src"));
  RegionObj *d = in.asRegion(dstV, p.node("dst"));
  if (!s || !d)
    return srcV.isAbrupt() ? srcV : in.fail(p.call, "T.cumsum expects buffers");
  if (!shapesAgree(in, s, d))
    return in.fail(p.call, "T.cumsum between buffers of different shapes: " +
                               shapeStr(s->extents) + " and " +
                               shapeStr(d->extents));
  if (!in.usable(s->buffer) || !in.usable(d->buffer))
    return Value::poison();
  int64_t rank = s->extents.size();
  Value dimV = p.getOr("dim", Value::integer(0));
  int64_t dim = dimV.isIntLike() ? dimV.getInt() : 0;
  if (dim < 0)
    dim += rank;
  if (dim < 0 || dim >= rank)
    return in.fail(p.node("dim"), "dim is out of range");
  auto &B = in.ir->b;
  tile::CumSumOp::create(B, in.ir->loc(p.call), in.regionValue(s, p.node("src")),
                           in.regionValue(d, p.node("dst")),
                           B.getI64IntegerAttr(dim),
                           p.flag("reverse", false) ? B.getUnitAttr()
                                                    : mlir::UnitAttr());
  return Value::none();
}

/// T.atomic_addx2 / T.atomic_addx4: `width` adjacent elements along the
/// innermost dimension, dst[..., j + e] += value[..., c + e] for each e
/// (TileLang passes both as addresses, so \p val is an element of a buffer,
/// not a scalar). Each element is its own atomic add: the same result as
/// the packed instruction, which is atomic per element too.
static Value atomicAddVector(Interpreter &in, const PArgs &p, RegionObj *d,
                             llvm::ArrayRef<mlir::Value> idx, Value val,
                             int width) {
  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  std::string name = "T.atomic_addx" + std::to_string(width);
  if (!val.is(ValueKind::Region) || !val.as<RegionObj>()->isElement)
    return in.fail(p.node("value"),
                   name + " adds " + std::to_string(width) +
                       " adjacent elements: its value must be a buffer "
                       "element such as S[i, 2 * j], not a scalar");
  if (p.flag("return_prev", false))
    return in.fail(p.call, name + "(..., return_prev=True) is not supported: "
                                  "it returns a vector");
  RegionObj *v = val.as<RegionObj>();
  if (!in.usable(v->buffer) || idx.empty() || v->starts.empty())
    return Value::poison();
  llvm::SmallVector<mlir::Value, 4> vidx;
  for (Value s : v->starts) {
    mlir::Value iv = in.toIndex(s, p.node("value"));
    if (!iv)
      return Value::poison();
    vidx.push_back(iv);
  }
  mlir::Type want = in.ir->valueType(d->buffer->dtype);
  for (int e = 0; e < width; ++e) {
    llvm::SmallVector<mlir::Value, 4> di(idx), si(vidx);
    if (e) {
      mlir::Value off = in.ir->constInt(e, B.getIndexType(), l);
      di.back() = mlir::arith::AddIOp::create(B, l, di.back(), off);
      si.back() = mlir::arith::AddIOp::create(B, l, si.back(), off);
    }
    mlir::Value x = tile::LoadOp::create(
        B, l, in.ir->valueType(v->buffer->dtype), v->buffer->value, si);
    tile::AtomicAddOp::create(B, l, mlir::Type(), d->buffer->value, di,
                              in.ir->convert(x, want, l),
                              tile::MemoryOrderAttr());
  }
  return Value::none();
}

/// The memory_order argument of T.atomic_add as an attribute: null when it
/// is None or absent (a relaxed add), failure (reported as TileLang's
/// ValueError) when it names no C++ memory order.
static mlir::FailureOr<tile::MemoryOrderAttr> atomicOrder(Interpreter &in,
                                                          const PArgs &p) {
  std::optional<Value> v = p.get("memory_order");
  if (!v || v->isNone())
    return tile::MemoryOrderAttr();
  std::optional<tile::MemoryOrder> order;
  if (v->is(ValueKind::Str))
    order = tile::symbolizeMemoryOrder(getStr(*v));
  if (!order) {
    in.errorAs("ValueError", p.node("memory_order").range(),
               "T.atomic_add: memory_order must be one of 'relaxed', "
               "'consume', 'acquire', 'release', 'acq_rel', 'seq_cst' or "
               "None");
    return mlir::failure();
  }
  return tile::MemoryOrderAttr::get(in.ir->b.getContext(), *order);
}

static Value tileAtomicAdd(Interpreter &in, const PArgs &p, int width = 1) {
  if (in.checkInKernel("T.atomic_add", p.call))
    return Value::poison();
  mlir::FailureOr<tile::MemoryOrderAttr> order = atomicOrder(in, p);
  if (mlir::failed(order))
    return Value::poison();
  Value dstV = p.getOr("dst", Value::poison());
  Value val = p.getOr("value", Value::poison());
  if (dstV.isAbrupt() || val.isAbrupt())
    return Value::poison();
  RegionObj *d = in.asRegion(dstV, p.node("dst"));
  if (!d)
    return in.fail(p.node("dst"), "T.atomic_add destination must be a buffer "
                                  "element or region");
  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  bool tileForm = (val.is(ValueKind::Buffer) &&
                   val.as<BufferObj>()->scope != MemoryScope::LocalVar) ||
                  (val.is(ValueKind::Region) && !val.as<RegionObj>()->isElement);
  if (tileForm) {
    if (in.checkNotInParallel("T.atomic_add of a tile", p.call))
      return Value::poison();
    RegionObj *s = in.asRegion(val, p.node("value"));
    if (d->isElement)
      d = inferExtents(in, d, s);
    if (!d || !shapesAgree(in, s, d))
      return in.fail(p.call, "T.atomic_add between regions of different "
                             "shapes");
    if (!in.usable(d->buffer) || !in.usable(s->buffer))
      return Value::poison();
    tile::AtomicAddOp::create(
        B, l, mlir::Type(), in.regionValue(d, p.node("dst")),
        mlir::ValueRange(), in.regionValue(s, p.node("value")), *order);
    return Value::none();
  }
  if (!d->isElement && (width > 1 || p.flag("return_prev", false)))
    return in.fail(p.node("dst"),
                   width > 1 ? "T.atomic_addx" + llvm::Twine(width) +
                                   " of a scalar needs an element "
                                   "destination such as C[i, j]"
                             : llvm::Twine("T.atomic_add with return_prev "
                                           "needs an element destination "
                                           "such as C[i, j]"));
  if (!in.usable(d->buffer))
    return Value::poison();
  if (!d->isElement) {
    // T.atomic_add(region, value): the scalar is added to every element of
    // the region, the elements spread over the block's threads as a
    // T.Parallel spreads them (TileLang's tile form with a value source).
    if (in.checkNotInParallel("T.atomic_add of a region", p.call))
      return Value::poison();
    mlir::Type want = in.ir->valueType(d->buffer->dtype);
    Scalar s = in.toScalar(val, p.node("value"), want);
    if (!s)
      return Value::poison();
    mlir::Value v = in.ir->convert(s.value, want, l);
    llvm::SmallVector<mlir::Value, 4> starts;
    for (Value st : d->starts) {
      mlir::Value iv = in.toIndex(st, p.node("dst"));
      if (!iv)
        return Value::poison();
      starts.push_back(iv);
    }
    llvm::SmallVector<mlir::OpFoldResult, 4> ext;
    for (SymExpr e : d->extents)
      ext.push_back(in.ir->foldResult(e, l));
    mlir::OpBuilder::InsertionGuard guard(B);
    auto par = tile::ParallelOp::create(B, l, ext);
    B.setInsertionPointToEnd(&par.getBody().front());
    llvm::SmallVector<mlir::Value, 4> idx;
    for (auto [start, iv] : llvm::zip(starts, par.getInductionVars()))
      idx.push_back(mlir::arith::AddIOp::create(B, l, start, iv));
    tile::AtomicAddOp::create(B, l, mlir::Type(), d->buffer->value, idx, v,
                              *order);
    return Value::none();
  }
  llvm::SmallVector<mlir::Value, 4> idx;
  for (Value s : d->starts) {
    mlir::Value iv = in.toIndex(s, p.node("dst"));
    if (!iv)
      return Value::poison();
    idx.push_back(iv);
  }
  mlir::Type want = in.ir->valueType(d->buffer->dtype);
  if (width > 1)
    return atomicAddVector(in, p, d, idx, val, width);
  Scalar s = in.toScalar(val, p.node("value"), want);
  if (!s)
    return Value::poison();
  mlir::Value v = in.ir->convert(s.value, want, l);
  bool prev = p.flag("return_prev", false);
  auto op = tile::AtomicAddOp::create(B, l, prev ? want : mlir::Type(),
                                      d->buffer->value, idx, v, *order);
  if (prev)
    return in.wrapScalar({op.getPrev(), d->buffer->dtype, SymExpr()});
  return Value::none();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// T.Tensor(shape, dtype) and friends used as a type.
static Value makeTensorType(Interpreter &in, const PArgs &p,
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
    std::optional<lang::DType> d = in.toDType(*dt, p.node("dtype"));
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

/// Builds a LoopFrame from (start, stop, step) arguments.
static Value makeRangeLoop(Interpreter &in, const PArgs &p, LoopKind kind) {
  auto *loop = in.heap.make<LoopFrameObj>();
  loop->objKind = ObjKind::LoopFrame;
  loop->loopKind = kind;
  loop->call = p.call;
  Value start = p.getOr("start", Value::integer(0));
  std::optional<Value> stop = p.get("stop");
  if (!stop || stop->isNone()) {
    loop->starts.push_back(Value::integer(0));
    loop->stops.push_back(start);
  } else {
    loop->starts.push_back(start);
    loop->stops.push_back(*stop);
  }
  Value step = p.getOr("step", Value::integer(1));
  loop->steps.push_back(step.isNone() ? Value::integer(1) : step);
  for (Value v : {loop->starts[0], loop->stops[0], loop->steps[0]})
    if (v.isAbrupt())
      return v;
  if (kind == LoopKind::Pipelined) {
    Value ns = p.getOr("num_stages", Value::integer(0));
    loop->numStages = ns.isIntLike() ? ns.getInt() : 0;
    loop->order = p.getOr("order", Value::none());
    loop->stage = p.getOr("stage", Value::none());
    // `T.Pipelined(n, order=..., stage=...)` without num_stages: the stage
    // list says how many stages there are (TileLang plans from it).
    if ((ns.isNone() || !p.get("num_stages")) && loop->stage.isSequence()) {
      int64_t maxStage = -1;
      for (const Value &s : getElems(loop->stage))
        if (s.isIntLike())
          maxStage = std::max<int64_t>(maxStage, s.getInt());
      if (maxStage >= 0)
        loop->numStages = std::max<int64_t>(loop->numStages, maxStage + 1);
    }
  }
  return in.heap.obj(ObjKind::LoopFrame, loop);
}

/// Checks the CUDA Tile IR launch hints of `T.Kernel` (num_ctas, occupancy,
/// num_worker_warps, tileir_hints). TileLang converts each with int() when
/// it builds the launch (a non-integer raises there) and leaves the ranges
/// to its Tile IR lowering; tlc has no Tile IR backend and its targets
/// ignore the hints, so a value out of Tile IR's range is a warning.
/// False when an error was reported.
static bool checkTileIRHints(Interpreter &in, const PArgs &p) {
  struct Hint {
    llvm::StringRef name;
    bool (*valid)(int64_t);
    llvm::StringRef range;
  };
  static const Hint hints[] = {
      {"num_ctas",
       [](int64_t v) { return v >= 1 && v <= 16 && (v & (v - 1)) == 0; },
       "a power of two in [1, 16]"},
      {"occupancy", [](int64_t v) { return v >= 1 && v <= 32; },
       "in [1, 32]"},
      {"num_worker_warps", [](int64_t v) { return v == 4 || v == 8; },
       "4 or 8"},
  };
  bool scalarHint = false;
  for (const Hint &h : hints) {
    std::optional<Value> v = p.get(h.name);
    if (!v || v->isNone())
      continue;
    scalarHint = true;
    if (!v->isIntLike()) {
      in.error(p.node(h.name), "T.Kernel's " + h.name +
                                   " must be an integer, not '" +
                                   v->getTypeName() + "'");
      return false;
    }
    if (!h.valid(v->getInt()))
      in.warning(p.node(h.name),
                 "CUDA Tile IR takes " + h.name + " " + h.range + ", not " +
                     llvm::Twine(v->getInt()) +
                     " (tlc's targets ignore this hint)");
  }
  // TileLang's OpenMP thread count for the C target (`num_threads(n)` on
  // the parallel grid loop): a positive integer; tlc's CPU target ignores
  // it.
  if (std::optional<Value> n = p.get("cpu_num_threads");
      n && !n->isNone() && !n->is(ValueKind::Sym) &&
      (!n->isIntLike() || n->isBool() || n->getInt() < 1)) {
    in.errorAs("ValueError", p.node("cpu_num_threads").range(),
               "T.Kernel's cpu_num_threads must be a positive integer, not " +
                   in.toString(*n, true));
    return false;
  }
  std::optional<Value> t = p.get("tileir_hints");
  if (!t || t->isNone())
    return true;
  if (!t->is(ValueKind::Dict)) {
    in.error(p.node("tileir_hints"),
             "tileir_hints must be a dict of per-architecture hint dicts, "
             "not '" +
                 t->getTypeName() + "'");
    return false;
  }
  for (auto &arch : t->as<DictObj>()->items) {
    bool ok = arch.second.is(ValueKind::Dict) || arch.second.isNone();
    if (ok && arch.second.is(ValueKind::Dict))
      for (auto &kv : arch.second.as<DictObj>()->items)
        ok = ok && kv.second.isIntLike();
    if (!ok) {
      in.error(p.node("tileir_hints"),
               "tileir_hints: each per-architecture value must be a dict of "
               "integer hint values (e.g. {'sm_100': {'num_cta_in_cga': 2}})");
      return false;
    }
  }
  if (scalarHint)
    in.warning(p.node("tileir_hints"),
               "tileir_hints cannot be combined with num_ctas, occupancy or "
               "num_worker_warps (CUDA Tile IR rejects the launch; tlc's "
               "targets ignore the hints)");
  return true;
}

/// The frame of `T.Kernel`, `T.ClusterKernel` or `T.CUDASourceCodeKernel`.
/// A grid extent tlc cannot know (a value from outside TileLang) becomes a
/// run-time symbol with a warning, so the body is still analysed.
Value Interpreter::makeKernelFrame(const PArgs &p) {
  Node at = p.call;
  auto *k = heap.make<KernelFrameObj>();
  k->call = at;
  for (Value g : p.rest("blocks")) {
    if (g.isAbrupt())
      return g;
    if (g.is(ValueKind::Opaque)) {
      warning(at, "tlc cannot evaluate the grid extent '" + toString(g) +
                      "'; it is analysed as a run-time value");
      g = Value::sym(syms.freshSymbol("grid"));
    } else if (!g.isIntLike() && !g.is(ValueKind::Sym) &&
               !g.is(ValueKind::Expr)) {
      error(at, "grid extents must be integers, not '" + g.getTypeName() +
                    "'");
      g = Value::sym(syms.freshSymbol("grid"));
    }
    k->grid.push_back(g);
  }
  // `T.Kernel()` launches one block.
  if (k->grid.empty())
    k->grid.push_back(Value::integer(1));
  if (k->grid.size() > 3)
    return fail(at, "T.Kernel takes 1 to 3 grid extents, got " +
                        llvm::Twine(k->grid.size()));
  Value threads = p.getOr("threads", Value::integer(128));
  if (threads.isNone())
    threads = Value::integer(128);
  if (threads.isSequence())
    k->threads.append(getElems(threads).begin(), getElems(threads).end());
  else
    k->threads.push_back(threads);
  for (Value &t : k->threads) {
    if (t.isAbrupt())
      return t;
    if (t.is(ValueKind::Opaque))
      t = Value::sym(syms.freshSymbol("threads"));
  }
  if (std::optional<Value> c = p.get("cluster_dims")) {
    llvm::SmallVector<Value, 3> dims;
    if (c->isSequence())
      dims.append(getElems(*c).begin(), getElems(*c).end());
    else
      dims.push_back(*c);
    for (Value d : dims) {
      if (d.isNone())
        continue;
      if (!d.isIntLike() || d.getInt() <= 0)
        return fail(p.node("cluster_dims"),
                    "cluster_dims must be positive integers");
      k->clusterDims.push_back(d.getInt());
    }
    // A cluster launch tiles the grid with clusters: every static grid
    // extent must be a multiple of the cluster's extent along it (a grid
    // extent known only at run time is checked by the launcher).
    for (auto [i, d] : llvm::enumerate(k->clusterDims)) {
      int64_t g = i < k->grid.size()
                      ? (k->grid[i].isIntLike() ? k->grid[i].getInt() : 0)
                      : 1;
      if (d > 1 && g > 0 && g % d)
        return fail(p.node("cluster_dims"),
                    "the grid's extent " + llvm::Twine(g) + " along " +
                        std::string(1, "xyz"[std::min<size_t>(i, 2)]) +
                        " is not a multiple of the cluster's extent " +
                        llvm::Twine(d) +
                        " (a cluster launch tiles the grid with clusters)");
    }
  }
  if (!checkTileIRHints(*this, p))
    return Value::poison();
  if (std::optional<Value> s = p.get("source_code_or_path"))
    if (s->isStr())
      k->sourceCode = getStr(*s);
  if (std::optional<Value> prelude = p.get("prelude")) {
    Value r = importSource(*prelude, p.node("prelude"));
    if (r.isAbrupt())
      return r;
  }
  return heap.obj(ObjKind::KernelFrame, k);
}

/// The tile operations that compute with their operands' values: an
/// operand of unpacked 4/6-bit float codes would be computed on as bytes.
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

std::optional<Value> Interpreter::callKernelPrimitive(const PArgs &p) {
  Node at = p.call;
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
                  ": it maps two elements of the buffer to one place (a "
                  "buffer's layout must be injective)");
          continue;
        }
        layout = lo->attr ? lo->attr : ir->b.getStringAttr(lo->description);
        if (!lo->whyOpaque.empty())
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
