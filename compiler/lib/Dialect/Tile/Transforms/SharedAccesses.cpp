//===- SharedAccesses.cpp - Shared-memory layouts and accesses of CUDA code
//===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each modelled access becomes an AccessPlan: the warp-wide instructions it
// issues, as the logical coordinates (in the shared allocation) of every
// lane's first element. A plan is evaluated against a layout (the one the
// CUDA code uses, or a padded / swizzled alternative for the suggestion)
// with layout::bankConflictDegree.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"

#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Layout/BankConflicts.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/MfmaSharedLayouts.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include "tlc/Support/LruCache.h"

#include "llvm/ADT/TypeSwitch.h"

#include <map>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static Value rootOf(Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

static MemoryScope scopeOfRoot(Value buffer) {
  return cast<BufferType>(rootOf(buffer).getType()).getScope();
}

DenseMap<Value, int64_t> tlc::tile::planSwizzledTiles(KernelOp kernel) {
  DenseMap<Value, int64_t> swizzled;
  auto swizzle = [&](Value root, bool only2D) {
    auto t = cast<BufferType>(root.getType());
    int64_t bytes = getElementStorageBytes(t.getElementType());
    if (!isSharedScope(t.getScope()) || !t.isStatic() || t.getRank() < 2 ||
        (only2D && t.getRank() != 2) || (bytes != 2 && bytes != 1))
      return;
    int64_t rowBytes = t.getShape().back() * bytes;
    if (rowBytes % 16 == 0 && rowBytes >= 32)
      swizzled[root] = rowBytes / 16;
  };
  // Shared gemm operands: conflict-free ldmatrix.
  kernel.walk([&](GemmOp gemm) {
    for (Value v : {gemm.getA(), gemm.getB()})
      swizzle(rootOf(v), /*only2D=*/false);
  });
  // Tiles only copies use that a fragment is copied into (an accumulator
  // written out through shared memory): a warp's narrow stores hit 8 rows
  // of one chunk column, which conflict 8 ways in a plain row-major tile of
  // 128 bytes or more.
  kernel.walk([&](CopyOp copy) {
    Value root = copy.getDst();
    if (scopeOfRoot(copy.getSrc()) != MemoryScope::Fragment ||
        rootOf(root) != root || swizzled.count(root) ||
        !llvm::all_of(root.getUsers(),
                      [](Operation *user) { return isa<CopyOp>(user); }))
      return;
    swizzle(root, /*only2D=*/true);
  });
  return swizzled;
}

/// How HIPEmitterGemm reads shared operand \p v of \p gemm (the same
/// facts planMfmaOperands models), or std::nullopt when it does not read
/// it from LDS or the accumulator has no MFMA layout.
static std::optional<layout::MfmaOperandReads> mfmaReadsOf(GemmOp gemm,
                                                           Value v) {
  auto cAlloc = gemm.getC().getDefiningOp<AllocOp>();
  auto cAttr = cAlloc ? dyn_cast_or_null<FragmentAttr>(cAlloc.getLayoutAttr())
                      : FragmentAttr();
  if (!cAttr || !isSharedScope(scopeOfRoot(v)))
    return std::nullopt;
  // getFragment() returns by value: keep it alive while the tag is read.
  std::string tag = cAttr.getFragment().getOrigin().tag;
  if (!StringRef(tag).starts_with("mfma"))
    return std::nullopt;
  auto type = cast<BufferType>(v.getType());
  auto root = cast<BufferType>(rootOf(v).getType());
  int64_t bytes = getElementStorageBytes(type.getElementType());
  if ((bytes != 1 && bytes != 2) || !root.isStatic() || root.getRank() < 2)
    return std::nullopt;
  bool aShared = isSharedScope(scopeOfRoot(gemm.getA()));
  bool bShared = isSharedScope(scopeOfRoot(gemm.getB()));
  int64_t kPack = 1;
  if (auto kp = gemm->getAttrOfType<IntegerAttr>("k_pack"))
    kPack = std::max<int64_t>(1, kp.getInt());
  if (!aShared || !bShared)
    kPack = 1;
  layout::MfmaOperandReads r;
  r.tile = StringRef(tag).starts_with("mfma32") ? 32 : 16;
  r.elementBytes = bytes;
  int64_t perLane = bytes == 1 ? 8 : 4;
  r.perStep = perLane * kPack;
  bool splitK = perLane == 8 && (!aShared || !bShared);
  r.kInner = v == gemm.getA() ? !gemm.getTransposeA() : gemm.getTransposeB();
  int64_t vecBytes = r.perStep * bytes;
  r.vector = r.kInner && !splitK && (vecBytes == 8 || vecBytes == 16) &&
             root.getShape().back() == type.getShape().back() &&
             root.getShape().back() % r.perStep == 0;
  return r;
}

DenseMap<Value, layout::XorSwizzle> tlc::tile::planLdsSwizzles(KernelOp kernel) {
  DenseMap<Value, layout::XorSwizzle> plan;
  kernel.walk([&](GemmOp gemm) {
    for (Value v : {gemm.getA(), gemm.getB()}) {
      Value root = rootOf(v);
      if (plan.count(root))
        continue; // The first gemm reading a tile decides.
      std::optional<layout::MfmaOperandReads> r = mfmaReadsOf(gemm, v);
      if (!r)
        continue;
      auto shape = cast<BufferType>(root.getType()).getShape();
      plan[root] = layout::chooseMfmaSwizzle(*r, shape.end()[-2], shape.back());
    }
  });
  return plan;
}

layout::Layout
tlc::tile::cudaSharedLayout(Value root,
                            const DenseMap<Value, int64_t> &swizzled,
                            const DenseMap<Value, layout::XorSwizzle> *lds) {
  auto t = cast<BufferType>(root.getType());
  SmallVector<int64_t> shape(t.getShape());
  unsigned bits = getElementStorageBytes(t.getElementType()) * 8;
  if (lds)
    if (auto it = lds->find(root); it != lds->end()) {
      if (it->second.maxPhase == 1) {
        layout::Layout l = layout::Layout::linear(shape);
        l.setElementBits(bits);
        return l;
      }
      if (llvm::Expected<layout::Layout> l =
              layout::makeXorSwizzleLayout(shape, bits, it->second))
        return *l;
      else
        llvm::consumeError(l.takeError());
    }
  if (swizzled.count(root))
    if (llvm::Expected<layout::Layout> l =
            layout::makeRowSwizzledLayout(shape, bits))
      return *l;
    else
      llvm::consumeError(l.takeError());
  layout::Layout l = layout::Layout::linear(shape);
  l.setElementBits(bits);
  return l;
}

namespace {
/// The warp instructions of one access of a shared allocation.
struct AccessPlan {
  Operation *op = nullptr;
  Value root;
  std::string instruction;
  /// A write (CDNA serves 16-byte reads and writes in different phases).
  bool store = false;
  int64_t elementBytes = 0;
  /// Elements per lane and instruction.
  int64_t vec = 1;
  std::vector<layout::LaneCoords> warps;
  /// A tile of the printer's own (the staging tile of an epilogue store),
  /// instead of the allocation's layout; named by `area`.
  std::optional<layout::Layout> tile;
  std::string area;
};
} // namespace

/// The static offsets of view \p v in its root (summed over a chain of
/// regions), or std::nullopt when one is not a constant.
static std::optional<SmallVector<int64_t>> staticOffsets(Value v) {
  auto t = cast<BufferType>(v.getType());
  SmallVector<int64_t> offsets(t.getRank(), 0);
  while (auto region = v.getDefiningOp<RegionOp>()) {
    for (auto [d, o] : llvm::enumerate(region.getMixedOffsets())) {
      std::optional<int64_t> c = getConstantIntValue(o);
      if (!c || d >= offsets.size())
        return std::nullopt;
      offsets[d] += *c;
    }
    v = region.getSource();
  }
  return offsets;
}

/// The non-unit dimensions of \p t, or std::nullopt when one is dynamic.
static std::optional<SmallVector<unsigned>> copyDims(BufferType t) {
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < t.getRank(); ++d) {
    Dim dim = t.getDim(d);
    if (!dim.isStatic())
      return std::nullopt;
    if (dim.getValue() != 1)
      dims.push_back(d);
  }
  return dims;
}

/// `16-byte st.shared`, or on HIP the LDS instruction (`ds_write_b128`,
/// `ds_read_u16`).
static std::string widthName(int64_t bytes, bool store, bool hip = false) {
  if (hip)
    return std::string(store       ? "ds_write_b"
                       : bytes < 4 ? "ds_read_u"
                                   : "ds_read_b") +
           std::to_string(bytes * 8);
  return std::to_string(bytes) + "-byte " + (store ? "st" : "ld") + ".shared";
}

/// The root coordinate of view element \p viewCoord (coordinates along the
/// view's \p dims, 0 elsewhere) at \p offsets.
static std::vector<int64_t> rootCoord(ArrayRef<unsigned> dims,
                                      ArrayRef<int64_t> viewCoord,
                                      ArrayRef<int64_t> offsets) {
  std::vector<int64_t> c(offsets.begin(), offsets.end());
  for (auto [d, x] : llvm::zip(dims, viewCoord))
    c[d] += x;
  return c;
}

/// The most threads of a block on any target.
static constexpr int64_t kMaxBlockThreads = 1024;
/// The largest copy whose accesses are enumerated (a 4 MiB f32 tile; shared
/// memory holds at most 228 KiB).
static constexpr int64_t kMaxEnumeratedElements = int64_t(1) << 20;

/// T.copy between global (or shared) memory and shared memory: chunk
/// q = round * threads + tid of `vec` elements, row-major over the copy's
/// extents (CUDAEmitterTileOps: emitCopy).
static void planMemoryCopy(CopyOp op, int64_t threads,
                           std::vector<AccessPlan> &plans, bool hip) {
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

/// The vector width of fragment copies: the most registers (a power of
/// two, at most 16 bytes of \p bytes-byte elements) that hold consecutive
/// elements along the last dimension, starting at a multiple of the width,
/// in every thread.
static int64_t fragmentVector(const layout::Fragment &f,
                              const std::vector<std::vector<int64_t>> &table,
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
static void planFragmentCopy(CopyOp op, int64_t threads,
                             std::vector<AccessPlan> &plans, bool hip) {
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

/// The ldmatrix reads of T.gemm's shared operands: every 8x8 matrix of the
/// tile (8-aligned rows, one 16-byte chunk column) is read as eight 16-byte
/// rows by lanes 8q .. 8q + 7 (PTX ISA, ldmatrix); one phase each.
static void planGemmOperands(GemmOp op, std::vector<AccessPlan> &plans,
                             StringRef instruction) {
  for (Value v : {op.getA(), op.getB()}) {
    Value root = rootOf(v);
    auto rootType = cast<BufferType>(root.getType());
    auto type = cast<BufferType>(v.getType());
    int64_t bytes = getElementStorageBytes(type.getElementType());
    if (!isSharedScope(rootType.getScope()) || !rootType.isStatic() ||
        !type.isStatic() || type.getRank() < 2 || (bytes != 1 && bytes != 2))
      continue;
    std::optional<SmallVector<int64_t>> offsets = staticOffsets(v);
    if (!offsets)
      continue;
    unsigned rank = type.getRank();
    int64_t rows = type.getShape()[rank - 2], cols = type.getShape()[rank - 1];
    int64_t chunk = 16 / bytes;
    if (rows % 8 != 0 || cols % chunk != 0)
      continue;
    AccessPlan plan;
    plan.op = op;
    plan.root = root;
    plan.elementBytes = bytes;
    plan.vec = chunk;
    plan.instruction = instruction.str();
    for (int64_t r0 = 0; r0 < rows; r0 += 8)
      for (int64_t c = 0; c < cols; c += chunk) {
        layout::LaneCoords lanes;
        for (int64_t i = 0; i < 8; ++i)
          lanes[i] = rootCoord({rank - 2, rank - 1}, {r0 + i, c}, *offsets);
        plan.warps.push_back(std::move(lanes));
      }
    plans.push_back(std::move(plan));
  }
}

/// The LDS reads of T.gemm's shared operands on HIP (HIPEmitterGemm.cpp):
/// wavefront w of the accumulator's wavefront grid (wm = w % warpRows,
/// wn = w / warpRows) reads, per K step kk, MFMA tile (T x T: 16, or 32
/// where layout inference gave the accumulator an `mfma32` layout) and
/// value r, row or column lane % T of the tile at k = kk * step + perStep *
/// (lane / T) + r (with a register operand and 8-bit values, kk * 32 + 16
/// (r / 4) + 4 (lane / 16) + r % 4). A K-contiguous operand whose rows are
/// whole multiples of perStep is read as one vector per lane and tile
/// (ds_read_b64 / ds_read_b128, the printer's `vectorBytes`); any other as
/// one ds_read_u16 / ds_read_u8 per element.
static void planMfmaOperands(GemmOp op, std::vector<AccessPlan> &plans) {
  auto cAlloc = op.getC().getDefiningOp<AllocOp>();
  auto cAttr = cAlloc ? dyn_cast_or_null<FragmentAttr>(cAlloc.getLayoutAttr())
                      : FragmentAttr();
  if (!cAttr)
    return;
  layout::Fragment cf = cAttr.getFragment();
  int64_t warpRows = cf.getOrigin().warpRows,
          warpCols = cf.getOrigin().warpCols;
  auto matrix = [](BufferType t) {
    SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
    while (s.size() > 2 && s.front() == 1)
      s.erase(s.begin());
    return s;
  };
  auto aType = cast<BufferType>(op.getA().getType());
  auto bType = cast<BufferType>(op.getB().getType());
  auto cType = cast<BufferType>(op.getC().getType());
  if (!aType.isStatic() || !bType.isStatic() || !cType.isStatic())
    return;
  SmallVector<int64_t> as = matrix(aType), cs = matrix(cType);
  if (as.size() != 2 || cs.size() != 2 || warpRows <= 0 || warpCols <= 0)
    return;
  int64_t bytes = getElementStorageBytes(aType.getElementType());
  if (bytes != 1 && bytes != 2)
    return;
  const bool tile32 =
      StringRef(cf.getOrigin().tag).starts_with("mfma32");
  const int64_t T = tile32 ? 32 : 16, groups = 64 / T;
  const int64_t perLane = bytes == 1 ? 8 : 4, kStep = groups * perLane;
  bool aShared = isSharedScope(scopeOfRoot(op.getA()));
  bool bShared = isSharedScope(scopeOfRoot(op.getB()));
  int64_t kPack = 1;
  if (auto kp = op->getAttrOfType<IntegerAttr>("k_pack"))
    kPack = kp.getInt();
  if (!aShared || !bShared)
    kPack = 1;
  const bool splitK = perLane == 8 && (!aShared || !bShared);
  const int64_t perStep = perLane * kPack, step = kStep * kPack;
  bool transA = op.getTransposeA(), transB = op.getTransposeB();
  int64_t m = cs[0], n = cs[1], k = transA ? as[0] : as[1];
  if (kPack < 1 || k % step != 0 || m % warpRows || n % warpCols)
    return;
  int64_t warpM = m / warpRows, warpN = n / warpCols;
  if (warpM % T || warpN % T)
    return;
  int64_t waves = warpRows * warpCols;
  for (bool isA : {true, false}) {
    Value v = isA ? op.getA() : op.getB();
    if (!(isA ? aShared : bShared))
      continue;
    Value root = rootOf(v);
    auto rootType = cast<BufferType>(root.getType());
    auto type = cast<BufferType>(v.getType());
    std::optional<SmallVector<int64_t>> offsets = staticOffsets(v);
    if (!rootType.isStatic() || !offsets || type.getRank() < 2)
      continue;
    unsigned rank = type.getRank();
    int64_t tiles = (isA ? warpM : warpN) / T;
    bool trans = isA ? transA : !transB;
    // K runs along the operand's rows' last dimension: vector reads.
    int64_t vecBytes = perStep * bytes;
    bool vector = !trans && !splitK && (vecBytes == 8 || vecBytes == 16) &&
                  rootType.getShape().back() == type.getShape().back() &&
                  rootType.getShape().back() % perStep == 0;
    AccessPlan plan;
    plan.op = op;
    plan.root = root;
    plan.elementBytes = bytes;
    plan.vec = vector ? perStep : 1;
    plan.instruction =
        widthName(vector ? vecBytes : bytes, /*store=*/false, /*hip=*/true);
    for (int64_t kk = 0; kk < k / step; ++kk)
      for (int64_t tile = 0; tile < tiles; ++tile)
        for (int64_t r = 0; r < (vector ? 1 : perStep); ++r)
          for (int64_t w = 0; w < waves; ++w)
            for (int64_t half = 0; half < 2; ++half) {
              layout::LaneCoords lanes;
              for (int64_t l = 0; l < 32; ++l) {
                int64_t lane = half * 32 + l;
                int64_t grid = isA ? w % warpRows : w / warpRows;
                int64_t mn = grid * (isA ? warpM : warpN) + tile * T + lane % T;
                int64_t kl =
                    splitK ? kk * 32 + 16 * (r / 4) + 4 * (lane / 16) + r % 4
                           : kk * step + perStep * (lane / T) + r;
                // A is [M, K] (trans: [K, M]); B is [K, N] (trans: [N, K]).
                SmallVector<int64_t> at = trans ? SmallVector<int64_t>{kl, mn}
                                                : SmallVector<int64_t>{mn, kl};
                lanes[l] = rootCoord({rank - 2, rank - 1}, at, *offsets);
              }
              plan.warps.push_back(std::move(lanes));
            }
    plans.push_back(std::move(plan));
  }
}

/// The value of index \p v at loop coordinates \p coords of \p par (its
/// induction variables), or std::nullopt when it depends on anything else
/// or is not an integer operation modelled here.
static std::optional<int64_t> evalIndex(Value v, ParallelOp par,
                                        ArrayRef<int64_t> coords) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != &par.getBody().front() ||
        arg.getArgNumber() >= coords.size())
      return std::nullopt;
    return coords[arg.getArgNumber()];
  }
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto cast = dyn_cast<arith::IndexCastOp>(def))
    return evalIndex(cast.getIn(), par, coords);
  if (def->getNumOperands() != 2 || def->getNumResults() != 1)
    return std::nullopt;
  std::optional<int64_t> a = evalIndex(def->getOperand(0), par, coords);
  if (!a)
    return std::nullopt;
  std::optional<int64_t> b = evalIndex(def->getOperand(1), par, coords);
  if (!b)
    return std::nullopt;
  auto floorDiv = [](int64_t x, int64_t y) {
    return x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::AddIOp) { return *a + *b; })
      .Case([&](arith::SubIOp) { return *a - *b; })
      .Case([&](arith::MulIOp) { return *a * *b; })
      .Case([&](arith::AndIOp) { return *a & *b; })
      .Case([&](arith::OrIOp) { return *a | *b; })
      .Case([&](arith::XOrIOp) { return *a ^ *b; })
      .Case([&](arith::MinSIOp) { return std::min(*a, *b); })
      .Case([&](arith::MaxSIOp) { return std::max(*a, *b); })
      .Case([&](arith::ShLIOp) -> std::optional<int64_t> {
        if (*b < 0 || *b > 62)
          return std::nullopt;
        return *a << *b;
      })
      .Case([&](arith::ShRSIOp) -> std::optional<int64_t> {
        if (*b < 0 || *b > 62)
          return std::nullopt;
        return *a >> *b;
      })
      .Case([&](arith::DivSIOp) -> std::optional<int64_t> {
        if (*b == 0)
          return std::nullopt;
        return *a / *b;
      })
      .Case([&](arith::RemSIOp) -> std::optional<int64_t> {
        if (*b == 0)
          return std::nullopt;
        return *a % *b;
      })
      .Case([&](arith::FloorDivSIOp) -> std::optional<int64_t> {
        if (*b == 0)
          return std::nullopt;
        return floorDiv(*a, *b);
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The loop dimension of each index of fragment access \p o of \p par
/// (kUnitDim for a unit dimension read at 0), as the CUDA printer matches
/// them (CUDAEmitterTileOps: accessDims), or std::nullopt.
static constexpr unsigned kUnitDim = ~0u;
static std::optional<SmallVector<unsigned>>
loopDimsOf(ParallelOp par, Value buf, ValueRange indices) {
  ArrayRef<int64_t> shape = cast<BufferType>(buf.getType()).getShape();
  SmallVector<unsigned> dims;
  for (auto [d, i] : llvm::enumerate(indices)) {
    std::optional<int64_t> c = getConstantIntValue(i);
    if (d < shape.size() && shape[d] == 1 && c && *c == 0) {
      dims.push_back(kUnitDim);
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(i);
    if (!arg || arg.getOwner() != &par.getBody().front())
      return std::nullopt;
    dims.push_back(arg.getArgNumber());
  }
  return dims;
}

/// The fragment that partitions \p par, chosen as the CUDA printer chooses
/// it (CUDAEmitterTileOps: Emitter::loopLayout) but from the fragments'
/// inferred `layout` attributes: one accessed at exactly the loop variables
/// over the loop's whole shape, else over a leading box of it, else in
/// order with unit dimensions read at 0 between them. No fragment access:
/// the flat partition.
static std::optional<layout::LoopPartition>
loopPartition(ParallelOp par, ArrayRef<int64_t> loopShape,
              std::optional<layout::Fragment> &storage) {
  struct Access {
    layout::Fragment fragment;
    std::optional<SmallVector<unsigned>> dims;
  };
  std::vector<Access> accesses;
  bool touchesFragments = false;
  par.getBody().walk([&](Operation *o) {
    Value buf;
    ValueRange indices;
    if (auto l = dyn_cast<LoadOp>(o)) {
      buf = l.getBuffer();
      indices = l.getIndices();
    } else if (auto s = dyn_cast<StoreOp>(o)) {
      buf = s.getBuffer();
      indices = s.getIndices();
    }
    if (!buf || scopeOfRoot(buf) != MemoryScope::Fragment)
      return;
    touchesFragments = true;
    auto alloc = buf.getDefiningOp<AllocOp>();
    auto attr = alloc ? dyn_cast_or_null<FragmentAttr>(alloc.getLayoutAttr())
                      : FragmentAttr();
    if (attr)
      accesses.push_back({attr.getFragment(), loopDimsOf(par, buf, indices)});
  });
  layout::LoopPartition p;
  auto take = [&](const layout::Fragment &f) {
    storage = f;
    p.fragment = &*storage;
    return p;
  };
  for (const Access &a : accesses) {
    if (!a.dims || a.fragment.getInputShape() != loopShape)
      continue;
    bool identity = true;
    for (auto [i, d] : llvm::enumerate(*a.dims))
      identity &= d == i;
    if (identity)
      return take(a.fragment);
  }
  for (const Access &a : accesses) {
    ArrayRef<int64_t> shape = a.fragment.getInputShape();
    if (!a.dims || shape.size() != loopShape.size())
      continue;
    bool box = true;
    for (auto [i, d] : llvm::enumerate(*a.dims))
      box &= d == i && loopShape[i] <= shape[i];
    if (box) {
      p.bound.assign(loopShape.begin(), loopShape.end());
      return take(a.fragment);
    }
  }
  for (const Access &a : accesses) {
    ArrayRef<int64_t> shape = a.fragment.getInputShape();
    if (!a.dims || shape.size() != a.dims->size())
      continue;
    std::vector<unsigned> where;
    for (auto [d, v] : llvm::enumerate(*a.dims)) {
      if (v == kUnitDim)
        continue;
      if (v != where.size() || shape[d] != loopShape[v])
        break;
      where.push_back(d);
    }
    if (where.size() == loopShape.size()) {
      p.varDim = std::move(where);
      return take(a.fragment);
    }
  }
  // The printer refuses a loop that touches fragments without one it can
  // partition by (or reads them through the exchange area, which is not
  // modelled): no code to analyse.
  if (touchesFragments)
    return std::nullopt;
  return p;
}

/// The shared loads and stores inside T.Parallel: one element per lane and
/// instruction, at the loop coordinates the printer gives each thread
/// (layout::parallelLoopWarps), through index expressions of the loop
/// variables and constants (others are not modelled).
static void planParallel(ParallelOp op, int64_t threads,
                         std::vector<AccessPlan> &plans, bool hip) {
  SmallVector<int64_t> loopShape;
  for (OpFoldResult e : op.getMixedExtents()) {
    std::optional<int64_t> c = getConstantIntValue(e);
    if (!c || *c <= 0)
      return;
    loopShape.push_back(*c);
  }
  if (layout::numElements(loopShape) > kMaxEnumeratedElements)
    return;
  SmallVector<Operation *> shared;
  op.getBody().walk([&](Operation *o) {
    Value buf;
    if (auto l = dyn_cast<LoadOp>(o))
      buf = l.getBuffer();
    else if (auto s = dyn_cast<StoreOp>(o))
      buf = s.getBuffer();
    if (!buf)
      return;
    auto rootType = cast<BufferType>(rootOf(buf).getType());
    if (isSharedScope(rootType.getScope()) && rootType.isStatic())
      shared.push_back(o);
  });
  if (shared.empty())
    return;
  std::optional<layout::Fragment> storage;
  std::optional<layout::LoopPartition> partition =
      loopPartition(op, loopShape, storage);
  if (!partition)
    return;
  std::optional<std::vector<layout::LaneCoords>> warps =
      layout::parallelLoopWarps(loopShape, threads, *partition);
  if (!warps)
    return;
  for (Operation *o : shared) {
    bool store = isa<StoreOp>(o);
    Value buf =
        store ? cast<StoreOp>(o).getBuffer() : cast<LoadOp>(o).getBuffer();
    ValueRange indices =
        store ? cast<StoreOp>(o).getIndices() : cast<LoadOp>(o).getIndices();
    std::optional<SmallVector<int64_t>> offsets = staticOffsets(buf);
    if (!offsets || offsets->size() != indices.size())
      continue;
    AccessPlan plan;
    plan.op = o;
    plan.root = rootOf(buf);
    plan.elementBytes = getElementStorageBytes(
        cast<BufferType>(plan.root.getType()).getElementType());
    plan.store = store;
    plan.instruction = widthName(plan.elementBytes, store, hip);
    bool ok = true;
    for (const layout::LaneCoords &w : *warps) {
      layout::LaneCoords lanes;
      for (auto [l, c] : llvm::enumerate(w)) {
        if (!c)
          continue;
        std::vector<int64_t> at(offsets->begin(), offsets->end());
        for (auto [d, i] : llvm::enumerate(indices)) {
          std::optional<int64_t> x = evalIndex(i, op, *c);
          if (!x) {
            ok = false;
            break;
          }
          at[d] += *x;
        }
        if (!ok)
          break;
        lanes[l] = std::move(at);
      }
      if (!ok)
        break;
      plan.warps.push_back(std::move(lanes));
    }
    if (ok)
      plans.push_back(std::move(plan));
  }
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
static int64_t reductionDegree(ReduceOp op, int64_t threads, bool hip) {
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
static void planStagedStore(CopyOp op, int64_t threads,
                            std::vector<AccessPlan> &plans, bool hip) {
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

/// The worst degree of the instructions of \p plans under \p layout.
static int64_t worstDegree(ArrayRef<const AccessPlan *> plans,
                           const layout::Layout &layout, bool lds) {
  int64_t worst = 0;
  // Contiguity depends on the vector width only (it visits every element).
  llvm::SmallDenseMap<int64_t, bool, 4> contiguous;
  for (const AccessPlan *p : plans) {
    auto [it, fresh] = contiguous.try_emplace(p->vec, false);
    if (fresh)
      it->second = layout::isVectorContiguous(layout, p->vec);
    if (!it->second)
      return INT64_MAX;
    for (const layout::LaneCoords &w : p->warps) {
      layout::WarpAccess a =
          layout::sharedAccess(layout, p->elementBytes, p->vec, w);
      a.lds = lds;
      a.store = p->store;
      worst = std::max(worst, layout::bankConflictDegree(a));
    }
  }
  return worst;
}

/// findBankConflicts and findLdsBankConflicts (\p hip).
static std::vector<BankConflict> findConflicts(KernelOp kernel, bool mmaSync,
                                               bool sm90a, bool hip) {
  std::vector<BankConflict> result;
  std::optional<int64_t> threads = kernel.getStaticNumThreads();
  // Past the 1,024 threads of a block no target generates the kernel, so
  // there are no accesses to analyse (and enumerating them would not end).
  if (!threads || *threads <= 0 || *threads > kMaxBlockThreads)
    return result;
  // A tile with an extent of 0 or less is an error at its allocation
  // (layout inference reports it); no layout maps it, so the kernel has no
  // accesses to analyse (found by tlc-fuzz-eval: Layout::linear of such a
  // tile freed an invalid pointer here).
  bool emptyTile = false;
  kernel.walk([&](AllocOp alloc) {
    auto type = dyn_cast<BufferType>(alloc.getResult().getType());
    if (type && llvm::any_of(type.getShape(), [](int64_t e) {
          return e <= 0 && !ShapedType::isDynamic(e);
        }))
      emptyTile = true;
  });
  if (emptyTile)
    return result;
  // On sm_90a the gemms tile-plan-wgmma puts on wgmma read their shared
  // operands through descriptors, stored in the descriptors' panel
  // swizzle; the others (all, when one cannot) stay on mma.sync.
  llvm::DenseSet<Operation *> wgmma;
  llvm::DenseSet<Value> panelTiles;
  if (sm90a)
    for (GemmOp gemm : selectWgmmaGemms(kernel)) {
      wgmma.insert(gemm);
      for (Value v : {gemm.getA(), gemm.getB()})
        if (isSharedScope(scopeOfRoot(v)))
          panelTiles.insert(rootOf(v));
    }
  std::vector<AccessPlan> plans;
  kernel.walk([&](Operation *op) {
    if (auto copy = dyn_cast<CopyOp>(op)) {
      bool srcFrag = scopeOfRoot(copy.getSrc()) == MemoryScope::Fragment;
      bool dstFrag = scopeOfRoot(copy.getDst()) == MemoryScope::Fragment;
      if (srcFrag && dstFrag)
        return;
      if (srcFrag && scopeOfRoot(copy.getDst()) == MemoryScope::Global)
        planStagedStore(copy, *threads, plans, hip);
      else if (srcFrag || dstFrag)
        planFragmentCopy(copy, *threads, plans, hip);
      else
        planMemoryCopy(copy, *threads, plans, hip);
    } else if (auto gemm = dyn_cast<GemmOp>(op)) {
      if (hip)
        planMfmaOperands(gemm, plans);
      else if (wgmma.count(gemm))
        planGemmOperands(gemm, plans, "wgmma operand read");
      else if (mmaSync || sm90a)
        planGemmOperands(gemm, plans, "ldmatrix");
    } else if (auto par = dyn_cast<ParallelOp>(op)) {
      planParallel(par, *threads, plans, hip);
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      // Never conflicts (consecutive words per warp); checked all the same.
      int64_t degree = reductionDegree(reduce, *threads, hip);
      if (degree >= 2) {
        BankConflict c;
        c.op = op;
        c.area = "the reduction scratch";
        c.instruction = "exchange";
        c.degree = degree;
        result.push_back(std::move(c));
      }
    }
  });
  DenseMap<Value, int64_t> swizzled = planSwizzledTiles(kernel);
  DenseMap<Value, layout::XorSwizzle> lds;
  if (hip)
    lds = planLdsSwizzles(kernel);
  // One report per (op, buffer, instruction), in program order.
  std::vector<std::vector<const AccessPlan *>> groups;
  std::map<std::tuple<Operation *, void *, std::string>, size_t> index;
  for (const AccessPlan &p : plans) {
    auto key =
        std::make_tuple(p.op, p.root.getAsOpaquePointer(), p.instruction);
    auto [it, fresh] = index.try_emplace(key, groups.size());
    if (fresh)
      groups.emplace_back();
    groups[it->second].push_back(&p);
  }
  for (const std::vector<const AccessPlan *> &group : groups) {
    const AccessPlan &first = *group.front();
    bool panel = panelTiles.count(first.root);
    layout::Layout actual =
        first.tile ? *first.tile
        : panel    ? layout::makeGemmABLayoutHopper(
                         cast<BufferType>(first.root.getType()).getShape(),
                         first.elementBytes * 8)
                : cudaSharedLayout(first.root, swizzled, &lds);
    int64_t degree = worstDegree(group, actual, hip);
    if (degree < 2 || degree == INT64_MAX)
      continue;
    BankConflict c;
    c.op = first.op;
    c.root = first.root;
    c.area = first.area;
    c.instruction = first.instruction;
    c.degree = degree;
    SmallVector<int64_t> shape;
    if (first.tile)
      shape.assign(first.tile->getInputShape().begin(),
                   first.tile->getInputShape().end());
    else
      shape.assign(cast<BufferType>(first.root.getType()).getShape().begin(),
                   cast<BufferType>(first.root.getType()).getShape().end());
    unsigned bits = first.elementBytes * 8;
    // Descriptors read canonical layouts only: no padding to suggest.
    if (shape.size() >= 2 && !panel) {
      for (int64_t padBytes : {4, 8, 16, 32, 64}) {
        // The printer's own tile is padded by 16 bytes already.
        if (!first.tile && padBytes > 32)
          break;
        if (padBytes % first.elementBytes != 0)
          continue;
        llvm::Expected<layout::Layout> padded = layout::makePaddedLayout(
            shape, bits, padBytes / first.elementBytes);
        if (!padded) {
          llvm::consumeError(padded.takeError());
          continue;
        }
        if (worstDegree(group, *padded, hip) == 1) {
          c.padElems = padBytes / first.elementBytes;
          break;
        }
      }
      if (!first.tile && !swizzled.count(first.root)) {
        llvm::Expected<layout::Layout> swz =
            layout::makeRowSwizzledLayout(shape, bits);
        if (swz)
          c.swizzleFixes = worstDegree(group, *swz, hip) == 1;
        else
          llvm::consumeError(swz.takeError());
      }
    }
    result.push_back(std::move(c));
  }
  return result;
}

std::vector<BankConflict>
tlc::tile::findBankConflicts(KernelOp kernel, bool mmaSync, bool sm90a) {
  return findConflicts(kernel, mmaSync, sm90a, /*hip=*/false);
}

std::vector<BankConflict> tlc::tile::findLdsBankConflicts(KernelOp kernel) {
  return findConflicts(kernel, /*mmaSync=*/false, /*sm90a=*/false,
                       /*hip=*/true);
}
