//===- CppEmitterPrivateLocals.cpp - Per-thread locals of fragment loops --===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A T.Parallel that touches a fragment spread over the threads and stores
// into a T.alloc_local / T.alloc_var buffer. The GPU targets deal its
// iterations out by the fragment's layout (tile-plan-parallel-loops'
// Fragment partition): iteration x runs on the thread holding the element
// the partitioning access touches, each thread runs its iterations in
// register order, and every thread has its own copy of the local buffer.
// A later loop partitioned the same way reads, at iteration x, the copy of
// x's thread: what that thread's last iteration stored.
//
// The CPU target runs block code as one executor, so by default such a
// loop is one sequential loop over a single copy (every thread would see
// the value of the last iteration). Here the buffer gets one copy per
// thread (as in kernels with per-thread code) and each such loop runs its
// iterations from a table, in each thread's register order, with `tlc_t`
// the owning thread, so every access to the buffer reads and writes the
// GPU's copy. The owners come from layout inference with the layouts of
// CppEmitOptions::layoutsOf (tlc-build --layouts-of; sm_80's by default):
// the CPU target has no instruction set of its own, and a fragment that a
// gemm lays out differently on sm_90a (wgmma) or gfx942 (MFMA) has other
// owners there, so TileLang's answer depends on the target. When another
// layout family gives another table, the kernel records which one it
// followed (CppKernel::layoutsOf, the manifest's `layouts_of`), and
// tlc-run --verify refuses it as the reference of another family's
// artifact.
//
// Only loops of this shape pay for it; other loops are unchanged. Where
// the buffer is used in other ways (views, tile operations, block code of
// a kernel without per-thread code), or the layout is replicated or
// unknown, the loop stays sequential and building for the CPU target warns
// at the store.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"

#include "mlir/IR/Diagnostics.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

/// The T.alloc_local / T.alloc_var allocation \p buffer is, or null.
static tile::AllocOp perThreadAlloc(Value buffer) {
  auto a = buffer.getDefiningOp<tile::AllocOp>();
  if (!a)
    return {};
  auto scope = cast<tile::BufferType>(a.getType()).getScope();
  return scope == tile::MemoryScope::Local ||
                 scope == tile::MemoryScope::LocalVar
             ? a
             : tile::AllocOp();
}

/// The (flat iteration, owning thread) pairs of \p loop in each thread's
/// register order, or a reason why there is none.
static std::string ownerTable(tile::ParallelOp loop,
                              const tile::ParallelPlan &plan,
                              const tile::KernelLayouts &layouts,
                              std::vector<std::pair<int64_t, int64_t>> &table) {
  SmallVector<int64_t> extents;
  for (OpFoldResult e : loop.getMixedExtents()) {
    std::optional<int64_t> c = getConstantIntValue(e);
    if (!c)
      return "its extents are known only at run time";
    extents.push_back(*c);
  }
  Value buffer = isa<tile::LoadOp>(plan.access)
                     ? cast<tile::LoadOp>(plan.access).getBuffer()
                     : cast<tile::StoreOp>(plan.access).getBuffer();
  auto it = layouts.fragments.find(buffer);
  if (it == layouts.fragments.end())
    return "the fragment's layout is not known";
  const layout::Fragment &frag = it->second;
  if (frag.getReplicate() != 1)
    return "the fragment is replicated over threads";
  int64_t count = 1;
  for (int64_t e : extents)
    count *= e;
  if (count > (int64_t(1) << 20))
    return "it has more than 2^20 iterations";
  if (plan.dims.size() != extents.size())
    return "the loop does not map onto the fragment";
  struct Entry {
    int64_t thread, reg, flat;
  };
  std::vector<Entry> entries;
  entries.reserve(count);
  SmallVector<int64_t> iv(extents.size(), 0), coord(frag.getInputRank(), 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rest = flat;
    for (size_t d = extents.size(); d-- > 0;) {
      iv[d] = rest % extents[d];
      rest /= extents[d];
    }
    std::fill(coord.begin(), coord.end(), 0);
    for (auto [v, dim] : llvm::enumerate(plan.dims))
      if (dim < coord.size())
        coord[dim] = iv[v];
    std::optional<layout::FragmentSlot> slot = frag.apply(coord);
    if (!slot)
      return "an iteration lies outside the fragment";
    entries.push_back({slot->thread, slot->index, flat});
  }
  std::stable_sort(
      entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.thread, a.reg) < std::tie(b.thread, b.reg);
      });
  table.clear();
  for (const Entry &e : entries)
    table.push_back({e.flat, e.thread});
  return "";
}

void Emitter::planPrivateLocals(tile::KernelOp kernel) {
  privateLoops.clear();
  privateLocals.clear();
  privateThreads = 0;
  // The loops partitioned by a fragment that store into a per-thread
  // buffer, and those buffers (with the first such store).
  llvm::MapVector<Operation *, std::pair<tile::StoreOp, tile::ParallelOp>>
      roots;
  kernel.walk([&](tile::ParallelOp loop) {
    bool storesLocal = false;
    loop.getBody().walk([&](tile::StoreOp s) {
      storesLocal |= s->getParentOfType<tile::ParallelOp>() == loop &&
                     perThreadAlloc(s.getBuffer());
    });
    if (!storesLocal || tile::chooseParallelPlan(loop).partition !=
                            tile::ParallelPartition::Fragment)
      return;
    loop.getBody().walk([&](tile::StoreOp s) {
      if (s->getParentOfType<tile::ParallelOp>() != loop)
        return;
      if (tile::AllocOp a = perThreadAlloc(s.getBuffer()))
        roots.insert({a.getOperation(), {s, loop}});
    });
  });
  if (roots.empty())
    return;
  usedNames.insert("tlc_t");
  std::string layoutsName =
      options.layoutsOf.empty() ? std::string("cuda:sm_80") : options.layoutsOf;
  tile::LayoutTarget layoutTarget =
      tile::parseLayoutTarget(layoutsName).value_or(tile::LayoutTarget{});
  FailureOr<tile::KernelLayouts> layouts = failure();
  {
    // Layout conflicts are the GPU targets' errors, not this one's.
    ScopedDiagnosticHandler quiet(kernel->getContext(),
                                  [](Diagnostic &) { return success(); });
    layouts = tile::inferKernelLayouts(kernel, layoutTarget);
  }
  bool perThreadCode = hasPerThreadCode(kernel);
  // Tables of the loops tried so far ("" reason: privatisable).
  llvm::DenseMap<Operation *, std::string> loopReason;
  llvm::DenseMap<Operation *, std::vector<std::pair<int64_t, int64_t>>> tables;
  auto tryLoop = [&](tile::ParallelOp loop) -> std::string {
    auto known = loopReason.find(loop);
    if (known != loopReason.end())
      return known->second;
    std::string reason;
    tile::ParallelPlan plan = tile::chooseParallelPlan(loop);
    if (failed(layouts))
      reason = "the kernel's layouts are not known";
    else if (plan.partition != tile::ParallelPartition::Fragment)
      reason = "a loop not dealt out by a fragment uses it";
    else if (loop.getBody()
                 .walk([](tile::IntrinsicOp i) {
                   return i.getCallee() == "T.sync_grid"
                              ? WalkResult::interrupt()
                              : WalkResult::advance();
                 })
                 .wasInterrupted())
      reason = "the loop holds a grid barrier";
    else
      reason = ownerTable(loop, plan, *layouts, tables[loop]);
    loopReason[loop] = reason;
    return reason;
  };
  for (auto &[rootOp, first] : roots) {
    auto root = cast<tile::AllocOp>(rootOp);
    std::string reason;
    SmallVector<tile::ParallelOp> loops;
    for (Operation *user : root.getResult().getUsers()) {
      auto loop = user->getParentOfType<tile::ParallelOp>();
      bool access = isa<tile::LoadOp, tile::StoreOp>(user);
      if (perThreadCode) {
        // Per-thread code already has a copy per thread; only the loops
        // dealt out by a fragment need their owners.
        if (!access || !loop ||
            tile::chooseParallelPlan(loop).partition !=
                tile::ParallelPartition::Fragment)
          continue;
      } else if (!access || !loop) {
        reason = "it is used outside a T.Parallel";
        break;
      }
      reason = tryLoop(loop);
      if (!reason.empty())
        break;
      loops.push_back(loop);
    }
    if (reason.empty()) {
      privateLocals.insert(root.getResult());
      for (tile::ParallelOp l : loops)
        privateLoops[l] = tables[l];
      privateThreads = layouts->blockThreads;
      continue;
    }
    InFlightDiagnostic w =
        first.first.emitWarning()
        << "this T.Parallel stores into the "
        << (cast<tile::BufferType>(root.getType()).getScope() ==
                    tile::MemoryScope::LocalVar
                ? "T.alloc_var"
                : "T.alloc_local")
        << " buffer '" << tile::bufferDisplayName(root.getResult())
        << "' and touches a fragment spread over the threads: the CPU "
           "target runs it as one loop over a single copy of the buffer ("
        << reason
        << "), where the GPU targets give each thread its own copy; results "
           "may differ from theirs";
    w.attachNote(first.second.getLoc()) << "the loop";
  }
  if (privateLoops.empty() || !result.layoutsOf.empty())
    return;
  // Does another layout family deal these loops out otherwise?
  for (StringRef other : {"sm_80", "sm_90a", "gfx942", "sm_100a"}) {
    tile::LayoutTarget t = *tile::parseLayoutTarget(other);
    if (t.arch == layoutTarget.arch &&
        t.tensorMemory == layoutTarget.tensorMemory)
      continue;
    FailureOr<tile::KernelLayouts> alt = failure();
    {
      ScopedDiagnosticHandler quiet(kernel->getContext(),
                                    [](Diagnostic &) { return success(); });
      alt = tile::inferKernelLayouts(kernel, t);
    }
    bool same = succeeded(alt) && alt->blockThreads == privateThreads;
    for (auto &[loop, table] : privateLoops) {
      if (!same)
        break;
      auto l = cast<tile::ParallelOp>(loop);
      std::vector<std::pair<int64_t, int64_t>> altTable;
      same = ownerTable(l, tile::chooseParallelPlan(l), *alt, altTable)
                 .empty() &&
             altTable == table;
    }
    if (!same) {
      result.layoutsOf = layoutsName;
      return;
    }
  }
}

LogicalResult
Emitter::emitPrivateParallel(tile::ParallelOp op,
                             ArrayRef<std::pair<int64_t, int64_t>> table) {
  comment(op, "T.Parallel dealt out by a fragment's layout and storing into "
              "per-thread buffers: each iteration on its thread (tlc_t), "
              "each thread's in register order, over that thread's copies");
  std::string tab = fresh("owners");
  line("static const int32_t " + tab + "[] = {");
  std::string row;
  for (size_t k = 0; k < table.size(); ++k) {
    row += std::to_string(table[k].first) + ", " +
           std::to_string(table[k].second) + ", ";
    if (k % 16 == 15 || k + 1 == table.size()) {
      row.pop_back();
      line("    " + row);
      row.clear();
    }
  }
  line("};");
  std::string k = fresh("k");
  open("for (int64_t " + k + " = 0; " + k + " < " +
       std::to_string(table.size()) + "; ++" + k + ")");
  line("const int64_t tlc_t = " + tab + "[2 * " + k + " + 1];");
  std::string flat = fresh("flat");
  line("const int64_t " + flat + " = " + tab + "[2 * " + k + "];");
  SmallVector<int64_t> extents;
  for (OpFoldResult e : op.getMixedExtents())
    extents.push_back(*getConstantIntValue(e));
  int64_t stride = 1;
  auto ivs = op.getInductionVars();
  for (size_t d = ivs.size(); d-- > 0;) {
    std::string v = define(ivs[d], "i");
    line("const int64_t " + v + " = (" + flat + " / " + std::to_string(stride) +
         ") % " + std::to_string(extents[d]) + ";");
    stride *= extents[d];
  }
  for (Operation &o : op.getBody().front())
    if (failed(emitOp(&o)))
      return failure();
  currentLoc = op->getLoc();
  close();
  return success();
}
