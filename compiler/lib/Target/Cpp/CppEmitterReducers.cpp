//===- CppEmitterReducers.cpp - T.alloc_reducer on the CPU target ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TileLang's reducers (`T.alloc_reducer(shape, dtype, op=...)`): a
// deferred reduction whose logical value is its initial value combined
// once with every contribution made to it, whatever the threads that make
// them. On the GPU each thread accumulates its contributions in its own
// replica and T.finalize_reducer combines the replicas. The CPU target runs
// a block's T.Parallel iterations in one executor, so a reducer is one
// accumulator: every contribution is combined into it in iteration order
// and T.finalize_reducer has no partials left to combine (its
// out-of-place form copies the result into `dst`). Sums of floats may
// differ from a GPU's in rounding (another association order).
//
// * `T.reducer_init(r, init=None)`: every element to `init`, or to the
//   identity of the reducer's op (0 for sum, bitor and bitxor; all ones for
//   bitand; -inf / the type's lowest value for max; +inf / its highest for
//   min).
// * `T.reducer_update(r[idx], value)`: r[idx] = op(r[idx], value).
// * `T.finalize_reducer(r, dst=None)`: the copy into dst, if any.
// * The older form, `T.clear`/`T.fill` then `r[i] += v` in a T.Parallel,
//   is ordinary loads and stores of the accumulator.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

/// The operand of \p op passed for \p param, or null.
static Value reducerArg(tile::IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

/// The reducer op (`sum`, `max`, ...) of the T.alloc_reducer that \p buffer
/// (the allocation or a region of it) comes from; "sum" if none is named.
static StringRef reducerKind(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto r = dyn_cast<tile::RegionOp>(def)) {
      buffer = r.getSource();
      continue;
    }
    if (auto kind = def->getAttrOfType<StringAttr>("reducer"))
      return kind.getValue();
    break;
  }
  return "sum";
}

std::optional<LogicalResult>
Emitter::emitReducerIntrinsic(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (callee != "T.reducer_init" && callee != "T.reducer_update" &&
      callee != "T.finalize_reducer")
    return std::nullopt;
  Value r = reducerArg(op, callee == "T.reducer_update" ? "target" : "reducer");
  auto rt = r ? dyn_cast<tile::BufferType>(r.getType()) : tile::BufferType();
  if (!rt) {
    op.emitError() << callee << ": needs a T.alloc_reducer buffer";
    return failure();
  }
  Type elem = rt.getElementType();
  FailureOr<std::string> cty = valueType(elem, op);
  if (failed(cty))
    return failure();
  StringRef kind = reducerKind(r);
  bool small = isSmallFloat(elem);
  std::string num = small ? "float" : *cty;
  auto asNum = [&](const std::string &e) {
    return small ? "float(" + e + ")" : e;
  };
  auto extents = [&](tile::BufferType t) -> FailureOr<std::vector<std::string>> {
    std::vector<std::string> out;
    for (unsigned d = 0; d < t.getRank(); ++d) {
      FailureOr<std::string> e = extent(t, d, op);
      if (failed(e))
        return failure();
      out.push_back(*e);
    }
    return out;
  };
  // Every element of buffer type t: a loop nest (one "0" for rank 0).
  auto forEach = [&](tile::BufferType t,
                     llvm::function_ref<void(ArrayRef<std::string>)> body)
      -> LogicalResult {
    FailureOr<std::vector<std::string>> ext = extents(t);
    if (failed(ext))
      return failure();
    std::vector<std::string> vars = openLoops(*ext, "e");
    if (vars.empty())
      vars.push_back("0");
    body(vars);
    closeLoops(ext->size());
    return success();
  };

  if (callee == "T.reducer_init") {
    std::string init;
    if (Value v = reducerArg(op, "init")) {
      init = "tlc::cpu::cast<" + num + ">(" + expr(v) + ")";
    } else if (kind == "sum" || kind == "bitor" || kind == "bitxor") {
      init = num + "(0)";
    } else if (kind == "bitand") {
      if (!isa<IntegerType>(elem)) {
        op.emitError() << callee << ": a bitand reducer needs integers";
        return failure();
      }
      init = num + "(~" + num + "(0))";
    } else if (kind == "max" || kind == "min") {
      bool isFloat = isa<FloatType>(elem);
      std::string lim = "std::numeric_limits<" + num + ">::";
      init = isFloat ? (kind == "max" ? "-" : "") + lim + "infinity()"
                     : lim + (kind == "max" ? "lowest()" : "max()");
    } else {
      op.emitError() << callee << ": unknown reducer op '" << kind << "'";
      return failure();
    }
    comment(op, ("T.reducer_init (" + kind + ")").str());
    std::string value = small ? *cty + "(" + init + ")" : init;
    return forEach(rt, [&](ArrayRef<std::string> idx) {
      line(storeStmt(r, idx, value, op, guardOf(r)));
    });
  }

  if (callee == "T.reducer_update") {
    Value v = reducerArg(op, "value");
    if (!v) {
      op.emitError() << callee << ": needs a value";
      return failure();
    }
    std::vector<std::string> idx(std::max<int64_t>(rt.getRank(), 1), "0");
    std::string old = asNum(loadExpr(r, idx, op, guardOf(r)));
    std::string x = "tlc::cpu::cast<" + num + ">(" + expr(v) + ")";
    std::string combined;
    if (kind == "sum")
      combined = "(" + old + " + " + x + ")";
    else if (kind == "max")
      combined = isa<FloatType>(elem) ? "std::fmax(" + old + ", " + x + ")"
                                      : "std::max<" + num + ">(" + old +
                                            ", " + x + ")";
    else if (kind == "min")
      combined = isa<FloatType>(elem) ? "std::fmin(" + old + ", " + x + ")"
                                      : "std::min<" + num + ">(" + old +
                                            ", " + x + ")";
    else if (kind == "bitand" || kind == "bitor" || kind == "bitxor")
      combined = "(" + old +
                 (kind == "bitand"  ? " & "
                  : kind == "bitor" ? " | "
                                    : " ^ ") +
                 x + ")";
    else {
      op.emitError() << callee << ": unknown reducer op '" << kind << "'";
      return failure();
    }
    line(storeStmt(r, idx, "tlc::cpu::cast<" + *cty + ">(" + combined + ")",
                   op, guardOf(r)));
    return success();
  }

  // T.finalize_reducer: nothing to combine; the out-of-place form copies.
  Value dst = reducerArg(op, "dst");
  if (!dst) {
    comment(op, "T.finalize_reducer: no partials on the CPU (one "
                "accumulator per block)");
    return success();
  }
  auto dt = dyn_cast<tile::BufferType>(dst.getType());
  if (!dt || dt.getShape() != rt.getShape()) {
    op.emitError() << callee << ": dst must be a buffer of the reducer's shape";
    return failure();
  }
  FailureOr<std::string> dty = valueType(dt.getElementType(), op);
  if (failed(dty))
    return failure();
  comment(op, "T.finalize_reducer: the result into dst");
  return forEach(rt, [&](ArrayRef<std::string> idx) {
    line(storeStmt(dst, idx,
                   "tlc::cpu::cast<" + *dty + ">(" +
                       loadExpr(r, idx, op, guardOf(r)) + ")",
                   op, guardOf(dst)));
  });
}
