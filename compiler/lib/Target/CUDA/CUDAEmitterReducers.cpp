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
// combines the threads' arrays element by element with a block all-reduce
// (tlc::cuda::blockAllReduce over the shared scratch area), leaving the
// result in every thread's array.
//
// * `T.reducer_init(r, init=None)`: the op's identity in every thread; the
//   initial value, when given, in thread 0 for sum and bitxor (combined
//   once) and in every thread for the idempotent max, min, bitand, bitor.
// * `T.reducer_update(r[idx], value)`: r[idx] = op(r[idx], value).
// * `T.finalize_reducer(r)`: the all-reduce. The out-of-place form
//   (`dst=`) is refused with a located error (not generated yet).
// * The older form, T.clear then `r[i] += v`, uses ordinary per-thread
//   loads and stores; TileLang requires a sum reducer to be filled with 0
//   (T.fill writes every thread's copy).
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

int64_t Emitter::finalizeScratchBytes(Operation *op) {
  auto in = dyn_cast<IntrinsicOp>(op);
  if (!in || in.getCallee() != "T.finalize_reducer")
    return 0;
  // One value (at most 8 bytes) per thread of the block.
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
  FailureOr<std::string> vt = valueType(elem, op);
  if (failed(vt))
    return failure();
  StringRef kind = reducerKind(root);
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
    line("for (int " + k + " = 0; " + k + " < " + Twine(n) + "; ++" + k +
         ") " + name + "[" + k + "] = " + toStorage(elem, value) + ";");
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
    std::string old = fromStorage(elem, *lv);
    std::string x = "(" + *vt + ")(" + expr(v) + ")";
    std::string combined =
        llvm::StringSwitch<std::string>(kind)
            .Case("sum", "(" + old + " + " + x + ")")
            .Case("max", "max(" + old + ", " + x + ")")
            .Case("min", "min(" + old + ", " + x + ")")
            .Case("bitand", "(" + old + " & " + x + ")")
            .Case("bitor", "(" + old + " | " + x + ")")
            .Case("bitxor", "(" + old + " ^ " + x + ")")
            .Default("");
    if (combined.empty())
      return fail("unknown reducer op '" + kind + "'");
    // One replica of a replicated loop layout contributes.
    line(guardedStatement("", *lv + " = " +
                                  toStorage(elem, "(" + *vt + ")" + combined) +
                                  ";"));
    return success();
  }

  // T.finalize_reducer: every thread's array, combined element by element.
  if (reducerArg(op, "dst"))
    return fail("the out-of-place form (dst=) is not generated for the " +
                lang.name + " target yet; finalize in place and T.copy the "
                "reducer");
  if (!blockReachesBarrier(op) || range.lo != 0 || range.hi != blockThreads)
    return fail("combines the arrays of every thread of the block, but here "
                "only some threads may reach it");
  if (blockThreads & (blockThreads - 1))
    return fail("needs a power-of-two number of threads per block (the "
                "all-reduce pairs threads by xor), not " +
                Twine(blockThreads));
  std::string combiner = llvm::StringSwitch<std::string>(kind)
                             .Case("sum", "SumOp")
                             .Case("max", "MaxOp")
                             .Case("min", "MinOp")
                             .Case("bitand", "BitAndOp")
                             .Case("bitor", "BitOrOp")
                             .Case("bitxor", "BitXorOp")
                             .Default("");
  if (combiner.empty())
    return fail("unknown reducer op '" + kind + "'");
  std::string ws = fresh("scratch");
  line(*vt + " *" + ws + " = reinterpret_cast<" + *vt + " *>(smem + " +
       Twine(scratchOffset) + ");");
  line("for (int " + k + " = 0; " + k + " < " + Twine(n) + "; ++" + k +
       ") " + name + "[" + k + "] = " +
       toStorage(elem, ns + "blockAllReduce<" + ns + combiner + ", " +
                           Twine(blockThreads).str() + ">(" +
                           "(" + *vt + ")" + fromStorage(elem, name + "[" + k +
                                                                   "]") +
                           ", " + ws + ")") +
       ";");
  line(blockBarrier() + "  // scratch free");
  return success();
}
