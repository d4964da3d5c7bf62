//===- HIPEmitterGemm.cpp - T.gemm on MFMA for HIP ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.gemm with f16/bf16 A/B in LDS and an f32 accumulator on CDNA: the
// block's wavefronts form the warp grid of the accumulator's MFMA layout
// (gemmAccumulatorFragment with GemmArch::CDNA); each wavefront walks K in
// steps of 16 and issues v_mfma_f32_16x16x16{f16,bf16_1k} per 16 x 16 tile
// of its part of C.
//
// Operand lanes (CDNA3 ISA, "dependent and independent matrix operands" of
// the 16x16x16 instructions): lane l of srcA holds row i = l % 16 at
// k = 4 (l / 16) .. +3, lane l of srcB column j = l % 16 at the same k, and
// lane l of the result D rows 4 (l / 16) .. +3 of column j = l % 16. The
// printer passes B as srcA and A as srcB, so D = (A B)^T and lane l holds
// C[l % 16][4 (l / 16) + r]: consecutive columns of C in its 4 registers,
// the layout mfmaAtomC() gives the accumulator.
//
// 32x32x8 (v_mfma_f32_32x32x8f16 / _bf16_1k; layout inference picks it
// for 16-bit operands when each wavefront's tile of C is a multiple of
// 32 x 32, tag `mfma32.C`): lane l of srcA holds row i = l % 32 at k =
// 4 (l / 32) .. +3, srcB column j = l % 32 likewise, and register v of its
// 16 the result D[8 (v / 4) + 4 (l / 32) + v % 4][l % 32]; swapped as
// above, lane l holds C[l % 32][8 (v / 4) + 4 (l / 32) + v % 4], the
// layout mfma32AtomC() gives.
//
// int8 A/B with an int32 accumulator: steps of K = 32, lane l holding
// k = 8 (l / 16) .. +7 of its row or column (v_mfma_i32_16x16x32_i8's
// layout; the device helper mfmaI32x16x16x32 issues it on CDNA3 and two
// v_mfma_i32_16x16x16i8 on CDNA2); the accumulator is laid out as above.
// With 32x32 tiles (mfma32.C, as for 16-bit operands) steps of K = 16,
// lane l holding k = 8 (l / 32) .. +7 (v_mfma_i32_32x32x16_i8; two
// v_mfma_i32_32x32x8i8 on CDNA2), fp8 likewise (_32x32x16_fp8_fp8 /
// _bf8_bf8), accumulators as 32x32x8's.
// fp8 A/B (OCP e4m3fn, e5m2) with an f32 accumulator take the same lanes
// (v_mfma_f32_16x16x32_fp8_fp8 / _bf8_bf8 on gfx942; mfma.h says how OCP
// values meet CDNA3's FNUZ formats, and what gfx90a/gfx950 issue); FNUZ
// A/B (float8_e4m3fnuz / e5m2fnuz) go to the instruction unchanged.
//
// f32 (or tf32) A/B with an f32 accumulator keep the 16-bit operand
// lanes (4 values of k = 4 (l / T) .. + 3 per lane and step, 16 or 8 k per
// step): the device step issues four v_mfma_f32_16x16x4f32 /
// _32x32x2f32, instruction v taking value v of every lane, which together
// sum the step's K (exact f32 products; tf32 operands are multiplied as
// f32). f16 A/B with an f16 accumulator (16x16 tiles: layout inference
// gives it no mfma32 layout) issue v_mfma_f32_16x16x16f16 on the
// accumulator widened to f32 and round it back after each instruction,
// every 16 k, as mma.sync .f16 on CUDA and the CPU target's reference do.
//
// bf16 A/B with a bf16 accumulator likewise (16x16 tiles, widened to f32
// around each v_mfma_f32_16x16x16bf16_1k and rounded back to bf16).
//
// f64 A/B with an f64 accumulator (16x16 tiles: CDNA has no 32x32 f64
// MFMA) keep the 16-bit operand lanes too, four v_mfma_f64_16x16x4f64 per
// step. That instruction's result is laid out unlike the f32 ones: lane l
// holds D[4 r + l / 16][l % 16] in register r (AMD's matrix instruction
// calculator; IREE's MFMA_F64_16x16x4_F64). Lane l therefore feeds srcA
// row l % 16 from B's column 4 (l % 4) + (l % 16) / 4 of the tile, so that
// D[4 r + g][j] = C[j][4 g + r]: the accumulator keeps mfmaAtomC's layout
// and the rest of the program is unchanged. A register B operand (whose
// lanes hold the unpermuted columns) is refused.
//
// f16/bf16 A/B into f32 with an even k_pack: each pair of 16-bit steps
// is one mfmaF32x16x16x32 / mfmaF32x32x32x16 (a lane's 8 consecutive k,
// the lanes of gfx950's v_mfma_f32_16x16x32_f16 / _bf16 and 32x32x16; two
// 16-bit instructions on the other architectures, as before).
//
// T.tvm_mfma (one instruction on a lane's local registers, as TileLang's
// MFMA emitter and hand-written AMD kernels issue it) prints the same
// device step for the same types (mfmaStepHelper): the program has loaded
// the lanes' values itself, so only the element types, the M x N x K of the
// name and the register vectors are checked.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The tlc_device/hip/mfma.h function that issues one MFMA step of the
/// calling wavefront on A/B of element type \p ab (f16, bf16, int8, fp8
/// OCP or FNUZ) over 16 x 16 tiles (32 x 32 when \p tile32): what T.gemm
/// and T.tvm_mfma both print, so the instruction each architecture issues
/// for a type (and fp8's FNUZ scaling) is chosen in one place, mfma.h.
/// \p second is the helper's second operand's type where it differs from
/// \p ab (fp8 of the other format: e4m3 x e5m2; int8 and uint8).
static std::string mfmaStepHelper(Type ab, bool tile32, Type second = {}) {
  if (ab.isF64())
    return "mfmaF64x16x16x16";
  bool int8 = ab.isInteger(8);
  if (!second)
    second = ab;
  if (int8 && (ab.isUnsignedInteger(8) || second.isUnsignedInteger(8)))
    return std::string(tile32 ? "mfmaI32x32x32x16" : "mfmaI32x16x16x32") +
           (ab.isUnsignedInteger(8) ? "<true, " : "<false, ") +
           (second.isUnsignedInteger(8) ? "true>" : "false>");
  bool fnuz = isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(ab);
  bool e5m2 = isa<Float8E5M2Type, Float8E5M2FNUZType>(ab);
  bool fp8 = e5m2 || fnuz || isa<Float8E4M3FNType>(ab);
  std::string fp8Arg = std::string(e5m2 ? "<true" : "<false");
  if (second != ab)
    fp8Arg += std::string(fnuz ? ", true" : ", false") +
              (isa<Float8E5M2Type, Float8E5M2FNUZType>(second) ? ", true>"
                                                               : ", false>");
  else
    fp8Arg += fnuz ? ", true>" : ">";
  return int8   ? (tile32 ? "mfmaI32x32x32x16" : "mfmaI32x16x16x32")
         : fp8  ? (tile32 ? "mfmaF32x32x32x16" : "mfmaF32x16x16x32") + fp8Arg
         : tile32 ? "mfmaF32x32x32x8"
                  : "mfmaF32x16x16x16";
}

LogicalResult Emitter::emitMfmaGemm(GemmOp op) {
  beginOp(op, "T.gemm");
  auto aType = cast<BufferType>(op.getA().getType());
  auto bType = cast<BufferType>(op.getB().getType());
  auto cType = cast<BufferType>(op.getC().getType());
  Type ab = aType.getElementType(), acc = cType.getElementType();
  bool int8 = ab.isInteger(8); // int8 or uint8 (mfma.h corrects uint8)
  bool fnuz = isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(ab);
  bool e5m2 = isa<Float8E5M2Type, Float8E5M2FNUZType>(ab);
  bool fp8 = e5m2 || fnuz || isa<Float8E4M3FNType>(ab);
  bool f32 = ab.isF32() || ab.isTF32();
  // f64 (v_mfma_f64_16x16x4f64, 16x16 tiles only) and 16-bit accumulators
  // of the operands' own type (widened to f32 around each 16x16x16
  // instruction, rounded back after it).
  const bool f64 = ab.isF64() && acc.isF64();
  const bool narrowAcc =
      (ab.isF16() && acc.isF16()) || (ab.isBF16() && acc.isBF16());
  if (!((ab.isF16() || ab.isBF16() || fp8 || f32) && acc.isF32()) &&
      !(int8 && acc.isInteger(32)) && !narrowAcc && !f64) {
    op.emitError("the HIP target lowers T.gemm for f16/bf16, fp8 (e4m3fn, "
                 "e5m2 and their fnuz forms) and f32/tf32 operands with an "
                 "f32 accumulator (v_mfma_f32_16x16x16f16 / _bf16_1k, "
                 "_16x16x32_fp8_fp8 / _bf8_bf8, _16x16x4f32 and their 32x32 "
                 "forms), f16 and bf16 operands with an accumulator of "
                 "their own type (the 16x16x16 instructions, rounded to it "
                 "after each), f64 operands with an f64 accumulator "
                 "(v_mfma_f64_16x16x4f64) and int8 or uint8 operands with "
                 "an int32 accumulator (v_mfma_i32_16x16x32_i8, "
                 "_32x32x16_i8); other types are not generated yet");
    return failure();
  }
  // e4m3 x e5m2 (both OCP or both FNUZ): CDNA3's _fp8_bf8 / _bf8_fp8;
  // int8 x uint8 (either way round).
  Type bElemType = bType.getElementType();
  bool mixed =
      (fp8 && (fnuz ? isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(bElemType)
                    : isa<Float8E4M3FNType, Float8E5M2Type>(bElemType))) ||
      (int8 && bElemType.isInteger(8));
  if (bElemType != ab && !mixed) {
    op.emitError("T.gemm: the HIP target needs A and B of one element type "
                 "(or fp8 of both formats, e4m3 x e5m2, or int8 and uint8)");
    return failure();
  }
  auto cIt = fragments.find(op.getC());
  if (cIt == fragments.end()) {
    op.emitError("T.gemm needs a whole fragment accumulator");
    return failure();
  }
  const FragmentInfo &C = cIt->second;
  // The MFMA tile (16 x 16, or 32 x 32 as layout inference chose it), its
  // lane groups along K, and the accumulator registers of one MFMA.
  const bool tile32 = StringRef(C.layout.getOrigin().tag).starts_with("mfma32");
  if (tile32 && (f64 || narrowAcc)) {
    op.emitError("T.gemm: this accumulator type has 16x16 MFMA tiles only "
                 "on the HIP target, but its layout has 32x32 tiles");
    return failure();
  }
  const int64_t T = tile32 ? 32 : 16, groups = 64 / T, accRegs = T * T / 64;
  // Values of A (and of B) each lane passes to one MFMA, and the K step.
  const int64_t perLane = int8 || fp8 ? 8 : 4, kStep = groups * perLane;
  // K of one register-operand chunk (the operand atoms' K extent).
  const int64_t chunkK = 4 * groups;
  Value a = op.getA(), b = op.getB(), c = op.getC();
  bool aShared = isSharedScope(scopeOf(rootOf(a)));
  bool bShared = isSharedScope(scopeOf(rootOf(b)));
  if (!aShared && !fragments.count(a)) {
    op.emitError("T.gemm: a register A operand must be a whole fragment");
    return failure();
  }
  if (!bShared && !fragments.count(b)) {
    op.emitError("T.gemm: a register B operand must be a whole fragment");
    return failure();
  }
  // f64: the instruction's result holds row 4 r + l / 16 of D in register r
  // of lane l (mfma.h), so lane l feeds B's column 4 (l % 4) + (l % 16) / 4
  // of the tile as srcA row l % 16; C's registers then keep the f32
  // accumulator layout. A register B fragment holds the unpermuted columns.
  if (f64 && !bShared) {
    op.emitError("T.gemm: a float64 gemm reads B from shared memory on the "
                 "HIP target (a register B operand is not generated)");
    return failure();
  }
  // An 8-bit step covers two 16-wide K chunks of the register layouts
  // (lane l holds k = 4 (l / 16) .. + 3 of each): with an operand in
  // registers the lane passes values 0..3 from the first chunk and 4..7
  // from the second, and reads the LDS operand at the same k. The MFMA
  // pairs A's and B's value v of the same lane group, so any common order
  // of k gives the same sums.
  const bool splitK = perLane == 8 && (!aShared || !bShared);
  // k_pack: each lane reads kPack groups of perLane consecutive k from LDS
  // and issues kPack MFMAs per step, group g pairing A's and B's values
  // g perLane .. of the same lane (register operands keep their layout).
  int64_t kPack = 1;
  if (auto kp = op->getAttrOfType<IntegerAttr>("k_pack"))
    kPack = kp.getInt();
  if (!aShared || !bShared)
    kPack = 1;
  const int64_t perStep = perLane * kPack, step = kStep * kPack;
  bool transA = op.getTransposeA(), transB = op.getTransposeB();
  auto matrix = [](BufferType t) {
    SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
    while (s.size() > 2 && s.front() == 1)
      s.erase(s.begin());
    return s;
  };
  SmallVector<int64_t> as = matrix(aType), bs = matrix(bType);
  int64_t m = C.shape[0], n = C.shape[1];
  int64_t k = transA ? as[0] : as[1];
  // K not a multiple of the MFMA K step (K = 20 of f16: TileLang's non-MMA
  // K fallback, upstream test_tilelang_issue_gemm_non_mma_k_fallback, as
  // the CUDA target does for mma.sync): scalar multiply-adds over the whole
  // K, each thread summing the element of C each of its registers holds
  // (the accumulator keeps its MFMA layout: the coordinates come from its
  // fitted map), in float for 16- and 8-bit floats, int for 8-bit integers
  // and double for f64 (a 16-bit accumulator is rounded once per call).
  // Operands in LDS or global memory; register operands keep the refusal.
  if ((transB ? bs[1] : bs[0]) == k && k % step != 0 && aShared && bShared &&
      C.shape.size() == 2) {
    std::string sumType = int8 ? "int" : f64 ? "double" : "float";
    auto element = [&](Value buf, Type elem, const std::string &row,
                       const std::string &col) -> FailureOr<std::string> {
      auto t = cast<BufferType>(buf.getType());
      SmallVector<std::string> idx(t.getRank(), "0");
      idx[t.getRank() - 2] = row;
      idx[t.getRank() - 1] = col;
      FailureOr<RootAccess> access = resolve(buf, idx, op);
      if (failed(access))
        return failure();
      FailureOr<std::string> lv = lvalue(*access, op);
      if (failed(lv))
        return failure();
      return "static_cast<" + sumType + ">(" + fromStorage(elem, *lv) + ")";
    };
    open("");
    line("// T.gemm: K = " + std::to_string(k) +
         " is no multiple of the MFMA K step " + std::to_string(step) +
         ": scalar multiply-adds");
    std::string r = fresh("r"), kx = fresh("k"), sum = fresh("sum");
    open("for (int " + r + " = 0; " + r + " < " + std::to_string(C.regs) +
         "; ++" + r + ")");
    SmallVector<std::string> ij = emitCoords(C, r, "c");
    std::string reg = expr(c) + "[" + r + "]";
    line(sumType + " " + sum + " = " +
         (op.getClearAccum()
              ? std::string("0")
              : "static_cast<" + sumType + ">(" + fromStorage(acc, reg) + ")") +
         ";");
    open("for (int " + kx + " = 0; " + kx + " < " + std::to_string(k) + "; ++" +
         kx + ")");
    FailureOr<std::string> aElem =
        transA ? element(a, ab, kx, ij[0]) : element(a, ab, ij[0], kx);
    FailureOr<std::string> bElem = transB ? element(b, bElemType, ij[1], kx)
                                          : element(b, bElemType, kx, ij[1]);
    if (failed(aElem) || failed(bElem))
      return failure();
    line(sum + " += " + *aElem + " * " + *bElem + ";");
    close();
    line(reg + " = " + toStorage(acc, sum) + ";");
    close();
    close();
    return success();
  }
  if ((transB ? bs[1] : bs[0]) != k || k % step != 0) {
    op.emitError() << "T.gemm: K must agree and be a multiple of " << step
                   << (kPack > 1 ? " (k_pack " + std::to_string(kPack) +
                                       " MFMA steps of K = " +
                                       std::to_string(kStep) + ")"
                                 : std::string())
                   << " on the HIP target";
    return failure();
  }
  const int64_t wave = lang.warpSize;
  const layout::FragmentOrigin &origin = C.layout.getOrigin();
  int64_t warpRows = origin.warpRows, warpCols = origin.warpCols;
  if (warpRows <= 0 || warpCols <= 0 ||
      warpRows * warpCols * wave != numThreads) {
    op.emitError() << "T.gemm: the accumulator has no MFMA wavefront grid "
                      "for this block ("
                   << numThreads << " threads, wavefronts of " << wave << ")";
    return failure();
  }
  int64_t warpM = m / warpRows, warpN = n / warpCols;
  if (warpM % T || warpN % T) {
    op.emitError() << "T.gemm: wavefront tiles must be multiples of " << T
                   << " x " << T;
    return failure();
  }
  int64_t mTiles = warpM / T, nTiles = warpN / T;

  // Accumulator registers of tile (mi, ni): base + q for its accRegs
  // values, q = 4 (q / 4) + q % 4 at column 4 groups (q / 4) + 4 (lane /
  // T) + q % 4 of the tile.
  auto cCoord = [&](int64_t t, int64_t mi, int64_t ni, int64_t q) {
    int64_t w = t / wave, lane = t % wave;
    int64_t wm = w % warpRows, wn = w / warpRows;
    return SmallVector<int64_t>{wm * warpM + mi * T + lane % T,
                                wn * warpN + ni * T + 4 * groups * (q / 4) +
                                    4 * (lane / T) + q % 4};
  };
  SmallVector<BitLinear> cq;
  for (int64_t q = 0; q < accRegs; ++q) {
    FailureOr<BitLinear> f = fitGemmRegisters(
        C, {mTiles, nTiles}, numThreads,
        [&](int64_t t, ArrayRef<int64_t> p) {
          return cCoord(t, p[0], p[1], q);
        },
        op, "accumulator", "MFMA");
    if (failed(f))
      return failure();
    cq.push_back(*f);
  }
  for (int64_t q = 1; q < accRegs; ++q)
    if (cq[q].base[0] != cq[0].base[0] + q || cq[q].coef != cq[0].coef) {
      op.emitError() << "T.gemm: the accumulator layout does not keep each "
                        "MFMA's "
                     << accRegs << " values in consecutive registers";
      return failure();
    }

  // Register operands: lane l's A[m][k .. k + 3] of tile (mi, chunk) in
  // its fragment registers aRegs[v](mi, chunk), B's [k .. k + 3][n] in
  // bRegs[v](ni, chunk), chunks of chunkK (16, or 8 for 32x32 tiles) along
  // K.
  SmallVector<BitLinear> aRegs, bRegs;
  for (int64_t v = 0; v < 4 && !aShared; ++v) {
    FailureOr<BitLinear> f = fitGemmRegisters(
        fragments.find(a)->second, {mTiles, k / chunkK}, numThreads,
        [&](int64_t t, ArrayRef<int64_t> p) {
          int64_t w = t / wave, l = t % wave;
          int64_t wmv = w % warpRows;
          int64_t m = wmv * warpM + p[0] * T + l % T,
                  kc = p[1] * chunkK + 4 * (l / T) + v;
          // A stored [K, M] (transpose_A): the same slots, transposed.
          return transA ? SmallVector<int64_t>{kc, m}
                        : SmallVector<int64_t>{m, kc};
        },
        op, "A", "MFMA");
    if (failed(f))
      return failure();
    aRegs.push_back(*f);
  }
  for (int64_t v = 0; v < 4 && !bShared; ++v) {
    FailureOr<BitLinear> f = fitGemmRegisters(
        fragments.find(b)->second, {nTiles, k / chunkK}, numThreads,
        [&](int64_t t, ArrayRef<int64_t> p) {
          int64_t w = t / wave, l = t % wave;
          int64_t wnv = w / warpRows;
          int64_t n = wnv * warpN + p[0] * T + l % T,
                  kc = p[1] * chunkK + 4 * (l / T) + v;
          return transB ? SmallVector<int64_t>{n, kc}
                        : SmallVector<int64_t>{kc, n};
        },
        op, "B", "MFMA");
    if (failed(f))
      return failure();
    bRegs.push_back(*f);
  }

  FailureOr<std::string> st = storageType(ab, op);
  if (failed(st))
    return failure();
  std::string wv = fresh("wave"), lane = fresh("lane"), wm = fresh("wm"),
              wn = fresh("wn"), kk = fresh("kk"), mi = fresh("mi"),
              ni = fresh("ni"), r = fresh("r");
  open("");
  if (op.getClearAccum()) {
    std::string i = fresh("i");
    line("#pragma unroll");
    line("for (int " + i + " = 0; " + i + " < " + Twine(C.regs) + "; ++" + i +
         ") " + expr(c) + "[" + i + "] = " +
         (int8           ? "0"
          : acc.isBF16() ? ns + "bfloat16{0}"
          : f64          ? "0.0"
                         : "0.0f") +
         ";");
  }
  line("const int " + wv + " = tid / " + Twine(wave) + ", " + lane +
       " = tid % " + Twine(wave) + ";");
  line("const int " + wm + " = " + wv + " % " + Twine(warpRows) + ", " + wn +
       " = " + wv + " / " + Twine(warpRows) + ";  // wavefront grid " +
       Twine(warpRows) + " x " + Twine(warpCols));
  // The element of a shared operand at (row, col) of its matrix.
  auto element = [&](Value buf, const std::string &row,
                     const std::string &col) -> FailureOr<std::string> {
    auto t = cast<BufferType>(buf.getType());
    SmallVector<std::string> idx(t.getRank(), "0");
    idx[t.getRank() - 2] = row;
    idx[t.getRank() - 1] = col;
    FailureOr<RootAccess> access = resolve(buf, idx, op);
    if (failed(access))
      return failure();
    return lvalue(*access, op);
  };
  // With splitK, value r of a lane comes from K chunk 2 kk + r / 4 of the
  // register layouts, at k = 4 (lane / T) + r % 4 in it.
  std::string kLane = splitK
                          ? "(" + kk + " * " + std::to_string(kStep) + " + " +
                                std::to_string(chunkK) + " * (" + r +
                                " / 4) + 4 * (" + lane + " / " +
                                std::to_string(T) + ") + " + r + " % 4)"
                          : "(" + kk + " * " + std::to_string(step) + " + " +
                                std::to_string(perStep) + " * (" + lane +
                                " / " + std::to_string(T) + ") + " + r + ")";
  const std::string tStr = std::to_string(T);
  std::string mRow = "(" + wm + " * " + std::to_string(warpM) + " + " + mi +
                     " * " + tStr + " + " + lane + " % " + tStr + ")";
  std::string nCol = "(" + wn + " * " + std::to_string(warpN) + " + " + ni +
                     " * " + tStr + " + " +
                     (f64 ? "4 * (" + lane + " % 4) + " + lane + " % 16 / 4"
                          : lane + " % " + tStr) +
                     ")";
  FailureOr<std::string> aElem = !aShared
                                     ? FailureOr<std::string>(std::string())
                                 : transA ? element(a, kLane, mRow)
                                          : element(a, mRow, kLane);
  FailureOr<std::string> bElem = !bShared
                                     ? FailureOr<std::string>(std::string())
                                 : transB ? element(b, nCol, kLane)
                                          : element(b, kLane, nCol);
  if (failed(aElem) || failed(bElem))
    return failure();
  // Vector LDS reads (ds_read_b64 / _b128): a K-contiguous LDS operand
  // whose lane values are perStep consecutive k starting at a multiple of
  // perStep. LDS tiles are row-major with runs of ldsSwizzle's vec (else
  // 16-byte chunks) XOR-swizzled by the row, so such a run of at most 16
  // bytes stays contiguous and aligned when the rows (the root's last
  // dimension, which the operand spans) are a multiple of perStep long and
  // the swizzle keeps perStep elements together.
  const int64_t elemBytes = getElementStorageBytes(ab);
  auto vectorBytes = [&](Value buf, bool kInner) -> int64_t {
    int64_t bytes = perStep * elemBytes;
    auto root = cast<BufferType>(rootOf(buf).getType());
    auto t = cast<BufferType>(buf.getType());
    if (!kInner || splitK || (bytes != 8 && bytes != 16) || !root.isStatic() ||
        root.getShape().back() != t.getShape().back() ||
        root.getShape().back() % perStep != 0)
      return 0;
    auto lds = ldsSwizzle.find(rootOf(buf));
    if (lds != ldsSwizzle.end() && lds->second.vec % perStep != 0)
      return 0;
    // ds_read_b64/_b128 need aligned addresses. An operand spanning whole
    // rows starts at a row (a multiple of perStep elements) whatever its
    // offsets; should a region ever start elsewhere (constant offsets off
    // the vector, or dynamic ones their divisors do not prove aligned), it
    // is read element by element.
    if (originAlignment(buf, bytes).kind != OriginAlignment::Aligned)
      return 0;
    return bytes;
  };
  const int64_t aVec = aShared ? vectorBytes(a, !transA) : 0;
  const int64_t bVec = bShared ? vectorBytes(b, transB) : 0;
  // gfx950's transposing LDS reads for 16- and 8-bit operands stored
  // MN-contiguous (A [K, M], B [K, N]): with n = 8 / elemBytes elements in
  // an 8-byte chunk, each group of 16 lanes reads an n x 16 block (n k rows
  // of 16 m) whose chunks the lanes address in row-major order (lane j: row
  // j / (16 / n), columns n (j % (16 / n)) .. + n - 1), and lane j receives
  // column j, the n consecutive k of its own m (ds_read_b64_tr_b16 with n =
  // 4, ds_read_b64_tr_b8 with n = 8). Only where every architecture built
  // is gfx950 (a bundle with older ones shares the source). Elsewhere the
  // same block takes one ds_read_b64 a lane, lane j reading row j % n,
  // columns n (j / n) .. + n - 1, and each group of n lanes transposes its
  // n x n sub-block with DPP moves (readDppTransposed). Either way the
  // chunks must stay whole and aligned in the swizzled tile, as for the
  // K-contiguous vectors.
  const bool hwTr = options.amdArch == "gfx950";
  const int64_t trN = elemBytes == 1 || elemBytes == 2 ? 8 / elemBytes : 0;
  auto transposedReads = [&](Value buf, bool kInner) -> bool {
    if (kInner || splitK || !trN || perStep % trN != 0)
      return false;
    auto root = cast<BufferType>(rootOf(buf).getType());
    auto t = cast<BufferType>(buf.getType());
    if (!root.isStatic() || root.getShape().back() != t.getShape().back() ||
        root.getShape().back() % trN != 0)
      return false;
    auto lds = ldsSwizzle.find(rootOf(buf));
    if (lds != ldsSwizzle.end() && lds->second.vec % trN != 0)
      return false;
    return originAlignment(buf, 8).kind == OriginAlignment::Aligned;
  };
  const bool aTr = aShared && !aVec && transposedReads(a, !transA);
  const bool bTr = bShared && !bVec && transposedReads(b, transB);
  // The chunk lane l addresses for the h-th read of a step: k row n h + (l
  // % 16) / (16 / n) of its group's k, columns from 16 ((l % T) / 16) + n (l
  // % (16 / n)) of its tile's m (n); for the DPP transpose k row n h + l %
  // n, columns from 16 ((l % T) / 16) + n ((l % 16) / n).
  const std::string trNStr = std::to_string(trN),
                    trAcross = std::to_string(trN ? 16 / trN : 0);
  std::string kTr =
      "(" + kk + " * " + std::to_string(step) + " + " +
      std::to_string(perStep) + " * (" + lane + " / " + std::to_string(T) +
      ") + " + r + " * " + trNStr + " + " +
      (hwTr ? lane + " % 16 / " + trAcross : lane + " % " + trNStr) + ")";
  auto trColumn = [&](const std::string &w, int64_t warpExtent,
                      const std::string &tile) {
    return "(" + w + " * " + std::to_string(warpExtent) + " + " + tile + " * " +
           std::to_string(T) + " + " +
           (T == 16 ? std::string() : "16 * (" + lane + " % 32 / 16) + ") +
           trNStr + " * (" +
           (hwTr ? lane + " % " + trAcross : lane + " % 16 / " + trNStr) + "))";
  };
  FailureOr<std::string> aTrElem =
      aTr ? element(a, kTr, trColumn(wm, warpM, mi))
          : FailureOr<std::string>(std::string());
  FailureOr<std::string> bTrElem =
      bTr ? element(b, kTr, trColumn(wn, warpN, ni))
          : FailureOr<std::string>(std::string());
  if (failed(aTrElem) || failed(bTrElem))
    return failure();
  // The operand element at r = 0: the start of a lane's vector.
  std::string kLane0 = "(" + kk + " * " + std::to_string(step) + " + " +
                       std::to_string(perStep) + " * (" + lane + " / " +
                       std::to_string(T) + "))";
  FailureOr<std::string> aFirst =
      aVec ? element(a, mRow, kLane0) : FailureOr<std::string>(std::string());
  FailureOr<std::string> bFirst =
      bVec ? element(b, nCol, kLane0) : FailureOr<std::string>(std::string());
  if (failed(aFirst) || failed(bFirst))
    return failure();
  line("#pragma unroll");
  open("for (int " + kk + " = 0; " + kk + " < " + Twine(k / step) + "; ++" +
       kk + ")");
  std::string aVals = fresh("aLanes"), bVals = fresh("bLanes");
  line("// this lane's A[m][k .. k + " + Twine(perStep - 1) +
       "] and B[k .. k + " + Twine(perStep - 1) + "][n] of each tile");
  // One declaration where A and B share a storage type (B's own for int8
  // x uint8, which mfma.h tells apart by the helper's template arguments).
  FailureOr<std::string> bSt = storageType(bElemType, op);
  if (failed(bSt))
    return failure();
  if (*bSt == *st)
    line("alignas(16) " + *st + " " + aVals + "[" + Twine(mTiles) + "][" +
         Twine(perStep) + "], " + bVals + "[" + Twine(nTiles) + "][" +
         Twine(perStep) + "];");
  else
    line("alignas(16) " + *st + " " + aVals + "[" + Twine(mTiles) + "][" +
         Twine(perStep) + "]; alignas(16) " + *bSt + " " + bVals + "[" +
         Twine(nTiles) + "][" + Twine(perStep) + "];");
  auto fill = [&](const std::string &vals, const std::string &tile,
                  int64_t tiles, const std::string &elem, int64_t vecBytes,
                  const std::string &first, const std::string &trElem) {
    line("#pragma unroll");
    open("for (int " + tile + " = 0; " + tile + " < " + Twine(tiles) + "; ++" +
         tile + ")");
    if (!trElem.empty()) {
      const char *bits = trN == 4 ? "16" : "8";
      line("#pragma unroll");
      line("for (int " + r + " = 0; " + r + " < " + Twine(perStep / trN) +
           "; ++" + r + ") " + ns +
           (hwTr ? "readTransposedB" + std::string(bits) + "("
                 : std::string("readDppTransposed(")) +
           vals + "[" + tile + "] + " + Twine(trN) + " * " + r + ", &" +
           trElem +
           (hwTr ? ");  // ds_read_b64_tr_b" + std::string(bits)
                 : ", " + lane + ");  // ds_read_b64, DPP transpose"));
    } else if (vecBytes) {
      line(ns + "copyVector<" + Twine(vecBytes) + ">(" + vals + "[" + tile +
           "], &" + first + ");  // ds_read_b" + Twine(vecBytes * 8));
    } else {
      line("#pragma unroll");
      line("for (int " + r + " = 0; " + r + " < " + Twine(perStep) + "; ++" +
           r + ") " + vals + "[" + tile + "][" + r + "] = " + elem + ";");
    }
    close();
  };
  // Value v of a register operand: register v % 4 of K chunk
  // perLane / 4 * kk + v / 4 (constant indices once the loops unroll).
  auto fromRegisters = [&](const std::string &vals, const std::string &tile,
                           int64_t tiles, Value frag,
                           ArrayRef<BitLinear> regs) {
    for (int64_t v = 0; v < perLane; ++v) {
      std::string chunk =
          perLane == 8 ? "(2 * " + kk + " + " + std::to_string(v / 4) + ")"
                       : kk;
      line("#pragma unroll");
      line("for (int " + tile + " = 0; " + tile + " < " + Twine(tiles) +
           "; ++" + tile + ") " + vals + "[" + tile + "][" + Twine(v) + "] = " +
           expr(frag) + "[" + regs[v % 4].expr(0, {tile, chunk}) + "];");
    }
  };
  if (aShared)
    fill(aVals, mi, mTiles, *aElem, aVec, *aFirst, *aTrElem);
  else
    fromRegisters(aVals, mi, mTiles, a, aRegs);
  if (bShared)
    fill(bVals, ni, nTiles, *bElem, bVec, *bFirst, *bTrElem);
  else
    fromRegisters(bVals, ni, nTiles, b, bRegs);
  line("#pragma unroll");
  open("for (int " + mi + " = 0; " + mi + " < " + Twine(mTiles) + "; ++" + mi +
       ")");
  // The helper's first operand is B's values (the instruction's srcA).
  std::string mfma = ns + mfmaStepHelper(bElemType, tile32, ab);
  // f16/bf16 into f32 with k_pack 2 (4): a lane's 8 values of two groups
  // are the lanes of gfx950's v_mfma_f32_16x16x32_f16 / _bf16 (32x32x16
  // for 32x32 tiles); mfma.h issues that there and the two 16-bit steps
  // elsewhere.
  const bool pairs =
      (ab.isF16() || ab.isBF16()) && acc.isF32() && kPack % 2 == 0;
  const int64_t perCall = pairs ? 2 : 1;
  if (pairs)
    mfma = ns + (tile32 ? "mfmaF32x32x32x16" : "mfmaF32x16x16x32");
  for (int64_t g = 0; g < kPack; g += perCall) {
    std::string at = g ? " + " + std::to_string(g * perLane) : "";
    line("#pragma unroll");
    line("for (int " + ni + " = 0; " + ni + " < " + Twine(nTiles) + "; ++" +
         ni + ") " + mfma + "(&" + expr(c) + "[" + cq[0].expr(0, {mi, ni}) +
         "], " + bVals + "[" + ni + "]" + at + ", " + aVals + "[" + mi + "]" +
         at + ");");
  }
  close();
  close();
  close();
  return success();
}

/// The first operand of \p op passed for \p param, or null.
static Value intrinsicOperand(IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return Value();
}

/// The lanes of a TVM vector dtype name (`float16x4` -> 4, `int8` -> 1),
/// or 0 when the name has a malformed lane suffix.
static int64_t vectorLanes(StringRef dtype) {
  size_t x = dtype.rfind('x');
  if (x == StringRef::npos || x + 1 >= dtype.size() ||
      !llvm::isDigit(dtype[x + 1]))
    return 1;
  int64_t lanes = 0;
  return dtype.drop_front(x + 1).getAsInteger(10, lanes) ? 0 : lanes;
}

LogicalResult Emitter::emitTvmMfma(IntrinsicOp op) {
  beginOp(op, "T.tvm_mfma");
  auto fail = [&](const Twine &why) {
    op.emitError() << "T.tvm_mfma: " << why;
    return failure();
  };
  auto option = [&](StringRef name) -> StringRef {
    if (DictionaryAttr d = op.getOptionsAttr())
      if (auto s = d.getAs<StringAttr>(name))
        return s.getValue();
    return {};
  };
  Value a = intrinsicOperand(op, "multiplicand_a"),
        b = intrinsicOperand(op, "multiplicand_b"),
        c = intrinsicOperand(op, "accumulator");
  Value ai = intrinsicOperand(op, "a_index"),
        bi = intrinsicOperand(op, "b_index"),
        ci = intrinsicOperand(op, "c_index");
  auto bufferOf = [](Value v) {
    return v ? dyn_cast<BufferType>(v.getType()) : BufferType();
  };
  BufferType at = bufferOf(a), bt = bufferOf(b), ct = bufferOf(c);
  if (!at || !bt || !ct || !ai || !bi || !ci)
    return fail("needs the two multiplicands and the accumulator as local "
                "buffers (`buf.data`), each with an index");
  for (Value v : {a, b, c}) {
    MemoryScope scope = scopeOf(rootOf(v));
    if (scope != MemoryScope::Local && scope != MemoryScope::Fragment)
      return fail("its operands are registers: T.alloc_local buffers, not '" +
                  stringifyMemoryScope(scope) + "' memory");
    if (cast<BufferType>(v.getType()).getRank() != 1)
      return fail("its operand buffers must be one-dimensional (a lane's "
                  "registers)");
  }
  // The instruction: M x N x K from the name, the element types from the
  // buffers (the dtype strings must agree with them).
  StringRef shape = option("shape");
  int64_t dims[3] = {0, 0, 0};
  SmallVector<StringRef, 4> m;
  if (llvm::Regex("([0-9]+)x([0-9]+)x([0-9]+)").match(shape, &m))
    for (int i = 0; i < 3; ++i)
      (void)m[i + 1].getAsInteger(10, dims[i]);
  Type ab = at.getElementType(), acc = ct.getElementType();
  bool int8 = ab.isSignlessInteger(8) || ab.isSignedInteger(8);
  bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
                 Float8E5M2FNUZType>(ab);
  bool wide = ab.isF16() || ab.isBF16();
  bool f32 = ab.isF32();
  if (bt.getElementType() != ab)
    return fail("needs both multiplicands of one element type");
  if (!((wide || fp8 || f32) && acc.isF32()) && !(int8 && acc.isInteger(32)))
    return fail("the HIP target issues MFMA for f32, f16/bf16 and fp8 "
                "operands with an f32 accumulator and int8 operands with an "
                "int32 accumulator");
  // f32: one value of A and of B per lane (v_mfma_f32_16x16x4f32 /
  // _32x32x2f32).
  const int64_t perLane = f32 ? 1 : wide ? 4 : 8;
  const bool tile32 = dims[0] == 32;
  const int64_t T = tile32 ? 32 : 16, kStep = 64 / T * perLane;
  const int64_t accRegs = T * T / 64;
  if (dims[0] != T || dims[1] != T || dims[2] != kStep ||
      (dims[0] != 16 && dims[0] != 32))
    return fail("'" + shape +
                "' is not an MFMA shape tlc issues for these types (16x16x" +
                Twine(64 / 16 * perLane) + " or 32x32x" +
                Twine(64 / 32 * perLane) + ")");
  int64_t lanesA = vectorLanes(option("A_dtype")),
          lanesB = vectorLanes(option("B_dtype")),
          lanesC = vectorLanes(option("C_dtype"));
  if (lanesA != perLane || lanesB != perLane || lanesC != accRegs)
    return fail("'" + shape + "' takes " + Twine(perLane) +
                " values of A and of B and " + Twine(accRegs) +
                " accumulators per lane; the dtypes say " + option("A_dtype") +
                ", " + option("B_dtype") + " and " + option("C_dtype"));
  // &buf[index * lanes]: index counts whole vectors of the lane's values.
  auto address = [&](Value buf, Value index,
                     int64_t lanes) -> FailureOr<std::string> {
    std::string i = "(" + expr(index) + ") * " + std::to_string(lanes);
    FailureOr<RootAccess> access = resolve(buf, {i}, op);
    if (failed(access))
      return failure();
    FailureOr<std::string> lv = lvalue(*access, op);
    if (failed(lv))
      return failure();
    return "&" + *lv;
  };
  FailureOr<std::string> pa = address(a, ai, perLane),
                         pb = address(b, bi, perLane),
                         pc = address(c, ci, accRegs);
  if (failed(pa) || failed(pb) || failed(pc))
    return failure();
  // srcA, srcB as the program passes them (TileLang's emitter passes B
  // first, so the accumulator holds C transposed, as T.gemm's does).
  std::string helper = f32 ? (tile32 ? "mfmaF32x32x32x2" : "mfmaF32x16x16x4")
                          : mfmaStepHelper(ab, tile32);
  line(ns + helper + "(" + *pc + ", " + *pa + ", " + *pb + ");");
  return success();
}
