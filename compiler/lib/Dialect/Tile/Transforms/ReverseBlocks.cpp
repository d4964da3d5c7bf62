//===- ReverseBlocks.cpp - The --tile-reverse-blocks pass -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Heavy blocks first (Passes.td has the contract): in a kernel whose
// pipelined loop runs more iterations the larger the first block index is
// (causal attention: query block bx reads bx + 1 key blocks), the block
// index bx becomes `gridDim.x - 1 - bx`, so that the hardware, which
// launches blocks in increasing linear order, starts the longest ones first
// and the last wave holds short blocks. A permutation of the block indices;
// kernels whose blocks could observe each other's order (atomics, calls,
// loops on run-time conditions) are left alone.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEREVERSEBLOCKS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// Whether \p v is a non-decreasing function of \p bx that really depends
/// on it: + of such functions and values free of \p bx, - of constants, *
/// and / by positive constants, min and max.
static bool growsWith(Value v, Value bx, bool &depends) {
  if (v == bx) {
    depends = true;
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return true; // another index or argument: constant in bx
  if (matchPattern(def, m_Constant()))
    return true;
  if (def->getNumOperands() != 2 ||
      !isa<arith::ArithDialect>(def->getDialect()))
    return false;
  Value x = def->getOperand(0), y = def->getOperand(1);
  auto positive = [](Value c) {
    APInt value;
    return matchPattern(c, m_ConstantInt(&value)) && value.isStrictlyPositive();
  };
  if (isa<arith::MulIOp>(def)) {
    if (positive(x))
      std::swap(x, y);
    return positive(y) && growsWith(x, bx, depends);
  }
  if (isa<arith::FloorDivSIOp, arith::DivSIOp, arith::CeilDivSIOp>(def))
    return positive(y) && growsWith(x, bx, depends);
  if (isa<arith::SubIOp>(def))
    return matchPattern(y, m_Constant()) && growsWith(x, bx, depends);
  if (isa<arith::AddIOp, arith::MinSIOp, arith::MaxSIOp>(def))
    return growsWith(x, bx, depends) && growsWith(y, bx, depends);
  return false;
}

/// Whether the blocks of \p kernel could depend on the order they run in.
static bool mayObserveOrder(KernelOp kernel) {
  bool found = false;
  kernel.walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    found |= name.contains("atomic") || isa<IntrinsicOp, WhileOp>(op);
  });
  return found;
}

namespace {
struct TileReverseBlocksPass final
    : tlc::tile::impl::TileReverseBlocksBase<TileReverseBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      if (!force && !isPassConfigOn(kernel, "tlc.heavy_blocks_first"))
        return;
      Value bx = kernel.getBlockIndices().front();
      OpFoldResult grid = kernel.getMixedGrid().front();
      // A static extent: the reversed index is (extent - 1) - bx.
      std::optional<int64_t> extent = getConstantIntValue(grid);
      if (!extent || mayObserveOrder(kernel))
        return;
      bool grows = false;
      kernel.walk([&](PipelinedOp pipe) {
        bool depends = false;
        grows |= growsWith(pipe.getUpperBound(), bx, depends) && depends &&
                 matchPattern(pipe.getLowerBound(), m_Constant());
      });
      if (!grows)
        return;
      OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
      Location loc = kernel.getLoc();
      Value last = arith::ConstantIndexOp::create(b, loc, *extent - 1);
      auto reversed = arith::SubIOp::create(b, loc, last, bx);
      reversed->setAttr("tile.heavy_blocks_first", b.getUnitAttr());
      bx.replaceAllUsesExcept(reversed, reversed);
    });
  }
};
} // namespace
