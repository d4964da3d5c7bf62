//===- CUDAEmitterReducers.cpp - T.alloc_reducer on CUDA and HIP ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TileLang's reducers (`T.alloc_reducer(shape, dtype, op=...)`), whose
// logical value is the initial value combined once with every contribution
// made to it. Each thread holds the whole buffer (a `local.reducer`
// allocation is a per-thread array, replication "all"), accumulates the
// contributions of the T.Parallel iterations it runs in it (one replica of
// a replicated loop layout only: replicaGuard), and T.finalize_reducer
// combines the threads' arrays element by element, leaving the result in
// every thread's array.
//
// * `T.reducer_init(r, init=None)`: the op's identity in every thread; the
//   initial value, when given, in thread 0 for sum and bitxor (combined
//   once) and in every thread for the idempotent max, min, bitand, bitor.
// * `T.reducer_update(r[idx], value)`: r[idx] = op(r[idx], value), in the
//   reduction type (unsigned integers compare as unsigned).
// * `T.finalize_reducer(r, dst=None)`: the block is split into groups of
//   G threads, G the largest power of two that divides the block and is
//   at most a warp (CUDA, 32) or wavefront (HIP, 64); a butterfly of lane
//   exchanges (laneXor: shuffles, DPP moves within HIP's rows of 16) gives
//   every lane its group's totals; lane 0 of each group then publishes
//   them in the shared scratch area, G elements at a time, and every
//   thread folds the groups' totals in the same order. Any thread count
//   works (96 threads: 3 groups of 32; 75: 75 groups of 1); a CUDA block
//   whose last warp is partial shuffles under the mask of its lanes. With
//   `dst` (a whole fragment of the reducer's shape) each fragment slot
//   then takes its element.
// * The older form, T.clear then `r[i] += v`, uses ordinary per-thread
//   loads and stores; TileLang requires a sum reducer to be filled with 0
//   (T.fill writes every thread's copy; the front end rejects any other
//   value, KernelOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The operand of \p op passed for \p param, or null.
static Value reducerArg(IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

/// The reducer op named by the T.alloc_reducer of \p root ("sum" if none).
static StringRef reducerKind(Value root) {
  if (Operation *def = root.getDefiningOp())
    if (auto kind = def->getAttrOfType<StringAttr>("reducer"))
      return kind.getValue();
  return "sum";
}

/// The threads of a block of \p blockThreads whose replicas a butterfly
/// of lane exchanges combines: the largest power of two dividing the block
/// and at most a warp (wavefront) of \p warpSize, so that every group of
/// them is whole (a block of 96 threads: groups of 32).
static int64_t butterflyGroup(int64_t blockThreads, int64_t warpSize) {
  return std::min<int64_t>(warpSize, blockThreads & -blockThreads);
}

int64_t Emitter::finalizeScratchBytes(Operation *op) {
  auto in = dyn_cast<IntrinsicOp>(op);
  if (in == nullptr || in.getCallee() != "T.finalize_reducer" ||
      blockThreads <= 0)
    return 0;
  // The groups' totals of up to one group's worth of elements at a time:
  // one value (at most 8 bytes) per thread of the block; none when one
  // group spans the block.
  if (butterflyGroup(blockThreads, lang.warpSize) == blockThreads)
    return 0;
  return 8 * blockThreads;
}

/// The C++ literal of \p kind's identity for values of type \p elem
/// (narrow floats are computed as float), or "" if it has none.
static std::string reducerIdentity(StringRef kind, Type elem) {
  if (kind == "sum" || kind == "bitor" || kind == "bitxor")
    return "0";
  if (auto ft = dyn_cast<FloatType>(elem)) {
    if (kind != "max" && kind != "min")
      return "";
    bool neg = kind == "max";
    if (ft.isF64())
      return neg ? "__longlong_as_double(0xfff0000000000000ll)"
                 : "__longlong_as_double(0x7ff0000000000000ll)";
    return neg ? "__int_as_float(0xff800000)" : "__int_as_float(0x7f800000)";
  }
  auto it = dyn_cast<IntegerType>(elem);
  if (!it)
    return "";
  unsigned w = it.getWidth();
  if (kind == "bitand")
    return "(~0ll)";
  if (kind != "max" && kind != "min")
    return "";
  bool isUnsigned = it.isUnsigned();
  llvm::APInt v = kind == "max"
                      ? (isUnsigned ? llvm::APInt::getMinValue(w)
                                    : llvm::APInt::getSignedMinValue(w))
                      : (isUnsigned ? llvm::APInt::getMaxValue(w)
                                    : llvm::APInt::getSignedMaxValue(w));
  if (!isUnsigned && v.isMinSignedValue() && w == 64)
    return "(-9223372036854775807ll - 1)";
  return isUnsigned ? std::to_string(v.getZExtValue()) + "ull"
                    : std::to_string(v.getSExtValue()) + "ll";
}

/// \p a combined with \p b by \p kind in the C++ type \p vt (the
/// reduction type: floats through fmaxf / fmax, which both languages
/// spell alike); "" for an unknown op.
static std::string combineExpr(StringRef kind, StringRef vt,
                               const std::string &a, const std::string &b) {
  bool isFloat = vt == "float" || vt == "double";
  std::string f = vt == "double" ? "" : "f";
  std::string c =
      llvm::StringSwitch<std::string>(kind)
          .Case("sum", a + " + " + b)
          .Case("max", isFloat ? "fmax" + f + "(" + a + ", " + b + ")"
                               : "max(" + a + ", " + b + ")")
          .Case("min", isFloat ? "fmin" + f + "(" + a + ", " + b + ")"
                               : "min(" + a + ", " + b + ")")
          .Case("bitand", a + " & " + b)
          .Case("bitor", a + " | " + b)
          .Case("bitxor", a + " ^ " + b)
          .Default("");
  return c.empty() ? c : "(" + vt.str() + ")(" + c + ")";
}

std::optional<LogicalResult> Emitter::emitReducerIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (callee != "T.reducer_init" && callee != "T.reducer_update" &&
      callee != "T.finalize_reducer")
    return std::nullopt;
  auto fail = [&](const Twine &why) -> LogicalResult {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  Value r = reducerArg(op, callee == "T.reducer_update" ? "target" : "reducer");
  if (!r || !isa<BufferType>(r.getType()))
    return fail("needs a T.alloc_reducer buffer");
  Value root = rootOf(r);
  auto type = cast<BufferType>(root.getType());
  if (type.getScope() != MemoryScope::Reducer)
    return fail("needs a T.alloc_reducer buffer");
  if (!type.isStatic())
    return fail("needs a reducer of static shape");
  Type elem = type.getElementType();
  // Unsigned integers combine as themselves (max of 0xffffffff).
  FailureOr<std::string> vt = reductionType(elem, op);
  if (failed(vt))
    return failure();
  StringRef kind = reducerKind(root);
  if (combineExpr(kind, *vt, "a", "b").empty())
    return fail("unknown reducer op '" + kind + "'");
  int64_t n = 1;
  for (int64_t e : type.getShape())
    n *= e;
  std::string name = expr(root);
  std::string k = fresh("e");

  if (callee == "T.reducer_init") {
    std::string identity = reducerIdentity(kind, elem);
    if (identity.empty())
      return fail("a '" + kind + "' reducer of " +
                  (isa<FloatType>(elem) ? "floats" : "this type") +
                  " has no identity");
    std::string id = "(" + *vt + ")(" + identity + ")", value = id;
    if (Value init = reducerArg(op, "init")) {
      std::string v = "(" + *vt + ")(" + expr(init) + ")";
      // Combined once: sum and bitxor count the value in thread 0 only.
      value = (kind == "sum" || kind == "bitxor")
                  ? "(threadIdx.x == 0 ? " + v + " : " + id + ")"
                  : v;
    }
    line("#pragma unroll");
    line("for (int " + k + " = 0; " + k + " < " + Twine(n) + "; ++" + k + ") " +
         name + "[" + k + "] = " + toStorage(elem, value) + ";");
    return success();
  }

  if (callee == "T.reducer_update") {
    Value v = reducerArg(op, "value");
    if (!v)
      return fail("needs a value");
    auto rt = cast<BufferType>(r.getType());
    SmallVector<std::string> zeros(std::max<int64_t>(rt.getRank(), 1), "0");
    FailureOr<RootAccess> access = resolve(r, zeros, op);
    if (failed(access))
      return failure();
    FailureOr<std::string> lv = lvalue(*access, op);
    if (failed(lv))
      return failure();
    std::string old = "(" + *vt + ")" + fromStorage(elem, *lv);
    std::string x = "(" + *vt + ")(" + expr(v) + ")";
    // One replica of a replicated loop layout contributes.
    line(guardedStatement(
        "",
        *lv + " = " + toStorage(elem, combineExpr(kind, *vt, old, x)) + ";"));
    return success();
  }

  // T.finalize_reducer: every thread's replica, combined element by
  // element; the out-of-place form then writes the result into `dst`.
  Value dst = reducerArg(op, "dst");
  if (dst) {
    auto dt = dyn_cast<BufferType>(dst.getType());
    Value dstRoot = rootOf(dst);
    if (!dt || dstRoot != dst || scopeOf(dstRoot) != MemoryScope::Fragment ||
        !fragments.count(dstRoot))
      return fail("dst must be a whole T.alloc_fragment buffer on the " +
                  lang.name + " target");
    if (!dt.isStatic() || dt.getShape() != type.getShape())
      return fail("dst must have the reducer's shape");
  }
  if (!blockReachesBarrier(op) || range.lo != 0 || range.hi != blockThreads)
    return fail("combines the arrays of every thread of the block, but here "
                "only some threads may reach it");
  open("");
  std::string acc = fresh("acc");
  line(*vt + " " + acc + "[" + Twine(n) + "];");
  line("#pragma unroll");
  line("for (int " + k + " = 0; " + k + " < " + Twine(n) + "; ++" + k + ") " +
       acc + "[" + k + "] = (" + *vt + ")" +
       fromStorage(elem, name + "[" + k + "]") + ";");
  // Within groups of G lanes (every group whole): a butterfly of lane
  // exchanges leaves each lane its group's total.
  int64_t group = butterflyGroup(blockThreads, lang.warpSize);
  std::string ak = acc + "[" + k + "]";
  // A CUDA block whose last warp is partial: its shuffles name the lanes
  // it has.
  std::string lanes;
  int64_t partialLanes = blockThreads % lang.warpSize;
  if (!lang.isHip() && partialLanes && group > 1) {
    lanes = fresh("lanes");
    line("const unsigned " + lanes + " = tid / " + Twine(lang.warpSize) +
         " == " + Twine(blockThreads / lang.warpSize) + " ? " +
         Twine((uint64_t(1) << partialLanes) - 1) + "u : 0xffffffffu;");
  }
  for (unsigned b = 0; (int64_t(1) << b) < group; ++b) {
    std::string other = lanes.empty() ? laneXor(ak, b, (int64_t(1) << b) - 1)
                                      : "__shfl_xor_sync(" + lanes + ", " + ak +
                                            ", " + std::to_string(1 << b) + ")";
    line("#pragma unroll");
    line("for (int " + k + " = 0; " + k + " < " + Twine(n) + "; ++" + k + ") " +
         ak + " = " + combineExpr(kind, *vt, ak, other) + ";");
  }
  // Across the groups, through the scratch area: lane 0 of each group
  // publishes its totals for up to G elements at a time, then every thread
  // folds the groups' totals in the same order (so every replica ends with
  // the same value).
  int64_t groups = blockThreads / group;
  if (groups > 1) {
    std::string ws = fresh("scratch"), base = fresh("base"), j = fresh("j"),
                g = fresh("g");
    line(*vt + " *" + ws + " = reinterpret_cast<" + *vt + " *>(smem + " +
         Twine(scratchOffset) + ");");
    line("#pragma unroll");
    open("for (int " + base + " = 0; " + base + " < " + Twine(n) + "; " + base +
         " += " + Twine(group) + ")");
    line(blockBarrier() + "  // scratch free");
    std::string inRange = n % group == 0 ? ""
                                         : "if (" + base + " + " + j + " < " +
                                               Twine(n).str() + ") ";
    open(group > 1 ? "if (tid % " + std::to_string(group) + " == 0)" : "");
    line("#pragma unroll");
    line("for (int " + j + " = 0; " + j + " < " + Twine(group) + "; ++" + j +
         ") " + inRange + ws + "[" + j + " * " + Twine(groups) + " + tid / " +
         Twine(group) + "] = " + acc + "[" + base + " + " + j + "];");
    close();
    line(blockBarrier());
    line("#pragma unroll");
    open("for (int " + j + " = 0; " + j + " < " + Twine(group) + "; ++" + j +
         ")");
    if (!inRange.empty())
      line("if (" + base + " + " + j + " >= " + Twine(n) + ") break;");
    std::string all = fresh("all");
    line(*vt + " " + all + " = " + ws + "[" + j + " * " + Twine(groups) + "];");
    line("#pragma unroll");
    line("for (int " + g + " = 1; " + g + " < " + Twine(groups) + "; ++" + g +
         ") " + all + " = " +
         combineExpr(kind, *vt, all,
                     ws + "[" + j + " * " + std::to_string(groups) + " + " + g +
                         "]") +
         ";");
    line(acc + "[" + base + " + " + j + "] = " + all + ";");
    close();
    close();
    line(blockBarrier() + "  // scratch free");
  }
  line("#pragma unroll");
  line("for (int " + k + " = 0; " + k + " < " + Twine(n) + "; ++" + k + ") " +
       name + "[" + k + "] = " + toStorage(elem, ak) + ";");
  if (dst) {
    // Every thread holds every element: each fragment slot takes its own.
    const FragmentInfo &d = fragments[dst];
    Type dstElem = cast<BufferType>(dst.getType()).getElementType();
    FailureOr<std::string> dvt = valueType(dstElem, op);
    if (failed(dvt))
      return failure();
    std::string reg = fresh("r");
    open(d.threadExtent < numThreads
             ? "if (tid < " + std::to_string(d.threadExtent) + ")"
             : "");
    line("#pragma unroll");
    open("for (int " + reg + " = 0; " + reg + " < " + Twine(d.regs) + "; ++" +
         reg + ")");
    SmallVector<std::string> coords = emitCoords(d, reg, "o");
    std::string flat;
    int64_t stride = 1;
    for (int64_t i = int64_t(coords.size()) - 1; i >= 0; --i) {
      std::string term =
          stride == 1 ? coords[i]
                      : "(" + coords[i] + ") * " + std::to_string(stride);
      flat = flat.empty() ? term : term + " + " + flat;
      stride *= type.getShape()[i];
    }
    if (flat.empty())
      flat = "0";
    // (The slot's element is a run-time index: read from the reducer's
    // array, so that the combined values stay in registers.)
    line(expr(dst) + "[" + reg + "] = " +
         toStorage(dstElem, "(" + *dvt + ")" +
                                fromStorage(elem, name + "[" + flat + "]")) +
         ";");
    close();
    close();
  }
  close();
  return success();
}
