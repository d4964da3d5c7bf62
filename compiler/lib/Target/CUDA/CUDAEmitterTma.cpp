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
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

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
};
} // namespace

static TmaBox tmaBox(CopyOp op) {
  TmaBox b;
  auto region = op.getSrc().getDefiningOp<RegionOp>();
  b.tensor = cast<BlockArgument>(region.getSource());
  b.global = cast<BufferType>(b.tensor.getType());
  auto box = cast<BufferType>(region.getType());
  b.elemBytes = getElementStorageBytes(b.global.getElementType());
  b.swizzle = op.getDst()
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
  return b;
}

int64_t Emitter::tmaCopyBytes(CopyOp op) {
  TmaBox b = tmaBox(op);
  return b.rows * b.cols * b.elemBytes;
}

LogicalResult Emitter::planTensorMaps(KernelOp kernel, std::string &params,
                                      std::vector<CudaTensorMap> &maps) {
  SmallVector<std::pair<int64_t, CopyOp>> copies;
  kernel.walk([&](CopyOp copy) {
    if (auto i = copy->getAttrOfType<IntegerAttr>("tile.tma"))
      copies.push_back({i.getInt(), copy});
  });
  llvm::stable_sort(copies,
                    [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &[index, copy] : copies) {
    TmaBox b = tmaBox(copy);
    CudaTensorMap m;
    m.param = b.tensor.getArgNumber();
    m.dtype = getDTypeName(b.global.getElementType());
    unsigned rank = b.global.getRank();
    int64_t stride = b.elemBytes;
    for (unsigned i = 0; i < rank; ++i) {
      unsigned d = rank - 1 - i;
      m.dims.push_back(b.global.getShape()[d]);
      if (i > 0)
        m.strides.push_back(stride);
      stride *= b.global.getShape()[d];
      m.box.push_back(i == 0 ? b.panelCols
                             : (int(d) == b.rowDim ? b.rows : int64_t(1)));
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

LogicalResult Emitter::emitTmaCopy(CopyOp op, const std::string &dst,
                                   const std::string &bar) {
  beginOp(op, "T.copy (TMA: cp.async.bulk.tensor, " +
                  std::to_string(tmaBox(op).swizzle) + "B swizzle)");
  TmaBox b = tmaBox(op);
  auto region = op.getSrc().getDefiningOp<RegionOp>();
  SmallVector<std::string> coords; // innermost first
  SmallVector<OpFoldResult> offsets = region.getMixedOffsets();
  for (int d = int(offsets.size()) - 1; d >= 0; --d) {
    if (auto v = dyn_cast<Value>(offsets[d]))
      coords.push_back("int(" + expr(v) + ")");
    else
      coords.push_back(std::to_string(
          cast<IntegerAttr>(cast<Attribute>(offsets[d])).getInt()));
  }
  unsigned rank = coords.size();
  std::string map = tensorMapNames[op.getOperation()];
  for (int64_t p = 0; p * b.panelCols < b.cols; ++p) {
    std::string args;
    for (unsigned i = 0; i < rank; ++i) {
      std::string c = coords[i];
      if (i == 0 && p)
        c += " + " + std::to_string(p * b.panelCols);
      args += ", " + c;
    }
    std::string d = dst;
    if (p)
      d = "(" + dst + " + " + std::to_string(p * b.panelCols * b.rows) + ")";
    line("tlc::cuda::tmaLoad<" + Twine(rank) + ">(" + d + ", &" + map + ", " +
         bar + args + ");");
  }
  return success();
}
