//===- GemmSp.cpp - T.gemm_sp: 2:4 structured-sparse tile GEMM ------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.gemm_sp(A_sparse, E, B, C, transpose_A, transpose_E, transpose_B,
// policy, clear_accum, k_pack, wg_wait)` (and its alias `T.gemm_sp_v2`):
// C += A * op(B) where A (M x K) is structured-sparse and given compressed:
//
// * A_sparse is [M, K/2]: of every group of `group` consecutive K elements
//   of A's row (4, or 2 for float32) it holds the `group/2` kept ones, in
//   order;
// * E is [M, K/e_factor] of an 8-, 16- or 32-bit integer type: logical
//   element E[i, j] describes K elements j*e_factor ... of row i, 4 bits per
//   group, the group g of the element in bits 4g .. 4g+3 (e_factor = bits/4
//   * group). In a nibble of a 2:4 group, bits 0-1 are the position (0-3)
//   of the first kept element and bits 2-3 that of the second (the PTX ISA's
//   sparse metadata); for float32's 1:2 groups the nibble is 0b0100 (first
//   element kept) or 0b1110 (second): bit 1 is the kept position. Where E
//   has a physical layout (T.annotate_layout with
//   make_cutlass_metadata_layout) the logical element is read through it.
//
// tlc builds it, on every target, as TileLang's fallback does: the kernel
// expands A into a dense [M, K] shared tile (each element is A_sparse's
// kept value at its position, 0 elsewhere; a tile.parallel loop), then
// runs the dense `tile.gemm` on it. No `mma.sp` instruction is used.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tlc;
using namespace tlc::eval;
using lang::DType;
using lang::MemoryScope;
using lang::ScalarType;

namespace {

/// The 2-D extents of a gemm_sp operand (leading extents of 1 dropped), or
/// empty after an error at \p node.
llvm::SmallVector<SymExpr, 2> matrixShape(Interpreter &in, RegionObj *r,
                                          Node node, llvm::StringRef name) {
  llvm::SmallVector<SymExpr, 4> s(r->extents.begin(), r->extents.end());
  while (s.size() > 2 && s.front() && s.front().isConstant() &&
         *s.front().getConstant() == 1)
    s.erase(s.begin());
  if (s.size() != 2) {
    in.error(node, "T.gemm_sp operand " + name + " must be 2-D");
    return {};
  }
  return {s[0], s[1]};
}

/// The constant value of \p e, or nullopt.
std::optional<int64_t> constant(SymExpr e) {
  if (e && e.isConstant())
    return *e.getConstant();
  return std::nullopt;
}

} // namespace

/// The group size of the sparsity of \p a (4 for 2:4, 2 for float32's
/// 1:2), or 0 for a dtype the sparse instructions do not take.
static int64_t sparseGroup(DType a) {
  switch (a.getScalarType()) {
  case ScalarType::Float32:
    return 2;
  case ScalarType::Float16:
  case ScalarType::BFloat16:
  case ScalarType::Int8:
  case ScalarType::UInt8:
    return 4;
  default:
    return a.isFloat() && a.getBits() == 8 ? 4 : 0;
  }
}

Value eval::tileGemmSp(Interpreter &in, const PArgs &p) {
  llvm::StringRef name = p.info.name;
  if (in.checkInKernel(name, p.call) || in.checkNotInParallel(name, p.call))
    return Value::poison();
  const char *params[4] = {"A_sparse", "E", "B", "C"};
  RegionObj *regs[4];
  llvm::SmallVector<SymExpr, 2> shapes[4];
  for (int i = 0; i < 4; ++i) {
    Value v = p.getOr(params[i], Value::poison());
    if (v.isAbrupt())
      return Value::poison();
    regs[i] = in.asRegion(v, p.node(params[i]));
    if (!regs[i] || regs[i]->isElement)
      return in.fail(p.node(params[i]), name + " operand " + params[i] +
                                            " must be a buffer or region");
    shapes[i] = matrixShape(in, regs[i], p.node(params[i]), params[i]);
    if (shapes[i].empty())
      return Value::poison();
  }
  BufferObj *a = regs[0]->buffer, *e = regs[1]->buffer;
  if (p.flag("transpose_A", false) || p.flag("transpose_E", false))
    return in.fail(p.call, name + ": transpose_A and transpose_E are not "
                                  "supported (A_sparse must be [M, K/2] and "
                                  "E [M, K/e_factor])");
  int64_t group = sparseGroup(a->dtype);
  if (!group)
    return in.fail(p.node("A_sparse"),
                   name + ": structured sparsity is not defined for " +
                       a->dtype.getName() +
                       " (float32, float16, bfloat16, int8, uint8, float8)");
  if (!e->dtype.isInteger() || e->dtype.getLanes() != 1 ||
      (e->dtype.getBits() != 8 && e->dtype.getBits() != 16 &&
       e->dtype.getBits() != 32))
    return in.fail(p.node("E"), name +
                                    ": metadata E must be an 8-, 16- or "
                                    "32-bit integer buffer, not " +
                                    e->dtype.getName());
  int64_t eFactor = e->dtype.getBits() / 4 * group;
  bool tB = p.flag("transpose_B", false);
  SymExpr m = shapes[0][0], kHalf = shapes[0][1];
  SymExpr kB = shapes[2][tB ? 1 : 0];
  std::optional<int64_t> cm = constant(m), ch = constant(kHalf),
                         ck = constant(kB);
  if (!cm || !ch || !ck) {
    // Tiles of symbolic shape (a kernel analysed without a call site): the
    // expansion below needs static ones. As with any tile op of symbolic
    // shape, --check accepts it and a build refuses it at the call.
    in.markUnbuildable(p.call, name,
                       (name + " with tiles of symbolic shape").str());
    return Value::none();
  }
  if (*ck != 2 * *ch)
    return in.fail(p.call, name + ": A_sparse holds K/2 = " + llvm::Twine(*ch) +
                               " columns, but B's K is " + llvm::Twine(*ck) +
                               " (must be twice as many)");
  int64_t k = *ck;
  // The K of one sparse MMA (mma.sp / sparse wgmma: 32 for 16-bit types, 64
  // for 8-bit, 16 for tf32): TileLang refuses a tile that does not hold
  // whole ones (ValueError when it lowers the kernel, issue 2605), as the
  // instruction would drop the tail; tlc keeps its programs portable to it.
  int64_t atomK = 512 / a->dtype.getBits();
  if (k % atomK) {
    in.errorAtCompileAs("ValueError", p.call.range(),
                        name + ": K tile size " + llvm::Twine(k) +
                            " must be divisible by " + llvm::Twine(atomK) +
                            ", the K of the " + a->dtype.getName() +
                            " sparse MMA");
    return Value::poison();
  }
  if (k % eFactor)
    return in.fail(p.call, name + ": K = " + llvm::Twine(k) +
                               " is not a multiple of e_factor " +
                               llvm::Twine(eFactor) + " (" +
                               e->dtype.getName() + " metadata of " +
                               a->dtype.getName() + ")");
  std::optional<int64_t> em = constant(shapes[1][0]),
                         ek = constant(shapes[1][1]);
  if (!em || !ek || *em != *cm || *ek != k / eFactor)
    return in.fail(p.node("E"),
                   name + ": metadata E must be [" + llvm::Twine(*cm) + ", " +
                       llvm::Twine(k / eFactor) + "] (M x K/e_factor with " +
                       "e_factor " + llvm::Twine(eFactor) + " for " +
                       e->dtype.getName() + " metadata of " +
                       a->dtype.getName() + "), got [" + shapes[1][0].str() +
                       ", " + shapes[1][1].str() + "]");
  if (!lang::isSharedScope(a->scope) && a->scope != MemoryScope::Fragment &&
      a->scope != MemoryScope::Local)
    return in.fail(p.node("A_sparse"),
                   name +
                       " operand A_sparse must be in shared memory or a "
                       "fragment, but '" +
                       a->name + "' is in " + lang::getScopeString(a->scope));
  if (!lang::isSharedScope(e->scope) && e->scope != MemoryScope::Fragment &&
      e->scope != MemoryScope::Local)
    return in.fail(p.node("E"), name +
                                    " operand E must be in shared memory "
                                    "or a fragment, but '" +
                                    e->name + "' is in " +
                                    lang::getScopeString(e->scope));
  mlir::Value aVal = in.regionValue(regs[0], p.node("A_sparse"));
  mlir::Value eVal = in.regionValue(regs[1], p.node("E"));
  if (!aVal || !eVal)
    return Value::poison();

  // The dense tile, allocated once at the start of the kernel (not in the
  // K loop, where pipelining would take it for a stage buffer).
  auto &B = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  BufferObj *dense;
  {
    mlir::OpBuilder::InsertionGuard guard(B);
    if (in.kernel && in.kernel->op && in.kernel->op->getNumRegions() &&
        !in.kernel->op->getRegion(0).empty())
      B.setInsertionPointToStart(&in.kernel->op->getRegion(0).front());
    std::string dn =
        (a->name.empty() ? std::string("A") : a->name.str()) + "_dense";
    dense = in.makeBuffer(in.heap.copyString(dn),
                          {in.syms.constant(*cm), in.syms.constant(k)},
                          a->dtype, MemoryScope::SharedDyn, p.call, false);
  }

  // dense[i, c] = A_sparse[i, slot] when c's position in its group is the
  // one the metadata names for that slot, 0 otherwise.
  {
    mlir::OpBuilder::InsertionGuard guard(B);
    llvm::SmallVector<mlir::OpFoldResult, 2> ext{B.getIndexAttr(*cm),
                                                 B.getIndexAttr(k)};
    auto par = tile::ParallelOp::create(B, l, ext);
    B.setInsertionPointToEnd(&par.getBody().front());
    mlir::Value i = par.getInductionVars()[0], c = par.getInductionVars()[1];
    // Operands with leading extents of 1 are indexed at 0 there.
    auto at = [&](RegionObj *r, mlir::Value row, mlir::Value col) {
      llvm::SmallVector<mlir::Value, 4> ix(r->extents.size() - 2,
                                           in.ir->constIndex(0, l));
      ix.push_back(row);
      ix.push_back(col);
      return ix;
    };
    auto idx = [&](int64_t v) { return in.ir->constIndex(v, l); };
    auto i32 = B.getI32Type();
    auto c32 = [&](int64_t v) { return in.ir->constInt(v, i32, l); };
    auto toI32 = [&](mlir::Value v) -> mlir::Value {
      return mlir::arith::IndexCastOp::create(B, l, i32, v);
    };
    mlir::Value g = mlir::arith::DivUIOp::create(B, l, c, idx(group));
    mlir::Value pos = toI32(mlir::arith::RemUIOp::create(B, l, c, idx(group)));
    // The metadata element and the nibble of this group in it.
    mlir::Value ej = mlir::arith::DivUIOp::create(B, l, c, idx(eFactor));
    mlir::Value word = tile::LoadOp::create(B, l, eVal, at(regs[1], i, ej));
    if (e->dtype.getBits() < 32)
      word = mlir::arith::ExtUIOp::create(B, l, i32, word);
    mlir::Value nib = mlir::arith::MulIOp::create(
        B, l,
        toI32(mlir::arith::RemUIOp::create(B, l, g, idx(eFactor / group))),
        c32(4));
    mlir::Value bits = mlir::arith::AndIOp::create(
        B, l, mlir::arith::ShRUIOp::create(B, l, word, nib), c32(0xF));
    mlir::Type valueTy = in.ir->valueType(a->dtype);
    mlir::Value zero = a->dtype.isInteger()
                           ? in.ir->constInt(0, valueTy, l)
                           : in.ir->constFloat(0.0, valueTy, l);
    using P = mlir::arith::CmpIPredicate;
    mlir::Value result;
    if (group == 2) {
      // 1:2: one kept element per pair, slot g; bit 1 is its position.
      mlir::Value kept = mlir::arith::AndIOp::create(
          B, l, mlir::arith::ShRUIOp::create(B, l, bits, c32(1)), c32(1));
      mlir::Value x = tile::LoadOp::create(B, l, aVal, at(regs[0], i, g));
      mlir::Value hit = mlir::arith::CmpIOp::create(B, l, P::eq, pos, kept);
      result = mlir::arith::SelectOp::create(B, l, hit, x, zero);
    } else {
      mlir::Value first = mlir::arith::AndIOp::create(B, l, bits, c32(3));
      mlir::Value second = mlir::arith::AndIOp::create(
          B, l, mlir::arith::ShRUIOp::create(B, l, bits, c32(2)), c32(3));
      mlir::Value slot0 = mlir::arith::MulIOp::create(B, l, g, idx(2));
      mlir::Value slot1 = mlir::arith::AddIOp::create(B, l, slot0, idx(1));
      mlir::Value x0 = tile::LoadOp::create(B, l, aVal, at(regs[0], i, slot0));
      mlir::Value x1 = tile::LoadOp::create(B, l, aVal, at(regs[0], i, slot1));
      mlir::Value hit0 = mlir::arith::CmpIOp::create(B, l, P::eq, pos, first);
      mlir::Value hit1 = mlir::arith::CmpIOp::create(B, l, P::eq, pos, second);
      result = mlir::arith::SelectOp::create(
          B, l, hit0, x0, mlir::arith::SelectOp::create(B, l, hit1, x1, zero));
    }
    tile::StoreOp::create(B, l, result, dense->value, mlir::ValueRange{i, c});
  }
  // The dense product, checked and built as T.gemm is.
  return tileGemm(in, p, Value::object(ValueKind::Buffer, dense));
}
