//===- PadAnnotatedTiles.cpp - Padded shared layouts as padded tiles ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-pad-annotated-tiles: a shared tile annotated with a row-padded
// layout (`T.Layout((65, 36), lambda i, j: i * 40 + j)`) is stored as
// annotated: its allocation becomes the padded tile ([65, 40]) and every
// use the region of the annotated shape at its origin, so element (i, j)
// lives at element offset 40 i + j, which is what the copy, gemm and
// bank-conflict code of the GPU targets then address.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPADANNOTATEDTILES
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {

/// The most elements whose places are compared against the strides.
constexpr int64_t kMaxCheckedElements = int64_t(1) << 20;

/// The padded shape of \p shape under \p l when \p l places element
/// (x0, ..., xr-1) at sum(x_d * stride_d) with row-major strides of a
/// larger tile (stride_{r-1} = 1, stride_d a multiple of stride_{d+1} of at
/// least shape_{d+1} * stride_{d+1}) that pad some row: [shape_0,
/// stride_0 / stride_1, ..., stride_{r-2}]; std::nullopt otherwise.
std::optional<SmallVector<int64_t>> paddedShape(const layout::Layout &l,
                                                ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  if (rank < 2 || l.getOutputShape().size() != 1)
    return std::nullopt;
  int64_t n = 1;
  for (int64_t e : shape) {
    if (e <= 0)
      return std::nullopt;
    n *= e;
  }
  if (n > kMaxCheckedElements)
    return std::nullopt;
  SmallVector<int64_t> strides(rank);
  for (unsigned d = 0; d < rank; ++d) {
    std::vector<int64_t> unit(rank, 0);
    if (shape[d] > 1)
      unit[d] = 1;
    std::optional<int64_t> at = l.applyFlat(unit);
    if (!at)
      return std::nullopt;
    strides[d] = shape[d] > 1 ? *at : 0;
  }
  if (std::optional<int64_t> origin = l.applyFlat(std::vector<int64_t>(rank));
      !origin || *origin != 0)
    return std::nullopt;
  // Row-major strides of a padded tile: the last dimension dense.
  SmallVector<int64_t> padded(shape.begin(), shape.end());
  int64_t inner = 1;
  bool pads = false;
  for (int d = rank - 1; d >= 0; --d) {
    if (shape[d] == 1) {
      strides[d] = inner * padded[d];
      continue;
    }
    if (d == int(rank) - 1
            ? strides[d] != 1
            : strides[d] % inner != 0 || strides[d] / inner < shape[d + 1])
      return std::nullopt;
    if (d + 1 < int(rank)) {
      padded[d + 1] = strides[d] / inner;
      pads |= padded[d + 1] != shape[d + 1];
      inner = strides[d];
    }
  }
  if (!pads)
    return std::nullopt; // row-major already
  // Every element where the strides put it.
  std::vector<int64_t> coord(rank, 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t rest = flat, want = 0;
    for (int d = rank - 1; d >= 0; --d) {
      coord[d] = rest % shape[d];
      rest /= shape[d];
      want += coord[d] * strides[d];
    }
    std::optional<int64_t> at = l.applyFlat(coord);
    if (!at || *at != want)
      return std::nullopt;
  }
  return padded;
}

struct TilePadAnnotatedTilesPass final
    : tlc::tile::impl::TilePadAnnotatedTilesBase<TilePadAnnotatedTilesPass> {
  void runOnOperation() override {
    SmallVector<AnnotateLayoutOp> annotations;
    getOperation().walk(
        [&](AnnotateLayoutOp op) { annotations.push_back(op); });
    for (AnnotateLayoutOp op : annotations) {
      auto alloc = op.getBuffer().getDefiningOp<AllocOp>();
      if (!alloc || alloc.getInit())
        continue;
      auto type = cast<BufferType>(alloc.getType());
      if (!isSharedScope(type.getScope()) || !type.isStatic())
        continue;
      std::optional<layout::Layout> l = decodeLayout(op.getLayout());
      if (!l)
        continue;
      std::optional<SmallVector<int64_t>> padded =
          paddedShape(*l, type.getShape());
      if (!padded)
        continue;
      // Only whole-buffer users that a region can stand for: no other
      // annotation, view or hand-written address (T.address_of,
      // descriptors) that reads the allocation's own shape.
      bool plain = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
        return user == op.getOperation() ||
               isa<CopyOp, GemmOp, RegionOp, LoadOp, StoreOp, FillOp, ClearOp,
                   ParallelOp, ReduceOp, AtomicAddOp>(user);
      });
      if (!plain)
        continue;
      OpBuilder b(alloc);
      SmallVector<Dim> dims;
      for (int64_t e : *padded)
        dims.push_back(Dim(e));
      auto paddedType = BufferType::get(b.getContext(), dims,
                                        type.getElementType(), type.getScope());
      auto storage = AllocOp::create(b, alloc.getLoc(), paddedType);
      storage->setDiscardableAttrs(alloc->getDiscardableAttrDictionary());
      storage.setLayoutAttr(
          encodeLayout(b.getContext(), layout::Layout::linear(*padded)));
      SmallVector<OpFoldResult> origin(type.getRank(), b.getIndexAttr(0));
      Value window = RegionOp::create(b, alloc.getLoc(), type, storage, origin);
      op.erase();
      // A region of the tile is the same region of the padded one (the
      // window starts at its origin): no region of a region.
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (auto region = dyn_cast<RegionOp>(user))
          region.getSourceMutable().assign(storage);
      alloc.getResult().replaceAllUsesWith(window);
      alloc.erase();
    }
  }
};

} // namespace
