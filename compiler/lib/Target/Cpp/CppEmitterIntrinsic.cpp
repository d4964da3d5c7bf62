//===- CppEmitterIntrinsic.cpp - tile.intrinsic on the CPU target ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The TileLang primitives that are one GPU instruction each, as the CPU
// reference target computes them: hints that only steer GPU registers,
// caches or schedules (no code), fences and completions that program order
// already gives, `any_of`/`all_of` over a bool region, `dp4a`, and atomics
// with an order (compare-and-swap on the storage bits, since blocks run on
// several host threads). Warp, vote and launch-frame primitives are per
// thread: CppEmitterThreads.cpp.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "tlc/Dialect/Tile/IR/BoundsGuards.h"
#include "tlc/Target/FloatLiteral.h"

#include "tlc/Dialect/Tile/IR/SafeValues.h"

#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

/// Primitives that only order or tune GPU execution: register-allocation
/// hints, programmatic dependent launch, wgmma/TMA-store completion,
/// cp.async groups (the copies are synchronous here), wgmma operand fences
/// and async-proxy fences. A CPU block runs its statements in program order on
/// one executor, every memory operation completes before the next starts,
/// and kernels run one after the other, so each of them is already
/// satisfied there. T.deallocate_tmem: a CPU block's tensor memory is its
/// own memory, released when the block ends.
static bool isCpuNoOpIntrinsic(StringRef callee) {
  return llvm::is_contained({"T.set_max_nreg",
                             "T.no_set_max_nreg",
                             "T.inc_max_nreg",
                             "T.dec_max_nreg",
                             "T.disable_warp_group_reg_alloc",
                             "T.pdl_trigger",
                             "T.pdl_sync",
                             "T.warpgroup_arrive",
                             "T.warpgroup_commit_batch",
                             "T.warpgroup_wait",
                             "T.wait_wgmma",
                             "T.tma_store_arrive",
                             "T.tma_store_wait",
                             "T.fence_proxy_async",
                             "T.ptx_commit_group",
                             "T.ptx_wait_group",
                             "T.warpgroup_fence_operand",
                             "T.tcgen05_before_thread_sync",
                             "T.tcgen05_after_thread_sync",
                             "T.deallocate_tmem"},
                            callee);
}

/// Annotations: facts for a GPU code generator (cache, padding, register
/// and occupancy policy, values safe to read out of bounds) and a
/// T.sblock's read / write regions (T.reads / T.writes, block annotations
/// in TileLang) that change no value.
static bool isAnnotation(StringRef callee) {
  return llvm::is_contained(
      {"T.reads", "T.writes", "T.annotate_producer_reg_dealloc",
       "T.annotate_consumer_reg_alloc", "T.annotate_l2_hit_ratio",
       "T.annotate_padding", "T.annotate_restrict_buffers",
       "T.annotate_ws_schedule", "T.annotate_min_blocks_per_sm",
       "T.annotate_safe_value"},
      callee);
}

Value tlc::target::detail::intrinsicArg(tile::IntrinsicOp op,
                                        StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

/// The string option \p name of \p op ("" when absent).
static StringRef optionOf(tile::IntrinsicOp op, StringRef name) {
  if (DictionaryAttr d = op.getOptionsAttr())
    if (auto s = d.getAs<StringAttr>(name))
      return s.getValue();
  return "";
}

LogicalResult Emitter::collectSafeValues(tile::KernelOp kernel) {
  safeValues.clear();
  paddedReads.clear();
  // The map's one parser (tlc/Dialect/Tile/IR/SafeValues.h).
  FailureOr<llvm::DenseMap<Value, double>> values =
      tile::collectSafeValues(kernel, func);
  if (failed(values))
    return failure();
  FailureOr<llvm::DenseMap<Operation *, double>> padded =
      tile::collectPaddedReads(kernel);
  if (failed(padded))
    return failure();
  paddedReads = std::move(*padded);
  for (auto [arg, value] : *values) {
    auto t = cast<tile::BufferType>(arg.getType());
    auto st = storageType(t.getElementType(), kernel);
    if (failed(st))
      return failure();
    // A double literal: `-0` would be the integer zero and lose the sign.
    safeValues[arg] = "tlc::cpu::cast<" + *st + ">(" +
                      target::floatLiteral(value, /*isDouble=*/true,
                                           target::FloatSpelling::Host) +
                      ")";
  }
  return success();
}

LogicalResult Emitter::emitIntrinsic(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (std::optional<LogicalResult> r = emitLoopExit(op))
    return *r;
  if (threaded)
    if (std::optional<LogicalResult> r = emitThreadIntrinsic(op))
      return *r;
  if (std::optional<LogicalResult> r = emitMbarrierIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitRngIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitReducerIntrinsic(op))
    return *r;
  if (std::optional<LogicalResult> r = emitBlockScaledIntrinsic(op))
    return *r;
  if (isCpuNoOpIntrinsic(callee) && op->getNumResults() == 0) {
    comment(op, (callee + "(): no-op on the CPU (one executor per block, "
                          "memory operations complete in program order)")
                    .str());
    return success();
  }
  if (isAnnotation(callee) && op->getNumResults() == 0) {
    comment(op, (callee + (callee == "T.annotate_safe_value"
                               ? "(): guarded reads of the tensors named give "
                                 "their value out of range"
                           : callee == "T.reads" || callee == "T.writes"
                               ? "(): the block's regions, an annotation with "
                                 "no code"
                               : "(): a GPU code-generation hint; no code"))
                    .str());
    return success();
  }
  auto fail = [&](const Twine &why) {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  auto bufferArg = [&](StringRef param) -> tile::BufferType {
    Value v = intrinsicArg(op, param);
    return v ? dyn_cast<tile::BufferType>(v.getType()) : tile::BufferType();
  };
  // The element at index 0 of every dimension of a one-element region.
  auto firstElement = [](tile::BufferType t) {
    return std::vector<std::string>(std::max<int64_t>(t.getRank(), 1), "0");
  };

  if (callee == "T.cast_rs") {
    // T.cast(..., round="rs"): tlc::cpu's reference of the stochastic
    // rounding rule (floatToBitsStochastic) for each of cvt.rs's formats.
    if (op->getNumResults() != 1)
      return fail("needs a result");
    Type t = op.getResult(0).getType();
    auto rt = valueType(t, op);
    if (failed(rt))
      return failure();
    std::string fn =
        t.isF16()                  ? "tlc::cpu::floatToHalfBitsStochastic"
        : t.isBF16()               ? "tlc::cpu::floatToBFloat16BitsStochastic"
        : isa<Float4E2M1FNType>(t) ? "tlc::cpu::floatToE2M1BitsStochastic"
        : isa<Float8E4M3FNType>(t) ? "tlc::cpu::floatToE4M3BitsStochastic"
                                   : "tlc::cpu::floatToE5M2BitsStochastic";
    line("const " + *rt + " " + define(op.getResult(0), "rs") + " = " + *rt +
         "::fromBits(" + fn + "(" + expr(intrinsicArg(op, "value")) +
         ", uint32_t(" + expr(intrinsicArg(op, "rbits")) + ")));");
    return success();
  }
  if (callee == "T.tvm_storage_sync" && !threaded && isLoopBarrier(op)) {
    // Raw TIR's __syncthreads (threaded kernels: CppEmitterThreads.cpp).
    // In a T.Parallel only straight in its body, where emitParallel runs
    // the stretches around it as loops of their own.
    auto loop = op->getParentOfType<tile::ParallelOp>();
    if (loop && op->getParentOp() != loop.getOperation())
      return fail("is a barrier of the whole block, but here only some "
                  "elements of a T.Parallel may reach it");
    comment(op, "T.tvm_storage_sync: no-op, one executor per block");
    return success();
  }
  if (isClusterIntrinsic(callee)) {
    // Clusters (tlc::cpu::launchClusters): the rank, or the cluster
    // barrier's arrive / wait for the block (one executor: one arrival).
    if (callee == "T.block_rank_in_cluster") {
      if (op->getNumResults() != 1)
        return fail("needs a result");
      auto rt = valueType(op.getResult(0).getType(), op);
      if (failed(rt))
        return failure();
      line("const " + *rt + " " + define(op.getResult(0), "rank") + " = " +
           *rt + "(tlc::cpu::currentCluster().rank);");
      return success();
    }
    bool arrive = callee != "T.cluster_wait";
    bool wait = callee == "T.cluster_wait" || callee == "T.cluster_sync";
    line(std::string("tlc::cpu::clusterBarrier(st, ") +
         locLiteral(op.getLoc()) + ", " + (arrive ? "true" : "false") +
         ", " + (wait ? "true" : "false") + ");");
    return success();
  }
  if (callee == "T.copy_cluster")
    return emitCopyCluster(op);
  if (callee == "T.sync_grid" && !threaded) {
    // The kernel runs as a cooperative launch (emitKernel).
    line("tlc::cpu::syncGrid(st, " + locLiteral(op.getLoc()) + ");");
    return success();
  }
  if (callee == "T.any_of" || callee == "T.all_of") {
    Value buf = intrinsicArg(op, "buffer");
    tile::BufferType t = bufferArg("buffer");
    if (!t || op->getNumResults() != 1)
      return fail("needs a bool buffer or region and a result");
    bool any = callee == "T.any_of";
    std::vector<std::string> extents;
    for (unsigned d = 0; d < t.getRank(); ++d) {
      FailureOr<std::string> e = extent(t, d, op);
      if (failed(e))
        return failure();
      extents.push_back(*e);
    }
    auto rt = valueType(op.getResult(0).getType(), op);
    if (failed(rt))
      return failure();
    std::string acc = fresh(any ? "any" : "all");
    comment(op, callee.str());
    line("bool " + acc + " = " + (any ? "false" : "true") + ";");
    std::vector<std::string> vars = openLoops(extents, "e");
    if (vars.empty())
      vars.push_back("0");
    std::string v = "bool(" + loadExpr(buf, vars, op, guardOf(buf)) + ")";
    line(acc + (any ? " = " + acc + " || " : " = " + acc + " && ") + v + ";");
    closeLoops(extents.size());
    line("const " + *rt + " " + define(op.getResult(0), any ? "any" : "all") +
         " = tlc::cpu::cast<" + *rt + ">(" + acc + ");");
    return success();
  }

  if (callee == "T.dp4a") {
    // C += dot(A[0..3], B[0..3]): four 8-bit integers from each element on
    // along the last dimension (dp4a.s32.s32 / dp4a.u32.u32, PTX ISA; the
    // sum wraps modulo 2^32).
    tile::BufferType at = bufferArg("A"), bt = bufferArg("B"),
                     ct = bufferArg("C");
    if (!at || !bt || !ct)
      return fail("needs buffer elements A, B (four 8-bit integers from "
                  "each) and C (the 32-bit accumulator)");
    auto ai = dyn_cast<IntegerType>(at.getElementType());
    auto bi = dyn_cast<IntegerType>(bt.getElementType());
    auto ci = dyn_cast<IntegerType>(ct.getElementType());
    if (!ai || !bi || !ci || ai.getWidth() != 8 || bi.getWidth() != 8 ||
        ci.getWidth() != 32 || ai.isUnsigned() != bi.isUnsigned() ||
        ai.isUnsigned() != ci.isUnsigned())
      return fail("needs A and B of int8 (or both uint8) and C of int32 (or "
                  "uint32)");
    // Element k after the one passed: the same position of the region's
    // source, k further along its last dimension.
    auto byteAt = [&](Value v, int k) {
      std::vector<std::string> idx;
      Value src = v;
      if (auto r = v.getDefiningOp<tile::RegionOp>()) {
        src = r.getSource();
        for (OpFoldResult o : r.getMixedOffsets())
          idx.push_back(foldResult(o));
      } else {
        idx = firstElement(cast<tile::BufferType>(v.getType()));
      }
      if (idx.empty())
        idx.push_back("0");
      idx.back() = "(" + idx.back() + " + " + std::to_string(k) + ")";
      return "int64_t(" + loadExpr(src, idx, op, guardOf(src)) + ")";
    };
    Value av = intrinsicArg(op, "A"), bv = intrinsicArg(op, "B"), cv = intrinsicArg(op, "C");
    std::string wide = ai.isUnsigned() ? "uint64_t" : "int64_t";
    std::string dot =
        wide + "(" + loadExpr(cv, firstElement(ct), op, guardOf(cv)) + ")";
    for (int k = 0; k < 4; ++k)
      dot += " + " + wide + "(" + byteAt(av, k) + " * " + byteAt(bv, k) + ")";
    auto st = storageType(ct.getElementType(), op);
    if (failed(st))
      return failure();
    comment(op, "T.dp4a");
    line(storeStmt(cv, firstElement(ct),
                   *st + "(uint32_t(uint64_t(" + dot + ")))", op, guardOf(cv)));
    return success();
  }

  if (callee == "T.ld") {
    // Scope and semantics order the load against other GPU threads; one
    // CPU executor per block sees memory in program order, so the load is
    // a plain read into the variable.
    tile::BufferType st = bufferArg("src"), dt = bufferArg("dst");
    if (!st || !dt)
      return fail("loads a buffer element into a variable or element");
    Value src = intrinsicArg(op, "src"), dst = intrinsicArg(op, "dst");
    auto vt = valueType(dt.getElementType(), op);
    auto dst_st = storageType(dt.getElementType(), op);
    if (failed(vt) || failed(dst_st))
      return failure();
    std::string v = "tlc::cpu::cast<" + *vt + ">(" +
                    loadExpr(src, firstElement(st), op, guardOf(src)) + ")";
    line(storeStmt(dst, firstElement(dt),
                   "tlc::cpu::cast<" + *dst_st + ">(" + v + ")", op,
                   guardOf(dst)));
    return success();
  }
  if (callee == "T.atomic_load" || callee == "T.atomic_store" ||
      callee == "T.atomic_max" || callee == "T.atomic_min" ||
      callee == "T.atomic_or" || callee == "T.st") {
    // The memory order (T.st's scope and semantics) only constrains other
    // threads' views on the GPU; here each update is one compare-and-swap.
    StringRef order = optionOf(op, "memory_order");
    if (!order.empty() && !llvm::is_contained({"relaxed", "consume", "acquire",
                                               "release", "acq_rel", "seq_cst"},
                                              order))
      return fail("memory order '" + order +
                  "' is not one of relaxed, consume, acquire, release, "
                  "acq_rel, seq_cst");
    bool load = callee == "T.atomic_load";
    StringRef param = load ? "src" : "dst";
    Value buf = intrinsicArg(op, param);
    tile::BufferType t = bufferArg(param);
    if (!t)
      return fail("needs a buffer element");
    Type elem = t.getElementType();
    if (callee == "T.atomic_or" && !isa<IntegerType>(elem))
      return fail("needs an integer element type");
    auto st = storageType(elem, op);
    auto vt = valueType(elem, op);
    if (failed(st) || failed(vt))
      return failure();
    std::string update;
    if (load) {
      update = "return o;";
    } else {
      Value value = intrinsicArg(op, callee == "T.atomic_store" ? "src" : "value");
      if (!value || isa<tile::BufferType>(value.getType()))
        return fail("needs a scalar value");
      std::string nv = "tlc::cpu::cast<" + *vt + ">(" + expr(value) + ")";
      std::string ov = "tlc::cpu::cast<" + *vt + ">(o)";
      std::string e =
          callee == "T.atomic_store" || callee == "T.st" ? nv
          : callee == "T.atomic_max"
              ? "(" + nv + " > " + ov + " ? " + nv + " : " + ov + ")"
          : callee == "T.atomic_min"
              ? "(" + nv + " < " + ov + " ? " + nv + " : " + ov + ")"
              : "(" + ov + " | " + nv + ")";
      update = "return tlc::cpu::cast<" + *st + ">(" + e + ");";
    }
    std::vector<std::string> idx = firstElement(t);
    std::string list = "{" + llvm::join(idx, ", ") + "}";
    std::string fn = "[&](" + *st + " o) { " + update + " }";
    std::string call = guardOf(buf) == Guard::Global
                           ? "tlc::cpu::atomicUpdateGuarded(" + expr(buf) +
                                 ", " + list + ", " + fn + ")"
                           : "tlc::cpu::atomicUpdateChecked(st, " +
                                 locLiteral(op.getLoc()) + ", " + expr(buf) +
                                 ", " + list + ", " + fn + ")";
    comment(op, callee.str());
    if (op->getNumResults() == 0) {
      line(call + ";");
      return success();
    }
    auto rt = valueType(op.getResult(0).getType(), op);
    if (failed(rt))
      return failure();
    line("const " + *rt + " " + define(op.getResult(0), "prev") +
         " = tlc::cpu::cast<" + *rt + ">(" + call + ");");
    return success();
  }

  // Math with explicit precision or rounding: the CPU computes the exact
  // IEEE result (the fast approximations' error bounds include it).
  auto f32Result = [&](const std::string &e) -> LogicalResult {
    if (op->getNumResults() != 1 || !op.getResult(0).getType().isF32())
      return fail("is an f32 operation; the value is not f32");
    line("const float " + define(op.getResult(0), "r") + " = " + e + ";");
    return success();
  };
  auto f32Arg = [&](StringRef param) {
    Value v = intrinsicArg(op, param);
    return v ? "float(" + expr(v) + ")" : std::string();
  };
  if (callee.starts_with("T.__") || callee == "T.fast_rcp") {
    std::string fn = llvm::StringSwitch<std::string>(callee)
                         .Case("T.__exp", "std::exp")
                         .Case("T.__exp10", "exp10f")
                         .Case("T.__log", "std::log")
                         .Case("T.__log2", "std::log2")
                         .Case("T.__log10", "std::log10")
                         .Case("T.__sin", "std::sin")
                         .Case("T.__cos", "std::cos")
                         .Case("T.__tan", "std::tan")
                         .Default("");
    if (callee == "T.fast_rcp")
      return f32Result("1.0f / " + f32Arg("x"));
    if (fn.empty())
      return fail("is not a fast-math function the CPU target knows");
    return f32Result(fn + "(" + f32Arg("x") + ")");
  }
  if (callee == "T.fma" || callee == "T.fmul") {
    // One rounding to nearest (this target builds with -ffp-contract=off,
    // so a product is never fused).
    bool fma = callee == "T.fma";
    if (op->getNumResults() != 1)
      return fail("needs one result");
    Type t = op.getResult(0).getType();
    bool f16 = t.isF16() || t.isBF16();
    if (!t.isF32() && !t.isF64() && !f16)
      return fail("needs f16, bf16, f32 or f64 operands");
    auto rt = valueType(t, op);
    if (failed(rt))
      return failure();
    std::string c = t.isF64() ? "double(" : "float(";
    auto opnd = [&](StringRef p) {
      return c + expr(intrinsicArg(op, p)) + ")";
    };
    std::string x = opnd("x"), y = opnd("y"), z = fma ? opnd("z") : "";
    std::string e;
    if (f16)
      // Rounded to odd into a float, then once to the 16-bit format.
      e = "tlc::cpu::cast<" + *rt + ">(" +
          (fma ? "tlc::cpu::fmaToOdd(" + x + ", " + y + ", " + z + ")"
               : "tlc::cpu::mulToOdd(" + x + ", " + y + ")") +
          ")";
    else
      e = fma ? "std::fma(" + x + ", " + y + ", " + z + ")" : x + " * " + y;
    line("const " + *rt + " " + define(op.getResult(0), "r") + " = " + e +
         ";");
    return success();
  }
  if (callee.starts_with("T.ieee_")) {
    StringRef mode = optionOf(op, "rounding_mode");
    std::string m = llvm::StringSwitch<std::string>(mode.empty() ? "rn" : mode)
                        .Case("rn", "Nearest")
                        .Case("rz", "TowardZero")
                        .Case("ru", "Up")
                        .Case("rd", "Down")
                        .Default("");
    if (m.empty())
      return fail("rounding mode '" + mode + "' is not rn, rz, ru or rd");
    m = "tlc::cpu::Rounding::" + m;
    std::string x = f32Arg("x"), y = f32Arg("y"), z = f32Arg("z");
    if (callee == "T.ieee_add" || callee == "T.ieee_sub" ||
        callee == "T.ieee_mul" || callee == "T.ieee_fdiv") {
      std::string fn = llvm::StringSwitch<std::string>(callee)
                           .Case("T.ieee_add", "ieeeAdd")
                           .Case("T.ieee_sub", "ieeeSub")
                           .Case("T.ieee_mul", "ieeeMul")
                           .Default("ieeeDiv");
      return f32Result("tlc::cpu::" + fn + "(" + x + ", " + y + ", " + m + ")");
    }
    if (callee == "T.ieee_fmaf")
      return f32Result("tlc::cpu::ieeeFma(" + x + ", " + y + ", " + z + ", " +
                       m + ")");
    if (callee == "T.ieee_frcp")
      return f32Result("tlc::cpu::ieeeRcp(" + x + ", " + m + ")");
    if (callee == "T.ieee_fsqrt")
      return f32Result("tlc::cpu::ieeeSqrt(" + x + ", " + m + ")");
    if (callee == "T.ieee_frsqrt")
      return f32Result("float(1.0 / std::sqrt(double(" + x + ")))");
    return fail("is not an IEEE operation the CPU target knows");
  }

  if (callee == "T.address_of") {
    // A pointer to the element's storage (T.call_extern's argument to the
    // program's imported functions), valid while its buffer lives.
    Value buf = intrinsicArg(op, "buffer_load");
    tile::BufferType t = bufferArg("buffer_load");
    if (!t || op->getNumResults() != 1)
      return fail("needs a buffer element");
    std::string at = "{" + llvm::join(firstElement(t), ", ") + "}";
    // A global element may lie outside its tensor: the T.call_extern
    // statements it is passed to are skipped there (addressInBounds), as
    // TileLang's LegalizeSafeMemoryAccess guards them; any other use fails
    // the program there.
    if (guardOf(buf) == Guard::Global &&
        !llvm::all_of(op->getUsers(), tile::isExternCallStatement)) {
      open("if (!" + expr(buf) + ".inBounds(" + at + "))");
      line("st.fail(" + locLiteral(op->getLoc()) +
           ", \"T.address_of of an element outside its tensor\");");
      line(returnStmt());
      close();
    }
    line("auto *const " + define(op.getResult(0), "addr") + " = &" + expr(buf) +
         ".at(" + at + ");");
    return success();
  }
  if (callee == "T.access_ptr") {
    // TVM's tvm_access_ptr: a pointer to the first element of the region
    // (plus `offset` elements), into the buffer's own storage.
    Value base = intrinsicArg(op, "base");
    auto bt = base ? dyn_cast<tile::BufferType>(base.getType())
                   : tile::BufferType();
    if (!bt)
      return op.emitError() << callee
                            << ": needs a buffer, a region or an element of one";
    std::vector<std::string> zeros(bt.getRank(), "0");
    std::string p =
        "&" + expr(base) + ".at({" + llvm::join(zeros, ", ") + "})";
    if (Value off = intrinsicArg(op, "offset"))
      p = "(" + p + ") + (" + expr(off) + ")";
    line("auto *const " + define(op.getResult(0), "ptr") + " = " + p + ";");
    return success();
  }
  if (callee == "T.ptx_cp_async") {
    // T.ptx_cp_async(dst, src, bytes): cp.async of `bytes` from global to
    // shared memory. Memory operations complete in order here, so the
    // copy is done when it is issued (its commit and wait groups are no
    // operations, isCpuNoOpIntrinsic).
    SmallVector<Value> args(op.getArgs());
    IntegerAttr bytes;
    if (args.size() != 3 || !matchPattern(args[2], m_Constant(&bytes)))
      return op.emitError() << callee
                            << ": needs (dst, src, bytes) with a constant "
                               "byte count";
    int64_t n = bytes.getValue().getSExtValue();
    if (n != 4 && n != 8 && n != 16)
      return op.emitError() << callee << ": copies 4, 8 or 16 bytes, not " << n;
    line("std::memcpy((void *)(" + expr(args[0]) + "), (const void *)(" +
         expr(args[1]) + "), " + std::to_string(n) + ");");
    return success();
  }
  if (callee == "T.call_extern") {
    // A function of the program's imported source, built for the CPU
    // (importedSourceText), or of the C++ library, called by name.
    std::string args;
    for (Value v : op.getArgs())
      args += (args.empty() ? "" : ", ") + expr(v);
    std::string call = optionOf(op, "func_name").str() + "(" + args + ")";
    // A call made for its effect (as TIR evaluates a statement): the
    // function may return void. It runs only where the global elements
    // whose addresses it is passed lie inside their tensors.
    if (op->getNumResults() == 0 || op.getResult(0).use_empty()) {
      std::string guard;
      for (Value v : op.getArgs())
        if (auto addr = v.getDefiningOp<tile::IntrinsicOp>();
            addr && addr.getCallee() == "T.address_of" &&
            !addr.getArgs().empty()) {
          Value buf = addr.getArgs().front();
          auto bt = dyn_cast<tile::BufferType>(buf.getType());
          if (bt && guardOf(buf) == Guard::Global)
            guard += (guard.empty() ? "" : " && ") + expr(buf) + ".inBounds({" +
                     llvm::join(firstElement(bt), ", ") + "})";
        }
      line((guard.empty() ? "" : "if (" + guard + ") ") + call + ";");
      return success();
    }
    auto rt = valueType(op.getResult(0).getType(), op);
    if (failed(rt))
      return failure();
    line("const " + *rt + " " + define(op.getResult(0), "r") + " = (" + *rt +
         ")(" + call + ");");
    return success();
  }
  if (callee == "T.tvm_mfma")
    return op.emitError() << "the CPU target cannot emit T.tvm_mfma, an "
                             "instruction of AMD CDNA's matrix cores (MFMA): "
                             "build for hip:*";
  if (callee == "T.gemm_blockscaled" || callee == "T.mma_gemm_blockscaled")
    return op.emitError() << "the CPU target cannot emit " << callee
                          << " yet: it has no model of the block-scaled "
                             "GEMM's scale-factor layouts (T.tcgen05_gemm_"
                             "blockscaled with its tensor-memory scale "
                             "factors builds)";
  return op.emitError() << "the CPU target cannot emit " << callee;
}
