//===- BankConflictsTest.cpp - Bank-conflict degrees against brute force --===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The oracle follows NVIDIA's description of shared memory (CUDA C++
// Programming Guide, "Shared Memory" for compute capability 5.x and later,
// and the 64-/128-bit access notes): 32 banks, successive 32-bit words in
// successive banks; a request is split into transactions of at most 128
// bytes (a whole warp for 32-bit accesses, half warps for 64-bit, quarter
// warps for 128-bit); within one, lanes accessing the same 32-bit word are
// served together (broadcast), and distinct words of one bank are
// serialised. The oracle replays each transaction wavefront by wavefront
// (each wavefront serves at most one word per bank, and every lane waiting
// for it) and counts wavefronts; the library counts distinct words per bank.
// 128-bit accesses follow what the H200's counters showed instead of the
// quarter-warp note (docs/perf/bank-conflicts-h200.md): the whole warp is
// one transaction, and its degree is the wavefronts replayed over the
// fewest that its distinct words need (128 bytes each).
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/BankConflicts.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/SharedLayouts.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>

using namespace tlc::layout;

namespace {
/// Wavefronts the worst transaction of \p a takes, replayed.
int64_t replayWavefronts(const WarpAccess &a) {
  int64_t group = a.bytes == 8 ? 16 : 32;
  int64_t worst = 0;
  for (int64_t first = 0; first < 32; first += group) {
    // Pending (lane, word) requests of this transaction.
    std::set<std::pair<int64_t, int64_t>> pending;
    for (int64_t l = first; l < first + group; ++l) {
      if (a.address[l] < 0)
        continue;
      for (int64_t byte = a.address[l]; byte < a.address[l] + a.bytes;
           byte += 4)
        pending.insert({l, byte / 4});
      // Sub-word accesses touch one word.
      if (a.bytes < 4)
        pending.insert({l, a.address[l] / 4});
    }
    std::set<int64_t> distinct;
    for (auto [lane, word] : pending)
      distinct.insert(word);
    int64_t least = (int64_t(distinct.size()) + 31) / 32;
    int64_t waves = 0;
    while (!pending.empty()) {
      ++waves;
      // Each bank delivers the word of its first waiting request.
      std::map<int64_t, int64_t> served; // bank -> word
      for (auto [lane, word] : pending)
        served.try_emplace(word % 32, word);
      for (auto it = pending.begin(); it != pending.end();)
        it = served[it->second % 32] == it->second ? pending.erase(it)
                                                   : std::next(it);
    }
    // 128-bit: the wavefronts beyond the fewest the words need.
    if (a.bytes == 16 && least > 0)
      waves = (waves + least - 1) / least;
    worst = std::max(worst, waves);
  }
  return worst;
}

WarpAccess strided(int64_t bytes, int64_t strideBytes, int64_t lanes = 32) {
  WarpAccess a;
  a.bytes = bytes;
  for (int64_t l = 0; l < lanes; ++l)
    a.address[l] = l * strideBytes;
  return a;
}
} // namespace

TEST_CASE("documented cases") {
  // Consecutive 32-bit words: conflict-free.
  CHECK(bankConflictDegree(strided(4, 4)) == 1);
  // Stride of two words: lanes l and l + 16 share a bank.
  CHECK(bankConflictDegree(strided(4, 8)) == 2);
  // Stride of 32 words: every lane in bank 0.
  CHECK(bankConflictDegree(strided(4, 128)) == 32);
  // Odd strides are conflict-free.
  CHECK(bankConflictDegree(strided(4, 12)) == 1);
  // Every lane reads one word: a broadcast.
  CHECK(bankConflictDegree(strided(4, 0)) == 1);
  // Bytes of one word: one word.
  CHECK(bankConflictDegree(strided(1, 1)) == 1);
  // 64-bit consecutive: each half warp moves 128 bytes.
  CHECK(bankConflictDegree(strided(8, 8)) == 1);
  // 128-bit consecutive: the warp's 512 bytes in 4 wavefronts.
  CHECK(bankConflictDegree(strided(16, 16)) == 1);
  // 128-bit, one chunk column of 32 rows of 128 bytes: 32 words in each
  // of four banks, 32 wavefronts where 4 would do.
  CHECK(bankConflictDegree(strided(16, 128)) == 8);
  // The H200 measurement: lane l reads 16 bytes at row l % 8, chunk l / 8
  // of rows of 128 bytes. Each quarter warp reads one chunk column of eight
  // rows (8 words per bank: the quarter-warp rule says 8-way), but the warp
  // took 8 wavefronts where 4 carry its 512 bytes: 2-way.
  WarpAccess columns;
  columns.bytes = 16;
  for (int64_t l = 0; l < 32; ++l)
    columns.address[l] = (l % 8) * 128 + (l / 8) * 16;
  CHECK(bankConflictDegree(columns) == 2);
  CHECK(replayWavefronts(columns) == 2);
  // The same with the row swizzle (chunk XOR row): 4 wavefronts, measured
  // conflict-free.
  for (int64_t l = 0; l < 32; ++l)
    columns.address[l] = (l % 8) * 128 + ((l / 8) ^ (l % 8)) * 16;
  CHECK(bankConflictDegree(columns) == 1);
  // One ldmatrix phase (8 lanes, eight rows of one chunk column): 8-way.
  WarpAccess matrix;
  matrix.bytes = 16;
  for (int64_t l = 0; l < 8; ++l)
    matrix.address[l] = l * 128;
  CHECK(bankConflictDegree(matrix) == 8);
  // 64-bit accumulator stores into rows of 512 bytes: lanes 4r .. 4r + 3
  // write row r (mma.C: 2 floats per lane), four rows per half warp.
  WarpAccess acc;
  acc.bytes = 8;
  for (int64_t l = 0; l < 32; ++l)
    acc.address[l] = (l / 4) * 512 + (l % 4) * 8;
  CHECK(bankConflictDegree(acc) == 4);
  CHECK(replayWavefronts(acc) == 4);
  // No active lane.
  CHECK(bankConflictDegree(WarpAccess()) == 0);
}

TEST_CASE("random accesses agree with the wavefront replay") {
  std::mt19937 rng(18);
  for (int trial = 0; trial < 3000; ++trial) {
    WarpAccess a;
    a.bytes = int64_t(1) << (rng() % 5);
    // Small address ranges make conflicts and broadcasts likely.
    int64_t span = int64_t(1) << (6 + rng() % 8);
    for (int64_t l = 0; l < 32; ++l) {
      if (rng() % 8 == 0)
        continue;
      int64_t addr = rng() % span;
      a.address[l] = addr - addr % a.bytes;
    }
    INFO("trial " << trial << ", " << a.bytes << "-byte");
    CHECK(bankConflictDegree(a) == replayWavefronts(a));
  }
}

namespace {
/// The device runtime's tlc::cuda::swizzledIndex, as its header documents
/// it: rows of ChunksPerRow 16-byte chunks, chunk XOR row bits.
int64_t runtimeSwizzle(int64_t row, int64_t col, int64_t chunksPerRow,
                       int64_t chunkElems) {
  int64_t chunk = col / chunkElems;
  int64_t mask = chunksPerRow >= 8   ? (row & 7)
                 : chunksPerRow == 4 ? ((row >> 1) & 3)
                 : chunksPerRow == 2 ? ((row >> 2) & 1)
                                     : 0;
  return row * chunksPerRow * chunkElems + (chunk ^ mask) * chunkElems +
         col % chunkElems;
}

/// ldmatrix's worst phase over a [rows, cols] tile of 16-bit elements whose
/// element offsets \p offset gives: eight 16-byte rows of one chunk column.
template <typename F>
int64_t ldmatrixBruteForce(int64_t rows, int64_t cols, F offset) {
  int64_t worst = 0;
  for (int64_t r0 = 0; r0 < rows; r0 += 8)
    for (int64_t c = 0; c < cols; c += 8) {
      WarpAccess a;
      a.bytes = 16;
      for (int64_t i = 0; i < 8; ++i)
        a.address[i] = offset(r0 + i, c) * 2;
      worst = std::max(worst, replayWavefronts(a));
    }
  return worst;
}

int64_t ldmatrixAnalysis(const Layout &layout) {
  int64_t rows = layout.getInputShape()[0], cols = layout.getInputShape()[1];
  int64_t worst = 0;
  for (int64_t r0 = 0; r0 < rows; r0 += 8)
    for (int64_t c = 0; c < cols; c += 8) {
      LaneCoords lanes;
      for (int64_t i = 0; i < 8; ++i)
        lanes[i] = std::vector<int64_t>{r0 + i, c};
      worst = std::max(worst,
                       bankConflictDegree(sharedAccess(layout, 2, 8, lanes)));
    }
  return worst;
}
} // namespace

TEST_CASE("row swizzle is the runtime's swizzledIndex") {
  for (auto [rows, cols, bits] : {std::tuple{16, 16, 16},
                                  {32, 32, 16},
                                  {64, 64, 16},
                                  {16, 128, 16},
                                  {32, 64, 8},
                                  {8, 256, 8}}) {
    llvm::Expected<Layout> l = makeRowSwizzledLayout({rows, cols}, bits);
    REQUIRE(l);
    int64_t chunkElems = 128 / bits;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        CHECK(*l->applyFlat({r, c}) ==
              runtimeSwizzle(r, c, cols / chunkElems, chunkElems));
  }
  // Leading dimensions fold into the row.
  llvm::Expected<Layout> staged = makeRowSwizzledLayout({2, 16, 64}, 16);
  REQUIRE(staged);
  CHECK(*staged->applyFlat({1, 3, 9}) == runtimeSwizzle(19, 9, 8, 8));
  CHECK(!makeRowSwizzledLayout({16, 12}, 16));
  // 12 chunks a row: the runtime's XOR would leave the row (chunk 8 ^ 7 =
  // 15), so there is no such layout.
  CHECK(runtimeSwizzle(7, 64, 12, 8) >= 8 * 96);
  CHECK(!makeRowSwizzledLayout({16, 96}, 16));
  CHECK(makeRowSwizzledLayout({16, 192}, 16));
  CHECK(!makeRowSwizzledLayout({16, 16}, 32));
}

TEST_CASE("ldmatrix on linear, padded and swizzled tiles") {
  for (auto [rows, cols] : {std::pair{64, 64}, {32, 32}, {16, 128}, {64, 8}}) {
    INFO(rows << "x" << cols);
    Layout linear = Layout::linear({rows, cols});
    CHECK(ldmatrixAnalysis(linear) ==
          ldmatrixBruteForce(
              rows, cols, [&](int64_t r, int64_t c) { return r * cols + c; }));
    llvm::Expected<Layout> padded = makePaddedLayout({rows, cols}, 16, 8);
    REQUIRE(padded);
    CHECK(ldmatrixAnalysis(*padded) ==
          ldmatrixBruteForce(rows, cols, [&](int64_t r, int64_t c) {
            return r * (cols + 8) + c;
          }));
    if (cols >= 16) {
      llvm::Expected<Layout> swz = makeRowSwizzledLayout({rows, cols}, 16);
      REQUIRE(swz);
      CHECK(ldmatrixAnalysis(*swz) ==
            ldmatrixBruteForce(rows, cols, [&](int64_t r, int64_t c) {
              return runtimeSwizzle(r, c, cols / 8, 8);
            }));
      CHECK(ldmatrixAnalysis(*swz) == 1);
    }
  }
  // The textbook numbers: 128-byte rows conflict 8 ways, 64-byte rows 4
  // ways, a 16-byte pad removes both.
  CHECK(ldmatrixAnalysis(Layout::linear({64, 64})) == 8);
  CHECK(ldmatrixAnalysis(Layout::linear({32, 32})) == 4);
  CHECK(ldmatrixAnalysis(*makePaddedLayout({64, 64}, 16, 8)) == 1);
}

TEST_CASE("vector contiguity") {
  CHECK(isVectorContiguous(Layout::linear({8, 64}), 8));
  CHECK(isVectorContiguous(*makeRowSwizzledLayout({8, 64}, 16), 8));
  CHECK(!isVectorContiguous(*makeRowSwizzledLayout({8, 64}, 16), 16));
  // A pitch of 66 halves misaligns 16-byte vectors of odd rows.
  CHECK(!isVectorContiguous(*makePaddedLayout({8, 64}, 16, 2), 8));
  CHECK(isVectorContiguous(*makePaddedLayout({8, 64}, 16, 2), 2));
}

namespace {
/// The PTX ISA's mma.m16n8k16 accumulator, repeated along the columns in
/// registers (register R of lane l holds row l / 4 + 8 ((R % 4) / 2),
/// column 8 (R / 4) + 2 (l % 4) + R % 2): the oracle's own formula.
std::pair<int64_t, int64_t> mmaCElement(int64_t lane, int64_t reg) {
  return {lane / 4 + 8 * ((reg % 4) / 2),
          8 * (reg / 4) + 2 * (lane % 4) + reg % 2};
}

/// The degree of the accesses of \p warps (element coordinates) to tile
/// \p layout, the library's way.
int64_t libraryDegree(const std::vector<LaneCoords> &warps,
                      const Layout &layout, int64_t bytes, int64_t vec) {
  int64_t worst = 0;
  for (const LaneCoords &w : warps)
    worst = std::max(worst,
                     bankConflictDegree(sharedAccess(layout, bytes, vec, w)));
  return worst;
}
} // namespace

TEST_CASE("T.Parallel, flat partition, against enumerated addresses") {
  // The loop (rows, cols) over `threads` threads reads a row-major shared
  // tile of pitch `pitch` 4-byte elements at [a * i + b * j + c, j]-style
  // affine indices; the oracle enumerates flat elements r * threads + t.
  std::mt19937 rng(1818);
  for (int trial = 0; trial < 300; ++trial) {
    int64_t rows = int64_t(1) << (rng() % 6), cols = int64_t(1) << (rng() % 7);
    int64_t threads = 32 * (1 + rng() % 8);
    int64_t bytes = int64_t(1) << (rng() % 4); // 1, 2, 4, 8
    bool transposed = rng() % 2;
    int64_t pitch = (transposed ? rows : cols) + rng() % 3;
    int64_t tileRows = transposed ? cols : rows;
    std::optional<std::vector<LaneCoords>> warps =
        parallelLoopWarps({rows, cols}, threads, LoopPartition());
    REQUIRE(warps);
    Layout tile = *makePaddedLayout({tileRows, transposed ? rows : cols},
                                    unsigned(bytes * 8),
                                    pitch - (transposed ? rows : cols));
    int64_t expect = 0;
    size_t k = 0;
    int64_t numel = rows * cols;
    for (int64_t r = 0; r * threads < numel; ++r)
      for (int64_t w = 0; w * 32 < threads; ++w, ++k) {
        REQUIRE(k < warps->size());
        WarpAccess oracle, library;
        oracle.bytes = library.bytes = bytes;
        for (int64_t l = 0; l < 32; ++l) {
          int64_t flat = r * threads + w * 32 + l;
          bool active = w * 32 + l < threads && flat < numel;
          REQUIRE(active == bool((*warps)[k][l]));
          if (!active)
            continue;
          int64_t i = flat / cols, j = flat % cols;
          const std::vector<int64_t> &c = *(*warps)[k][l];
          CHECK((c[0] == i && c[1] == j));
          int64_t ti = transposed ? j : i, tj = transposed ? i : j;
          oracle.address[l] = (ti * pitch + tj) * bytes;
          library.address[l] = *tile.applyFlat({ti, tj}) * bytes;
        }
        CHECK(oracle.address == library.address);
        expect = std::max(expect, replayWavefronts(oracle));
      }
    CHECK(k == warps->size());
    // The degree the analysis computes from the loop coordinates.
    std::vector<LaneCoords> onTile = *warps;
    for (LaneCoords &w : onTile)
      for (auto &c : w)
        if (c && transposed)
          std::swap((*c)[0], (*c)[1]);
    CHECK(libraryDegree(onTile, tile, bytes, 1) == expect);
  }
  // The textbook transpose: a column of 32 floats, every lane in one bank;
  // a pitch of 33 spreads them.
  auto transposeDegree = [](int64_t pitch) {
    std::vector<LaneCoords> warps =
        *parallelLoopWarps({32, 32}, 128, LoopPartition());
    for (LaneCoords &w : warps)
      for (auto &c : w)
        std::swap((*c)[0], (*c)[1]);
    return libraryDegree(warps, *makePaddedLayout({32, 32}, 32, pitch - 32), 4,
                         1);
  };
  CHECK(transposeDegree(32) == 32);
  CHECK(transposeDegree(33) == 1);
}

TEST_CASE("T.Parallel over an mma accumulator, against the PTX formula") {
  // One warp's 16 x 64 accumulator (mma.C repeated 8 times in registers);
  // the loop takes its layout and stores each element into a row-major f32
  // tile of pitch 64 + pad.
  Fragment f = mmaInstrC().repeat(1, 8, /*onThread=*/false);
  LoopPartition p;
  p.fragment = &f;
  std::optional<std::vector<LaneCoords>> warps =
      parallelLoopWarps({16, 64}, 128, p);
  REQUIRE(warps);
  REQUIRE(warps->size() == 32); // 32 registers, one warp
  for (int64_t reg = 0; reg < 32; ++reg)
    for (int64_t l = 0; l < 32; ++l) {
      auto [i, j] = mmaCElement(l, reg);
      REQUIRE((*warps)[reg][l]);
      CHECK(*(*warps)[reg][l] == std::vector<int64_t>{i, j});
    }
  for (int64_t pad : {0, 1, 2, 4, 8}) {
    int64_t expect = 0;
    for (int64_t reg = 0; reg < 32; ++reg) {
      WarpAccess oracle;
      oracle.bytes = 4;
      for (int64_t l = 0; l < 32; ++l) {
        auto [i, j] = mmaCElement(l, reg);
        oracle.address[l] = (i * (64 + pad) + j) * 4;
      }
      expect = std::max(expect, replayWavefronts(oracle));
    }
    CHECK(libraryDegree(*warps, *makePaddedLayout({16, 64}, 32, pad), 4, 1) ==
          expect);
    // 8 rows x 4 even columns: banks 0, 2, 4, 6 of every row when rows are
    // 32 words apart.
    if (pad == 0)
      CHECK(expect == 8);
  }
  // Threads past the fragment's 32 do nothing.
  for (const LaneCoords &w : *warps)
    CHECK(llvm::all_of(w, [](auto &c) { return bool(c); }));
}

TEST_CASE("fragment exchange area, against the PTX formula") {
  // The printer stores an mma accumulator (one warp's 16 x N, mma.C
  // repeated in registers) into a row-major tile of its shape, then the
  // loop reads it at the flat partition. The oracle: lane l's register r
  // holds element mmaCElement(l, r % 4) + (0, 8 (r / 4)) (PTX ISA, mma
  // m16n8k16 accumulator), at byte (i * N + j) * bytes.
  for (int64_t n : {8, 16, 32, 64, 128})
    for (int64_t bytes : {2, 4, 8}) {
      Fragment f = mmaInstrC().repeat(1, n / 8, /*onThread=*/false);
      for (bool store : {true, false}) {
        std::optional<std::vector<LaneCoords>> warps =
            fragmentExchangeWarps(f, 128, store);
        REQUIRE(warps);
        // One warp holds the fragment: registers x 1 warp.
        REQUIRE(int64_t(warps->size()) == 4 * (n / 8));
        Layout tile = Layout::linear({16, n});
        tile.setElementBits(unsigned(bytes * 8));
        int64_t expect = 0;
        for (int64_t reg = 0; reg < 4 * (n / 8); ++reg) {
          WarpAccess oracle;
          oracle.bytes = bytes;
          for (int64_t l = 0; l < 32; ++l) {
            auto [i, j] = mmaCElement(l, reg);
            REQUIRE((*warps)[reg][l]);
            CHECK(*(*warps)[reg][l] == std::vector<int64_t>{i, j});
            oracle.address[l] = (i * n + j) * bytes;
          }
          CHECK(sharedAccess(tile, bytes, 1, (*warps)[reg]).address ==
                oracle.address);
          expect = std::max(expect, replayWavefronts(oracle));
        }
        CHECK(libraryDegree(*warps, tile, bytes, 1) == expect);
        // f32 rows of 32 words or more: the 8 rows of a register's lanes
        // fall on the same 4 banks (0, 2, 4, 6), 8-way.
        if (bytes == 4 && n >= 32)
          CHECK(expect == 8);
      }
    }
  // Replicas: a fragment held by 2 warps stores from the first only and
  // loads into both; the oracle enumerates threads and their slots.
  Fragment f = mmaInstrC().repeat(1, 4, /*onThread=*/false).replicate(2);
  std::vector<std::vector<int64_t>> table = *f.invertTable();
  for (bool store : {true, false}) {
    std::vector<LaneCoords> warps = *fragmentExchangeWarps(f, 128, store);
    REQUIRE(warps.size() == 16 * 2);
    for (int64_t reg = 0; reg < 16; ++reg)
      for (int64_t w = 0; w < 2; ++w)
        for (int64_t l = 0; l < 32; ++l) {
          const auto &c = warps[reg * 2 + w][l];
          bool active = !store || w == 0;
          REQUIRE(bool(c) == active);
          if (!c)
            continue;
          auto [i, j] = mmaCElement(l, reg);
          CHECK(*c == std::vector<int64_t>{i, j});
          const std::vector<int64_t> &e = table[(w * 32 + l) * 16 + reg];
          CHECK((e[0] == i && e[1] == j));
        }
  }
  // Threads past the block do nothing.
  std::vector<LaneCoords> few =
      *fragmentExchangeWarps(mmaInstrC().replicate(4), 64, false);
  CHECK(few.size() == 4 * 2);
}

TEST_CASE("reduction scratch is conflict-free, replayed") {
  // Every block size, every set of cross-warp bits, 4- and 8-byte partials:
  // the stores and the partner reads of the printer's scratch exchange.
  for (int64_t threads : {64, 96, 128, 256, 512, 1024})
    for (int64_t mask = 32; mask < 1024; mask += 32) {
      if (mask >= threads * 2)
        break;
      for (int64_t bytes : {4, 8})
        for (const WarpAccess &a :
             reductionScratchAccesses(threads, mask & ~int64_t(31), 2, bytes)) {
          // The oracle: every lane of a warp at consecutive elements.
          int64_t base = -1;
          for (int64_t l = 0; l < 32; ++l) {
            if (a.address[l] < 0)
              continue;
            if (base < 0)
              base = a.address[l] - l * bytes;
            CHECK(a.address[l] == base + l * bytes);
          }
          CHECK(replayWavefronts(a) == 1);
          CHECK(bankConflictDegree(a) == 1);
        }
    }
}

TEST_CASE("staged epilogue store, against the PTX formula") {
  // One warp's 16 x 64 accumulator stored through the printer's staging
  // tile (rows padded by 16 bytes), 2 registers per store.
  Fragment f = mmaInstrC().repeat(1, 8, /*onThread=*/false);
  for (int64_t bytes : {4, 2}) {
    std::optional<StagedStore> s = stagedStoreAccesses(f, 128, bytes, 2);
    REQUIRE(s);
    int64_t pitch = 64 + 16 / bytes;
    CHECK(s->padElems == 16 / bytes);
    CHECK(s->storeVec == 2);
    REQUIRE(s->stores.size() == 16);
    int64_t expectStore = 0;
    for (int64_t k = 0; k < 16; ++k) {
      WarpAccess oracle;
      oracle.bytes = 2 * bytes;
      for (int64_t l = 0; l < 32; ++l) {
        auto [i, j] = mmaCElement(l, 2 * k);
        oracle.address[l] = (i * pitch + j) * bytes;
      }
      CHECK(oracle.address ==
            sharedAccess(s->tile, bytes, 2, s->stores[k]).address);
      expectStore = std::max(expectStore, replayWavefronts(oracle));
    }
    CHECK(libraryDegree(s->stores, s->tile, bytes, 2) == expectStore);
    // f32: a half warp's 4 rows of 8 words, 4 banks apart: 2-way. f16: 8
    // rows of 4 words, 4 banks apart: conflict-free.
    CHECK(expectStore == (bytes == 4 ? 2 : 1));
    // Back out: 16-byte chunks, chunk c * 128 + t in row-major order.
    int64_t chunk = 16 / bytes, perRow = 64 / chunk;
    int64_t expectRead = 0;
    for (size_t k = 0; k < s->reads.size(); ++k) {
      WarpAccess oracle;
      oracle.bytes = 16;
      int64_t c = k / 4, w = k % 4;
      for (int64_t l = 0; l < 32; ++l) {
        int64_t q = c * 128 + w * 32 + l;
        if (q < 16 * perRow)
          oracle.address[l] =
              ((q / perRow) * pitch + (q % perRow) * chunk) * bytes;
      }
      CHECK(oracle.address ==
            sharedAccess(s->tile, bytes, chunk, s->reads[k]).address);
      expectRead = std::max(expectRead, replayWavefronts(oracle));
    }
    CHECK(libraryDegree(s->reads, s->tile, bytes, chunk) == expectRead);
  }
  // 16-byte register runs are stored directly, not staged.
  CHECK(!stagedStoreAccesses(f, 128, 4, 4));
}

TEST_CASE("wgmma core-matrix reads of the Hopper panel swizzle") {
  // The oracle: CuTe's Swizzle<B, 4, 3> on each panel of `swz` bytes per
  // row (the TMA / wgmma swizzle modes: byte-offset bits 4.. XOR bits 7..),
  // panels of swz / 2 columns stored one after another.
  for (int64_t cols : {16, 32, 64, 128, 256})
    for (int64_t rows : {8, 64, 128}) {
      std::optional<SwizzleMode> mode = widestSwizzle({rows, cols}, 16);
      if (!mode)
        continue;
      int64_t swz = swizzleBytes(*mode), w = swz / 2;
      Layout l = makeGemmABLayoutHopper({rows, cols}, 16);
      auto oracle = [&](int64_t r, int64_t c) {
        int64_t o = r * swz + (c % w) * 2;
        o ^= ((o >> 7) & (swz / 16 - 1)) << 4;
        return (c / w) * rows * swz + o;
      };
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          REQUIRE(*l.applyFlat({r, c}) * 2 == oracle(r, c));
      // Each core matrix (8 rows of one 16-byte chunk column) is one
      // phase of 8 lanes: replayed, one wavefront.
      int64_t worstLinear = 0;
      for (int64_t r0 = 0; r0 < rows; r0 += 8)
        for (int64_t c = 0; c < cols; c += 8) {
          WarpAccess a, linear;
          a.bytes = linear.bytes = 16;
          for (int64_t i = 0; i < 8; ++i) {
            a.address[i] = oracle(r0 + i, c);
            linear.address[i] = ((r0 + i) * cols + c) * 2;
          }
          CHECK(replayWavefronts(a) == 1);
          CHECK(bankConflictDegree(a) == 1);
          worstLinear = std::max(worstLinear, replayWavefronts(linear));
        }
      // Unswizzled rows of 128 bytes or more would conflict 8 ways.
      if (cols * 2 >= 128)
        CHECK(worstLinear == 8);
    }
}

TEST_CASE("stagedStoreDegree is the worst of the staged accesses") {
  Fragment f = mmaInstrC().repeat(1, 8, /*onThread=*/false);
  // f32: the 2-way stores; f16: none; 16-byte runs: not staged.
  CHECK(stagedStoreDegree(f, 128, 4, 2) == 2);
  CHECK(stagedStoreDegree(f, 128, 2, 2) == 1);
  CHECK(stagedStoreDegree(f, 128, 4, 4) == 0);
  // Kept: the same answer again.
  CHECK(stagedStoreDegree(f, 128, 4, 2) == 2);
}

namespace {
/// CDNA's LDS phases, written from AMD's documents as lane lists of a
/// 64-lane wavefront (not from the library's half-wave grouping): b32 and
/// narrower per half wavefront (OpenCL Programming Guide, LDS: lanes 0-31
/// and 32-63 are checked for conflicts); b64 per quarter wavefront (the
/// guide's sequential float2 example is conflict-free); ds_write_b128 in
/// eight phases of 8 consecutive lanes and ds_read_b128 in the lane groups
/// CK-Tile's "Understanding AMD GPU LDS and Bank Conflicts" lists.
std::vector<std::vector<int64_t>> cdnaPhases(int64_t bytes, bool store) {
  auto range = [](int64_t a, int64_t n) {
    std::vector<int64_t> r;
    for (int64_t l = a; l < a + n; ++l)
      r.push_back(l);
    return r;
  };
  std::vector<std::vector<int64_t>> phases;
  if (bytes == 16 && !store) {
    const int64_t groups[8][2] = {{0, 20},  {4, 16},  {8, 28},  {12, 24},
                                  {32, 52}, {36, 48}, {40, 60}, {44, 56}};
    for (auto [a, b] : groups) {
      std::vector<int64_t> p = range(a, 4), q = range(b, 4);
      p.insert(p.end(), q.begin(), q.end());
      phases.push_back(p);
    }
    return phases;
  }
  int64_t n = bytes == 16 ? 8 : bytes == 8 ? 16 : 32;
  for (int64_t a = 0; a < 64; a += n)
    phases.push_back(range(a, n));
  return phases;
}

/// Wavefronts of the worst phase of a 64-lane LDS access, replayed: each
/// cycle every bank serves one word to every lane waiting for it.
int64_t replayLds(const std::array<int64_t, 64> &address, int64_t bytes,
                  bool store) {
  int64_t worst = 0;
  for (const std::vector<int64_t> &phase : cdnaPhases(bytes, store)) {
    std::set<std::pair<int64_t, int64_t>> pending;
    for (int64_t l : phase) {
      if (address[l] < 0)
        continue;
      for (int64_t byte = address[l];
           byte < address[l] + std::max<int64_t>(bytes, 4); byte += 4)
        pending.insert({l, byte / 4});
    }
    int64_t waves = 0;
    while (!pending.empty()) {
      ++waves;
      std::map<int64_t, int64_t> served;
      for (auto [lane, word] : pending)
        served.try_emplace(word % 32, word);
      for (auto it = pending.begin(); it != pending.end();)
        it = served[it->second % 32] == it->second ? pending.erase(it)
                                                   : std::next(it);
    }
    worst = std::max(worst, waves);
  }
  return worst;
}

/// The library's degree of a 64-lane access: the worst of its halves.
int64_t ldsDegree(const std::array<int64_t, 64> &address, int64_t bytes,
                  bool store) {
  int64_t worst = 0;
  for (int64_t h = 0; h < 2; ++h) {
    WarpAccess a;
    a.bytes = bytes;
    a.lds = true;
    a.store = store;
    for (int64_t l = 0; l < 32; ++l)
      a.address[l] = address[h * 32 + l];
    worst = std::max(worst, bankConflictDegree(a));
  }
  return worst;
}
} // namespace

TEST_CASE("CDNA LDS: documented cases") {
  std::array<int64_t, 64> a;
  auto fill = [&](auto f) {
    for (int64_t l = 0; l < 64; ++l)
      a[l] = f(l);
  };
  // Consecutive words, float2s and 16-byte vectors: conflict-free.
  fill([](int64_t l) { return l * 4; });
  CHECK(ldsDegree(a, 4, false) == 1);
  fill([](int64_t l) { return l * 8; });
  CHECK(ldsDegree(a, 8, false) == 1);
  fill([](int64_t l) { return l * 16; });
  CHECK(ldsDegree(a, 16, true) == 1);
  // Consecutive 16-byte reads: group 0-3 + 20-23 reads words 0-15 and
  // 80-95 (banks 16-31): conflict-free too, though not 8 consecutive lanes.
  CHECK(ldsDegree(a, 16, false) == 1);
  CHECK(replayLds(a, 16, false) == 1);
  // Lane l at chunk l % 8 of row l / 8, rows of 160 bytes: each 8
  // consecutive lanes write one row (conflict-free), but read group
  // 0-3 + 20-23 meets row 0's words 0-15 and row 2's words 96-111, both in
  // banks 0-15: 2-way.
  fill([](int64_t l) { return (l / 8) * 160 + (l % 8) * 16; });
  CHECK(ldsDegree(a, 16, true) == 1);
  CHECK(ldsDegree(a, 16, false) == 2);
  CHECK(replayLds(a, 16, false) == 2);
  // The MFMA-style read CK-Tile describes: lane l reads row l % 16 of rows
  // of 64 bytes, chunk l / 16 (16 bytes). Group 0-3 + 20-23 reads rows
  // 0-3 of chunk 0 (rows 0 and 2 both in banks 0-3) and rows 4-7 of
  // chunk 1: 2-way.
  fill([](int64_t l) { return (l % 16) * 64 + (l / 16) * 16; });
  CHECK(ldsDegree(a, 16, false) == replayLds(a, 16, false));
  CHECK(ldsDegree(a, 16, false) == 2);
  // Stride of 32 words: every lane of a half in bank 0.
  fill([](int64_t l) { return l * 128; });
  CHECK(ldsDegree(a, 4, false) == 32);
  CHECK(ldsDegree(a, 2, true) == 32);
  // A half wavefront is one phase: lanes 0 and 32 never conflict.
  fill([](int64_t l) { return (l % 32) * 4 + (l / 32) * 128; });
  CHECK(ldsDegree(a, 4, false) == 1);
}

TEST_CASE("CDNA LDS: random accesses agree with the phase replay") {
  std::mt19937 rng(1864);
  for (int trial = 0; trial < 3000; ++trial) {
    int64_t bytes = int64_t(1) << (rng() % 5);
    bool store = rng() % 2;
    std::array<int64_t, 64> a;
    int64_t span = int64_t(1) << (6 + rng() % 8);
    for (int64_t l = 0; l < 64; ++l) {
      int64_t addr = rng() % span;
      a[l] = rng() % 8 == 0 ? -1 : addr - addr % bytes;
    }
    INFO("trial " << trial << ", " << bytes << "-byte "
                  << (store ? "write" : "read"));
    CHECK(ldsDegree(a, bytes, store) == replayLds(a, bytes, store));
  }
}
