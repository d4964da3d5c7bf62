//===- LayoutTest.cpp - Layout and Fragment algebra and printing ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/Layout.h"
#include "tlc/Layout/SharedLayouts.h"

#include <doctest/doctest.h>

using namespace tlc::layout;

namespace {
Layout layoutOf(std::vector<int64_t> shape,
                std::vector<std::string> outputs) {
  std::vector<std::string> names = inputNames(shape.size());
  std::vector<IndexExpr> forward;
  for (const std::string &text : outputs)
    forward.push_back(*parseIndexExpr(text, names));
  llvm::Expected<Layout> l = Layout::get(shape, forward);
  REQUIRE_MESSAGE(l, llvm::toString(l.takeError()));
  return *l;
}

std::string errorOf(llvm::Error err) { return llvm::toString(std::move(err)); }
} // namespace

TEST_CASE("Layout: shapes, application and properties") {
  Layout lin = Layout::linear({4, 8});
  CHECK(lin.getForward()[0].str() == "8 * i + j");
  CHECK(lin.getOutputShape() == std::vector<int64_t>{32});
  CHECK(lin.isBijective());
  CHECK(*lin.applyFlat({2, 3}) == 19);
  CHECK(!lin.apply({4, 0}));

  Layout split = layoutOf({16, 8}, {"i // 8", "8 * (i % 8) + j"});
  CHECK(split.getOutputShape() == std::vector<int64_t>({2, 64}));
  CHECK(split.isBijective());
  Layout fold = layoutOf({4, 4}, {"i + j"});
  CHECK(!fold.isInjective());
  Layout padded = layoutOf({4, 4}, {"5 * i + j"});
  CHECK(padded.isInjective());
  CHECK(!padded.isBijective());

  llvm::Expected<Layout> negative =
      Layout::get({4}, {*parseIndexExpr("i - 2", {"i"})});
  REQUIRE(!negative);
  CHECK(errorOf(negative.takeError()) ==
        "layout output 'i - 2' is negative at (0)");
  llvm::Expected<Layout> rank =
      Layout::get({4}, {IndexExpr::var(1, "j")});
  REQUIRE(!rank);
  CHECK(errorOf(rank.takeError()) ==
        "layout output 'j' uses an input beyond rank 1");
}

TEST_CASE("Layout: compose, expand, invert") {
  // Transpose then linearise == column-major.
  Layout transpose = layoutOf({4, 8}, {"j", "i"});
  Layout colMajor = *transpose.compose(Layout::linear({8, 4}));
  CHECK(colMajor.getForward()[0].str() == "4 * j + i");
  CHECK(colMajor.isBijective());
  llvm::Expected<Layout> mismatch = transpose.compose(Layout::linear({4, 8}));
  REQUIRE(!mismatch);
  CHECK(errorOf(mismatch.takeError()) ==
        "cannot compose: output 0 reaches 7 but the next layout's extent is 4");

  Layout staged = Layout::linear({4, 8}).expand({3});
  CHECK(staged.getInputShape().vec() == std::vector<int64_t>({3, 4, 8}));
  CHECK(staged.getForward()[0].str() == "32 * i + 8 * j + k");
  CHECK(staged.isBijective());

  Layout sw = *makeSwizzledLayout({8, 64}, 16, SwizzleMode::B128);
  auto table = sw.invertTable();
  REQUIRE(table);
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t c = 0; c < 64; ++c) {
      int64_t off = (*sw.apply({r, c}))[0];
      CHECK((*table)[off] == std::vector<int64_t>({r, c}));
    }
  auto notBijective = layoutOf({4, 4}, {"5 * i + j"}).invertTable();
  REQUIRE(!notBijective);
  CHECK(errorOf(notBijective.takeError()) ==
        "layout is not a bijection: 16 elements map into a physical box of 19");
}

TEST_CASE("Fragment: construction, verify, repeat, replicate") {
  Fragment c = mmaInstrC();
  CHECK(c.getThreadExtent() == 32);
  CHECK(c.getRegsPerThread() == 4);
  CHECK(!c.verify(32));
  CHECK(errorOf(c.verify(16)) ==
        "element (4, 0) replica 0 is on thread 16 but the block has 16 "
        "threads");
  // Repeat on the index: two 16x8 halves side by side == the 16x16 atom.
  Fragment wide = c.repeat(1, 2, /*onThread=*/false);
  CHECK(wide.isEquivalentTo(mmaAtomC()));
  // Repeat on the thread: a second warp below.
  Fragment tall = c.repeat(0, 2, /*onThread=*/true);
  CHECK(tall.getThreadExtent() == 64);
  CHECK(tall.apply({16, 0})->thread == 32);
  // Replicate: both warps hold everything.
  Fragment rep = c.replicate(2);
  CHECK(rep.getReplicate() == 2);
  CHECK(rep.apply({1, 0}, 1)->thread == 36);
  CHECK(!rep.verify(64));
  CHECK(rep.contains(c));
  CHECK(!c.contains(rep));
  CHECK(rep.shiftThreads(128).apply({0, 0})->thread == 128);

  llvm::Expected<Fragment> clash =
      Fragment::parse({4, 4}, {"j"}, "i % 2");
  REQUIRE(clash);
  CHECK(errorOf(clash->verify(32)) ==
        "element (2, 0) replica 0 lands on thread 0 register 0, which is "
        "already taken");
  llvm::Expected<Fragment> badIndex =
      Fragment::parse({4}, {"rep"}, "i", 2);
  REQUIRE(!badIndex);
  CHECK(errorOf(badIndex.takeError()) ==
        "fragment index 'rep' may only use the logical inputs");
  llvm::Expected<Fragment> parseErr = Fragment::parse({4}, {"i"}, "i +");
  REQUIRE(!parseErr);
  CHECK(errorOf(parseErr.takeError()) == "3: expected an expression");

  auto inv = c.invertTable();
  REQUIRE(inv);
  // Thread 5, register 3 holds (g + 8, 2t + 1) with g = 1, t = 1.
  CHECK((*inv)[5 * 4 + 3] == std::vector<int64_t>({9, 3, 0}));
}

TEST_CASE("Fragment: verify of a large tile is memoized") {
  // Layout inference checks the same loop layout once per root it tries: a
  // large tile's answer (valid, or its problem) is enumerated once.
  llvm::Expected<Fragment> rows =
      Fragment::parse({9, 256}, {"i * 2 + j // 128"}, "j % 128");
  REQUIRE(rows);
  llvm::Expected<Fragment> clash =
      Fragment::parse({9, 256}, {"i"}, "j % 128");
  REQUIRE(clash);
  for (const Fragment *f : {&*rows, &*clash})
    for (int64_t threads : {128, 64}) {
      int64_t before = CompiledIndexExpr::workDone();
      std::string first = errorOf(f->verify(threads));
      int64_t work = CompiledIndexExpr::workDone() - before;
      CHECK(work > 0);
      before = CompiledIndexExpr::workDone();
      CHECK(errorOf(f->verify(threads)) == first);
      CHECK(CompiledIndexExpr::workDone() == before);
    }
  CHECK(!rows->verify(128));
  CHECK(errorOf(rows->verify(64)) ==
        "element (0, 64) replica 0 is on thread 64 but the block has 64 "
        "threads");
  CHECK(errorOf(clash->verify(128)) ==
        "element (0, 128) replica 0 lands on thread 0 register 0, which is "
        "already taken");
  // A small tile is checked again (its key would cost as much).
  Fragment small = mmaInstrC();
  int64_t before = CompiledIndexExpr::workDone();
  CHECK(!small.verify(32));
  CHECK(!small.verify(32));
  CHECK(CompiledIndexExpr::workDone() - before > 0);
}

TEST_CASE("printing: labels, formulas and hover tables") {
  CHECK(mmaInstrC().shortLabel() == "mma.C · 4 regs/thread");
  CHECK(Fragment::fullyReplicated({4}, 64).shortLabel() ==
        "replicated · 4 regs/thread · rep 64");
  std::string text;
  llvm::raw_string_ostream os(text);
  mmaInstrC().print(os);
  CHECK(text == "Fragment([16, 8] -> [4], replicate: 1, threads: 32, thread = "
                "4 * (i % 8) + j // 2, index = [2 * (i // 8) + j % 2])");
  CHECK(mmaInstrC().longForm(3, 8) ==
        "fragment [16, 8] · 32 threads · 4 regs/thread · replicate 1\n"
        "from mma.C\n"
        "thread = 4 * (i % 8) + j // 2\n"
        "index  = 2 * (i // 8) + j % 2\n"
        "T<thread>:<register> of the top-left 3×8:\n"
        "        0     1     2     3     4     5     6     7\n"
        "  0  T0:0  T0:1  T1:0  T1:1  T2:0  T2:1  T3:0  T3:1\n"
        "  1  T4:0  T4:1  T5:0  T5:1  T6:0  T6:1  T7:0  T7:1\n"
        "  2  T8:0  T8:1  T9:0  T9:1 T10:0 T10:1 T11:0 T11:1\n");
  Layout sw = *makeSwizzledLayout({16, 64}, 16, SwizzleMode::B128);
  CHECK(sw.shortLabel() == "swizzle 128B");
  CHECK(sw.longForm(2, 4) ==
        "layout [16, 64] -> [1024] · swizzle 128B · 16-bit elements\n"
        "offset = 64 * i + 8 * (j // 8 ^ i % 8) + j % 8\n"
        "physical offsets of the top-left 2×4:\n"
        "     0  1  2  3\n"
        "  0  0  1  2  3\n"
        "  1 72 73 74 75\n");
  // Two 64-column panels and two 8-row atoms.
  Layout wide = *makeSwizzledLayout({16, 128}, 16, SwizzleMode::B128);
  CHECK(wide.getForward()[0].str() ==
        "1024 * (j // 64) + 64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8");
  std::string lin;
  llvm::raw_string_ostream los(lin);
  Layout::linear({4, 8}).print(los);
  CHECK(lin == "Layout([4, 8] -> [32], linear, [i, j] -> [8 * i + j])");
  CHECK((*makePaddedLayout({8, 64}, 16, 8)).shortLabel() == "padded +8");
}

TEST_CASE("memoized enumeration gives the same answers as the first time") {
  // Each map is built twice: the second build reuses the first one's facts
  // (Memo.h), which must not change any answer, errors included.
  for (int round = 0; round < 2; ++round) {
    INFO("round " << round);
    Layout pad = layoutOf({4, 6}, {"8 * i + j"});
    CHECK(pad.getOutputShape() == std::vector<int64_t>{30});
    CHECK(pad.isInjective());
    CHECK(pad.isInjective());
    CHECK(!pad.isBijective());
    // Not injective: (0, 2) and (1, 0) share offset 2.
    Layout clash = layoutOf({3, 4}, {"2 * i + j"});
    CHECK(clash.getOutputShape() == std::vector<int64_t>{8});
    CHECK(!clash.isInjective());
    CHECK(!clash.isInjective());
    // The same outputs over another shape are another layout.
    CHECK(layoutOf({3, 2}, {"2 * i + j"}).isInjective());
    std::vector<std::string> names = inputNames(2);
    CHECK(errorOf(Layout::get({4, 4}, {*parseIndexExpr("i - 2", names)})
                      .takeError()) ==
          "layout output 'i - 2' is negative at (0, 0)");
    llvm::Expected<Fragment> f =
        Fragment::parse({4, 8}, {"j % 2"}, "4 * i + j // 2 + 32 * rep", 2);
    REQUIRE(f);
    CHECK(f->getThreadExtent() == 48); // 4 * 3 + 7 // 2 + 32 * 1 + 1
    CHECK(f->getIndexShape() == llvm::ArrayRef<int64_t>{2});
    CHECK(errorOf(Fragment::parse({4, 8}, {"j - 1"}, "i").takeError()) ==
          "invalid fragment: index 'j - 1' is negative at (0, 0)");
    // Equivalence: equal slots from different formulas, and a different
    // thread order.
    llvm::Expected<Fragment> same = Fragment::parse(
        {4, 8}, {"j - 2 * (j // 2)"}, "4 * i + j // 2 + 32 * rep", 2);
    llvm::Expected<Fragment> swapped =
        Fragment::parse({4, 8}, {"j % 2"}, "i + 4 * (j // 2) + 32 * rep", 2);
    REQUIRE(same);
    REQUIRE(swapped);
    CHECK(f->isEquivalentTo(*same));
    CHECK(same->isEquivalentTo(*f));
    CHECK(!f->isEquivalentTo(*swapped));
  }
}
