//===- CUDAEmitterPersistent.cpp - Persistent kernels' tile loop ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tile loop of a persistent kernel (tile-persistent-gemm): each block
// runs the output tiles blockIdx.x, blockIdx.x + gridDim.x, ... of the
// program's static grid; the block indices of a tile come from the
// rasterisation the pass planned (panels of P rows or columns of tiles, so
// that the tiles in flight at once share operand panels in L2). Both roles
// of the warp-specialised kernel open the same loop (CUDAEmitterPipeline.cpp
// carries their ring positions across it); with tile-gemm-pingpong each of
// the two consumer warpgroups visits every other tile of it. With
// tile-gemm-cluster the loop walks pairs of tiles, one pair a cluster of two
// blocks (ranks 0 and 1 of blockIdx.x), both blocks the same pairs. A
// persistent attention kernel (tile.persistent_order = "longest_first")
// walks groups of (head, batch) pairs, each from its last query block down.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

std::string Emitter::openPersistentTileLoop(KernelOp kernel, StringRef first,
                                            int64_t step) {
  SmallVector<int64_t> grid;
  for (OpFoldResult g : kernel.getMixedGrid())
    grid.push_back(getConstantIntValue(g).value_or(1));
  int64_t gx = grid[0], gy = grid.size() > 1 ? grid[1] : 1;
  int64_t gz = grid.size() > 2 ? grid[2] : 1;
  // tile-gemm-cluster: the loop walks pairs of adjacent tiles along the
  // planned axis (the pair's two blocks, ranks 0 and 1, in lockstep); the
  // rasterisation orders the pairs.
  bool pairs = gemmClusterAxis >= 0;
  if (pairs)
    (gemmClusterAxis == 0 ? gx : gy) /= 2;
  auto panelAttr = kernel->getAttrOfType<IntegerAttr>("tile.persistent_panel");
  int64_t panel = panelAttr ? panelAttr.getInt() : 0;
  auto orderAttr = kernel->getAttrOfType<StringAttr>("tile.persistent_order");
  bool row = !orderAttr || orderAttr.getValue() != "column";
  std::string tile = fresh("tile");
  std::string block = persistentBlock(), blocks = persistentBlocks();
  std::string start = first == "0" ? block
                                   : block + " + " + first.str() + " * " +
                                         (pairs ? blocks : "(int)" + blocks);
  std::string stride =
      step == 1 ? blocks : std::to_string(step) + " * " + blocks;
  open("for (int " + tile + " = " + start + "; " + tile + " < " +
       Twine(gx * gy * gz) + "; " + tile + " += " + stride + ")");
  std::string it = indexType();
  auto indices = kernel.getBlockIndices();
  if (orderAttr && orderAttr.getValue() == "longest_first") {
    // tile-persistent-gemm's attention plan: groups of `panel` (head,
    // batch) pairs (y fastest, then z), each group's query blocks (x) from
    // the last down, the pairs fastest within a query block.
    std::string g = std::to_string(std::max<int64_t>(panel, 1));
    std::string inGroup = fresh("inGroup"), pair = fresh("pair");
    line("const int " + inGroup + " = " + tile + " % " + Twine(gx * panel) +
         ";  // groups of " + g +
         " (head, batch) pairs, the last query block first");
    line("const int " + pair + " = " + tile + " / " + Twine(gx * panel) +
         " * " + g + " + " + inGroup + " % " + g + ";");
    line("const " + it + " " + define(indices[0], "bx") + " = " +
         Twine(gx - 1) + " - " + inGroup + " / " + g + ";");
    if (indices.size() > 1)
      line("const " + it + " " + define(indices[1], "by") + " = " + pair +
           " % " + Twine(gy) + ";");
    if (indices.size() > 2)
      line("const " + it + " " + define(indices[2], "bz") + " = " + pair +
           " / " + Twine(gy) + ";");
    return tile;
  }
  // The tile of this block within its pair.
  auto tileOf = [&](std::string v, int axis) {
    if (!pairs || axis != gemmClusterAxis)
      return v;
    return "(" + v + ") * 2 + ((int)blockIdx.x & 1)";
  };
  if (indices.size() == 1) {
    line("const " + it + " " + define(indices[0], "bx") + " = " +
         tileOf(tile, 0) + ";");
    return tile;
  }
  if (panel <= 0) {
    line("const " + it + " " + define(indices[0], "bx") + " = " +
         tileOf(tile + " % " + std::to_string(gx), 0) + ";");
    line("const " + it + " " + define(indices[1], "by") + " = " +
         tileOf(tile + " / " + std::to_string(gx), 1) + ";");
    return tile;
  }
  // Panels of `panel` rows of tiles (row order: by varies fastest within
  // a panel's column) or of `panel` columns. The grid is static, so every
  // panel is `panel` wide but a short last one of `major % panel`: both
  // widths are constants and the division and remainder by them are
  // multiplications (a division by the run-time `min(panel, rows left)`
  // put an I2F.RP / MUFU.RCP sequence at the top of every tile).
  int64_t major = row ? gy : gx, minor = row ? gx : gy;
  std::string p = std::to_string(panel);
  std::string group = fresh("panel"), in = fresh("inPanel");
  line("const int " + group + " = " + tile + " / " + Twine(panel * minor) +
       ";  // panels of " + p + (row ? " rows" : " columns") + " of tiles");
  line("const int " + in + " = " + tile + " % " + Twine(panel * minor) + ";");
  std::string a = define(indices[0], "bx"), b = define(indices[1], "by");
  std::string fast = group + " * " + p + " + " + in + " % " + p;
  std::string slow = in + " / " + p;
  int64_t last = major % panel;
  if (major < panel) {
    // One panel, as wide as the grid.
    fast = group + " * " + p + " + " + in + " % " + Twine(major).str();
    slow = in + " / " + Twine(major).str();
  } else if (last != 0) {
    std::string l = std::to_string(last);
    std::string isLast = fresh("lastPanel");
    line("const bool " + isLast + " = " + group + " == " +
         Twine(major / panel) + ";  // the last panel is " + l + " wide");
    fast = group + " * " + p + " + (" + isLast + " ? " + in + " % " + l +
           " : " + in + " % " + p + ")";
    slow = "(" + isLast + " ? " + in + " / " + l + " : " + in + " / " + p + ")";
  }
  line("const " + it + " " + (row ? b : a) + " = " + tileOf(fast, row) + ";");
  line("const " + it + " " + (row ? a : b) + " = " + tileOf(slow, !row) + ";");
  return tile;
}

std::string Emitter::persistentBlock() const {
  return gemmClusterAxis >= 0 ? "((int)blockIdx.x >> 1)" : "blockIdx.x";
}

std::string Emitter::persistentBlocks() const {
  return gemmClusterAxis >= 0 ? "((int)gridDim.x >> 1)" : "gridDim.x";
}

std::string Emitter::perGroupBarrier(int64_t base, int64_t count, bool arrive,
                                     bool otherGroup) const {
  std::string f = arrive ? "tlc::cuda::namedBarrierArrive("
                         : "tlc::cuda::namedBarrierSync(";
  std::string n = ", " + std::to_string(count) + ");";
  return "if (" + wsConsumerGroup + (otherGroup ? " != 0) " : " == 0) ") + f +
         std::to_string(base) + n + " else " + f + std::to_string(base + 1) + n;
}

std::string Emitter::epilogueAreaOffset(Operation *op, int64_t offset) const {
  auto stride = op->getAttrOfType<IntegerAttr>("tile.epilogue_area_stride");
  if (!stride || wsConsumerGroup.empty())
    return std::to_string(offset);
  return "(" + std::to_string(offset) + " + " + wsConsumerGroup + " * " +
         std::to_string(stride.getInt()) + ")";
}
