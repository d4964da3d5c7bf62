//===- CUDAEmitterGemm.cpp - T.gemm on mma.sync for CUDA ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.gemm on mma.sync for sm_80+: the block's warps form the warp grid of
// TLCLayout's gemmWarpPartition(); each warp walks K in steps of one
// instruction and issues it over its 16 x 8 tiles of the accumulator
// fragment, whose registers are found through its layout
// (gemmAccumulatorFragment). 16- and 8-bit operands are loaded with
// ldmatrix (`.trans` where the tile is stored the other way round) from the
// swizzled shared tiles, or packed from a register fragment (A for
// gemm_rs, B for gemm_sr, either stored either way round): m16n8k16
// (f16/bf16 -> f32, f16 -> f16) and m16n8k32 (e4m3/e5m2 -> f32, s8/u8 ->
// s32; an 8-bit tile stored [K, M] or [K, N] is read byte by byte, as
// ldmatrix cannot transpose bytes). 32- and 64-bit operands hold one element
// per register and are read element by element (ldmatrix moves 16-bit
// elements): m16n8k8 .tf32 for f32 operands, as TileLang's CUDA back end
// issues it (the f32 bits go to the instruction unchanged), and two m8n8k4
// .f64 per 16 x 8 tile for f64.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Layout/GemmLayouts.h"

#include <map>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

namespace {
/// The geometry of one gemm.
struct GemmShape {
  int64_t m, n, k, warpRows, warpCols, warpM, warpN, mTiles, nTiles;
};
} // namespace

static SmallVector<int64_t> matrixDims(BufferType t) {
  SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
  while (s.size() > 2 && s.front() == 1)
    s.erase(s.begin());
  return s;
}

/// Notes on \p d that TileLang refuses the same program with a Python
/// exception of type \p type (`tvm.error.InternalError`, `ValueError`)
/// when it lowers the kernel; the Python package raises the build error as
/// that type too (tlc-build's diagnostics file gives it as the category).
static void noteRaisedAs(InFlightDiagnostic &d, Operation *op, StringRef type) {
  d.attachNote(op->getLoc())
      << "TileLang raises this as " << type << " when it lowers the kernel";
}

LogicalResult Emitter::emitGemm(GemmOp op) {
  // T.wgmma_gemm is wgmma.mma_async or nothing: tile-plan-wgmma takes it
  // on sm_90a where its shapes and operands fit the instruction.
  if (op->hasAttr("tile.wgmma_only") && !isWgmmaGemm(op)) {
    InFlightDiagnostic d = op.emitError()
                           << "T.wgmma_gemm is Hopper's wgmma.mma_async, ";
    if (lang.isHip() || !hasWgmma(options.minComputeCapability))
      d << "which needs sm_90a; building for "
        << (lang.isHip() ? "HIP" : "sm_" + std::to_string(
                                             options.minComputeCapability))
        << " (T.gemm picks the instruction the target has)";
    else if (auto why = op->getAttrOfType<StringAttr>("tile.wgmma_why"))
      d << "but this gemm does not fit it: " << why.getValue()
        << "; T.gemm would use mma.sync";
    else
      d << "but this gemm does not fit it (shapes, dtypes, thread range, "
           "operand layouts or tl.disable_wgmma); T.gemm would use mma.sync";
    return failure();
  }
  if (lang.isHip())
    return emitMfmaGemm(op);
  if (isTcgen05Gemm(op))
    return emitTcgen05Gemm(op);
  // ldmatrix takes 16-byte aligned row addresses, and a wgmma descriptor
  // keeps the start address in units of 16 bytes: a region starting inside
  // a 16-byte chunk would fault, or read the wrong elements.
  for (auto [name, operand] : {std::pair<StringRef, Value>{"A", op.getA()},
                               {"B", op.getB()}}) {
    auto type = cast<BufferType>(operand.getType());
    bool scalarLoads = type.getElementType().isF32() ||
                       type.getElementType().isTF32() ||
                       type.getElementType().isF64();
    if (scalarLoads && !isWgmmaGemm(op))
      continue; // m16n8k8 .tf32 / m8n8k4 .f64 read elements one by one
    OriginAlignment origin = originAlignment(operand, 16);
    if (origin.kind == OriginAlignment::Aligned)
      continue;
    // TileLang refuses an origin that is never aligned with this message
    // (its operand-alignment test matches "T.gemm() operand A region .*
    // which is never a multiple of 16"). One that is aligned only for some
    // values of its offsets (a loop's), or whose offsets are unknown,
    // TileLang builds and the first misaligned one faults (ldmatrix) or
    // reads the wrong slice (wgmma descriptors keep the address in 16-byte
    // units): the CUDA target refuses it too.
    InFlightDiagnostic d = op.emitError()
                           << "T.gemm() operand " << name << " region of '"
                           << expr(rootOf(operand)) << "' starts at ";
    if (!origin.known)
      d << "an offset of its shared tile that is not known to be a multiple "
           "of 16 bytes";
    else
      d << "byte "
        << (origin.lo == origin.hi
                ? "offset " + std::to_string(origin.lo)
                : "offsets in [" + std::to_string(origin.lo) + ", " +
                      std::to_string(origin.hi) + "]")
        << " of its shared tile, which "
        << (origin.kind == OriginAlignment::Never ? "is never"
                                                  : "is not always")
        << " a multiple of 16";
    d << "; "
      << (isWgmmaGemm(op) ? "wgmma's shared-memory descriptors" : "ldmatrix")
      << " needs 16-byte aligned rows (start the region at a multiple of "
      << 128 / getElementBitWidth(type.getElementType()) << " elements)";
    if (origin.kind == OriginAlignment::Never)
      noteRaisedAs(d, op, "ValueError");
    return failure();
  }
  if (isWgmmaGemm(op))
    return emitWgmma(op);
  beginOp(op, "T.gemm");
  auto aType = cast<BufferType>(op.getA().getType());
  auto bType = cast<BufferType>(op.getB().getType());
  auto cType = cast<BufferType>(op.getC().getType());
  Type ab = aType.getElementType(), acc = cType.getElementType();
  bool f16Acc = ab.isF16() && acc.isF16();
  bool is16 = ((ab.isF16() || ab.isBF16()) && acc.isF32()) || f16Acc;
  bool isFp8 = isa<Float8E4M3FNType, Float8E5M2Type>(ab) && acc.isF32();
  bool isI8 = ab.isInteger(8) && acc.isInteger(32);
  bool isTf32 = (ab.isF32() || ab.isTF32()) && acc.isF32();
  bool isF64 = ab.isF64() && acc.isF64();
  if (!(is16 || isFp8 || isI8 || isTf32 || isF64) ||
      bType.getElementType() != ab) {
    op.emitError("the CUDA target lowers T.gemm for f16/bf16 operands with "
                 "an f32 accumulator or f16 with f16 (mma.sync.m16n8k16), "
                 "e4m3/e5m2 with f32 and s8/u8 with s32 (m16n8k32), f32 "
                 "with f32 (m16n8k8 .tf32) and f64 with f64 (m8n8k4)");
    return failure();
  }
  if (isFp8 && options.minComputeCapability < 89) {
    StringRef name =
        isa<Float8E4M3FNType>(ab) ? "float8_e4m3fn" : "float8_e5m2";
    InFlightDiagnostic d = op.emitError()
                           << "T.gemm() with fp8 operands requires a CUDA "
                              "target with fp8 mma.sync atoms (SM89+): "
                           << name
                           << " multiplies with mma.sync.m16n8k32, which the "
                              "target's sm_"
                           << options.minComputeCapability << " lacks";
    noteRaisedAs(d, op, "tvm.error.InternalError");
    return failure();
  }
  // 8-bit operands: m16n8k32, whose A and B fragments are those of k16 with
  // byte pairs in place of 16-bit elements, so ldmatrix loads them from
  // K-contiguous tiles (A [M, K], B [N, K]) with every column doubled.
  int64_t cs = is16 ? 1 : 2;
  bool scalarOps = isTf32 || isF64;
  int64_t kStep = isTf32 ? 8 : isF64 ? 4 : 16 * cs;
  Value c = op.getC();
  auto cIt = fragments.find(c);
  if (cIt == fragments.end()) {
    op.emitError("T.gemm needs a whole fragment accumulator");
    return failure();
  }
  const FragmentInfo &C = cIt->second;
  bool transA = op.getTransposeA(), transB = op.getTransposeB();
  SmallVector<int64_t> as = matrixDims(aType), bs = matrixDims(bType);
  GemmShape g;
  g.m = C.shape[0];
  g.n = C.shape[1];
  g.k = transA ? as[0] : as[1];
  if ((transB ? bs[1] : bs[0]) != g.k) {
    op.emitError() << "T.gemm: A's K = " << g.k
                   << " and B's K = " << (transB ? bs[1] : bs[0]) << " differ";
    return failure();
  }
  const layout::FragmentOrigin &origin = C.layout.getOrigin();
  g.warpRows = origin.warpRows;
  g.warpCols = origin.warpCols;
  if (g.warpRows <= 0 || g.warpCols <= 0 ||
      g.warpRows * g.warpCols * 32 != numThreads) {
    op.emitError("T.gemm: the accumulator has no mma warp grid for this "
                 "block");
    return failure();
  }
  g.warpM = g.m / g.warpRows;
  g.warpN = g.n / g.warpCols;
  if (g.warpM % 16 || g.warpN % 8) {
    op.emitError("T.gemm: warp tiles must be multiples of 16 x 8");
    return failure();
  }
  g.mTiles = g.warpM / 16;
  g.nTiles = g.warpN / 8;

  // Accumulator registers of mma (mi, ni): idx + q for its 4 values.
  auto warpOf = [&](int64_t t) {
    int64_t w = t / 32;
    return std::make_pair(w % g.warpRows, w / g.warpRows);
  };
  auto cCoord = [&](int64_t t, int64_t mi, int64_t ni, int64_t q) {
    auto [wm, wn] = warpOf(t);
    int64_t lane = t % 32;
    return SmallVector<int64_t>{wm * g.warpM + mi * 16 + lane / 4 + 8 * (q / 2),
                                wn * g.warpN + ni * 8 + (lane % 4) * 2 + q % 2};
  };
  SmallVector<BitLinear> cq;
  for (int64_t q = 0; q < 4; ++q) {
    FailureOr<BitLinear> f = fitGemmRegisters(
        C, {g.mTiles, g.nTiles}, numThreads,
        [&](int64_t t, ArrayRef<int64_t> p) {
          return cCoord(t, p[0], p[1], q);
        },
        op, "accumulator");
    if (failed(f))
      return failure();
    cq.push_back(*f);
  }
  for (int64_t q = 1; q < 4; ++q)
    if (cq[q].base[0] != cq[0].base[0] + q || cq[q].coef != cq[0].coef) {
      op.emitError("T.gemm: the accumulator layout does not keep each mma's "
                   "four values in consecutive registers");
      return failure();
    }

  // K not a multiple of the instruction's k (K = 20 or 28 of f16): as
  // TileLang's CUDA lowering, scalar multiply-adds on the CUDA cores over
  // the whole K, each thread accumulating the elements of C it holds (the
  // mma accumulator layout stays: register q of tile (mi, ni) holds the
  // element cCoord gives). Per k, each thread reads the 2 mTiles A values
  // of its rows and the 2 nTiles B values of its columns once, converted
  // to the accumulation type (float for f16/bf16/fp8 and tf32's f32, int
  // for 8-bit integers, double for f64; an f16 accumulator is summed in
  // float and rounded once per call). The same where ldmatrix would read a
  // shared operand whose rows are not a multiple of 16 bytes apart (a
  // K = 16 region of a [64, 20] tile): its row addresses would not be
  // 16-byte aligned.
  auto unalignedRows = [&](Value v, bool isA) {
    auto root = cast<BufferType>(rootOf(v).getType());
    bool bytes = !is16 && (isA ? transA : !transB);
    return !scalarOps && !bytes && isSharedScope(root.getScope()) &&
           root.isStatic() &&
           root.getShape().back() * getElementBitWidth(ab) % 128 != 0;
  };
  if (g.k % kStep != 0 || unalignedRows(op.getA(), true) ||
      unalignedRows(op.getB(), false)) {
    Value a = op.getA(), b = op.getB();
    // A register operand (gemm_rs: A, gemm_sr: B): each value a thread
    // multiplies is read from the lane of its warp that holds it
    // (__shfl_sync), the register the same in every lane: (source lane,
    // register) fitted over (tid, tile, h, k) as a map linear in the bits.
    std::optional<BitLinear> aLanes, bLanes;
    auto fitLanes = [&](Value v, bool isA,
                        std::optional<BitLinear> &out) -> LogicalResult {
      if (isSharedScope(scopeOf(rootOf(v))))
        return success();
      StringRef name = isA ? "A" : "B";
      const FragmentInfo *F = nullptr;
      if (auto it = fragments.find(v); it != fragments.end())
        F = &it->second;
      auto holder = [&](ArrayRef<int64_t> c,
                        int64_t t) -> std::optional<SmallVector<int64_t>> {
        int64_t warp0 = t / 32 * 32;
        if (!F->tables) {
          for (int64_t rep = 0; rep < F->layout.getReplicate(); ++rep)
            if (std::optional<layout::FragmentSlot> s = F->layout.apply(c, rep))
              if (s->thread / 32 * 32 == warp0)
                return SmallVector<int64_t>{s->thread - warp0, s->index};
          return std::nullopt;
        }
        for (int64_t l = 0; l < 32; ++l)
          if (int64_t r = F->tables->registerAt(c, warp0 + l); r >= 0)
            return SmallVector<int64_t>{l, r};
        return std::nullopt;
      };
      std::optional<BitLinear> fit;
      if (F)
        fit = BitLinear::fit(
            {numThreads, isA ? g.mTiles : g.nTiles, 2, g.k}, 2,
            [&](ArrayRef<int64_t> p) {
              auto [wmv, wnv] = warpOf(p[0]);
              int64_t l = p[0] % 32;
              int64_t mn = isA ? wmv * g.warpM + p[1] * 16 + l / 4 + 8 * p[2]
                               : wnv * g.warpN + p[1] * 8 + (l % 4) * 2 + p[2];
              bool kFirst = isA ? transA : !transB;
              return holder(kFirst ? SmallVector<int64_t>{p[3], mn}
                                   : SmallVector<int64_t>{mn, p[3]},
                            p[0]);
            });
      bool uniform = fit.has_value() && !fit->isFlat();
      for (unsigned bit = 0; uniform && bit < fit->coef[0].size(); ++bit)
        uniform = fit->coef[0][bit][1] == 0;
      if (!uniform) {
        op.emitError() << "T.gemm: K = " << g.k
                       << (g.k % kStep ? " is not a multiple of the mma.sync "
                                         "k = " +
                                             std::to_string(kStep)
                                       : " of shared rows not 16-byte "
                                         "aligned for ldmatrix")
                       << "; the CUDA-core fallback reads the register "
                          "fragment "
                       << name
                       << " from the lanes of each warp, and its layout "
                       << (F ? F->layout.shortLabel() : std::string("(none)"))
                       << " does not hold each value in one register of a "
                          "lane of the warp that needs it";
        return failure();
      }
      out = fit;
      return success();
    };
    if (failed(fitLanes(a, true, aLanes)) || failed(fitLanes(b, false, bLanes)))
      return failure();
    std::string sumType = isI8 ? "int" : isF64 ? "double" : "float";
    auto element = [&](Value buf, const std::string &row,
                       const std::string &col) -> FailureOr<std::string> {
      auto t = cast<BufferType>(buf.getType());
      SmallVector<std::string> idx(t.getRank(), "0");
      idx[t.getRank() - 2] = row;
      idx[t.getRank() - 1] = col;
      FailureOr<RootAccess> at = resolve(buf, idx, op);
      if (failed(at))
        return failure();
      FailureOr<std::string> lin = linearIndex(*at, op);
      if (failed(lin))
        return failure();
      return "static_cast<" + sumType + ">(" +
             fromStorage(ab, expr(rootOf(buf)) + "[" + *lin + "]") + ")";
    };
    std::string warp = fresh("warp"), lane = fresh("lane"), wm = fresh("wm"),
                wn = fresh("wn"), mi = fresh("mi"), ni = fresh("ni"),
                q = fresh("q"), h = fresh("h"), kx = fresh("k"),
                sum = fresh("sum"), av = fresh("aVal"), bv = fresh("bVal");
    std::string mT = std::to_string(g.mTiles), nT = std::to_string(g.nTiles);
    std::string reg = expr(c) + "[" + cq[0].expr(0, {mi, ni}) + " + " + q + "]";
    // Opens the loops over this thread's (mi, ni, q) accumulator values.
    auto tileLoops = [&]() {
      line("#pragma unroll");
      open("for (int " + mi + " = 0; " + mi + " < " + mT + "; ++" + mi + ")");
      line("#pragma unroll");
      open("for (int " + ni + " = 0; " + ni + " < " + nT + "; ++" + ni + ")");
      line("#pragma unroll");
      open("for (int " + q + " = 0; " + q + " < 4; ++" + q + ")");
    };
    open("");
    line(g.k % kStep ? "// T.gemm: K = " + std::to_string(g.k) +
                           " is no multiple of the mma k = " +
                           std::to_string(kStep) + ": scalar multiply-adds"
                     : std::string("// T.gemm: shared rows not 16-byte "
                                   "aligned for ldmatrix: scalar "
                                   "multiply-adds"));
    line("const int " + warp + " = tid / 32, " + lane + " = tid % 32;");
    line("const int " + wm + " = " + warp + " % " + Twine(g.warpRows) + ", " +
         wn + " = " + warp + " / " + Twine(g.warpRows) + ";");
    line(sumType + " " + sum + "[" + mT + "][" + nT + "][4];");
    tileLoops();
    line(sum + "[" + mi + "][" + ni + "][" + q + "] = " +
         (op.getClearAccum()
              ? std::string("0")
              : "static_cast<" + sumType + ">(" + fromStorage(acc, reg) + ")") +
         ";");
    close();
    close();
    close();
    // Unrolled over K where a register operand is read: its registers are
    // then indexed by constants.
    if (aLanes || bLanes)
      line("#pragma unroll");
    open("for (int " + kx + " = 0; " + kx + " < " + std::to_string(g.k) +
         "; ++" + kx + ")");
    line(sumType + " " + av + "[" + mT + "][2], " + bv + "[" + nT + "][2];");
    std::string row = wm + " * " + std::to_string(g.warpM) + " + " + mi +
                      " * 16 + " + lane + " / 4 + 8 * " + h;
    std::string col = wn + " * " + std::to_string(g.warpN) + " + " + ni +
                      " * 8 + (" + lane + " % 4) * 2 + " + h;
    // The value a lane of the warp holds in its register (the same
    // register in every lane, a constant once the loops unroll).
    auto shuffled = [&](Value buf, const BitLinear &lanes,
                        const std::string &tile) {
      SmallVector<std::string> vars = {"tid", tile, h, kx};
      return "__shfl_sync(0xffffffffu, static_cast<" + sumType + ">(" +
             fromStorage(ab, expr(buf) + "[" + lanes.expr(1, vars) + "]") +
             "), " + lanes.expr(0, vars) + ")";
    };
    FailureOr<std::string> aElem =
        aLanes   ? FailureOr<std::string>(shuffled(a, *aLanes, mi))
        : transA ? element(a, kx, row)
                 : element(a, row, kx);
    FailureOr<std::string> bElem =
        bLanes   ? FailureOr<std::string>(shuffled(b, *bLanes, ni))
        : transB ? element(b, col, kx)
                 : element(b, kx, col);
    if (failed(aElem) || failed(bElem))
      return failure();
    line("#pragma unroll");
    open("for (int " + mi + " = 0; " + mi + " < " + mT + "; ++" + mi + ")");
    line("#pragma unroll");
    line("for (int " + h + " = 0; " + h + " < 2; ++" + h + ") " + av + "[" +
         mi + "][" + h + "] = " + *aElem + ";");
    close();
    line("#pragma unroll");
    open("for (int " + ni + " = 0; " + ni + " < " + nT + "; ++" + ni + ")");
    line("#pragma unroll");
    line("for (int " + h + " = 0; " + h + " < 2; ++" + h + ") " + bv + "[" +
         ni + "][" + h + "] = " + *bElem + ";");
    close();
    tileLoops();
    line(sum + "[" + mi + "][" + ni + "][" + q + "] += " + av + "[" + mi +
         "][" + q + " / 2] * " + bv + "[" + ni + "][" + q + " % 2];");
    close();
    close();
    close();
    close();
    tileLoops();
    line(reg + " = " +
         toStorage(acc, sum + "[" + mi + "][" + ni + "][" + q + "]") + ";");
    close();
    close();
    close();
    close();
    return success();
  }

  // The mma of one 16 x 8 tile: accumulator pointer, A and B registers.
  auto mmaCall = [&](const std::string &acc, const std::string &a,
                     const std::string &b) {
    if (is16 && !f16Acc)
      return std::string("tlc::cuda::mmaM16N8K16<tlc::cuda::") +
             (ab.isF16() ? "half" : "bfloat16") + ">(" + acc + ", " + a +
             ", " + b + ");";
    if (f16Acc)
      return "tlc::cuda::mmaM16N8K16F16Acc(" + acc + ", " + a + ", " + b + ");";
    if (isTf32)
      return "tlc::cuda::mmaM16N8K8TF32F32(" + acc + ", " + a + ", " + b +
             ", " + acc + ");";
    if (isF64)
      return "tlc::cuda::mmaM16N8K4F64(" + acc + ", " + a + ", " + b + ");";
    std::string f = isI8 ? (ab.isUnsignedInteger() ? "U8S32" : "S8S32")
                    : isa<Float8E4M3FNType>(ab) ? "E4M3F32"
                                                : "E5M2F32";
    return "tlc::cuda::mmaM16N8K32" + f + "(" + acc + ", " + a + ", " + b +
           ", " + acc + ");";
  };
  std::string warp = fresh("warp"), lane = fresh("lane"), wm = fresh("wm"),
              wn = fresh("wn"), mi = fresh("mi"), ni = fresh("ni");
  // The mma grid of one k-step: every (mi, ni) tile of this warp's part of
  // C from A registers \p aReg[mi] and B registers \p bReg[ni].
  auto emitMmaGrid = [&](const std::string &aReg, const std::string &bReg) {
    line("#pragma unroll");
    open("for (int " + mi + " = 0; " + mi + " < " + Twine(g.mTiles) + "; ++" +
         mi + ")");
    line("#pragma unroll");
    line("for (int " + ni + " = 0; " + ni + " < " + Twine(g.nTiles) + "; ++" +
         ni + ") " +
         mmaCall("&" + expr(c) + "[" + cq[0].expr(0, {mi, ni}) + "]",
                 aReg + "[" + mi + "]", bReg + "[" + ni + "]"));
    close();
  };
  open("");
  if (op.getClearAccum()) {
    std::string r = fresh("r");
    line("#pragma unroll");
    line("for (int " + r + " = 0; " + r + " < " + Twine(C.regs) + "; ++" + r +
         ") " + expr(c) + "[" + r +
         "] = " + (f16Acc ? toStorage(acc, "0.0f") : std::string("0")) + ";");
  }
  line("const int " + warp + " = tid / 32, " + lane + " = tid % 32;");
  line("const int " + wm + " = " + warp + " % " + Twine(g.warpRows) + ", " +
       wn + " = " + warp + " / " + Twine(g.warpRows) + ";  // warp grid " +
       Twine(g.warpRows) + " x " + Twine(g.warpCols));

  // ldmatrix row addresses. Each is (row, col) = (rowT + rowC, colT + colC)
  // with rowT/colT this lane's part and rowC/colC compile-time constants of
  // the unrolled k-step and tile (rowC a multiple of 8, columns multiples of
  // 8). The XOR swizzle permutes 16-byte chunks by row % 8 only, so
  //   index(row, col) = index(rowT, colT + 8v) + rowC * L + (colC / 8 - v) * 8
  // with v = (colC / 8) % 8: one per-thread offset per v, hoisted out of
  // every loop, plus an immediate.
  struct Operand {
    Value buf;
    std::string rowT, colT, prefix;
    /// v -> name of the per-thread offset.
    std::map<int64_t, std::string> offsets;
    int64_t rowLen = 0;
    bool swz = false;
  };
  auto prepare = [&](Operand &o) -> LogicalResult {
    auto t = cast<BufferType>(rootOf(o.buf).getType());
    o.swz = swizzled.count(rootOf(o.buf));
    o.rowLen = t.getShape().back();
    return success();
  };
  // Elements per 16-byte chunk.
  int64_t chunk = 8 * cs;
  auto offsetOf = [&](Operand &o, int64_t colC) -> FailureOr<std::string> {
    int64_t v = o.swz ? (colC / chunk) % 8 : 0;
    auto it = o.offsets.find(v);
    if (it != o.offsets.end())
      return it->second;
    auto t = cast<BufferType>(o.buf.getType());
    SmallVector<std::string> idx(t.getRank(), "0");
    idx[t.getRank() - 2] = o.rowT;
    idx[t.getRank() - 1] =
        v ? "(" + o.colT + ") + " + std::to_string(chunk * v) : o.colT;
    FailureOr<RootAccess> a = resolve(o.buf, idx, op);
    if (failed(a))
      return failure();
    FailureOr<std::string> lin = linearIndex(*a, op);
    if (failed(lin))
      return failure();
    std::string name = fresh(o.prefix + std::to_string(v));
    line("const int " + name + " = " + *lin + ";");
    o.offsets[v] = name;
    return name;
  };
  auto address = [&](Operand &o, int64_t rowC,
                     int64_t colC) -> FailureOr<std::string> {
    FailureOr<std::string> base = offsetOf(o, colC);
    if (failed(base))
      return failure();
    int64_t imm =
        rowC * o.rowLen +
        (o.swz ? (colC / chunk - (colC / chunk) % 8) * chunk : colC);
    Value root = rootOf(o.buf);
    return "&" + expr(root) + "[" + *base +
           (imm ? " + " + std::to_string(imm) : std::string()) + "]";
  };
  std::string wmBase = wm + " * " + std::to_string(g.warpM);
  std::string wnBase = wn + " * " + std::to_string(g.warpN);
  Value a = op.getA(), b = op.getB();
  bool aShared = isSharedScope(scopeOf(rootOf(a)));
  bool bShared = isSharedScope(scopeOf(rootOf(b)));
  // A register operand (gemm_rs: A, gemm_sr: B) must be a whole fragment;
  // its registers are found through its layout, in buffer order (the
  // fragment of a transposed operand is the transposed layout).
  auto wholeFragment = [&](Value v, StringRef name) -> const FragmentInfo * {
    auto it = fragments.find(v);
    if (it == fragments.end()) {
      op.emitError() << "T.gemm: a register " << name
                     << " operand must be a whole fragment";
      return nullptr;
    }
    return &it->second;
  };
  // The buffer coordinates of matrix element (mn, k) of A (mn = m) or B
  // (mn = n).
  auto bufferCoord = [&](bool isA, int64_t mn, int64_t k) {
    bool kFirst = isA ? transA : !transB;
    return kFirst ? SmallVector<int64_t>{k, mn} : SmallVector<int64_t>{mn, k};
  };
  Operand A{a, "", "", "aOff", {}, 0, false};
  if (transA) { // stored [K, M]: matrices (k-half, m-half) via .trans
    A.rowT = lane + " % 8 + (" + lane + " / 16) * 8";
    A.colT = wmBase + " + ((" + lane + " / 8) % 2) * 8";
  } else {
    A.rowT = wmBase + " + " + lane + " % 16";
    A.colT = "(" + lane + " / 16) * " + std::to_string(chunk);
  }
  // B: two n8 tiles per ldmatrix.x4 (q = lane / 8 picks (n-tile, k-half)),
  // x2 for an odd last tile.
  Operand B{b, "", "", "bOff", {}, 0, false};
  Operand B2{b, "", "", "bOffX2_", {}, 0, false};
  if (transB) { // stored [N, K]
    B.rowT = wnBase + " + " + lane + " % 8 + (" + lane + " / 16) * 8";
    B.colT = "((" + lane + " / 8) % 2) * " + std::to_string(chunk);
    B2.rowT = wnBase + " + " + lane + " % 8";
    B2.colT = B.colT;
  } else { // stored [K, N]: .trans
    B.rowT = lane + " % 8 + ((" + lane + " / 8) % 2) * 8";
    B.colT = wnBase + " + (" + lane + " / 16) * 8";
    B2.rowT = B.rowT;
    B2.colT = wnBase;
  }
  if (scalarOps) {
    // One element per register. With g = lane / 4 and t = lane % 4, A's
    // register q holds (m, k) = (g + 8 * (q % 2), t + 4 * (q / 2)) of a
    // 16-row tile (tf32: q < 4; f64: q < 2, k = t) and B's register q holds
    // (k, n) = (t + 4 * q, g) of an 8-column tile (tf32: q < 2; f64: q = 0).
    // The tiles are not swizzled (planSwizzledTiles swizzles 1- and 2-byte
    // elements only), so each element is this lane's offset plus a
    // constant.
    std::string gl = lane + " / 4", tl = lane + " % 4";
    int64_t aRegs = isTf32 ? 4 : 2, bRegs = isTf32 ? 2 : 1;
    std::string regType = isTf32 ? "uint32_t" : "double";
    auto asReg = [&](const std::string &v) {
      return isTf32 ? "tlc::cuda::bitCast<uint32_t>(" + v + ")" : v;
    };
    if (transA) {
      A.rowT = tl;
      A.colT = wmBase + " + " + gl;
    } else {
      A.rowT = wmBase + " + " + gl;
      A.colT = tl;
    }
    if (transB) {
      B.rowT = wnBase + " + " + gl;
      B.colT = tl;
    } else {
      B.rowT = tl;
      B.colT = wnBase + " + " + gl;
    }
    if ((aShared && failed(prepare(A))) || (bShared && failed(prepare(B))))
      return failure();
    if (A.swz || B.swz) {
      op.emitError("T.gemm: 32/64-bit operands in a swizzled tile");
      return failure();
    }
    // A register fragment (gemm_rs): its register of each (mi, k-step)
    // and q.
    SmallVector<BitLinear> aRegFit, bRegFit;
    if (!aShared) {
      const FragmentInfo *AF = wholeFragment(a, "A");
      if (!AF)
        return failure();
      for (int64_t q = 0; q < aRegs; ++q) {
        FailureOr<BitLinear> f = fitGemmRegisters(
            *AF, {g.mTiles, g.k / kStep}, numThreads,
            [&](int64_t t, ArrayRef<int64_t> p) {
              int64_t l = t % 32;
              return bufferCoord(true,
                                 warpOf(t).first * g.warpM + p[0] * 16 + l / 4 +
                                     8 * (q % 2),
                                 p[1] * kStep + l % 4 + 4 * (q / 2));
            },
            op, "A");
        if (failed(f))
          return failure();
        aRegFit.push_back(*f);
      }
    }
    if (!bShared) {
      const FragmentInfo *BF = wholeFragment(b, "B");
      if (!BF)
        return failure();
      for (int64_t q = 0; q < bRegs; ++q) {
        FailureOr<BitLinear> f = fitGemmRegisters(
            *BF, {g.nTiles, g.k / kStep}, numThreads,
            [&](int64_t t, ArrayRef<int64_t> p) {
              int64_t l = t % 32;
              return bufferCoord(false,
                                 warpOf(t).second * g.warpN + p[0] * 8 + l / 4,
                                 p[1] * kStep + l % 4 + 4 * q);
            },
            op, "B");
        if (failed(f))
          return failure();
        bRegFit.push_back(*f);
      }
    }
    for (int64_t kk = 0; kk < g.k / kStep; ++kk) {
      std::string aReg = fresh("aFrag"), bReg = fresh("bFrag");
      std::string ks = std::to_string(kk);
      line("// k-step " + ks);
      line(regType + " " + aReg + "[" + Twine(g.mTiles) + "][" + Twine(aRegs) +
           "];");
      line(regType + " " + bReg + "[" + Twine(g.nTiles) + "][" + Twine(bRegs) +
           "];");
      for (int64_t m = 0; m < g.mTiles; ++m) {
        for (int64_t q = 0; q < aRegs; ++q) {
          std::string dst =
              aReg + "[" + std::to_string(m) + "][" + std::to_string(q) + "]";
          if (!aShared) {
            line(dst + " = " +
                 asReg(expr(a) + "[" +
                       aRegFit[q].expr(0, {std::to_string(m), ks}) + "]") +
                 ";");
            continue;
          }
          int64_t mC = m * 16 + 8 * (q % 2), kC = kk * kStep + 4 * (q / 2);
          FailureOr<std::string> addr =
              transA ? address(A, kC, mC) : address(A, mC, kC);
          if (failed(addr))
            return failure();
          line(dst + " = " + asReg(addr->substr(1)) + ";");
        }
      }
      for (int64_t n = 0; n < g.nTiles; ++n) {
        for (int64_t q = 0; q < bRegs; ++q) {
          if (!bShared) {
            line(bReg + "[" + std::to_string(n) + "][" + std::to_string(q) +
                 "] = " +
                 asReg(expr(b) + "[" +
                       bRegFit[q].expr(0, {std::to_string(n), ks}) + "]") +
                 ";");
            continue;
          }
          int64_t kC = kk * kStep + 4 * q, nC = n * 8;
          FailureOr<std::string> addr =
              transB ? address(B, nC, kC) : address(B, kC, nC);
          if (failed(addr))
            return failure();
          line(bReg + "[" + std::to_string(n) + "][" + std::to_string(q) +
               "] = " + asReg(addr->substr(1)) + ";");
        }
      }
      emitMmaGrid(aReg, bReg);
    }
    close();
    return success();
  }
  if ((aShared && failed(prepare(A))) ||
      (bShared && (failed(prepare(B)) || failed(prepare(B2)))))
    return failure();

  // A register operand: the fragment registers holding the e = 2 (16-bit)
  // or 4 (8-bit) values of each mma operand register per (tile, k-step).
  // Register q of A holds (m, k) = (g + 8 * (q % 2), e t + (kStep / 2) *
  // (q / 2) + j) of a 16 x kStep tile, register q of B holds (n, k) = (g,
  // e t + (kStep / 2) q + j) of an 8 x kStep tile, with g = lane / 4,
  // t = lane % 4 and j < e; the e values must be consecutive registers.
  int64_t perReg = 2 * cs;
  auto fitPairs = [&](bool isA,
                      SmallVector<BitLinear> &pairs) -> LogicalResult {
    const FragmentInfo *F = wholeFragment(isA ? a : b, isA ? "A" : "B");
    if (!F)
      return failure();
    int64_t regs = isA ? 4 : 2, tile = isA ? 16 : 8;
    int64_t tiles = isA ? g.mTiles : g.nTiles;
    int64_t warpTile = isA ? g.warpM : g.warpN;
    for (int64_t q = 0; q < regs; ++q) {
      SmallVector<BitLinear> h;
      for (int64_t half = 0; half < perReg; ++half) {
        FailureOr<BitLinear> f = fitGemmRegisters(
            *F, {tiles, g.k / kStep}, numThreads,
            [&](int64_t t, ArrayRef<int64_t> p) {
              auto [wmv, wnv] = warpOf(t);
              int64_t l = t % 32;
              int64_t mn = (isA ? wmv : wnv) * warpTile + p[0] * tile + l / 4 +
                           (isA ? 8 * (q % 2) : 0);
              int64_t k = p[1] * kStep + (l % 4) * perReg +
                          (kStep / 2) * (isA ? q / 2 : q) + half;
              return bufferCoord(isA, mn, k);
            },
            op, isA ? "A" : "B");
        if (failed(f))
          return failure();
        h.push_back(*f);
      }
      bool together = h[0].base[0] % perReg == 0;
      for (int64_t j = 1; j < perReg; ++j)
        together &= h[j].base[0] == h[0].base[0] + j && h[j].coef == h[0].coef;
      if (!together) {
        op.emitError() << "T.gemm: the " << (isA ? "A" : "B")
                       << " fragment does not keep the values of each mma "
                          "register in consecutive registers";
        return failure();
      }
      pairs.push_back(h[0]);
    }
    return success();
  };
  SmallVector<BitLinear> aPairs, bPairs;
  if ((!aShared && failed(fitPairs(true, aPairs))) ||
      (!bShared && failed(fitPairs(false, bPairs))))
    return failure();

  // 8-bit operands stored the other way round (A [K, M], B [K, N]): ldmatrix
  // cannot transpose byte pairs, so each register's four bytes are read
  // one by one. Register q of A holds (m, k) = (g + 8 * (q % 2), 4 t + 16 *
  // (q / 2) + j) of a 16 x 32 tile, register q of B (n, k) = (g, 4 t + 16 q
  // + j) of an 8 x 32 tile, j = 0..3 from the low byte.
  bool aBytes = !is16 && transA, bBytes = !is16 && !transB;
  // One mma register from a register operand's consecutive values.
  auto packed = [&](Value v, const std::string &first) {
    if (is16)
      return "tlc::cuda::packPair(&" + expr(v) + "[" + first + "]);";
    std::string args;
    for (int64_t j = 0; j < 4; ++j)
      args += (j ? ", " : "") + expr(v) + "[" + first +
              (j ? " + " + std::to_string(j) : std::string()) + "]";
    return "tlc::cuda::packBytes(" + args + ");";
  };
  auto elementAt = [&](Value buf, const std::string &row,
                       const std::string &col) -> FailureOr<std::string> {
    auto t = cast<BufferType>(buf.getType());
    SmallVector<std::string> idx(t.getRank(), "0");
    idx[t.getRank() - 2] = row;
    idx[t.getRank() - 1] = col;
    FailureOr<RootAccess> acc = resolve(buf, idx, op);
    if (failed(acc))
      return failure();
    FailureOr<std::string> lin = linearIndex(*acc, op);
    if (failed(lin))
      return failure();
    return expr(rootOf(buf)) + "[" + *lin + "]";
  };
  auto loadBytes = [&](bool isA, const std::string &dst, int64_t mnC,
                       int64_t kC) -> LogicalResult {
    std::string mn = (isA ? wmBase : wnBase) + " + " + lane + " / 4 + " +
                     std::to_string(mnC);
    std::string args;
    for (int64_t j = 0; j < 4; ++j) {
      std::string k = "(" + lane + " % 4) * 4 + " + std::to_string(kC + j);
      FailureOr<std::string> e =
          elementAt(isA ? a : b, k, mn); // both stored [K, MN] here
      if (failed(e))
        return failure();
      args += (j ? ", " : "") + *e;
    }
    line(dst + " = tlc::cuda::packBytes(" + args + ");");
    return success();
  };

  // The K loop, unrolled here so that every ldmatrix address is a
  // per-thread offset plus a constant.
  for (int64_t kk = 0; kk < g.k / kStep; ++kk) {
    std::string aReg = fresh("aFrag"), bReg = fresh("bFrag");
    std::string ks = std::to_string(kk);
    line("// k-step " + ks);
    line("uint32_t " + aReg + "[" + Twine(g.mTiles) + "][4];");
    line("uint32_t " + bReg + "[" + Twine(g.nTiles) + "][2];");
    for (int64_t m = 0; m < g.mTiles; ++m) {
      std::string ms = std::to_string(m);
      if (!aShared) {
        for (int64_t q = 0; q < 4; ++q)
          line(aReg + "[" + ms + "][" + Twine(q) +
               "] = " + packed(a, aPairs[q].expr(0, {ms, ks})));
        continue;
      }
      if (aBytes) {
        for (int64_t q = 0; q < 4; ++q)
          if (failed(
                  loadBytes(true, aReg + "[" + ms + "][" + Twine(q).str() + "]",
                            m * 16 + 8 * (q % 2), kk * kStep + 16 * (q / 2))))
            return failure();
        continue;
      }
      FailureOr<std::string> addr = transA ? address(A, kk * 16, m * 16)
                                           : address(A, m * 16, kk * kStep);
      if (failed(addr))
        return failure();
      line(std::string("tlc::cuda::ldmatrixX4") + (transA ? "Trans" : "") +
           "(" + aReg + "[" + ms + "][0], " + aReg + "[" + ms + "][1], " +
           aReg + "[" + ms + "][2], " + aReg + "[" + ms + "][3], " + *addr +
           ");");
    }
    if (!bShared || bBytes) {
      for (int64_t n = 0; n < g.nTiles; ++n) {
        std::string ns = std::to_string(n);
        for (int64_t q = 0; q < 2; ++q) {
          std::string dst = bReg + "[" + ns + "][" + std::to_string(q) + "]";
          if (!bShared)
            line(dst + " = " + packed(b, bPairs[q].expr(0, {ns, ks})));
          else if (failed(loadBytes(false, dst, n * 8, kk * kStep + 16 * q)))
            return failure();
        }
      }
      emitMmaGrid(aReg, bReg);
      continue;
    }
    std::string trans = transB ? "" : "Trans";
    for (int64_t n = 0; n + 1 < g.nTiles; n += 2) {
      FailureOr<std::string> addr =
          transB ? address(B, n * 8, kk * kStep) : address(B, kk * 16, n * 8);
      if (failed(addr))
        return failure();
      std::string n0 = std::to_string(n), n1 = std::to_string(n + 1);
      line("tlc::cuda::ldmatrixX4" + trans + "(" + bReg + "[" + n0 +
           "][0], " + bReg + "[" + n0 + "][1], " + bReg + "[" + n1 +
           "][0], " + bReg + "[" + n1 + "][1], " + *addr + ");");
    }
    if (g.nTiles % 2) {
      int64_t last = g.nTiles - 1;
      FailureOr<std::string> addr = transB
                                        ? address(B2, last * 8, kk * kStep)
                                        : address(B2, kk * 16, last * 8);
      if (failed(addr))
        return failure();
      std::string ls = std::to_string(last);
      line("tlc::cuda::ldmatrixX2" + trans + "(" + bReg + "[" + ls + "][0], " +
           bReg + "[" + ls + "][1], " + *addr + ");");
    }
    emitMmaGrid(aReg, bReg);
  }
  close();
  return success();
}
