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

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Layout/BankConflicts.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

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

layout::Layout
tlc::tile::cudaSharedLayout(Value root,
                            const DenseMap<Value, int64_t> &swizzled) {
  auto t = cast<BufferType>(root.getType());
  SmallVector<int64_t> shape(t.getShape());
  unsigned bits = getElementStorageBytes(t.getElementType()) * 8;
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
  int64_t elementBytes = 0;
  /// Elements per lane and instruction.
  int64_t vec = 1;
  std::vector<layout::LaneCoords> warps;
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

/// `16-byte st.shared`.
static std::string widthName(int64_t bytes, bool store) {
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
                           std::vector<AccessPlan> &plans) {
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
    bool async = store && pipelined && canVector &&
                 scopeOfRoot(op.getSrc()) == MemoryScope::Global;
    plan.instruction =
        async ? "cp.async" : widthName(plan.vec * plan.elementBytes, store);
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
          std::vector<int64_t> want = first;
          want[last] += k;
          ok = table[t * regs + r + k] == want;
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
                             std::vector<AccessPlan> &plans) {
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
  llvm::Expected<std::vector<std::vector<int64_t>>> table = f.invertTable();
  if (!table) {
    llvm::consumeError(table.takeError());
    return;
  }
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
  plan.instruction = widthName(step * plan.elementBytes, store);
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
static void planGemmOperands(GemmOp op, std::vector<AccessPlan> &plans) {
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
    plan.instruction = "ldmatrix";
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

/// The worst degree of the instructions of \p plans under \p layout.
static int64_t worstDegree(ArrayRef<const AccessPlan *> plans,
                           const layout::Layout &layout) {
  int64_t worst = 0;
  // Contiguity depends on the vector width only (it visits every element).
  llvm::SmallDenseMap<int64_t, bool, 4> contiguous;
  for (const AccessPlan *p : plans) {
    auto [it, fresh] = contiguous.try_emplace(p->vec, false);
    if (fresh)
      it->second = layout::isVectorContiguous(layout, p->vec);
    if (!it->second)
      return INT64_MAX;
    for (const layout::LaneCoords &w : p->warps)
      worst = std::max(worst, layout::bankConflictDegree(layout::sharedAccess(
                                  layout, p->elementBytes, p->vec, w)));
  }
  return worst;
}

std::vector<BankConflict> tlc::tile::findBankConflicts(KernelOp kernel,
                                                       bool mmaSync) {
  std::vector<BankConflict> result;
  std::optional<int64_t> threads = kernel.getStaticNumThreads();
  // Past the 1,024 threads of a block no target generates the kernel, so
  // there are no accesses to analyse (and enumerating them would not end).
  if (!threads || *threads <= 0 || *threads > kMaxBlockThreads)
    return result;
  std::vector<AccessPlan> plans;
  kernel.walk([&](Operation *op) {
    if (auto copy = dyn_cast<CopyOp>(op)) {
      bool srcFrag = scopeOfRoot(copy.getSrc()) == MemoryScope::Fragment;
      bool dstFrag = scopeOfRoot(copy.getDst()) == MemoryScope::Fragment;
      if (srcFrag && dstFrag)
        return;
      if (srcFrag || dstFrag)
        planFragmentCopy(copy, *threads, plans);
      else
        planMemoryCopy(copy, *threads, plans);
    } else if (auto gemm = dyn_cast<GemmOp>(op)) {
      if (mmaSync)
        planGemmOperands(gemm, plans);
    }
  });
  DenseMap<Value, int64_t> swizzled = planSwizzledTiles(kernel);
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
    layout::Layout actual = cudaSharedLayout(first.root, swizzled);
    int64_t degree = worstDegree(group, actual);
    if (degree < 2 || degree == INT64_MAX)
      continue;
    BankConflict c;
    c.op = first.op;
    c.root = first.root;
    c.instruction = first.instruction;
    c.degree = degree;
    auto rootType = cast<BufferType>(first.root.getType());
    SmallVector<int64_t> shape(rootType.getShape());
    unsigned bits = first.elementBytes * 8;
    if (shape.size() >= 2) {
      for (int64_t padBytes : {4, 8, 16, 32}) {
        if (padBytes % first.elementBytes != 0)
          continue;
        llvm::Expected<layout::Layout> padded = layout::makePaddedLayout(
            shape, bits, padBytes / first.elementBytes);
        if (!padded) {
          llvm::consumeError(padded.takeError());
          continue;
        }
        if (worstDegree(group, *padded) == 1) {
          c.padElems = padBytes / first.elementBytes;
          break;
        }
      }
      if (!swizzled.count(first.root)) {
        llvm::Expected<layout::Layout> swz =
            layout::makeRowSwizzledLayout(shape, bits);
        if (swz)
          c.swizzleFixes = worstDegree(group, *swz) == 1;
        else
          llvm::consumeError(swz.takeError());
      }
    }
    result.push_back(std::move(c));
  }
  return result;
}
