//===- CUDAEmitterWgmma.cpp - T.gemm on wgmma.mma_async for CUDA ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.gemm on sm_90a where tile-plan-wgmma chose wgmma.mma_async: the block's
// warps form the warpgroup grid of the sm_90 warp partition (4 consecutive
// warps per warpgroup along M, each warpgroup owning a [M / groups, N /
// warpCols] tile of C in m64 atoms); each instruction is one m64nNk16
// (f16/bf16) or m64nNk32 (e4m3/e5m2) with the widest N <= 256 dividing the
// warpgroup's columns. A and B are read from their shared tiles through
// matrix descriptors (WgmmaDescriptor.h), or A from registers where it is
// a 16-bit fragment (`wgmma ... {a}, descB`: attention's P.V), packed in
// pairs from the fragment's wgmma A layout (gemmOperandFragment); the
// accumulator registers are those of the fragment's wgmma layout
// (gemmAccumulatorFragment), found through the layout as for mma.sync.
//
// Ordering: wgmma.fence before the first instruction (the accumulator was
// written by ordinary instructions), one commit group for the gemm and a
// wait for it at the end, before anything reads the accumulator or
// overwrites the operands' shared memory. Writers of the shared tiles fence
// their writes for the async proxy before the barrier that publishes them
// (CUDAEmitterStatements.cpp, CUDAEmitterPipeline.cpp).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Layout/WgmmaLayouts.h"
#include "tlc/Target/CUDA/WgmmaDescriptor.h"

#include "llvm/Support/Format.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The value of output 0 of \p f at \p point.
static int64_t evaluate(const BitLinear &f, ArrayRef<int64_t> point) {
  int64_t v = f.base[0];
  for (auto [input, bits] : llvm::enumerate(f.coef))
    for (auto [b, c] : llvm::enumerate(bits))
      if ((point[input] >> b) & 1)
        v += c[0];
  return v;
}

namespace {
/// One shared operand as its descriptors see it.
struct WgmmaOperand {
  Value root;
  WgmmaOperandTile tile;
  /// Descriptor bits other than the start address.
  uint64_t layoutBits = 0;
  /// The part of an instruction's start offset that depends on its M/N
  /// index (per-thread, in 16-byte units) as C++, for a runtime \p mn.
  std::string mnPart(const std::string &mn) const {
    int64_t rowBytes = getSwizzleBytes(tile.swizzle);
    int64_t width = rowBytes / tile.elemBytes;
    if (tile.kMajor)
      return "(" + mn + ") * " + std::to_string(rowBytes / 16);
    return "(" + mn + ") / " + std::to_string(width) + " * " +
           std::to_string(tile.rows * rowBytes / 16) + " + (" + mn + ") % " +
           std::to_string(width) + " / " + std::to_string(16 / tile.elemBytes);
  }
  /// The same in bytes for a known \p mn.
  int64_t mnBytes(int64_t mn) const {
    int64_t rowBytes = getSwizzleBytes(tile.swizzle);
    int64_t width = rowBytes / tile.elemBytes;
    if (tile.kMajor)
      return mn * rowBytes;
    return mn / width * tile.rows * rowBytes + mn % width * tile.elemBytes;
  }
};
} // namespace

/// An operand of \p op in tile \p root as a descriptor operand: a whole static
/// shared tile, or a region of one (a stage `A[s, :, :]` of a [stages, M,
/// K] tile, a K split `A[:, 0:64]`) read through the descriptors of its
/// tile, started at the region's first element (tile-plan-wgmma chose
/// regions whose start the descriptors can address).
static FailureOr<WgmmaOperand> describeOperand(Value root, int64_t swizzleBytes,
                                               bool kMajor, GemmOp op,
                                               StringRef which) {
  auto t = cast<BufferType>(root.getType());
  if (t.getRank() < 2 || !t.isStatic()) {
    op.emitError() << "T.gemm (wgmma): operand " << which
                   << " must be a static shared tile or a region of one";
    return failure();
  }
  WgmmaOperand o;
  o.root = root;
  o.tile.rows = t.getShape()[t.getRank() - 2];
  o.tile.cols = t.getShape()[t.getRank() - 1];
  o.tile.elemBytes = getElementStorageBytes(t.getElementType());
  o.tile.kMajor = kMajor;
  llvm::Expected<WgmmaSwizzle> mode = getSwizzleForBytes(swizzleBytes);
  if (!mode) {
    op.emitError() << "T.gemm (wgmma): " << llvm::toString(mode.takeError());
    return failure();
  }
  o.tile.swizzle = *mode;
  llvm::Expected<WgmmaOperandAccess> first =
      getWgmmaOperandAccess(o.tile, 0, 0);
  if (!first) {
    op.emitError() << "T.gemm (wgmma): operand " << which << ": "
                   << llvm::toString(first.takeError());
    return failure();
  }
  llvm::Expected<uint64_t> bits = encodeWgmmaDescriptor(
      0, first->leadingByteOffset, first->strideByteOffset, o.tile.swizzle);
  if (!bits) {
    op.emitError() << "T.gemm (wgmma): operand " << which << ": "
                   << llvm::toString(bits.takeError());
    return failure();
  }
  o.layoutBits = *bits;
  return o;
}

LogicalResult Emitter::emitWgmma(GemmOp op) {
  beginOp(op, "T.gemm (wgmma.mma_async)");
  auto aType = cast<BufferType>(op.getA().getType());
  auto cType = cast<BufferType>(op.getC().getType());
  Type ab = aType.getElementType();
  bool is16 = ab.isF16() || ab.isBF16();
  // f16 x f16 may accumulate in f16 (`.f16.f16.f16`, pairs in registers).
  bool f16Acc = ab.isF16() && cType.getElementType().isF16();
  if (!(cType.getElementType().isF32() || f16Acc) ||
      !(is16 || isa<Float8E4M3FNType, Float8E5M2Type>(ab))) {
    op.emitError("T.gemm (wgmma): f16/bf16 or e4m3/e5m2 operands with an f32 "
                 "accumulator, or f16 ones with an f16 accumulator, only");
    return failure();
  }
  std::string suffix = ab.isF16()                  ? "F16"
                       : ab.isBF16()               ? "BF16"
                       : isa<Float8E4M3FNType>(ab) ? "E4M3"
                                                   : "E5M2";
  int64_t kStep = is16 ? 16 : 32;
  Value c = op.getC();
  auto cIt = fragments.find(c);
  if (cIt == fragments.end()) {
    op.emitError("T.gemm needs a whole fragment accumulator");
    return failure();
  }
  const FragmentInfo &C = cIt->second;
  bool transA = op.getTransposeA(), transB = op.getTransposeB();
  int64_t m = C.shape[0], n = C.shape[1];
  // K of the operand itself (a K split reads part of its tile's K).
  auto aShape = cast<BufferType>(op.getA().getType()).getShape();
  int64_t k = transA ? aShape[aShape.size() - 2] : aShape.back();
  const layout::FragmentOrigin &origin = C.layout.getOrigin();
  int64_t warpRows = origin.warpRows, warpCols = origin.warpCols;
  if (warpRows <= 0 || warpRows % 4 || warpCols <= 0 ||
      warpRows * warpCols * 32 != numThreads || k % kStep) {
    op.emitError("T.gemm (wgmma): the accumulator has no warpgroup grid for "
                 "this block");
    return failure();
  }
  // The warpgroup grid on the accumulator's warps: layout::wgmmaGrid's
  // (the one wgmma configuration, which tile-plan-wgmma and the operand
  // layouts read), or an annotated accumulator's policy's.
  layout::GemmConfig config;
  config.arch = layout::GemmArch::SM90;
  config.m = m;
  config.n = n;
  config.k = k;
  config.transA = transA;
  config.transB = transB;
  config.threads = numThreads;
  layout::WgmmaGrid grid =
      layout::wgmmaGridOn(config, layout::WarpPartition{warpRows, warpCols});
  if (!grid.wholeTiles()) {
    op.emitError("T.gemm (wgmma): warpgroup tiles must be multiples of 64 x 8");
    return failure();
  }
  int64_t groups = grid.groups, groupM = m / groups, warpN = grid.warpN;
  int64_t mAtoms = groupM / 64;
  int64_t nInstr = grid.instrN;
  int64_t nChunks = warpN / nInstr, regs = nInstr / 2;

  // Accumulator registers of instruction (mi, chunk): consecutive, from
  // the fragment's layout.
  auto coord = [&](int64_t t, ArrayRef<int64_t> p) {
    int64_t warp = t / 32, lane = t % 32;
    int64_t wm = warp % warpRows, wn = warp / warpRows;
    int64_t r = p[2];
    return SmallVector<int64_t>{(wm / 4) * groupM + p[0] * 64 + 16 * (wm % 4) +
                                    lane / 4 + 8 * ((r / 2) % 2),
                                wn * warpN + p[1] * nInstr + 8 * (r / 4) +
                                    2 * (lane % 4) + r % 2};
  };
  FailureOr<BitLinear> fit =
      fitGemmRegisters(C, {mAtoms, nChunks, regs}, numThreads, coord, op,
                       "accumulator", "wgmma");
  if (failed(fit))
    return failure();
  for (int64_t mi = 0; mi < mAtoms; ++mi)
    for (int64_t ch = 0; ch < nChunks; ++ch)
      for (int64_t r = 0; r < regs; ++r)
        if (evaluate(*fit, {mi, ch, r}) != evaluate(*fit, {mi, ch, 0}) + r) {
          op.emitError("T.gemm (wgmma): the accumulator layout does not keep "
                       "an instruction's registers consecutive");
          return failure();
        }
  // An f16 accumulator is passed as 32-bit registers of pairs.
  if (f16Acc)
    for (int64_t mi = 0; mi < mAtoms; ++mi)
      for (int64_t ch = 0; ch < nChunks; ++ch)
        if (evaluate(*fit, {mi, ch, 0}) % 2) {
          op.emitError("T.gemm (wgmma): the f16 accumulator layout does not "
                       "pair an instruction's values in 32-bit registers");
          return failure();
        }

  Value aRoot = rootOf(op.getA()), bRoot = rootOf(op.getB());
  // A from registers (the RS form): the fragment's registers of instruction
  // (mi, kk), element i, at the wgmma A placement (wgmma.h).
  bool aInRegs = scopeOf(aRoot) == MemoryScope::Fragment;
  std::optional<BitLinear> aFit;
  if (aInRegs) {
    auto aIt = fragments.find(aRoot);
    if (!is16 || transA || aRoot != op.getA() || aIt == fragments.end()) {
      op.emitError("T.gemm (wgmma): a register A operand must be a whole "
                   "16-bit fragment stored [M, K]");
      return failure();
    }
    FailureOr<BitLinear> fit = fitGemmRegisters(
        aIt->second, {mAtoms, k / kStep, 8}, numThreads,
        [&](int64_t t, ArrayRef<int64_t> p) {
          int64_t wm = (t / 32) % warpRows, lane = t % 32, i = p[2];
          return SmallVector<int64_t>{
              (wm / 4) * groupM + p[0] * 64 + 16 * (wm % 4) + lane / 4 +
                  8 * ((i / 2) % 2),
              p[1] * kStep + 2 * (lane % 4) + i % 2 + 8 * (i / 4)};
        },
        op, "A", "wgmma");
    if (failed(fit))
      return failure();
    for (int64_t mi = 0; mi < mAtoms; ++mi)
      for (int64_t kk = 0; kk < k / kStep; ++kk)
        for (int64_t i = 0; i < 8; i += 2)
          if (evaluate(*fit, {mi, kk, i + 1}) !=
              evaluate(*fit, {mi, kk, i}) + 1) {
            op.emitError("T.gemm (wgmma): the A fragment does not pair its "
                         "16-bit values in registers");
            return failure();
          }
    aFit = *fit;
  }
  auto swA = panelSwizzle.find(aRoot), swB = panelSwizzle.find(bRoot);
  if ((!aInRegs && swA == panelSwizzle.end()) || swB == panelSwizzle.end()) {
    op.emitError("T.gemm (wgmma): the operands have no swizzled panels (run "
                 "--tile-plan-wgmma)");
    return failure();
  }
  FailureOr<WgmmaOperand> A = WgmmaOperand();
  if (!aInRegs)
    A = describeOperand(aRoot, swA->second, !transA, op, "A");
  FailureOr<WgmmaOperand> B =
      describeOperand(bRoot, swB->second, transB, op, "B");
  if (failed(A) || failed(B))
    return failure();
  // Every instruction's start, checked here: the per-thread M/N part plus
  // the K part must be what the tile layout says.
  auto kBytes = [&](const WgmmaOperand &o, int64_t k0) -> FailureOr<int64_t> {
    llvm::Expected<WgmmaOperandAccess> acc =
        getWgmmaOperandAccess(o.tile, 0, k0);
    if (!acc) {
      op.emitError() << "T.gemm (wgmma): " << llvm::toString(acc.takeError());
      return failure();
    }
    return acc->startOffset;
  };
  auto check = [&](const WgmmaOperand &o, StringRef which, int64_t mn0,
                   int64_t k0) -> LogicalResult {
    llvm::Expected<WgmmaOperandAccess> acc =
        getWgmmaOperandAccess(o.tile, mn0, k0);
    FailureOr<int64_t> kb = kBytes(o, k0);
    if (!acc || failed(kb) || acc->startOffset != o.mnBytes(mn0) + *kb) {
      if (!acc)
        llvm::consumeError(acc.takeError());
      op.emitError() << "T.gemm (wgmma): the instruction at " << which
                     << "'s element (" << (which == "A" ? "M" : "N") << " "
                     << mn0 << ", K " << k0
                     << ") does not start where its tile puts it";
      return failure();
    }
    return success();
  };
  for (int64_t kk = 0; kk < k / kStep; ++kk) {
    for (int64_t g = 0; g < groups && !aInRegs; ++g)
      for (int64_t mi = 0; mi < mAtoms; ++mi)
        if (failed(check(*A, "A", g * groupM + mi * 64, kk * kStep)))
          return failure();
    for (int64_t wn = 0; wn < warpCols; ++wn)
      for (int64_t ch = 0; ch < nChunks; ++ch)
        if (failed(check(*B, "B", wn * warpN + ch * nInstr, kk * kStep)))
          return failure();
  }

  auto hex = [](uint64_t v) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::format_hex(v, 18) << "ull";
    return s;
  };
  // A gemm whose wait the loop places (wgmmaNoWait, the softmax overlap)
  // declares its A registers before its scope: they must not change until
  // that wait.
  bool noWait = wgmmaNoWait.contains(op.getOperation());
  std::string aFragName = fresh("aFrag");
  if (aInRegs && noWait)
    line("uint32_t " + aFragName + "[" + Twine(mAtoms) + "][" +
         Twine(k / kStep) + "][4];  // wgmma A registers, read until the wait");
  // The warpgroup's place in the grid: warpgroup g = tid / 128 is row
  // g % groups along M and column g / groups along N. g is read through a
  // warp broadcast (or the warp-specialised kernel's broadcast index), so
  // that nvcc proves it and the descriptors warp-uniform: computed per
  // thread, each descriptor operand would be moved to a uniform register
  // (R2UR) before every instruction (docs/perf/hopper.md, SASS opcode mix).
  std::string aDesc = fresh("aDesc"), bDesc = fresh("bDesc");
  open("");
  std::string gm, gn;
  if (groups * warpCols > 1) {
    std::string wg = wsWarpGroup;
    if (wg.empty()) {
      wg = fresh("warpGroup");
      line("const int " + wg +
           " = __shfl_sync(0xffffffff, tid / 128, 0);  // warp-uniform");
    }
    if (groups > 1 && !aInRegs) {
      gm = fresh("gm");
      line("const int " + gm + " = " + wg + " % " + Twine(groups) +
           ";  // the warpgroup's row of " + Twine(groups) + " along M");
    }
    if (warpCols > 1) {
      gn = fresh("gn");
      line("const int " + gn + " = " + wg +
           (groups > 1 ? " / " + std::to_string(groups) : std::string()) +
           ";  // its column of " + std::to_string(warpCols) + " along N");
    }
  }
  // A region operand's descriptors start at its first element: its
  // offset in the tile's panels (a whole number of 16-byte units).
  FailureOr<std::string> aStart = std::string(),
                         bStart = operandTileStart(op.getB(), op);
  if (!aInRegs)
    aStart = operandTileStart(op.getA(), op);
  if (failed(aStart) || failed(bStart))
    return failure();
  if (!aInRegs)
    line("const uint64_t " + aDesc + " = tlc::cuda::wgmmaDescriptor(" +
         *aStart + ", " + hex(A->layoutBits) + ");");
  line("const uint64_t " + bDesc + " = tlc::cuda::wgmmaDescriptor(" + *bStart +
       ", " + hex(B->layoutBits) + ");");
  auto place = [](const std::string &index, int64_t size, int64_t offset) {
    if (index.empty())
      return std::to_string(offset);
    return index + " * " + std::to_string(size) + " + " +
           std::to_string(offset);
  };
  SmallVector<std::string> aMn, bMn;
  for (int64_t mi = 0; mi < mAtoms && !aInRegs; ++mi) {
    std::string name = fresh("aRow");
    line("const uint32_t " + name + " = " +
         A->mnPart(place(gm, groupM, mi * 64)) + ";");
    aMn.push_back(name);
  }
  for (int64_t ch = 0; ch < nChunks; ++ch) {
    std::string name = fresh("bCol");
    line("const uint32_t " + name + " = " +
         B->mnPart(place(gn, warpN, ch * nInstr)) + ";");
    bMn.push_back(name);
  }
  // Register A: the instructions' 32-bit registers, packed before the
  // fence (which orders these writes before wgmma reads them) and kept
  // unchanged in this scope until the wait.
  std::string aFrag = aFragName;
  if (aInRegs) {
    if (!noWait)
      line("uint32_t " + aFrag + "[" + Twine(mAtoms) + "][" +
           Twine(k / kStep) + "][4];  // wgmma A registers");
    for (int64_t mi = 0; mi < mAtoms; ++mi)
      for (int64_t kk = 0; kk < k / kStep; ++kk)
        for (int64_t q = 0; q < 4; ++q)
          line(aFrag + "[" + Twine(mi) + "][" + Twine(kk) + "][" + Twine(q) +
               "] = tlc::cuda::packPair(&" + expr(aRoot) + "[" +
               Twine(evaluate(*aFit, {mi, kk, 2 * q})) + "]);");
  }
  // tile-warp-specialize's ping-pong: wait for this warpgroup's turn at
  // the tensor cores (the loop's tile.ws_pingpong names the barriers; the
  // loop's printer says which gemms take and hand over the turn). The
  // barrier ids are immediates in warp-uniform branches (they were
  // computed from tid when racecheck reported hazards across the
  // consumers' barrier 1: docs/perf/hopper-fa-overlap.md).
  IntegerAttr pingPong;
  if (auto pipe = op->getParentOfType<PipelinedOp>())
    pingPong = pipe->getAttrOfType<IntegerAttr>("tile.ws_pingpong");
  int64_t turn = pingPong ? pingPong.getInt() : 0;
  if (pingPong && wsTurnTake.contains(op.getOperation()))
    line("if (" + consumerWarpGroupIs(true) + ") tlc::cuda::namedBarrierSync(" +
         Twine(turn) + ", " + Twine(blockThreads) +
         "); else tlc::cuda::namedBarrierSync(" + Twine(turn + 1) + ", " +
         Twine(blockThreads) + ");  // ping-pong: this warpgroup's turn");
  line("tlc::cuda::wgmmaFence();");
  std::string callee = "tlc::cuda::wgmmaM64N" + std::to_string(nInstr) + "K" +
                       std::to_string(kStep) + (f16Acc ? "F16" : "F32") +
                       suffix;
  if (aInRegs)
    callee += std::string("RS<") + (transB ? "0" : "1") + ">";
  else if (is16)
    callee += std::string("<") + (transA ? "1" : "0") + ", " +
              (transB ? "0" : "1") + ">";
  // tile-split-masks folded the mask's all-true fill of C into the first
  // k step: scale-d = 0 (C = A * B) where the guard before holds.
  std::string firstScale = op.getClearAccum() ? "0" : "1";
  if (op->hasAttr("tile.scale_d_mask")) {
    Operation *prev = op->getPrevNode();
    while (prev && !prev->hasAttr("tile.split_mask_scale_d"))
      prev = prev->getPrevNode();
    auto mask = dyn_cast_or_null<IfOp>(prev);
    if (!mask)
      return op.emitOpError("tile.scale_d_mask without the mask's branch");
    firstScale = maskAllTrue.contains(mask)
                     ? "0"
                     : "(" + expr(mask.getCondition()) + " ? 0 : 1)";
  }
  // A shared A operand that is not a pipeline's staged buffer (attention's
  // Q) is the same in every iteration of the loop around the gemm: its
  // sums are formed by wgmmaDescriptorAdd where the wgmma is, so that they
  // stay on the uniform datapath instead of being hoisted into vector
  // registers and moved back by R2UR before each wgmma.
  bool aFixed = !aInRegs && !stagedBuffers.count(aRoot) &&
                op->getParentOfType<PipelinedOp>();
  for (int64_t kk = 0; kk < k / kStep; ++kk) {
    FailureOr<int64_t> kb = kBytes(*B, kk * kStep);
    FailureOr<int64_t> ka =
        aInRegs ? FailureOr<int64_t>(0) : kBytes(*A, kk * kStep);
    if (failed(ka) || failed(kb))
      return failure();
    std::string scale = kk == 0 ? firstScale : "1";
    for (int64_t mi = 0; mi < mAtoms; ++mi) {
      std::string aArg = aInRegs ? aFrag + "[" + std::to_string(mi) + "][" +
                                       std::to_string(kk) + "]"
                         : aFixed ? "tlc::cuda::wgmmaDescriptorAdd(" + aDesc +
                                        ", " + aMn[mi] + " + " +
                                        std::to_string(*ka / 16) + ")"
                                  : aDesc + " + (" + aMn[mi] + " + " +
                                        std::to_string(*ka / 16) + ")";
      for (int64_t ch = 0; ch < nChunks; ++ch)
        line(callee + "(" + (f16Acc ? "reinterpret_cast<uint32_t *>(&" : "&") +
             expr(c) + "[" + std::to_string(evaluate(*fit, {mi, ch, 0})) + "]" +
             (f16Acc ? ")" : "") + ", " + aArg + ", " + bDesc + " + (" +
             bMn[ch] + " + " + std::to_string(*kb / 16) + "), " + scale + ");");
    }
  }
  line("tlc::cuda::wgmmaCommit();");
  if (pingPong && wsTurnHandOver.contains(op.getOperation()))
    line("if (" + consumerWarpGroupIs(true) +
         ") tlc::cuda::namedBarrierArrive(" + Twine(turn + 1) + ", " +
         Twine(blockThreads) + "); else tlc::cuda::namedBarrierArrive(" +
         Twine(turn) + ", " + Twine(blockThreads) +
         ");  // ping-pong: the other warpgroup's turn");
  // tile-warp-specialize may keep this group in flight into the next
  // iteration (the loop then waits for it and releases its stage).
  if (noWait)
    line("// the loop waits for this group (softmax overlap)");
  else if (auto depth = op->getAttrOfType<IntegerAttr>("tile.wgmma_wait"))
    line("tlc::cuda::wgmmaWait<" + Twine(depth.getInt()) +
         ">();  // the previous iteration's group is done: its stage may be "
         "refilled");
  else
    line("tlc::cuda::wgmmaWait<0>();  // C is read, the operands' stage "
         "refilled, after this");
  close();
  return success();
}
