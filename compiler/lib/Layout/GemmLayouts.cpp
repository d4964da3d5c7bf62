//===- GemmLayouts.cpp - Tensor-core operand and accumulator layouts ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Warp-level atoms are written in the "forward" form (element -> lane,
// register); block-level layouts tile them with Fragment::repeat and
// Fragment::replicate: first over the warp's own tile on the register index,
// then over the warp grid on the thread.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/SharedLayouts.h"
#include "tlc/Layout/WgmmaLayouts.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::StringRef tlc::layout::stringifyGemmInstr(GemmInstr instr) {
  switch (instr) {
  case GemmInstr::MMA:
    return "mma";
  case GemmInstr::WGMMA:
    return "wgmma";
  case GemmInstr::MFMA:
    return "mfma";
  }
  return "mma";
}

llvm::StringRef tlc::layout::stringifyGemmOperand(GemmOperand operand) {
  switch (operand) {
  case GemmOperand::A:
    return "A";
  case GemmOperand::B:
    return "B";
  case GemmOperand::C:
    return "C";
  }
  return "C";
}

llvm::StringRef tlc::layout::stringifyWarpPolicy(WarpPolicy policy) {
  switch (policy) {
  case WarpPolicy::Square:
    return "Square";
  case WarpPolicy::FullRow:
    return "FullRow";
  case WarpPolicy::FullCol:
    return "FullCol";
  }
  return "Square";
}

std::optional<WarpPolicy> tlc::layout::parseWarpPolicy(llvm::StringRef text) {
  text.consume_front("T.");
  text.consume_front("GemmWarpPolicy.");
  return llvm::StringSwitch<std::optional<WarpPolicy>>(text)
      .Case("Square", WarpPolicy::Square)
      .Case("FullRow", WarpPolicy::FullRow)
      .Case("FullCol", WarpPolicy::FullCol)
      .Default(std::nullopt);
}

int64_t tlc::layout::warpSizeOf(GemmArch arch) {
  return arch == GemmArch::CDNA ? 64 : 32;
}

//===----------------------------------------------------------------------===//
// Warp partition
//===----------------------------------------------------------------------===//

/// The covering partition \p policy picks for an \p m x \p n accumulator
/// over \p numWarps warps, each owning a multiple of \p mPerWarp rows and
/// \p nPerWarp columns, the warp rows a multiple of \p rowStep (TileLang's
/// search since its issue 2537: a partition whose warps do not tile the
/// accumulator exactly would leave rows or columns unwritten):
///  * FullRow: the most warp rows, FullCol: the most warp columns;
///  * Square: the partition whose per-warp tile ratio is nearest the
///    accumulator's, the fewest warp rows on a tie (in single precision, as
///    TileLang computes it).
/// With \p usable, only the partitions it accepts are considered.
static std::optional<WarpPartition>
coveringPartition(WarpPolicy policy, int64_t m, int64_t n, int64_t numWarps,
                  int64_t mPerWarp, int64_t nPerWarp, int64_t rowStep,
                  llvm::function_ref<bool(int64_t, int64_t)> usable = nullptr) {
  auto valid = [&](int64_t wm) {
    if (wm <= 0 || wm % rowStep != 0 || numWarps % wm != 0)
      return false;
    int64_t wn = numWarps / wm;
    return m % (wm * mPerWarp) == 0 && n % (wn * nPerWarp) == 0 &&
           (!usable || usable(wm, wn));
  };
  std::optional<WarpPartition> found;
  switch (policy) {
  case WarpPolicy::FullRow:
    for (int64_t wm = numWarps; wm >= 1 && !found; --wm)
      if (valid(wm))
        found = WarpPartition{wm, numWarps / wm};
    break;
  case WarpPolicy::FullCol:
    for (int64_t wn = numWarps; wn >= 1 && !found; --wn)
      if (numWarps % wn == 0 && valid(numWarps / wn))
        found = WarpPartition{numWarps / wn, wn};
    break;
  case WarpPolicy::Square: {
    float ideal = n > 0 ? static_cast<float>(m) / n : 1.0f;
    float best = std::numeric_limits<float>::max();
    for (int64_t wm = 1; wm <= numWarps; ++wm) {
      if (!valid(wm))
        continue;
      int64_t wn = numWarps / wm;
      float mPer = static_cast<float>(m) / (wm * mPerWarp);
      float nPer = static_cast<float>(n) / (wn * nPerWarp);
      float balance = std::abs(mPer / nPer - ideal);
      if (balance < best) {
        best = balance;
        found = WarpPartition{wm, wn};
      }
    }
    break;
  }
  }
  return found;
}

static llvm::Expected<WarpPartition>
partitionMMA(WarpPolicy policy, int64_t m, int64_t n, int64_t numWarps) {
  const int64_t mPerWarp = 16, nPerWarp = 8;
  if (m % mPerWarp != 0)
    return makeError("gemm M = " + llvm::Twine(m) +
                     " must be a multiple of 16");
  if (n % nPerWarp != 0)
    return makeError("gemm N = " + llvm::Twine(n) +
                     " must be a multiple of 8");
  if (std::optional<WarpPartition> p = coveringPartition(
          policy, m, n, numWarps, mPerWarp, nPerWarp, /*rowStep=*/1))
    return *p;
  return makeError("no " + stringifyWarpPolicy(policy) +
                   " warp partition of " + llvm::Twine(numWarps) +
                   " warps for a " + llvm::Twine(m) + "x" + llvm::Twine(n) +
                   " accumulator: each warp must own a multiple of 16 rows "
                   "and 8 columns");
}

static llvm::Expected<WarpPartition>
partitionWGMMA(WarpPolicy policy, int64_t m, int64_t n, int64_t numWarps) {
  const int64_t mPerWarp = 16, nPerWarp = 8, group = 4;
  if (numWarps % group != 0)
    return makeError("wgmma needs a multiple of 128 threads, got " +
                     llvm::Twine(numWarps) + " warps");
  if (m % mPerWarp != 0 || n % nPerWarp != 0)
    return makeError("wgmma needs M % 16 == 0 and N % 8 == 0, got " +
                     llvm::Twine(m) + "x" + llvm::Twine(n));
  // A warpgroup tile of several 64-row atoms over a column width whose
  // registers are not a power of two (N = 448 on 4 x 2 warps: two atoms of
  // 112 registers, register r = 112 * atom + i) has no thread/register map
  // linear in the bits of the register number, which the printers index
  // registers with; the policy's partition among those whose map is (8 x 1:
  // one atom of 224 registers, its columns linear in r / 4) is taken then.
  // The accumulator is the same product on any partition.
  auto indexable = [&](int64_t wm, int64_t wn) {
    int64_t groupM = m / (wm / group), regs = n / wn / 2;
    return groupM <= 64 || llvm::isPowerOf2_64(regs);
  };
  if (std::optional<WarpPartition> p =
          coveringPartition(policy, m, n, numWarps, mPerWarp, nPerWarp,
                            /*rowStep=*/group, indexable))
    return *p;
  if (std::optional<WarpPartition> p = coveringPartition(
          policy, m, n, numWarps, mPerWarp, nPerWarp, /*rowStep=*/group))
    return *p;
  return makeError("no " + stringifyWarpPolicy(policy) +
                   " wgmma warp partition of " + llvm::Twine(numWarps) +
                   " warps for a " + llvm::Twine(m) + "x" + llvm::Twine(n) +
                   " accumulator: each warp must own a multiple of 16 rows "
                   "and 8 columns, with the warp rows a multiple of 4");
}

static llvm::Expected<WarpPartition>
partitionMFMA(WarpPolicy policy, int64_t m, int64_t n, int64_t numWarps) {
  const int64_t mPerWarp = 16, nPerWarp = 16;
  if (m % mPerWarp != 0 || n % nPerWarp != 0)
    return makeError("mfma needs M % 16 == 0 and N % 16 == 0, got " +
                     llvm::Twine(m) + "x" + llvm::Twine(n));
  auto valid = [&](int64_t wm, int64_t wn) {
    return wm * wn == numWarps && m % (wm * mPerWarp) == 0 &&
           n % (wn * nPerWarp) == 0;
  };
  std::optional<WarpPartition> found;
  switch (policy) {
  case WarpPolicy::FullRow:
    for (int64_t wm = numWarps; wm >= 1 && !found; --wm)
      if (numWarps % wm == 0 && valid(wm, numWarps / wm))
        found = WarpPartition{wm, numWarps / wm};
    break;
  case WarpPolicy::FullCol:
    for (int64_t wn = numWarps; wn >= 1 && !found; --wn)
      if (numWarps % wn == 0 && valid(numWarps / wn, wn))
        found = WarpPartition{numWarps / wn, wn};
    break;
  case WarpPolicy::Square: {
    float ideal = n > 0 ? static_cast<float>(m) / n : 1.0f;
    float best = std::numeric_limits<float>::max();
    for (int64_t wm = 1; wm <= numWarps; ++wm) {
      if (numWarps % wm != 0 || !valid(wm, numWarps / wm))
        continue;
      int64_t wn = numWarps / wm;
      float mPer = static_cast<float>(m) / (wm * mPerWarp);
      float nPer = static_cast<float>(n) / (wn * nPerWarp);
      float balance = std::abs(mPer / nPer - ideal);
      if (balance < best) {
        best = balance;
        found = WarpPartition{wm, wn};
      }
    }
    break;
  }
  }
  if (!found)
    return makeError("no " + stringifyWarpPolicy(policy) +
                     " mfma warp partition of " + llvm::Twine(numWarps) +
                     " wavefronts for a " + llvm::Twine(m) + "x" +
                     llvm::Twine(n) +
                     " accumulator: each wavefront needs a multiple of "
                     "16x16");
  return *found;
}

llvm::Expected<WarpPartition>
tlc::layout::computeWarpPartition(GemmInstr instr, WarpPolicy policy,
                                  int64_t m, int64_t n, int64_t numWarps) {
  if (numWarps <= 0)
    return makeError("gemm needs at least one full warp");
  // The partitions are searched warp count by warp count: past the 1,024
  // threads of a block (32 warps of 32 threads, 16 wavefronts of 64) no
  // target runs the gemm, and the search would not end (found by
  // tlc-fuzz-eval: threads=10**12 looped over 3 * 10^10 warp counts).
  int64_t maxWarps = instr == GemmInstr::MFMA ? 16 : 32;
  if (numWarps > maxWarps)
    return makeError("gemm over " + llvm::Twine(numWarps) + " " +
                     (instr == GemmInstr::MFMA ? "wavefronts" : "warps") +
                     ": a block has at most " + llvm::Twine(maxWarps) +
                     " (1,024 threads)");
  switch (instr) {
  case GemmInstr::MMA:
    return partitionMMA(policy, m, n, numWarps);
  case GemmInstr::WGMMA:
    return partitionWGMMA(policy, m, n, numWarps);
  case GemmInstr::MFMA:
    return partitionMFMA(policy, m, n, numWarps);
  }
  return makeError("unknown gemm instruction");
}

GemmInstr tlc::layout::selectGemmInstr(const GemmConfig &config) {
  if (config.arch == GemmArch::CDNA)
    return GemmInstr::MFMA;
  if (config.arch != GemmArch::SM90)
    return GemmInstr::MMA;
  int64_t warps = config.threads / 32;
  if (config.m % 64 != 0 || warps % 4 != 0 || warps == 0)
    return GemmInstr::MMA;
  if (config.abBits == 16)
    return config.k % 16 == 0 ? GemmInstr::WGMMA : GemmInstr::MMA;
  if (config.abBits == 8 || config.abBits == 32)
    return (!config.transA && config.transB &&
            config.k % (256 / config.abBits) == 0)
               ? GemmInstr::WGMMA
               : GemmInstr::MMA;
  return GemmInstr::MMA;
}

llvm::Expected<WarpPartition>
tlc::layout::gemmWarpPartition(const GemmConfig &config) {
  int64_t warp = warpSizeOf(config.arch);
  if (config.threads < warp || config.threads % warp != 0)
    return makeError("gemm needs a whole number of " + llvm::Twine(warp) +
                     "-thread warps, got " + llvm::Twine(config.threads) +
                     " threads" +
                     (config.arch == GemmArch::CDNA
                          ? " (MFMA runs on whole 64-lane wavefronts)"
                          : ""));
  return computeWarpPartition(selectGemmInstr(config), config.policy,
                              config.m, config.n, config.threads / warp);
}

//===----------------------------------------------------------------------===//
// Atoms
//===----------------------------------------------------------------------===//

/// Builds an atom from formulas that are known to be valid.
static Fragment atom(std::vector<int64_t> shape, const std::string &index,
                     const std::string &thread, const std::string &tag) {
  llvm::Expected<Fragment> f =
      Fragment::parse(std::move(shape), {index}, thread, 1, {tag});
  if (!f) {
    llvm::report_fatal_error(llvm::Twine("invalid built-in atom ") + tag +
                             ": " + llvm::toString(f.takeError()));
  }
  return std::move(*f);
}

Fragment tlc::layout::mmaInstrC() {
  return atom({16, 8}, "2 * (i // 8) + j % 2", "4 * (i % 8) + j // 2",
              "mma.C");
}

Fragment tlc::layout::mmaAtomC() {
  return atom({16, 16}, "4 * (j // 8) + 2 * (i // 8) + j % 2",
              "4 * (i % 8) + (j % 8) // 2", "mma.C");
}

Fragment tlc::layout::mmaAtomA(unsigned abBits) {
  // One element per register: m16n8k8 .tf32 (a0..a3 down the rows, then
  // across k + 4) and the two m8n8k4 .f64 of a 16 x 4 step.
  if (abBits == 32)
    return atom({16, 8}, "i // 8 + 2 * (j // 4)", "4 * (i % 8) + j % 4",
                "mma.A");
  if (abBits == 64)
    return atom({16, 4}, "i // 8", "4 * (i % 8) + j", "mma.A");
  if (abBits == 8)
    return atom({16, 32}, "8 * (j // 16) + 4 * (i // 8) + j % 4",
                "4 * (i % 8) + (j % 16) // 4", "mma.A");
  return atom({16, 16}, "4 * (j // 8) + 2 * (i // 8) + j % 2",
              "4 * (i % 8) + (j % 8) // 2", "mma.A");
}

Fragment tlc::layout::mmaAtomB(unsigned abBits) {
  // Over [n, k] for two n8 tiles, as the 16-bit atom.
  if (abBits == 32)
    return atom({16, 8}, "2 * (i // 8) + j // 4", "4 * (i % 8) + j % 4",
                "mma.B");
  if (abBits == 64)
    return atom({16, 4}, "i // 8", "4 * (i % 8) + j", "mma.B");
  if (abBits == 8)
    return atom({16, 32}, "8 * (i // 8) + 4 * (j // 16) + j % 4",
                "4 * (i % 8) + (j % 16) // 4", "mma.B");
  return atom({16, 16}, "4 * (i // 8) + 2 * (j // 8) + j % 2",
              "4 * (i % 8) + (j % 8) // 2", "mma.B");
}

Fragment tlc::layout::wgmmaAtomC(int64_t n) {
  assert(n > 0 && n % 8 == 0 && "wgmma N must be a multiple of 8");
  return atom({64, n}, "4 * (j // 8) + 2 * ((i % 16) // 8) + j % 2",
              "32 * (i // 16) + 4 * (i % 8) + (j % 8) // 2", "wgmma.C");
}

Fragment tlc::layout::mfmaAtomA() {
  return atom({16, 16}, "j % 4", "i + 16 * (j // 4)", "mfma.A");
}

Fragment tlc::layout::mfmaAtomB() {
  return atom({16, 16}, "i % 4", "j + 16 * (i // 4)", "mfma.B");
}

Fragment tlc::layout::mfmaInstrD() {
  return atom({16, 16}, "i % 4", "16 * (i // 4) + j", "mfma.D");
}

Fragment tlc::layout::mfmaAtomC() {
  return atom({16, 16}, "j % 4", "i + 16 * (j // 4)", "mfma.C");
}

Fragment tlc::layout::mfma32AtomA() {
  return atom({32, 8}, "j % 4", "i + 32 * (j // 4)", "mfma32.A");
}

Fragment tlc::layout::mfma32AtomB() {
  return atom({8, 32}, "i % 4", "j + 32 * (i // 4)", "mfma32.B");
}

Fragment tlc::layout::mfma32InstrD() {
  return atom({32, 32}, "4 * (i // 8) + i % 4", "32 * ((i % 8) // 4) + j",
              "mfma32.D");
}

Fragment tlc::layout::mfma32AtomC() {
  return atom({32, 32}, "4 * (j // 8) + j % 4", "i + 32 * ((j % 8) // 4)",
              "mfma32.C");
}

llvm::Expected<int64_t> tlc::layout::mfmaTileOf(const GemmConfig &config) {
  llvm::Expected<WarpPartition> p = gemmWarpPartition(config);
  if (!p)
    return p.takeError();
  int64_t warpM = config.m / p->warpRows, warpN = config.n / p->warpCols;
  // 16-bit operands (32x32x8), 8-bit ones (32x32x16 int8 and fp8) and
  // 32-bit ones (four 32x32x2f32 per K step of 8). An f16 accumulator
  // keeps 16x16 tiles: the HIP printer rounds it to f16 after each
  // 16x16x16 instruction, every 16 k as mma.sync .f16 does.
  return (config.abBits == 16 || config.abBits == 8 || config.abBits == 32) &&
                 config.accBits != 16 && warpM % 32 == 0 &&
                 warpN % 32 == 0
             ? 32
             : 16;
}

Fragment tlc::layout::transpose2D(const Fragment &fragment) {
  assert(fragment.getInputRank() == 2 && "transpose2D needs rank 2");
  return fragment.permuteInputs({1, 0});
}

//===----------------------------------------------------------------------===//
// Block-level layouts
//===----------------------------------------------------------------------===//

/// Requires \p value to be a positive multiple of \p unit.
static llvm::Error requireMultiple(llvm::StringRef what, int64_t value,
                                   int64_t unit) {
  if (value > 0 && value % unit == 0)
    return llvm::Error::success();
  return makeError(what + " = " + llvm::Twine(value) +
                   " must be a positive multiple of " + llvm::Twine(unit));
}

/// `mfma.C`, or `mfma32.C` for 32x32x8 tiles (\p tile 32).
static FragmentOrigin originFor(GemmInstr instr, GemmOperand operand,
                                const WarpPartition &p, int64_t tile = 16) {
  return {(stringifyGemmInstr(instr) + (tile == 32 ? "32" : "") + "." +
           stringifyGemmOperand(operand))
              .str(),
          p.warpRows, p.warpCols};
}

/// The MFMA tile edge of \p config (16 for the other instructions).
static int64_t tileEdge(GemmInstr instr, const GemmConfig &config) {
  if (instr != GemmInstr::MFMA)
    return 16;
  llvm::Expected<int64_t> tile = mfmaTileOf(config);
  if (!tile) {
    llvm::consumeError(tile.takeError());
    return 16;
  }
  return *tile;
}

llvm::Expected<Fragment>
tlc::layout::gemmAccumulatorFragment(const GemmConfig &config) {
  llvm::Expected<WarpPartition> p = gemmWarpPartition(config);
  if (!p)
    return p.takeError();
  GemmInstr instr = selectGemmInstr(config);
  int64_t warpM = config.m / p->warpRows, warpN = config.n / p->warpCols;
  Fragment f;
  if (instr == GemmInstr::WGMMA) {
    int64_t groups = p->warpRows / 4;
    int64_t groupM = config.m / groups;
    if (llvm::Error e = requireMultiple("wgmma warpgroup M tile", groupM, 64))
      return std::move(e);
    if (llvm::Error e = requireMultiple("wgmma warp N tile", warpN, 8))
      return std::move(e);
    f = wgmmaAtomC(warpN)
            .repeat(0, groupM / 64, /*onThread=*/false)
            .repeat(0, groups, /*onThread=*/true)
            .repeat(1, p->warpCols, /*onThread=*/true);
  } else if (int64_t tile = tileEdge(instr, config); tile == 32) {
    f = mfma32AtomC()
            .repeat(1, warpN / 32, false)
            .repeat(0, warpM / 32, false)
            .repeat(0, p->warpRows, true)
            .repeat(1, p->warpCols, true);
    f.setOrigin(originFor(instr, GemmOperand::C, *p, tile));
    return f;
  } else {
    Fragment base = instr == GemmInstr::MFMA ? mfmaAtomC() : mmaAtomC();
    int64_t atomN = 16;
    if (instr == GemmInstr::MMA && warpN % 16 != 0) {
      base = mmaInstrC();
      atomN = 8;
    }
    if (llvm::Error e = requireMultiple("warp M tile", warpM, 16))
      return std::move(e);
    if (llvm::Error e = requireMultiple("warp N tile", warpN, atomN))
      return std::move(e);
    // Registers: the atom's, then the n atoms, then the m atoms. A count
    // of n atoms that is not a power of two (warp N 48 = 3 atoms, 2 m
    // atoms: 48 registers) goes outermost instead, so the register number
    // stays linear in its bits (the printers index registers by a fit
    // linear in the bits: r = 16 n + 8 m + k, not 24 m + 8 n + k).
    // Both counts not powers of two (a 48 x 48 warp tile: 3 m atoms, 3 or
    // 6 n atoms): the n atoms' registers are padded to a power of two
    // before the m atoms (r = 32 m + 4 n + k for 6 n atoms; 88 registers,
    // 16 of them empty in every thread, FragmentTables' padding digit).
    int64_t nAtoms = warpN / atomN, mAtoms = warpM / 16;
    if (!llvm::isPowerOf2_64(nAtoms) && !llvm::isPowerOf2_64(mAtoms)) {
      Fragment g = base.repeat(1, nAtoms, false);
      int64_t stride = llvm::PowerOf2Ceil(g.getRegsPerThread());
      std::vector<IndexExpr> repl(3);
      IndexExpr i = IndexExpr::var(0, inputName(0));
      repl[0] = floorMod(i, 16);
      IndexExpr index =
          substitute(g.getForwardIndex()[0], repl) + floorDiv(i, 16) * stride;
      llvm::Expected<Fragment> padded = Fragment::get(
          {warpM, warpN}, {index}, substitute(g.getForwardThread(), repl), 1,
          g.getOrigin());
      if (!padded)
        return padded.takeError();
      f = std::move(*padded);
    } else if (!llvm::isPowerOf2_64(nAtoms)) {
      f = base.repeat(0, mAtoms, false).repeat(1, nAtoms, false);
    } else {
      f = base.repeat(1, nAtoms, false).repeat(0, mAtoms, false);
    }
    f = f.repeat(0, p->warpRows, true).repeat(1, p->warpCols, true);
  }
  f.setOrigin(originFor(instr, GemmOperand::C, *p));
  return f;
}

llvm::Expected<Fragment>
tlc::layout::gemmOperandFragment(const GemmConfig &config,
                                 GemmOperand operand) {
  if (operand == GemmOperand::C)
    return gemmAccumulatorFragment(config);
  llvm::Expected<WarpPartition> p = gemmWarpPartition(config);
  if (!p)
    return p.takeError();
  GemmInstr instr = selectGemmInstr(config);
  int64_t warpM = config.m / p->warpRows, warpN = config.n / p->warpCols;
  const int64_t tile = tileEdge(instr, config);
  int64_t kAtom = instr == GemmInstr::MFMA ? 16 : 256 / config.abBits;
  if (tile == 32)
    kAtom = 8;
  // 8-bit MFMA operands keep the 16-bit atoms (4 values of a 16-wide K
  // chunk per lane); the HIP printer passes two chunks to each 16x16x32.
  // 32-bit ones keep them too: value v of every lane is one 16x16x4f32,
  // and 64-bit A likewise (16x16x4f64). A 64-bit B has none: the printer
  // feeds the f64 instruction B's columns in another order (its result
  // rows differ from the f32 ones), which the B atoms do not hold.
  if (config.abBits != 16 &&
      !(instr == GemmInstr::MMA &&
        (config.abBits == 8 || config.abBits == 32 || config.abBits == 64)) &&
      !(instr == GemmInstr::WGMMA && config.abBits == 8) &&
      !(instr == GemmInstr::MFMA &&
        (config.abBits == 8 || config.abBits == 32 ||
         (config.abBits == 64 && operand == GemmOperand::A))))
    return makeError("register operands are supported for 16-bit elements "
                     "(and 8/32/64-bit ones on mma, 8/32-bit and 64-bit A "
                     "on mfma), got " +
                     llvm::Twine(config.abBits) + "-bit");
  // K no multiple of the mma's k (K = 20 of f16): the CUDA lowering
  // multiplies on the CUDA cores, reading each value from the lane that
  // holds it; the operand keeps the mma layout of K rounded up to whole
  // atoms, restricted to its K (the registers of the missing tail unused).
  if (config.k > 0 && config.k % kAtom != 0 && instr == GemmInstr::MMA) {
    GemmConfig whole = config;
    whole.k = llvm::divideCeil(config.k, kAtom) * kAtom;
    llvm::Expected<Fragment> padded = gemmOperandFragment(whole, operand);
    if (!padded)
      return padded.takeError();
    std::vector<int64_t> shape(padded->getInputShape().begin(),
                               padded->getInputShape().end());
    bool kFirst = operand == GemmOperand::A ? config.transA : !config.transB;
    shape[kFirst ? 0 : 1] = config.k;
    std::vector<IndexExpr> index(padded->getForwardIndex().begin(),
                                 padded->getForwardIndex().end());
    return Fragment::get(std::move(shape), std::move(index),
                         padded->getForwardThread(), padded->getReplicate(),
                         padded->getOrigin());
  }
  if (llvm::Error e = requireMultiple("gemm K", config.k, kAtom))
    return std::move(e);
  Fragment f;
  if (operand == GemmOperand::A) {
    if (instr == GemmInstr::WGMMA) {
      int64_t groups = p->warpRows / 4;
      int64_t groupM = config.m / groups;
      if (llvm::Error e =
              requireMultiple("wgmma warpgroup M tile", groupM, 64))
        return std::move(e);
      f = mmaAtomA(config.abBits)
              .repeat(1, config.k / kAtom, false)
              .repeat(0, 4, true)
              .repeat(0, groupM / 64, false)
              .repeat(0, groups, true)
              .replicate(p->warpCols);
    } else {
      if (llvm::Error e = requireMultiple("warp M tile", warpM, tile))
        return std::move(e);
      Fragment base = tile == 32                 ? mfma32AtomA()
                      : instr == GemmInstr::MFMA ? mfmaAtomA()
                                                 : mmaAtomA(config.abBits);
      f = base.repeat(0, warpM / tile, false)
              .repeat(1, config.k / kAtom, false)
              .repeat(0, p->warpRows, true)
              .replicate(p->warpCols);
    }
    if (config.transA)
      f = transpose2D(f);
  } else {
    if (instr == GemmInstr::WGMMA)
      return makeError("wgmma reads B from shared memory only");
    if (llvm::Error e = requireMultiple("warp N tile", warpN, 16))
      return std::move(e);
    if (instr == GemmInstr::MFMA) {
      // mfma B atom is over [k, n].
      f = (tile == 32 ? mfma32AtomB() : mfmaAtomB())
              .repeat(1, warpN / tile, false)
              .repeat(0, config.k / kAtom, false)
              .replicate(p->warpRows)
              .repeat(1, p->warpCols, true);
      if (config.transB)
        f = transpose2D(f);
    } else {
      // mma B atom is over [n, k].
      f = mmaAtomB(config.abBits)
              .repeat(0, warpN / 16, false)
              .repeat(1, config.k / kAtom, false)
              .replicate(p->warpRows)
              .repeat(0, p->warpCols, true);
      if (!config.transB)
        f = transpose2D(f);
    }
  }
  f.setOrigin(originFor(instr, operand, *p, tile));
  return f;
}

int64_t tlc::layout::wgmmaInstructionN(int64_t warpN) {
  for (int64_t w = std::min<int64_t>(256, warpN / 8 * 8); w >= 8; w -= 8)
    if (warpN % w == 0)
      return w;
  return 8;
}

bool tlc::layout::WgmmaGrid::wholeTiles() const {
  return groups > 0 && warpN > 0 && warpN % 8 == 0;
}

llvm::Expected<tlc::layout::WgmmaGrid>
tlc::layout::wgmmaGrid(const GemmConfig &config) {
  llvm::Expected<WarpPartition> p = gemmWarpPartition(config);
  if (!p)
    return p.takeError();
  return wgmmaGridOn(config, *p);
}

tlc::layout::WgmmaGrid
tlc::layout::wgmmaGridOn(const GemmConfig &config,
                         const WarpPartition &partition) {
  WgmmaGrid grid;
  grid.partition = partition;
  grid.groups = partition.warpRows / 4;
  if (grid.groups > 0 && config.m % (grid.groups * 64))
    grid.groups = 0;
  if (partition.warpCols > 0 && config.n % partition.warpCols == 0) {
    grid.warpN = config.n / partition.warpCols;
    grid.instrN = wgmmaInstructionN(grid.warpN);
    if (!config.transB)
      grid.bMnStep = grid.instrN;
  }
  return grid;
}

llvm::Expected<Layout> tlc::layout::gemmOperandSharedLayout(
    const GemmConfig &config, GemmOperand operand,
    llvm::ArrayRef<int64_t> bufferShape) {
  if (operand == GemmOperand::C)
    return makeError("the gemm accumulator must be a fragment");
  if (bufferShape.size() < 2)
    return makeError("a gemm operand buffer needs rank >= 2");
  bool kInner = operand == GemmOperand::A ? !config.transA : config.transB;
  if (selectGemmInstr(config) == GemmInstr::WGMMA) {
    // An N-major B: its instructions start every grid.bMnStep columns. (An
    // M-major A's start every 64 rows, a whole atom row of any 16-bit
    // swizzle.)
    int64_t mnStep = 0;
    if (operand == GemmOperand::B && !kInner) {
      llvm::Expected<WgmmaGrid> grid = wgmmaGrid(config);
      if (!grid)
        return grid.takeError();
      mnStep = grid->bMnStep;
    }
    return makeWgmmaOperandLayout(bufferShape, config.abBits, mnStep);
  }
  return makeGemmABLayoutSm80(bufferShape, config.abBits, kInner);
}

llvm::Expected<OperandLayout>
tlc::layout::layoutForGemmOperand(const GemmConfig &config,
                                  GemmOperand operand, OperandScope scope,
                                  llvm::ArrayRef<int64_t> bufferShape) {
  // The matrix the operand must be, in buffer order.
  std::vector<int64_t> expected;
  switch (operand) {
  case GemmOperand::A:
    expected = config.transA ? std::vector<int64_t>{config.k, config.m}
                             : std::vector<int64_t>{config.m, config.k};
    break;
  case GemmOperand::B:
    expected = config.transB ? std::vector<int64_t>{config.n, config.k}
                             : std::vector<int64_t>{config.k, config.n};
    break;
  case GemmOperand::C:
    expected = {config.m, config.n};
    break;
  }
  if (bufferShape.size() < 2 ||
      bufferShape.take_back(2) != llvm::ArrayRef<int64_t>(expected)) {
    std::string got;
    for (int64_t e : bufferShape)
      got += (got.empty() ? "" : ", ") + std::to_string(e);
    return makeError("gemm operand " + stringifyGemmOperand(operand) +
                     " has shape [" + got + "], expected [" +
                     llvm::Twine(expected[0]) + ", " +
                     llvm::Twine(expected[1]) + "]");
  }
  OperandLayout result;
  if (scope == OperandScope::Shared) {
    llvm::Expected<Layout> l =
        gemmOperandSharedLayout(config, operand, bufferShape);
    if (!l)
      return l.takeError();
    result.shared = std::move(*l);
    return result;
  }
  if (bufferShape.size() != 2)
    return makeError("a gemm fragment operand must be 2-D");
  llvm::Expected<Fragment> f = gemmOperandFragment(config, operand);
  if (!f)
    return f.takeError();
  result.fragment = std::move(*f);
  return result;
}
