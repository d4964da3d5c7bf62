//===- TileCopy.cpp - T.copy and its variants -----------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.copy` between buffers and regions of every scope (with its element
// loop for run-time extents, the scale-factor copy into tensor memory and
// its cache policies), `T.tma_copy` and `T.async_copy`, and the region shape
// helpers the other tile operations share.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"
#include "RuntimeExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/StringExtras.h"

using namespace tlc;
using namespace tlc::eval;
using lang::MemoryScope;

//===----------------------------------------------------------------------===//
// Region shapes
//===----------------------------------------------------------------------===//

/// Extents of a region with unit dimensions dropped.
llvm::SmallVector<SymExpr, 4> eval::squeeze(llvm::ArrayRef<SymExpr> ext) {
  llvm::SmallVector<SymExpr, 4> out;
  for (SymExpr e : ext)
    if (!(e && e.isConstant() && *e.getConstant() == 1))
      out.push_back(e);
  return out;
}

std::string eval::shapeStr(llvm::ArrayRef<SymExpr> ext) {
  std::string s = "[";
  for (size_t i = 0; i < ext.size(); ++i) {
    if (i)
      s += ", ";
    s += ext[i] ? ext[i].str() : "?";
  }
  return s + "]";
}

/// Gives an element-form region the extents of \p other (right-aligned).
RegionObj *eval::inferExtents(Interpreter &in, RegionObj *r,
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
bool eval::shapesAgree(Interpreter &in, const RegionObj *a,
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

//===----------------------------------------------------------------------===//
// T.copy
//===----------------------------------------------------------------------===//

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
    std::optional<int64_t> e =
        r->extents[i] ? r->extents[i].getConstant() : std::nullopt;
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

/// True when \p a and \p b are a packed 4/6-bit float dtype and the
/// unpacked storage dtype of the same codes (one code per byte), in either
/// order.
static bool isPackedUnpackedPair(lang::DType a, lang::DType b) {
  using lang::ScalarType;
  auto packedOf = [](lang::DType t) -> std::optional<ScalarType> {
    switch (t.getScalarType()) {
    case ScalarType::Float4E2M1Unpacked:
      return ScalarType::Float4E2M1FN;
    case ScalarType::Float6E2M3FNUnpacked:
      return ScalarType::Float6E2M3FN;
    case ScalarType::Float6E3M2FNUnpacked:
      return ScalarType::Float6E3M2FN;
    default:
      return std::nullopt;
    }
  };
  if (a.isVector() || b.isVector())
    return false;
  if (std::optional<ScalarType> p = packedOf(a))
    return b.getScalarType() == *p;
  if (std::optional<ScalarType> p = packedOf(b))
    return a.getScalarType() == *p;
  return false;
}

Value tlc::eval::tileCopy(Interpreter &in, const PArgs &p) {
  if (in.checkInKernel("T.copy", p.call))
    return Value::poison();
  // `T.copy(A[i, j], B[i, j])`: two single elements, which TileLang's copy
  // turns into the store `B[i, j] = A[i, j]` before any tile operation is
  // made, so it may stand inside a T.Parallel too.
  if (std::optional<Value> src = p.get("src"), dst = p.get("dst");
      src && dst && src->is(ValueKind::Region) && dst->is(ValueKind::Region) &&
      src->as<RegionObj>()->isElement && dst->as<RegionObj>()->isElement &&
      llvm::any_of(in.loops, [](const LoopCtx &l) {
        return l.kind == LoopKind::Parallel;
      })) {
    if (in.irStore(*dst, *src, p.call) == Flow::Raise)
      return Value::exception();
    return Value::none();
  }
  if (in.checkNotInParallel("T.copy", p.call))
    return Value::poison();
  Value src = p.getOr("src", Value::poison());
  Value dst = p.getOr("dst", Value::poison());
  if (src.isAbrupt() || dst.isAbrupt())
    return Value::poison();
  // The PTX cache operators a copy's global loads / stores may name;
  // TileLang rejects others with a ValueError when the copy is traced.
  static const llvm::StringRef loadPolicies[] = {"ca", "cg", "cs", "lu", "cv"};
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
                                  "not '" +
                                      src.getTypeName() + "'");
  if (!d)
    return in.fail(p.node("dst"), "T.copy destination must be a buffer or "
                                  "region, not '" +
                                      dst.getTypeName() + "'");
  if (!checkAscendCopyOptions(in, p, s, d))
    return Value::poison();
  if (p.flag("transpose", false))
    return ascendTransposeCopy(in, p, src, dst);
  // Ascend's fixpipe flag: only a copy out of the cube unit's L0C has it.
  if (std::optional<Value> flag = p.get("unit_flag_ctrl");
      flag && !flag->isNone() && s->buffer->scope != MemoryScope::AscendL0C)
    return in.fail(p.node("unit_flag_ctrl"),
                   "T.copy: unit_flag_ctrl is TileLang's Ascend argument of a "
                   "copy out of L0C (T.alloc_l0c), but '" +
                       s->buffer->name + "' is in " +
                       lang::getScopeString(s->buffer->scope));
  // Unpacked float codes copy only as themselves or, through TMA, from and
  // to their packed form (TileLang's TMA descriptors unpack on load and
  // pack on store: CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B and friends);
  // TileLang's SIMT copy between the two is its error.
  if (s->buffer->dtype != d->buffer->dtype &&
      (s->buffer->dtype.isUnpackedFloat() ||
       d->buffer->dtype.isUnpackedFloat()) &&
      !(p.info.id == lang::BuiltinId::TmaCopy &&
        isPackedUnpackedPair(s->buffer->dtype, d->buffer->dtype)))
    return in.fail(p.call, p.info.name + " from " + s->buffer->dtype.getName() +
                               " to " + d->buffer->dtype.getName() +
                               ": unpacked float codes are copied only "
                               "between buffers of their own dtype (convert "
                               "element by element with T.Cast)");
  // What TileLang's TMA does here (unpacking on load, packing on store),
  // no tlc target generates yet.
  if (s->buffer->dtype != d->buffer->dtype &&
      (s->buffer->dtype.isUnpackedFloat() ||
       d->buffer->dtype.isUnpackedFloat()))
    in.markUnbuildable(p.call, "tlc.unbuildable",
                       ("T.tma_copy from " + s->buffer->dtype.getName() +
                        " to " + d->buffer->dtype.getName() +
                        ": no tlc target generates the TMA copy that packs "
                        "or unpacks the codes yet"));
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
Value eval::tileTmaCopy(Interpreter &in, const PArgs &p) {
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
Value eval::tileAsyncCopy(Interpreter &in, const PArgs &p) {
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
