//===- SharedAccesses.cpp - Shared-memory layouts and accesses of CUDA code
//===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The swizzle plans of shared tiles (CUDA's 16-byte chunk swizzle, HIP's
// MFMA LDS swizzles) and the bank-conflict analysis over them. Each
// modelled access becomes an AccessPlan (SharedAccessPlans.h: copies,
// gemm operands and T.Parallel accesses are modelled in files of their
// own): the warp-wide instructions it issues, as the logical coordinates
// (in the shared allocation) of every lane's first element. A plan is
// evaluated against a layout (the one the CUDA code uses, or a padded /
// swizzled alternative for the suggestion) with layout::bankConflictDegree.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"

#include "SharedAccessPlans.h"

#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/SharedStoragePlan.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Layout/BankConflicts.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Layout/MfmaSharedLayouts.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

DenseMap<Value, int64_t> tlc::tile::planSwizzledTiles(KernelOp kernel) {
  DenseMap<Value, int64_t> swizzled;
  auto swizzle = [&](Value root, bool only2D) {
    auto t = cast<BufferType>(root.getType());
    int64_t bytes = getElementStorageBytes(t.getElementType());
    if (!isSharedScope(t.getScope()) || !t.isStatic() || t.getRank() < 2 ||
        (only2D && t.getRank() != 2) || (bytes != 2 && bytes != 1))
      return;
    // swizzledIndex XORs a row's chunk number with up to 3 row bits: only
    // rows of 2, 4 or a multiple of 8 chunks stay a permutation of their
    // own chunks (a row of 12 mapped chunks 8..11 onto 12..15, the next
    // row's, and lost elements).
    int64_t rowBytes = t.getShape().back() * bytes;
    int64_t chunks = rowBytes / 16;
    if (rowBytes % 16 == 0 &&
        (chunks == 2 || chunks == 4 || (chunks > 0 && chunks % 8 == 0)))
      swizzled[root] = chunks;
  };
  // Shared gemm operands: conflict-free ldmatrix.
  kernel.walk([&](GemmOp gemm) {
    for (Value v : {gemm.getA(), gemm.getB()})
      swizzle(rootOf(v), /*only2D=*/false);
  });
  // Tiles only copies use that a fragment is copied into (an accumulator
  // written out through shared memory): a warp's narrow stores hit 8 rows
  // of one chunk column, which conflict 8 ways in a plain row-major tile of
  // 128 bytes or more. A T.annotate_layout of the tile (TileLang's
  // `make_swizzled_layout(S)` asks for this very swizzle) accesses nothing.
  kernel.walk([&](CopyOp copy) {
    Value root = copy.getDst();
    if (scopeOfRoot(copy.getSrc()) != MemoryScope::Fragment ||
        rootOf(root) != root || swizzled.count(root) ||
        !llvm::all_of(root.getUsers(), [](Operation *user) {
          return isa<CopyOp, AnnotateLayoutOp>(user);
        }))
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
  if ((bytes != 1 && bytes != 2 && bytes != 4) || !root.isStatic() ||
      root.getRank() < 2)
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
  // MN-contiguous 8- and 16-bit operands: 8-byte chunks of n x 16 blocks.
  const int64_t chunk = bytes == 1 || bytes == 2 ? 8 / bytes : 0;
  r.transposed = !r.kInner && !splitK && chunk && r.perStep % chunk == 0 &&
                 root.getShape().back() == type.getShape().back() &&
                 root.getShape().back() % chunk == 0;
  return r;
}

DenseMap<Value, layout::XorSwizzle>
tlc::tile::planLdsSwizzles(KernelOp kernel) {
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

std::string SharedStorage::indexTemplate(BufferType type) const {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t chunkElems = 16 / getElementStorageBytes(type.getElementType());
  switch (kind) {
  case Kind::Linear:
    return "";
  case Kind::RowSwizzle:
    return "swizzledIndex<" + std::to_string(chunks) +
           (chunkElems == 8 ? "" : ", " + std::to_string(chunkElems)) + ">";
  case Kind::Panels:
    return "panelSwizzledIndex<" + std::to_string(chunks) + ", " +
           std::to_string(chunkElems) + ", " + std::to_string(shape.end()[-2]) +
           ", " + std::to_string(shape.back()) + ">";
  case Kind::LdsSwizzle:
    return "xorSwizzledIndex<" + std::to_string(shape.back()) + ", " +
           std::to_string(lds.vec) + ", " + std::to_string(lds.perPhase) +
           ", " + std::to_string(lds.maxPhase) + ">";
  }
  return "";
}

std::string SharedStorage::indexNamespace(bool hip) const {
  return hip && kind != Kind::Panels ? "tlc::hip::" : "tlc::cuda::";
}

std::optional<SharedStorageTarget>
tlc::tile::parseSharedStorageTarget(StringRef target) {
  SharedStorageTarget t;
  if (target.consume_front("hip:")) {
    t.hip = true;
    return t;
  }
  target.consume_front("cuda:");
  if (target.empty())
    target = "sm_80";
  if (!target.starts_with("sm_"))
    return std::nullopt;
  t.arch = target.str();
  return t;
}

DenseMap<Value, SharedStorage>
tlc::tile::planSharedStorage(KernelOp kernel,
                             const SharedStorageTarget &target) {
  // tile-plan-shared-storage's plan where it recorded one the printer can
  // address (the printer itself reports a malformed one).
  if (isModulePlanned(kernel, kStoragePlanned))
    if (FailureOr<DenseMap<Value, SharedStorage>> recorded =
            getRecordedSharedStorage(kernel, target, /*quiet=*/true);
        succeeded(recorded))
      return std::move(*recorded);
  return chooseSharedStorage(kernel, target);
}

DenseMap<Value, SharedStorage>
tlc::tile::chooseSharedStorage(KernelOp kernel,
                               const SharedStorageTarget &target) {
  DenseMap<Value, SharedStorage> plan;
  for (auto [root, chunks] : planSwizzledTiles(kernel)) {
    SharedStorage &s = plan[root];
    s.kind = SharedStorage::Kind::RowSwizzle;
    s.chunks = chunks;
  }
  if (target.hip)
    for (auto [root, swizzle] : planLdsSwizzles(kernel)) {
      if (swizzle.maxPhase == 1) {
        plan.erase(root); // row-major reads are conflict-free
        continue;
      }
      SharedStorage &s = plan[root];
      s.kind = SharedStorage::Kind::LdsSwizzle;
      s.chunks = 0;
      s.lds = swizzle;
    }
  auto panel = [&](Value root, int64_t bytes) {
    SharedStorage &s = plan[root];
    s.kind = SharedStorage::Kind::Panels;
    s.chunks = bytes / 16;
  };
  if (!kernel->hasAttr("tile.shared_bytes")) {
    // Not lowered yet: the passes' own decision, as they will take it.
    if (target.arch == "sm_90a")
      for (auto [alloc, bytes] : planWgmmaPanels(kernel))
        panel(alloc.getResult(), bytes);
    else if (target.arch == "sm_100a")
      for (auto [alloc, bytes] : planTcgen05Panels(kernel))
        panel(alloc.getResult(), bytes);
    return plan;
  }
  // Lowered: the operands of the gemms tile-plan-wgmma / tile-plan-tcgen05
  // chose, and the buffers of hand-written descriptors, carry the swizzle
  // of their panels.
  auto swizzleOf = [](Value root) -> IntegerAttr {
    Operation *def = root.getDefiningOp();
    return def ? def->getAttrOfType<IntegerAttr>("tile.swizzle")
               : IntegerAttr();
  };
  kernel.walk([&](GemmOp gemm) {
    auto instr = gemm->getAttrOfType<StringAttr>("tile.instr");
    if (!instr ||
        (instr.getValue() != "wgmma" && instr.getValue() != "tcgen05"))
      return;
    for (Value v : {gemm.getA(), gemm.getB()})
      if (IntegerAttr bytes = swizzleOf(rootOf(v)))
        panel(rootOf(v), bytes.getInt());
  });
  kernel.walk([&](IntrinsicOp intr) {
    // T.tcgen05_gemm_blockscaled(A, B, ...): its shared operands.
    if (intr.getCallee() == "T.tcgen05_gemm_blockscaled") {
      for (auto [i, v] : llvm::enumerate(intr.getArgs())) {
        StringRef p = i < intr.getParams().size()
                          ? cast<StringAttr>(intr.getParams()[i]).getValue()
                          : "";
        if (p == "A" || p == "B")
          if (IntegerAttr bytes = swizzleOf(rootOf(v)))
            panel(rootOf(v), bytes.getInt());
      }
      return;
    }
    if (intr.getCallee() != "T.initialize_wgmma_descriptor" ||
        intr.getArgs().size() < 2)
      return;
    Value root = rootOf(intr.getArgs()[1]);
    if (IntegerAttr bytes = swizzleOf(root))
      panel(root, bytes.getInt());
  });
  return plan;
}

/// The swizzle mode of panel rows of \p chunks 16-byte chunks.
static std::optional<layout::SwizzleMode> panelMode(int64_t chunks) {
  switch (chunks) {
  case 2:
    return layout::SwizzleMode::B32;
  case 4:
    return layout::SwizzleMode::B64;
  case 8:
    return layout::SwizzleMode::B128;
  default:
    return std::nullopt;
  }
}

layout::Layout tlc::tile::sharedStorageLayout(Value root,
                                              const SharedStorage *s) {
  auto t = cast<BufferType>(root.getType());
  SmallVector<int64_t> shape(t.getShape());
  unsigned bits = getElementStorageBytes(t.getElementType()) * 8;
  std::optional<llvm::Expected<layout::Layout>> l;
  if (s && s->kind == SharedStorage::Kind::Panels && shape.size() >= 2)
    if (std::optional<layout::SwizzleMode> mode = panelMode(s->chunks))
      l.emplace(layout::makeSwizzledLayout(shape, bits, *mode));
  if (s && s->kind == SharedStorage::Kind::LdsSwizzle)
    l.emplace(layout::makeXorSwizzleLayout(shape, bits, s->lds));
  if (s && s->kind == SharedStorage::Kind::RowSwizzle)
    l.emplace(layout::makeRowSwizzledLayout(shape, bits));
  if (l && *l)
    return std::move(**l);
  if (l)
    llvm::consumeError(l->takeError());
  // fp4 e2m1 is stored two a byte, row-major (the swizzles above see it
  // in bytes, as the printer's index functions do).
  layout::Layout linear = layout::Layout::linear(shape);
  linear.setElementBits(isa<Float4E2M1FNType>(t.getElementType()) ? 4 : bits);
  return linear;
}

std::string tlc::tile::sharedStorageLabel(Value root, const SharedStorage *s) {
  auto t = cast<BufferType>(root.getType());
  if (!s || s->kind == SharedStorage::Kind::Linear || t.getRank() < 2)
    return "linear";
  int64_t rowBytes =
      t.getShape().back() * getElementStorageBytes(t.getElementType());
  switch (s->kind) {
  case SharedStorage::Kind::Linear:
    break;
  case SharedStorage::Kind::RowSwizzle: {
    // swizzledIndex XORs the chunk with 3 row bits for rows of 8 chunks or
    // more (the 128-byte swizzle of each 128 bytes), 2 for 4 chunks, 1 for
    // 2, none for others: rows of 2, 4 or 8 chunks are the canonical
    // swizzle of their width.
    int64_t swizzle = s->chunks >= 8   ? 128
                      : s->chunks == 4 ? 64
                      : s->chunks == 2 ? 32
                                       : 0;
    if (!swizzle)
      return "linear";
    std::string label = "swizzle " + std::to_string(swizzle) + "B";
    if (rowBytes > swizzle)
      label += ", " + std::to_string(rowBytes) + "B rows";
    return label;
  }
  case SharedStorage::Kind::Panels: {
    int64_t panelBytes = s->chunks * 16;
    std::string label = "swizzle " + std::to_string(panelBytes) + "B";
    if (panelBytes > 0 && rowBytes > panelBytes)
      label += ", " + std::to_string(rowBytes / panelBytes) + " panels";
    return label;
  }
  case SharedStorage::Kind::LdsSwizzle:
    return "xor swizzle (runs of " + std::to_string(s->lds.vec) + ", " +
           std::to_string(s->lds.maxPhase) + " phases of " +
           std::to_string(s->lds.perPhase) + " row" +
           (s->lds.perPhase == 1 ? "" : "s") + ")";
  }
  return "linear";
}

/// The static offsets of view \p v in its root (summed over a chain of
/// regions), or std::nullopt when one is not a constant.
std::optional<SmallVector<int64_t>> tlc::tile::detail::staticOffsets(Value v) {
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
std::optional<SmallVector<unsigned>> tlc::tile::detail::copyDims(BufferType t) {
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
std::string tlc::tile::detail::widthName(int64_t bytes, bool store, bool hip) {
  if (hip)
    return std::string(store       ? "ds_write_b"
                       : bytes < 4 ? "ds_read_u"
                                   : "ds_read_b") +
           std::to_string(bytes * 8);
  return std::to_string(bytes) + "-byte " + (store ? "st" : "ld") + ".shared";
}

/// The root coordinate of view element \p viewCoord (coordinates along the
/// view's \p dims, 0 elsewhere) at \p offsets.
std::vector<int64_t> tlc::tile::detail::rootCoord(ArrayRef<unsigned> dims,
                                                  ArrayRef<int64_t> viewCoord,
                                                  ArrayRef<int64_t> offsets) {
  std::vector<int64_t> c(offsets.begin(), offsets.end());
  for (auto [d, x] : llvm::zip(dims, viewCoord))
    c[d] += x;
  return c;
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
                                               bool sm90a, bool hip,
                                               StringRef arch) {
  std::vector<BankConflict> result;
  std::optional<int64_t> threads = kernel.getStaticNumThreads();
  // Past the 1,024 threads of a block no target generates the kernel, so
  // there are no accesses to analyse (and enumerating them would not end).
  if (!threads || *threads <= 0 || *threads > kMaxBlockThreads)
    return result;
  // A tile with an extent of 0 or less is an error at its allocation
  // (layout inference reports it); no layout maps it, so the kernel has no
  // accesses to analyse (found by tlc-fuzz-eval: Layout::linear of such a
  // tile freed an invalid pointer here). Nor has a kernel with a tile past
  // the elements layouts enumerate: far past shared memory and the
  // register file, it is an error at its kernel or allocation (found by
  // tlc-fuzz-eval: the linear layout of a (128, 2^62) shared tile, and the
  // ldmatrix plan of a (64, 10^12) gemm operand, which filled the memory).
  bool unanalysable = false;
  kernel.walk([&](AllocOp alloc) {
    auto type = dyn_cast<BufferType>(alloc.getResult().getType());
    if (!type)
      return;
    if (llvm::any_of(type.getShape(), [](int64_t e) {
          return e <= 0 && !ShapedType::isDynamic(e);
        }))
      unanalysable = true;
    else if (type.isStatic() && layout::numElementsSaturated(type.getShape()) >
                                    layout::kMaxEnumeratedInputs)
      unanalysable = true;
  });
  if (unanalysable)
    return result;
  // On sm_90a the gemms tile-plan-wgmma puts on wgmma read their shared
  // operands through descriptors, stored in the descriptors' panel
  // swizzle; the others (all, when one cannot) stay on mma.sync.
  llvm::DenseSet<Operation *> wgmma;
  if (sm90a)
    for (GemmOp gemm : selectWgmmaGemms(kernel))
      wgmma.insert(gemm);
  // Every buffer as the printer stores it.
  SharedStorageTarget target;
  target.hip = hip;
  target.arch = sm90a ? "sm_90a" : arch.str();
  DenseMap<Value, SharedStorage> storage = planSharedStorage(kernel, target);
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
        planMfmaOperands(gemm, plans, storage);
      else if (wgmma.count(gemm))
        planGemmOperands(gemm, plans, "wgmma operand read");
      else if (mmaSync || sm90a)
        planGemmOperands(gemm, plans, "ldmatrix");
    } else if (auto par = dyn_cast<ParallelOp>(op)) {
      planParallel(par, *threads, plans, hip, storage);
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
    auto stored = first.tile ? storage.end() : storage.find(first.root);
    const SharedStorage *s =
        stored == storage.end() ? nullptr : &stored->second;
    bool panel = s && s->kind == SharedStorage::Kind::Panels;
    layout::Layout actual =
        first.tile ? *first.tile : sharedStorageLayout(first.root, s);
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
      if (!first.tile && !s) {
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

std::vector<BankConflict> tlc::tile::findBankConflicts(KernelOp kernel,
                                                       bool mmaSync, bool sm90a,
                                                       StringRef arch) {
  return findConflicts(kernel, mmaSync, sm90a, /*hip=*/false, arch);
}

std::vector<BankConflict> tlc::tile::findLdsBankConflicts(KernelOp kernel) {
  return findConflicts(kernel, /*mmaSync=*/false, /*sm90a=*/false,
                       /*hip=*/true, /*arch=*/"");
}
