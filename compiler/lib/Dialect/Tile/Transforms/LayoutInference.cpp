//===- LayoutInference.cpp - Layout inference over one kernel -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The solver's driver: the target names, the visit budget and the levels in
// order (collection in LayoutCollect.cpp, the strict level in
// LayoutStrictLevel.cpp, the common level in LayoutCommonLevel.cpp, the free
// level in LayoutFreeLevel.cpp). Every layout a buffer gets remembers the op
// that gave it, so a conflict can name both.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

#include "tlc/Layout/Propagation.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"

#include <deque>
#include <vector>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using layout::Fragment;
using layout::IndexExpr;
using layout::InferLevel;
using layout::Layout;

/// kMaxEnumerationWorkPerKernel, lowered by tests to reach its error.
static llvm::cl::opt<int64_t> clLayoutWorkBudget(
    "layout-work-budget", llvm::cl::Hidden,
    llvm::cl::init(tile::detail::kMaxEnumerationWorkPerKernel),
    llvm::cl::desc("Index operations layout inference may evaluate for one "
                   "kernel before it stops with an error"));

std::optional<LayoutTarget> tlc::tile::parseLayoutTarget(llvm::StringRef name) {
  name.consume_front("cuda:");
  name.consume_front("hip:");
  std::optional<layout::GemmArch> arch =
      llvm::StringSwitch<std::optional<layout::GemmArch>>(name)
          .Cases({"sm_80", "sm_86", "sm_87", "sm_89"}, layout::GemmArch::SM80)
          .Cases({"sm_90", "sm_90a"}, layout::GemmArch::SM90)
          // Blackwell has no wgmma: a fragment accumulator gets the
          // mma.sync layouts (tcgen05 accumulates in tensor memory).
          .Cases({"sm_100", "sm_100a", "sm_120", "sm_120a"},
                 layout::GemmArch::SM80)
          .Cases({"gfx90a", "gfx942", "gfx950"}, layout::GemmArch::CDNA)
          .Default(std::nullopt);
  if (!arch)
    return std::nullopt;
  LayoutTarget target{*arch};
  target.tensorMemory = name == "sm_100" || name == "sm_100a";
  return target;
}

unsigned tlc::tile::elementBitWidth(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    type = vec.getElementType();
  // tfloat32 is stored in 32 bits (MLIR's type has 19).
  if (isa<FloatTF32Type>(type))
    return 32;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 0;
}

/// The name carried by the first NameLoc inside \p loc.
static std::optional<std::string> nameIn(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::optional<std::string> n = nameIn(inner))
        return n;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return nameIn(callSite.getCallee());
  return std::nullopt;
}

std::string tlc::tile::bufferDisplayName(Value buffer) {
  if (std::optional<std::string> n = nameIn(buffer.getLoc()))
    return *n;
  return "buffer";
}

using namespace tlc::tile::detail;

/// The element count of \p shape, saturating at INT64_MAX.
int64_t tlc::tile::detail::elementCount(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0)
      return 0;
    if (n > std::numeric_limits<int64_t>::max() / d)
      return std::numeric_limits<int64_t>::max();
    n *= d;
  }
  return n;
}

/// The threads that run \p op when it is under `with T.ws(...)` or a
/// condition selecting a range of threadIdx.x (`tx < c`, `tx >= c`, their
/// else branches): the first thread and the count. TileLang lays out a
/// tile op for the threads of its region; the CUDA target partitions it
/// the same way (ThreadUniformity.h's threadRangeOf, shared by both).
std::optional<std::pair<int64_t, int64_t>>
tlc::tile::detail::warpGroupRange(Operation *op, int64_t threads) {
  std::optional<ThreadRange> r = threadRangeOf(op, threads);
  if (!r || !r->condition || r->count() <= 0 || r->count() == threads)
    return std::nullopt;
  return std::make_pair(r->lo, r->count());
}

//===----------------------------------------------------------------------===//
// Visits
//===----------------------------------------------------------------------===//

LogicalResult Solver::visit(unsigned id, InferLevel level) {
  // Past the budget every visit fails, so the run ends; run() reports it
  // (the free level's attempts run under a handler that drops errors).
  if (layout::CompiledIndexExpr::workDone() - enumeratedAtStart >
      clLayoutWorkBudget)
    overBudget = true;
  if (overBudget)
    return failure();
  switch (nodes[id].kind) {
  case NodeKind::Loop:
    return visitLoop(id, level);
  case NodeKind::Reduce:
    return visitReduce(id, level);
  case NodeKind::Gemm:
    return success();
  }
  return success();
}

LogicalResult Solver::propagate() {
  while (!queue.empty()) {
    unsigned id = queue.front();
    queue.pop_front();
    queued[id] = false;
    if (failed(visit(id, InferLevel::Common)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Writes \p n with thousands separators (`20,971,904`).
static std::string groupDigits(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

bool Solver::withinEnumerationBudget() {
  int64_t total = 0;
  const Node *largest = nullptr;
  int64_t largestCount = 0;
  for (const Node &n : nodes) {
    int64_t count = n.kind == NodeKind::Loop     ? elementCount(n.loopShape)
                    : n.kind == NodeKind::Reduce ? elementCount(buffers[n.src].shape)
                                                 : 0;
    total = count > std::numeric_limits<int64_t>::max() - total
                ? std::numeric_limits<int64_t>::max()
                : total + count;
    if (count > largestCount)
      largest = &n, largestCount = count;
  }
  if (total <= kMaxEnumeratedPerKernel)
    return true;
  InFlightDiagnostic diag = kernel.emitError()
      << "layouts of this kernel cannot be inferred: its loops, copies and "
         "reductions over fragments span "
      << groupDigits(total) << " elements, over the "
      << groupDigits(kMaxEnumeratedPerKernel)
      << " layout inference enumerates per kernel";
  if (largest)
    diag.attachNote(largest->op->getLoc())
        << "the largest spans " << groupDigits(largestCount) << " elements";
  return false;
}

LogicalResult Solver::run() {
  enumeratedAtStart = layout::CompiledIndexExpr::workDone();
  collect();
  // Bounded analysis: a kernel whose fragment loops are too large to
  // enumerate is answered at once (an error: the back ends would otherwise
  // print its fragments with layouts no inference chose).
  if (!withinEnumerationBudget())
    return failure();
  if (failed(strict()))
    return failure();
  for (unsigned id = 0; id < nodes.size(); ++id) {
    queued[id] = true;
    queue.push_back(id);
  }
  if (succeeded(propagate()) && succeeded(freeLevel()) &&
      (!deferFloating || succeeded(replicateFloating())))
    return success();
  if (overBudget)
    kernel.emitError()
        << "layout inference stopped: its enumerations of this kernel's "
           "layouts ran over "
        << groupDigits(clLayoutWorkBudget)
        << " index operations without settling them (a tlc limitation; "
           "please report this program)";
  return failure();
}

KernelLayouts Solver::takeResult() {
  KernelLayouts result;
  result.blockThreads = threads;
  for (BufferInfo &b : buffers) {
    if (b.fragment)
      result.fragments.insert({b.root, std::move(*b.fragment)});
    if (b.shared)
      result.shared.insert({b.root, std::move(*b.shared)});
  }
  for (Node &n : nodes)
    if (n.kind == NodeKind::Loop && n.loopLayout && isa<ParallelOp>(n.op))
      result.loops.insert({n.op, std::move(*n.loopLayout)});
  return result;
}

/// The largest block layout inference plans for: above every target's
/// block limit (1,024 threads), far below where thread arithmetic overflows.
static constexpr int64_t kMaxInferredThreads = 1 << 16;

FailureOr<KernelLayouts>
tlc::tile::inferKernelLayouts(KernelOp kernel, const LayoutTarget &target) {
  std::optional<int64_t> threads = kernel.getStaticNumThreads();
  // Past the largest block of any target the evaluator has reported the
  // thread count at the kernel; no layout is planned for such a block (found
  // by tlc-fuzz-eval: `threads=(1 << 62)` overflowed `threads * vector`
  // in the default fragment's planner and divided by zero).
  if (!threads || *threads <= 0 || *threads > kMaxInferredThreads)
    return KernelLayouts{};
  // A kernel whose gemms tile-plan-wgmma leaves on mma.sync (operands it
  // cannot read through descriptors, TL_DISABLE_WGMMA, ...) gets the
  // mma.sync layouts, the ones the printer then uses; where those do not
  // fit the kernel (sm_80's inference still refuses some programs TileLang
  // accepts), the sm_90 ones, as before, rather than a false error.
  if (target.arch == layout::GemmArch::SM90 &&
      kernel.walk([](GemmOp) { return WalkResult::interrupt(); })
          .wasInterrupted() &&
      selectWgmmaGemms(kernel).empty()) {
    std::vector<Diagnostic> held;
    FailureOr<KernelLayouts> result = failure();
    {
      ScopedDiagnosticHandler hold(kernel.getContext(), [&](Diagnostic &d) {
        held.push_back(std::move(d));
        return success();
      });
      Solver solver(kernel, LayoutTarget{layout::GemmArch::SM80}, *threads);
      if (succeeded(solver.run()))
        result = solver.takeResult();
    }
    if (succeeded(result)) {
      for (Diagnostic &d : held)
        kernel.getContext()->getDiagEngine().emit(std::move(d));
      return result;
    }
  }
  // First with fragments used outside every loop held whole from the start;
  // where that fails, again with them laid out by their other uses first
  // (the first attempt's errors stand if the second fails too).
  auto attempt = [&](bool deferFloating, std::vector<Diagnostic> &diags)
      -> FailureOr<KernelLayouts> {
    ScopedDiagnosticHandler hold(kernel.getContext(), [&](Diagnostic &d) {
      diags.push_back(std::move(d));
      return success();
    });
    Solver solver(kernel, target, *threads, deferFloating);
    if (failed(solver.run()))
      return failure();
    return solver.takeResult();
  };
  auto emitAll = [&](std::vector<Diagnostic> &diags) {
    for (Diagnostic &d : diags)
      kernel.getContext()->getDiagEngine().emit(std::move(d));
  };
  std::vector<Diagnostic> first, second;
  FailureOr<KernelLayouts> result = attempt(/*deferFloating=*/false, first);
  if (failed(result)) {
    result = attempt(/*deferFloating=*/true, second);
    if (succeeded(result)) {
      emitAll(second);
      return result;
    }
  }
  emitAll(first);
  return result;
}
