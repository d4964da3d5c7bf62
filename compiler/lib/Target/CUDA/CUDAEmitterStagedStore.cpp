//===- CUDAEmitterStagedStore.cpp - Fragment stores through shared ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `T.copy(fragment, global)` of a 2-D tile whose per-thread runs are
// narrower than 16 bytes (an mma accumulator holds 2 consecutive elements
// per row: 4-byte stores, 8 rows per warp instruction) is written through
// shared memory: every thread stores its registers into a padded row-major
// tile there, and the block then writes whole rows in 16-byte vectors.
// The tile goes into shared buffers that no later statement of the kernel
// uses (typically the pipeline stages of the main loop), so the kernel's
// shared-memory size and occupancy do not change; without such an area,
// or inside a loop, the copy stays direct. A persistent kernel's epilogue
// with `tile.epilogue_bands` = B (tile-gemm-epilogue-bands) goes through an
// area of one column band (cols / B columns) in B rounds, each round's
// rows stored whole 16-byte vectors at a time.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

std::optional<std::pair<int64_t, std::string>>
Emitter::deadSharedArea(Operation *at, int64_t bytes) {
  auto kernel = dyn_cast_or_null<KernelOp>(at->getParentOp());
  if (!kernel)
    return std::nullopt;
  Block &body = kernel.getBody().front();
  // Shared allocations some statement at or after `at` uses (through
  // regions and views: the live ranges tile-plan-shared-memory planned by).
  StatementIndex index = indexStatements(body);
  int now = getStatementOf(body, at, index);
  auto isLive = [&](Value alloc) {
    std::optional<std::pair<int, int>> range =
        getLiveRange(body, alloc, index);
    return range && range->second >= now;
  };
  // Dead allocations by offset; the first run of adjacent ones (128-byte
  // alignment gaps allowed) that holds `bytes` and that no live buffer
  // placed in the same bytes (tile-plan-shared-memory reuse) overlaps.
  SmallVector<std::tuple<int64_t, int64_t, Value>> dead;
  SmallVector<std::pair<int64_t, int64_t>> busy;
  // In allocation order (not sharedSlots' hash order), so that buffers at
  // one offset are named in the same order by every run.
  kernel.walk([&](AllocOp a) {
    auto slot = sharedSlots.find(a.getResult());
    if (slot == sharedSlots.end())
      return;
    if (!isLive(a.getResult()))
      dead.push_back({slot->second.offset, slot->second.bytes, a.getResult()});
    else if (slot->second.bytes)
      busy.push_back(
          {slot->second.offset, slot->second.offset + slot->second.bytes});
  });
  auto isFree = [&](int64_t lo, int64_t hi) {
    return llvm::none_of(busy, [&](auto &b) {
      return lo < b.second && b.first < hi;
    });
  };
  // By offset, then program order: sharedSlots iterates in pointer-hash
  // order, and buffers tile-plan-shared-memory placed at one offset made
  // the generated code (this area's comment) differ from run to run.
  llvm::DenseMap<Value, unsigned> order;
  kernel.walk(
      [&](AllocOp a) { order.try_emplace(a.getResult(), order.size()); });
  llvm::sort(dead, [&](auto &a, auto &b) {
    if (std::get<0>(a) != std::get<0>(b))
      return std::get<0>(a) < std::get<0>(b);
    return order.lookup(std::get<2>(a)) < order.lookup(std::get<2>(b));
  });
  for (size_t i = 0; i < dead.size(); ++i) {
    int64_t start = std::get<0>(dead[i]), end = start;
    std::string what;
    for (size_t j = i; j < dead.size(); ++j) {
      auto [offset, size, alloc] = dead[j];
      if (offset > (end + 127) / 128 * 128)
        break;
      end = std::max(end, offset + size);
      what += (what.empty() ? "" : ", ") + expr(alloc);
      if (end - start >= bytes) {
        if (isFree(start, start + bytes))
          return std::make_pair(start, what);
        break;
      }
    }
  }
  return std::nullopt;
}

FailureOr<bool> Emitter::emitStagedFragmentStore(CopyOp op,
                                                 const FragmentInfo &frag,
                                                 ArrayRef<unsigned> memDims) {
  Value dst = op.getDst();
  Value srcRoot = rootOf(op.getSrc());
  auto dstType = cast<BufferType>(dst.getType());
  Type srcElem = cast<BufferType>(op.getSrc().getType()).getElementType();
  Type dstElem = dstType.getElementType();
  int64_t elemBytes = getElementStorageBytes(dstElem);
  // Under a thread range the other threads may be using the dead area's
  // bytes' neighbours at the same time: store directly. So does a
  // persistent kernel's epilogue that had no room for an area of its own
  // (tile-persistent-gemm's `tile.epilogue_direct`).
  if (range.condition || op->hasAttr("tile.epilogue_direct"))
    return false;
  // Rows are stored as 16-byte vectors along the destination's innermost
  // dimension, which must then be the tile's columns.
  if (scopeOf(rootOf(dst)) != MemoryScope::Global || memDims.size() != 2 ||
      memDims[1] + 1 != dstType.getRank() || !hasUnitInnerStride(dst) ||
      frag.vec * elemBytes >= 16 ||
      elemBytes > 16 || 16 % elemBytes)
    return false;
  // The fragment's two non-unit dimensions are the tile's rows and columns.
  SmallVector<unsigned> fragDims;
  for (auto [d, e] : llvm::enumerate(frag.shape))
    if (e != 1)
      fragDims.push_back(d);
  if (fragDims.size() != 2 || fragDims[1] + 1 != frag.shape.size())
    return false;
  int64_t rows = frag.shape[fragDims[0]], cols = frag.shape[fragDims[1]];
  int64_t chunk = 16 / elemBytes; // elements per 16-byte vector
  if (cols % chunk)
    return false;
  // Column bands staged one after another through an area of one band
  // (tile-gemm-epilogue-bands); 1: the whole tile at once.
  int64_t bands = 1;
  if (auto b = op->getAttrOfType<IntegerAttr>("tile.epilogue_bands"))
    bands = b.getInt();
  if (bands < 1 || cols % bands || (cols / bands) % chunk)
    return op->emitError("internal error: epilogue bands ")
           << bands << " do not split " << cols << " columns into " << chunk
           << "-element vectors";
  int64_t bandCols = cols / bands;
  int64_t ld = bandCols + chunk; // a padded row: 16 bytes against conflicts
  // tile-persistent-gemm gives a persistent kernel's epilogue an area of
  // its own (the stages are being refilled for the next tile).
  std::optional<std::pair<int64_t, std::string>> area;
  if (auto own = op->getAttrOfType<IntegerAttr>("tile.epilogue_area"))
    area = std::make_pair(own.getInt(),
                          std::string("the epilogue's own area, reused by "
                                      "the next tile"));
  else
    area = deadSharedArea(op, rows * ld * elemBytes);
  if (!area)
    return false;
  FailureOr<std::string> storage = storageType(dstElem, op);
  if (failed(storage))
    return failure();

  std::string banded;
  if (bands > 1)
    banded = ", in " + std::to_string(bands) + " bands of " +
             std::to_string(bandCols) + " columns";
  line("// through shared memory (" + area->second +
       (op->hasAttr("tile.epilogue_area") ? "" : ", unused from here on") +
       "), then 16-byte row stores" + banded);
  std::string areaFree =
      blockBarrier() + "  // the area's last readers are done";
  if (bands == 1)
    line(areaFree);
  open("");
  std::string stage = fresh("staged");
  line(*storage + " *" + stage + " = reinterpret_cast<" + *storage +
       " *>(smem + " + epilogueAreaOffset(op, area->first) + ");");
  // Each band: the registers of its columns into the area, then its rows
  // out (an unrolled loop: the band is a constant of each copy, and so is
  // which registers hold its columns).
  std::string band = bands > 1 ? fresh("band") : std::string("0");
  if (bands > 1) {
    line("#pragma unroll");
    open("for (int " + band + " = 0; " + band + " < " + Twine(bands) + "; ++" +
         band + ")");
    line(areaFree);
  }
  // 1. Registers -> the padded tile (one replica of each element).
  open(frag.threadExtent < numThreads
           ? "if (tid < " + Twine(frag.threadExtent) + ")"
           : Twine(""));
  open(frag.ifOneReplica());
  std::string reg = fresh("r");
  int64_t vec = frag.vec;
  line("#pragma unroll");
  open("for (int " + reg + " = 0; " + reg + " < " + Twine(frag.regs) + "; " +
       reg + " += " + Twine(vec) + ")");
  SmallVector<std::string> coords = emitCoords(frag, reg, "i");
  std::string colInBand = coords[fragDims[1]];
  if (bands > 1) {
    // A vector's elements are consecutive columns that no band edge
    // splits (bandCols is a multiple of the 16-byte chunk).
    line("if (" + coords[fragDims[1]] + " / " + Twine(bandCols) +
         " != " + band + ") continue;");
    colInBand = "(" + coords[fragDims[1]] + " - " + band + " * " +
                Twine(bandCols).str() + ")";
  }
  std::string at = stage + "[" + coords[fragDims[0]] + " * " + Twine(ld).str() +
                   " + " + colInBand;
  std::string fragName = expr(srcRoot);
  int64_t vecBytes = vec * elemBytes;
  if (vec > 1 && (vecBytes == 4 || vecBytes == 8)) {
    std::string packed = fresh("packed");
    FailureOr<SmallVector<std::string>> lines =
        packedRegisters(packed, srcElem, dstElem, fragName, reg, vec, op);
    if (failed(lines))
      return failure();
    for (const std::string &l : *lines)
      line(l);
    line(ns + "copyVector<" + Twine(vecBytes) + ">(&" + at + "], " +
         packed + ");");
  } else {
    for (int64_t e = 0; e < vec; ++e)
      line(at + (e ? " + " + std::to_string(e) : "") + "] = " +
           toStorage(dstElem, fromStorage(srcElem, fragName + "[" + reg +
                                                       " + " + std::to_string(e) +
                                                       "]")) +
           ";");
  }
  close();
  close();
  close();
  line(blockBarrier());
  // 2. The tile -> global memory, 16 bytes per thread and step.
  int64_t chunksPerRow = bandCols / chunk, chunks = rows * chunksPerRow;
  std::string c = fresh("c");
  line("#pragma unroll");
  open("for (int " + c + " = 0; " + c + " < " +
       Twine((chunks + numThreads - 1) / numThreads) + "; ++" + c + ")");
  std::string q = fresh("q");
  line("const int " + q + " = " + c + " * " + Twine(numThreads) +
       " + tid;  // chunk");
  open(chunks % numThreads ? "if (" + q + " < " + Twine(chunks) + ")"
                           : Twine(""));
  std::string row = fresh("row"), col = fresh("col");
  line("const int " + row + " = " + q + " / " + Twine(chunksPerRow) + ";");
  // The column within the band (the area's) and within the tile.
  std::string inBand = bands > 1 ? fresh("bcol") : col;
  line("const int " + inBand + " = (" + q + " % " + Twine(chunksPerRow) +
       ") * " + Twine(chunk) + ";");
  if (bands > 1)
    line("const int " + col + " = " + band + " * " + Twine(bandCols) + " + " +
         inBand + ";");
  std::string from =
      stage + "[" + row + " * " + Twine(ld).str() + " + " + inBand;
  SmallVector<std::string> idx(dstType.getRank(), "0");
  SmallVector<std::optional<IndexRange>> ranges(dstType.getRank(),
                                                IndexRange{0, 0, 0});
  idx[memDims[0]] = row;
  ranges[memDims[0]] = IndexRange{0, rows - 1, 1};
  idx[memDims[1]] = col;
  ranges[memDims[1]] = IndexRange{0, cols - chunk, chunk};
  FailureOr<VectorAccess> a = vectorAccess(dst, idx, op, ranges, chunk);
  if (failed(a))
    return failure();
  std::string cond = a->condition(chunk);
  std::string store =
      ns + "copyVector<16>(" + a->address + ", &" + from + "]);";
  if (cond.empty()) {
    line(store);
  } else {
    // A ragged edge or an unaligned row: element by element there.
    open("if (" + cond + ")");
    line(store);
    --indent;
    open("} else");
    std::string e = fresh("e");
    line("#pragma unroll");
    open("for (int " + e + " = 0; " + e + " < " + Twine(chunk) + "; ++" + e +
         ")");
    SmallVector<std::string> eIdx = idx;
    SmallVector<std::optional<IndexRange>> eRanges = ranges;
    eIdx[memDims[1]] = "(" + col + " + " + e + ")";
    eRanges[memDims[1]] = IndexRange{0, cols - 1, 1};
    FailureOr<std::pair<std::string, std::string>> m =
        guardedElement(dst, eIdx, op, eRanges);
    if (failed(m))
      return failure();
    std::string stmt = m->first + " = " + from + " + " + e + "];";
    line(m->second.empty() ? stmt : "if (" + m->second + ") " + stmt);
    close();
    close();
  }
  close();
  close();
  if (bands > 1)
    close();
  close();
  return true;
}
