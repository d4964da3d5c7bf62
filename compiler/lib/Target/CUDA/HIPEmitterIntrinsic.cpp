//===- HIPEmitterIntrinsic.cpp - tile.intrinsic for the HIP target --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The TileLang primitives whose HIP spelling differs from CUDA's, on a
// wavefront of 64 lanes (tlc_device/hip/warp.h, ieee.h):
//
// * Shuffles (`T.shfl_xor/up/down/sync`, `T.tvm_warp_shuffle`) read lanes
//   of the wavefront within segments of `width` lanes: the language's
//   default width is 32, so a program written for warps of 32 shuffles
//   within each half of the wavefront; width=64 spans it.
// * Lane masks name lanes as CUDA's do: 0xffffffff (the default) the 32
//   lanes of the thread's half-wavefront, all 64 bits set the wavefront.
//   Votes under a 32-bit mask (and T.ballot / T.activemask whose value is
//   32 bits) answer for the half-wavefront, as a warp of 32 would; any
//   other mask is an error (CDNA has no masked wavefront operations).
// * Block votes (`T.syncthreads_count/and/or`) through LDS;
//   `T.warp_reduce_*` over the wavefront of 64 (the hardware warp).
// * `T.sync_warp` / `tvm_storage_sync("warp")`: a wavefront fence (the
//   lanes run together).
// * Lane/warp indices default to warp_size 64.
// * `T.ieee_*` with rn, rz, ru, rd through ieee.h (CDNA rounds to nearest;
//   the other roundings are derived exactly).
// * PDL: no-ops (kernels run one after the other).
// * Reductions' butterflies (laneXor): DPP moves for lane bits 0..3 (the
//   16 lanes of a DPP row), ds_bpermute for bits 4 and 5.
// * `T.ds_read_tr16_b64` / `T.ds_read_tr8_b64`: gfx950's ds_read_b64_tr_b16
//   / _b8 (clang's __builtin_amdgcn_ds_read_tr16_b64 / tr8_b64), refused
//   for the other architectures, which do not have them.
//
// Callees that CUDA prints portably (policy annotations, loop break and
// continue, any_of/all_of, ordered atomics through the language's helper
// namespace, fast math, T.dp4a as tlc::hip::dp4a) are left to emitIntrinsic;
// every other callee is a build-time error naming it.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The first operand of \p op passed for \p param, or null.
static Value operand(IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return Value();
}

/// The constant integer of \p v, if it is one.
static std::optional<int64_t> constantOf(Value v) {
  IntegerAttr c;
  if (!v || !matchPattern(v, m_Constant(&c)))
    return std::nullopt;
  return c.getValue().getSExtValue();
}

/// Whether \p callee prints the same in HIP as in CUDA (emitIntrinsic).
static bool isPortable(StringRef callee) {
  return llvm::is_contained(
      {"T.no_set_max_nreg", "T.disable_warp_group_reg_alloc",
       "T.annotate_producer_reg_dealloc", "T.annotate_consumer_reg_alloc",
       "T.annotate_l2_hit_ratio", "T.annotate_padding",
       "T.annotate_restrict_buffers", "T.annotate_ws_schedule",
       "T.annotate_min_blocks_per_sm", "T.annotate_safe_value", "T.reads",
       "T.writes", "T.loop_break",
       // a cluster of one block: the block barrier
       // (CUDAEmitterCluster.cpp)
       "T.cluster_arrive", "T.cluster_arrive_relaxed", "T.cluster_wait",
       "T.cluster_sync", "T.rng_init", "T.rng_rand", "T.rng_rand_float",
       "T.access_ptr", "T.address_of", "T.loop_continue", "T.any_of",
       "T.all_of", "T.atomic_load", "T.atomic_store", "T.st", "T.ld",
       "T.atomic_max", "T.atomic_min", "T.atomic_or", "T.dp4a", "T.fast_rcp",
       "T.__exp", "T.__exp10", "T.__log", "T.__log2", "T.__log10", "T.__sin",
       "T.__cos", "T.__tan", "T.call_extern",
       // CUDAEmitterReducers.cpp: lane exchanges
       // through laneXor, groups of a wavefront
       "T.reducer_init", "T.reducer_update", "T.finalize_reducer",
       "tlc.unknown_value"},
      callee);
}

/// The NVIDIA hardware \p callee drives, which CDNA GPUs do not have (so
/// the HIP target refuses it for good, not "yet"); empty for any other.
static StringRef nvidiaOnlyHardware(StringRef callee) {
  if (callee.starts_with("T.tma_") || callee == "T.create_tma_descriptor")
    return "the Tensor Memory Accelerator (TMA)";
  // (The rank and the cluster barrier of a cluster of one block are the
  // block's; a cluster launch is refused at the kernel.)
  if (callee.contains("cluster") && callee != "T.block_rank_in_cluster" &&
      callee != "T.cluster_arrive" && callee != "T.cluster_arrive_relaxed" &&
      callee != "T.cluster_wait" && callee != "T.cluster_sync")
    return "thread block clusters";
  if (callee.contains("mbarrier") || callee == "T.barrier_wait" ||
      callee == "T.barrier_arrive" || callee == "T.ptx_arrive_barrier" ||
      callee == "T.ptx_init_barrier_thread_count" ||
      callee == "T.cp_async_barrier_noinc")
    return "mbarriers (transaction-counting barrier objects in shared "
           "memory)";
  if (callee.contains("wgmma") || callee.starts_with("T.warpgroup_"))
    return "Hopper's warpgroup MMA (wgmma)";
  if (callee.contains("tcgen05") || callee.contains("tmem"))
    return "Blackwell's tensor memory and tcgen05 MMA";
  if (callee == "T.mma_gemm_blockscaled" || callee == "T.gemm_blockscaled")
    return "block-scaled MMA (tcgen05 .block_scale, SM120's mma.sync "
           ".kind::mxf4nvf4.block_scale)";
  if (callee == "T.named_barrier_arrive")
    return "named barriers (bar.arrive / bar.sync with an id)";
  if (callee == "T.ptx_cp_async" || callee == "T.ptx_commit_group" ||
      callee == "T.ptx_wait_group")
    return "cp.async and its commit/wait groups";
  if (callee == "T.set_max_nreg" || callee == "T.inc_max_nreg" ||
      callee == "T.dec_max_nreg")
    return "warpgroup register reallocation (setmaxnreg)";
  if (callee == "T.fence_proxy_async")
    return "the async proxy of TMA and wgmma";
  return {};
}

/// The NVIDIA hardware an allocation of \p scope needs, or empty.
static StringRef nvidiaOnlyScope(MemoryScope scope) {
  switch (scope) {
  case MemoryScope::ClusterBarrier:
    return "thread block clusters";
  case MemoryScope::TensorMemory:
  case MemoryScope::DescriptorTcgen05Smem:
  case MemoryScope::DescriptorTcgen05Instr:
    return "Blackwell's tensor memory and tcgen05 MMA";
  case MemoryScope::DescriptorWgmma:
    return "Hopper's warpgroup MMA (wgmma)";
  default:
    return {};
  }
}

LogicalResult Emitter::checkNvidiaOnlyHardware(KernelOp kernel) {
  // T.ClusterKernel(cluster_dims=...): a cluster of one block is a block.
  if (auto dims = kernel->getAttrOfType<DenseI64ArrayAttr>("cluster_dims"))
    if (llvm::any_of(dims.asArrayRef(), [](int64_t d) { return d > 1; })) {
      kernel.emitError("a cluster launch (cluster_dims) needs thread block "
                       "clusters, which CDNA GPUs do not have: the HIP "
                       "target cannot generate it");
      return failure();
    }
  WalkResult w = kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::string what;
    StringRef hw;
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      MemoryScope scope = cast<BufferType>(alloc.getType()).getScope();
      hw = nvidiaOnlyScope(scope);
      what = ("a " + stringifyMemoryScope(scope) + " allocation").str();
    } else if (auto intrinsic = dyn_cast<IntrinsicOp>(op)) {
      hw = nvidiaOnlyHardware(intrinsic.getCallee());
      what = ("'" + intrinsic.getCallee() + "'").str();
    } else if (isa<CopyOp>(op) && op->hasAttr("tile.tma_copy")) {
      // T.tma_copy: the tile copy the CUDA and CPU targets make of it.
      hw = nvidiaOnlyHardware("T.tma_copy");
      what = "'T.tma_copy'";
    }
    if (hw.empty())
      return WalkResult::advance();
    op->emitError() << what << " needs " << hw
                    << ", which CDNA GPUs do not have: the HIP target cannot "
                       "generate it";
    return WalkResult::interrupt();
  });
  return failure(w.wasInterrupted());
}

std::optional<LogicalResult> Emitter::emitHipIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (isPortable(callee))
    return std::nullopt;
  if (callee == "T.tvm_mfma")
    return emitTvmMfma(op);
  auto fail = [&](const Twine &why) -> LogicalResult {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  auto arg = [&](StringRef param) -> std::string {
    Value v = operand(op, param);
    return v ? expr(v) : std::string();
  };
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
  // The lanes a mask names: the thread's half-wavefront (false: no mask or
  // 0xffffffff) or the whole wavefront (true: all 64 bits).
  // A constant mask the evaluator kept as an option (a decimal string).
  StringRef maskOption;
  if (DictionaryAttr d = op.getOptionsAttr())
    if (auto s = d.getAs<StringAttr>("mask"))
      maskOption = s.getValue();
  auto wholeWave = [&]() -> FailureOr<bool> {
    Value m = operand(op, "mask");
    uint64_t bits = 0;
    if (!m && !maskOption.empty() && !maskOption.getAsInteger(0, bits)) {
      if (bits == ~uint64_t(0))
        return true;
      if (bits == 0xffffffffULL)
        return false;
    } else if (!m && maskOption.empty()) {
      return false;
    }
    IntegerAttr c;
    if (m && matchPattern(m, m_Constant(&c))) {
      APInt v = c.getValue();
      if (v.getBitWidth() >= 64 && v.isAllOnes())
        return true;
      if (v.getBitWidth() <= 32 ? v.isAllOnes() : v == 0xffffffffULL)
        return false;
    }
    (void)fail("a lane mask other than every lane of the warp (0xffffffff, "
               "the thread's 32 lanes) or of the wavefront (all 64 bits) is "
               "not supported by the HIP target (CDNA has no masked "
               "wavefront operations)");
    return failure();
  };
  // Whether the value of a mask-valued result spans the wavefront.
  auto wideResult = [&]() {
    return op.getNumResults() == 1 &&
           op.getResult(0).getType().getIntOrFloatBitWidth() >= 64;
  };
  auto needsBlock = [&]() -> LogicalResult {
    if (blockReachesBarrier(op) && range.lo == 0 && range.hi == blockThreads)
      return success();
    return fail("is a barrier of the whole block, but here only some threads "
                "may reach it (inside T.Parallel or under a condition that "
                "may differ between threads)");
  };
  auto unsupported = [&]() -> LogicalResult {
    op.emitError() << "'" << callee
                   << "' is not supported by the HIP target yet";
    return failure();
  };
  const std::string ns = "tlc::hip::";

  beginOp(op, callee);

  // Launch frame: warps are wavefronts of 64 unless the program says.
  if (callee == "T.get_lane_idx" || callee == "T.get_warp_idx" ||
      callee == "T.get_warp_idx_sync" || callee == "T.get_warp_group_idx") {
    Value wsv = operand(op, "warp_size"), wpgv = operand(op, "warps_per_group");
    std::optional<int64_t> ws = wsv ? constantOf(wsv) : lang.warpSize;
    std::optional<int64_t> wpg = wpgv ? constantOf(wpgv) : 4;
    std::string w = ws ? std::to_string(*ws) : "(int)(" + expr(wsv) + ")";
    std::string g = wpg ? std::to_string(*wpg) : "(int)(" + expr(wpgv) + ")";
    std::string t = range.lo ? "(int)threadIdx.x" : "tid";
    if (callee == "T.get_lane_idx")
      return result(t + " % " + w);
    if (callee == "T.get_warp_group_idx")
      return result(t + " / (" + w + " * " + g + ")");
    return result(t + " / " + w);
  }
  if (callee == "T.block_rank_in_cluster")
    return result("0"); // no cluster launch: every block is a cluster of one
  if (callee == "T.shuffle_elect") {
    std::optional<int64_t> n = operand(op, "thread_extent")
                                   ? constantOf(operand(op, "thread_extent"))
                                   : 0;
    if (!n || *n < 0)
      return fail("needs a constant, non-negative thread extent (0: the "
                  "whole block)");
    int64_t group = (*n + 63) / 64 * 64;
    std::string t = range.lo ? "(int)threadIdx.x" : "tid";
    if (*n == 0 || group >= blockThreads)
      return result(t + " == 0");
    return result(t + " % " + std::to_string(group) + " == 0");
  }

  // Shuffles and votes over the wavefront.
  if (callee == "T.shfl_xor" || callee == "T.shfl_down" ||
      callee == "T.shfl_up" || callee == "T.shfl_sync" ||
      callee == "T.tvm_warp_shuffle") {
    if (failed(wholeWave()))
      return failure();
    int mode = llvm::StringSwitch<int>(callee)
                   .Case("T.shfl_up", 1)
                   .Case("T.shfl_down", 2)
                   .Case("T.shfl_xor", 3)
                   .Default(0);
    std::string lane = callee == "T.shfl_sync"          ? arg("srcLane")
                       : callee == "T.tvm_warp_shuffle" ? arg("warp_id")
                                                        : arg("delta");
    Value width = operand(op, "width");
    if (std::optional<int64_t> w = constantOf(width);
        w && (*w < 1 || *w > 64 || (*w & (*w - 1))))
      return fail("width " + Twine(*w) +
                  " is not a power of two of at most 64 (the wavefront)");
    std::string w = width ? "(int)(" + expr(width) + ")" : "32";
    return result(ns + "shuffle<" + std::to_string(mode) + ">(" + arg("value") +
                  ", (int)(" + lane + "), " + w + ")");
  }
  if (callee == "T.any_sync" || callee == "T.all_sync" ||
      callee == "T.ballot_sync" || callee == "T.ballot" ||
      callee == "T.activemask" || callee == "T.match_any_sync" ||
      callee == "T.match_all_sync") {
    FailureOr<bool> whole = wholeWave();
    if (failed(whole))
      return failure();
    if (callee == "T.ballot" || callee == "T.activemask")
      *whole = wideResult();
    auto lanes = [&](const std::string &mask) {
      return *whole ? mask : ns + "halfOf(" + mask + ")";
    };
    std::string pred = "(int)(" + arg("pred") + ")";
    if (callee == "T.activemask")
      return result(lanes(ns + "activeMask()"));
    if (callee == "T.match_any_sync")
      return result(lanes(ns + "matchAny(" + arg("value") + ")"));
    // __match_all_sync: the mask when every lane named holds the same
    // value (the lanes matching this one are all the active ones), else 0.
    if (callee == "T.match_all_sync") {
      Value mask = operand(op, "mask");
      std::string m = mask ? "(" + expr(mask) + ")"
                           : std::string(*whole ? "~0ull" : "0xffffffffu");
      if (!mask && !maskOption.empty() && *whole)
        m = "~0ull";
      return result("(" + lanes(ns + "matchAny(" + arg("value") + ")") +
                    " == " + lanes(ns + "activeMask()") + " ? " + m +
                    " : 0u)");
    }
    if (callee == "T.ballot_sync" || callee == "T.ballot")
      return result(lanes(ns + "ballot(" + pred + ")"));
    if (*whole)
      return result(ns + (callee == "T.any_sync" ? "waveAny(" : "waveAll(") +
                    pred + ")");
    if (callee == "T.any_sync")
      return result(lanes(ns + "ballot(" + pred + ")") + " != 0u");
    return result(lanes(ns + "ballot(" + pred + ")") +
                  " == " + lanes(ns + "activeMask()"));
  }
  if (callee.starts_with("T.warp_reduce_")) {
    int combiner = llvm::StringSwitch<int>(callee)
                       .Case("T.warp_reduce_sum", 0)
                       .Case("T.warp_reduce_max", 1)
                       .Case("T.warp_reduce_min", 2)
                       .Case("T.warp_reduce_bitand", 3)
                       .Case("T.warp_reduce_bitor", 4)
                       .Default(-1);
    if (combiner < 0)
      return fail("is not a warp reduction the HIP target knows");
    return result(ns + "waveReduce<" + std::to_string(combiner) + ">(" +
                  arg("value") + ")");
  }
  if (callee == "T.syncthreads_count" || callee == "T.syncthreads_and" ||
      callee == "T.syncthreads_or") {
    if (failed(needsBlock()))
      return failure();
    std::string fn = callee == "T.syncthreads_count" ? "syncthreadsCount"
                     : callee == "T.syncthreads_and" ? "syncthreadsAnd"
                                                     : "syncthreadsOr";
    return result(ns + fn + "((int)(" + arg("pred") + "))");
  }

  // Barriers.
  if (callee == "T.sync_grid") {
    // A cooperative launch (the manifest says so), as on CUDA.
    if (failed(needsBlock()))
      return failure();
    anyGridSync = true;
    line(ns + "syncGrid();");
    return success();
  }
  if (callee == "T.sync_warp") {
    if (failed(wholeWave()))
      return failure();
    line(ns + "syncWave();");
    return success();
  }
  if (callee == "T.tvm_storage_sync") {
    StringRef scope;
    if (DictionaryAttr d = op.getOptionsAttr())
      if (auto s = d.getAs<StringAttr>("scope"))
        scope = s.getValue();
    if (scope == "warp") {
      line(ns + "syncWave();");
      return success();
    }
    if (scope != "shared" && scope != "shared.dyn")
      return fail("synchronises scope '" + scope +
                  "'; the HIP target generates 'shared' and 'warp'");
    if (failed(needsBlock()))
      return failure();
    line("__syncthreads();");
    return success();
  }
  if (callee == "T.pdl_trigger" || callee == "T.pdl_sync") {
    line("// " + callee.str() +
         ": no code (HIP launches no dependent grid early)");
    return success();
  }

  // f32 arithmetic with a chosen rounding.
  if (callee.starts_with("T.ieee_")) {
    StringRef mode;
    if (DictionaryAttr d = op.getOptionsAttr())
      if (auto s = d.getAs<StringAttr>("rounding_mode"))
        mode = s.getValue();
    if (mode.empty())
      mode = "rn";
    std::string r = llvm::StringSwitch<std::string>(mode)
                        .Case("rn", "RN")
                        .Case("rz", "RZ")
                        .Case("ru", "RU")
                        .Case("rd", "RD")
                        .Default("");
    if (r.empty())
      return fail("rounding mode '" + mode + "' is not rn, rz, ru or rd");
    if (op.getNumResults() != 1 || !op.getResult(0).getType().isF32())
      return fail("is an f32 operation; the value is not f32");
    std::string fn = llvm::StringSwitch<std::string>(callee)
                         .Case("T.ieee_add", "add")
                         .Case("T.ieee_sub", "sub")
                         .Case("T.ieee_mul", "mul")
                         .Case("T.ieee_fdiv", "div")
                         .Case("T.ieee_fmaf", "fma")
                         .Case("T.ieee_frcp", "rcp")
                         .Case("T.ieee_fsqrt", "sqrt")
                         .Case("T.ieee_frsqrt", "rsqrt")
                         .Default("");
    if (fn.empty())
      return fail("is not an IEEE operation the HIP target knows");
    std::string args = arg("x");
    for (StringRef p : {"y", "z"})
      if (operand(op, p))
        args += ", " + arg(p);
    if (fn != "rsqrt")
      args += ", " + ns + "ieee::" + r;
    return result(ns + "ieee::" + fn + "(" + args + ")");
  }

  // gfx950's transposing LDS reads: the lane's 8 bytes at src, then the
  // exchange within each 16 lanes (tlc_device/hip/memory.h). The vector
  // scalarizer keeps each read one value of 64 bits.
  if (callee == "T.ds_read_tr16_b64" || callee == "T.ds_read_tr8_b64") {
    const bool b16 = callee == "T.ds_read_tr16_b64";
    const char *instr = b16 ? "ds_read_b64_tr_b16" : "ds_read_b64_tr_b8";
    if (options.amdArch != "gfx950")
      return fail(Twine("is gfx950's ") + instr + ", which " + options.amdArch +
                  " does not have (clang's __builtin_amdgcn_ds_read_tr" +
                  (b16 ? "16_b64" : "8_b64") +
                  " needs gfx950): build for hip:gfx950 only");
    if (op.getNumResults() != 1 || !op.getResult(0).getType().isInteger(64))
      return fail("its uint32x2 value is used as a whole vector; the HIP "
                  "target takes its words (v[0], v[1], T.reinterpret) apart");
    // The ISA executes it with every lane of the wavefront (EXEC all ones).
    if (blockThreads % 64 != 0 || range.lo % 64 != 0 || range.hi % 64 != 0)
      return fail("is executed by whole wavefronts of 64 lanes, but here " +
                  (blockThreads % 64 != 0
                       ? "the block's " + Twine(blockThreads) +
                             " threads are not a multiple of 64"
                       : "threads " + Twine(range.lo) + " .. " +
                             Twine(range.hi - 1) +
                             " are not whole wavefronts"));
    Value src = operand(op, "src");
    auto type = src ? dyn_cast<BufferType>(src.getType()) : BufferType();
    if (!type || !isSharedScope(scopeOf(rootOf(src))))
      return fail("reads LDS: src must be an element of a shared buffer");
    SmallVector<std::string> idx(std::max<unsigned>(type.getRank(), 1), "0");
    FailureOr<std::pair<std::string, std::string>> el =
        guardedElement(src, idx, op);
    if (failed(el))
      return failure();
    return result(ns + (b16 ? "readTransposed64B16" : "readTransposed64B8") +
                  "(&" + el->first + ")");
  }
  return unsupported();
}

std::string Emitter::laneXor(const std::string &v, unsigned bit,
                             int64_t reduced) {
  if (!lang.isHip() || bit >= 4)
    return ns + "shuffleXor(" + v + ", " + std::to_string(1 << bit) + ")";
  // DPP rows hold 16 lanes. Bits below `bit` all reduced already: the
  // value is equal over them, so a mirror reaches the partner group.
  int64_t below = (int64_t(1) << bit) - 1;
  bool mirrored = (reduced & below) == below;
  return ns + "dppXor<" + std::to_string(1 << bit) + ", " +
         (mirrored ? "true" : "false") + ">(" + v + ")";
}
