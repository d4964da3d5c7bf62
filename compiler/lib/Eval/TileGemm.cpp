//===- TileGemm.cpp - T.gemm ----------------------------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.gemm` (and the forms built on it: T.tcgen05_gemm, T.wgmma_gemm,
// T.gemm_sp's dense tile): operand scopes, shapes, dtypes and transposes
// checked, then built as a tile.gemm.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

using namespace tlc;
using namespace tlc::eval;
using lang::MemoryScope;

/// True when A and B of one MMA may have different dtypes: the PTX MMA
/// forms take a type per operand for the narrow kinds, so FP8 (e4m3, e5m2),
/// FP6 and FP4 codes mix freely (kind::f8f6f4, wgmma's .e4m3/.e5m2) and
/// signed and unsigned integers of one width mix (.s8/.u8, .s4/.u4). Which
/// pairs a target can generate is decided when building for it.
static bool mixableOperandDtypes(lang::DType a, lang::DType b) {
  auto narrowFloat = [](lang::DType t) {
    lang::DTypeClass c = t.getClass();
    return c == lang::DTypeClass::Float8 || c == lang::DTypeClass::Float6 ||
           c == lang::DTypeClass::Float4 || t.isUnpackedFloat();
  };
  if (a.isVector() || b.isVector())
    return false;
  if (narrowFloat(a) && narrowFloat(b))
    return true;
  return a.isInteger() && b.isInteger() && a.getBits() == b.getBits() &&
         a.getBits() <= 8;
}

Value eval::tileGemm(Interpreter &in, const PArgs &p, Value denseA) {
  if (in.checkInKernel("T.gemm", p.call) ||
      in.checkNotInParallel("T.gemm", p.call))
    return Value::poison();
  Value av = denseA.isNone() ? p.getOr("A", Value::poison()) : denseA,
        bv = p.getOr("B", Value::poison()), cv = p.getOr("C", Value::poison());
  if (av.isAbrupt() || bv.isAbrupt() || cv.isAbrupt())
    return Value::poison();
  RegionObj *regs[3];
  const char *names[3] = {"A", "B", "C"};
  Value vals[3] = {av, bv, cv};
  llvm::SmallVector<SymExpr, 4> shapes[3];
  bool bad = false;
  for (int i = 0; i < 3; ++i) {
    regs[i] = in.asRegion(vals[i], p.node(names[i]));
    if (!regs[i] || regs[i]->isElement) {
      in.error(p.node(names[i]), llvm::Twine("T.gemm operand ") + names[i] +
                                     " must be a buffer or region");
      return Value::poison();
    }
    shapes[i].assign(regs[i]->extents.begin(), regs[i]->extents.end());
    while (shapes[i].size() > 2 && shapes[i].front() &&
           shapes[i].front().isConstant() &&
           *shapes[i].front().getConstant() == 1)
      shapes[i].erase(shapes[i].begin());
    if (shapes[i].size() != 2) {
      in.error(p.node(names[i]), llvm::Twine("T.gemm operand ") + names[i] +
                                     " must be 2-D, got shape " +
                                     shapeStr(regs[i]->extents));
      bad = true;
    }
  }
  if (bad)
    return Value::poison();
  bool tA = p.flag("transpose_A", false), tB = p.flag("transpose_B", false);
  SymExpr m = shapes[0][tA ? 1 : 0], kA = shapes[0][tA ? 0 : 1];
  SymExpr kB = shapes[1][tB ? 1 : 0], n = shapes[1][tB ? 0 : 1];
  SymExpr mC = shapes[2][0], nC = shapes[2][1];
  auto differ = [&](SymExpr a, SymExpr b) {
    return a && b && in.syms.equal(a, b) == false;
  };
  auto sh = [&](int i) { return shapeStr(shapes[i]); };
  if (differ(kA, kB)) {
    in.error(p.call, "T.gemm: K of A " + sh(0) + " (" + kA.str() +
                         ") does not match K of B " + sh(1) + " (" + kB.str() +
                         ")");
    bad = true;
  }
  if (differ(m, mC)) {
    in.error(p.call, "T.gemm: M of A " + sh(0) + " (" + m.str() +
                         ") does not match M of C " + sh(2) + " (" + mC.str() +
                         ")");
    bad = true;
  }
  // use_2cta (Blackwell's CTA pair): each CTA holds half of B's N columns
  // and the pair's MMA writes all N columns of each CTA's C. T.gemm into
  // tensor memory in a kernel launched in clusters of two CTAs is that
  // pair's MMA when B has half of C's columns (TileLang's tcgen05 lowering
  // picks the 2-CTA atom there and issues it from the leader CTA).
  bool use2cta = p.flag("use_2cta", false);
  bool inferred2cta = false;
  if (!use2cta && n && nC && n.isConstant() && nC.isConstant() &&
      2 * *n.getConstant() == *nC.getConstant() &&
      regs[2]->buffer->scope == MemoryScope::TensorMemory)
    if (mlir::Block *blk = in.ir->b.getInsertionBlock())
      if (mlir::Operation *parent = blk->getParentOp()) {
        auto kernel = llvm::dyn_cast<tile::KernelOp>(parent);
        if (!kernel)
          kernel = parent->getParentOfType<tile::KernelOp>();
        if (kernel)
          if (auto dims = kernel->getAttrOfType<mlir::DenseI64ArrayAttr>(
                  "cluster_dims")) {
            int64_t size = 1;
            for (int64_t d : dims.asArrayRef())
              size *= d;
            inferred2cta = size == 2;
          }
      }
  if ((use2cta || inferred2cta) && n && nC && n.isConstant() &&
      nC.isConstant()) {
    if (2 * *n.getConstant() != *nC.getConstant()) {
      in.error(p.call, "T.tcgen05_gemm(use_2cta=True): each CTA holds half "
                       "of B's columns, so N of C " +
                           sh(2) + " (" + nC.str() + ") must be twice N of B " +
                           sh(1) + " (" + n.str() + ")");
      bad = true;
    }
  } else if (differ(n, nC)) {
    in.error(p.call, "T.gemm: N of B " + sh(1) + " (" + n.str() +
                         ") does not match N of C " + sh(2) + " (" + nC.str() +
                         ")");
    bad = true;
  }
  BufferObj *a = regs[0]->buffer, *b = regs[1]->buffer, *c = regs[2]->buffer;
  if (a->dtype != b->dtype && !mixableOperandDtypes(a->dtype, b->dtype)) {
    in.error(p.call, "T.gemm operands A and B have different dtypes (" +
                         a->dtype.getName() + " and " + b->dtype.getName() +
                         ")");
    bad = true;
  }
  // Ascend's cube unit: A and B in L1, L0A or L0B and C in L0C (TileLang's
  // Ascend back end; checkBuildable refuses to build such a kernel).
  auto ascendOperand = [](MemoryScope s) {
    return s == MemoryScope::AscendL1 || s == MemoryScope::AscendL0A ||
           s == MemoryScope::AscendL0B;
  };
  bool ascend = c->scope == MemoryScope::AscendL0C;
  if (ascend) {
    for (int i = 0; i < 2; ++i) {
      BufferObj *x = regs[i]->buffer;
      if (ascendOperand(x->scope))
        continue;
      in.error(p.node(names[i]),
               llvm::Twine("T.gemm operand ") + names[i] +
                   " of an L0C accumulator must be in the cube unit's L1, "
                   "L0A or L0B (T.alloc_l1 / T.alloc_l0a / T.alloc_l0b), "
                   "but '" +
                   x->name + "' is in " + lang::getScopeString(x->scope));
      bad = true;
    }
  } else if (std::optional<Value> flag = p.get("unit_flag_ctrl");
             flag && !flag->isNone()) {
    in.error(p.node("unit_flag_ctrl"),
             "T.gemm: unit_flag_ctrl is TileLang's Ascend argument of a "
             "gemm into L0C (T.alloc_l0c), but '" +
                 c->name + "' is in " + lang::getScopeString(c->scope));
    bad = true;
  }
  if (!ascend && c->scope != MemoryScope::Fragment &&
      c->scope != MemoryScope::TensorMemory) {
    in.error(p.node("C"), "T.gemm accumulator C must be a fragment "
                          "(T.alloc_fragment), but '" +
                              c->name + "' is in " +
                              lang::getScopeString(c->scope));
    bad = true;
  } else if (a->dtype.isInteger() != c->dtype.isInteger()) {
    in.error(p.node("C"), "T.gemm accumulator dtype " + c->dtype.getName() +
                              " does not suit " + a->dtype.getName() +
                              " operands");
    bad = true;
  }
  for (int i = 0; !ascend && i < 2; ++i) {
    BufferObj *x = regs[i]->buffer;
    if (!lang::isSharedScope(x->scope) && x->scope != MemoryScope::Fragment &&
        x->scope != MemoryScope::TensorMemory) {
      in.error(p.node(names[i]), llvm::Twine("T.gemm operand ") + names[i] +
                                     " must be in shared memory or a "
                                     "fragment, but '" +
                                     x->name + "' is in " +
                                     lang::getScopeString(x->scope));
      bad = true;
    }
  }
  if (bad)
    return Value::poison();
  auto &B = in.ir->b;
  mlir::Value ops[3];
  for (int i = 0; i < 3; ++i)
    if (!(ops[i] = in.regionValue(regs[i], p.node(names[i]))))
      return Value::poison();
  // clear_accum known only at run time (`clear_accum=k == 0` in the first
  // iteration of a loop): C is cleared under that condition, then the gemm
  // accumulates, which is what TileLang's lowering of the flag does.
  std::optional<Value> clearArg = p.get("clear_accum");
  if (clearArg && !clearArg->isNone() && !clearArg->isIntLike()) {
    Scalar c = in.toScalar(*clearArg, p.node("clear_accum"));
    if (!c)
      return Value::poison();
    mlir::Location l = in.ir->loc(p.node("clear_accum"));
    mlir::Value pred = in.ir->convert(c.value, B.getI1Type(), l);
    auto ifOp = tile::IfOp::create(B, l, pred, /*withElse=*/false);
    mlir::OpBuilder::InsertionGuard guard(B);
    B.setInsertionPointToEnd(ifOp.thenBlock());
    tile::ClearOp::create(B, l, ops[2]);
  }
  auto op = tile::GemmOp::create(B, in.ir->loc(p.call), ops[0], ops[1], ops[2]);
  if (tA)
    op->setAttr("transpose_a", B.getUnitAttr());
  if (tB)
    op->setAttr("transpose_b", B.getUnitAttr());
  if (p.flag("clear_accum", false))
    op->setAttr("clear_accum", B.getUnitAttr());
  if (std::optional<Value> pol = p.get("policy")) {
    tile::GemmWarpPolicy policy = tile::GemmWarpPolicy::Square;
    llvm::StringRef name;
    if (pol->isObj(ObjKind::EnumMember))
      name = pol->as<EnumMemberObj>()->info->getShortName();
    if (name == "FullRow" || (pol->isIntLike() && pol->getInt() == 1))
      policy = tile::GemmWarpPolicy::FullRow;
    else if (name == "FullCol" || (pol->isIntLike() && pol->getInt() == 2))
      policy = tile::GemmWarpPolicy::FullCol;
    op->setAttr("policy",
                tile::GemmWarpPolicyAttr::get(B.getContext(), policy));
  }
  if (std::optional<Value> kp = p.get("k_pack"))
    if (kp->isIntLike())
      op->setAttr("k_pack", B.getI64IntegerAttr(kp->getInt()));
  // A tensor-memory accumulator (Blackwell's tcgen05.mma): the gemm runs
  // asynchronously and `mbar` receives one arrival when it is done
  // (tcgen05.commit), the statement T.tcgen05_mma_arrive(mbar) stands for.
  if (c->scope != MemoryScope::TensorMemory)
    return Value::none();
  if (use2cta || inferred2cta)
    op->setAttr("tile.use_2cta", B.getUnitAttr());
  std::optional<Value> mbar = p.get("mbar");
  if (!mbar || mbar->isNone())
    return Value::none();
  CallArgs arrive;
  arrive.pos.push_back(*mbar);
  arrive.posNodes.push_back(p.node("mbar"));
  if (use2cta || inferred2cta) {
    arrive.kw.push_back({"arrive_2cta", Value::boolean(true)});
    arrive.kwNodes.push_back(use2cta ? p.node("use_2cta") : p.call);
  }
  Value r = in.callPrimitive(*lang::lookupBuiltin("T.tcgen05_mma_arrive"),
                             arrive, p.call);
  return r.isAbrupt() ? r : Value::none();
}

/// T.fill / T.clear of a slice whose extent is known only when the kernel
/// runs (`x[a:b]`, a and b read from memory): no tile op addresses such a
/// region, so its elements are written by a T.Parallel over the run-time
