//===- GemmLayoutsTest.cpp - Tensor-core layouts against the ISA tables ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The oracles here are the vendors' own descriptions, written in their
// "register -> element" direction, which is the opposite of the library's
// "element -> (lane, register)" formulas:
//  * PTX ISA 9.7.14.5.8 (mma.m16n8k16, .f16/.bf16 A and B, f32 C/D),
//    9.7.14.5.10 (mma.m16n8k32, .s8/.u8/.e4m3/.e5m2 A and B, C/D),
//    9.7.14.5.7 (mma.m16n8k8, .tf32 A and B), 9.7.14.5.2 (mma.m8n8k4,
//    .f64 A, B and C/D);
//  * PTX ISA wgmma.m64nNk16 accumulator D (warp w owns rows 16w..16w+15;
//    thread 0 holds (0,0) (0,1) (8,0) (8,1) and again every 8 columns);
//  * PTX ISA "Matrix Fragments for wgmma.mma_async.m64nNk16", multiplicand
//    A in registers (.f16/.bf16, a0..a7 in four .f16x2 registers): warp w
//    owns rows 16w..16w+15; row groupID for a0, a1, a4, a5, groupID + 8
//    for a2, a3, a6, a7; column 2 * threadID_in_group + (i & 1), + 8 for
//    i >= 4;
//  * AMD matrix instruction calculator, v_mfma_f32_16x16x16f16:
//    A: i = lane % 16, k = 4 * (lane / 16) + item;
//    B: j = lane % 16, k = 4 * (lane / 16) + item;
//    D: i = 4 * (lane / 16) + (GPR % 4), j = lane % 16;
//  * AMD matrix instruction calculator / CDNA3 ISA 7.1, v_mfma_f32_32x32x8f16
//    (and _32x32x8bf16_1k, the same lanes): A: i = lane % 32, k = 4 *
//    (lane / 32) + item; B: j = lane % 32, k = 4 * (lane / 32) + item;
//    D (16 GPRs): i = 8 * (GPR / 4) + 4 * (lane / 32) + GPR % 4, j =
//    lane % 32.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/FragmentTables.h"
#include "tlc/Layout/WgmmaLayouts.h"

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <tuple>

using namespace tlc::layout;

namespace {
/// An ISA description: for (lane, register item) -> (row, col).
using IsaMap =
    std::function<std::pair<int64_t, int64_t>(int64_t lane, int64_t item)>;

/// Checks that \p fragment places, for every lane < lanes and item < items,
/// the element the ISA names on exactly that (lane, item), and that the
/// fragment holds nothing else.
void checkAgainstIsa(const Fragment &fragment, int64_t lanes, int64_t items,
                     const IsaMap &isa, const char *what) {
  INFO(what);
  REQUIRE(fragment.getReplicate() == 1);
  CHECK(fragment.getRegsPerThread() == items);
  CHECK(fragment.getThreadExtent() == lanes);
  CHECK(numElements(fragment.getInputShape()) == lanes * items);
  for (int64_t lane = 0; lane < lanes; ++lane) {
    for (int64_t item = 0; item < items; ++item) {
      auto [row, col] = isa(lane, item);
      std::optional<FragmentSlot> slot = fragment.apply({row, col});
      REQUIRE_MESSAGE(slot, "element (" << row << "," << col
                                        << ") outside the fragment");
      CHECK_MESSAGE((slot->thread == lane && slot->index == item),
                    "ISA: lane " << lane << " item " << item << " holds ("
                                 << row << "," << col << "), library says T"
                                 << slot->thread << ":" << slot->index);
    }
  }
}

int64_t groupId(int64_t lane) { return lane >> 2; }
int64_t threadInGroup(int64_t lane) { return lane % 4; }
} // namespace

TEST_CASE("mma.m16n8k16 f16/bf16 fragments match the PTX ISA") {
  // Accumulator C/D (f32): c0..c3.
  checkAgainstIsa(
      mmaInstrC(), 32, 4,
      [](int64_t lane, int64_t i) {
        int64_t row = i < 2 ? groupId(lane) : groupId(lane) + 8;
        int64_t col = threadInGroup(lane) * 2 + (i & 0x1);
        return std::make_pair(row, col);
      },
      "mma C 16x8");
  // Multiplicand A: a0..a7.
  checkAgainstIsa(
      mmaAtomA(16), 32, 8,
      [](int64_t lane, int64_t i) {
        int64_t row =
            (i < 2 || (4 <= i && i < 6)) ? groupId(lane) : groupId(lane) + 8;
        int64_t col = threadInGroup(lane) * 2 + (i & 0x1) + (i >= 4 ? 8 : 0);
        return std::make_pair(row, col);
      },
      "mma A 16x16");
  // TileLang's 16x16 C atom: two n8 instructions, the second in c4..c7.
  checkAgainstIsa(
      mmaAtomC(), 32, 8,
      [](int64_t lane, int64_t item) {
        int64_t half = item / 4, i = item % 4;
        int64_t row = i < 2 ? groupId(lane) : groupId(lane) + 8;
        int64_t col = threadInGroup(lane) * 2 + (i & 0x1) + 8 * half;
        return std::make_pair(row, col);
      },
      "mma C 16x16 (two n8)");
  // Multiplicand B (k x n per instruction): b0..b3; TileLang stores it
  // [n, k] with the second n8 instruction's b0..b3 as registers 4..7.
  checkAgainstIsa(
      mmaAtomB(16), 32, 8,
      [](int64_t lane, int64_t item) {
        int64_t half = item / 4, i = item % 4;
        int64_t k = threadInGroup(lane) * 2 + (i & 0x1) + (i >= 2 ? 8 : 0);
        int64_t n = groupId(lane) + 8 * half;
        return std::make_pair(n, k);
      },
      "mma B [n, k]");
}

TEST_CASE("mma.m16n8k32 8-bit fragments match the PTX ISA") {
  checkAgainstIsa(
      mmaAtomA(8), 32, 16,
      [](int64_t lane, int64_t i) {
        int64_t row =
            (i < 4 || (8 <= i && i < 12)) ? groupId(lane) : groupId(lane) + 8;
        int64_t col = threadInGroup(lane) * 4 + (i & 0x3) + (i >= 8 ? 16 : 0);
        return std::make_pair(row, col);
      },
      "mma A 16x32 s8");
  checkAgainstIsa(
      mmaAtomB(8), 32, 16,
      [](int64_t lane, int64_t item) {
        int64_t half = item / 8, i = item % 8;
        int64_t k = threadInGroup(lane) * 4 + (i & 0x3) + (i >= 4 ? 16 : 0);
        int64_t n = groupId(lane) + 8 * half;
        return std::make_pair(n, k);
      },
      "mma B [n, k] s8");
}

TEST_CASE("mma.m16n8k8 tf32 fragments match the PTX ISA") {
  // A: a0 and a2 in row groupID, a1 and a3 in groupID + 8; a0 and a1 in
  // column threadID_in_group, a2 and a3 four columns on.
  checkAgainstIsa(
      mmaAtomA(32), 32, 4,
      [](int64_t lane, int64_t i) {
        int64_t row = (i == 0 || i == 2) ? groupId(lane) : groupId(lane) + 8;
        int64_t col = (i < 2) ? threadInGroup(lane) : threadInGroup(lane) + 4;
        return std::make_pair(row, col);
      },
      "mma A 16x8 tf32");
  // B: b0 in row (k) threadID_in_group, b1 in row + 4, column groupID;
  // two n8 instructions side by side, stored [n, k].
  checkAgainstIsa(
      mmaAtomB(32), 32, 4,
      [](int64_t lane, int64_t item) {
        int64_t half = item / 2, i = item % 2;
        int64_t k = i == 0 ? threadInGroup(lane) : threadInGroup(lane) + 4;
        int64_t n = groupId(lane) + 8 * half;
        return std::make_pair(n, k);
      },
      "mma B [n, k] tf32");
}

TEST_CASE("mma.m8n8k4 f64 fragments match the PTX ISA") {
  // A (8 x 4): a0 at (groupID, threadID_in_group); two instructions, the
  // second for rows 8..15.
  checkAgainstIsa(
      mmaAtomA(64), 32, 2,
      [](int64_t lane, int64_t item) {
        return std::make_pair(groupId(lane) + 8 * item, threadInGroup(lane));
      },
      "mma A 16x4 f64");
  // B (4 x 8): b0 at (threadID_in_group, groupID); stored [n, k], two n8.
  checkAgainstIsa(
      mmaAtomB(64), 32, 2,
      [](int64_t lane, int64_t item) {
        return std::make_pair(groupId(lane) + 8 * item, threadInGroup(lane));
      },
      "mma B [n, k] f64");
  // C/D (8 x 8): c0, c1 at (groupID, 2 * threadID_in_group + i); the two
  // instructions of a 16-row step are the f32 mma.C of 16 x 8 (c2, c3 the
  // second instruction's c0, c1).
  checkAgainstIsa(
      mmaInstrC(), 32, 4,
      [](int64_t lane, int64_t item) {
        int64_t instr = item / 2, i = item % 2;
        return std::make_pair(groupId(lane) + 8 * instr,
                              2 * threadInGroup(lane) + i);
      },
      "mma C 16x8 as two m8n8k4 f64");
}

TEST_CASE("register operands with K no multiple of the mma k keep the "
          "whole-atom layout") {
  // K = 20 (A [64, 20] / B [20, 64] of f16, and transposed): the element
  // (i, k) sits where the mma layout of K = 32 puts it, each exactly once,
  // and the registers of k >= 20 stay unused. The CUDA-core fallback of
  // such a gemm reads the values from these lanes.
  for (bool trans : {false, true}) {
    INFO("transposed " << trans);
    GemmConfig c;
    c.m = 64, c.n = 64, c.k = 20, c.threads = 128, c.abBits = 16;
    c.transA = trans, c.transB = trans;
    GemmConfig whole = c;
    whole.k = 32;
    for (GemmOperand op : {GemmOperand::A, GemmOperand::B}) {
      llvm::Expected<Fragment> f = gemmOperandFragment(c, op);
      REQUIRE(f);
      llvm::Expected<Fragment> w = gemmOperandFragment(whole, op);
      REQUIRE(w);
      bool kFirst = op == GemmOperand::A ? trans : !trans;
      std::vector<int64_t> shape = {64, 64};
      shape[kFirst ? 0 : 1] = 20;
      CHECK(f->getInputShape() == llvm::ArrayRef<int64_t>(shape));
      llvm::Error err = f->verify(128);
      CHECK_MESSAGE(!err, llvm::toString(std::move(err)));
      for (int64_t i = 0; i < shape[0]; ++i)
        for (int64_t j = 0; j < shape[1]; ++j) {
          std::optional<FragmentSlot> a = f->apply({i, j});
          std::optional<FragmentSlot> b = w->apply({i, j});
          REQUIRE(a);
          REQUIRE(b);
          CHECK((a->thread == b->thread && a->index == b->index));
        }
    }
  }
  // K = 20 is no multiple of wgmma's k16 either: sm_90a keeps mma.sync.
  GemmConfig h;
  h.arch = GemmArch::SM90;
  h.m = 64, h.n = 64, h.k = 20, h.threads = 128, h.abBits = 16;
  CHECK(selectGemmInstr(h) == GemmInstr::MMA);
  CHECK(bool(gemmOperandFragment(h, GemmOperand::A)));
}

TEST_CASE("wgmma.m64nNk16 accumulator matches the PTX ISA") {
  for (int64_t n : {8, 16, 64, 128, 256}) {
    checkAgainstIsa(
        wgmmaAtomC(n), 128, n / 2,
        [](int64_t tid, int64_t r) {
          int64_t warp = tid / 32, lane = tid % 32;
          int64_t row = 16 * warp + groupId(lane) + 8 * ((r >> 1) & 1);
          int64_t col = 8 * (r >> 2) + 2 * threadInGroup(lane) + (r & 1);
          return std::make_pair(row, col);
        },
        "wgmma D");
  }
}

TEST_CASE("wgmma.m64nNk16 register A matches the PTX ISA") {
  // One warpgroup, one m64 atom, K = 16 .. 64: instruction kk's a0..a7 are
  // registers 8 kk .. 8 kk + 7.
  for (int64_t k : {16, 32, 64}) {
    GemmConfig c;
    c.arch = GemmArch::SM90;
    c.m = 64, c.n = 64, c.k = k, c.threads = 128, c.abBits = 16;
    c.policy = WarpPolicy::FullRow;
    REQUIRE(selectGemmInstr(c) == GemmInstr::WGMMA);
    llvm::Expected<Fragment> f = gemmOperandFragment(c, GemmOperand::A);
    REQUIRE(f);
    checkAgainstIsa(
        *f, 128, k / 2,
        [](int64_t tid, int64_t item) {
          int64_t warp = tid / 32, lane = tid % 32;
          int64_t kk = item / 8, i = item % 8;
          int64_t row =
              16 * warp + ((i < 2 || (4 <= i && i < 6)) ? groupId(lane)
                                                        : groupId(lane) + 8);
          int64_t col =
              16 * kk + 2 * threadInGroup(lane) + (i & 1) + (i >= 4 ? 8 : 0);
          return std::make_pair(row, col);
        },
        "wgmma A (registers)");
  }
}

TEST_CASE("a 16-bit copy of a wgmma accumulator is the next wgmma's A") {
  // Attention: S = Q K^T [M, N] accumulates with wgmma; P = cast(S) is the
  // register A [M, K = N] of O += P V. Every element must sit on the same
  // thread and register in both, so the cast needs no exchange.
  for (auto [m, n, threads] :
       {std::tuple<int64_t, int64_t, int64_t>{64, 64, 128},
        {128, 32, 128},
        {128, 64, 128},
        {128, 128, 256}}) {
    INFO("M " << m << " N " << n << " threads " << threads);
    GemmConfig s;
    s.arch = GemmArch::SM90;
    s.m = m, s.n = n, s.k = 64, s.threads = threads, s.abBits = 16;
    s.policy = WarpPolicy::FullRow;
    GemmConfig pv = s;
    pv.n = 128, pv.k = n;
    REQUIRE(selectGemmInstr(s) == GemmInstr::WGMMA);
    REQUIRE(selectGemmInstr(pv) == GemmInstr::WGMMA);
    llvm::Expected<Fragment> cs = gemmAccumulatorFragment(s);
    llvm::Expected<Fragment> ap = gemmOperandFragment(pv, GemmOperand::A);
    REQUIRE(cs);
    REQUIRE(ap);
    CHECK(ap->getRegsPerThread() == cs->getRegsPerThread());
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        FragmentSlot x = *cs->apply({i, j}), y = *ap->apply({i, j});
        REQUIRE_MESSAGE((x.thread == y.thread && x.index == y.index),
                        "(" << i << "," << j << "): C T" << x.thread << ":"
                            << x.index << ", A T" << y.thread << ":"
                            << y.index);
      }
  }
}

TEST_CASE("MFMA 16x16x16 f16 (wave64) matches the matrix calculator") {
  checkAgainstIsa(
      mfmaAtomA(), 64, 4,
      [](int64_t lane, int64_t item) {
        return std::make_pair(lane % 16, 4 * (lane / 16) + item);
      },
      "mfma A [i, k]");
  checkAgainstIsa(
      mfmaAtomB(), 64, 4,
      [](int64_t lane, int64_t item) {
        return std::make_pair(4 * (lane / 16) + item, lane % 16);
      },
      "mfma B [k, j]");
  checkAgainstIsa(
      mfmaInstrD(), 64, 4,
      [](int64_t lane, int64_t gpr) {
        return std::make_pair(4 * (lane / 16) + gpr % 4, lane % 16);
      },
      "mfma D [i, j]");
  // TileLang passes B first, so the instruction computes C^T: C[m][n] is
  // D[n][m].
  checkAgainstIsa(
      mfmaAtomC(), 64, 4,
      [](int64_t lane, int64_t gpr) {
        return std::make_pair(lane % 16, 4 * (lane / 16) + gpr % 4);
      },
      "mfma C (swapped)");
}

TEST_CASE("MFMA 32x32x8 f16 (wave64) matches the matrix calculator") {
  checkAgainstIsa(
      mfma32AtomA(), 64, 4,
      [](int64_t lane, int64_t item) {
        return std::make_pair(lane % 32, 4 * (lane / 32) + item);
      },
      "mfma32 A [i, k]");
  checkAgainstIsa(
      mfma32AtomB(), 64, 4,
      [](int64_t lane, int64_t item) {
        return std::make_pair(4 * (lane / 32) + item, lane % 32);
      },
      "mfma32 B [k, j]");
  checkAgainstIsa(
      mfma32InstrD(), 64, 16,
      [](int64_t lane, int64_t gpr) {
        return std::make_pair(8 * (gpr / 4) + 4 * (lane / 32) + gpr % 4,
                              lane % 32);
      },
      "mfma32 D [i, j]");
  // Operands swapped at the call: C[m][n] is D[n][m].
  checkAgainstIsa(
      mfma32AtomC(), 64, 16,
      [](int64_t lane, int64_t gpr) {
        return std::make_pair(lane % 32,
                              8 * (gpr / 4) + 4 * (lane / 32) + gpr % 4);
      },
      "mfma32 C (swapped)");
}

TEST_CASE("CDNA picks 32x32x8 tiles when every wavefront's tile allows") {
  GemmConfig c;
  c.arch = GemmArch::CDNA;
  c.m = 128, c.n = 128, c.k = 32, c.threads = 256; // 2x2 waves of 64x64
  llvm::Expected<int64_t> tile = mfmaTileOf(c);
  REQUIRE(tile);
  CHECK(*tile == 32);
  llvm::Expected<Fragment> acc = gemmAccumulatorFragment(c);
  REQUIRE(acc);
  CHECK(acc->getOrigin().tag == "mfma32.C");
  CHECK(acc->getRegsPerThread() == 64);
  // Wave 0 lane 33 holds C[1][4 .. 7] in its first four registers and
  // C[1][8 * (gpr / 4) + 4 + gpr % 4] in the rest of the first tile.
  for (int64_t gpr = 0; gpr < 16; ++gpr) {
    FragmentSlot s = *acc->apply({1, 8 * (gpr / 4) + 4 + gpr % 4});
    CHECK(s.thread == 33);
  }
  // The register A of the next gemm over the same rows: same slots.
  GemmConfig pv = c;
  pv.k = 128, pv.n = 64;
  REQUIRE(*mfmaTileOf(pv) == 32);
  llvm::Expected<Fragment> a = gemmOperandFragment(pv, GemmOperand::A);
  REQUIRE(a);
  CHECK(a->getOrigin().tag == "mfma32.A");
  c.m = 64, c.n = 64, c.threads = 256; // 2x2 waves of 32x32
  CHECK(*mfmaTileOf(c) == 32);
  c.threads = 512; // 16 x 32 wave tiles: 16x16x16
  CHECK(*mfmaTileOf(c) == 16);
  CHECK(gemmAccumulatorFragment(c)->getOrigin().tag == "mfma.C");
  c.threads = 256, c.abBits = 8; // int8/fp8: 32x32x16
  CHECK(*mfmaTileOf(c) == 32);
  CHECK(gemmAccumulatorFragment(c)->getOrigin().tag == "mfma32.C");
  c.threads = 512; // 16 x 32 wave tiles: 16x16x32
  CHECK(*mfmaTileOf(c) == 16);
  c.threads = 256, c.abBits = 32; // f32 operands: four 32x32x2f32 a step
  CHECK(*mfmaTileOf(c) == 32);
  c.abBits = 16, c.accBits = 16; // f16 accumulators: 16x16x16, rounded
  CHECK(*mfmaTileOf(c) == 16);
  CHECK(gemmAccumulatorFragment(c)->getOrigin().tag == "mfma.C");
  // f64: v_mfma_f64_16x16x4f64 is the only double tile (no 32x32 form); the
  // HIP printer permutes B's columns so that C keeps mfma.C.
  c.abBits = 64, c.accBits = 64;
  CHECK(*mfmaTileOf(c) == 16);
  CHECK(gemmAccumulatorFragment(c)->getOrigin().tag == "mfma.C");
  // f32 register operands keep the 16-bit atoms.
  c.abBits = 32, c.accBits = 32, c.k = 32;
  llvm::Expected<Fragment> a32 = gemmOperandFragment(c, GemmOperand::A);
  REQUIRE(a32);
  CHECK(a32->getOrigin().tag == "mfma32.A");
}

//===----------------------------------------------------------------------===//
// Warp partition
//===----------------------------------------------------------------------===//

namespace {
void checkPartition(GemmInstr instr, const char *policy, int64_t m, int64_t n,
                    int64_t warps, const std::string &expected) {
  std::optional<WarpPolicy> p = parseWarpPolicy(policy);
  REQUIRE(p);
  llvm::Expected<WarpPartition> got =
      computeWarpPartition(instr, *p, m, n, warps);
  std::string text;
  if (got)
    text = std::to_string(got->warpRows) + "x" + std::to_string(got->warpCols);
  else
    text = "error: " + llvm::toString(got.takeError());
  CHECK_MESSAGE(text == expected, stringifyGemmInstr(instr).str()
                                      << " " << policy << " " << m << "x" << n
                                      << " with " << warps << " warps");
}
} // namespace

TEST_CASE("warp partition follows TileLang's policies") {
  const GemmInstr mma = GemmInstr::MMA, wgmma = GemmInstr::WGMMA,
                  mfma = GemmInstr::MFMA;
  // Square: minimise |(M/16m)/(N/8n) - M/N| (hand-computed).
  checkPartition(mma, "Square", 128, 128, 4, "2x2");
  checkPartition(mma, "GemmWarpPolicy.Square", 128, 128, 8, "2x4");
  checkPartition(mma, "Square", 64, 256, 4, "2x2");
  checkPartition(mma, "Square", 128, 64, 4, "2x2");
  checkPartition(mma, "Square", 16, 16, 4,
                 "error: no Square warp partition of 4 warps for a 16x16 "
                 "accumulator: each warp must own a multiple of 16 rows and 8 "
                 "columns");
  checkPartition(mma, "FullRow", 128, 128, 4, "4x1");
  checkPartition(mma, "FullRow", 32, 128, 4, "2x2");
  checkPartition(mma, "FullCol", 128, 128, 4, "1x4");
  checkPartition(mma, "FullCol", 128, 16, 4, "2x2");
  checkPartition(mma, "Square", 100, 128, 4,
                 "error: gemm M = 100 must be a multiple of 16");
  // Only partitions whose warps tile the accumulator exactly (TileLang
  // issue 2537): FullRow 48x64 over 8 warps falls back to 1x8, wgmma FullRow
  // 128x192 over 12 warps to 4x3; 104 columns over 12 warps have none.
  checkPartition(mma, "FullRow", 48, 64, 8, "1x8");
  checkPartition(mma, "FullCol", 192, 104, 12, "12x1");
  checkPartition(mma, "Square", 16, 104, 13, "1x13");
  checkPartition(mma, "Square", 16, 104, 12,
                 "error: no Square warp partition of 12 warps for a 16x104 "
                 "accumulator: each warp must own a multiple of 16 rows and 8 "
                 "columns");
  checkPartition(wgmma, "FullRow", 128, 192, 12, "4x3");
  checkPartition(wgmma, "Square", 64, 104, 12,
                 "error: no Square wgmma warp partition of 12 warps for a "
                 "64x104 accumulator: each warp must own a multiple of 16 rows "
                 "and 8 columns, with the warp rows a multiple of 4");
  checkPartition(wgmma, "Square", 128, 128, 4, "4x1");
  checkPartition(wgmma, "Square", 128, 256, 8, "4x2");
  checkPartition(wgmma, "FullRow", 256, 128, 8, "8x1");
  checkPartition(wgmma, "FullCol", 64, 256, 8, "4x2");
  checkPartition(wgmma, "Square", 128, 128, 6,
                 "error: wgmma needs a multiple of 128 threads, got 6 warps");
  // A partition whose accumulator registers no bit-linear map indexes is
  // passed over (issue 14): 128x448 on 4x2 warps would be two 64-row atoms
  // of 112 registers (register r = 112 * atom + i); 8x1 is one atom of 224
  // (its columns linear in r / 4). 4x2 stays where each atom has a power of
  // two registers (128x256: 64).
  checkPartition(wgmma, "Square", 128, 448, 8, "8x1");
  checkPartition(wgmma, "FullCol", 128, 448, 8, "8x1");
  checkPartition(wgmma, "FullCol", 64, 448, 8, "4x2");
  checkPartition(mfma, "Square", 128, 128, 4, "2x2");
  checkPartition(mfma, "FullRow", 64, 64, 4, "4x1");
  checkPartition(mfma, "FullCol", 32, 64, 4, "1x4");
  checkPartition(mfma, "Square", 16, 16, 4,
                 "error: no Square mfma warp partition of 4 wavefronts for a "
                 "16x16 accumulator: each wavefront needs a multiple of "
                 "16x16");
}

TEST_CASE("wgmma accumulators of the chosen partition are bit-linear") {
  // 128 x 448 over 256 threads: each thread holds 224 values, whatever the
  // partition; the chosen one's (thread, register) -> coordinate map is one
  // the printers can index (FragmentTables fits it).
  for (const char *policy : {"Square", "FullRow", "FullCol"}) {
    GemmConfig c;
    c.arch = GemmArch::SM90;
    c.m = 128, c.n = 448, c.k = 64, c.threads = 256;
    c.policy = *parseWarpPolicy(policy);
    llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
    REQUIRE(static_cast<bool>(f));
    CHECK(f->getRegsPerThread() == 224);
    CHECK_MESSAGE(FragmentTables::get(*f, 2)->coords.has_value(), policy);
  }
}

TEST_CASE("wgmma grid: partition, instruction N and B's step") {
  // Hand-computed: 128 x 256 on 8 warps (Square) is 4 x 2 warps, one
  // warpgroup along M, 128 columns a warpgroup column, instructions of
  // N = 128 (PTX ISA: a multiple of 8 up to 256), which an N-major B's
  // start every 128 columns; 448 columns on one warp column take two
  // instructions of N = 224.
  GemmConfig c;
  c.arch = GemmArch::SM90;
  c.m = 128, c.n = 256, c.k = 64, c.threads = 256;
  llvm::Expected<WgmmaGrid> g = wgmmaGrid(c);
  REQUIRE(static_cast<bool>(g));
  CHECK(g->partition.warpRows == 4);
  CHECK(g->partition.warpCols == 2);
  CHECK(g->groups == 1);
  CHECK(g->warpN == 128);
  CHECK(g->instrN == 128);
  CHECK(g->bMnStep == 128);
  CHECK(g->wholeTiles());
  c.transB = true; // K-major B: no step
  g = wgmmaGrid(c);
  REQUIRE(static_cast<bool>(g));
  CHECK(g->bMnStep == 0);
  c.transB = false, c.n = 448, c.policy = WarpPolicy::FullRow;
  g = wgmmaGrid(c);
  REQUIRE(static_cast<bool>(g));
  CHECK(g->partition.warpRows == 8);
  CHECK(g->groups == 2);
  CHECK(g->warpN == 448);
  CHECK(g->instrN == 224);
  CHECK(g->bMnStep == 224);
}

TEST_CASE("instruction selection") {
  GemmConfig c;
  c.arch = GemmArch::SM90;
  c.m = 128, c.n = 128, c.k = 32, c.threads = 128;
  CHECK(selectGemmInstr(c) == GemmInstr::WGMMA);
  c.threads = 64;
  CHECK(selectGemmInstr(c) == GemmInstr::MMA);
  c.threads = 128, c.m = 32;
  CHECK(selectGemmInstr(c) == GemmInstr::MMA);
  c.m = 128, c.abBits = 8;
  CHECK(selectGemmInstr(c) == GemmInstr::MMA); // fp8 needs B K-major
  c.transB = true;
  CHECK(selectGemmInstr(c) == GemmInstr::WGMMA);
  c.arch = GemmArch::SM80;
  CHECK(selectGemmInstr(c) == GemmInstr::MMA);
  c.arch = GemmArch::CDNA;
  CHECK(selectGemmInstr(c) == GemmInstr::MFMA);
}

//===----------------------------------------------------------------------===//
// Block-level layouts
//===----------------------------------------------------------------------===//

TEST_CASE("sm80 128x128 accumulator, 4 warps, matches the documented "
          "composition") {
  // lowering.md 2.7: 2x2 warps of 64x64 tiles, warp id = wm + 2 * wn,
  // index = ((i // 16) % 4) * 4 * 8 + ((j // 16) % 4) * 8 + reg, where the
  // (lane, reg) of the 16x16 atom come from the PTX C table.
  std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> atom;
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t item = 0; item < 8; ++item) {
      int64_t half = item / 4, i = item % 4;
      int64_t row = i < 2 ? groupId(lane) : groupId(lane) + 8;
      int64_t col = threadInGroup(lane) * 2 + (i & 1) + 8 * half;
      atom[{row, col}] = {lane, item};
    }
  GemmConfig c;
  c.m = 128, c.n = 128, c.k = 32, c.threads = 128;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  CHECK(f->shortLabel() == "mma.C · 2×2 warps · 128 regs/thread");
  for (int64_t i = 0; i < 128; ++i)
    for (int64_t j = 0; j < 128; ++j) {
      auto [lane, reg] = atom[{i % 16, j % 16}];
      int64_t warp = i / 64 + 2 * (j / 64);
      int64_t index = ((i / 16) % 4) * 4 * 8 + ((j / 16) % 4) * 8 + reg;
      FragmentSlot s = *f->apply({i, j});
      REQUIRE_MESSAGE((s.thread == 32 * warp + lane && s.index == index),
                      "(" << i << "," << j << ")");
    }
}

TEST_CASE("sm90 128x128 accumulator uses two m64n128 atoms per thread") {
  GemmConfig c;
  c.arch = GemmArch::SM90;
  c.m = 128, c.n = 128, c.k = 64, c.threads = 128;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  CHECK(f->shortLabel() == "wgmma.C · 4×1 warps · 128 regs/thread");
  // Rows 64..127 are the second atom: same thread, registers + 64.
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 128; ++j) {
      FragmentSlot lo = *f->apply({i, j}), hi = *f->apply({i + 64, j});
      REQUIRE(lo.thread == hi.thread);
      REQUIRE(hi.index == lo.index + 64);
    }
}

TEST_CASE("property: every gemm layout covers its tile exactly") {
  int validated = 0;
  for (GemmArch arch : {GemmArch::SM80, GemmArch::SM90, GemmArch::CDNA})
    for (int64_t m : {16, 32, 64, 128, 256})
      for (int64_t n : {16, 32, 64, 128, 256})
        for (int64_t threads : {32, 128, 256, 512})
          for (WarpPolicy policy :
               {WarpPolicy::Square, WarpPolicy::FullRow, WarpPolicy::FullCol})
            for (unsigned bits : {16u, 8u, 32u, 64u}) {
              GemmConfig c;
              c.arch = arch, c.m = m, c.n = n, c.k = 64, c.threads = threads;
              c.policy = policy, c.abBits = bits;
              c.transB = bits == 8;
              // Keep the run short: the widest blocks only on big tiles.
              if (threads == 512 && m * n < 128 * 256)
                continue;
              llvm::Expected<WarpPartition> p = gemmWarpPartition(c);
              if (!p) {
                llvm::consumeError(p.takeError());
                continue;
              }
              INFO("arch " << int(arch) << " " << m << "x" << n << " threads "
                           << threads << " policy "
                           << stringifyWarpPolicy(policy).str() << " bits "
                           << bits);
              CHECK(p->warpRows * p->warpCols * warpSizeOf(arch) == threads);
              llvm::Expected<Fragment> acc = gemmAccumulatorFragment(c);
              if (!acc) {
                // Only tiles that do not split into 16-wide warp tiles.
                std::string msg = llvm::toString(acc.takeError());
                CHECK_MESSAGE(msg.find("must be a positive multiple") !=
                                  std::string::npos,
                              msg);
                continue;
              }
              llvm::Error err = acc->verify(threads);
              CHECK_MESSAGE(!err, llvm::toString(std::move(err)));
              CHECK(acc->getReplicate() == 1);
              CHECK(acc->getRegsPerThread() * threads == m * n);
              ++validated;
              for (GemmOperand op : {GemmOperand::A, GemmOperand::B}) {
                for (bool trans : {false, true}) {
                  GemmConfig oc = c;
                  (op == GemmOperand::A ? oc.transA : oc.transB) = trans;
                  llvm::Expected<Fragment> frag = gemmOperandFragment(oc, op);
                  if (!frag) {
                    llvm::consumeError(frag.takeError());
                    continue;
                  }
                  llvm::Error e = frag->verify(threads);
                  CHECK_MESSAGE(!e, llvm::toString(std::move(e)));
                  // The transpose may change the instruction (8-bit wgmma
                  // needs K-major operands) and with it the warp grid.
                  WarpPartition op2 = *gemmWarpPartition(oc);
                  CHECK(frag->getReplicate() ==
                        (op == GemmOperand::A ? op2.warpCols : op2.warpRows));
                  ++validated;
                }
              }
            }
  CHECK(validated > 500);
}

TEST_CASE("layoutForGemmOperand") {
  GemmConfig c;
  c.m = 128, c.n = 128, c.k = 32, c.threads = 128;
  llvm::Expected<OperandLayout> a =
      layoutForGemmOperand(c, GemmOperand::A, OperandScope::Shared, {128, 32});
  REQUIRE(a);
  REQUIRE(a->shared);
  CHECK(a->shared->shortLabel() == "swizzle 64B");
  llvm::Expected<OperandLayout> b =
      layoutForGemmOperand(c, GemmOperand::B, OperandScope::Shared, {32, 128});
  REQUIRE(b);
  CHECK(b->shared->shortLabel() == "swizzle 128B");
  // Pipelined buffers have a leading stage dimension.
  llvm::Expected<OperandLayout> staged = layoutForGemmOperand(
      c, GemmOperand::B, OperandScope::Shared, {3, 32, 128});
  REQUIRE(staged);
  CHECK(staged->shared->isBijective());
  llvm::Expected<OperandLayout> wrong =
      layoutForGemmOperand(c, GemmOperand::A, OperandScope::Shared, {32, 128});
  REQUIRE(!wrong);
  CHECK(llvm::toString(wrong.takeError()) ==
        "gemm operand A has shape [32, 128], expected [128, 32]");
  llvm::Expected<OperandLayout> cf = layoutForGemmOperand(
      c, GemmOperand::C, OperandScope::Fragment, {128, 128});
  REQUIRE(cf);
  CHECK(cf->fragment->getRegsPerThread() == 128);
  llvm::Expected<OperandLayout> cs =
      layoutForGemmOperand(c, GemmOperand::C, OperandScope::Shared, {128, 128});
  REQUIRE(!cs);
  CHECK(llvm::toString(cs.takeError()) ==
        "the gemm accumulator must be a fragment");
}
