//===- LayoutInferenceTest.cpp - Layout inference on the examples ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs inferKernelLayouts on the Tile IR of every example for every target
// family and checks the results by enumeration, with oracles independent of
// the layout library:
//  * every fragment (buffer or loop) holds each element on exactly
//    `replicate` distinct threads below the block size, and no two element
//    replicas share a (thread, register) slot;
//  * every shared layout is injective on the tile, and a bijection onto
//    [0, elements) unless it is padded;
//  * every thread that runs an iteration of a `tile.parallel` loop holds the
//    fragment elements that iteration reads or writes; the indices are
//    computed by a small interpreter of the loop body's arith ops, not by
//    the solver's translation to index expressions.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Driver/Driver.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <set>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using layout::Fragment;
using layout::Layout;

namespace {

/// An example's analysis, kept alive with the driver that owns its context.
struct Analysed {
  std::unique_ptr<driver::Driver> driver;
  driver::FileResult result;
  ModuleOp module() { return result.analysis.module.get(); }
};

Analysed analyseExample(llvm::StringRef file, llvm::StringRef target) {
  driver::DriverOptions options;
  options.action = driver::Action::EmitTile;
  std::optional<eval::TargetInfo> info = eval::TargetInfo::parse(target);
  REQUIRE(info);
  options.eval.target = *info;
  Analysed a;
  a.driver = std::make_unique<driver::Driver>(options);
  auto text = llvm::MemoryBuffer::getFile(file);
  REQUIRE(text);
  a.result = a.driver->analyze(file, (*text)->getBuffer());
  return a;
}

std::vector<std::string> exampleFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(TLC_EXAMPLES_DIR, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".py")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Independent coverage check of a fragment.
void checkFragment(const Fragment &f, int64_t blockThreads,
                   const std::string &what) {
  INFO(what << ": " << f.shortLabel());
  int64_t regs = f.getRegsPerThread();
  std::vector<bool> used(blockThreads * regs, false);
  bool ok = true;
  std::vector<int64_t> holders;
  layout::forEachCoord(f.getInputShape(), [&](llvm::ArrayRef<int64_t> c) {
    holders.clear();
    for (int64_t r = 0; r < f.getReplicate(); ++r) {
      std::optional<layout::FragmentSlot> s = f.apply(c, r);
      if (!s || s->thread < 0 || s->thread >= blockThreads || s->index < 0 ||
          s->index >= regs || used[s->thread * regs + s->index]) {
        ok = false;
        continue;
      }
      used[s->thread * regs + s->index] = true;
      holders.push_back(s->thread);
    }
    std::sort(holders.begin(), holders.end());
    if (std::unique(holders.begin(), holders.end()) != holders.end() ||
        (int64_t)holders.size() != f.getReplicate())
      ok = false;
  });
  CHECK_MESSAGE(ok, what << " is not a valid fragment for " << blockThreads
                         << " threads");
}

/// Independent injectivity / bijection check of a shared layout.
void checkShared(const Layout &l, const std::string &what) {
  INFO(what << ": " << l.shortLabel());
  std::vector<int64_t> box = l.getOutputShape();
  std::set<int64_t> seen;
  bool injective = true;
  int64_t most = -1;
  layout::forEachCoord(l.getInputShape(), [&](llvm::ArrayRef<int64_t> c) {
    std::optional<std::vector<int64_t>> out = l.apply(c);
    int64_t off = 0;
    if (out)
      for (auto [x, extent] : llvm::zip(*out, box))
        off = (x < 0 || x >= extent) ? -1 : (off < 0 ? -1 : off * extent + x);
    if (!out || off < 0 || !seen.insert(off).second)
      injective = false;
    else
      most = std::max(most, off);
  });
  CHECK_MESSAGE(injective, what << " is not injective");
  if (l.getKind() != layout::LayoutKind::Padded)
    CHECK_MESSAGE(most + 1 == layout::numElements(l.getInputShape()),
                  what << " is not a bijection onto its elements");
}

/// Interprets the index arithmetic of a loop body at one iteration point.
std::optional<int64_t> evalIndex(Value v,
                                 const llvm::DenseMap<Value, int64_t> &vars) {
  if (auto it = vars.find(v); it != vars.end())
    return it->second;
  APInt cst;
  if (matchPattern(v, m_ConstantInt(&cst)))
    return cst.getSExtValue();
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<int64_t> a = evalIndex(def->getOperand(0), vars);
  std::optional<int64_t> b = evalIndex(def->getOperand(1), vars);
  if (!a || !b)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return *a + *b;
  if (isa<arith::SubIOp>(def))
    return *a - *b;
  if (isa<arith::MulIOp>(def))
    return *a * *b;
  if (isa<arith::DivSIOp, arith::FloorDivSIOp, arith::DivUIOp>(def) && *b > 0)
    return *a >= 0 ? *a / *b : -((-*a + *b - 1) / *b);
  if (isa<arith::RemSIOp, arith::RemUIOp>(def) && *b > 0)
    return ((*a % *b) + *b) % *b;
  if (isa<arith::XOrIOp>(def))
    return *a ^ *b;
  return std::nullopt;
}

/// For every element of \p f (row-major), which threads hold it.
std::vector<std::vector<bool>> holderTable(const Fragment &f,
                                           int64_t blockThreads) {
  std::vector<std::vector<bool>> table;
  layout::forEachCoord(f.getInputShape(), [&](llvm::ArrayRef<int64_t> c) {
    std::vector<bool> holders(blockThreads, false);
    for (int64_t r = 0; r < f.getReplicate(); ++r)
      if (std::optional<layout::FragmentSlot> s = f.apply(c, r))
        if (s->thread >= 0 && s->thread < blockThreads)
          holders[s->thread] = true;
    table.push_back(std::move(holders));
  });
  return table;
}

/// Checks that every thread running an iteration holds what it accesses.
void checkLoop(ParallelOp loop, const Fragment &loopLayout,
               const KernelLayouts &layouts) {
  Block &body = loop.getBody().front();
  struct Use {
    Value buffer;
    ValueRange indices;
  };
  std::vector<Use> uses;
  llvm::DenseMap<Value, std::vector<std::vector<bool>>> tables;
  body.walk([&](Operation *op) {
    Value buffer;
    ValueRange indices;
    if (auto load = dyn_cast<LoadOp>(op))
      buffer = load.getBuffer(), indices = load.getIndices();
    else if (auto store = dyn_cast<StoreOp>(op))
      buffer = store.getBuffer(), indices = store.getIndices();
    auto it = layouts.fragments.find(buffer);
    if (!buffer || it == layouts.fragments.end())
      return;
    uses.push_back({buffer, indices});
    if (!tables.count(buffer))
      tables[buffer] = holderTable(it->second, layouts.blockThreads);
  });
  int64_t missing = 0, checked = 0;
  layout::forEachCoord(loopLayout.getInputShape(),
                       [&](llvm::ArrayRef<int64_t> point) {
    llvm::DenseMap<Value, int64_t> vars;
    for (auto [arg, x] : llvm::zip(body.getArguments(), point))
      vars[arg] = x;
    for (const Use &u : uses) {
      llvm::ArrayRef<int64_t> shape =
          getBufferType(u.buffer).getShape();
      int64_t flat = 0;
      bool inside = true;
      for (auto [v, extent] : llvm::zip(u.indices, shape)) {
        std::optional<int64_t> x = evalIndex(v, vars);
        if (!x || *x < 0 || *x >= extent)
          inside = false;
        else
          flat = flat * extent + *x;
      }
      if (!inside)
        continue;
      const std::vector<bool> &holders = tables[u.buffer][flat];
      for (int64_t r = 0; r < loopLayout.getReplicate(); ++r) {
        ++checked;
        int64_t t = loopLayout.apply(point, r)->thread;
        if (t < 0 || t >= (int64_t)holders.size() || !holders[t])
          ++missing;
      }
    }
  });
  CHECK_MESSAGE(missing == 0, missing << " of " << checked
                                      << " loop accesses run on a thread "
                                         "that does not hold the element");
}

/// Counts of checked layouts, so that a run cannot pass vacuously.
struct Counts {
  int64_t fragments = 0, shared = 0, loops = 0;
};

/// Infers the layouts of every kernel of \p module for \p target and
/// checks them.
void checkModule(ModuleOp module, llvm::StringRef target, Counts &counts) {
  module.walk([&](KernelOp kernel) {
    std::string diagnostics;
    FailureOr<KernelLayouts> layouts = failure();
    {
      ScopedDiagnosticHandler handler(
          kernel->getContext(), [&](mlir::Diagnostic &diag) {
            diagnostics += diag.str() + "\n";
            return success();
          });
      layouts = inferKernelLayouts(kernel, *parseLayoutTarget(target));
    }
    CHECK_MESSAGE(succeeded(layouts), diagnostics);
    if (failed(layouts))
      return;
    // Every static fragment and shared allocation has a layout.
    kernel.walk([&](AllocOp alloc) {
      BufferType type = getBufferType(alloc.getResult());
      if (!type.isStatic() || !layouts->blockThreads)
        return;
      if (type.getScope() == MemoryScope::Fragment)
        CHECK(layouts->fragments.count(alloc.getResult()));
      if (type.getScope() == MemoryScope::Shared ||
          type.getScope() == MemoryScope::SharedDyn)
        CHECK(layouts->shared.count(alloc.getResult()));
    });
    for (auto &[value, f] : layouts->fragments) {
      checkFragment(f, layouts->blockThreads, bufferDisplayName(value));
      ++counts.fragments;
    }
    for (auto &[value, l] : layouts->shared) {
      checkShared(l, bufferDisplayName(value));
      ++counts.shared;
    }
    for (auto &[op, f] : layouts->loops) {
      checkFragment(f, layouts->blockThreads, "loop");
      checkLoop(cast<ParallelOp>(op), f, *layouts);
      ++counts.loops;
    }
  });
}

} // namespace

TEST_CASE("property: layouts inferred for every example are valid") {
  Counts counts;
  for (const std::string &file : exampleFiles())
    for (llvm::StringRef target : {"cuda:sm_80", "cuda:sm_90a", "hip:gfx90a"}) {
      INFO(file << " on " << target.str());
      Analysed a = analyseExample(file, target);
      if (ModuleOp module = a.module())
        checkModule(module, target, counts);
    }
  // The examples exercise the solver: no vacuous pass.
  CHECK(counts.fragments > 50);
  CHECK(counts.shared > 30);
  CHECK(counts.loops > 30);
  MESSAGE("checked " << counts.fragments << " fragments, " << counts.shared
                     << " shared layouts, " << counts.loops << " loops");
}

TEST_CASE("property: layouts of Tile IR files in $TLC_TILE_IR_DIR are valid") {
  const char *dir = std::getenv("TLC_TILE_IR_DIR");
  if (!dir)
    return;
  MLIRContext context;
  eval::loadEvalDialects(context);
  Counts counts;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::extension(it->path()) != ".mlir")
      continue;
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(it->path(), &context);
    if (!module)
      continue;
    for (llvm::StringRef target : {"sm_80", "sm_90a", "gfx90a"}) {
      INFO(it->path() << " on " << target.str());
      checkModule(*module, target, counts);
    }
  }
  MESSAGE("checked " << counts.fragments << " fragments, " << counts.shared
                     << " shared layouts, " << counts.loops << " loops");
}
