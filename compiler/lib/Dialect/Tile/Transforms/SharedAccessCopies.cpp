//===- SharedAccessCopies.cpp - Copies and reductions in shared memory ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The warp accesses of T.copy to, from and through shared memory (plain
// and vector copies, fragment copies, the epilogue's staging tile) and the
// scratch exchange of T.reduce_* across warps, as the CUDA and HIP printers
// generate them.
//
//===----------------------------------------------------------------------===//

#include "SharedAccessPlans.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/SharedLayouts.h"
#include "tlc/Support/LruCache.h"

#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

/// T.copy between global (or shared) memory and shared memory: chunk
/// q = round * threads + tid of `vec` elements, row-major over the copy's
/// extents (CUDAEmitterTileOps: emitCopy).
void tlc::tile::detail::planMemoryCopy(CopyOp op, int64_t threads,
                                       std::vector<AccessPlan> &plans,
                                       bool hip) {
  auto srcType = cast<BufferType>(op.getSrc().getType());
  auto dstType = cast<BufferType>(op.getDst().getType());
  std::optional<SmallVector<unsigned>> srcDims = copyDims(srcType),
                                       dstDims = copyDims(dstType);
  if (!srcDims || !dstDims || srcDims->size() != dstDims->size())
    return;
  SmallVector<int64_t> extents;
  for (unsigned d : *srcDims)
    extents.push_back(srcType.getDim(d).getValue());
  int64_t numel = layout::numElements(extents);
  Type srcElem = srcType.getElementType(), dstElem = dstType.getElementType();
  bool sameType = srcElem == dstElem;
  int64_t vec = 1;
  if (sameType && !extents.empty()) {
    vec = std::max<int64_t>(1, 16 / getElementStorageBytes(srcElem));
    while (vec > 1 && extents.back() % vec != 0)
      vec /= 2;
  }
  bool innermost =
      (srcDims->empty() || srcDims->back() + 1 == srcType.getRank()) &&
      (dstDims->empty() || dstDims->back() + 1 == dstType.getRank());
  if (!innermost)
    vec = 1;
  int64_t vecBytes = vec * getElementStorageBytes(dstElem);
  bool canVector =
      sameType && vec > 1 && (vecBytes == 4 || vecBytes == 8 || vecBytes == 16);
  int64_t chunks = numel / vec;
  // A tile this large does not fit shared memory (an error of its own);
  // its accesses are not enumerated.
  if (numel <= 0 || numel > kMaxEnumeratedElements)
    return;
  int64_t rounds = (chunks + threads - 1) / threads;
  int64_t warps = (threads + 31) / 32;
  bool pipelined = op->getParentOfType<PipelinedOp>() != nullptr;
  for (bool store : {false, true}) {
    Value side = store ? op.getDst() : op.getSrc();
    ArrayRef<unsigned> dims = store ? *dstDims : *srcDims;
    Value root = rootOf(side);
    auto rootType = cast<BufferType>(root.getType());
    if (!isSharedScope(rootType.getScope()) || !rootType.isStatic())
      continue;
    std::optional<SmallVector<int64_t>> offsets = staticOffsets(side);
    if (!offsets)
      continue;
    AccessPlan plan;
    plan.op = op;
    plan.root = root;
    plan.elementBytes = getElementStorageBytes(rootType.getElementType());
    plan.vec = canVector ? vec : 1;
    // HIP fills LDS stages with plain vector stores (no cp.async).
    bool async = !hip && store && pipelined && canVector &&
                 scopeOfRoot(op.getSrc()) == MemoryScope::Global;
    plan.store = store;
    plan.instruction =
        async ? "cp.async"
              : widthName(plan.vec * plan.elementBytes, store, hip);
    // The element path moves element e of every lane's chunk at once.
    int64_t steps = canVector ? 1 : vec;
    for (int64_t c = 0; c < rounds; ++c)
      for (int64_t w = 0; w < warps; ++w)
        for (int64_t e = 0; e < steps; ++e) {
          layout::LaneCoords lanes;
          for (int64_t l = 0; l < 32; ++l) {
            int64_t tid = w * 32 + l;
            int64_t q = c * threads + tid;
            if (tid >= threads || q >= chunks)
              continue;
            int64_t flat = q * vec + e;
            SmallVector<int64_t> idx(extents.size());
            for (int d = int(extents.size()) - 1; d >= 0; --d) {
              idx[d] = flat % extents[d];
              flat /= extents[d];
            }
            lanes[l] = rootCoord(dims, idx, *offsets);
          }
          plan.warps.push_back(std::move(lanes));
        }
    plans.push_back(std::move(plan));
  }
}

int64_t tlc::tile::detail::fragmentVector(
    const layout::Fragment &f, const std::vector<std::vector<int64_t>> &table,
    int64_t bytes) {
  int64_t regs = f.getRegsPerThread();
  unsigned last = f.getInputRank() - 1;
  for (int64_t v = std::max<int64_t>(1, 16 / bytes); v > 1; v /= 2) {
    if (regs % v != 0)
      continue;
    bool ok = true;
    for (int64_t t = 0; t < f.getThreadExtent() && ok; ++t)
      for (int64_t r = 0; r < regs && ok; r += v) {
        const std::vector<int64_t> &first = table[t * regs + r];
        if (first.empty()) {
          ok = false;
          break;
        }
        ok = first[last] % v == 0;
        for (int64_t k = 1; k < v && ok; ++k) {
          // The same coordinate (and replica), k further along the last
          // dimension.
          const std::vector<int64_t> &next = table[t * regs + r + k];
          ok = next.size() == first.size();
          for (size_t d = 0; d < first.size() && ok; ++d)
            ok = next[d] == first[d] + (d == last ? k : 0);
        }
      }
    if (ok)
      return v;
  }
  return 1;
}

/// T.copy between a whole fragment and shared memory: every thread moves
/// its registers in vector steps (CUDAEmitterTileOps: emitFragmentCopy).
void tlc::tile::detail::planFragmentCopy(CopyOp op, int64_t threads,
                                         std::vector<AccessPlan> &plans,
                                         bool hip) {
  bool store = scopeOfRoot(op.getSrc()) == MemoryScope::Fragment;
  Value frag = store ? op.getSrc() : op.getDst();
  Value mem = store ? op.getDst() : op.getSrc();
  Value root = rootOf(mem);
  auto rootType = cast<BufferType>(root.getType());
  if (rootOf(frag) != frag || !isSharedScope(rootType.getScope()) ||
      !rootType.isStatic())
    return;
  auto alloc = frag.getDefiningOp<AllocOp>();
  auto attr = alloc ? dyn_cast_or_null<FragmentAttr>(alloc.getLayoutAttr())
                    : FragmentAttr();
  if (!attr)
    return;
  layout::Fragment f = attr.getFragment();
  auto memType = cast<BufferType>(mem.getType());
  std::optional<SmallVector<unsigned>> memDims = copyDims(memType);
  std::optional<SmallVector<int64_t>> offsets = staticOffsets(mem);
  if (!memDims || !offsets || f.getInputRank() == 0)
    return;
  SmallVector<unsigned> fragDims;
  for (auto [d, e] : llvm::enumerate(f.getInputShape()))
    if (e != 1)
      fragDims.push_back(d);
  if (fragDims.size() != memDims->size())
    return;
  std::shared_ptr<const std::vector<std::vector<int64_t>>> table =
      layout::invertTableShared(f);
  if (!table)
    return;
  auto fragType = cast<BufferType>(frag.getType());
  Type fragElem = fragType.getElementType();
  Type memElem = memType.getElementType();
  int64_t vec = fragmentVector(f, *table, getElementStorageBytes(fragElem));
  int64_t vecBytes = vec * getElementStorageBytes(memElem);
  bool canVector = (fragElem == memElem || store) && vec > 1 &&
                   (vecBytes == 4 || vecBytes == 8 || vecBytes == 16) &&
                   f.getInputShape().back() != 1 && !memDims->empty() &&
                   memDims->back() + 1 == memType.getRank();
  int64_t step = canVector ? vec : 1;
  AccessPlan plan;
  plan.op = op;
  plan.root = root;
  plan.elementBytes = getElementStorageBytes(rootType.getElementType());
  plan.vec = step;
  plan.store = store;
  plan.instruction = widthName(step * plan.elementBytes, store, hip);
  int64_t regs = f.getRegsPerThread();
  int64_t active = std::min(f.getThreadExtent(), threads);
  unsigned rank = f.getInputRank();
  for (int64_t r = 0; r < regs; r += step)
    for (int64_t w = 0; w * 32 < active; ++w) {
      layout::LaneCoords lanes;
      for (int64_t l = 0; l < 32; ++l) {
        int64_t t = w * 32 + l;
        if (t >= active)
          continue;
        const std::vector<int64_t> &entry = (*table)[t * regs + r];
        // One replica writes; every replica reads.
        if (entry.empty() || (store && entry[rank] != 0))
          continue;
        SmallVector<int64_t> viewCoord;
        for (unsigned d : fragDims)
          viewCoord.push_back(entry[d]);
        lanes[l] = rootCoord(*memDims, viewCoord, *offsets);
      }
      plan.warps.push_back(std::move(lanes));
    }
  plans.push_back(std::move(plan));
}

/// The element type's bytes in the reduction scratch: the printer computes
/// in float for 16- and 8-bit floats (Emitter::valueType).
static int64_t scratchBytes(Type t) {
  if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
    return 4;
  return getElementStorageBytes(t);
}

/// T.reduce_* whose result rows are spread over several warps: the
/// printer's scratch exchange (layout::reductionScratchAccesses), with the
/// cross-warp bits of the threads that hold one result row in the source's
/// inferred fragment. The degree is kept by (threads, bits, registers,
/// bytes): it does not depend on the kernel otherwise.
int64_t tlc::tile::detail::reductionDegree(ReduceOp op, int64_t threads,
                                           bool hip) {
  auto fragmentOf = [](Value v) -> std::optional<layout::Fragment> {
    auto alloc = v.getDefiningOp<AllocOp>();
    auto attr = alloc ? dyn_cast_or_null<FragmentAttr>(alloc.getLayoutAttr())
                      : FragmentAttr();
    if (!attr)
      return std::nullopt;
    return attr.getFragment();
  };
  std::optional<layout::Fragment> src = fragmentOf(op.getSrc()),
                                  dst = fragmentOf(op.getDst());
  if (!src || !dst || op.getDim() >= src->getInputRank())
    return 0;
  std::shared_ptr<const std::vector<std::vector<int64_t>>> table =
      layout::invertTableShared(*src);
  if (!table)
    return 0;
  // Threads that hold one result row: the first holder of each row XOR the
  // others, above the lane bits.
  std::map<std::vector<int64_t>, int64_t> first;
  int64_t mask = 0, regs = src->getRegsPerThread();
  unsigned rank = src->getInputRank();
  for (int64_t t = 0; t < src->getThreadExtent(); ++t)
    for (int64_t r = 0; r < regs; ++r) {
      std::vector<int64_t> row = (*table)[t * regs + r];
      if (row.empty())
        continue;
      row.resize(rank);
      row[op.getDim()] = 0;
      auto [it, fresh] = first.try_emplace(row, t);
      if (!fresh)
        mask |= it->second ^ t;
    }
  // Above the lane bits of a warp (32) or wavefront (64).
  mask &= hip ? ~int64_t(63) : ~int64_t(31);
  if (!mask)
    return 0;
  int64_t bytes =
      scratchBytes(cast<BufferType>(op.getDst().getType()).getElementType());
  int64_t dregs = dst->getRegsPerThread();
  static tlc::LruCache<int64_t> memo(256, 1);
  std::string key = std::to_string(threads) + "," + std::to_string(mask) + "," +
                    std::to_string(dregs) + "," + std::to_string(bytes) +
                    (hip ? ",lds" : "");
  if (std::shared_ptr<const int64_t> known = memo.lookup(key))
    return *known;
  int64_t worst = 0;
  for (layout::WarpAccess a :
       layout::reductionScratchAccesses(threads, mask, dregs, bytes)) {
    a.lds = hip;
    worst = std::max(worst, layout::bankConflictDegree(a));
  }
  memo.record(key, std::make_shared<const int64_t>(worst));
  return worst;
}

/// A T.copy of a whole 2-d fragment to global memory that the CUDA printer
/// stages through shared memory (CUDAEmitterStagedStore: a statement of
/// the kernel body itself, stores narrower than 16 bytes, and a shared area
/// no later statement uses; the area is approximated here by the dead
/// allocations' total size, a copy per pipeline stage, where the printer
/// also wants them adjacent in its placement).
void tlc::tile::detail::planStagedStore(CopyOp op, int64_t threads,
                                        std::vector<AccessPlan> &plans,
                                        bool hip) {
  auto kernel = dyn_cast_or_null<KernelOp>(op->getParentOp());
  Value frag = op.getSrc();
  auto dstType = cast<BufferType>(op.getDst().getType());
  if (!kernel || rootOf(frag) != frag ||
      scopeOfRoot(op.getDst()) != MemoryScope::Global)
    return;
  std::optional<SmallVector<unsigned>> memDims = copyDims(dstType);
  if (!memDims || memDims->size() != 2 ||
      memDims->back() + 1 != dstType.getRank())
    return;
  auto alloc = frag.getDefiningOp<AllocOp>();
  auto attr = alloc ? dyn_cast_or_null<FragmentAttr>(alloc.getLayoutAttr())
                    : FragmentAttr();
  if (!attr)
    return;
  layout::Fragment f = attr.getFragment();
  int64_t bytes = getElementStorageBytes(dstType.getElementType());
  // The tile's size first (rows x columns padded by 16 bytes): most
  // fragment stores find no dead area that large.
  SmallVector<int64_t> dims;
  for (int64_t e : f.getInputShape())
    if (e != 1)
      dims.push_back(e);
  if (dims.size() != 2 || bytes <= 0 || 16 % bytes != 0)
    return;
  int64_t tileBytes = dims[0] * (dims[1] * bytes + 16);
  // A dead area: shared allocations no statement at or after this one
  // uses, as large as the tile together.
  Block &body = kernel.getBody().front();
  StatementIndex index = indexStatements(body);
  int now = getStatementOf(body, op, index);
  int64_t dead = 0;
  kernel.walk([&](AllocOp a) {
    auto t = cast<BufferType>(a.getType());
    if (dead >= tileBytes || !isSharedScope(t.getScope()) || !t.isStatic())
      return;
    std::optional<std::pair<int, int>> range =
        getLiveRange(body, a.getResult(), index);
    if (!range || range->second >= now)
      return;
    // A tile written inside T.Pipelined has a copy per stage.
    int64_t stages = 1;
    for (Operation *user : a->getUsers())
      if (auto pipe = user->getParentOfType<PipelinedOp>())
        stages = std::max<int64_t>(stages, pipe.getNumStages());
    dead += stages * layout::numElements(t.getShape()) *
            getElementStorageBytes(t.getElementType());
  });
  if (dead < tileBytes)
    return;
  std::shared_ptr<const std::vector<std::vector<int64_t>>> table =
      layout::invertTableShared(f);
  if (!table)
    return;
  int64_t vec =
      fragmentVector(f, *table,
                     getElementStorageBytes(
                         cast<BufferType>(frag.getType()).getElementType()));
  // Its degree depends on the fragment, the block and the widths only:
  // kept, and the plans made only when it conflicts.
  if (layout::stagedStoreDegree(f, threads, bytes, vec, hip) < 2)
    return;
  std::optional<layout::StagedStore> staged =
      layout::stagedStoreAccesses(f, threads, bytes, vec);
  if (!staged)
    return;
  for (bool read : {false, true}) {
    AccessPlan plan;
    plan.op = op;
    plan.root = frag;
    plan.elementBytes = bytes;
    plan.vec = read ? 16 / bytes : staged->storeVec;
    plan.store = !read;
    plan.instruction = widthName(plan.vec * bytes, !read, hip);
    plan.tile = staged->tile;
    plan.area = "the staging tile";
    plan.warps = read ? staged->reads : staged->stores;
    plans.push_back(std::move(plan));
  }
}
