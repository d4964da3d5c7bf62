//===- Fragment.cpp - Distribution of a tile over thread registers --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/Fragment.h"
#include "Memo.h"
#include "tlc/Layout/EnumerationLimit.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The structural key of a fragment's enumeration facts (Memo.h).
static std::string memoKey(llvm::ArrayRef<int64_t> shape, int64_t replicas,
                           llvm::ArrayRef<IndexExpr> index,
                           const IndexExpr &thread) {
  std::string key;
  appendMemoKey(key, shape);
  key += std::to_string(replicas);
  for (const IndexExpr &e : index)
    appendMemoKey(key, e);
  key += '|';
  appendMemoKey(key, thread);
  return key;
}

static std::string coordString(llvm::ArrayRef<int64_t> coord) {
  std::string s = "(";
  for (auto [n, c] : llvm::enumerate(coord))
    s += (n ? ", " : "") + std::to_string(c);
  return s + ")";
}

llvm::Expected<Fragment> Fragment::get(std::vector<int64_t> inputShape,
                                       std::vector<IndexExpr> forwardIndex,
                                       IndexExpr forwardThread,
                                       int64_t replicate,
                                       FragmentOrigin origin) {
  if (replicate < 1)
    return makeError("fragment replication must be >= 1, got " +
                     llvm::Twine(replicate));
  for (int64_t e : inputShape)
    if (e <= 0)
      return makeError("fragment extents must be positive, got " +
                       llvm::Twine(e));
  if (!forwardThread)
    return makeError("fragment thread expression is null");
  unsigned rank = inputShape.size();
  VarRanges ranges = rangesFor(inputShape, replicate);
  for (IndexExpr &e : forwardIndex) {
    if (!e)
      return makeError("fragment index expression is null");
    for (unsigned id : e.collectVars())
      if (id >= rank)
        return makeError("fragment index '" + e.str() +
                         "' may only use the logical inputs");
    e = simplify(e, ranges);
  }
  for (unsigned id : forwardThread.collectVars())
    if (id > rank)
      return makeError("fragment thread '" + forwardThread.str() +
                       "' uses an input beyond rank " + llvm::Twine(rank));
  forwardThread = simplify(forwardThread, ranges);

  Fragment f;
  f.inputShape = std::move(inputShape);
  f.forwardIndex = std::move(forwardIndex);
  f.forwardThread = std::move(forwardThread);
  f.replicas = replicate;
  f.origin = std::move(origin);
  f.indexShape.assign(f.forwardIndex.size(), 0);
  f.compile();

  // The enumeration below depends only on the shape, the replication and
  // the expressions: reuse its facts when the same fragment was built before.
  std::string key = memoKey(f.inputShape, replicate, f.forwardIndex,
                            f.forwardThread);
  if (std::shared_ptr<const FragmentMemo> memo = lookupFragmentMemo(key)) {
    if (!memo->error.empty())
      return makeError(memo->error);
    f.indexShape = memo->indexShape;
    f.threadExtent = memo->threadExtent;
    return f;
  }

  std::string problem;
  std::vector<int64_t> point(rank + 1, 0);
  forEachCoord(f.inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    if (!problem.empty())
      return;
    llvm::copy(coord, point.begin());
    for (auto [d, e] : llvm::enumerate(f.forwardIndex)) {
      std::optional<int64_t> v = f.compiledIndex[d].evaluate(point);
      if (!v || *v < 0) {
        problem = "index '" + e.str() + "' is " +
                  (v ? "negative" : "undefined") + " at " + coordString(coord);
        return;
      }
      f.indexShape[d] = std::max(f.indexShape[d], *v + 1);
    }
    for (int64_t r = 0; r < f.replicas; ++r) {
      point[rank] = r;
      std::optional<int64_t> t = f.compiledThread.evaluate(point);
      if (!t || *t < 0) {
        problem = "thread '" + f.forwardThread.str() + "' is " +
                  (t ? "negative" : "undefined") + " at " +
                  coordString(coord) + ", rep " + std::to_string(r);
        return;
      }
      f.threadExtent = std::max(f.threadExtent, *t + 1);
    }
  });
  auto memo = std::make_shared<FragmentMemo>();
  if (!problem.empty())
    memo->error = "invalid fragment: " + problem;
  memo->indexShape = f.indexShape;
  memo->threadExtent = f.threadExtent;
  recordFragmentMemo(std::move(key), memo);
  if (!memo->error.empty())
    return makeError(memo->error);
  return f;
}

llvm::Expected<Fragment>
Fragment::parse(std::vector<int64_t> inputShape,
                llvm::ArrayRef<std::string> forwardIndex,
                llvm::StringRef forwardThread, int64_t replicate,
                FragmentOrigin origin) {
  std::vector<std::string> names = inputNames(inputShape.size(), true);
  std::vector<IndexExpr> index;
  for (const std::string &text : forwardIndex) {
    llvm::Expected<IndexExpr> e = parseIndexExpr(text, names);
    if (!e)
      return e.takeError();
    index.push_back(*e);
  }
  llvm::Expected<IndexExpr> thread = parseIndexExpr(forwardThread, names);
  if (!thread)
    return thread.takeError();
  return get(std::move(inputShape), std::move(index), *thread, replicate,
             std::move(origin));
}

Fragment Fragment::fullyReplicated(llvm::ArrayRef<int64_t> shape,
                                   int64_t threads) {
  unsigned rank = shape.size();
  llvm::Expected<Fragment> f =
      get(shape.vec(), Layout::linear(shape).getForward().vec(),
          IndexExpr::var(rank, "rep"), threads, {"replicated"});
  // Valid for positive extents and thread counts only (see Layout::linear).
  assert(f && "replicated fragment of an empty shape or no threads");
  return std::move(*f);
}

void Fragment::compile() {
  compiledIndex.clear();
  for (const IndexExpr &e : forwardIndex)
    compiledIndex.emplace_back(e);
  compiledThread = CompiledIndexExpr(forwardThread);
}

std::optional<FragmentSlot> Fragment::apply(llvm::ArrayRef<int64_t> coord,
                                            int64_t rep) const {
  if (coord.size() != inputShape.size() || rep < 0 || rep >= replicas)
    return std::nullopt;
  for (auto [c, e] : llvm::zip(coord, inputShape))
    if (c < 0 || c >= e)
      return std::nullopt;
  llvm::SmallVector<int64_t, 8> point(coord.begin(), coord.end());
  point.push_back(rep);
  int64_t flat = 0;
  for (auto [d, e] : llvm::enumerate(compiledIndex))
    flat = flat * indexShape[d] + *e.evaluate(point);
  return FragmentSlot{*compiledThread.evaluate(point), flat};
}

FragmentSlot Fragment::slotAt(llvm::ArrayRef<int64_t> point) const {
  int64_t flat = 0;
  for (auto [d, e] : llvm::enumerate(compiledIndex))
    flat = flat * indexShape[d] + *e.evaluate(point);
  return FragmentSlot{*compiledThread.evaluate(point), flat};
}

llvm::Error Fragment::verify(int64_t blockThreads) const {
  // Layout inference checks the same loop layouts again for every root it
  // tries (LayoutFreeLevel.cpp): a large tile's answer is memoized.
  int64_t placements = replicas;
  for (int64_t e : inputShape)
    if (llvm::MulOverflow(placements, e, placements))
      placements = std::numeric_limits<int64_t>::max();
  std::string key;
  if (placements >= kMinVerifyMemoPlacements) {
    // getWithExtents may give extents of its own: they are in the key.
    key = memoKey(inputShape, replicas, forwardIndex, forwardThread);
    appendMemoKey(key, indexShape);
    key += std::to_string(threadExtent) + '#' + std::to_string(blockThreads);
    if (std::optional<std::string> problem = lookupVerifyMemo(key)) {
      if (!problem->empty())
        return makeError(*problem);
      return llvm::Error::success();
    }
  }
  int64_t regs = getRegsPerThread();
  std::vector<bool> slots(std::min(threadExtent, blockThreads) * regs, false);
  std::string problem;
  forEachCoord(inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    if (!problem.empty())
      return;
    for (int64_t r = 0; r < replicas; ++r) {
      FragmentSlot s = *apply(coord, r);
      if (s.thread >= blockThreads) {
        problem = "element " + coordString(coord) + " replica " +
                  std::to_string(r) + " is on thread " +
                  std::to_string(s.thread) + " but the block has " +
                  std::to_string(blockThreads) + " threads";
        return;
      }
      std::vector<bool>::reference used = slots[s.thread * regs + s.index];
      if (used) {
        problem = "element " + coordString(coord) + " replica " +
                  std::to_string(r) + " lands on thread " +
                  std::to_string(s.thread) + " register " +
                  std::to_string(s.index) + ", which is already taken";
        return;
      }
      used = true;
    }
  });
  if (!key.empty())
    recordVerifyMemo(std::move(key), problem);
  if (!problem.empty())
    return makeError(problem);
  return llvm::Error::success();
}

Fragment Fragment::getWithExtents(std::vector<int64_t> inputShape,
                                  std::vector<IndexExpr> forwardIndex,
                                  IndexExpr forwardThread, int64_t replicate,
                                  FragmentOrigin origin,
                                  std::vector<int64_t> indexShape,
                                  int64_t threadExtent) {
  VarRanges ranges = rangesFor(inputShape, replicate);
  Fragment f;
  for (IndexExpr &e : forwardIndex)
    e = simplify(e, ranges);
  f.forwardThread = simplify(forwardThread, ranges);
  f.inputShape = std::move(inputShape);
  f.forwardIndex = std::move(forwardIndex);
  f.replicas = replicate;
  f.origin = std::move(origin);
  f.indexShape = std::move(indexShape);
  f.threadExtent = threadExtent;
  f.compile();
  return f;
}

Fragment Fragment::repeat(unsigned dim, int64_t factor, bool onThread) const {
  assert(dim < inputShape.size() && factor >= 1);
  unsigned rank = inputShape.size();
  int64_t extent = inputShape[dim];
  IndexExpr x = IndexExpr::var(dim, inputName(dim));
  std::vector<IndexExpr> repl(rank + 1);
  repl[dim] = floorMod(x, extent);
  IndexExpr tile = floorDiv(x, extent);
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : forwardIndex)
    index.push_back(substitute(e, repl));
  IndexExpr thread = substitute(forwardThread, repl);
  std::vector<int64_t> newIndexShape = indexShape;
  int64_t newThreadExtent = threadExtent;
  if (onThread) {
    thread = thread + tile * threadExtent;
    newThreadExtent *= factor;
  } else if (!index.empty()) {
    index[0] = index[0] + tile * indexShape[0];
    newIndexShape[0] *= factor;
  }
  std::vector<int64_t> shape = inputShape;
  shape[dim] *= factor;
  return getWithExtents(shape, index, thread, replicas, origin, newIndexShape,
                        newThreadExtent);
}

Fragment Fragment::replicate(int64_t factor) const {
  assert(factor >= 1);
  unsigned rank = inputShape.size();
  IndexExpr rep = IndexExpr::var(rank, "rep");
  std::vector<IndexExpr> repl(rank + 1);
  repl[rank] = floorMod(rep, replicas);
  IndexExpr thread = substitute(forwardThread, repl) +
                     floorDiv(rep, replicas) * threadExtent;
  return getWithExtents(inputShape, forwardIndex, thread, replicas * factor,
                        origin, indexShape, threadExtent * factor);
}

Fragment Fragment::shiftThreads(int64_t offset) const {
  assert(offset >= 0);
  return getWithExtents(inputShape, forwardIndex, forwardThread + offset,
                        replicas, origin, indexShape, threadExtent + offset);
}

Fragment Fragment::permuteInputs(llvm::ArrayRef<unsigned> perm) const {
  unsigned rank = inputShape.size();
  assert(perm.size() == rank && "permutation of the wrong rank");
  // Old input perm[d] is new input d.
  std::vector<IndexExpr> repl(rank + 1);
  std::vector<int64_t> shape(rank);
  for (unsigned d = 0; d < rank; ++d) {
    repl[perm[d]] = IndexExpr::var(d, inputName(d));
    shape[d] = inputShape[perm[d]];
  }
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : forwardIndex)
    index.push_back(substitute(e, repl));
  return getWithExtents(shape, index, substitute(forwardThread, repl),
                        replicas, origin, indexShape, threadExtent);
}

llvm::Expected<std::vector<std::vector<int64_t>>>
Fragment::invertTable() const {
  int64_t regs = getRegsPerThread();
  // Bounded: a fragment every thread holds whole (57,472 registers on each
  // of 256 threads, one mistyped block size) is not tabulated.
  int64_t slots = 0, placed = 0;
  if (llvm::MulOverflow(threadExtent, regs, slots) ||
      llvm::MulOverflow(numElementsSaturated(inputShape), replicas, placed) ||
      std::max(slots, placed) > kMaxEnumeratedInputs)
    return makeError("fragment puts " + llvm::Twine(regs) +
                     " registers on each of " + llvm::Twine(threadExtent) +
                     " threads, more (thread, register) slots than the " +
                     llvm::Twine(kMaxEnumeratedInputs) +
                     " a table is built for");
  std::vector<std::vector<int64_t>> table(slots);
  std::string problem;
  forEachCoord(inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    for (int64_t r = 0; r < replicas; ++r) {
      FragmentSlot s = *apply(coord, r);
      std::vector<int64_t> &entry = table[s.thread * regs + s.index];
      if (!entry.empty() && problem.empty())
        problem = "thread " + std::to_string(s.thread) + " register " +
                  std::to_string(s.index) + " holds two elements";
      entry.assign(coord.begin(), coord.end());
      entry.push_back(r);
    }
  });
  if (!problem.empty())
    return makeError("fragment is not invertible: " + problem);
  return table;
}

bool Fragment::isEquivalentTo(const Fragment &other) const {
  if (inputShape != other.inputShape || replicas != other.replicas)
    return false;
  // Structurally equal formulas (simplified the same way on construction)
  // map every element alike; only different formulas need the enumeration.
  if (forwardThread == other.forwardThread &&
      forwardIndex == other.forwardIndex)
    return true;
  // The answer depends only on the shape, the replication, the two formula
  // sets and the register extents that flatten the index.
  std::string key;
  appendMemoKey(key, inputShape);
  key += std::to_string(replicas);
  for (const Fragment *f : {this, &other}) {
    key += '|';
    appendMemoKey(key, f->indexShape);
    for (const IndexExpr &e : f->forwardIndex)
      appendMemoKey(key, e);
    key += '@';
    appendMemoKey(key, f->forwardThread);
  }
  if (std::optional<bool> known = lookupEquivalenceMemo(key))
    return *known;
  unsigned rank = inputShape.size();
  std::vector<int64_t> point(rank + 1, 0);
  bool same = true;
  forEachCoord(inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    if (!same)
      return;
    llvm::copy(coord, point.begin());
    for (int64_t r = 0; r < replicas && same; ++r) {
      point[rank] = r;
      FragmentSlot a = slotAt(point), b = other.slotAt(point);
      same = a.thread == b.thread && a.index == b.index;
    }
  });
  recordEquivalenceMemo(std::move(key), same);
  return same;
}

bool Fragment::contains(const Fragment &other) const {
  if (inputShape != other.inputShape)
    return false;
  bool ok = true;
  forEachCoord(inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    if (!ok)
      return;
    llvm::SmallDenseSet<int64_t, 8> holders;
    for (int64_t r = 0; r < replicas; ++r)
      holders.insert(apply(coord, r)->thread);
    for (int64_t r = 0; r < other.replicas && ok; ++r)
      ok = holders.contains(other.apply(coord, r)->thread);
  });
  return ok;
}

std::string Fragment::structuralKey() const {
  std::string key;
  appendMemoKey(key, inputShape);
  key += std::to_string(replicas);
  key += '|';
  appendMemoKey(key, indexShape);
  key += std::to_string(threadExtent);
  for (const IndexExpr &e : forwardIndex)
    appendMemoKey(key, e);
  key += '@';
  appendMemoKey(key, forwardThread);
  return key;
}
