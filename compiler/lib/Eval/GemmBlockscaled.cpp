//===- GemmBlockscaled.cpp - T.gemm_blockscaled, T.mma_gemm_blockscaled ---===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.gemm_blockscaled(A, B, C, SFA, SFB, transpose_A, transpose_B, policy,
// clear_accum, *, k_start, sf_a_granularity_k, sf_b_granularity_k, ...)`
// and its explicit SM120 form `T.mma_gemm_blockscaled`: the block-scaled
// GEMM C (+)= (A * SFA) @ (B * SFB). A row of A is split along K into
// blocks of sf_a_granularity_k elements, counted from the logical K index
// k_start of this tile, and every element of block j is multiplied by the
// scale factor j of that row in SFA (likewise B's columns with SFB). The
// scales are narrow codes (UE8M0 powers of two, or UE4M3 for NVFP4),
// stored one to a byte or four to a 32-bit word.
//
// Checked here as TileLang checks them (its dense-operand asserts on the
// A/B/C shapes, static tile extents, integer granularities) and by the
// operand contract every block-scaled instruction has: FP8/FP6/FP4 A and
// B (T.mma_gemm_blockscaled(a_packed_words=True): A as [M, K/8] uint32
// words of eight E2M1 codes), a float32 accumulator, scale tensors of 8-
// or 32-bit elements. Built as one tile.intrinsic whose operands are A, B,
// C, SFA, SFB (and mbar, k_start) and whose options hold the rest; which
// instruction implements it, and whether there is one, is the target's
// decision when building. The forms of TileLang's other back ends are
// analysed too: Ascend's (A and B in L0A / L0B, C in L0C, no k_start or
// granularities; checkBuildable refuses to build it) and HCU's (k_pack, the
// M/N granularities and the scales' major order, kept as options).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::DType;
using lang::MemoryScope;

/// True for the element types of block-scaled MMA operands: the OCP FP8,
/// FP6 and FP4 codes (kind::mxf8f6f4 / mxf4nvf4).
static bool isNarrowFloat(DType t) {
  lang::DTypeClass c = t.getClass();
  return !t.isVector() &&
         (c == lang::DTypeClass::Float8 || c == lang::DTypeClass::Float6 ||
          c == lang::DTypeClass::Float4);
}

/// True for the element types scale factors are stored in: bytes (uint8,
/// int8, float8_e8m0fnu, float8_e4m3) or words of four bytes.
static bool isScaleStorage(DType t) {
  if (t.isVector())
    return false;
  if (t.getClass() == lang::DTypeClass::Float8)
    return true;
  // Ascend keeps its scale pairs in int16.
  return t.isInteger() &&
         (t.getBits() == 8 || t.getBits() == 16 || t.getBits() == 32);
}

/// True for the scopes of TileLang's Ascend cube unit.
static bool isAscendScope(MemoryScope s) {
  return s == MemoryScope::AscendL1 || s == MemoryScope::AscendL0A ||
         s == MemoryScope::AscendL0B || s == MemoryScope::AscendL0C;
}

Value eval::tileGemmBlockscaled(Interpreter &in, const PArgs &p) {
  llvm::StringRef name = p.info.name;
  bool mma = p.info.id == BuiltinId::MmaGemmBlockscaled;
  if (in.checkInKernel(name, p.call) || in.checkNotInParallel(name, p.call))
    return Value::poison();
  const char *names[5] = {"A", "B", "C", "SFA", "SFB"};
  RegionObj *regs[5];
  llvm::SmallVector<SymExpr, 4> shapes[5];
  for (int i = 0; i < 5; ++i) {
    Value v = p.getOr(names[i], Value::poison());
    if (v.isAbrupt() || v.isPoison())
      return Value::poison();
    regs[i] = in.asRegion(v, p.node(names[i]));
    if (!regs[i] || regs[i]->isElement) {
      in.error(p.node(names[i]),
               name + " operand " + names[i] + " must be a buffer or region");
      return Value::poison();
    }
    shapes[i].assign(regs[i]->extents.begin(), regs[i]->extents.end());
    // TileLang's rule: 2-D or more, every dimension before the last two of
    // extent 1.
    while (shapes[i].size() > 2 && shapes[i].front() &&
           shapes[i].front().isConstant() &&
           *shapes[i].front().getConstant() == 1)
      shapes[i].erase(shapes[i].begin());
  }
  bool bad = false;
  for (int i = 0; i < 3; ++i)
    if (shapes[i].size() != 2) {
      in.error(p.node(names[i]),
               name + " operand " + names[i] +
                   " must be 2-D (dimensions before the last two of extent "
                   "1), got shape " +
                   shapeStr(regs[i]->extents));
      bad = true;
    }
  for (int i = 3; i < 5; ++i)
    if (shapes[i].empty()) {
      in.error(p.node(names[i]), name + " scale factors " + names[i] +
                                     " must be a tile, not a scalar");
      bad = true;
    }
  if (bad)
    return Value::poison();

  BufferObj *a = regs[0]->buffer, *b = regs[1]->buffer, *c = regs[2]->buffer;
  bool packedA = mma && p.flag("a_packed_words", false);
  bool tA = p.flag("transpose_A", false), tB = p.flag("transpose_B", false);
  if (packedA && tA) {
    in.error(p.node("transpose_A"),
             name + "(a_packed_words=True): the packed A words are "
                    "[M, K/8], K-major; transpose_A must be False");
    return Value::poison();
  }
  SymExpr m = shapes[0][tA ? 1 : 0], kA = shapes[0][tA ? 0 : 1];
  SymExpr kB = shapes[1][tB ? 1 : 0], n = shapes[1][tB ? 0 : 1];
  SymExpr mC = shapes[2][0], nC = shapes[2][1];
  // Eight E2M1 codes to a 32-bit word.
  if (packedA && kA)
    kA = in.syms.mul(kA, in.syms.constant(8));
  auto differ = [&](SymExpr x, SymExpr y) {
    return x && y && in.syms.equal(x, y) == false;
  };
  auto sh = [&](int i) { return shapeStr(shapes[i]); };
  if (differ(kA, kB)) {
    return in.raise("AssertionError",
                    name + " K shape check failed: K of A " + sh(0) + " is " +
                        kA.str() +
                        (packedA ? " (8 codes per packed word)" : "") +
                        ", K of B " + sh(1) + " is " + kB.str(),
                    p.call);
  }
  if (differ(m, mC)) {
    return in.raise("AssertionError",
                    name + " M shape check failed: M of A " + sh(0) + " is " +
                        m.str() + ", M of C " + sh(2) + " is " + mC.str(),
                    p.call);
  }
  bool use2cta = !mma && p.flag("use_2cta", false);
  if (use2cta ? (n && nC && differ(in.syms.mul(n, in.syms.constant(2)), nC))
              : differ(n, nC)) {
    return in.raise(
        "AssertionError",
        name + " N shape check failed: N of B " + sh(1) + " is " + n.str() +
            ", N of C " + sh(2) + " is " + nC.str() +
            (use2cta ? " (use_2cta: N of C must be twice N of B)" : ""),
        p.call);
  }
  for (auto [dim, e] :
       {std::pair<const char *, SymExpr>{"M", mC}, {"N", nC}, {"K", kB}})
    if (e && !e.isConstant()) {
      return in.raise("ValueError",
                      name + " requires static tile dimensions, but " + dim +
                          " is symbolic: " + e.str(),
                      p.call);
    }

  // The operand contract of every block-scaled MMA.
  if (packedA) {
    if (!a->dtype.isInteger() || a->dtype.getBits() != 32 ||
        a->dtype.isVector()) {
      in.error(p.node("A"),
               name +
                   "(a_packed_words=True): A holds packed E2M1 words and "
                   "must be uint32 (or int32), but '" +
                   a->name + "' is " + a->dtype.getName());
      bad = true;
    }
    if (b->dtype.getClass() != lang::DTypeClass::Float4) {
      in.error(p.node("B"), name +
                                "(a_packed_words=True): the packed A "
                                "words are E2M1, so B must be "
                                "float4_e2m1fn, but '" +
                                b->name + "' is " + b->dtype.getName());
      bad = true;
    }
  }
  for (int i = packedA ? 1 : 0; i < 2; ++i) {
    BufferObj *x = regs[i]->buffer;
    if (isNarrowFloat(x->dtype))
      continue;
    in.error(p.node(names[i]),
             name + " operand " + names[i] +
                 " must hold FP8, FP6 or FP4 codes (float8_e4m3fn, "
                 "float8_e5m2, float6_e2m3fn, float6_e3m2fn, float4_e2m1fn), "
                 "but '" +
                 x->name + "' is " + x->dtype.getName());
    bad = true;
  }
  if (c->dtype.getName() != "float32") {
    in.error(p.node("C"), name + " accumulates in float32, but '" + c->name +
                              "' is " + c->dtype.getName());
    bad = true;
  }
  // TileLang's Ascend form: C in L0C (checkBuildable refuses to build it).
  bool ascend = !mma && c->scope == MemoryScope::AscendL0C;
  if (mma ? c->scope != MemoryScope::Fragment
          : c->scope != MemoryScope::Fragment &&
                c->scope != MemoryScope::TensorMemory && !ascend) {
    in.error(p.node("C"),
             name + " accumulator C must be a fragment (T.alloc_fragment)" +
                 (mma ? llvm::Twine(": mma.sync accumulates in registers")
                      : llvm::Twine(" or tensor memory (T.alloc_tmem)")) +
                 ", but '" + c->name + "' is in " +
                 lang::getScopeString(c->scope));
    bad = true;
  }
  for (int i = 0; i < 2; ++i) {
    BufferObj *x = regs[i]->buffer;
    if (lang::isSharedScope(x->scope) || x->scope == MemoryScope::Fragment ||
        x->scope == MemoryScope::TensorMemory ||
        (ascend && isAscendScope(x->scope)))
      continue;
    in.error(p.node(names[i]), name + " operand " + names[i] +
                                   " must be in shared memory or a fragment, "
                                   "but '" +
                                   x->name + "' is in " +
                                   lang::getScopeString(x->scope));
    bad = true;
  }
  for (int i = 3; i < 5; ++i) {
    BufferObj *x = regs[i]->buffer;
    if (!isScaleStorage(x->dtype)) {
      in.error(p.node(names[i]),
               name + " scale factors " + names[i] +
                   " are stored in bytes (uint8, float8_e8m0fnu, "
                   "float8_e4m3fn) or packed four to a 32-bit word, but '" +
                   x->name + "' is " + x->dtype.getName());
      bad = true;
    }
    // An L0 scale-factor handle serves the data tile it was made for
    // (TileLang's GEMM checks the binding).
    BufferObj *tile = regs[i - 3]->buffer;
    if (x->sfDataTile && x->sfDataTile != tile) {
      in.error(p.node(names[i]), name + " scale factors " + names[i] + " '" +
                                     x->name + "' are the handle of '" +
                                     x->sfDataTile->name + "' (T.alloc_l0" +
                                     (i == 3 ? "a" : "b") +
                                     "_sf), not of operand " + names[i - 3] +
                                     " '" + tile->name + "'");
      bad = true;
    }
    if (x->scope == MemoryScope::Global || x->scope == MemoryScope::Local ||
        x->scope == MemoryScope::LocalVar) {
      in.error(p.node(names[i]), name + " scale factors " + names[i] +
                                     " must be on chip (shared memory, a "
                                     "fragment or tensor memory), but '" +
                                     x->name + "' is in " +
                                     lang::getScopeString(x->scope));
      bad = true;
    }
  }

  // k_start and the granularities: keyword-only; T.mma_gemm_blockscaled's
  // are required (the matcher reported a missing one), T.gemm_blockscaled's
  // granularities outside the Ascend form (whose scales are bound to its
  // operands) too, as in TileLang's CUDA and HCU signatures.
  auto &B = in.ir->b;
  llvm::SmallVector<mlir::NamedAttribute, 12> options;
  for (const char *g : {"sf_a_granularity_k", "sf_b_granularity_k"}) {
    Value v = p.getOr(g, Value::none());
    if (v.isAbrupt() || v.isPoison())
      return Value::poison();
    if (v.isNone()) {
      if (ascend)
        continue;
      return in.raise("TypeError",
                      "gemm_blockscaled() missing required keyword-only "
                      "argument: '" +
                          llvm::Twine(g) + "'",
                      p.call);
    }
    if (!v.isIntLike()) {
      return in.raise("TypeError",
                      llvm::Twine(g) +
                          " must be an int (TileLang calls int() on "
                          "it), got " +
                          in.toString(v, true),
                      p.node(g));
    }
    if (v.getInt() <= 0) {
      in.error(p.node(g), llvm::Twine(g) +
                              " is the number of K elements one scale "
                              "factor covers and must be positive, got " +
                              llvm::Twine(v.getInt()));
      bad = true;
      continue;
    }
    options.push_back(B.getNamedAttr(g, B.getI64IntegerAttr(v.getInt())));
  }
  Value kStart = p.getOr("k_start", Value::none());
  if (kStart.isAbrupt() || kStart.isPoison())
    return Value::poison();
  if (kStart.isIntLike() && kStart.getInt() < 0) {
    in.error(p.node("k_start"),
             "k_start is the logical K index of the tile's first element "
             "and cannot be negative, got " +
                 llvm::Twine(kStart.getInt()));
    bad = true;
  }
  if (bad)
    return Value::poison();

  llvm::SmallVector<mlir::Value, 7> operands;
  llvm::SmallVector<mlir::Attribute, 7> params;
  for (int i = 0; i < 5; ++i) {
    mlir::Value v = in.regionValue(regs[i], p.node(names[i]));
    if (!v)
      return Value::poison();
    operands.push_back(v);
    params.push_back(B.getStringAttr(names[i]));
  }
  if (std::optional<Value> mbar = p.get("mbar"); mbar && !mbar->isNone()) {
    RegionObj *r = in.asRegion(*mbar, p.node("mbar"));
    mlir::Value v = r ? in.regionValue(r, p.node("mbar")) : mlir::Value();
    if (!v)
      return Value::poison();
    operands.push_back(v);
    params.push_back(B.getStringAttr("mbar"));
  }
  if (!kStart.isNone()) {
    Scalar k = in.toScalar(kStart, p.node("k_start"), B.getI32Type());
    if (!k)
      return Value::poison();
    operands.push_back(k.value);
    params.push_back(B.getStringAttr("k_start"));
  }

  auto flag = [&](llvm::StringRef param) {
    if (p.flag(param, false))
      options.push_back(B.getNamedAttr(param, B.getBoolAttr(true)));
  };
  flag("transpose_A");
  flag("transpose_B");
  flag("clear_accum");
  flag("use_2cta");
  flag("a_packed_words");
  flag("sf_b_swizzled");
  flag("a_scale_k_major");
  flag("b_scale_k_major");
  for (llvm::StringRef param :
       {"k_pack", "sf_a_granularity_m", "sf_b_granularity_n"}) {
    Value v = p.getOr(param, Value::none());
    if (v.isIntLike() && v.getInt() != 1)
      options.push_back(B.getNamedAttr(param, B.getI64IntegerAttr(v.getInt())));
  }
  if (std::optional<Value> pol = p.get("policy")) {
    llvm::StringRef policy = "Square";
    if (pol->isObj(ObjKind::EnumMember))
      policy = pol->as<EnumMemberObj>()->info->getShortName();
    else if (pol->isIntLike() && pol->getInt() == 1)
      policy = "FullRow";
    else if (pol->isIntLike() && pol->getInt() == 2)
      policy = "FullCol";
    options.push_back(B.getNamedAttr("policy", B.getStringAttr(policy)));
  }
  for (llvm::StringRef param : {"sf_layout", "scale_dtype"}) {
    Value v = p.getOr(param, Value::none());
    if (v.isStr())
      options.push_back(B.getNamedAttr(param, B.getStringAttr(getStr(v))));
    else if (v.is(ValueKind::DType))
      options.push_back(
          B.getNamedAttr(param, B.getStringAttr(v.getDType().getName())));
  }
  tile::IntrinsicOp::create(
      B, in.ir->loc(p.call), mlir::TypeRange(), B.getStringAttr(name), operands,
      B.getArrayAttr(params), B.getDictionaryAttr(options));
  return Value::none();
}
