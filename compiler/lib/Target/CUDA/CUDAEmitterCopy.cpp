//===- CUDAEmitterCopy.cpp - T.copy for CUDA -----------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.copy: between memories partitioned over the block's threads (in the
// chunks and instructions tile-plan-copies chooses, CopyPlan.h; every
// global access guarded), and between fragments and memory register by
// register.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "SafeValue.h"

#include "tlc/Dialect/Tile/Transforms/CopyPlan.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

//===----------------------------------------------------------------------===//
// Fragment copies
//===----------------------------------------------------------------------===//

FailureOr<FragmentWindow>
Emitter::fragmentWindow(Value view, const FragmentInfo &frag, Operation *at) {
  FragmentWindow w;
  w.offsets.assign(frag.shape.size(), 0);
  w.dynamicOffsets.assign(frag.shape.size(), "");
  w.dynamicDivisors.assign(frag.shape.size(), 0);
  // Per dimension, the interval of the run-time offset where it is known.
  SmallVector<std::optional<IndexRange>> dynamicRanges(frag.shape.size(),
                                                       IndexRange{0, 0, 1});
  auto type = cast<BufferType>(view.getType());
  for (unsigned d = 0; d < type.getRank(); ++d) {
    if (!type.getDim(d).isStatic()) {
      at->emitError() << "the " << lang.name
                      << " target copies parts of a fragment of static shape "
                         "only";
      return failure();
    }
    w.extents.push_back(type.getDim(d).getValue());
  }
  while (auto region = view.getDefiningOp<RegionOp>()) {
    for (auto [d, o] : llvm::enumerate(region.getMixedOffsets())) {
      if (std::optional<int64_t> c = getConstantIntValue(o)) {
        w.offsets[d] += *c;
        continue;
      }
      // A run-time offset: its expression, and the multiple it is known
      // to be of (which keeps vector copies where it is one of the vector).
      Value v = cast<Value>(o);
      std::optional<IndexRange> known = rangeOf(v);
      int64_t div = known ? std::max<int64_t>(known->div, 1) : 1;
      std::string &dyn = w.dynamicOffsets[d];
      dyn = dyn.empty() ? expr(v) : dyn + " + " + expr(v);
      w.dynamicDivisors[d] = std::gcd(w.dynamicDivisors[d], div);
      std::optional<IndexRange> &sum = dynamicRanges[d];
      if (sum && known)
        sum = IndexRange{sum->lo + known->lo, sum->hi + known->hi, 1};
      else
        sum.reset();
    }
    view = region.getSource();
  }
  // A run-time window known to reach past the fragment is an error (the
  // registers outside would silently not be copied).
  for (unsigned d = 0; d < frag.shape.size(); ++d) {
    const std::optional<IndexRange> &r = dynamicRanges[d];
    if (w.isConstant(d) || !r)
      continue;
    if (r->lo + w.offsets[d] < 0 ||
        r->hi + w.offsets[d] + w.extents[d] > frag.shape[d]) {
      at->emitError() << "this part of the fragment starts at "
                      << r->lo + w.offsets[d] << ".." << r->hi + w.offsets[d]
                      << " in dimension " << d
                      << ", so it can reach past the fragment's extent "
                      << frag.shape[d];
      return failure();
    }
  }
  for (auto [d, e] : llvm::enumerate(frag.shape))
    w.whole =
        w.whole && w.isConstant(d) && w.offsets[d] == 0 && w.extents[d] == e;
  return w;
}

std::optional<SmallVector<unsigned>>
Emitter::copyDims(ArrayRef<int64_t> src, ArrayRef<int64_t> dst) {
  return fragmentCopyDims(src, dst);
}

/// The copy of \p bytes from \p src to \p dst (addresses) of \p op with the
/// PTX cache operators its `load_cache_policy` / `store_cache_policy` name
/// (T.copy's arguments) on the side that is global memory, or "" when none
/// applies (no policy, or HIP, which has no such operators).
static std::string cachedCopy(CopyOp op, StringRef ns, bool hip, int bytes,
                              StringRef dst, StringRef src,
                              MemoryScope dstScope, MemoryScope srcScope) {
  auto policy = [&](StringRef name, MemoryScope scope) -> std::string {
    auto a = op->getAttrOfType<StringAttr>(name);
    if (hip || !a || scope != MemoryScope::Global)
      return "";
    return a.getValue().upper();
  };
  std::string load = policy("tile.load_cache_policy", srcScope);
  std::string store = policy("tile.store_cache_policy", dstScope);
  if (load.empty() && store.empty())
    return "";
  std::string n = std::to_string(bytes);
  std::string value = load.empty()
                          ? (ns + "loadVector<" + n + ">(" + src + ")").str()
                          : (ns + "loadGlobalCached<" + n + ", " + ns +
                             "LoadCache::" + load + ">(" + src + ")")
                                .str();
  if (store.empty())
    return (ns + "storeVector<" + n + ">(" + dst + ", " + value + ");").str();
  return (ns + "storeGlobalCached<" + n + ", " + ns + "StoreCache::" + store +
          ">(" + dst + ", " + value + ");")
      .str();
}

LogicalResult Emitter::emitFragmentCopy(CopyOp op) {
  Value src = op.getSrc(), dst = op.getDst();
  Value srcRoot = rootOf(src), dstRoot = rootOf(dst);
  bool srcFrag = scopeOf(srcRoot) == MemoryScope::Fragment;
  bool dstFrag = scopeOf(dstRoot) == MemoryScope::Fragment;
  auto srcType = cast<BufferType>(src.getType());
  auto dstType = cast<BufferType>(dst.getType());
  Type srcElem = srcType.getElementType(), dstElem = dstType.getElementType();
  if ((srcFrag && !fragments.count(srcRoot)) ||
      (dstFrag && !fragments.count(dstRoot)) ||
      (srcFrag && dstFrag && (srcRoot != src || dstRoot != dst))) {
    op.emitError() << "the " << lang.name
                   << " target copies whole fragments only";
    return failure();
  }
  const FragmentInfo &frag = fragments[srcFrag ? srcRoot : dstRoot];
  // The part of the fragment the copy touches: every register is visited
  // and those outside the window skip the copy.
  FailureOr<FragmentWindow> window =
      fragmentWindow(srcFrag ? src : dst, frag, op);
  if (failed(window))
    return failure();
  std::string reg = fresh("r");
  if (srcFrag && dstFrag) {
    const FragmentInfo &d = fragments[dstRoot];
    std::optional<SmallVector<unsigned>> dims = copyDims(frag.shape, d.shape);
    if (!dims) {
      op.emitError("fragment copy shapes differ");
      return failure();
    }
    if (exchanges.count(op)) {
      // Different layouts: through the exchange area.
      line(blockBarrier() + "  // the exchange area is free");
      FailureOr<std::string> tile =
          declareExchangeTile(srcRoot, exchangeOffset, op);
      if (failed(tile))
        return failure();
      emitExchange(frag, expr(srcRoot), *tile, /*toShared=*/true);
      line(blockBarrier());
      emitExchange(d, expr(dstRoot), *tile, /*toShared=*/false, srcElem,
                   dstElem);
      endAreaUse(op);
      return success();
    }
    FailureOr<std::string> sIdx =
        fragmentIndex(d, fragments[srcRoot], *dims, reg, op);
    if (failed(sIdx))
      return failure();
    line("#pragma unroll");
    line("for (int " + reg + " = 0; " + reg + " < " + Twine(d.regs) + "; ++" +
         reg + ") " + expr(dstRoot) + "[" + reg + "] = " +
         toStorage(dstElem, fromStorage(srcElem, expr(srcRoot) + "[" + *sIdx +
                                                     "]")) +
         ";");
    return success();
  }
  // Fragment <-> memory: the memory side's non-unit dimensions are the
  // fragment's.
  Value mem = srcFrag ? dst : src;
  auto memType = cast<BufferType>(mem.getType());
  SmallVector<unsigned> memDims;
  SmallVector<int64_t> memExtents;
  for (unsigned d = 0; d < memType.getRank(); ++d) {
    Dim dim = memType.getDim(d);
    if (dim.isStatic() && dim.getValue() == 1)
      continue;
    if (!dim.isStatic()) {
      op.emitError() << "the " << lang.name
                     << " target copies tiles of static shape only";
      return failure();
    }
    memDims.push_back(d);
    memExtents.push_back(dim.getValue());
  }
  SmallVector<int64_t> fragExtents;
  for (int64_t e : window->extents)
    if (e != 1)
      fragExtents.push_back(e);
  if (fragExtents != memExtents) {
    op.emitError("copy shapes differ");
    return failure();
  }
  if (srcFrag && window->whole && op->hasAttr("tile.tma_store")) {
    FailureOr<bool> stored = emitTmaStore(op, frag);
    if (failed(stored) || *stored)
      return failure(failed(stored));
  }
  if (srcFrag && window->whole && !isPackedNibble(dstElem)) {
    FailureOr<bool> staged = emitStagedFragmentStore(op, frag, memDims);
    if (failed(staged))
      return failure();
    if (*staged)
      return success();
  }
  int64_t vec = frag.vec;
  bool sameType = srcElem == dstElem;
  int64_t vecBytes = vec * getElementStorageBytes(dstElem);
  // A fragment -> memory copy that converts (f32 accumulator -> f16)
  // packs the converted elements and stores them as one vector too.
  // A vector runs along the memory's innermost dimension; where that is a
  // unit dimension of the copy (a column G[b, s0:s1, h]), the fragment's
  // last dimension is strided in memory and goes element by element.
  // A window cut inside a vector goes element by element.
  // (A rank-0 fragment has no dimension to cut.)
  bool vectorWindow =
      window->offsets.empty() ||
      (window->offsetMultipleOf(window->offsets.size() - 1, vec) &&
       window->extents.back() % vec == 0);
  // (Packed fp4/int4 goes element by element: vectors count bytes.)
  bool canVector = (sameType || srcFrag) && vec > 1 &&
                   !isPackedNibble(srcElem) && !isPackedNibble(dstElem) &&
                   (vecBytes == 4 || vecBytes == 8 || vecBytes == 16) &&
                   window->extents.back() != 1 && !memDims.empty() &&
                   memDims.back() + 1 == memType.getRank() && vectorWindow &&
                   keepsLdsRuns(ldsSwizzle, rootOf(mem), vec) &&
                   hasUnitInnerStride(rootOf(mem));
  open("");
  if (frag.threadExtent < numThreads || (!srcFrag && false))
    open("if (tid < " + Twine(frag.threadExtent) + ")");
  else
    open("");
  if (srcFrag && frag.repMask) // one replica writes
    open(frag.ifOneReplica());
  else
    open("");
  line("#pragma unroll");
  open("for (int " + reg + " = 0; " + reg + " < " + Twine(frag.regs) + "; " +
       reg + " += " + Twine(vec) + ")");
  SmallVector<std::string> coords = emitCoords(frag, reg, "i");
  // Registers outside the window: their coordinates in every dimension the
  // window cuts (the last one per element where vectors are cut).
  unsigned last = frag.shape.size() - 1;
  auto outside = [&](StringRef e) {
    SmallVector<std::string> conds;
    for (auto [d, c] : llvm::enumerate(coords)) {
      std::string at = c;
      if (d == last && !e.empty())
        at = "(" + c + " + " + e.str() + ")";
      if (!window->isConstant(d)) {
        // A run-time window: both ends checked.
        std::string lo = window->offset(d);
        conds.push_back(at + " < " + lo);
        conds.push_back(at + " >= " + lo + " + " +
                        std::to_string(window->extents[d]));
        continue;
      }
      int64_t lo = window->offsets[d], hi = lo + window->extents[d];
      if (lo == 0 && hi == frag.shape[d])
        continue;
      if (lo > 0)
        conds.push_back(at + " < " + std::to_string(lo));
      if (hi < frag.shape[d])
        conds.push_back(at + " >= " + std::to_string(hi));
    }
    return llvm::join(conds, " || ");
  };
  if (!window->whole && vectorWindow)
    line("if (" + outside("") + ") continue;  // outside the copied part");
  // Memory indices: window dims with extent 1 dropped, coordinates taken
  // relative to the window. Coordinates lie in the window's shape; the last
  // one of a vector starts a vector.
  SmallVector<std::string> memIdx(memType.getRank(), "0");
  SmallVector<std::optional<IndexRange>> memRanges(memType.getRank(),
                                                   IndexRange{0, 0, 0});
  {
    unsigned k = 0;
    for (auto [d, e] : llvm::enumerate(window->extents)) {
      if (e == 1)
        continue;
      memRanges[memDims[k]] =
          d == last ? IndexRange{0, e - vec, vec} : IndexRange{0, e - 1, 1};
      memIdx[memDims[k++]] =
          window->isConstant(d) && window->offsets[d] == 0
              ? coords[d]
              : "(" + coords[d] + " - " + window->offset(d) + ")";
    }
  }
  auto elementAt = [&](StringRef e) -> FailureOr<std::pair<std::string, std::string>> {
    SmallVector<std::string> idx = memIdx;
    SmallVector<std::optional<IndexRange>> ranges = memRanges;
    // (A copy of one element has no non-unit dimension: nothing to offset.)
    if (!idx.empty() && !memDims.empty() && e != "0" &&
        window->extents.back() != 1) {
      // The fragment's last dimension is the memory's last non-unit one.
      unsigned lastMem = memDims.back();
      idx[lastMem] = "(" + idx[lastMem] + " + " + e.str() + ")";
      ranges[lastMem] = IndexRange{0, ranges[lastMem]->hi + vec - 1, 1};
    }
    return guardedElement(mem, idx, op, ranges);
  };
  std::string fragName = expr(srcFrag ? srcRoot : dstRoot);
  if (canVector) {
    FailureOr<VectorAccess> a = vectorAccess(mem, memIdx, op, memRanges, vec);
    if (failed(a))
      return failure();
    std::string memAddr = a->address;
    std::string fragAddr = "&" + fragName + "[" + reg + "]";
    // The converted elements, when the types differ (emitted in front of
    // the vector store).
    SmallVector<std::string> packLines;
    if (!sameType) {
      fragAddr = fresh("packed");
      FailureOr<SmallVector<std::string>> packed = packedRegisters(
          fragAddr, srcElem, dstElem, fragName, reg, vec, op);
      if (failed(packed))
        return failure();
      packLines = std::move(*packed);
    }
    std::string cond = a->condition(vec);
    std::string stmt = ns + "copyVector<" + std::to_string(vecBytes) +
                       ">(" + (srcFrag ? memAddr : fragAddr) + ", " +
                       (srcFrag ? fragAddr : memAddr) + ");";
    MemoryScope memScope = scopeOf(mem);
    if (std::string cached = cachedCopy(
            op, ns, lang.isHip(), vecBytes, srcFrag ? memAddr : fragAddr,
            srcFrag ? fragAddr : memAddr,
            srcFrag ? memScope : MemoryScope::Fragment,
            srcFrag ? MemoryScope::Fragment : memScope);
        !cached.empty())
      stmt = cached;
    if (cond.empty()) {
      // Every vector in bounds and aligned: no element path.
      for (const std::string &l : packLines)
        line(l);
      line(stmt);
      for (int i = 0; i < 4; ++i)
        close();
      return success();
    }
    open("if (" + cond + ")");
    for (const std::string &l : packLines)
      line(l);
    line(stmt);
    --indent;
    open("} else");
  } else {
    open("");
  }
  std::string e = fresh("e");
  line("#pragma unroll");
  open("for (int " + e + " = 0; " + e + " < " + Twine(vec) + "; ++" + e + ")");
  if (!window->whole && !vectorWindow)
    line("if (" + outside(e) + ") continue;  // outside the copied part");
  FailureOr<std::pair<std::string, std::string>> m = elementAt(e);
  if (failed(m))
    return failure();
  std::string fragReg = fragName + "[" + reg + " + " + e + "]";
  if (srcFrag) {
    std::string stmt =
        m->first + " = " + toStorage(dstElem, fromStorage(srcElem, fragReg)) +
        ";";
    line(m->second.empty() ? stmt : "if (" + m->second + ") " + stmt);
  } else {
    std::string value = fromStorage(srcElem, m->first);
    if (!m->second.empty())
      value = "((" + m->second + ") ? " + value + " : " +
              safeValueOf(op, rootOf(mem), srcElem) + ")";
    line(fragReg + " = " + toStorage(dstElem, value) + ";");
  }
  close();
  close();
  close();
  close();
  close();
  close();
  return success();
}

FailureOr<SmallVector<std::string>>
Emitter::packedRegisters(StringRef name, Type srcElem, Type dstElem,
                         StringRef frag, StringRef reg, int64_t vec,
                         Operation *at) {
  FailureOr<std::string> storage = storageType(dstElem, at);
  if (failed(storage))
    return failure();
  int64_t bytes = vec * getElementStorageBytes(dstElem);
  SmallVector<std::string> lines;
  lines.push_back("alignas(" + std::to_string(bytes) + ") " + *storage + " " +
                  name.str() + "[" + std::to_string(vec) + "];");
  for (int64_t i = 0; i < vec; ++i)
    lines.push_back(name.str() + "[" + std::to_string(i) + "] = " +
                    toStorage(dstElem, fromStorage(srcElem, frag.str() + "[" +
                                                                reg.str() + " + " +
                                                                std::to_string(i) +
                                                                "]")) +
                    ";");
  return lines;
}
//===----------------------------------------------------------------------===//
// T.copy
//===----------------------------------------------------------------------===//

namespace {
/// One side of a copy: the buffer and which of its dimensions are the
/// copy's (non-unit) dimensions.
struct CopySide {
  Value buffer, root;
  BufferType type;
  SmallVector<unsigned> dims;
};
} // namespace

/// The index list of \p side for the copy indices \p copyIdx (0 in unit
/// dimensions).
static SmallVector<std::string> sideIndices(const CopySide &side,
                                            ArrayRef<std::string> copyIdx) {
  SmallVector<std::string> idx(side.type.getRank(), "0");
  for (auto [d, i] : llvm::zip(side.dims, copyIdx))
    idx[d] = i;
  return idx;
}

bool Emitter::isPerThreadCopy(CopyOp op) {
  return llvm::any_of(ValueRange{op.getSrc(), op.getDst()}, [](Value v) {
    MemoryScope scope = scopeOf(rootOf(v));
    return scope == MemoryScope::Local || scope == MemoryScope::LocalVar ||
           scope == MemoryScope::Reducer;
  });
}

LogicalResult Emitter::emitCopy(CopyOp op) {
  if (!lang.isHip() &&
      (scopeOf(rootOf(op.getSrc())) == MemoryScope::TensorMemory ||
       scopeOf(rootOf(op.getDst())) == MemoryScope::TensorMemory))
    return emitTmemCopy(op);
  if (op->hasAttr("tile.tma_once"))
    return emitTmaOnce(op);
  beginOp(op, "T.copy");
  for (Value v : {op.getSrc(), op.getDst()})
    if (llvm::any_of(cast<BufferType>(v.getType()).getDims(),
                     [](Dim d) { return d.isSymbolic(); }))
      return emitRuntimeShapeCopy(op);
  CopySide src{op.getSrc(), rootOf(op.getSrc()),
               cast<BufferType>(op.getSrc().getType()), {}};
  CopySide dst{op.getDst(), rootOf(op.getDst()),
               cast<BufferType>(op.getDst().getType()), {}};
  SmallVector<int64_t> extents;
  for (CopySide *side : {&src, &dst}) {
    SmallVector<int64_t> ext;
    for (unsigned d = 0; d < side->type.getRank(); ++d) {
      Dim dim = side->type.getDim(d);
      if (dim.isStatic() && dim.getValue() == 1)
        continue;
      if (!dim.isStatic()) {
        op.emitError() << "the " << lang.name
                       << " target copies tiles of static shape only";
        return failure();
      }
      side->dims.push_back(d);
      ext.push_back(dim.getValue());
    }
    if (side == &src)
      extents = ext;
    else if (ext != extents) {
      op.emitError("copy shapes differ");
      return failure();
    }
  }
  int64_t numel = 1;
  for (int64_t e : extents)
    numel *= e;
  SmallVector<std::string> shape;
  for (int64_t e : extents)
    shape.push_back(std::to_string(e));
  Type srcElem = src.type.getElementType(), dstElem = dst.type.getElementType();
  FailureOr<std::string> dstStorage = storageType(dstElem, op);
  if (failed(dstStorage))
    return failure();

  if (scopeOf(src.root) == MemoryScope::Fragment ||
      scopeOf(dst.root) == MemoryScope::Fragment)
    return emitFragmentCopy(op);
  if (op->hasAttr("tile.bulk_store") || op->hasAttr("tile.bulk_load")) {
    FailureOr<bool> bulk =
        op->hasAttr("tile.bulk_store") ? emitBulkStore(op) : emitBulkLoad(op);
    if (failed(bulk) || *bulk)
      return success(succeeded(bulk));
  }
  // How the chunks go (tile-plan-copies; the same choice for IR that did
  // not go through the pass).
  FailureOr<std::optional<CopyChoice>> planned = getCopyChoice(op);
  if (failed(planned))
    return failure();
  CopyChoice choice =
      planned->has_value()
          ? **planned
          : chooseCopy(op, CopyTarget{lang.isHip(), lang.hasAsyncCopy},
                       ldsSwizzle);
  int64_t vec = choice.vec;
  if (extents.empty() ? vec != 1 : extents.back() % vec != 0) {
    op.emitError() << "copy plan: chunks of " << vec
                   << " elements do not divide the copy's innermost extent";
    return failure();
  }
  int64_t permutedRun = choice.xorRunBytes;
  int64_t vecBytes = vec * getElementStorageBytes(dstElem);
  bool canVector = choice.instr != CopyInstr::Element;
  if (canVector && (srcElem != dstElem ||
                    (vecBytes != 4 && vecBytes != 8 && vecBytes != 16))) {
    op.emitError() << "copy plan: a vector chunk of " << vec
                   << " elements is no 4-, 8- or 16-byte copy of one type";
    return failure();
  }
  if (choice.instr == CopyInstr::CpAsync &&
      (!lang.hasAsyncCopy || !isSharedScope(scopeOf(dst.root)))) {
    op.emitError() << "copy plan: cp.async writes shared memory on CUDA "
                      "only";
    return failure();
  }
  int64_t chunks = numel / vec;
  // A copy into or out of a T.alloc_local buffer is each thread's own: it
  // copies every chunk (TileLang does not partition it either).
  bool own = isPerThreadCopy(op);
  int64_t threads = own ? 1 : numThreads;
  int64_t perThread = (chunks + threads - 1) / threads;

  open("");
  std::string c = fresh("c");
  line("#pragma unroll");
  open("for (int " + c + " = 0; " + c + " < " + Twine(perThread) + "; ++" +
       c + ")");
  std::string q = fresh("q");
  line("const int " + q + " = " + c +
       (own ? ";  // chunk" : " * " + std::to_string(numThreads) +
                                 " + tid;  // chunk"));
  if (chunks % threads != 0)
    open("if (" + q + " < " + Twine(chunks) + ")");
  else
    open("");
  // (Hoisting a thread's column and first row out of the rounds was
  // measured 18% slower for flash attention on the H200: nvcc schedules
  // the per-round division-free form worse; the rounds stay unflattened.)
  std::string firstFlat = fresh("f");
  line("const int " + firstFlat + " = " + q + " * " + Twine(vec) + ";");
  SmallVector<std::string> idx = unflatten(*this, firstFlat, shape, "i");
  // Copy coordinates lie in the copy's extents (the chunk guard above keeps
  // a partial last round in); a chunk starts at a multiple of vec.
  SmallVector<std::optional<IndexRange>> chunkRanges, elemRanges;
  for (auto [d, ext] : llvm::enumerate(extents)) {
    elemRanges.push_back(IndexRange{0, ext - 1, 1});
    chunkRanges.push_back(d + 1 == extents.size()
                              ? IndexRange{0, ext - vec, vec}
                              : IndexRange{0, ext - 1, 1});
  }
  auto sideRanges = [&](const CopySide &side,
                        ArrayRef<std::optional<IndexRange>> r) {
    SmallVector<std::optional<IndexRange>> out(side.type.getRank(),
                                               IndexRange{0, 0, 0});
    for (auto [d, x] : llvm::zip(side.dims, r))
      out[d] = x;
    return out;
  };
  auto element = [&](const CopySide &side, ArrayRef<std::string> copyIdx)
      -> FailureOr<std::pair<std::string, std::string>> {
    return guardedElement(side.buffer, sideIndices(side, copyIdx), op,
                          sideRanges(side, elemRanges));
  };

  // fp4 from global memory into a tcgen05 operand's panels: a chunk of 16
  // codes is 8 packed bytes of the source and the packed half of one
  // 16-byte slot chunk of the tile (tcgen05's padded form, the slot index
  // of the chunk's first element a multiple of 16): one 8-byte copy where
  // the chunk lies in the source and starts on a byte multiple of 8. Opens
  // `if (...) { copy` and says so (the caller's `} else` follows).
  auto paddedFp4Chunk = [&]() -> FailureOr<bool> {
    auto stored = sharedStorage.find(dst.root);
    if (vec != 16 || !isa<Float4E2M1FNType>(srcElem) || srcElem != dstElem ||
        scopeOf(src.root) != MemoryScope::Global ||
        !hasUnitInnerStride(src.root) || stored == sharedStorage.end() ||
        stored->second.kind != SharedStorage::Kind::Panels ||
        src.dims.empty() || dst.dims.empty() ||
        src.dims.back() + 1 != src.type.getRank() ||
        dst.dims.back() + 1 != dst.type.getRank())
      return false;
    FailureOr<RootAccess> s = resolve(src.buffer, sideIndices(src, idx), op,
                                      sideRanges(src, chunkRanges));
    FailureOr<RootAccess> d = resolve(dst.buffer, sideIndices(dst, idx), op,
                                      sideRanges(dst, chunkRanges));
    if (failed(s) || failed(d))
      return failure();
    FailureOr<std::string> sLin = linearIndex(*s, op),
                           dLin = linearIndex(*d, op),
                           sCond = boundsCondition(*s, op, vec);
    if (failed(sLin) || failed(dLin) || failed(sCond))
      return failure();
    std::string cond = "(" + *sLin + ") % 16 == 0";
    if (!sCond->empty())
      cond += " && " + *sCond;
    open("if (" + cond + ")");
    line("*reinterpret_cast<uint2 *>(reinterpret_cast<uint8_t *>(" +
         expr(dst.root) + ") + (" + *dLin +
         ")) = *reinterpret_cast<const uint2 *>(reinterpret_cast<const "
         "uint8_t *>(" +
         expr(src.root) + ") + (" + *sLin + ") / 2);");
    --indent;
    return true;
  };

  // The vector path: whole chunk in bounds and aligned.
  if (canVector) {
    std::string cond;
    std::string srcAddr, dstAddr;
    // Whether the condition is bounds only and a chunk is either wholly in
    // or wholly out of bounds (aligned chunks of an extent they divide).
    bool allOrNothing = true;
    // HIP's buffer loads: the same, except that a symbolic innermost extent
    // of the source may divide the chunks at run time (`innerDivides`, a
    // wavefront-uniform test; else a chunk may cross a row's end inside
    // the tensor, which the range check would not zero).
    bool bufferAllOrNothing = true;
    std::string innerDivides;
    // The source's linear index and the destination's condition (a buffer
    // load replaces only bounds of the source).
    std::string srcLinear, dstCond;
    std::optional<VectorAccess> dstAccess; // a store of permuted runs
    for (const CopySide *side : {&src, &dst}) {
      FailureOr<VectorAccess> a =
          vectorAccess(side->buffer, sideIndices(*side, idx), op,
                       sideRanges(*side, chunkRanges), vec);
      if (failed(a))
        return failure();
      if (!a->bounds.empty()) {
        const RootAccess &ra = a->access;
        Dim last = side->type.getRank()
                       ? cast<BufferType>(ra.root.getType())
                             .getDim(ra.indices.size() - 1)
                       : Dim();
        const std::optional<IndexRange> &r = ra.ranges.back();
        bool divides = last.isStatic() && last.getValue() % vec == 0 && r &&
                       r->div % vec == 0;
        allOrNothing &= divides;
        // (A symbolic extent bounds no index: the divisor of the view's
        // column offset, the chunk's own column being a multiple of vec.)
        if (!divides && side == &src && lang.isHip() && !last.isStatic() &&
            (r ? r->div % vec == 0
               : innerOffsetDivisor(side->buffer) % vec == 0)) {
          FailureOr<std::string> e = extent(cast<BufferType>(ra.root.getType()),
                                            ra.indices.size() - 1, op);
          if (succeeded(e))
            innerDivides = "(" + *e + ") % " + std::to_string(vec) + " == 0";
          bufferAllOrNothing &= succeeded(e);
        } else {
          bufferAllOrNothing &= divides;
        }
      }
      bool permuted = side == &dst && permutedRun;
      allOrNothing &= a->aligned || permuted;
      // (Under innerDivides every row starts at a multiple of the chunk.)
      bufferAllOrNothing &=
          a->aligned || permuted || (side == &src && !innerDivides.empty());
      std::string sideCond = permuted ? permutedRunsCondition(*a, vec)
                                      : a->condition(vec);
      if (!sideCond.empty())
        cond += (cond.empty() ? "" : " && ") + sideCond;
      if (side == &src)
        srcLinear = a->linear;
      else
        dstCond = sideCond;
      (side == &src ? srcAddr : dstAddr) = a->address;
      if (permuted)
        dstAccess = *a;
    }
    bool async = choice.instr == CopyInstr::CpAsync;
    std::string stmt = async
                           ? "tlc::cuda::cpAsync<" + std::to_string(vecBytes) +
                                 ">(" + dstAddr + ", " + srcAddr + ");"
                           : ns + "copyVector<" + std::to_string(vecBytes) +
                                 ">(" + dstAddr + ", " + srcAddr + ");";
    if (std::string cached =
            cachedCopy(op, ns, lang.isHip(), vecBytes, dstAddr, srcAddr,
                       scopeOf(dst.root), scopeOf(src.root));
        !async && !cached.empty())
      stmt = cached;
    if (dstAccess)
      stmt = storePermutedRuns(*dstAccess, vecBytes, permutedRun,
                               ns + "loadVector<" + std::to_string(vecBytes) +
                                   ">(" + srcAddr + ")");
    // (cp.async zero-fills: not where the program asks for another value.)
    if (!cond.empty() && async && allOrNothing && choice.zeroFill) {
      // A chunk out of bounds is zero-filled by cp.async itself (the source
      // is then not read; the tensor's base stands in for its address).
      std::string in = fresh("inBounds");
      line("const bool " + in + " = " + cond + ";");
      stmt = "tlc::cuda::cpAsyncPred<" + std::to_string(vecBytes) + ">(" +
             dstAddr + ", " + in + " ? " + srcAddr + " : " + expr(src.root) +
             ", " + in + ");";
      cond.clear();
    }
    // HIP: a chunk of a global tensor read with zero outside it is a raw
    // buffer load, whose out-of-range accesses read zero (no element path).
    // A tensor of symbolic shape takes it when its run-time size lies
    // under 2 GiB (a uniform branch; larger ones keep the masked path).
    std::string bufferFits;
    if (!cond.empty() && lang.isHip() && bufferAllOrNothing &&
        dstCond.empty() && choice.zeroFill) {
      if (std::optional<BufferResourceSize> size =
              bufferResourceSize(src.root, op)) {
        // (The resource's num_records and offsets are 32-bit: under 2 GiB,
        // 0x80000000 lies past every in-range offset.)
        std::string in = fresh("inBounds");
        std::string rsrc = ns + "bufferResource(" + expr(src.root) + ", " +
                           size->bytes + ")";
        std::string offset =
            in + " ? unsigned(" + srcLinear + ") * " +
            std::to_string(getElementStorageBytes(srcElem)) +
            "u : 0x80000000u";
        std::string load =
            dstAccess
                ? storePermutedRuns(*dstAccess, vecBytes, permutedRun,
                                    ns + "bufferLoadVector<" +
                                        std::to_string(vecBytes) + ">(" +
                                        rsrc + ", " + offset + ")")
                : ns + "bufferLoad<" + std::to_string(vecBytes) + ">(" +
                      dstAddr + ", " + rsrc + ", " + offset + ");";
        load += "  // buffer_load: zero out of range";
        std::string uniform = size->fits;
        if (!innerDivides.empty())
          uniform += (uniform.empty() ? "" : " && ") + innerDivides;
        if (uniform.empty()) {
          line("const bool " + in + " = " + cond + ";");
          stmt = load;
          cond.clear();
        } else {
          bufferFits = uniform;
          open("if (" + bufferFits + ")");
          line("const bool " + in + " = " + cond + ";");
          line(load);
          --indent;
        }
      }
    }
    if (cond.empty()) {
      // Every chunk in bounds and aligned: no element path.
      line(stmt);
      close();
      close();
      close();
      return success();
    }
    open((bufferFits.empty() ? "if (" : "} else if (") + cond + ")");
    line(stmt);
    --indent;
    open("} else");
  } else if (FailureOr<bool> fast = paddedFp4Chunk(); failed(fast)) {
    return failure();
  } else if (*fast) {
    open("} else");
  } else {
    open("");
  }
  // Element path: per element, guarded.
  std::string e = fresh("e");
  if (vec > 1) {
    line("#pragma unroll");
    open("for (int " + e + " = 0; " + e + " < " + Twine(vec) + "; ++" + e +
         ")");
  } else {
    line("const int " + e + " = 0;");
    open("");
  }
  SmallVector<std::string> eIdx(idx.begin(), idx.end());
  if (!eIdx.empty())
    eIdx.back() = "(" + eIdx.back() + " + " + e + ")";
  std::string value, guard;
  {
    auto s = element(src, eIdx);
    if (failed(s))
      return failure();
    value = fromStorage(srcElem, s->first);
    if (!s->second.empty())
      value = "((" + s->second + ") ? " + value + " : " +
              safeValueOf(op, src.root, srcElem) + ")";
  }
  std::string target;
  {
    auto d = element(dst, eIdx);
    if (failed(d))
      return failure();
    target = d->first;
    guard = d->second;
  }
  // Storage -> register value -> storage: exact for equal types, the
  // target's rounding for conversions.
  std::string stmt = target + " = " + toStorage(dstElem, value) + ";";
  line(guard.empty() ? stmt : "if (" + guard + ") " + stmt);
  close();
  close();
  close();
  close();
  close();
  return success();
}
