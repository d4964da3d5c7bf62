//===- CppEmitterTileOps.cpp - Tile operations for the CPU target ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.copy, T.fill/T.clear, T.gemm, T.reduce_*, T.cumsum, T.atomic_add and
// T.print as host loops. Accumulation happens in the accumulator's dtype
// (float for the small float formats) and every store rounds to the
// destination's dtype.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

/// True when dimension \p d of \p t is the static extent 1.
static bool isUnitDim(tile::BufferType t, unsigned d) {
  tile::Dim dim = t.getDim(d);
  return dim.isStatic() && dim.getValue() == 1;
}

/// The type arithmetic on elements of \p t accumulates in: float for f16,
/// bf16, fp8, tf32 and f32; double for f64; the value type for signed
/// integers and the unsigned type itself for unsigned ones.
static Type getAccumulatorType(Type t) {
  if (t.isF64())
    return t;
  if (isa<FloatType>(t))
    return Float32Type::get(t.getContext());
  // Unsigned integers stay unsigned (max/min compare them as such).
  if (t.isUnsignedInteger())
    return t;
  return tile::getElementValueType(t);
}

std::string Emitter::coversCheck(
    ArrayRef<std::pair<Value, std::vector<std::string>>> boxes) {
  std::vector<std::string> checks;
  // A rank-0 buffer is a one-element view of rank 1 (viewRank).
  for (const auto &[view, box] : boxes)
    checks.push_back("tlc::cpu::covers(" + expr(view) + ", {" +
                     (box.empty() ? "1" : llvm::join(box, ", ")) + "})");
  return llvm::join(checks, " && ");
}

void Emitter::emitWithFastPath(llvm::StringRef check,
                               llvm::function_ref<void()> loops) {
  if (check.empty()) {
    loops();
    return;
  }
  open(("if (" + check + ")").str());
  bool saved = fastVersion;
  fastVersion = true;
  loops();
  fastVersion = saved;
  --indent;
  line("} else {");
  ++indent;
  loops();
  close();
}

LogicalResult Emitter::emitPairedLoops(
    Operation *op, Value a, Value b,
    function_ref<void(ArrayRef<std::string>, ArrayRef<std::string>)> body,
    bool withFastPath, RowBody rowBody) {
  auto ta = cast<tile::BufferType>(a.getType());
  auto tb = cast<tile::BufferType>(b.getType());
  SmallVector<unsigned> keepA, keepB;
  for (unsigned d = 0; d < ta.getRank(); ++d)
    if (!isUnitDim(ta, d))
      keepA.push_back(d);
  for (unsigned d = 0; d < tb.getRank(); ++d)
    if (!isUnitDim(tb, d))
      keepB.push_back(d);
  std::vector<std::string> idxA(ta.getRank(), "0"), idxB(tb.getRank(), "0");

  if (keepA.size() == keepB.size()) {
    std::vector<std::string> exts;
    for (size_t k = 0; k < keepA.size(); ++k) {
      // Prefer a static extent; both are equal when the program is valid.
      bool bStatic = tb.getDim(keepB[k]).isStatic();
      auto e = bStatic || !ta.getDim(keepA[k]).isStatic()
                   ? extent(tb, keepB[k], op)
                   : extent(ta, keepA[k], op);
      if (failed(e))
        return failure();
      exts.push_back(*e);
    }
    // The boxes of indices the loops visit in each view.
    std::vector<std::string> boxA(ta.getRank(), "1"), boxB(tb.getRank(), "1");
    for (size_t k = 0; k < keepA.size(); ++k) {
      boxA[keepA[k]] = "int64_t(" + exts[k] + ")";
      boxB[keepB[k]] = "int64_t(" + exts[k] + ")";
    }
    std::string check =
        withFastPath ? coversCheck({{a, boxA}, {b, boxB}}) : std::string();
    emitWithFastPath(check, [&] {
      if (fastVersion && rowBody && !exts.empty()) {
        // The innermost dimension as one call on a row.
        std::vector<std::string> vars =
            openLoops(ArrayRef(exts).drop_back(), "i");
        for (size_t k = 0; k < vars.size(); ++k) {
          idxA[keepA[k]] = vars[k];
          idxB[keepB[k]] = vars[k];
        }
        rowBody(idxA, idxB, keepA.back(), keepB.back(), exts.back());
        closeLoops(vars.size());
        return;
      }
      std::vector<std::string> vars = openLoops(exts, "i");
      for (size_t k = 0; k < vars.size(); ++k) {
        idxA[keepA[k]] = vars[k];
        idxB[keepB[k]] = vars[k];
      }
      body(idxA, idxB);
      closeLoops(vars.size());
    });
    return success();
  }

  // Symbolic extents that may be 1 at run time: walk both in row-major
  // order with one linear index.
  std::vector<std::string> extA, extB;
  for (unsigned d = 0; d < ta.getRank(); ++d) {
    auto e = extent(ta, d, op);
    if (failed(e))
      return failure();
    extA.push_back("int64_t(" + *e + ")");
  }
  for (unsigned d = 0; d < tb.getRank(); ++d) {
    auto e = extent(tb, d, op);
    if (failed(e))
      return failure();
    extB.push_back("int64_t(" + *e + ")");
  }
  auto unravel = [&](ArrayRef<std::string> exts, StringRef lin,
                     std::vector<std::string> &idx) {
    for (size_t d = 0; d < exts.size(); ++d) {
      std::string inner = "1";
      for (size_t e = d + 1; e < exts.size(); ++e)
        inner += " * " + exts[e];
      idx[d] = ("(" + lin + " / (" + inner + ")) % " + exts[d]).str();
    }
  };
  std::string total = llvm::join(extA, " * ");
  std::string check =
      withFastPath ? coversCheck({{a, extA}, {b, extB}}) : std::string();
  emitWithFastPath(check, [&] {
    std::vector<std::string> vars = openLoops({total}, "l");
    unravel(extA, vars[0], idxA);
    unravel(extB, vars[0], idxB);
    body(idxA, idxB);
    closeLoops(1);
  });
  return success();
}

LogicalResult Emitter::emitCopy(tile::CopyOp op) {
  auto ts = cast<tile::BufferType>(op.getSrc().getType());
  auto td = cast<tile::BufferType>(op.getDst().getType());
  auto dstStorage = storageType(td.getElementType(), op);
  if (failed(dstStorage) || failed(storageType(ts.getElementType(), op)))
    return failure();
  comment(op, std::string("T.copy ") +
                  tile::stringifyMemoryScope(ts.getScope()).str() + " " +
                  ts.getShapeString() + " -> " +
                  tile::stringifyMemoryScope(td.getScope()).str() + " " +
                  td.getShapeString() +
                  (ts.getScope() == tile::MemoryScope::Global ||
                           td.getScope() == tile::MemoryScope::Global
                       ? " (global accesses guarded)"
                       : ""));
  bool convert = ts.getElementType() != td.getElementType();
  // Packed fp4 and int4 (two elements a byte) have no row copy of bytes.
  bool packed = isPackedNibble(ts.getElementType()) ||
                isPackedNibble(td.getElementType());
  // A named lambda: a RowBody (function_ref) must not outlive its callee.
  auto rowCopy = [&](ArrayRef<std::string> src, ArrayRef<std::string> dst,
                     unsigned dimSrc, unsigned dimDst, StringRef n) {
    std::string s = expr(op.getSrc()), d = expr(op.getDst());
    line("tlc::cpu::copyRow(&" + d + ".at({" + llvm::join(dst, ", ") + "}), " +
         d + ".stride[" + std::to_string(dimDst) + "], &" + s + ".at({" +
         llvm::join(src, ", ") + "}), " + s + ".stride[" +
         std::to_string(dimSrc) + "], int64_t(" + n + "));");
  };
  return emitPairedLoops(
      op, op.getSrc(), op.getDst(),
      [&](ArrayRef<std::string> src, ArrayRef<std::string> dst) {
        std::string v = loadExpr(op.getSrc(), src, op, fastGuard(op.getSrc()));
        if (convert)
          v = "tlc::cpu::cast<" + *dstStorage + ">(" + v + ")";
        line(storeStmt(op.getDst(), dst, v, op, fastGuard(op.getDst())));
      },
      /*withFastPath=*/true, packed ? RowBody(nullptr) : RowBody(rowCopy));
}

LogicalResult Emitter::emitFill(Operation *op, Value dst,
                                std::string valueExpr) {
  auto td = cast<tile::BufferType>(dst.getType());
  std::vector<std::string> exts;
  for (unsigned d = 0; d < td.getRank(); ++d) {
    auto e = extent(td, d, op);
    if (failed(e))
      return failure();
    exts.push_back(*e);
  }
  std::string v = valueExpr;
  if (!exts.empty() && valueExpr.find('(') != std::string::npos &&
      valueExpr.size() > 24) {
    // Hoist a converted value out of the loops.
    auto st = storageType(td.getElementType(), op);
    if (failed(st))
      return failure();
    v = fresh("fill_value");
    line("const " + *st + " " + v + " = " + valueExpr + ";");
  }
  std::vector<std::string> box;
  for (const std::string &e : exts)
    box.push_back("int64_t(" + e + ")");
  emitWithFastPath(exts.empty() ? "" : coversCheck({{dst, box}}), [&] {
    std::vector<std::string> vars = openLoops(exts, "i");
    line(storeStmt(dst, vars, v, op, fastGuard(dst)));
    closeLoops(vars.size());
  });
  return success();
}

LogicalResult Emitter::emitGemm(tile::GemmOp op) {
  if (op->hasAttr("tile.use_2cta"))
    return emitGemm2Cta(op);
  auto ta = cast<tile::BufferType>(op.getA().getType());
  auto tb = cast<tile::BufferType>(op.getB().getType());
  auto tc = cast<tile::BufferType>(op.getC().getType());
  if (ta.getRank() < 2 || tb.getRank() < 2 || tc.getRank() < 2)
    return op.emitError("the CPU target needs T.gemm operands of rank >= 2");
  unsigned ra = ta.getRank(), rc = tc.getRank();
  auto m = extent(tc, rc - 2, op);
  auto n = extent(tc, rc - 1, op);
  auto k = extent(ta, op.getTransposeA() ? ra - 2 : ra - 1, op);
  Type accType = getAccumulatorType(tc.getElementType());
  auto acc = valueType(accType, op);
  auto cStorage = storageType(tc.getElementType(), op);
  if (failed(m) || failed(n) || failed(k) || failed(acc) || failed(cStorage) ||
      failed(storageType(ta.getElementType(), op)) ||
      failed(storageType(tb.getElementType(), op)))
    return failure();
  // f32 (or tf32) A and B: TileLang's CUDA back end multiplies them with
  // mma.sync/wgmma .tf32, passing the f32 bits unchanged, and the tensor
  // cores drop their 13 low mantissa bits; the CPU target models that so
  // that it is the reference those GPU kernels are checked against.
  auto isF32Like = [](Type t) { return t.isF32() || t.isTF32(); };
  bool tf32 = isF32Like(ta.getElementType()) && isF32Like(tb.getElementType());
  // f16 A and B into an f16 accumulator: mma.sync .f16 rounds the sums to
  // f16 after every k16 instruction; the CPU target rounds there too.
  bool f16Acc = ta.getElementType().isF16() && tb.getElementType().isF16() &&
                tc.getElementType().isF16();
  comment(op, std::string("T.gemm: C[") + *m + ", " + *n + "] " +
                  (op.getClearAccum() ? "= " : "+= ") +
                  (op.getTransposeA() ? "A^T" : "A") + " * " +
                  (op.getTransposeB() ? "B^T" : "B") + ", K = " + *k +
                  ", accumulated in " + *acc +
                  (tf32     ? ", A and B read as tf32"
                   : f16Acc ? ", rounded to f16 every 16 k as mma.sync .f16"
                            : ""));
  // tlc::cpu::gemm adds the products in k order per element, as the loop
  // nest `acc += A[i][k] * B[k][j]` does, over operands converted once.
  line("tlc::cpu::gemm<" + *acc + ">(" + expr(op.getA()) + ", " +
       expr(op.getB()) + ", " + expr(op.getC()) + ", " + *m + ", " + *n + ", " +
       *k + ", " + (op.getTransposeA() ? "true" : "false") + ", " +
       (op.getTransposeB() ? "true" : "false") + ", " +
       (op.getClearAccum() ? "true" : "false") +
       (tf32     ? ", /*tf32=*/true"
        : f16Acc ? ", /*tf32=*/false, /*roundEvery=*/16"
                 : "") +
       ");");
  return success();
}

std::optional<LogicalResult>
Emitter::emitBlockScaledIntrinsic(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (callee != "T.tcgen05_sf_warp_transpose" &&
      callee != "T.tcgen05_cp_warpx4" && callee != "T.tcgen05_gemm_blockscaled")
    return std::nullopt;
  // TileLang's earlier name of T.tcgen05_cp_warpx4, T.tcgen05_cp, is the
  // same callee in the IR: diagnostics name both.
  StringRef named = callee == "T.tcgen05_cp_warpx4"
                        ? StringRef("T.tcgen05_cp / T.tcgen05_cp_warpx4")
                        : callee;
  auto fail = [&](const Twine &why) {
    op.emitError() << named << ": " << why;
    return failure();
  };
  // use_2cta=False is as if absent; True (the CTA pair's cta_group::2) and
  // a value known only at run time are not generated here.
  if (Value pair = intrinsicArg(op, "use_2cta");
      pair && !matchPattern(pair, m_Zero()))
    return fail("use_2cta=True (the CTA pair's tcgen05 instructions, "
                "cta_group::2) is not generated by the CPU target");
  // A static [rows, 4] uint8 tile of scale factors (leading extents 1),
  // rows a multiple of 128: 512-byte groups of 128 rows' four factors.
  auto sfTile = [&](Value v) {
    auto t = v ? dyn_cast<tile::BufferType>(v.getType()) : tile::BufferType();
    if (!t || t.getRank() < 2 || !t.isStatic() ||
        !t.getElementType().isUnsignedInteger(8))
      return false;
    ArrayRef<int64_t> s = t.getShape();
    for (int64_t e : s.drop_back(2))
      if (e != 1)
        return false;
    return s.back() == 4 && s.end()[-2] % 128 == 0;
  };
  if (callee == "T.tcgen05_sf_warp_transpose") {
    Value src = intrinsicArg(op, "smem_src");
    if (!sfTile(src))
      return fail("takes a static [rows, 4] uint8 shared tile of scale "
                  "factors, rows a multiple of 128");
    comment(op, "T.tcgen05_sf_warp_transpose: each 128 rows' 32-bit words "
                "permuted (word 4m + k <- word 32k + m)");
    line("tlc::cpu::sfWarpTranspose(" + expr(src) + ");");
    return success();
  }
  if (callee == "T.tcgen05_cp_warpx4") {
    Value src = intrinsicArg(op, "smem_src"),
          dst = intrinsicArg(op, "tmem_dst");
    if (!sfTile(src))
      return fail("takes a static [rows, 4] uint8 shared tile of scale "
                  "factors, rows a multiple of 128");
    auto dt =
        dst ? dyn_cast<tile::BufferType>(dst.getType()) : tile::BufferType();
    int64_t rows = cast<tile::BufferType>(src.getType()).getShape().end()[-2];
    // tmem_col_offset=: a constant first column (TileLang's default 0).
    Value offsetArg = intrinsicArg(op, "tmem_col_offset");
    APInt offsetBits(64, 0);
    if (offsetArg && !matchPattern(offsetArg, m_ConstantInt(&offsetBits)))
      return fail("tmem_col_offset= must be a constant on the CPU target");
    int64_t offset = offsetBits.getSExtValue();
    if (!dt || dt.getScope() != tile::MemoryScope::TensorMemory ||
        dt.getRank() != 2 || !dt.isStatic() ||
        !dt.getElementType().isUnsignedInteger(8) || dt.getShape()[0] != 128 ||
        offset < 0 || dt.getShape()[1] < offset + rows / 128 * 4)
      return fail("copies " + Twine(rows) + " rows of scale factors into " +
                  "columns [" + Twine(offset) + ", " +
                  Twine(offset + rows / 128 * 4) +
                  ") of a [128, cols] uint8 tensor memory tile");
    comment(op, "T.tcgen05_cp_warpx4: the permuted scale factors into "
                "tensor memory (row r's factor s at [r % 128, 4 * (r / 128) "
                "+ s])");
    line("tlc::cpu::tcgen05CopyScaleFactors(" + expr(src) + ", " + expr(dst) +
         (offset ? ", " + std::to_string(offset) : std::string()) + ");");
    return success();
  }
  Value a = intrinsicArg(op, "A"), b = intrinsicArg(op, "B"),
        c = intrinsicArg(op, "C"), sfa = intrinsicArg(op, "SFA_tmem"),
        sfb = intrinsicArg(op, "SFB_tmem");
  for (StringRef unsupported :
       {"k_start", "sf_a_granularity_k", "sf_b_granularity_k", "wg_wait"})
    if (intrinsicArg(op, unsupported))
      return fail(unsupported + "= is not generated (sf_a_id / sf_b_id "
                                "select the scale factors)");
  auto bt = [](Value v) {
    return v ? dyn_cast<tile::BufferType>(v.getType()) : tile::BufferType();
  };
  tile::BufferType ta = bt(a), tb = bt(b), tc = bt(c), tsa = bt(sfa),
                   tsb = bt(sfb);
  if (!ta || !tb || !tc || !tsa || !tsb || ta.getRank() < 2 ||
      tb.getRank() < 2 || tc.getRank() != 2 || !tc.isStatic() ||
      tsa.getRank() != 2 || tsb.getRank() != 2 ||
      !tsa.getElementType().isUnsignedInteger(8) ||
      !tsb.getElementType().isUnsignedInteger(8))
    return fail("takes A and B tiles, a [M, N] accumulator and [128, cols] "
                "uint8 tensor memory tiles of scale factors");
  auto isTrue = [&](StringRef name) {
    Value v = intrinsicArg(op, name);
    IntegerAttr attr;
    return v && matchPattern(v, m_Constant(&attr)) && attr.getInt() != 0;
  };
  bool transA = isTrue("transpose_A"), transB = isTrue("transpose_B");
  int64_t m = tc.getShape()[0], n = tc.getShape()[1];
  // Four factors a column for each 128 rows of A (M) and B (N).
  for (auto [sf, rows] :
       {std::pair<tile::BufferType, int64_t>{tsa, m}, {tsb, n}})
    if (!sf.isStatic() || sf.getShape()[1] < (rows + 127) / 128 * 4)
      return fail("the scale factors of " + Twine(rows) + " rows take [128, " +
                  Twine((rows + 127) / 128 * 4) +
                  "] (four a column for each 128 rows)");
  unsigned ra = ta.getRank();
  auto k = extent(ta, transA ? ra - 2 : ra - 1, op);
  if (failed(k))
    return failure();
  std::string clear = "false";
  if (Value v = intrinsicArg(op, "clear_accum"))
    clear = "bool(" + expr(v) + ")";
  auto id = [&](StringRef name) {
    Value v = intrinsicArg(op, name);
    return v ? "int64_t(" + expr(v) + ")" : std::string("0");
  };
  comment(op, "T.tcgen05_gemm_blockscaled: C[" + std::to_string(m) + ", " +
                  std::to_string(n) + "] (+)= (A * 2^(SFA - 127)) (B * " +
                  "2^(SFB - 127)), K = " + *k);
  line("tlc::cpu::gemmBlockScaled(" + expr(a) + ", " + expr(b) + ", " +
       expr(c) + ", " + expr(sfa) + ", " + expr(sfb) + ", " +
       std::to_string(m) + ", " + std::to_string(n) + ", " + *k + ", " +
       (transA ? "true" : "false") + ", " + (transB ? "true" : "false") + ", " +
       clear + ", " + id("sf_a_id") + ", " + id("sf_b_id") + ");");
  // mbar: one arrival once the MMA is done, which on the CPU it is.
  if (intrinsicArg(op, "mbar")) {
    FailureOr<std::string> bar = mbarrierAddress(op, "mbar");
    if (failed(bar))
      return failure();
    line("tlc::cpu::mbarrierArrive(st, " + locLiteral(op->getLoc()) + ", " +
         *bar + ");");
  }
  return success();
}

LogicalResult Emitter::emitReduce(tile::ReduceOp op) {
  auto ts = cast<tile::BufferType>(op.getSrc().getType());
  auto td = cast<tile::BufferType>(op.getDst().getType());
  unsigned dim = op.getDim();
  if (dim >= ts.getRank())
    return op.emitError("reduction dimension out of range");
  Type accType = getAccumulatorType(td.getElementType());
  auto acc = valueType(accType, op);
  auto dStorage = storageType(td.getElementType(), op);
  if (failed(acc) || failed(dStorage) ||
      failed(storageType(ts.getElementType(), op)))
    return failure();
  bool isFloat = isa<FloatType>(accType);
  using K = tile::ReduceKind;
  K kind = op.getKind();
  std::string init, lim = "std::numeric_limits<" + *acc + ">";
  switch (kind) {
  case K::Sum:
  case K::AbsSum:
  case K::AbsMax:
  case K::BitOr:
  case K::BitXor:
    init = *acc + "(0)";
    break;
  case K::Max:
    init = isFloat ? "-" + lim + "::infinity()" : lim + "::lowest()";
    break;
  case K::Min:
    init = isFloat ? lim + "::infinity()" : lim + "::max()";
    break;
  case K::BitAnd:
    init = *acc + "(~" + *acc + "(0))";
    break;
  }
  auto combine = [&](StringRef a, StringRef b) -> std::string {
    switch (kind) {
    case K::Sum:
    case K::AbsSum:
      return (a + " + " + b).str();
    case K::Max:
    case K::AbsMax:
      return ("std::max<" + *acc + ">(" + a + ", " + b + ")").str();
    case K::Min:
      return ("std::min<" + *acc + ">(" + a + ", " + b + ")").str();
    case K::BitAnd:
      return (*acc + "(" + a + " & " + b + ")").str();
    case K::BitOr:
      return (*acc + "(" + a + " | " + b + ")").str();
    case K::BitXor:
      return (*acc + "(" + a + " ^ " + b + ")").str();
    }
    llvm_unreachable("unknown reduction");
  };
  bool isAbs = kind == K::AbsSum || kind == K::AbsMax;
  comment(op, "T.reduce_" + tile::stringifyReduceKind(kind).str() +
                  " over dimension " + std::to_string(dim) +
                  (op.getClear() ? ", clear" : ", accumulate into dst") +
                  ", in " + *acc);

  std::vector<std::string> outerExts;
  auto inner = splitExtents(ts, dim, op, outerExts);
  if (failed(inner))
    return failure();
  // The boxes of indices read and written, for the fast path.
  std::vector<std::string> srcBox, dstBox;
  for (unsigned d = 0, o = 0; d < ts.getRank(); ++d)
    srcBox.push_back("int64_t(" + (d == dim ? *inner : outerExts[o++]) + ")");
  if (td.getRank() == ts.getRank()) {
    dstBox = srcBox;
    dstBox[dim] = "1";
  } else {
    for (const std::string &e : outerExts)
      dstBox.push_back("int64_t(" + e + ")");
  }
  if (dstBox.empty())
    dstBox.push_back("1");
  bool boxesMatch = dstBox.size() == size_t(td.getRank());
  std::string check =
      boxesMatch ? coversCheck({{op.getSrc(), srcBox}, {op.getDst(), dstBox}})
                 : std::string();
  emitWithFastPath(check, [&] {
    std::vector<std::string> outer = openLoops(outerExts, "i");
    std::string accName = fresh("acc"), r = fresh("r");
    line(*acc + " " + accName + " = " + init + ";");
    open("for (int64_t " + r + " = 0; " + r + " < " + *inner + "; ++" + r +
         ")");
    std::vector<std::string> srcIdx;
    for (unsigned d = 0, o = 0; d < ts.getRank(); ++d)
      srcIdx.push_back(d == dim ? r : outer[o++]);
    std::string x = "tlc::cpu::cast<" + *acc + ">(" +
                    loadExpr(op.getSrc(), srcIdx, op, fastGuard(op.getSrc())) +
                    ")";
    if (isAbs)
      x = isFloat ? "std::fabs(" + x + ")"
                  : "(" + x + " < 0 ? -" + x + " : " + x + ")";
    line(accName + " = " + combine(accName, x) + ";");
    close();
    std::vector<std::string> dstIdx;
    if (td.getRank() == ts.getRank()) {
      dstIdx = srcIdx;
      dstIdx[dim] = "0";
    } else {
      dstIdx = outer;
    }
    if (dstIdx.empty())
      dstIdx.push_back("0");
    if (!op.getClear()) {
      std::string old =
          "tlc::cpu::cast<" + *acc + ">(" +
          loadExpr(op.getDst(), dstIdx, op, fastGuard(op.getDst())) + ")";
      line(accName + " = " + combine(old, accName) + ";");
    }
    line(storeStmt(op.getDst(), dstIdx,
                   "tlc::cpu::cast<" + *dStorage + ">(" + accName + ")", op,
                   fastGuard(op.getDst())));
    closeLoops(outer.size());
  });
  return success();
}

LogicalResult Emitter::emitCumSum(tile::CumSumOp op) {
  auto ts = cast<tile::BufferType>(op.getSrc().getType());
  auto td = cast<tile::BufferType>(op.getDst().getType());
  unsigned dim = op.getDim();
  if (dim >= ts.getRank())
    return op.emitError("scan dimension out of range");
  Type accType = getAccumulatorType(td.getElementType());
  auto acc = valueType(accType, op);
  auto dStorage = storageType(td.getElementType(), op);
  if (failed(acc) || failed(dStorage))
    return failure();
  comment(op, std::string("T.cumsum over dimension ") + std::to_string(dim) +
                  (op.getReverse() ? ", reverse" : "") + ", in " + *acc);
  std::vector<std::string> outerExts;
  auto n = splitExtents(ts, dim, op, outerExts);
  if (failed(n))
    return failure();
  std::vector<std::string> outer = openLoops(outerExts, "i");
  std::string accName = fresh("acc"), r = fresh("r"), p = fresh("p");
  line(*acc + " " + accName + " = " + *acc + "(0);");
  open("for (int64_t " + r + " = 0; " + r + " < " + *n + "; ++" + r + ")");
  line("const int64_t " + p + " = " +
       (op.getReverse() ? "(" + *n + ") - 1 - " + r : r) + ";");
  std::vector<std::string> idx;
  for (unsigned d = 0, o = 0; d < ts.getRank(); ++d)
    idx.push_back(d == dim ? p : outer[o++]);
  line(accName + " += tlc::cpu::cast<" + *acc + ">(" +
       loadExpr(op.getSrc(), idx, op, guardOf(op.getSrc())) + ");");
  line(storeStmt(op.getDst(), idx,
                 "tlc::cpu::cast<" + *dStorage + ">(" + accName + ")", op,
                 guardOf(op.getDst())));
  close();
  closeLoops(outer.size());
  return success();
}

LogicalResult Emitter::emitAtomicAdd(tile::AtomicAddOp op) {
  auto td = cast<tile::BufferType>(op.getDst().getType());
  auto storage = storageType(td.getElementType(), op);
  if (failed(storage))
    return failure();
  auto call = [&](ArrayRef<std::string> idx, const std::string &value) {
    std::string v = "tlc::cpu::cast<" + *storage + ">(" + value + ")";
    std::string list = "{" + llvm::join(idx, ", ") + "}";
    if (guardOf(op.getDst()) == Guard::Global)
      return "tlc::cpu::atomicAddGuarded(" + expr(op.getDst()) + ", " + list +
             ", " + v + ")";
    return "tlc::cpu::atomicAddChecked(st, " + locLiteral(op.getLoc()) + ", " +
           expr(op.getDst()) + ", " + list + ", " + v + ")";
  };
  if (!op.getIndices().empty() ||
      !isa<tile::BufferType>(op.getValue().getType())) {
    std::vector<std::string> idx;
    for (Value i : op.getIndices())
      idx.push_back(expr(i));
    if (idx.empty())
      idx.push_back("0");
    std::string c = call(idx, expr(op.getValue()));
    if (Value prev = op.getPrev()) {
      auto t = valueType(prev.getType(), op);
      if (failed(t))
        return failure();
      line("const " + *t + " " + define(prev, "prev") + " = tlc::cpu::cast<" +
           *t + ">(" + c + ");");
    } else {
      line(c + ";");
    }
    return success();
  }
  comment(op, "T.atomic_add of a tile");
  return emitPairedLoops(
      op, op.getValue(), op.getDst(),
      [&](ArrayRef<std::string> src, ArrayRef<std::string> dst) {
        line(call(dst,
                  loadExpr(op.getValue(), src, op, guardOf(op.getValue()))) +
             ";");
      });
}

LogicalResult Emitter::emitPrint(tile::PrintOp op) {
  std::string msg;
  for (char c : op.getMsg()) {
    if (c == '"' || c == '\\')
      msg += '\\';
    if (c == '%')
      msg += '%';
    msg += (c == '\n') ? ' ' : c;
  }
  Value v = op.getValue();
  if (!v) {
    line("std::printf(\"" + msg + "\\n\");");
    return success();
  }
  if (!isa<tile::BufferType>(v.getType())) {
    if (failed(valueType(v.getType(), op)))
      return failure();
    line("std::printf(\"" + msg + ": \");");
    line("tlc::cpu::printValue(" + expr(v) + ");");
    line("std::printf(\"\\n\");");
    return success();
  }
  auto t = cast<tile::BufferType>(v.getType());
  std::vector<std::string> exts;
  for (unsigned d = 0; d < t.getRank(); ++d) {
    auto e = extent(t, d, op);
    if (failed(e))
      return failure();
    exts.push_back(*e);
  }
  line("std::printf(\"" + msg + ":\");");
  std::vector<std::string> vars = openLoops(exts, "i");
  line("std::printf(\" \");");
  line("tlc::cpu::printValue(" + loadExpr(v, vars, op, guardOf(v)) + ");");
  closeLoops(vars.size());
  line("std::printf(\"\\n\");");
  return success();
}
