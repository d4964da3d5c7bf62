//===- PropagationTest.cpp - Reductions, T.Parallel, free choice ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The oracle for reductions is enumeration of the source fragment: the
// threads that must hold result element r are exactly the threads that held
// some element of row r before the reduction.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/Propagation.h"
#include "tlc/Layout/FragmentTables.h"
#include "tlc/Layout/GemmLayouts.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace tlc::layout;

namespace {
Fragment accumulator(GemmArch arch, int64_t m, int64_t n, int64_t threads) {
  GemmConfig c;
  c.arch = arch, c.m = m, c.n = n, c.k = 32, c.threads = threads;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  return *f;
}

/// Checks reduceFragment(src, dim) against enumeration of src.
void checkReduction(const Fragment &src, unsigned dim) {
  llvm::Expected<Fragment> dst = reduceFragment(src, dim);
  REQUIRE_MESSAGE(dst, llvm::toString(dst.takeError()));
  std::vector<int64_t> shape = src.getInputShape().vec();
  shape.erase(shape.begin() + dim);
  REQUIRE(dst->getInputShape().vec() == shape);
  llvm::Error err = dst->verify(src.getThreadExtent());
  CHECK_MESSAGE(!err, llvm::toString(std::move(err)));
  // Threads per result element: before and after.
  std::map<std::vector<int64_t>, std::set<int64_t>> before, after;
  forEachCoord(src.getInputShape(), [&](llvm::ArrayRef<int64_t> coord) {
    std::vector<int64_t> key = coord.vec();
    key.erase(key.begin() + dim);
    for (int64_t r = 0; r < src.getReplicate(); ++r)
      before[key].insert(src.apply(coord, r)->thread);
  });
  forEachCoord(shape, [&](llvm::ArrayRef<int64_t> coord) {
    for (int64_t r = 0; r < dst->getReplicate(); ++r)
      after[coord.vec()].insert(dst->apply(coord, r)->thread);
  });
  CHECK(before == after);
  // Each thread keeps one register per result element it holds.
  std::map<int64_t, int64_t> perThread;
  for (auto &[key, threads] : before)
    for (int64_t t : threads)
      ++perThread[t];
  int64_t most = 0;
  for (auto &[t, count] : perThread)
    most = std::max(most, count);
  CHECK(dst->getRegsPerThread() == most);
}
} // namespace

TEST_CASE("reduce over dim 1 of the sm80 accumulator gives the row layout") {
  Fragment acc = accumulator(GemmArch::SM80, 128, 128, 128);
  llvm::Expected<Fragment> row = reduceFragment(acc, 1);
  REQUIRE(row);
  // Each row lives in 4 lanes of a quad, in the 2 warps along N.
  CHECK(row->getReplicate() == 8);
  CHECK(row->getRegsPerThread() == 8);
  CHECK(row->getForwardThread().str() ==
        "64 * (rep // 4) + 32 * (i // 64) + 4 * (i % 8) + rep % 4");
  CHECK(row->getForwardIndex()[0].str() == "(i // 8) % 8");
  CHECK(row->shortLabel() == "mma.C row · 2×2 warps · 8 regs/thread · rep 8");
  checkReduction(acc, 1);
  checkReduction(acc, 0);
}

TEST_CASE("property: reductions of gemm accumulators") {
  for (GemmArch arch : {GemmArch::SM80, GemmArch::SM90, GemmArch::CDNA})
    for (int64_t m : {64, 128})
      for (int64_t n : {32, 128})
        for (int64_t threads : {128, 256}) {
          GemmConfig c;
          c.arch = arch, c.m = m, c.n = n, c.k = 32, c.threads = threads;
          llvm::Expected<Fragment> acc = gemmAccumulatorFragment(c);
          if (!acc) {
            llvm::consumeError(acc.takeError());
            continue;
          }
          INFO("arch " << int(arch) << " " << m << "x" << n << " threads "
                       << threads);
          checkReduction(*acc, 1);
          checkReduction(*acc, 0);
          // Reducing a reduction: everything ends on every holder.
          llvm::Expected<Fragment> row = reduceFragment(*acc, 1);
          REQUIRE(row);
          checkReduction(*row, 0);
        }
}

TEST_CASE("reductions reject thread maps that are not digit sums") {
  llvm::Expected<Fragment> f =
      Fragment::parse({32, 32}, {"i"}, "(i ^ j) % 32");
  REQUIRE(f);
  llvm::Expected<Fragment> r = reduceFragment(*f, 1);
  REQUIRE(!r);
  CHECK(llvm::toString(r.takeError()) ==
        "cannot reduce over j: thread map 'i ^ j' is not a sum of its digits");
}

TEST_CASE("planReduciblePartition: one slot per element, reducible") {
  // {shape, threads, dim}: the 48 x 40 column sum on 128 and 256 threads
  // (their plain partitions are not digit sums), a kept-column case with a
  // guarded round (36 columns over 8 groups), an odd reduced extent.
  struct Case {
    std::vector<int64_t> shape;
    int64_t threads;
    unsigned dim;
  };
  for (const Case &c : {Case{{48, 40}, 128, 0}, Case{{48, 40}, 256, 0},
                        Case{{24, 36}, 64, 0}, Case{{7, 64}, 32, 0},
                        Case{{40, 48}, 128, 1}}) {
    CAPTURE(c.threads);
    CAPTURE(c.dim);
    llvm::Expected<Fragment> f =
        planReduciblePartition(c.shape, c.threads, c.dim);
    REQUIRE_MESSAGE(f, llvm::toString(f.takeError()));
    CHECK(f->getThreadExtent() <= c.threads);
    // Every element on exactly one (thread, register) slot, the reduced
    // index's low digit on the low thread bits.
    int64_t a = 1;
    while (c.shape[c.dim] % (a * 2) == 0 && c.threads % (a * 2) == 0)
      a *= 2;
    std::set<std::pair<int64_t, int64_t>> slots;
    int64_t n = 0;
    forEachCoord(c.shape, [&](llvm::ArrayRef<int64_t> coord) {
      std::optional<FragmentSlot> s = f->apply(coord);
      REQUIRE(s);
      CHECK(s->thread % a == coord[c.dim] % a);
      CHECK(s->index < f->getRegsPerThread());
      slots.insert({s->thread, s->index});
      ++n;
    });
    CHECK(int64_t(slots.size()) == n);
    checkReduction(*f, c.dim);
  }
}

TEST_CASE("planReduciblePartition: rank 3, other dimensions not powers of "
          "two") {
  // The flat other index (20 i + k for a 12 x 24 x 20 middle sum) is not
  // linear in the coordinates' bits: the thread groups are split per
  // dimension. {shape, threads, dim}: middle, last and first dimension.
  struct Case {
    std::vector<int64_t> shape;
    int64_t threads;
    unsigned dim;
  };
  for (const Case &c :
       {Case{{12, 24, 20}, 128, 1}, Case{{12, 24, 20}, 128, 2},
        Case{{12, 24, 20}, 256, 2}, Case{{24, 12, 20}, 64, 0}}) {
    CAPTURE(c.threads);
    CAPTURE(c.dim);
    llvm::Expected<Fragment> f =
        planReduciblePartition(c.shape, c.threads, c.dim);
    REQUIRE_MESSAGE(f, llvm::toString(f.takeError()));
    CHECK(f->getThreadExtent() == c.threads);
    int64_t a = 1;
    while (c.shape[c.dim] % (a * 2) == 0 && c.threads % (a * 2) == 0)
      a *= 2;
    std::set<std::pair<int64_t, int64_t>> slots;
    std::set<int64_t> threads;
    int64_t n = 0;
    forEachCoord(c.shape, [&](llvm::ArrayRef<int64_t> coord) {
      std::optional<FragmentSlot> s = f->apply(coord);
      REQUIRE(s);
      CHECK(s->thread % a == coord[c.dim] % a);
      CHECK(s->index < f->getRegsPerThread());
      slots.insert({s->thread, s->index});
      threads.insert(s->thread);
      ++n;
    });
    CHECK(int64_t(slots.size()) == n);
    // Every thread holds an element.
    CHECK(int64_t(threads.size()) == c.threads);
    checkReduction(*f, c.dim);
    // The printers can index the source and the result (coordinates
    // linear in the bits of thread and register), and the fit gives each
    // full slot its own coordinates.
    std::shared_ptr<const FragmentTables> t = FragmentTables::get(*f, 3);
    REQUIRE(t->error.empty());
    REQUIRE(t->coords);
    forEachCoord(c.shape, [&](llvm::ArrayRef<int64_t> coord) {
      std::optional<FragmentSlot> s = f->apply(coord);
      for (unsigned d = 0; d < 3; ++d)
        CHECK(t->coords->evaluate(d, {s->thread, s->index}) == coord[d]);
    });
    llvm::Expected<Fragment> r = reduceFragment(*f, c.dim);
    REQUIRE(r);
    std::shared_ptr<const FragmentTables> rt = FragmentTables::get(*r, 2);
    CHECK(rt->error.empty());
    CHECK(rt->coords);
  }
}

TEST_CASE("the 48 x 48 warp accumulator's padding digit") {
  // Block 96 x 96 over 2 x 2 warps on sm_80: 3 m atoms and 3 n atoms of
  // 16 a warp; the n atoms' 24 registers padded to 32, so registers
  // 24..31 of each m atom hold nothing in any thread.
  Fragment acc = accumulator(GemmArch::SM80, 96, 96, 128);
  CHECK(acc.getRegsPerThread() == 88);
  std::shared_ptr<const FragmentTables> t = FragmentTables::get(acc, 2);
  REQUIRE(t->error.empty());
  REQUIRE(t->coords);
  REQUIRE(t->emptySlots);
  for (int64_t th = 0; th < acc.getThreadExtent(); ++th)
    for (int64_t r = 0; r < acc.getRegsPerThread(); ++r) {
      bool pad = (r & 31) >= 24;
      CHECK(t->holds(th, r) == !pad);
      CHECK((((r >> t->padShift) & t->padMask) >= t->padLimit) == pad);
    }
  // The coordinates the fit gives a full slot are the layout's own.
  forEachCoord(acc.getInputShape(), [&](llvm::ArrayRef<int64_t> coord) {
    std::optional<FragmentSlot> s = acc.apply(coord);
    REQUIRE(s);
    for (unsigned d = 0; d < 2; ++d)
      CHECK(t->coords->evaluate(d, {s->thread, s->index}) == coord[d]);
  });
}

TEST_CASE("a T.Parallel over the accumulator takes the accumulator layout") {
  Fragment acc = accumulator(GemmArch::SM80, 128, 128, 128);
  IndexExpr i = IndexExpr::var(0, "i"), j = IndexExpr::var(1, "j");
  llvm::Expected<Fragment> loop = loopLayoutFromBuffer(acc, {i, j}, {128, 128});
  REQUIRE(loop);
  CHECK(loop->isEquivalentTo(acc));
  CHECK(loop->shortLabel() == acc.shortLabel());
  // A transposed loop `for j, i in T.Parallel(N, M): C[i, j]`.
  llvm::Expected<Fragment> t = loopLayoutFromBuffer(acc, {j, i}, {128, 128});
  REQUIRE(t);
  CHECK(t->apply({5, 70})->thread == acc.apply({70, 5})->thread);
  CHECK(t->apply({5, 70})->index == acc.apply({70, 5})->index);
  // A loop variable the access ignores: every iteration of a row runs on
  // the thread holding that row's element, each in a register of its own.
  llvm::Expected<Fragment> row =
      loopLayoutFromBuffer(acc, {i, IndexExpr::constant(0)}, {128, 128});
  REQUIRE(row);
  CHECK(row->apply({70, 5})->thread == acc.apply({70, 0})->thread);
  CHECK(row->apply({70, 9})->thread == acc.apply({70, 0})->thread);
  CHECK(row->apply({70, 5})->index != row->apply({70, 9})->index);
  // Two iterations per element (`b[i, j // 2]`): both on its thread.
  llvm::Expected<Fragment> packed =
      loopLayoutFromBuffer(acc, {i, floorDiv(j, 2)}, {128, 256});
  REQUIRE(packed);
  CHECK(packed->apply({3, 9})->thread == acc.apply({3, 4})->thread);
  CHECK(packed->apply({3, 8})->thread == acc.apply({3, 4})->thread);
  CHECK(packed->apply({3, 8})->index != packed->apply({3, 9})->index);
  // An access that leaves the buffer has no loop layout.
  llvm::Expected<Fragment> bad = loopLayoutFromBuffer(acc, {i, j}, {128, 256});
  REQUIRE(!bad);
  llvm::consumeError(bad.takeError());
}

TEST_CASE("a row vector read in the epilogue loop is replicated per row") {
  Fragment acc = accumulator(GemmArch::SM80, 128, 128, 128);
  IndexExpr i = IndexExpr::var(0, "i");
  llvm::Expected<Fragment> rowMax = completeBufferFragment(acc, {i}, {128});
  REQUIRE(rowMax);
  llvm::Expected<Fragment> reduced = reduceFragment(acc, 1);
  REQUIRE(reduced);
  CHECK(rowMax->isEquivalentTo(*reduced));
  // Column vector: indexed by j.
  llvm::Expected<Fragment> col =
      completeBufferFragment(acc, {IndexExpr::var(1, "j")}, {128});
  REQUIRE(col);
  llvm::Error err = col->verify(128);
  CHECK_MESSAGE(!err, llvm::toString(std::move(err)));
  llvm::Expected<Fragment> bad =
      completeBufferFragment(acc, {i + IndexExpr::constant(1)}, {128});
  REQUIRE(!bad);
  CHECK(llvm::toString(bad.takeError()) ==
        "cannot derive a fragment layout through access 'i + 1': each index "
        "must be a loop variable");
}

TEST_CASE("free partition of a loop nest") {
  llvm::Expected<Fragment> f = planLoopPartition({128, 128}, 128, 8);
  REQUIRE(f);
  CHECK(f->getRegsPerThread() == 128);
  CHECK(f->apply({0, 7})->thread == 0);
  CHECK(f->apply({0, 8})->thread == 1);
  CHECK(f->apply({8, 0})->thread == 0);
  CHECK(f->apply({8, 0})->index == 8);
  CHECK(f->getForwardThread().str() == "16 * (i % 8) + j // 8");
  CHECK(!f->verify(128));
  CHECK(chooseVectorWidth({128, 128}, 16, 128) == 8);
  CHECK(chooseVectorWidth({128, 128}, 32, 128) == 4);
  CHECK(chooseVectorWidth({64}, 32, 128) == 1);
  CHECK(chooseVectorWidth({4, 6}, 16, 1) == 2);
  Fragment small = defaultFragment({64}, 32, 128);
  CHECK(small.getThreadExtent() == 64);
  CHECK(small.getRegsPerThread() == 1);
  llvm::Expected<Fragment> ragged = planLoopPartition({100}, 128, 4);
  REQUIRE(ragged);
  llvm::Expected<Fragment> bad = planLoopPartition({300}, 128, 1);
  REQUIRE(!bad);
  CHECK(llvm::toString(bad.takeError()) ==
        "trip count 300 is not a multiple of 128 threads x 1 lanes");
}

TEST_CASE("free choice by register cost and conflict resolution") {
  Fragment acc = accumulator(GemmArch::SM80, 128, 128, 128);
  Fragment replicated = Fragment::fullyReplicated({128, 128}, 128);
  Fragment plain = defaultFragment({128, 128}, 32, 128);
  std::vector<Fragment> candidates = {replicated, plain, acc};
  CHECK(chooseCheapest(candidates) == 1);
  CHECK(registerCost(replicated) == 128 * 128);
  // Equal layouts merge; a replicated layout contains every other one.
  llvm::Expected<Fragment> same = mergeFragments(acc, acc, InferLevel::Strict);
  REQUIRE(same);
  llvm::Expected<Fragment> grown =
      mergeFragments(acc, replicated, InferLevel::Common);
  REQUIRE(grown);
  CHECK(grown->getReplicate() == 128);
  llvm::Expected<Fragment> strict =
      mergeFragments(acc, replicated, InferLevel::Strict);
  REQUIRE(!strict);
  llvm::consumeError(strict.takeError());
  llvm::Expected<Fragment> clash =
      mergeFragments(acc, plain, InferLevel::Common);
  REQUIRE(!clash);
  CHECK(llvm::toString(clash.takeError()) ==
        "conflicting fragment layouts: mma.C · 2×2 warps · 128 regs/thread vs "
        "parallel · 128 regs/thread");
}

TEST_CASE("property: reshapes keep every element in its slot") {
  // The element at flat (row-major) position p of the view sits where the
  // source's element at p sits, for every replica: checked by enumeration
  // against apply() of the source.
  auto check = [](const Fragment &src, std::vector<int64_t> shape) {
    llvm::Expected<Fragment> view = reshapeFragment(src, shape);
    REQUIRE_MESSAGE(view, llvm::toString(view.takeError()));
    CHECK(view->getInputShape().vec() == shape);
    CHECK(view->getRegsPerThread() == src.getRegsPerThread());
    std::vector<FragmentSlot> slots;
    forEachCoord(src.getInputShape(), [&](llvm::ArrayRef<int64_t> c) {
      for (int64_t r = 0; r < src.getReplicate(); ++r)
        slots.push_back(*src.apply(c, r));
    });
    size_t k = 0;
    forEachCoord(shape, [&](llvm::ArrayRef<int64_t> c) {
      for (int64_t r = 0; r < view->getReplicate(); ++r, ++k) {
        std::optional<FragmentSlot> s = view->apply(c, r);
        REQUIRE(s);
        CHECK(s->thread == slots[k].thread);
        CHECK(s->index == slots[k].index);
      }
    });
    CHECK(k == slots.size());
  };
  for (GemmArch arch : {GemmArch::SM80, GemmArch::SM90, GemmArch::CDNA}) {
    GemmConfig c;
    c.arch = arch, c.m = 64, c.n = 32, c.k = 32, c.threads = 128;
    llvm::Expected<Fragment> acc = gemmAccumulatorFragment(c);
    REQUIRE(acc);
    INFO("arch " << int(arch));
    check(*acc, {64, 4, 8});   // the lightning indexer's [N, Q, heads]
    check(*acc, {64, 2, 16});
    check(*acc, {2048});       // flattened
    check(*acc, {8, 8, 32});   // rows split
    llvm::Expected<Fragment> row = reduceFragment(*acc, 1);
    REQUIRE(row);
    check(*row, {8, 8});       // a replicated row vector
  }
  // A reshape back is the identity.
  llvm::Expected<Fragment> f = Fragment::parse({16, 24}, {"j % 4"}, "4 * i + j // 4");
  REQUIRE(f);
  check(*f, {4, 4, 24});
  llvm::Expected<Fragment> there = reshapeFragment(*f, {384});
  REQUIRE(there);
  llvm::Expected<Fragment> back = reshapeFragment(*there, {16, 24});
  REQUIRE(back);
  CHECK(back->isEquivalentTo(*f));
  // A different element count is refused.
  llvm::Expected<Fragment> bad = reshapeFragment(*f, {16, 16});
  CHECK(!bad);
  llvm::consumeError(bad.takeError());
}

TEST_CASE("fragments held whole by every thread are bounded before "
          "any enumeration") {
  // Within the bound: every thread holds every element, registers in
  // row-major order.
  std::optional<Fragment> small = fullyReplicatedWithin({4, 8}, 128);
  REQUIRE(small);
  CHECK(small->getReplicate() == 128);
  CHECK(small->getRegsPerThread() == 32);
  std::set<int64_t> holders;
  for (int64_t r = 0; r < 128; ++r) {
    std::optional<FragmentSlot> s = small->apply({2, 5}, r);
    REQUIRE(s);
    CHECK(s->index == 21);
    holders.insert(s->thread);
  }
  CHECK(holders.size() == 128);
  // Exactly at the bound, and one element past it.
  CHECK(fullyReplicatedWithin({int64_t(1) << 15}, 128));
  CHECK(!fullyReplicatedWithin({(int64_t(1) << 15) + 1}, 128));
  // A product that overflows int64 is refused, not wrapped.
  CHECK(!fullyReplicatedWithin({int64_t(1) << 40, int64_t(1) << 40}, 2,
                               std::numeric_limits<int64_t>::max()));
  // A default layout that does not divide among the threads is a guarded
  // partition (ceil(531441 / 256) = 2076 registers, the last round partly
  // empty); held whole by every thread (guarded off) it falls back to the
  // same bound; one that divides is never refused.
  std::optional<Fragment> guarded =
      defaultFragmentWithin({531441}, 32, 256, kMaxReplicatedSlots);
  REQUIRE(guarded);
  CHECK(guarded->getRegsPerThread() == 2076);
  CHECK(guarded->getReplicate() == 1);
  CHECK(hasEmptySlots(*guarded));
  CHECK(!defaultFragmentWithin({531441}, 32, 256, kMaxReplicatedSlots,
                               /*guarded=*/false));
  CHECK(defaultFragmentWithin({1 << 14}, 32, 128, kMaxReplicatedSlots));
  CHECK(!hasEmptySlots(
      *defaultFragmentWithin({1 << 14}, 32, 128, kMaxReplicatedSlots)));
}

TEST_CASE("a guarded default partition's tables skip its empty slots") {
  // 64 x 64 f32 on 384 threads: 4-element chunks dealt round-robin, 12
  // registers; threads 256..383 hold 8. 48 x 40 on 256 threads: 8
  // registers, a flat fit (40 is no power of two).
  struct Case {
    std::vector<int64_t> shape;
    int64_t threads, regs, filledSlots;
  };
  for (const Case &c :
       {Case{{64, 64}, 384, 12, 4096}, Case{{48, 40}, 256, 8, 1920}}) {
    std::optional<Fragment> f =
        defaultFragmentWithin(c.shape, 32, c.threads, kMaxReplicatedSlots);
    REQUIRE(f);
    CHECK(f->getRegsPerThread() == c.regs);
    CHECK(f->getThreadExtent() == c.threads);
    std::shared_ptr<const FragmentTables> t =
        FragmentTables::get(*f, c.shape.size());
    REQUIRE(t->error.empty());
    REQUIRE(t->coords);
    CHECK(t->emptySlots);
    int64_t numel = c.shape[0] * c.shape[1], filled = 0;
    std::vector<int> seen(numel, 0);
    for (int64_t th = 0; th < c.threads; ++th)
      for (int64_t r = 0; r < c.regs; ++r) {
        // The fitted map's flat index, checked against the layout itself:
        // a full slot's element is held there; an empty slot's lies past
        // the shape.
        int64_t flat = t->coords->isFlat()
                           ? t->coords->evaluateLinear(0, {th, r})
                           : t->coords->evaluate(0, {th, r}) * c.shape[1] +
                                 t->coords->evaluate(1, {th, r});
        bool in = t->coords->isFlat()
                      ? flat < numel
                      : t->coords->evaluate(0, {th, r}) < c.shape[0];
        CHECK(in == t->holds(th, r));
        if (!in)
          continue;
        ++filled;
        ++seen[flat];
        std::optional<FragmentSlot> s =
            f->apply({flat / c.shape[1], flat % c.shape[1]}, 0);
        REQUIRE(s);
        CHECK(s->thread == th);
        CHECK(s->index == r);
      }
    CHECK(filled == c.filledSlots);
    CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  }
}

TEST_CASE("loop layouts and inverse tables of replicated fragments are "
          "bounded") {
  // A row vector every one of 256 threads holds (the result of a
  // reduction no partition divides: 449 rows), read in a (449, 128) loop:
  // the loop layout would place 449 x 128 x 256 (14.7M) iterations, past
  // kMaxEnumeratedInputs. The candidate is refused (inference then plans
  // the loop on its own) instead of enumerated.
  std::optional<Fragment> rows = fullyReplicatedWithin({449}, 256);
  REQUIRE(rows);
  IndexExpr i = IndexExpr::var(0, "i");
  llvm::Expected<Fragment> wide = loopLayoutFromBuffer(*rows, {i}, {449, 128});
  REQUIRE(!wide);
  CHECK(llvm::toString(wide.takeError()).find("more than the 4194304 "
                                              "placements") !=
        std::string::npos);
  // 449 x 8 x 256 (919,552) placements are within the bound and checked:
  // every iteration on every thread (replica r on thread r), its registers
  // in row-major order of the iterations.
  llvm::Expected<Fragment> narrow = loopLayoutFromBuffer(*rows, {i}, {449, 8});
  REQUIRE_MESSAGE(narrow, llvm::toString(narrow.takeError()));
  CHECK(narrow->getReplicate() == 256);
  std::optional<FragmentSlot> s = narrow->apply({300, 5}, 17);
  REQUIRE(s);
  CHECK(s->thread == 17);
  CHECK(s->index == 300 * 8 + 5);
  // The inverse table of a fragment is built only within the bound:
  // 8192 elements on each of 1024 threads (8.4M slots) are refused by
  // message, 4096 on each of 1024 (exactly 2^22) are tabulated.
  Fragment big = Fragment::fullyReplicated({64, 128}, 1024);
  auto refused = big.invertTable();
  REQUIRE(!refused);
  CHECK(llvm::toString(refused.takeError()) ==
        "fragment puts 8192 registers on each of 1024 threads, more "
        "(thread, register) slots than the 4194304 a table is built for");
  auto table = Fragment::fullyReplicated({64, 64}, 1024).invertTable();
  REQUIRE(table);
  CHECK(table->size() == (size_t(1) << 22));
  CHECK((*table)[5 * 4096 + 70] == std::vector<int64_t>{1, 6, 5});
}
