//===- CUDAEmitterGemm.cpp - T.gemm on mma.sync for CUDA ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.gemm with 16-bit A/B and an f32 accumulator on sm_80+: the block's
// warps form the warp grid of TLCLayout's gemmWarpPartition(); each warp
// walks K in steps of 16, loads its A and B operand registers with
// ldmatrix (`.trans` where the tile is stored the other way round) from
// the swizzled shared tiles, or packs them from a register fragment
// (gemm_rs), and issues mma.sync.m16n8k16 into the accumulator fragment,
// whose registers are found through its layout (gemmAccumulatorFragment).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Layout/GemmLayouts.h"

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

/// A fitted register-index map of a fragment for the given per-thread
/// coordinates, or failure (diagnostic on \p at).
static FailureOr<BitLinear>
fitRegisters(const FragmentInfo &f, ArrayRef<int64_t> extents,
             int64_t threads,
             function_ref<SmallVector<int64_t>(int64_t tid, ArrayRef<int64_t>)>
                 coordOf,
             Operation *at, StringRef what) {
  std::string err;
  std::optional<BitLinear> fit = BitLinear::fit(
      extents, 1,
      [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
        int64_t idx = -1;
        for (int64_t t = 0; t < threads; ++t) {
          SmallVector<int64_t> c = coordOf(t, p);
          int64_t found = -1;
          for (int64_t rep = 0; rep < f.layout.getReplicate(); ++rep) {
            std::optional<layout::FragmentSlot> s = f.layout.apply(c, rep);
            if (s && s->thread == t)
              found = s->index;
          }
          if (found < 0 || (idx >= 0 && idx != found))
            return std::nullopt;
          idx = found;
        }
        return SmallVector<int64_t>{idx};
      });
  if (!fit) {
    at->emitError() << "T.gemm: the " << what << " fragment layout "
                    << f.layout.shortLabel()
                    << " does not give each thread the mma.sync registers";
    return failure();
  }
  return *fit;
}

LogicalResult Emitter::emitGemm(GemmOp op) {
  beginOp(op, "T.gemm");
  auto aType = cast<BufferType>(op.getA().getType());
  auto bType = cast<BufferType>(op.getB().getType());
  auto cType = cast<BufferType>(op.getC().getType());
  Type ab = aType.getElementType();
  if (!(ab.isF16() || ab.isBF16()) || !cType.getElementType().isF32() ||
      bType.getElementType() != ab) {
    op.emitError("the CUDA target lowers T.gemm for f16/bf16 operands with "
                 "an f32 accumulator (mma.sync.m16n8k16)");
    return failure();
  }
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
  if ((transB ? bs[1] : bs[0]) != g.k || g.k % 16 != 0) {
    op.emitError("T.gemm: K must agree and be a multiple of 16");
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
    FailureOr<BitLinear> f = fitRegisters(
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

  std::string mma = std::string("tlc::cuda::mmaM16N8K16<tlc::cuda::") +
                    (ab.isF16() ? "half" : "bfloat16") + ">";
  std::string warp = fresh("warp"), lane = fresh("lane"), wm = fresh("wm"),
              wn = fresh("wn"), kk = fresh("kk"), mi = fresh("mi"),
              ni = fresh("ni"), aReg = fresh("aFrag"), bReg = fresh("bFrag");
  open("");
  if (op.getClearAccum()) {
    std::string r = fresh("r");
    line("#pragma unroll");
    line("for (int " + r + " = 0; " + r + " < " + Twine(C.regs) + "; ++" + r +
         ") " + expr(c) + "[" + r + "] = 0.0f;");
  }
  line("const int " + warp + " = tid / 32, " + lane + " = tid % 32;");
  line("const int " + wm + " = " + warp + " % " + Twine(g.warpRows) + ", " +
       wn + " = " + warp + " / " + Twine(g.warpRows) + ";  // warp grid " +
       Twine(g.warpRows) + " x " + Twine(g.warpCols));
  line("#pragma unroll");
  open("for (int " + kk + " = 0; " + kk + " < " + Twine(g.k / 16) + "; ++" +
       kk + ")");
  line("uint32_t " + aReg + "[" + Twine(g.mTiles) + "][4];");
  line("uint32_t " + bReg + "[" + Twine(g.nTiles) + "][2];");

  // Address of element (r, c) of a shared operand.
  auto sharedAddr = [&](Value buf, const std::string &r,
                        const std::string &col) -> FailureOr<std::string> {
    auto t = cast<BufferType>(buf.getType());
    SmallVector<std::string> idx(t.getRank(), "0");
    idx[t.getRank() - 2] = r;
    idx[t.getRank() - 1] = col;
    FailureOr<RootAccess> a = resolve(buf, idx, op);
    if (failed(a))
      return failure();
    FailureOr<std::string> lin = linearIndex(*a, op);
    if (failed(lin))
      return failure();
    return "&" + expr(a->root) + "[" + *lin + "]";
  };

  // A operand.
  Value a = op.getA();
  line("#pragma unroll");
  open("for (int " + mi + " = 0; " + mi + " < " + Twine(g.mTiles) + "; ++" +
       mi + ")");
  if (isSharedScope(scopeOf(rootOf(a)))) {
    std::string rowBase = wm + " * " + std::to_string(g.warpM) + " + " + mi +
                          " * 16";
    FailureOr<std::string> addr =
        transA ? sharedAddr(a,
                            kk + " * 16 + " + lane + " % 8 + (" + lane +
                                " / 16) * 8",
                            rowBase + " + ((" + lane + " / 8) % 2) * 8")
               : sharedAddr(a, rowBase + " + " + lane + " % 16",
                            kk + " * 16 + (" + lane + " / 16) * 8");
    if (failed(addr))
      return failure();
    line(std::string("tlc::cuda::ldmatrixX4") + (transA ? "Trans" : "") +
         "(" + aReg + "[" + mi + "][0], " + aReg + "[" + mi + "][1], " +
         aReg + "[" + mi + "][2], " + aReg + "[" + mi + "][3], " + *addr +
         ");");
  } else {
    auto aIt = fragments.find(a);
    if (aIt == fragments.end() || transA) {
      op.emitError("T.gemm: a register A operand must be a whole fragment "
                   "stored [M, K]");
      return failure();
    }
    const FragmentInfo &A = aIt->second;
    for (int64_t q = 0; q < 4; ++q) {
      SmallVector<BitLinear> h;
      for (int64_t half = 0; half < 2; ++half) {
        FailureOr<BitLinear> f = fitRegisters(
            A, {g.mTiles, g.k / 16}, numThreads,
            [&](int64_t t, ArrayRef<int64_t> p) {
              auto [wmv, wnv] = warpOf(t);
              (void)wnv;
              int64_t l = t % 32;
              return SmallVector<int64_t>{
                  wmv * g.warpM + p[0] * 16 + l / 4 + 8 * (q % 2),
                  p[1] * 16 + (l % 4) * 2 + 8 * (q / 2) + half};
            },
            op, "A");
        if (failed(f))
          return failure();
        h.push_back(*f);
      }
      if (h[1].base[0] != h[0].base[0] + 1 || h[1].coef != h[0].coef ||
          h[0].base[0] % 2) {
        op.emitError("T.gemm: the A fragment does not pair its 16-bit "
                     "values in registers");
        return failure();
      }
      line(aReg + "[" + mi + "][" + Twine(q) + "] = tlc::cuda::packPair(&" +
           expr(a) + "[" + h[0].expr(0, {mi, kk}) + "]);");
    }
  }
  close();

  // B operand, two n8 tiles per ldmatrix.x4 (x2 for an odd last one).
  Value b = op.getB();
  if (!isSharedScope(scopeOf(rootOf(b)))) {
    op.emitError("T.gemm: the CUDA target needs B in shared memory");
    return failure();
  }
  auto bAddr = [&](const std::string &nBase, bool pair)
      -> FailureOr<std::string> {
    // Lane l addresses matrix q = l / 8 (x2: q = (l / 8) % 2), row l % 8.
    std::string q = pair ? "(" + lane + " / 8)" : "((" + lane + " / 8) % 2)";
    if (transB) // stored [N, K]: rows n, matrices (n-tile, k-half)
      return sharedAddr(b,
                        nBase + " + " + lane + " % 8" +
                            (pair ? " + (" + q + " / 2) * 8" : ""),
                        kk + " * 16 + (" + q + " % 2) * 8");
    return sharedAddr(b, kk + " * 16 + " + lane + " % 8 + (" + q + " % 2) * 8",
                      nBase + (pair ? " + (" + q + " / 2) * 8" : ""));
  };
  std::string trans = transB ? "" : "Trans";
  if (g.nTiles >= 2) {
    line("#pragma unroll");
    open("for (int " + ni + " = 0; " + ni + " + 1 < " + Twine(g.nTiles) +
         "; " + ni + " += 2)");
    FailureOr<std::string> addr =
        bAddr(wn + " * " + std::to_string(g.warpN) + " + " + ni + " * 8", true);
    if (failed(addr))
      return failure();
    line("tlc::cuda::ldmatrixX4" + trans + "(" + bReg + "[" + ni + "][0], " +
         bReg + "[" + ni + "][1], " + bReg + "[" + ni + " + 1][0], " + bReg +
         "[" + ni + " + 1][1], " + *addr + ");");
    close();
  }
  if (g.nTiles % 2) {
    std::string last = std::to_string(g.nTiles - 1);
    FailureOr<std::string> addr = bAddr(
        wn + " * " + std::to_string(g.warpN) + " + " + last + " * 8", false);
    if (failed(addr))
      return failure();
    line("tlc::cuda::ldmatrixX2" + trans + "(" + bReg + "[" + last + "][0], " +
         bReg + "[" + last + "][1], " + *addr + ");");
  }

  // The mma grid.
  line("#pragma unroll");
  open("for (int " + mi + " = 0; " + mi + " < " + Twine(g.mTiles) + "; ++" +
       mi + ")");
  line("#pragma unroll");
  line("for (int " + ni + " = 0; " + ni + " < " + Twine(g.nTiles) + "; ++" +
       ni + ") " + mma + "(&" + expr(c) + "[" + cq[0].expr(0, {mi, ni}) +
       "], " + aReg + "[" + mi + "], " + bReg + "[" + ni + "]);");
  close();
  close();
  close();
  return success();
}
