//===- LowerIm2col.cpp - T.im2col as its element loop ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-lower-im2col: `tile.intrinsic "T.im2col"` (one tile of the im2col
// matrix of an NHWC image, convolution as GEMM) becomes the tile.parallel
// loop over the tile that computes each element's image position, reads it
// where it lies inside the image and stores 0 elsewhere (Passes.td has the
// index formulas).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILELOWERIM2COL
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {

/// The operand of \p op passed for \p param, or null.
Value operandOf(IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

/// Rewrites one T.im2col; false (after an error at it) when it cannot.
bool lowerIm2col(IntrinsicOp op) {
  Value img = operandOf(op, "img"), col = operandOf(op, "col");
  Value nhwStep = operandOf(op, "nhw_step"), cStep = operandOf(op, "c_step");
  Value kernel = operandOf(op, "kernel"), stride = operandOf(op, "stride");
  Value dilation = operandOf(op, "dilation"), pad = operandOf(op, "pad");
  auto fail = [&](const Twine &why) {
    op.emitError() << "T.im2col: " << why;
    return false;
  };
  if (!img || !col || !nhwStep || !cStep || !kernel || !stride || !dilation ||
      !pad)
    return fail("needs img, col, nhw_step, c_step, kernel, stride, "
                "dilation and pad");
  auto imgType = dyn_cast<BufferType>(img.getType());
  auto colType = dyn_cast<BufferType>(col.getType());
  if (!imgType || imgType.getRank() != 4 || !imgType.hasStaticShape())
    return fail("the image must be a 4-d NHWC buffer of static shape");
  if (!colType || colType.getRank() != 2 || !colType.hasStaticShape() ||
      colType.getScope() == MemoryScope::Fragment ||
      colType.getScope() == MemoryScope::Global)
    return fail("the tile must be a 2-d shared or local buffer of static "
                "shape");
  if (imgType.getElementType() != colType.getElementType())
    return fail("the image and the tile have different element types");
  for (Value v : {nhwStep, cStep, kernel, stride, dilation, pad})
    if (!v.getType().isIndex() && !isa<IntegerType>(v.getType()))
      return fail("the steps, kernel, stride, dilation and pad must be "
                  "integers");

  OpBuilder b(op);
  Location l = op.getLoc();
  auto index = [&](Value v) -> Value {
    return v.getType().isIndex()
               ? v
               : arith::IndexCastOp::create(b, l, b.getIndexType(), v)
                     .getResult();
  };
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, l, v);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, l, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubIOp::create(b, l, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, l, x, y);
  };
  auto div = [&](Value x, Value y) -> Value {
    return arith::DivSIOp::create(b, l, x, y);
  };
  auto rem = [&](Value x, Value y) -> Value {
    return arith::RemSIOp::create(b, l, x, y);
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, l, p, x, y);
  };

  ArrayRef<int64_t> shape = imgType.getShape();
  Value k = index(kernel), s = index(stride), d = index(dilation),
        p = index(pad);
  Value n = cst(shape[0]), h = cst(shape[1]), w = cst(shape[2]),
        c = cst(shape[3]);
  Value nhw = index(nhwStep), cs = index(cStep);
  // OH = (H + 2 pad - dilation (kernel - 1) - 1) / stride + 1, OW alike.
  Value reach = add(mul(d, sub(k, cst(1))), cst(1));
  Value twoPad = mul(cst(2), p);
  Value oh = add(div(sub(add(h, twoPad), reach), s), cst(1));
  Value ow = add(div(sub(add(w, twoPad), reach), s), cst(1));
  int64_t bm = colType.getShape()[0], bk = colType.getShape()[1];

  SmallVector<OpFoldResult, 2> extents{b.getIndexAttr(bm), b.getIndexAttr(bk)};
  auto loop = ParallelOp::create(b, l, extents);
  OpBuilder::InsertionGuard guard(b);
  Block &body = loop.getBody().front();
  b.setInsertionPointToEnd(&body);
  Value m = body.getArgument(0), j = body.getArgument(1);
  // Row m: output pixel p = nhw_step * BM + m.
  Value pix = add(mul(nhw, cst(bm)), m);
  Value pw = rem(pix, ow), rest = div(pix, ow);
  Value ph = rem(rest, oh), pn = div(rest, oh);
  // Column j: q = c_step * BK + j in (kh, kw, c) order, c fastest.
  Value q = add(mul(cs, cst(bk)), j);
  Value ch = rem(q, c), kq = div(q, c);
  Value kw = rem(kq, k), kh = div(kq, k);
  Value ih = sub(add(mul(ph, s), mul(kh, d)), p);
  Value iw = sub(add(mul(pw, s), mul(kw, d)), p);
  using P = arith::CmpIPredicate;
  Value inside = cmp(P::slt, pn, n);
  for (Value cond :
       {cmp(P::slt, kh, k), cmp(P::sge, ih, cst(0)), cmp(P::slt, ih, h),
        cmp(P::sge, iw, cst(0)), cmp(P::slt, iw, w)})
    inside = arith::AndIOp::create(b, l, inside, cond);
  auto ifOp = IfOp::create(b, l, inside, /*withElse=*/true);
  Type value = getElementValueType(colType.getElementType());
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToEnd(ifOp.thenBlock());
    Value x = LoadOp::create(b, l, value, img, ValueRange{pn, ih, iw, ch});
    StoreOp::create(b, l, x, col, ValueRange{m, j});
    b.setInsertionPointToEnd(ifOp.elseBlock());
    Value zero = arith::ConstantOp::create(b, l, value, b.getZeroAttr(value));
    StoreOp::create(b, l, zero, col, ValueRange{m, j});
  }
  op.erase();
  return true;
}

struct TileLowerIm2colPass final
    : tlc::tile::impl::TileLowerIm2colBase<TileLowerIm2colPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](FuncOp func) {
      if (hasLoweringFailed(func))
        return;
      SmallVector<IntrinsicOp> calls;
      func.walk([&](IntrinsicOp op) {
        if (op.getCallee() == "T.im2col")
          calls.push_back(op);
      });
      for (IntrinsicOp op : calls)
        if (!lowerIm2col(op)) {
          markLoweringFailed(func);
          return;
        }
    });
  }
};

} // namespace
