//===- MetadataLayout.cpp - make_cutlass_metadata_layout, global layouts --===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `tilelang.layout.make_cutlass_metadata_layout(buffer, mma_dtype, arch,
// block_k=...)` (and its older name `make_metadata_layout`): where the
// logical metadata element E[i, j] of T.gemm_sp lies in the order CUTLASS's
// sparse kernels read, as a real layout over the buffer's shape:
//
// * sm_8x (16-bit metadata for 16-bit operands, 32-bit for 8-bit ones): the
//   rows are interleaved in groups of 32 (16) — row r of a group goes to
//   (r mod 8) * 4 + r div 8 (x 2 and r div 8 for 32-bit) — then the 2x2
//   blocks have their off-diagonal elements swapped, and the matrix is
//   stored column-major by pairs of columns: the flat offset is
//   (c div 2) * 2M + 2 r + c mod 2, seen as [offset div K, offset mod K];
// * sm_90 (8-bit metadata): atoms of 64 rows and block_k/8 (8-bit operands)
//   or 4 * block_k/(512/bits) columns, each row and column index split
//   column-major over the atom's modes (16/32-bit: rows 8 x 2 x 4,
//   columns b x 2 x block_k*bits/512 with b = 2 for 16-bit, 1 for 32-bit,
//   the modes strided in the order (col 0, row 1, col 2, row 0, col 1,
//   row 2); 8-bit: rows stride block_k/8, columns 1), the atoms repeated
//   down the rows, then across the columns; block_k is at most 128.
//
// A shared buffer's annotation is its layout (layout inference keeps it);
// a global tensor's says where its elements lie in memory, so a T.copy
// from or into a region of one reads and writes each element at its
// layout's place (an element loop; `globalLayoutOf`, `physicalIndices`).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Layout/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tlc;
using namespace tlc::eval;
using layout::IndexExpr;
using layout::IndexKind;

/// The forward index map of the sm_8x CUTLASS metadata order of an [m, k]
/// buffer of \p bits-bit elements; empty after an error in \p why.
static std::vector<IndexExpr> sm8xOrder(int64_t m, int64_t k, unsigned bits,
                                        std::string &why) {
  int64_t group = bits == 16 ? 32 : 16, inter = bits == 16 ? 4 : 2;
  if (m % group) {
    why = "metadata M=" + std::to_string(m) + " must be a multiple of " +
          std::to_string(group);
    return {};
  }
  if (k % 2) {
    why = "metadata K=" + std::to_string(k) + " must be even";
    return {};
  }
  IndexExpr i = IndexExpr::var(0, "i"), j = IndexExpr::var(1, "j");
  IndexExpr r = floorDiv(i, group) * group + floorMod(i, 8) * inter +
                floorDiv(floorMod(i, group), 8);
  IndexExpr one = IndexExpr::constant(1);
  IndexExpr rOdd = floorMod(r, 2), jOdd = floorMod(j, 2);
  IndexExpr swap = bitAnd(one - rOdd, jOdd) - bitAnd(rOdd, one - jOdd);
  IndexExpr row = r + swap, col = j - swap;
  IndexExpr off = floorDiv(col, 2) * (2 * m) + row * 2 + floorMod(col, 2);
  return {floorDiv(off, k), floorMod(off, k)};
}

/// The forward index map (one flat offset) of the sm_90 CUTLASS metadata
/// order of an [m, k] 8-bit buffer for \p aBits-bit operands and K tile
/// \p blockK; empty after an error in \p why.
static std::vector<IndexExpr> sm90Order(int64_t m, int64_t k, unsigned aBits,
                                        int64_t blockK, std::string &why) {
  blockK = std::min<int64_t>(blockK, 128);
  int64_t atomK = 512 / aBits;
  if (blockK <= 0 || blockK % atomK) {
    why = "Tile K is too small, which should be at least " +
          std::to_string(atomK) + " (block_k " + std::to_string(blockK) + ")";
    return {};
  }
  llvm::SmallVector<int64_t, 4> shapeI, strideI, shapeK, strideK;
  if (aBits == 16 || aBits == 32) {
    int64_t shape[6] = {8, 2, 4, aBits == 16 ? 2 : 1, 2, blockK / atomK};
    int64_t stride[6];
    int64_t acc = 1;
    for (int d : {3, 1, 5, 0, 4, 2}) {
      stride[d] = acc;
      acc *= shape[d];
    }
    shapeI.assign(shape, shape + 3);
    strideI.assign(stride, stride + 3);
    shapeK.assign(shape + 3, shape + 6);
    strideK.assign(stride + 3, stride + 6);
  } else if (aBits == 8) {
    shapeI = {64};
    strideI = {blockK / 8};
    shapeK = {blockK / 8};
    strideK = {1};
  } else {
    why = "no sm_90 metadata layout for " + std::to_string(aBits) +
          "-bit operands";
    return {};
  }
  int64_t atom = 1, cols = 1;
  for (int64_t s : shapeI)
    atom *= s;
  for (int64_t s : shapeK) {
    atom *= s;
    cols *= s;
  }
  int64_t repI = (m + 63) / 64, repK = (k + cols - 1) / cols;
  shapeI.push_back(repI);
  strideI.push_back(atom);
  shapeK.push_back(repK);
  strideK.push_back(atom * repI);
  auto split = [](IndexExpr x, llvm::ArrayRef<int64_t> shape,
                  llvm::ArrayRef<int64_t> stride) {
    IndexExpr off = IndexExpr::constant(0);
    for (size_t d = 0; d < shape.size(); ++d) {
      IndexExpr digit = d + 1 < shape.size() ? floorMod(x, shape[d]) : x;
      off = off + digit * stride[d];
      x = floorDiv(x, shape[d]);
    }
    return off;
  };
  return {split(IndexExpr::var(0, "i"), shapeI, strideI) +
          split(IndexExpr::var(1, "j"), shapeK, strideK)};
}

Value eval::makeCutlassMetadataLayout(Interpreter &in, const PArgs &p) {
  auto *o = in.heap.make<LayoutObj>();
  o->description = "make_cutlass_metadata_layout";
  Value result = in.heap.obj(ObjKind::Layout, o);
  auto fail = [&](Node at, const std::string &why) {
    in.errorAs("ValueError", at.range(),
               "make_cutlass_metadata_layout: " + why);
    return Value::poison();
  };
  Value bufV = p.getOr("buffer", Value::poison());
  if (bufV.isAbrupt())
    return bufV;
  if (!bufV.is(ValueKind::Buffer))
    return fail(p.node("buffer"), "expects the metadata buffer");
  BufferObj *b = bufV.as<BufferObj>();
  llvm::SmallVector<int64_t, 2> shape;
  for (SymExpr d : b->shape)
    if (d && d.isConstant())
      shape.push_back(*d.getConstant());
  if (shape.size() != 2 || b->shape.size() != 2) {
    o->whyOpaque = "its buffer is not 2-D of static shape";
    return result;
  }
  std::optional<lang::DType> mma = in.toDType(
      p.getOr("mma_dtype", in.heap.str("float16")), p.node("mma_dtype"));
  if (!mma)
    return fail(p.node("mma_dtype"), "mma_dtype is not a dtype");
  // The compute capability: the arch argument ("8.0", "9.0") or the
  // target's.
  int64_t major = 0;
  Value arch = p.getOr("arch", Value::none());
  if (arch.isStr()) {
    llvm::StringRef text = getStr(arch);
    if (text.split('.').first.getAsInteger(10, major))
      return fail(p.node("arch"),
                  "arch '" + text.str() + "' is not a compute version");
  } else if (arch.isNone()) {
    const lang::DeviceInfo *d = in.target().device;
    if (!d || d->platform == "hip")
      return fail(p.call, "no CUDA compute version for the target");
    major = d->major;
  } else {
    return fail(p.node("arch"), "arch must be a string such as \"8.0\"");
  }
  unsigned aBits = mma->getBits(), eBits = b->dtype.getBits();
  std::string why;
  std::vector<IndexExpr> forward;
  if (major >= 9) {
    if (eBits != 8)
      return fail(p.node("buffer"),
                  "metadata should be 8 bit, got " + b->dtype.getName());
    const Value *blockK = p.args.keyword("block_k");
    if (!blockK || !blockK->isIntLike())
      return fail(p.call, "the sm_90 layout needs block_k=");
    forward = sm90Order(shape[0], shape[1], aBits, blockK->getInt(), why);
  } else if (major == 8) {
    unsigned want = aBits == 8 ? 32 : 16;
    if (eBits != want)
      return fail(p.node("buffer"), "metadata should be " +
                                        std::to_string(want) + " bit, got " +
                                        b->dtype.getName());
    forward = sm8xOrder(shape[0], shape[1], eBits, why);
  } else {
    return fail(p.node("arch"), "unsupported architecture (sm_80 or later)");
  }
  if (forward.empty())
    return fail(p.call, why);
  llvm::Expected<layout::Layout> l =
      layout::Layout::get({shape[0], shape[1]}, std::move(forward));
  if (!l) {
    o->whyOpaque = llvm::toString(l.takeError());
    return result;
  }
  o->attr = tile::encodeLayout(&in.mlirContext, *l);
  return result;
}

std::optional<layout::Layout> eval::globalLayoutOf(Interpreter &in,
                                                   BufferObj *b) {
  if (!lang::isGlobalScope(b->scope) || !b->value || !in.kernel ||
      !in.kernel->op || in.kernel->op->getNumRegions() == 0 ||
      in.kernel->op->getRegion(0).empty())
    return std::nullopt;
  // The annotations of the kernel being traced: top-level statements of its
  // body (T.annotate_layout opens a kernel), so the search does not grow
  // with the tensor's uses.
  for (mlir::Operation &op : in.kernel->op->getRegion(0).front())
    if (auto a = llvm::dyn_cast<tile::AnnotateLayoutOp>(op);
        a && a.getBuffer() == b->value && a->hasAttr(kMetadataOrderAttr))
      if (std::optional<layout::Layout> l = tile::decodeLayout(a.getLayout()))
        if (l->getInputShape().size() == b->shape.size())
          return l;
  return std::nullopt;
}

/// \p e built as index arithmetic over \p inputs.
static mlir::Value emit(mlir::OpBuilder &b, mlir::Location l,
                        const IndexExpr &e, mlir::ValueRange inputs) {
  namespace ar = mlir::arith;
  if (std::optional<int64_t> c = e.getConstant())
    return ar::ConstantIndexOp::create(b, l, *c);
  if (e.kind() == IndexKind::Var)
    return inputs[e.getVarId()];
  mlir::Value x = emit(b, l, e.lhs(), inputs), y = emit(b, l, e.rhs(), inputs);
  switch (e.kind()) {
  case IndexKind::Add:
    return ar::AddIOp::create(b, l, x, y);
  case IndexKind::Mul:
    return ar::MulIOp::create(b, l, x, y);
  case IndexKind::FloorDiv:
    return ar::FloorDivSIOp::create(b, l, x, y);
  case IndexKind::Mod: {
    // Floor modulo: the remainder moved into [0, y) for y > 0.
    mlir::Value r = ar::RemSIOp::create(b, l, x, y);
    return ar::RemSIOp::create(b, l, ar::AddIOp::create(b, l, r, y), y);
  }
  case IndexKind::Xor:
    return ar::XOrIOp::create(b, l, x, y);
  case IndexKind::And:
    return ar::AndIOp::create(b, l, x, y);
  case IndexKind::Or:
    return ar::OrIOp::create(b, l, x, y);
  case IndexKind::Shl:
    return ar::ShLIOp::create(b, l, x, y);
  case IndexKind::Shr:
    return ar::ShRSIOp::create(b, l, x, y);
  default:
    return x;
  }
}

bool eval::physicalIndices(Interpreter &in, BufferObj *b,
                           const layout::Layout &layout, mlir::Location l,
                           llvm::SmallVectorImpl<mlir::Value> &idx) {
  auto &B = in.ir->b;
  llvm::SmallVector<mlir::Value, 4> out;
  for (const IndexExpr &e : layout.getForward())
    out.push_back(emit(B, l, e, idx));
  if (out.size() == idx.size()) {
    idx.assign(out.begin(), out.end());
    return true;
  }
  if (out.size() != 1)
    return false;
  // One flat offset: the buffer's row-major coordinates of it.
  mlir::Value off = out[0];
  for (size_t d = b->shape.size(); d-- > 0;) {
    SymExpr n = b->shape[d];
    if (!n || !n.isConstant())
      return false;
    mlir::Value ext = in.ir->constIndex(*n.getConstant(), l);
    idx[d] = d ? mlir::arith::RemSIOp::create(B, l, off, ext).getResult() : off;
    off = mlir::arith::DivSIOp::create(B, l, off, ext);
  }
  return true;
}
