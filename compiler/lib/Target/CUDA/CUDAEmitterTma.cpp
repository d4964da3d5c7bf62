//===- CUDAEmitterTma.cpp - TMA copies of sm_90a pipelines ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The copies tile-plan-tma chose (`tile.tma = I`): each is one tensor map,
// a `const __grid_constant__ tlc::cuda::TensorMap` parameter after the
// symbols, whose box is one swizzle panel of the destination tile (panel
// columns x tile rows); the copy issues one tmaLoad per panel at the
// region's coordinates (innermost first), all completing on the stage's
// mbarrier. The pipeline around them is CUDAEmitterPipeline.cpp's.
//
// A copy tile-gemm-cluster shares between the two blocks of a cluster
// (`tile.tma_multicast = 2`): its box is half the tile's rows; block r
// loads rows [r * rows / 2, (r + 1) * rows / 2) of each panel and
// multicasts them to both blocks (ctaMask 0b11), so each block's full
// barrier still receives the whole tile's bytes. The half panel starts at
// a multiple of 8 rows (the pass checks it), where the swizzle pattern
// starts over.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "SafeValue.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"

#include <array>
#include <map>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

namespace {
/// The shape facts of a TMA copy that tile-plan-tma checked.
struct TmaBox {
  BlockArgument tensor;
  BufferType global;
  int64_t rows = 0, cols = 0, panelCols = 0, swizzle = 0, elemBytes = 0;
  /// The region dimension along the tile's rows (-1: none).
  int rowDim = -1;
  /// Blocks of the cluster that share the tile (tile.tma_multicast; 1: a
  /// copy of one block), each loading rows / multicast of it.
  int64_t multicast = 1;
};
} // namespace

/// The 128-byte swizzle of TMA stores (tile-plan-tma's tile.tma_store).
static constexpr int64_t kStoreSwizzle = 128;

static TmaBox tmaBox(CopyOp op) {
  TmaBox b;
  bool store = op->hasAttr("tile.tma_store");
  auto region = (store ? op.getDst() : op.getSrc()).getDefiningOp<RegionOp>();
  b.tensor = cast<BlockArgument>(region.getSource());
  b.global = cast<BufferType>(b.tensor.getType());
  auto box = cast<BufferType>(region.getType());
  b.elemBytes = getElementStorageBytes(b.global.getElementType());
  b.swizzle = store ? kStoreSwizzle
                    : op.getDst()
                          .getDefiningOp()
                          ->getAttrOfType<IntegerAttr>("tile.swizzle")
                          .getInt();
  b.panelCols = b.swizzle / b.elemBytes;
  b.rows = 1;
  unsigned rank = box.getRank();
  b.cols = box.getShape()[rank - 1];
  for (unsigned d = 0; d + 1 < rank; ++d)
    if (box.getShape()[d] != 1) {
      b.rowDim = d;
      b.rows = box.getShape()[d];
    }
  if (auto m = op->getAttrOfType<IntegerAttr>("tile.tma_multicast"))
    b.multicast = m.getInt();
  return b;
}

int64_t Emitter::tmaCopyBytes(CopyOp op) {
  TmaBox b = tmaBox(op);
  return b.rows * b.cols * b.elemBytes;
}

LogicalResult Emitter::planTensorMaps(KernelOp kernel, std::string &params,
                                      std::vector<CudaTensorMap> &maps) {
  SmallVector<std::pair<int64_t, CopyOp>> copies;
  std::map<int64_t, CudaTensorMap> pendingMaps;
  kernel.walk([&](CopyOp copy) {
    if (auto i = copy->getAttrOfType<IntegerAttr>("tile.tma"))
      copies.push_back({i.getInt(), copy});
    if (auto i = copy->getAttrOfType<IntegerAttr>("tile.tma_store"))
      copies.push_back({i.getInt(), copy});
  });
  // tile-lower-copy-cluster's multicast T.copy_cluster: one box of the
  // whole region, no swizzle.
  SmallVector<std::pair<int64_t, IntrinsicOp>> clusterCopies;
  kernel.walk([&](IntrinsicOp op) {
    if (auto i = op->getAttrOfType<IntegerAttr>("tile.tma"))
      clusterCopies.push_back({i.getInt(), op});
  });
  for (auto &[index, op] : clusterCopies) {
    auto region = argOf(op, "src").getDefiningOp<RegionOp>();
    auto tensor = cast<BlockArgument>(region.getSource());
    auto global = cast<BufferType>(tensor.getType());
    auto box = cast<BufferType>(region.getType());
    int64_t elemBytes = getElementStorageBytes(global.getElementType());
    CudaTensorMap m;
    m.param = tensor.getArgNumber();
    m.dtype = getDTypeName(global.getElementType());
    SmallVector<int64_t> strides = *getStaticStrides(tensor);
    unsigned rank = global.getRank();
    for (unsigned i = 0; i < rank; ++i) {
      unsigned d = rank - 1 - i;
      m.dims.push_back(global.getShape()[d]);
      if (i > 0)
        m.strides.push_back(strides[d] * elemBytes);
      m.box.push_back(box.getShape()[d]);
    }
    m.swizzle = op->getAttrOfType<IntegerAttr>("tile.cluster_swizzle").getInt();
    copies.push_back({index, CopyOp()});
    pendingMaps[index] = std::move(m);
    tensorMapNames[op.getOperation()] = "tmap" + std::to_string(index);
  }
  // T.tma_gather4 / T.tma_scatter4 (sm_100a's .tile::gather4 /
  // .tile::scatter4): a map of the 2-D tensor whose box is one row of the
  // [4, W] shared tile's W columns (the PTX ISA: box dim 1 is 1, the four
  // rows come from the instruction), no swizzle. A copy that does not fit
  // gets no map and is refused where it is emitted.
  int64_t nextIndex = 0;
  for (auto &[index, op] : copies)
    nextIndex = std::max(nextIndex, index + 1);
  for (auto &[index, op] : clusterCopies)
    nextIndex = std::max(nextIndex, index + 1);
  if (hasTcgen05(options.minComputeCapability) && !lang.isHip())
    kernel.walk([&](IntrinsicOp op) {
      bool gather = op.getCallee() == "T.tma_gather4";
      if (!gather && op.getCallee() != "T.tma_scatter4")
        return;
      Value global = argOf(op, gather ? "src" : "dst"),
            tile = argOf(op, gather ? "dst" : "src");
      auto tensor = dyn_cast_or_null<BlockArgument>(global);
      auto gt = tensor ? dyn_cast<BufferType>(tensor.getType()) : BufferType();
      auto st = tile ? dyn_cast<BufferType>(tile.getType()) : BufferType();
      if (!gt || !st || gt.getRank() != 2 || !gt.isStatic() ||
          st.getRank() != 2 || !st.isStatic() || st.getShape()[0] != 4 ||
          gt.getElementType() != st.getElementType() ||
          !isSharedScope(st.getScope()) || rootOf(tile) != tile ||
          sharedStorage.count(tile))
        return;
      int64_t elemBytes = getElementStorageBytes(gt.getElementType());
      int64_t w = st.getShape()[1];
      std::optional<SmallVector<int64_t>> strides = getStaticStrides(tensor);
      if (w > 256 || (w * elemBytes) % 16 || !strides || (*strides)[1] != 1 ||
          ((*strides)[0] * elemBytes) % 16)
        return;
      CudaTensorMap m;
      m.param = tensor.getArgNumber();
      m.dtype = getDTypeName(gt.getElementType());
      m.dims = {gt.getShape()[1], gt.getShape()[0]};
      m.strides = {(*strides)[0] * elemBytes};
      m.box = {w, 1};
      m.swizzle = 0;
      int64_t index = nextIndex++;
      copies.push_back({index, CopyOp()});
      pendingMaps[index] = std::move(m);
      tensorMapNames[op.getOperation()] = "tmap" + std::to_string(index);
    });
  llvm::stable_sort(copies,
                    [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &[index, copy] : copies) {
    if (!copy) {
      params += (params.empty() ? "" : ", ") +
                std::string("const __grid_constant__ tlc::cuda::TensorMap "
                            "tmap") +
                std::to_string(index);
      maps.push_back(std::move(pendingMaps[index]));
      continue;
    }
    TmaBox b = tmaBox(copy);
    CudaTensorMap m;
    m.param = b.tensor.getArgNumber();
    m.dtype = getDTypeName(b.global.getElementType());
    unsigned rank = b.global.getRank();
    // Byte strides: the tensor's `tile.strides` or its dense rows
    // (tile-plan-tma checked that they are static and 16-byte multiples).
    SmallVector<int64_t> strides = *getStaticStrides(b.tensor);
    for (unsigned i = 0; i < rank; ++i) {
      unsigned d = rank - 1 - i;
      m.dims.push_back(b.global.getShape()[d]);
      if (i > 0)
        m.strides.push_back(strides[d] * b.elemBytes);
      m.box.push_back(
          i == 0 ? b.panelCols
                 : (int(d) == b.rowDim ? b.rows / b.multicast : int64_t(1)));
    }
    m.swizzle = b.swizzle;
    std::string name = "tmap" + std::to_string(index);
    tensorMapNames[copy] = name;
    params += (params.empty() ? "" : ", ") +
              std::string("const __grid_constant__ tlc::cuda::TensorMap ") +
              name;
    maps.push_back(std::move(m));
  }
  if (!copies.empty())
    anyTma = true;
  return success();
}

/// The coordinates (innermost first) of the box of \p region.
static SmallVector<std::string>
boxCoordinates(RegionOp region, llvm::function_ref<std::string(Value)> expr) {
  SmallVector<std::string> coords;
  SmallVector<OpFoldResult> offsets = region.getMixedOffsets();
  for (int d = int(offsets.size()) - 1; d >= 0; --d) {
    if (auto v = dyn_cast<Value>(offsets[d]))
      coords.push_back("int(" + expr(v) + ")");
    else
      coords.push_back(std::to_string(
          cast<IntegerAttr>(cast<Attribute>(offsets[d])).getInt()));
  }
  return coords;
}

LogicalResult Emitter::emitTmaCopy(CopyOp op, const std::string &dst,
                                   const std::string &bar) {
  beginOp(op, "T.copy (TMA: cp.async.bulk.tensor, " +
                  std::to_string(tmaBox(op).swizzle) + "B swizzle)");
  TmaBox b = tmaBox(op);
  auto region = op.getSrc().getDefiningOp<RegionOp>();
  SmallVector<std::string> coords =
      boxCoordinates(region, [&](Value v) { return expr(v); });
  unsigned rank = coords.size();
  std::string map = tensorMapNames[op.getOperation()];
  // A multicast copy: this block's share of the rows (its cluster rank's).
  int64_t share = b.rows / b.multicast;
  unsigned rowCoord = rank - 1 - unsigned(std::max(b.rowDim, 0));
  std::string part;
  if (b.multicast > 1) {
    part = fresh("share");
    line("const int " + part + " = (int)tlc::cuda::clusterCtaRank() * " +
         Twine(share) + ";  // the rows this block loads for the cluster");
    anyCluster = true;
  }
  for (int64_t p = 0; p * b.panelCols < b.cols; ++p) {
    std::string args;
    for (unsigned i = 0; i < rank; ++i) {
      std::string c = coords[i];
      if (i == 0 && p)
        c += " + " + std::to_string(p * b.panelCols);
      if (!part.empty() && i == rowCoord)
        c += " + " + part;
      args += ", " + c;
    }
    std::string d = dst;
    if (p)
      d = "(" + dst + " + " + std::to_string(p * b.panelCols * b.rows) + ")";
    if (part.empty()) {
      line("tlc::cuda::tmaLoad<" + Twine(rank) + ">(" + d + ", &" + map + ", " +
           bar + args + ");");
      continue;
    }
    line("tlc::cuda::tmaLoadMulticast<" + Twine(rank) + ">(" + d + " + " +
         part + " * " + Twine(b.panelCols) + ", &" + map + ", " + bar + ", " +
         Twine((1 << b.multicast) - 1) + args + ");");
  }
  return success();
}

/// Whether the TMA store epilogue \p op of a persistent kernel leaves its
/// panels' read in flight (`tile.tma_store_async` of tile-persistent-gemm:
/// `tlc.tma_store_async`, by default in a GEMM): the issuing thread waits
/// for it before the next tile's epilogue writes the area (and once after
/// the tile loop), not right after the store, so the next tile's
/// mainloop starts while the copy engine reads.
/// Stores the fragment's registers into 128B-swizzled panels at \p base:
/// element (r, c) at panel c / P, byte r * 128 + (c % P) * e, its 16-byte
/// chunk XOR r % 8. With \p band, only the columns of that band (a band
/// is whole panels, so no vector straddles one), c counted from the band.
static LogicalResult
emitPanelStores(Emitter &e, CopyOp op, const FragmentInfo &frag,
                ArrayRef<unsigned> fragDims, const TmaBox &b, StringRef base,
                StringRef band = "", int64_t bandCols = 0) {
  Type srcElem = cast<BufferType>(op.getSrc().getType()).getElementType();
  Type dstElem = b.global.getElementType();
  e.open(frag.threadExtent < e.numThreads
             ? "if (tid < " + Twine(frag.threadExtent) + ")"
             : Twine(""));
  e.open(frag.ifOneReplica());
  std::string reg = e.fresh("r");
  e.line("#pragma unroll");
  e.open("for (int " + reg + " = 0; " + reg + " < " + Twine(frag.regs) + "; " +
         reg + " += " + Twine(frag.vec) + ")");
  SmallVector<std::string> coords = e.emitCoords(frag, reg, "i");
  std::string row = coords[fragDims[0]];
  std::string col = "(" + coords[fragDims[1]] + ")";
  if (!band.empty()) {
    e.line("if (" + col + " / " + Twine(bandCols) + " != " + band +
           ") continue;");
    col = e.fresh("bc");
    e.line("const int " + col + " = (" + coords[fragDims[1]] + ") - " + band +
           " * " + Twine(bandCols) + ";");
  }
  std::string at = e.fresh("at");
  e.line("const int " + at + " = " + col + " / " + Twine(b.panelCols) + " * " +
         Twine(b.rows * 128) + " + (" + row + ") * 128 + (((" + col + " % " +
         Twine(b.panelCols) + ") * " + Twine(b.elemBytes) + ") ^ (((" + row +
         ") % 8) << 4));");
  std::string fragName = e.expr(Emitter::rootOf(op.getSrc()));
  if (frag.vec > 1) {
    std::string packed = e.fresh("packed");
    FailureOr<SmallVector<std::string>> lines = e.packedRegisters(
        packed, srcElem, dstElem, fragName, reg, frag.vec, op);
    if (failed(lines))
      return failure();
    for (const std::string &l : *lines)
      e.line(l);
    e.line(e.ns + "copyVector<" + Twine(frag.vec * b.elemBytes) + ">(" + base +
           " + " + at + ", " + packed + ");");
  } else {
    FailureOr<std::string> storage = e.storageType(dstElem, op);
    if (failed(storage))
      return failure();
    e.line("*reinterpret_cast<" + *storage + " *>(" + base + " + " + at +
           ") = " +
           e.toStorage(dstElem,
                       e.fromStorage(srcElem, fragName + "[" + reg + "]")) +
           ";");
  }
  e.close();
  e.close();
  e.close();
  return success();
}

static bool deferredTmaStoreRead(CopyOp op) {
  auto kernel = op->getParentOfType<KernelOp>();
  return kernel && kernel->hasAttr("tile.persistent_ctas") &&
         op->hasAttr("tile.epilogue_area") &&
         kernel->hasAttr("tile.tma_store_async");
}

FailureOr<bool> Emitter::emitTmaStore(CopyOp op, const FragmentInfo &frag) {
  // Under a thread range the other threads may use the area's bytes.
  if (range.condition)
    return false;
  TmaBox b = tmaBox(op);
  Type dstElem = b.global.getElementType();
  // The fragment's two non-unit dimensions are the box's rows and columns.
  SmallVector<unsigned> fragDims;
  for (auto [d, e] : llvm::enumerate(frag.shape))
    if (e != 1)
      fragDims.push_back(d);
  int64_t vecBytes = frag.vec * b.elemBytes;
  if (fragDims.size() != 2 || frag.shape[fragDims[0]] != b.rows ||
      frag.shape[fragDims[1]] != b.cols || vecBytes > 16 || 16 % vecBytes)
    return false;
  FailureOr<std::string> storage = storageType(dstElem, op);
  if (failed(storage))
    return failure();
  int64_t area =
      op->getAttrOfType<IntegerAttr>("tile.tma_store_offset").getInt();
  if (auto bands = op->getAttrOfType<IntegerAttr>("tile.epilogue_bands");
      bands && bands.getInt() > 1)
    return emitBandedTmaStore(op, frag, fragDims, bands.getInt(), area);
  line("// TMA store (cp.async.bulk.tensor): " +
       std::to_string(b.cols / b.panelCols) + " panel(s) of " +
       std::to_string(b.rows) + " x " + std::to_string(b.panelCols) +
       ", 128B swizzle, through " +
       (op->hasAttr("tile.epilogue_area") ? "the epilogue's own area"
                                          : "the dead stages") +
       " at byte " +
       std::to_string(area));
  bool deferred = deferredTmaStoreRead(op);
  if (deferred)
    line("if (tid == 0) tlc::cuda::tmaStoreWaitRead();  // the copy engine "
         "read the previous tile's panels (tlc.tma_store_async)");
  line(blockBarrier() + "  // the area's last readers are done");
  open("");
  std::string tile = fresh("staged");
  line("unsigned char *" + tile + " = smem + " + epilogueAreaOffset(op, area) +
       ";");
  // 1. Registers -> the panels (128B swizzle).
  if (failed(emitPanelStores(*this, op, frag, fragDims, b, tile)))
    return failure();
  // 2. The panels -> global memory: the writes are made visible to the
  // async proxy, then one thread stores each panel's box (the copy engine
  // clips the box at the tensor's edges) and waits until the panels are
  // read, so that the block's shared memory outlives the reads.
  line("tlc::cuda::fenceProxyAsync();  // the panels, to the copy engine");
  line(blockBarrier());
  auto region = op.getDst().getDefiningOp<RegionOp>();
  SmallVector<std::string> box =
      boxCoordinates(region, [&](Value v) { return expr(v); });
  unsigned rank = box.size();
  std::string map = tensorMapNames[op.getOperation()];
  open("if (tid == 0)");
  for (int64_t p = 0; p * b.panelCols < b.cols; ++p) {
    std::string args;
    for (unsigned i = 0; i < rank; ++i)
      args += ", " + box[i] +
              (i == 0 && p ? " + " + std::to_string(p * b.panelCols) : "");
    line("tlc::cuda::tmaStore<" + Twine(rank) + ">(&" + map + ", " + tile +
         " + " + Twine(p * b.rows * 128) + args + ");");
  }
  line("tlc::cuda::tmaStoreCommit();");
  if (!deferred)
    line("tlc::cuda::tmaStoreWaitRead();  // the panels are read");
  close();
  close();
  anyTma = true;
  return true;
}

FailureOr<bool> Emitter::emitBandedTmaStore(CopyOp op, const FragmentInfo &frag,
                                            ArrayRef<unsigned> fragDims,
                                            int64_t bands, int64_t area) {
  TmaBox b = tmaBox(op);
  int64_t buffers = 1;
  if (auto k = op->getAttrOfType<IntegerAttr>("tile.epilogue_band_buffers"))
    buffers = k.getInt();
  int64_t bandCols = b.cols / bands;
  if (b.cols % bands || bandCols % b.panelCols || buffers < 1 || buffers > 2)
    return op->emitError("internal error: ")
           << bands << " TMA-store bands (" << buffers
           << " buffers) do not split " << b.cols << " columns into "
           << b.panelCols << "-column panels";
  int64_t panels = bandCols / b.panelCols;
  int64_t bandBytes = b.rows * bandCols * b.elemBytes;
  bool deferred = deferredTmaStoreRead(op);
  line("// TMA store (cp.async.bulk.tensor) in " + Twine(bands) + " bands of " +
       Twine(bandCols) + " columns, " + Twine(panels) + " panel(s) of " +
       Twine(b.rows) + " x " + Twine(b.panelCols) +
       " each, 128B swizzle, through " + Twine(buffers) +
       " band buffer(s) in the epilogue's own area at byte " + Twine(area) +
       "; one bulk group a band, in flight while the next is staged");
  open("");
  std::string tile = fresh("staged");
  line("unsigned char *" + tile + " = smem + " + epilogueAreaOffset(op, area) +
       ";");
  std::string band = fresh("band");
  line("#pragma unroll");
  open("for (int " + band + " = 0; " + band + " < " + Twine(bands) + "; ++" +
       band + ")");
  // The buffer this band reuses was read by the copy engine: the band
  // `buffers` before it, or the previous tile's last bands.
  line("if (tid == 0) tlc::cuda::tmaStoreWait<" + Twine(buffers - 1) +
       ", true>();  // the copy engine read the band buffer this band "
       "reuses");
  line(blockBarrier() + "  // the band buffer is free");
  std::string buf = fresh("buf");
  line("unsigned char *" + buf + " = " + tile +
       (buffers > 1
            ? " + (" + band + " % " + Twine(buffers) + ") * " + Twine(bandBytes)
            : Twine("")) +
       ";");
  // 1. The registers of this band's columns -> its panels.
  if (failed(
          emitPanelStores(*this, op, frag, fragDims, b, buf, band, bandCols)))
    return failure();
  // 2. The band's panels -> global memory by one thread, one bulk group;
  // no wait here: the next band (or tile) waits for its buffer's read.
  line("tlc::cuda::fenceProxyAsync();  // the band, to the copy engine");
  line(blockBarrier());
  auto region = op.getDst().getDefiningOp<RegionOp>();
  SmallVector<std::string> box =
      boxCoordinates(region, [&](Value v) { return expr(v); });
  unsigned rank = box.size();
  std::string map = tensorMapNames[op.getOperation()];
  open("if (tid == 0)");
  for (int64_t p = 0; p < panels; ++p) {
    std::string args;
    for (unsigned i = 0; i < rank; ++i)
      args += ", " + box[i] +
              (i == 0 ? " + " + band + " * " + std::to_string(bandCols) +
                            (p ? " + " + std::to_string(p * b.panelCols) : "")
                      : "");
    line("tlc::cuda::tmaStore<" + Twine(rank) + ">(&" + map + ", " + buf +
         (p ? " + " + std::to_string(p * b.rows * 128) : "") + args + ");");
  }
  line("tlc::cuda::tmaStoreCommit();");
  close();
  close();
  if (!deferred)
    line("if (tid == 0) tlc::cuda::tmaStoreWaitRead();  // the bands are "
         "read (tlc.tma_store_async=False)");
  close();
  anyTma = true;
  return true;
}

/// The declarations of a 1-D bulk copy's run: `start` (the global index
/// \p first of the tile's element 0), `valid` (its elements before the end
/// of the tensor of \p extent), `head` (the 16-byte multiple of them the
/// copy engine \p verb when the global address \p g + start is 16-byte
/// aligned; else 0, the threads copy everything).
static std::array<std::string, 3> bulkRunLines(StringRef start, StringRef valid,
                                               StringRef head, StringRef first,
                                               StringRef g, int64_t n,
                                               int64_t extent, int64_t bytes,
                                               StringRef verb) {
  return {("const long long " + start + " = " + first + ";").str(),
          ("const int " + valid + " = (int)max(0LL, min(" + Twine(n) + "LL, " +
           Twine(extent) + "LL - " + start +
           "));  // elements before the tensor's end")
              .str(),
          ("const int " + head + " = " + start + " >= 0 && reinterpret_cast<" +
           "uintptr_t>(" + g + " + " + start + ") % 16 == 0 ? " + valid +
           " / " + Twine(16 / bytes) + " * " + Twine(16 / bytes) +
           " : 0;  // the 16-byte multiple the copy engine " + verb)
              .str()};
}

/// Whether nothing but the terminator follows \p op in its block (no
/// barrier is needed after a bulk copy that ends the kernel).
static bool isLastStatement(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (!next->hasTrait<OpTrait::IsTerminator>())
      return false;
  return true;
}

FailureOr<bool> Emitter::emitBulkStore(CopyOp op) {
  Value src = rootOf(op.getSrc());
  if (range.condition || src != op.getSrc() || sharedStorage.count(src))
    return false;
  auto tile = cast<BufferType>(op.getSrc().getType());
  auto global = cast<BufferType>(rootOf(op.getDst()).getType());
  int64_t n = tile.getShape()[0], extent = global.getShape()[0];
  int64_t bytes = getElementStorageBytes(tile.getElementType());
  FailureOr<RootAccess> at = resolve(op.getDst(), {"0"}, op);
  if (failed(at))
    return failure();
  FailureOr<std::string> first = linearIndex(*at, op);
  if (failed(first))
    return failure();
  line("// bulk store (cp.async.bulk.global.shared::cta): " + Twine(n) +
       " elements, " + Twine(n * bytes) +
       " bytes; the threads store a tail of less than 16 bytes");
  line("tlc::cuda::fenceProxyAsync();  // the tile, to the copy engine");
  line(blockBarrier());
  open("");
  std::string g = expr(at->root), s = expr(src);
  std::string start = fresh("start"), valid = fresh("valid"),
              head = fresh("head"), e = fresh("e");
  for (const std::string &l :
       bulkRunLines(start, valid, head, *first, g, n, extent, bytes, "stores"))
    line(l);
  open("if (tid == 0 && " + head + " > 0)");
  line("tlc::cuda::bulkStore(" + g + " + " + start + ", " + s + ", " + head +
       " * " + Twine(bytes) + ");");
  line("tlc::cuda::tmaStoreCommit();");
  line("tlc::cuda::tmaStoreWaitRead();  // the tile is read");
  close();
  line("for (int " + e + " = " + head + " + tid; " + e + " < " + valid + "; " +
       e + " += " + Twine(numThreads) + ")");
  line("  if (" + start + " + " + e + " >= 0) " + g + "[" + start + " + " + e +
       "] = " + s + "[" + e + "];");
  close();
  if (!isLastStatement(op))
    line(blockBarrier() + "  // the tile's bytes may be written again");
  anyTma = true;
  return true;
}

FailureOr<bool> Emitter::emitBulkLoad(CopyOp op) {
  Value dst = rootOf(op.getDst());
  if (range.condition || dst != op.getDst() || sharedStorage.count(dst))
    return false;
  auto tile = cast<BufferType>(op.getDst().getType());
  Value root = rootOf(op.getSrc());
  auto global = cast<BufferType>(root.getType());
  Type elem = tile.getElementType();
  int64_t n = tile.getShape()[0], extent = global.getShape()[0];
  int64_t bytes = getElementStorageBytes(elem);
  int64_t barOffset = op->getAttrOfType<IntegerAttr>("tile.bulk_load").getInt();
  FailureOr<RootAccess> at = resolve(op.getSrc(), {"0"}, op);
  if (failed(at))
    return failure();
  FailureOr<std::string> first = linearIndex(*at, op);
  if (failed(first))
    return failure();
  line("// bulk load (cp.async.bulk.shared::cluster.global, an mbarrier): " +
       Twine(n) + " elements, " + Twine(n * bytes) +
       " bytes; the threads load a tail of less than 16 bytes and what lies "
       "outside the tensor");
  open("");
  std::string g = expr(at->root), s = expr(dst);
  std::string bar = fresh("bar"), start = fresh("start"),
              valid = fresh("valid"), head = fresh("head"), e = fresh("e");
  line("uint64_t *" + bar + " = reinterpret_cast<uint64_t *>(smem + " +
       Twine(barOffset) + ");  // completes when the copy landed");
  for (const std::string &l :
       bulkRunLines(start, valid, head, *first, g, n, extent, bytes, "loads"))
    line(l);
  // The mbarrier is initialised, and the tile's earlier ordinary accesses
  // are done and visible to the async proxy, before the copy is issued.
  line("if (tid == 0) { tlc::cuda::mbarrierInit(" + bar +
       ", 1); tlc::cuda::mbarrierInitFence(); }");
  line("tlc::cuda::fenceProxyAsync();  // the tile's earlier writes, before "
       "the copy engine's");
  line(blockBarrier());
  open("if (tid == 0)");
  open("if (" + head + " > 0)");
  line("tlc::cuda::mbarrierArriveExpectTx(" + bar + ", " + head + " * " +
       Twine(bytes) + ");");
  line("tlc::cuda::bulkLoad(" + s + ", " + g + " + " + start + ", " + head +
       " * " + Twine(bytes) + ", " + bar + ");");
  close();
  line("else");
  line("  tlc::cuda::mbarrierArrive(" + bar + ");");
  close();
  std::string value = "((" + e + " < " + valid + " && " + start + " + " + e +
                      " >= 0) ? " +
                      fromStorage(elem, g + "[" + start + " + " + e + "]") +
                      " : " + safeValueOf(op, root, elem) + ")";
  line("for (int " + e + " = " + head + " + tid; " + e + " < " + Twine(n) +
       "; " + e + " += " + Twine(numThreads) + ")");
  line("  " + s + "[" + e + "] = " + toStorage(elem, value) + ";");
  line("tlc::cuda::mbarrierWait(" + bar + ", 0);  // the copy landed");
  close();
  if (!isLastStatement(op))
    line(blockBarrier() + "  // the threads' part of the tile is written");
  anyTma = true;
  return true;
}

SmallVector<CopyOp> Emitter::oneShotTmaLoads(KernelOp kernel) {
  SmallVector<CopyOp> loads;
  for (Operation &op : kernel.getBody().front())
    if (auto copy = dyn_cast<CopyOp>(op);
        copy && copy->hasAttr("tile.tma_once"))
      loads.push_back(copy);
  return loads;
}

std::string Emitter::oneShotBarrier(CopyOp op) {
  return "reinterpret_cast<uint64_t *>(smem + " +
         std::to_string(
             op->getAttrOfType<IntegerAttr>("tile.tma_once").getInt()) +
         ")";
}

LogicalResult Emitter::issueOneShotTmaLoad(CopyOp op, const std::string &bar) {
  line("tlc::cuda::mbarrierArriveExpectTx(" + bar + ", " +
       Twine(tmaCopyBytes(op)) + ");");
  return emitTmaCopy(op, names[op.getDst()], bar);
}

LogicalResult Emitter::emitTmaOnce(CopyOp op) {
  // A warp-specialised kernel: the producer issued it before its loop and
  // the ring's initialisation published the mbarrier.
  if (wsProducerThreads && !persistentCtas) {
    beginOp(op, "T.copy (TMA, issued by the producer warpgroup)");
    line("tlc::cuda::mbarrierWait(" + oneShotBarrier(op) +
         ", 0);  // the tile landed");
    anyTma = true;
    return success();
  }
  if (range.condition || persistentCtas) {
    op->emitError("a one-shot TMA load (tile.tma_once) under a thread range "
                  "or in a persistent kernel (internal error)");
    return failure();
  }
  beginOp(op, "T.copy (TMA, one load completing on an mbarrier)");
  open("");
  std::string bar = fresh("bar");
  line("uint64_t *" + bar + " = " + oneShotBarrier(op) + ";");
  line("if (tid == 0) { tlc::cuda::mbarrierInit(" + bar +
       ", 1); tlc::cuda::mbarrierInitFence(); }");
  line(blockBarrier() + "  // the mbarrier is initialised");
  open("if (tid == 0)");
  if (failed(issueOneShotTmaLoad(op, bar)))
    return failure();
  close();
  line("tlc::cuda::mbarrierWait(" + bar + ", 0);  // the tile landed");
  close();
  anyTma = true;
  return success();
}
