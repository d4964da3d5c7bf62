//===- CUDAEmitterIntrinsic.cpp - tile.intrinsic for the CUDA target ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The TileLang primitives that are one CUDA instruction or builtin each
// (`tile.intrinsic`): launch-frame queries (lane, warp, warp group, elected
// lane), warp shuffles, votes and reductions, block votes
// (`__syncthreads_count`), warp and named barriers, programmatic dependent
// launch, async-proxy fences, atomics with an order, fast and IEEE-rounded
// math, `any_of`/`all_of` over a bool region, loop `break`/`continue`, and
// the annotations that only steer register or cache policy. Every other
// callee is a build-time error naming it, at its source range.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BoundsGuards.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

namespace {
/// The operands of one intrinsic by parameter name.
struct IntrinsicArgs {
  mutable IntrinsicOp op;

  /// The operands passed for \p param, in order.
  SmallVector<Value, 2> all(StringRef param) const {
    SmallVector<Value, 2> vs;
    ArrayAttr params = op.getParams();
    for (auto [i, v] : llvm::enumerate(op.getArgs()))
      if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
        vs.push_back(v);
    return vs;
  }
  /// The first operand passed for \p param, or null.
  Value get(StringRef param) const {
    SmallVector<Value, 2> vs = all(param);
    return vs.empty() ? Value() : vs.front();
  }
  /// The constant integer passed for \p param; \p dflt when it was not
  /// passed; nullopt when it is not a constant.
  std::optional<int64_t> constant(StringRef param,
                                  std::optional<int64_t> dflt) const {
    Value v = get(param);
    if (!v)
      return dflt;
    IntegerAttr c;
    if (!matchPattern(v, m_Constant(&c)))
      return std::nullopt;
    return c.getValue().getSExtValue();
  }
  /// The string option \p name ("" when absent).
  StringRef option(StringRef name) const {
    if (DictionaryAttr d = op.getOptionsAttr())
      if (auto s = d.getAs<StringAttr>(name))
        return s.getValue();
    return "";
  }
};
} // namespace

/// Whether \p callee only steers register allocation, caches or schedules
/// that this target decides itself, or (T.reads / T.writes in a T.sblock)
/// declares a block's read and write regions, which TileLang keeps as
/// block annotations and generates no code for: it generates no code.
static bool isPolicyAnnotation(StringRef callee) {
  return llvm::is_contained(
      {"T.no_set_max_nreg", "T.disable_warp_group_reg_alloc", "T.reads",
       "T.writes", "T.annotate_producer_reg_dealloc",
       "T.annotate_consumer_reg_alloc", "T.annotate_l2_hit_ratio",
       "T.annotate_padding", "T.annotate_restrict_buffers",
       "T.annotate_ws_schedule", "T.annotate_min_blocks_per_sm",
       "T.annotate_safe_value"},
      callee);
}

/// The innermost loop around \p op inside its kernel, or null; \p parallel
/// is set when a T.Parallel lies between them.
static Operation *enclosingLoop(Operation *op, bool &parallel) {
  parallel = false;
  for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p);
       p = p->getParentOp()) {
    if (isa<ParallelOp>(p))
      parallel = true;
    if (isa<ForOp, WhileOp, PipelinedOp>(p))
      return p;
  }
  return nullptr;
}

/// Whether \p loop holds anything a block barrier is emitted for: explicit
/// barriers, block votes and tile operations, or shared-memory writes
/// (but those of one thread, `if tx == 0:`, which its own program order
/// orders: tile-insert-barriers puts no barrier for them).
static bool loopHasBarriers(Operation *loop) {
  bool found = false;
  auto kernel = loop->getParentOfType<KernelOp>();
  std::optional<int64_t> threads =
      kernel ? kernel.getStaticNumThreads() : std::nullopt;
  loop->walk([&](Operation *op) {
    if (isa<SyncThreadsOp, BarrierOp, ParallelOp, CopyOp, GemmOp, ReduceOp,
            CumSumOp>(op))
      found = true;
    if (auto in = dyn_cast<IntrinsicOp>(op))
      found |= in.getCallee().starts_with("T.syncthreads_");
    if (op->getNumRegions() == 0 &&
        !Emitter::sharedEffectsOf(op).writes.empty()) {
      std::optional<ThreadRange> r =
          threads ? threadRangeOf(op, *threads) : std::nullopt;
      found |= !r || !r->condition || r->count() != 1;
    }
  });
  return found;
}

std::optional<std::string> Emitter::uniformLoopExit(IfOp ifOp) {
  // `if cond: break` whose condition may differ between threads, in a loop
  // with block barriers: the exit is decided for the whole block
  // (`__syncthreads_or`), so no thread leaves the barriers of the others.
  // Where every thread computes the same condition (the programs that are
  // correct on the GPU at all) this is the same exit.
  Block *then = ifOp.thenBlock();
  if (ifOp.elseBlock() || !barriersAllowed || !parallelReg.empty() ||
      !mayVaryAcrossThreads(ifOp.getCondition()))
    return std::nullopt;
  if (then->empty())
    return std::nullopt;
  auto intrinsic = dyn_cast<IntrinsicOp>(&then->front());
  auto next = std::next(then->begin());
  bool alone =
      next == then->end() || (next->hasTrait<OpTrait::IsTerminator>() &&
                              std::next(next) == then->end());
  if (!intrinsic || !alone ||
      (intrinsic.getCallee() != "T.loop_break" &&
       intrinsic.getCallee() != "T.loop_continue"))
    return std::nullopt;
  bool parallel = false;
  Operation *loop = enclosingLoop(ifOp, parallel);
  if (!loop || parallel || loop != ifOp->getParentOp() ||
      !loopHasBarriers(loop))
    return std::nullopt;
  return std::string(intrinsic.getCallee() == "T.loop_break" ? "break"
                                                             : "continue");
}

LogicalResult Emitter::emitIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  // HIP's own spellings (HIPEmitterIntrinsic.cpp); the portable rest below.
  if (lang.isHip())
    if (std::optional<LogicalResult> r = emitHipIntrinsic(op))
      return *r;
  IntrinsicArgs a{op};
  beginOp(op, callee);
  if (std::optional<LogicalResult> r = emitMbarrierIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitClusterIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitRawWgmmaIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitRngIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitLdmatrixIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitReducerIntrinsic(op))
    return *r;
  auto fail = [&](const Twine &why) {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  auto arg = [&](StringRef param) -> std::string {
    Value v = a.get(param);
    return v ? expr(v) : std::string();
  };
  // A result `const T name = e;`.
  auto result = [&](const std::string &e) -> LogicalResult {
    if (op.getNumResults() == 0) {
      line(e + ";");
      return success();
    }
    FailureOr<std::string> vt = valueType(op.getResult(0).getType(), op);
    if (failed(vt))
      return failure();
    std::string name = define(op.getResult(0), "r");
    line("const " + *vt + " " + name + " = (" + *vt + ")(" + e + ");");
    return success();
  };
  auto mask = [&]() -> std::string {
    Value m = a.get("mask");
    return m ? "(unsigned)(" + expr(m) + ")" : "0xffffffffu";
  };
  // Block barriers and block votes: every thread of the block must reach
  // them.
  auto needsBlock = [&]() -> LogicalResult {
    if (blockReachesBarrier(op) && range.lo == 0 && range.hi == blockThreads)
      return success();
    return fail("is a barrier of the whole block, but here only some threads "
                "may reach it (inside T.Parallel or under a condition that "
                "may differ between threads)");
  };

  if (callee == "T.cast_rs") {
    // T.cast(..., round="rs"): cvt.rs of sm_100a (PTX ISA 8.7, "cvt": the
    // f16x2 / bf16x2 forms and the satfinite e4m3x4 / e5m2x4 / e2m1x4
    // ones, arch-specific to sm_100a and sm_103a). The value goes in the
    // lowest lane, whose random bits are rbits' low 13 (f16: the ISA
    // wants the 3 bits above them 0), 16 (bf16, fp8) or 8 (e2m1) bits;
    // the other lanes convert 0.
    unsigned cc = options.minComputeCapability;
    if (lang.isHip() || !hasTcgen05(cc))
      return fail("stochastic rounding (cvt.rs) needs sm_100a or sm_103a; "
                  "the " +
                  Twine(lang.name) + " target " +
                  (lang.isHip() ? Twine("has no such conversion")
                                : "builds for sm_" + Twine(cc)));
    Type to = op.getResult(0).getType();
    std::string packed = fresh("rs"), value = "(float)(" + arg("value") + ")",
                bits = "(uint32_t)(" + arg("rbits") + ")";
    if (to.isF16() || to.isBF16()) {
      line("uint32_t " + packed + ";");
      line("asm(\"cvt.rs.satfinite." +
           std::string(to.isF16() ? "f16x2" : "bf16x2") +
           ".f32 %0, %1, %2, %3;\" : \"=r\"(" + packed +
           ") : \"f\"(0.0f), \"f\"(" + value + "), \"r\"(" + bits +
           (to.isF16() ? " & 0x1FFFu" : " & 0xFFFFu") + "));");
      return result(std::string(to.isF16() ? "__ushort_as_half"
                                           : "__ushort_as_bfloat16") +
                    "((unsigned short)(" + packed + " & 0xFFFFu))");
    }
    if (isa<Float4E2M1FNType>(to)) {
      std::string code = fresh("rs");
      line("unsigned short " + code + ";");
      line("asm(\"cvt.rs.satfinite.e2m1x4.f32 %0, {%1, %1, %1, %2}, %3;\" "
           ": \"=h\"(" +
           code + ") : \"f\"(0.0f), \"f\"(" + value + "), \"r\"(" + bits +
           "));");
      return result("(uint8_t)(" + code + " & 0xFu)");
    }
    const char *format = isa<Float8E4M3FNType>(to) ? "e4m3x4" : "e5m2x4";
    line("uint32_t " + packed + ";");
    line("asm(\"cvt.rs.satfinite." + std::string(format) +
         ".f32 %0, {%1, %1, %1, %2}, %3;\" : \"=r\"(" + packed +
         ") : \"f\"(0.0f), \"f\"(" + value + "), \"r\"(" + bits + "));");
    return result("(uint8_t)(" + packed + " & 0xFFu)");
  }
  if (isPolicyAnnotation(callee)) {
    // __launch_bounds__ carries T.annotate_min_blocks_per_sm (emitKernel).
    line("// " + callee.str() +
         (callee == "T.annotate_min_blocks_per_sm" ? ": in __launch_bounds__"
          : callee == "T.reads" || callee == "T.writes"
              ? ": the block's regions, an annotation with no code"
              : ": no code (register, cache and padding policy are this "
                "target's own)"));
    return success();
  }

  // Launch frame ------------------------------------------------------------
  if (callee == "T.get_lane_idx" || callee == "T.get_warp_idx" ||
      callee == "T.get_warp_idx_sync" || callee == "T.get_warp_group_idx") {
    std::optional<int64_t> ws = a.constant("warp_size", 32);
    std::optional<int64_t> wpg = a.constant("warps_per_group", 4);
    std::string w =
        ws ? std::to_string(*ws) : "(int)(" + arg("warp_size") + ")";
    std::string g =
        wpg ? std::to_string(*wpg) : "(int)(" + arg("warps_per_group") + ")";
    // Of the block, also inside a thread range (where `tid` is relative).
    std::string t = range.lo ? "(int)threadIdx.x" : "tid";
    if (callee == "T.get_lane_idx")
      return result(t + " % " + w);
    if (callee == "T.get_warp_group_idx")
      return result(t + " / (" + w + " * " + g + ")");
    return result(t + " / " + w);
  }
  if (callee == "T.shuffle_elect") {
    // One thread per group of thread_extent threads (0: the block): lane 0
    // of the first warp of each group of whole warps (a group under 32
    // threads is its warp), the lane elect.sync picks in converged code.
    std::optional<int64_t> n = a.constant("thread_extent", 0);
    if (!n || *n < 0)
      return fail("needs a constant, non-negative thread extent (0: the "
                  "whole block)");
    int64_t group = (*n + 31) / 32 * 32;
    std::string t = range.lo ? "(int)threadIdx.x" : "tid";
    if (*n == 0 || group >= blockThreads)
      return result(t + " == 0");
    return result(t + " % " + std::to_string(group) + " == 0");
  }

  // Warp shuffles, votes, reductions -----------------------------------------
  if (callee == "T.shfl_xor" || callee == "T.shfl_down" ||
      callee == "T.shfl_up" || callee == "T.shfl_sync") {
    std::string fn = llvm::StringSwitch<std::string>(callee)
                         .Case("T.shfl_xor", "__shfl_xor_sync")
                         .Case("T.shfl_down", "__shfl_down_sync")
                         .Case("T.shfl_up", "__shfl_up_sync")
                         .Default("__shfl_sync");
    std::string lane = callee == "T.shfl_sync" ? arg("srcLane") : arg("delta");
    // Width 64 is a HIP wavefront (tilelang.intrinsics' MFMA emitter);
    // __shfl_sync leaves widths above 32 undefined.
    IntegerAttr wc;
    if (a.get("width") && matchPattern(a.get("width"), m_Constant(&wc))) {
      int64_t w = wc.getValue().getSExtValue();
      if (w < 1 || w > 32 || (w & (w - 1)))
        return fail("width " + Twine(w) +
                    " is not a power of two of at most 32 (the warp)" +
                    (w == 64 ? "; 64 lanes are an AMD wavefront: build for "
                               "hip:* or cpu"
                             : ""));
    }
    std::string width = a.get("width") ? arg("width") : "32";
    return result(fn + "(" + mask() + ", " + arg("value") + ", (int)(" + lane +
                  "), (int)(" + width + "))");
  }
  if (callee == "T.tvm_warp_shuffle")
    return result("__shfl_sync(" + mask() + ", " + arg("value") + ", (int)(" +
                  arg("warp_id") + "), (int)(" + arg("width") + "))");
  if (callee.starts_with("T.warp_reduce_")) {
    std::string combiner = llvm::StringSwitch<std::string>(callee)
                               .Case("T.warp_reduce_sum", "SumOp")
                               .Case("T.warp_reduce_max", "MaxOp")
                               .Case("T.warp_reduce_min", "MinOp")
                               .Case("T.warp_reduce_bitand", "BitAndOp")
                               .Case("T.warp_reduce_bitor", "BitOrOp")
                               .Default("");
    if (combiner.empty())
      return fail("is not a warp reduction the " + lang.name + " target knows");
    return result("tlc::cuda::warpAllReduce<tlc::cuda::" + combiner + ", 32>(" +
                  arg("value") + ")");
  }
  if (callee == "T.any_sync")
    return result("__any_sync(" + mask() + ", " + arg("pred") + ")");
  if (callee == "T.all_sync")
    return result("__all_sync(" + mask() + ", " + arg("pred") + ")");
  if (callee == "T.ballot_sync")
    return result("__ballot_sync(" + mask() + ", " + arg("pred") + ")");
  if (callee == "T.ballot")
    return result("__ballot_sync(__activemask(), " + arg("pred") + ")");
  if (callee == "T.activemask")
    return result("__activemask()");
  if (callee == "T.match_any_sync")
    return result("__match_any_sync(" + mask() + ", " + arg("value") + ")");
  if (callee == "T.match_all_sync")
    return result("tlc::cuda::matchAll(" + mask() + ", " + arg("value") + ")");
  if (callee == "T.syncthreads_count" || callee == "T.syncthreads_and" ||
      callee == "T.syncthreads_or") {
    if (failed(needsBlock()))
      return failure();
    return result("__" + callee.drop_front(2).str() + "(" + arg("pred") + ")");
  }

  // Barriers and fences -----------------------------------------------------
  if (callee == "T.sync_grid") {
    // Every block waits for all others: the launch is cooperative (the
    // manifest says so; the runtime checks the grid fits on the device).
    if (failed(needsBlock()))
      return failure();
    anyGridSync = true;
    line(lang.helpers.str() + "syncGrid();");
    return success();
  }
  if (callee == "T.sync_warp") {
    line("__syncwarp(" + mask() + ");");
    return success();
  }
  if (callee == "T.tvm_storage_sync") {
    StringRef scope = a.option("scope");
    if (scope == "warp") {
      line("__syncwarp();");
      return success();
    }
    if (scope != "shared" && scope != "shared.dyn")
      return fail("synchronises scope '" + scope +
                  "'; the " + lang.name + " target generates 'shared' and 'warp'");
    if (failed(needsBlock()))
      return failure();
    line("__syncthreads();");
    return success();
  }
  if (callee == "T.named_barrier_arrive") {
    std::optional<int64_t> id = a.constant("barrier_id", std::nullopt);
    std::optional<int64_t> n = a.constant("thread_count", std::nullopt);
    if (!id || *id < 1 || *id > 15 || !n || *n % 32 || *n <= 0)
      return fail("needs a constant barrier id in 1..15 (0 is "
                  "__syncthreads') and a constant thread count that is a "
                  "multiple of 32");
    line("tlc::cuda::namedBarrierArrive(" + std::to_string(*id) + ", " +
         std::to_string(*n) + ");");
    return success();
  }
  if (callee == "T.fence_proxy_async") {
    line("tlc::cuda::fenceProxyAsync();");
    return success();
  }
  if (callee == "T.pdl_trigger" || callee == "T.pdl_sync") {
    // griddepcontrol (sm_90): without a programmatic launch the grids run
    // one after the other and both are no-ops.
    line(callee == "T.pdl_trigger" ? "tlc::cuda::pdlLaunchDependents();"
                                   : "tlc::cuda::pdlWaitPrimary();");
    return success();
  }
  if (callee == "T.loop_break" || callee == "T.loop_continue") {
    bool parallel = false;
    Operation *loop = enclosingLoop(op, parallel);
    if (!loop || parallel)
      return fail(parallel ? "leaves a T.Parallel, whose iterations the " +
                                 lang.name.str() +
                                 " target spreads over threads"
                           : std::string("is not inside a loop"));
    if (auto pipe = dyn_cast<PipelinedOp>(loop);
        pipe && pipelineStages.count(pipe))
      return fail("leaves a software-pipelined loop, whose prefetches the " +
                  lang.name.str() + " target issues ahead of the iterations");
    // Leaving a loop with block barriers is only sound when every thread
    // leaves together (uniformLoopExit handled `if c: break` at the if).
    for (Operation *p = op->getParentOp(); p != loop; p = p->getParentOp())
      if (auto ifOp = dyn_cast<IfOp>(p);
          ifOp && mayVaryAcrossThreads(ifOp.getCondition()) &&
          loopHasBarriers(loop)) {
        InFlightDiagnostic d =
            op.emitError()
            << callee
            << ": leaves a loop with block barriers under a condition that "
               "may differ between threads (the threads that stay would "
               "wait at a barrier for the ones that left); write it as `if "
               "cond: break` directly in the loop body, which the "
            << lang.name << " target decides for the whole block";
        d.attachNote(ifOp.getLoc()) << "the condition";
        return failure();
      }
    line(callee == "T.loop_break" ? "break;" : "continue;");
    return success();
  }

  // Memory ------------------------------------------------------------------
  auto element =
      [&](StringRef param) -> FailureOr<std::pair<std::string, std::string>> {
    Value buf = a.get(param);
    auto type = buf ? dyn_cast<BufferType>(buf.getType()) : BufferType();
    if (!type) {
      (void)fail("needs a buffer element for '" + param + "'");
      return failure();
    }
    if (scopeOf(rootOf(buf)) == MemoryScope::Fragment) {
      (void)fail("operates on memory, not on a fragment");
      return failure();
    }
    SmallVector<std::string> idx(std::max<unsigned>(type.getRank(), 1), "0");
    return guardedElement(buf, idx, op);
  };
  // What must hold for the element whose address \p v is (T.address_of of
  // a global element) to lie inside its tensor: "" when nothing need.
  auto addressGuard = [&](Value v) -> FailureOr<std::string> {
    auto addr = v.getDefiningOp<IntrinsicOp>();
    if (!addr || addr.getCallee() != "T.address_of" || addr.getArgs().empty())
      return std::string();
    Value buf = addr.getArgs().front();
    auto type = dyn_cast<BufferType>(buf.getType());
    if (!type || scopeOf(rootOf(buf)) != MemoryScope::Global)
      return std::string();
    SmallVector<std::string> idx(std::max<unsigned>(type.getRank(), 1), "0");
    FailureOr<std::pair<std::string, std::string>> el =
        guardedElement(buf, idx, addr);
    if (failed(el))
      return failure();
    return el->second;
  };
  if (callee == "T.address_of") {
    // The address of a buffer element, as a pointer to its storage type:
    // what T.call_extern passes to the program's imported functions (a
    // decoder's source and destination registers).
    FailureOr<std::pair<std::string, std::string>> el = element("buffer_load");
    if (failed(el))
      return failure();
    // A global element that may lie outside its tensor: as TileLang's
    // LegalizeSafeMemoryAccess, the T.call_extern statements it is passed
    // to run only where it lies inside (addressGuard); another use has
    // nothing to skip.
    if (!el->second.empty() &&
        !llvm::all_of(op->getUsers(), isExternCallStatement))
      return fail("takes the address of a global element that may lie "
                  "outside its tensor, for a use other than a "
                  "T.call_extern statement (the one use whose call is "
                  "skipped where the element lies outside)");
    if (op.getNumResults() != 1)
      return fail("has no result to hold the address");
    line("auto *const " + define(op.getResult(0), "addr") + " = &" +
         el->first + ";");
    return success();
  }
  // T.st's and T.ld's scope (default gpu) and semantics (default weak;
  // \p ordered is release for a store, acquire for a load).
  auto scopeAndSemantics = [&](StringRef ordered)
      -> FailureOr<std::pair<StringRef, StringRef>> {
    StringRef scope = a.option("scope"), sem = a.option("sem");
    if (scope.empty())
      scope = "gpu";
    if (sem.empty())
      sem = "weak";
    if (!llvm::is_contained({"cta", "gpu", "sys"}, scope)) {
      (void)fail("scope '" + scope.str() + "' is not one of cta, gpu, sys");
      return failure();
    }
    if (sem != ordered &&
        !llvm::is_contained({"weak", "volatile", "relaxed"}, sem)) {
      (void)fail("semantics '" + sem.str() +
                 "' is not one of weak, volatile, relaxed, " + ordered.str());
      return failure();
    }
    return std::make_pair(scope, sem);
  };
  if (callee == "T.st") {
    // A store with a PTX scope and semantics: weak is a plain store;
    // volatile and relaxed one indivisible (volatile) store; release that
    // store after a fence of the scope. atomicStoreTo fences at gpu scope
    // on both sides (at least as strong as each at cta and gpu scope);
    // sys adds a system-scope fence before it for release.
    Value buf = a.get("dst");
    auto type = buf ? dyn_cast<BufferType>(buf.getType()) : BufferType();
    Value value = a.get("value");
    if (!type || !value || isa<BufferType>(value.getType()))
      return fail("stores a scalar value to a buffer element");
    FailureOr<std::pair<StringRef, StringRef>> order =
        scopeAndSemantics("release");
    if (failed(order))
      return failure();
    auto [scope, sem] = *order;
    Type elem = type.getElementType();
    FailureOr<std::string> st = storageType(elem, op);
    if (failed(st))
      return failure();
    FailureOr<std::pair<std::string, std::string>> el = element("dst");
    if (failed(el))
      return failure();
    auto &[lv, cond] = *el;
    std::string v = toStorage(elem, expr(value));
    if (sem == "weak") {
      line(guardedStatement(cond, lv + " = " + v + ";"));
      return success();
    }
    std::string call = lang.helpers.str() + "atomicStoreTo<" + *st + ">(&" +
                       lv + ", " + v + ");";
    if (sem == "release" && scope == "sys")
      call = "{ __threadfence_system(); " + call + " }";
    line(guardedStatement(cond, call));
    return success();
  }
  if (callee == "T.ld") {
    // A load with a PTX scope and semantics (T.st's mirror): weak is a
    // plain load; volatile and relaxed one indivisible (volatile) load;
    // acquire that load and then a fence of the scope, so later accesses
    // are ordered after it. `na` and `nc` are cache hints with no effect
    // on the value; the load stays on the coherent path.
    Value src = a.get("src"), dst = a.get("dst");
    auto st = src ? dyn_cast<BufferType>(src.getType()) : BufferType();
    auto dt = dst ? dyn_cast<BufferType>(dst.getType()) : BufferType();
    if (!st || !dt)
      return fail("loads a buffer element into a variable or element");
    FailureOr<std::pair<StringRef, StringRef>> order =
        scopeAndSemantics("acquire");
    if (failed(order))
      return failure();
    auto [scope, sem] = *order;
    FailureOr<std::string> sst = storageType(st.getElementType(), op);
    FailureOr<std::string> vt = valueType(dt.getElementType(), op);
    if (failed(sst) || failed(vt))
      return failure();
    FailureOr<std::pair<std::string, std::string>> from = element("src");
    if (failed(from))
      return failure();
    std::string loaded = sem == "weak"
                             ? from->first
                             : lang.helpers.str() + "atomicLoadFrom<" + *sst +
                                   ">(&" + from->first + ")";
    std::string value = fromStorage(st.getElementType(), loaded);
    if (!from->second.empty())
      value = "(" + from->second + ") ? " + value + " : " + *vt + "(0)";
    FailureOr<std::pair<std::string, std::string>> to = element("dst");
    if (failed(to))
      return failure();
    line(guardedStatement(
        to->second,
        to->first + " = " +
            toStorage(dt.getElementType(), "(" + *vt + ")(" + value + ")") +
            ";"));
    if (sem == "acquire")
      line(scope == "sys"   ? "__threadfence_system();"
           : scope == "gpu" ? "__threadfence();"
                            : "__threadfence_block();");
    return success();
  }
  if (callee == "T.atomic_load" || callee == "T.atomic_store" ||
      callee == "T.atomic_max" || callee == "T.atomic_min" ||
      callee == "T.atomic_or") {
    bool load = callee == "T.atomic_load";
    StringRef param = load ? "src" : "dst";
    Value buf = a.get(param);
    auto type = buf ? dyn_cast<BufferType>(buf.getType()) : BufferType();
    if (!type)
      return fail("needs a buffer element");
    Type elem = type.getElementType();
    FailureOr<std::string> st = storageType(elem, op);
    if (failed(st))
      return failure();
    FailureOr<std::pair<std::string, std::string>> el = element(param);
    if (failed(el))
      return failure();
    auto &[lv, cond] = *el;
    std::string order = a.option("memory_order").str();
    if (!order.empty() && order != "seq_cst" && order != "relaxed" &&
        order != "acquire" && order != "release" && order != "acq_rel" &&
        order != "consume")
      return fail("memory order '" + order +
                  "' is not one of relaxed, "
                  "consume, acquire, release, acq_rel, seq_cst");
    if (callee == "T.atomic_store") {
      Value src = a.get("src");
      if (!src || isa<BufferType>(src.getType()))
        return fail("stores a scalar value");
      std::string call = lang.helpers.str() + "atomicStoreTo<" + *st + ">(&" +
                         lv + ", " + toStorage(elem, expr(src)) + ")";
      line((cond.empty() ? "" : "if (" + cond + ") ") + call + ";");
      return success();
    }
    std::string call;
    if (load)
      call = lang.helpers.str() + "atomicLoadFrom<" + *st + ">(&" + lv + ")";
    else {
      std::string fn = callee == "T.atomic_max"   ? "atomicMaxOf"
                       : callee == "T.atomic_min" ? "atomicMinOf"
                                                  : "atomicOrOf";
      if (callee == "T.atomic_or" && !isa<IntegerType>(elem))
        return fail("needs an integer element type");
      call = lang.helpers.str() + fn + "<" + *st + ">(&" + lv + ", " +
             toStorage(elem, arg("value")) + ")";
    }
    if (op.getNumResults() == 0) {
      line((cond.empty() ? "" : "if (" + cond + ") ") + call + ";");
      return success();
    }
    FailureOr<std::string> vt = valueType(op.getResult(0).getType(), op);
    if (failed(vt))
      return failure();
    std::string name = define(op.getResult(0), "prev");
    std::string v = fromStorage(elem, call);
    line("const " + *vt + " " + name + " = " +
         (cond.empty() ? v : "(" + cond + ") ? " + v + " : " + *vt + "(0)") +
         ";");
    return success();
  }
  if (callee == "T.any_of" || callee == "T.all_of") {
    Value buf = a.get("buffer");
    auto type = buf ? dyn_cast<BufferType>(buf.getType()) : BufferType();
    if (!type || !type.isStatic())
      return fail("needs a bool buffer or region of static shape");
    if (scopeOf(rootOf(buf)) == MemoryScope::Fragment)
      return fail("reads memory, not a fragment");
    bool any = callee == "T.any_of";
    std::string name = define(op.getResult(0), any ? "any" : "all");
    line("bool " + name + " = " + (any ? "false" : "true") + ";");
    ArrayRef<int64_t> shape = type.getShape();
    int64_t n = 1;
    for (int64_t e : shape)
      n *= e;
    std::string i = fresh("i");
    line("#pragma unroll");
    open("for (int " + i + " = 0; " + i + " < " + std::to_string(n) + "; ++" +
         i + ")");
    SmallVector<std::string> idx;
    int64_t stride = n;
    for (int64_t e : shape) {
      stride /= e;
      idx.push_back("(" + i + " / " + std::to_string(stride) + ") % " +
                    std::to_string(e));
    }
    if (idx.empty())
      idx.push_back("0");
    FailureOr<std::pair<std::string, std::string>> el =
        guardedElement(buf, idx, op);
    if (failed(el))
      return failure();
    std::string v = "(bool)(" + el->first + ")";
    if (!el->second.empty())
      v = "((" + el->second + ") ? " + v + " : " + (any ? "false" : "true") +
          ")";
    line(name + (any ? " = " + name + " || " : " = " + name + " && ") + v +
         ";");
    close();
    return success();
  }

  if (callee == "T.dp4a") {
    // C += dot(A[0..3], B[0..3]) over four 8-bit integers from each
    // element on (dp4a.s32.s32 / dp4a.u32.u32, PTX ISA).
    Value av = a.get("A"), bv = a.get("B"), cv = a.get("C");
    auto bufType = [](Value v) {
      return v ? dyn_cast<BufferType>(v.getType()) : BufferType();
    };
    BufferType at = bufType(av), bt = bufType(bv), ct = bufType(cv);
    if (!at || !bt || !ct)
      return fail("needs buffer elements A, B (four 8-bit integers from "
                  "each) and C (the 32-bit accumulator)");
    auto intOf = [](BufferType t) {
      return dyn_cast<IntegerType>(t.getElementType());
    };
    IntegerType ai = intOf(at), bi = intOf(bt), ci = intOf(ct);
    if (!ai || !bi || !ci || ai.getWidth() != 8 || bi.getWidth() != 8 ||
        ci.getWidth() != 32 || ai.isUnsigned() != bi.isUnsigned() ||
        ai.isUnsigned() != ci.isUnsigned())
      return fail("needs A and B of int8 (or both uint8) and C of int32 (or "
                  "uint32)");
    for (Value v : {av, bv, cv})
      if (scopeOf(rootOf(v)) == MemoryScope::Fragment)
        return fail("operates on memory, not on a fragment");
    // The four bytes from an element on along the last dimension, packed
    // little-endian as the instruction reads a 32-bit register.
    auto packed = [&](Value v) -> FailureOr<std::string> {
      unsigned rank =
          std::max<int64_t>(cast<BufferType>(v.getType()).getRank(), 1);
      std::string word;
      for (int k = 0; k < 4; ++k) {
        SmallVector<std::string> idx(rank, "0");
        idx.back() = std::to_string(k);
        FailureOr<std::pair<std::string, std::string>> el =
            guardedElement(v, idx, op);
        if (failed(el))
          return failure();
        std::string b = "(unsigned)(unsigned char)(" + el->first + ")";
        if (!el->second.empty())
          b = "((" + el->second + ") ? " + b + " : 0u)";
        word += (k ? " | " : "") +
                (k ? "(" + b + " << " + std::to_string(8 * k) + ")" : b);
      }
      return word;
    };
    FailureOr<std::string> pa = packed(av), pb = packed(bv);
    SmallVector<std::string> cidx(std::max<int64_t>(ct.getRank(), 1), "0");
    FailureOr<std::pair<std::string, std::string>> c =
        guardedElement(cv, cidx, op);
    if (failed(pa) || failed(pb) || failed(c))
      return failure();
    std::string t = ai.isUnsigned() ? "unsigned" : "int";
    // HIP: v_dot4_i32_i8 / v_dot4_u32_u8 through tlc_device/hip/mfma.h.
    std::string fn = lang.isHip() ? "tlc::hip::dp4a" : "__dp4a";
    std::string call = c->first + " = " + fn + "((" + t + ")(" + *pa + "), (" +
                       t + ")(" + *pb + "), (" + t + ")(" + c->first + "));";
    line(c->second.empty() ? call : "if (" + c->second + ") " + call);
    return success();
  }

  // Math with explicit precision or rounding ---------------------------------
  auto isF32 = [&]() {
    return op.getNumResults() == 1 && op.getResult(0).getType().isF32();
  };
  if (callee.starts_with("T.__") || callee == "T.fast_rcp") {
    std::string fn = llvm::StringSwitch<std::string>(callee)
                         .Case("T.__exp", "__expf")
                         .Case("T.__exp10", "__exp10f")
                         .Case("T.__log", "__logf")
                         .Case("T.__log2", "__log2f")
                         .Case("T.__log10", "__log10f")
                         .Case("T.__sin", "__sinf")
                         .Case("T.__cos", "__cosf")
                         .Case("T.__tan", "__tanf")
                         .Case("T.fast_rcp", "__frcp_rn")
                         .Default("");
    if (fn.empty())
      return fail("is not a fast-math function the " + lang.name +
                  " target knows");
    if (!isF32())
      return fail("is an f32 approximation; the value is not f32");
    return result(fn + "(" + arg("x") + ")");
  }
  if (callee == "T.fma" || callee == "T.fmul") {
    // TileLang's T.fma / T.fmul: one rounding to nearest, and a product
    // nvcc may not fuse into a later addition (its default --fmad=true
    // would contract a plain x * y + z).
    bool fma = callee == "T.fma";
    if (op.getNumResults() != 1)
      return fail("needs one result");
    Type t = op.getResult(0).getType();
    bool f32 = t.isF32(), f64 = t.isF64(), f16 = t.isF16() || t.isBF16();
    if (!f32 && !f64 && !f16)
      return fail("needs f16, bf16, f32 or f64 operands");
    std::string c = f64 ? "(double)(" : "(float)(";
    std::string x = c + arg("x") + ")", y = c + arg("y") + ")",
                z = fma ? c + arg("z") + ")" : "";
    if (lang.isHip()) {
      // hipcc builds with -ffp-contract=off: fma() is the fused operation
      // and a product stays a product.
      if (f16)
        return fail("on f16 / bf16 is not supported by the HIP target yet");
      return result(fma ? std::string(f64 ? "fma(" : "fmaf(") + x + ", " +
                              y + ", " + z + ")"
                        : x + " * " + y);
    }
    if (f16) {
      // Registers hold 16-bit floats as f32: __hfma rounds a*b+c once to
      // the format; an f32 product of two 16-bit floats is exact, so
      // rounding it to the format is the correctly rounded product.
      std::string e =
          fma ? "__hfma(" + toStorage(t, x) + ", " + toStorage(t, y) + ", " +
                    toStorage(t, z) + ")"
              : toStorage(t, "__fmul_rn(" + x + ", " + y + ")");
      return result(fromStorage(t, e));
    }
    if (fma)
      return result(std::string(f64 ? "__fma_rn(" : "__fmaf_rn(") + x +
                    ", " + y + ", " + z + ")");
    return result(std::string(f64 ? "__dmul_rn(" : "__fmul_rn(") + x + ", " +
                  y + ")");
  }
  if (callee.starts_with("T.ieee_")) {
    std::string mode = a.option("rounding_mode").str();
    if (mode.empty())
      mode = "rn";
    if (mode != "rn" && mode != "rz" && mode != "ru" && mode != "rd")
      return fail("rounding mode '" + mode + "' is not rn, rz, ru or rd");
    if (!isF32())
      return fail("is an f32 operation; the value is not f32");
    std::string fn = llvm::StringSwitch<std::string>(callee)
                         .Case("T.ieee_add", "__fadd_")
                         .Case("T.ieee_sub", "__fsub_")
                         .Case("T.ieee_mul", "__fmul_")
                         .Case("T.ieee_fdiv", "__fdiv_")
                         .Case("T.ieee_fmaf", "__fmaf_")
                         .Case("T.ieee_frcp", "__frcp_")
                         .Case("T.ieee_fsqrt", "__fsqrt_")
                         .Case("T.ieee_frsqrt", "__frsqrt_rn")
                         .Default("");
    if (fn.empty())
      return fail("is not an IEEE operation the " + lang.name + " target knows");
    if (callee == "T.ieee_frsqrt")
      return result(fn + "(" + arg("x") + ")");
    std::string args = arg("x");
    for (StringRef p : {"y", "z"})
      if (a.get(p))
        args += ", " + arg(p);
    return result(fn + mode + "(" + args + ")");
  }

  // Whether the region \p v of a shared tile whose rows are whole 16-byte
  // chunks starts on a chunk: its column offset (constant parts and the
  // divisors of the dynamic ones), in \p bytes-byte elements, is a
  // multiple of 16 bytes (the other dimensions move whole rows).
  auto columnOnChunk = [&](Value v, int64_t bytes) {
    int64_t constant = 0;
    while (auto r = v.getDefiningOp<RegionOp>()) {
      OpFoldResult ofr = r.getMixedOffsets().back();
      if (std::optional<int64_t> c = getConstantIntValue(ofr)) {
        constant += *c;
      } else {
        std::optional<IndexRange> range = rangeOf(ofr);
        if (!range)
          return false;
        if (range->lo == range->hi)
          constant += range->lo;
        else if ((range->div * bytes) % 16) // its values: multiples of div
          return false;
      }
      v = r.getSource();
    }
    return (constant * bytes) % 16 == 0;
  };
  if (callee == "T.access_ptr") {
    // TVM's tvm_access_ptr: a typed pointer to the first element of the
    // region (plus `offset` elements) in the buffer's own storage
    // (T.address_of of one element is above). Only where that storage is one array laid out row-major:
    // a fragment's elements are registers of several threads, and a
    // swizzled shared tile's next element is not the next address.
    Value base = a.get("base");
    auto bt = base ? dyn_cast<BufferType>(base.getType()) : BufferType();
    if (!bt)
      return fail("needs a buffer, a region or an element of one");
    Value root = rootOf(base);
    MemoryScope scope = scopeOf(root);
    if (scope == MemoryScope::Fragment || scope == MemoryScope::Reducer)
      return fail("cannot point into a fragment: its elements are registers "
                  "spread over the block's threads; copy it to shared or "
                  "local memory first");
    if (panelSwizzle.count(root) || ldsSwizzle.count(root) ||
        swizzled.count(root)) {
      // wgmma's panels and the XOR row swizzle move whole 16-byte chunks:
      // inside one chunk the elements keep consecutive addresses, so the
      // swizzled address of the region's first element addresses an
      // access of at most 16 bytes that starts on a chunk (a cp.async of
      // 8 bf16, as TileLang addresses it through the layout).
      auto rootType = cast<BufferType>(root.getType());
      int64_t bytes = getElementStorageBytes(rootType.getElementType());
      Value ext = a.get("extents");
      std::optional<int64_t> extent =
          ext ? getConstantIntValue(ext) : std::nullopt;
      std::string why;
      if (ldsSwizzle.count(root))
        why = "its LDS swizzle does not keep 16-byte chunks";
      else if (a.get("offset"))
        why = "an access with an offset may leave its 16-byte chunk";
      else if (!extent)
        why = "the access's extent is not a constant";
      else if (*extent * bytes > 16)
        why = "the access (" + std::to_string(*extent * bytes) +
              " bytes) crosses a 16-byte chunk";
      else if (!rootType.isStatic() ||
               (rootType.getShape().back() * bytes) % 16 ||
               !columnOnChunk(base, bytes))
        why = "the access does not always start on a 16-byte chunk";
      if (!why.empty())
        return fail("cannot point into a shared tile that this target stores "
                    "swizzled (it is a gemm operand) here: the swizzle keeps "
                    "only 16-byte chunks whole, and " +
                    why);
    }
    SmallVector<std::string> zeros(bt.getRank(), "0");
    FailureOr<RootAccess> access = resolve(base, zeros, op);
    if (failed(access))
      return failure();
    FailureOr<std::string> lin = linearIndex(*access, op);
    if (failed(lin))
      return failure();
    if (Value off = a.get("offset"))
      *lin = "(" + *lin + ") + (" + expr(off) + ")";
    std::string name = define(op.getResult(0), "ptr");
    line("auto *const " + name + " = &" + expr(access->root) + "[" + *lin +
         "];");
    return success();
  }
  if (callee == "T.call_extern") {
    // A function of the program's imported source (importedSourceText) or
    // of the device library, called by name as written.
    std::string args;
    for (Value v : a.all("args"))
      args += (args.empty() ? "" : ", ") + expr(v);
    std::string call = a.option("func_name").str() + "(" + args + ")";
    // A call made for its effect (`T.call_extern(f, ..., dtype=...)` as a
    // statement, as TIR evaluates it): the function may return void. It
    // runs only where the global elements whose addresses it is passed lie
    // inside their tensors.
    if (isExternCallStatement(op)) {
      std::string guard;
      for (Value v : a.all("args")) {
        FailureOr<std::string> g = addressGuard(v);
        if (failed(g))
          return failure();
        if (!g->empty())
          guard += (guard.empty() ? "" : " && ") + ("(" + *g + ")");
      }
      line((guard.empty() ? "" : "if (" + guard + ") ") + call + ";");
      return success();
    }
    return result(call);
  }
  if ((callee == "T.tma_gather4" || callee == "T.tma_scatter4") &&
      !lang.isHip()) {
    // cp.async.bulk.tensor.2d...tile::gather4 / tile::scatter4 (PTX ISA
    // 8.6) are sm_100a instructions: Hopper's TMA has no gather or scatter
    // mode (sm_100a builds them in emitMbarrierIntrinsic).
    bool gather = callee == "T.tma_gather4";
    op.emitError() << callee << " is cp.async.bulk.tensor.2d with .tile::"
                   << (gather ? "gather4" : "scatter4")
                   << ", which needs sm_100a (Blackwell); building for sm_"
                   << options.minComputeCapability
                   << archSuffix(options.minComputeCapability)
                   << ", which has no TMA " << (gather ? "gather" : "scatter")
                   << " (build with --target=cuda:sm_100a)";
    return failure();
  }
  if (callee == "T.gemm_blockscaled" || callee == "T.mma_gemm_blockscaled") {
    // C (+)= (A * SFA) @ (B * SFB) needs an instruction that applies the
    // scale factors; an unscaled MMA would compute another result.
    op.emitError() << callee
                   << " is a block-scaled GEMM, which the CUDA target does not "
                      "generate yet (SM120's mma.sync .kind::mxf4nvf4"
                      ".block_scale, or tcgen05 .block_scale with C in tensor "
                      "memory); on sm_100a, T.tcgen05_gemm_blockscaled with "
                      "the scale factors in tensor memory builds";
    return failure();
  }
  if (callee == "tlc.unknown_value") {
    op.emitError() << "this value comes from outside TileLang ("
                   << a.option("what") << "); tlc cannot generate code for it";
    return failure();
  }
  if (callee == "T.tvm_mfma") {
    op.emitError() << "'T.tvm_mfma' is an instruction of AMD CDNA's matrix "
                      "cores (MFMA, wavefronts of 64): build for hip:*";
    return failure();
  }
  if (callee == "T.ds_read_tr16_b64" || callee == "T.ds_read_tr8_b64") {
    op.emitError() << "'" << callee
                   << "' is gfx950's transposing LDS read (AMD CDNA4, "
                      "wavefronts of 64), which NVIDIA GPUs do not have: "
                      "build for hip:gfx950";
    return failure();
  }
  op.emitError() << "'" << callee
                 << "' is not supported by the " << lang.name << " target yet";
  return failure();
}
