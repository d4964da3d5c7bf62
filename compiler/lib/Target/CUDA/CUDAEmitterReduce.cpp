//===- CUDAEmitterReduce.cpp - Reductions and debugging ops for CUDA ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.reduce_* over fragments: each thread folds the registers it holds of
// every result row, then the threads that share a row combine their
// partials: with `__shfl_xor_sync` over the thread-id bits inside a warp,
// through a shared-memory scratch area over the bits across warps. Which
// bits those are comes from the source layout's fitted thread map.
// A shared-memory source is folded line by line, one output element per
// thread. Also T.cumsum (shared memory), T.print and T.device_assert
// (T.atomic_add is CUDAEmitterAtomicAdd.cpp's).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "SafeValue.h"

#include "tlc/Layout/Propagation.h"

#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

namespace {
/// How the threads of a reduction combine.
struct ReducePlan {
  /// Thread bits inside a warp / across warps that step the reduced
  /// coordinate.
  int64_t warpMask = 0, blockMask = 0;
};
} // namespace

/// \p laneBits: the thread-id bits inside one warp (5) or wavefront (6).
/// Errors are reported on \p at unless \p quiet.
static FailureOr<ReducePlan> planReduce(const FragmentInfo &src, unsigned dim,
                                        Operation *at, unsigned laneBits,
                                        bool quiet = false) {
  ReducePlan plan;
  if (src.coords.isFlat()) {
    if (!quiet)
      at->emitError() << "T.reduce: the " << src.layout.shortLabel()
                      << " source layout is linear in the bits of the "
                         "thread id only as a flat index, not per coordinate";
    return failure();
  }
  for (auto [b, c] : llvm::enumerate(src.coords.coef[0])) {
    if (c[dim] == 0)
      continue;
    for (auto [d, x] : llvm::enumerate(c))
      if (d != dim && x != 0) {
        if (!quiet)
          at->emitError("T.reduce: the source layout mixes the reduced "
                        "dimension with another in one thread bit");
        return failure();
      }
    (b < laneBits ? plan.warpMask : plan.blockMask) |= int64_t(1) << b;
  }
  return plan;
}

/// The layout of the registers a reduction of a fragment laid out as \p src
/// folds into: the destination fragment's, or for a destination in memory
/// the one layout inference gives a fragment destination (reduceFragment).
static llvm::Expected<layout::Fragment> reducedLayout(const FragmentInfo &src,
                                                      ReduceOp op) {
  bool keep = cast<BufferType>(op.getDst().getType()).getRank() ==
              cast<BufferType>(op.getSrc().getType()).getRank();
  return keep ? layout::reduceFragmentKeepDim(src.layout, op.getDim())
              : layout::reduceFragment(src.layout, op.getDim());
}

int64_t Emitter::reduceScratchBytes(ReduceOp op) {
  auto s = fragments.find(op.getSrc()), d = fragments.find(op.getDst());
  if (s == fragments.end())
    return 0;
  int64_t dstRegs = 0;
  if (d != fragments.end()) {
    dstRegs = d->second.regs;
  } else if (scopeOf(rootOf(op.getDst())) != MemoryScope::Fragment) {
    llvm::Expected<layout::Fragment> r = reducedLayout(s->second, op);
    if (!r) {
      llvm::consumeError(r.takeError());
      return 0;
    }
    dstRegs = r->getRegsPerThread();
  } else {
    return 0;
  }
  FailureOr<ReducePlan> plan = planReduce(s->second, op.getDim(), op,
                                         lang.laneBits(), /*quiet=*/true);
  if (failed(plan) || !plan->blockMask)
    return 0;
  // One value of the reduction's value type per register and thread: 8
  // bytes for f64 and 64-bit integers, at most 4 for the others (narrow
  // floats reduce as float).
  Type elem = cast<BufferType>(op.getDst().getType()).getElementType();
  int64_t valueBytes =
      elem.isIntOrFloat() && elem.getIntOrFloatBitWidth() <= 32 ? 4 : 8;
  return dstRegs * numThreads * valueBytes;
}

/// The lowest (\p max false) or highest value of integer type \p type as a
/// literal: std::numeric_limits is a host constexpr function that device
/// code may not call without --expt-relaxed-constexpr.
static std::string integerLimit(StringRef type, bool max) {
  if (!type.contains("int") && type != "bool")
    return "std::numeric_limits<" + type.str() +
           ">::" + (max ? "max()" : "lowest()");
  if (type == "bool")
    return max ? "false" : "true";
  if (type.starts_with("u"))
    return max ? "(" + type.str() + ")~0ull" : "(" + type.str() + ")0";
  unsigned bits = 32;
  StringRef digits = type.drop_while([](char c) { return !llvm::isDigit(c); })
                         .take_while([](char c) { return llvm::isDigit(c); });
  if (!digits.empty())
    digits.getAsInteger(10, bits);
  std::string hi = std::to_string((uint64_t(1) << (bits - 1)) - 1) + "ll";
  return max ? "(" + type.str() + ")" + hi
             : "(" + type.str() + ")(-" + hi + " - 1)";
}

static std::string reduceIdentity(ReduceKind kind, StringRef type) {
  bool isFloat = type == "float" || type == "double";
  // bool: max is any, min and bitand are all (TileLang's bool identities).
  if (type == "bool" && (kind == ReduceKind::Max || kind == ReduceKind::Min ||
                         kind == ReduceKind::BitAnd))
    return kind == ReduceKind::Max ? "false" : "true";
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::AbsSum:
  case ReduceKind::AbsMax:
  case ReduceKind::BitOr:
  case ReduceKind::BitXor:
    return "(" + type.str() + ")0";
  case ReduceKind::Max:
    return isFloat ? "-__int_as_float(0x7f800000)" : integerLimit(type, false);
  case ReduceKind::Min:
    return isFloat ? "__int_as_float(0x7f800000)" : integerLimit(type, true);
  case ReduceKind::BitAnd:
    return "(" + type.str() + ")~0ll";
  }
  return "0";
}

namespace {
/// A reduction's arithmetic in its C++ value type \p type (`float`,
/// `double` or an integer type): how two values combine and what an
/// element contributes (its magnitude for abssum/absmax).
struct ReduceArith {
  ReduceArith(ReduceKind kind, StringRef type)
      : kind(kind), isFloat(type == "float" || type == "double"),
        isDouble(type == "double") {}

  /// \p x as it enters the reduction.
  std::string operand(const std::string &x) const {
    if (kind != ReduceKind::AbsSum && kind != ReduceKind::AbsMax)
      return x;
    return (isFloat ? (isDouble ? "fabs(" : "fabsf(") : "abs(") + x + ")";
  }

  /// \p a combined with \p b (double max/min are fmax/fmin, not the f32
  /// fmaxf/fminf).
  std::string combine(const std::string &a, const std::string &b) const {
    std::string f = isDouble ? "" : "f";
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::AbsSum:
      return a + " + " + b;
    case ReduceKind::Max:
    case ReduceKind::AbsMax:
      return isFloat ? "fmax" + f + "(" + a + ", " + b + ")"
                     : "max(" + a + ", " + b + ")";
    case ReduceKind::Min:
      return isFloat ? "fmin" + f + "(" + a + ", " + b + ")"
                     : "min(" + a + ", " + b + ")";
    case ReduceKind::BitAnd:
      return a + " & " + b;
    case ReduceKind::BitOr:
      return a + " | " + b;
    case ReduceKind::BitXor:
      return a + " ^ " + b;
    }
    return a;
  }

  ReduceKind kind;
  bool isFloat, isDouble;
};
} // namespace

FailureOr<std::string> Emitter::reductionType(Type elem, Operation *op) {
  // Unsigned integers reduce as themselves: max/min of a uint16 holding
  // 0xffff is not that of an int16 holding -1.
  return elem.isUnsignedInteger() ? storageType(elem, op)
                                  : valueType(elem, op);
}

LogicalResult Emitter::emitReduce(ReduceOp op) {
  beginOp(op, ("T.reduce_" + stringifyReduceKind(op.getKind())).str());
  Value src = op.getSrc(), dst = op.getDst();
  auto s = fragments.find(src), d = fragments.find(dst);
  if (scopeOf(rootOf(src)) != MemoryScope::Fragment)
    return emitMemoryReduce(op);
  // Into shared (or global) memory: the registers are those a fragment
  // destination would have, stored to memory at the end.
  bool toMemory = scopeOf(rootOf(dst)) != MemoryScope::Fragment;
  if (s == fragments.end() || (!toMemory && d == fragments.end())) {
    op.emitError() << "the " << lang.name
                   << " target reduces a whole fragment into a whole "
                      "fragment or into memory only (reduce into a "
                      "fragment, then copy it)";
    return failure();
  }
  FailureOr<FragmentInfo> inMemory;
  if (toMemory) {
    auto dstType = cast<BufferType>(dst.getType());
    if (!dstType.isStatic()) {
      op.emitError() << "the " << lang.name
                     << " target reduces a fragment into memory of static "
                        "shape only";
      return failure();
    }
    llvm::Expected<layout::Fragment> r = reducedLayout(s->second, op);
    if (!r) {
      op.emitError() << "T.reduce: " << llvm::toString(r.takeError());
      return failure();
    }
    inMemory = describeFragment(*r, dstType, op, numThreads);
    if (failed(inMemory))
      return failure();
  }
  const FragmentInfo &S = s->second, &D = toMemory ? *inMemory : d->second;
  unsigned dim = op.getDim();
  FailureOr<ReducePlan> plan = planReduce(S, dim, op, lang.laneBits());
  if (failed(plan))
    return failure();
  Type srcElem = cast<BufferType>(src.getType()).getElementType();
  Type dstElem = cast<BufferType>(dst.getType()).getElementType();
  FailureOr<std::string> vt = reductionType(dstElem, op);
  if (failed(vt))
    return failure();
  ReduceKind kind = op.getKind();
  ReduceArith arith(kind, *vt);
  // Register of dst for each source register (same thread by layout).
  // dst drops the reduced dimension, or keeps it with extent 1 (read at 0).
  bool keep = D.shape.size() == S.shape.size();
  SmallVector<unsigned> dims;
  for (unsigned i = 0; i < S.shape.size(); ++i)
    if (i != dim)
      dims.push_back(i);
    else if (keep)
      dims.push_back(kUnitDim);
  std::string reg = fresh("r");
  FailureOr<std::string> dIdx = fragmentIndex(S, D, dims, reg, op);
  if (failed(dIdx))
    return failure();
  std::string part = fresh("part");
  open("");
  line(*vt + " " + part + "[" + Twine(D.regs) + "];");
  std::string k = fresh("k");
  line("#pragma unroll");
  line("for (int " + k + " = 0; " + k + " < " + Twine(D.regs) + "; ++" + k +
       ") " + part + "[" + k + "] = " + reduceIdentity(kind, *vt) + ";");
  // Threads the source layout gives no elements (a 100-wide row over 128
  // threads) hold no values in its registers: they add the identity to
  // the shuffles below.
  bool partial = S.threadExtent < numThreads;
  if (partial)
    open("if (tid < " + Twine(S.threadExtent) + ")");
  line("#pragma unroll");
  open("for (int " + reg + " = 0; " + reg + " < " + Twine(S.regs) + "; ++" +
       reg + ")");
  // An empty slot of a guarded source (its last round, or the padding of
  // a register digit) holds no element: skipped, its register index may
  // also fall outside the result's.
  if (S.hasEmptySlots())
    (void)emitCoords(S, reg, "c");
  std::string x = fromStorage(srcElem, expr(src) + "[" + reg + "]");
  x = arith.operand(x);
  std::string slot = part + "[" + *dIdx + "]";
  line(slot + " = " + arith.combine(slot, x) + ";");
  close();
  if (partial)
    close();
  // Inside the warp. On HIP, lane bits 4 and 5 over rows already reduced
  // in bits 0..3 go through DPP row broadcasts and v_readlane (whole
  // wavefronts only: lane 63 must exist; tlc::hip::rowBcast15).
  bool rowBcast =
      lang.isHip() && numThreads % 64 == 0 && (plan->warpMask & 0x1f) == 0x1f;
  for (unsigned b = 0; b < lang.laneBits(); ++b) {
    if (!((plan->warpMask >> b) & 1))
      continue;
    std::string v = part + "[" + k + "]";
    std::string next = arith.combine(v, laneXor(v, b, plan->warpMask));
    if (rowBcast && b >= 4)
      next = ns + "ifLaneBit<" + std::to_string(b) + ">(" +
             arith.combine(v, ns + (b == 4 ? "rowBcast15(" : "rowBcast31(") +
                                  v + ")") +
             ", " + v + ")";
    line("#pragma unroll");
    line("for (int " + k + " = 0; " + k + " < " + Twine(D.regs) + "; ++" + k +
         ") " + v + " = " + next + ";");
  }
  if (rowBcast) {
    std::string v = part + "[" + k + "]";
    line("#pragma unroll");
    line("for (int " + k + " = 0; " + k + " < " + Twine(D.regs) + "; ++" + k +
         ") " + v + " = " +
         ((plan->warpMask >> 5) & 1 ? ns + "readLane(" + v + ", 63)"
                                    : ns + "readPairTotal(" + v + ")") +
         ";");
  }
  // Across warps: every thread publishes its partials, then folds those of
  // the threads that differ from it only in the cross-warp bits.
  if (plan->blockMask) {
    std::string ws = fresh("scratch");
    line(*vt + " *" + ws + " = reinterpret_cast<" + *vt + " *>(smem + " +
         Twine(scratchOffset) + ");");
    line(blockBarrier() + "  // scratch free");
    line("#pragma unroll");
    line("for (int " + k + " = 0; " + k + " < " + Twine(D.regs) + "; ++" +
         k + ") " + ws + "[" + k + " * " + Twine(numThreads) + " + tid] = " +
         part + "[" + k + "];");
    line(blockBarrier());
    SmallVector<int64_t> partners;
    for (int64_t m = 0; m <= plan->blockMask; ++m)
      if ((m & ~plan->blockMask) == 0)
        partners.push_back(m);
    std::string list;
    for (int64_t m : partners)
      list += (list.empty() ? "" : ", ") + std::to_string(m);
    std::string p = fresh("p");
    line("#pragma unroll");
    open("for (int " + k + " = 0; " + k + " < " + Twine(D.regs) + "; ++" + k +
         ")");
    line(*vt + " all = " + reduceIdentity(kind, *vt) + ";");
    line("#pragma unroll");
    open("for (int " + p + " = 0; " + p + " <= " + Twine(plan->blockMask) +
         "; ++" + p + ")");
    line("if ((" + p + " & ~" + Twine(plan->blockMask) + ") == 0) all = " +
         arith.combine("all",
                       ws + "[" + k + " * " + std::to_string(numThreads) +
                           " + ((tid & ~" + Twine(plan->blockMask).str() +
                           ") | " + p + ")]") +
         ";");
    close();
    line(part + "[" + k + "] = all;");
    close();
    endAreaUse(op);
  }
  if (toMemory) {
    // One replica of each result element stores it, once every thread is
    // done with dst's old contents; then a barrier for its readers.
    line(blockBarrier());
    std::string guard;
    if (D.threadExtent < numThreads)
      guard = "tid < " + std::to_string(D.threadExtent);
    if (!D.oneReplica().empty())
      guard += (guard.empty() ? "" : " && ") + D.oneReplica();
    open(guard.empty() ? "" : "if (" + guard + ")");
    line("#pragma unroll");
    open("for (int " + k + " = 0; " + k + " < " + Twine(D.regs) + "; ++" + k +
         ")");
    SmallVector<std::string> coords = emitCoords(D, k, "o");
    if (coords.empty())
      coords.push_back("0");
    auto out = guardedElement(dst, coords, op);
    if (failed(out))
      return failure();
    std::string value = part + "[" + k + "]";
    if (!op.getClear())
      value = arith.combine(fromStorage(dstElem, out->first), value);
    std::string stmt =
        out->first + " = " + toStorage(dstElem, value) + ";";
    line(out->second.empty() ? stmt : "if (" + out->second + ") " + stmt);
    close();
    close();
    close();
    line(blockBarrier());
    return success();
  }
  // Into dst.
  std::string dk = expr(dst) + "[" + k + "]";
  std::string value = part + "[" + k + "]";
  if (!op.getClear())
    value = arith.combine(fromStorage(dstElem, dk), value);
  line("#pragma unroll");
  line("for (int " + k + " = 0; " + k + " < " + Twine(D.regs) + "; ++" + k +
       ") " + dk + " = " + toStorage(dstElem, value) + ";");
  close();
  return success();
}

LogicalResult Emitter::emitMemoryReduce(ReduceOp op) {
  Value src = op.getSrc(), dst = op.getDst();
  auto st = cast<BufferType>(src.getType());
  Type srcElem = st.getElementType();
  Type dstElem = cast<BufferType>(dst.getType()).getElementType();
  bool toFragment = scopeOf(rootOf(dst)) == MemoryScope::Fragment;
  auto d = fragments.find(dst);
  if (toFragment && d == fragments.end()) {
    op.emitError() << "the " << lang.name
                   << " target reduces shared memory into shared memory "
                      "or a whole fragment only";
    return failure();
  }
  SmallVector<std::string> shape;
  std::string numel;
  if (failed(extents(st, op, shape, numel)))
    return failure();
  FailureOr<std::string> vt = reductionType(dstElem, op);
  if (failed(vt))
    return failure();
  ReduceKind kind = op.getKind();
  ReduceArith arith(kind, *vt);
  unsigned dim = op.getDim();
  unsigned rank = st.getRank();
  // dst drops the reduced dimension, or keeps it with extent 1 (index 0).
  bool keep = cast<BufferType>(dst.getType()).getRank() == rank;
  std::string it = st.isStatic() ? "int" : indexType();
  // Folds the reduced line through the output coordinates \p out (one per
  // source dimension but dim) into a fresh accumulator; returns its name.
  auto fold = [&](ArrayRef<std::string> out) -> FailureOr<std::string> {
    std::string acc = fresh("acc"), i = fresh("i");
    line(*vt + " " + acc + " = " + reduceIdentity(kind, *vt) + ";");
    open("for (" + it + " " + i + " = 0; " + i + " < " + shape[dim] + "; ++" +
         i + ")");
    SmallVector<std::string> idx(out.begin(), out.end());
    idx.insert(idx.begin() + dim, i);
    auto element = guardedElement(src, idx, op);
    if (failed(element))
      return failure();
    std::string x = "(" + *vt + ")" + fromStorage(srcElem, element->first);
    x = arith.operand(x);
    std::string stmt =
        acc + " = " + arith.combine(acc, x) + ";";
    line(element->second.empty() ? stmt
                                 : "if (" + element->second + ") " + stmt);
    close();
    return acc;
  };
  auto result = [&](const std::string &acc, const std::string &old) {
    return op.getClear() ? acc
                         : arith.combine(fromStorage(dstElem, old), acc);
  };
  // The source's writes before the reduction.
  line(blockBarrier());
  open("");
  if (toFragment) {
    // Every thread folds the lines of the registers it holds (replicas
    // fold the same lines).
    const FragmentInfo &D = d->second;
    if (D.threadExtent < numThreads)
      open("if (tid < " + Twine(D.threadExtent) + ")");
    else
      open("");
    std::string reg = fresh("r");
    open("for (int " + reg + " = 0; " + reg + " < " + Twine(D.regs) + "; ++" +
         reg + ")");
    SmallVector<std::string> coords = emitCoords(D, reg, "o");
    if (keep)
      coords.erase(coords.begin() + dim);
    FailureOr<std::string> acc = fold(coords);
    if (failed(acc))
      return failure();
    std::string dk = expr(dst) + "[" + reg + "]";
    line(dk + " = " + toStorage(dstElem, result(*acc, dk)) + ";");
    close();
    close();
    close();
    return success();
  }
  // Into memory: the threads stride over the output elements.
  std::string outs = "1";
  for (unsigned k = 0; k < rank; ++k)
    if (k != dim)
      outs = outs == "1" ? "(" + shape[k] + ")"
                         : outs + " * (" + shape[k] + ")";
  std::string o = fresh("o");
  open("for (" + it + " " + o + " = tid; " + o + " < " + outs + "; " + o +
       " += " + Twine(numThreads) + ")");
  SmallVector<std::string> coords(rank - 1);
  std::string rest = o;
  for (int k = int(rank) - 1, c = int(rank) - 2; k >= 0; --k) {
    if (unsigned(k) == dim)
      continue;
    std::string name = fresh("o");
    line("const " + it + " " + name + " = " +
         (c == 0 ? rest : rest + " % (" + shape[k] + ")") + ";");
    rest = "(" + rest + " / (" + shape[k] + "))";
    coords[c--] = name;
  }
  FailureOr<std::string> acc = fold(coords);
  if (failed(acc))
    return failure();
  SmallVector<std::string> didx(coords);
  if (keep)
    didx.insert(didx.begin() + dim, "0");
  if (didx.empty())
    didx.push_back("0");
  auto out = guardedElement(dst, didx, op);
  if (failed(out))
    return failure();
  std::string stmt =
      out->first + " = " + toStorage(dstElem, result(*acc, out->first)) + ";";
  line(out->second.empty() ? stmt : "if (" + out->second + ") " + stmt);
  close();
  close();
  // The results before their readers.
  line(blockBarrier());
  return success();
}

//===----------------------------------------------------------------------===//
// T.cumsum
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitCumSum(CumSumOp op) {
  beginOp(op, "T.cumsum");
  Value src = op.getSrc(), dst = op.getDst();
  auto st = cast<BufferType>(src.getType());
  auto dt = cast<BufferType>(dst.getType());
  if (scopeOf(rootOf(src)) == MemoryScope::Fragment ||
      scopeOf(rootOf(dst)) == MemoryScope::Fragment)
    return emitFragmentCumSum(op);
  if (st.getRank() > 2) {
    op.emitError() << "the " << lang.name
                   << " target lowers T.cumsum over shared or global tiles "
                      "of rank 1 or 2 (copy fragments to shared memory "
                      "first)";
    return failure();
  }
  // Extents may be expressions of the kernel's symbols (a shared buffer
  // sized at launch).
  SmallVector<std::string> shape;
  std::string numel;
  if (failed(extents(st, op, shape, numel)))
    return failure();
  FailureOr<std::string> vt = valueType(dt.getElementType(), op);
  if (failed(vt))
    return failure();
  // One thread per line along `dim`, serial scan (inclusive).
  unsigned dim = op.getDim();
  std::string len = shape[dim];
  std::string lines = shape.size() == 2 ? shape[1 - dim] : "1";
  std::string it = st.isStatic() ? "int" : indexType();
  line(blockBarrier());
  std::string l = fresh("line"), i = fresh("i");
  open("for (" + it + " " + l + " = tid; " + l + " < " + lines + "; " + l +
       " += " + Twine(numThreads) + ")");
  std::string sum = fresh("running");
  line(*vt + " " + sum + " = 0;");
  open("for (" + it + " " + i + " = 0; " + i + " < " + len + "; ++" + i +
       ")");
  std::string last = st.getDim(dim).isStatic()
                         ? std::to_string(st.getDim(dim).getValue() - 1)
                         : len + " - 1";
  std::string pos = op.getReverse() ? "(" + last + " - " + i + ")" : i;
  SmallVector<std::string> idx(shape.size());
  idx[dim] = pos;
  if (shape.size() == 2)
    idx[1 - dim] = l;
  FailureOr<RootAccess> a = resolve(src, idx, op);
  FailureOr<RootAccess> b = resolve(dst, idx, op);
  if (failed(a) || failed(b))
    return failure();
  FailureOr<std::string> la = lvalue(*a, op), lb = lvalue(*b, op);
  FailureOr<std::string> ca = boundsCondition(*a, op),
                         cb = boundsCondition(*b, op);
  if (failed(la) || failed(lb) || failed(ca) || failed(cb))
    return failure();
  std::string v = fromStorage(st.getElementType(), *la);
  if (!ca->empty())
    v = "((" + *ca + ") ? " + v + " : " +
        safeValueOf(op, rootOf(src), st.getElementType()) + ")";
  line(sum + " += " + v + ";");
  std::string stmt = *lb + " = " + toStorage(dt.getElementType(), sum) + ";";
  line(cb->empty() ? stmt : "if (" + *cb + ") " + stmt);
  close();
  close();
  line(blockBarrier());
  return success();
}

LogicalResult Emitter::emitFragmentCumSum(CumSumOp op) {
  Value src = op.getSrc(), dst = op.getDst();
  auto srcInfo = fragments.find(src), dstInfo = fragments.find(dst);
  Type elem = cast<BufferType>(src.getType()).getElementType();
  Type dstElem = cast<BufferType>(dst.getType()).getElementType();
  if (srcInfo == fragments.end() || dstInfo == fragments.end() ||
      ArrayRef<int64_t>(srcInfo->second.shape) !=
          ArrayRef<int64_t>(dstInfo->second.shape) ||
      elem != dstElem) {
    op.emitError() << "the " << lang.name
                   << " target lowers T.cumsum over a fragment into a whole "
                      "fragment of the same shape and element type only";
    return failure();
  }
  if (exchangeOffset < 0) {
    op.emitError("no exchange area for this T.cumsum (internal error)");
    return failure();
  }
  FailureOr<std::string> vt = valueType(elem, op);
  if (failed(vt))
    return failure();
  // Every thread stores its registers into a row-major tile of the exchange
  // area, each line along `dim` is scanned by one thread, and the
  // destination's registers are loaded back.
  line(blockBarrier() + "  // the exchange area is free");
  FailureOr<std::string> tile = declareExchangeTile(src, exchangeOffset, op);
  if (failed(tile))
    return failure();
  emitExchange(srcInfo->second, expr(src), *tile, /*toShared=*/true);
  line(blockBarrier());
  ArrayRef<int64_t> shape = srcInfo->second.shape;
  unsigned dim = op.getDim();
  int64_t len = shape[dim], stride = 1;
  for (int64_t e : shape.drop_front(dim + 1))
    stride *= e;
  int64_t lines = srcInfo->second.numel / len;
  std::string l = fresh("line"), i = fresh("i"), base = fresh("base");
  open("for (int " + l + " = tid; " + l + " < " + Twine(lines) + "; " + l +
       " += " + Twine(numThreads) + ")");
  line("const int " + base + " = (" + l + " / " + Twine(stride) + ") * " +
       Twine(len * stride) + " + " + l + " % " + Twine(stride) + ";");
  std::string sum = fresh("running");
  line(*vt + " " + sum + " = 0;");
  open("for (int " + i + " = 0; " + i + " < " + Twine(len) + "; ++" + i + ")");
  std::string pos =
      op.getReverse() ? "(" + Twine(len - 1).str() + " - " + i + ")" : i;
  std::string at =
      *tile + "[" + base + " + " + pos + " * " + std::to_string(stride) + "]";
  line(sum + " += " + fromStorage(elem, at) + ";");
  line(at + " = " + toStorage(elem, sum) + ";");
  close();
  close();
  recordScanExchange(*tile, lines, len, stride, op.getReverse());
  line(blockBarrier());
  emitExchange(dstInfo->second, expr(dst), *tile, /*toShared=*/false);
  return success();
}

//===----------------------------------------------------------------------===//
// T.print / T.device_assert
//===----------------------------------------------------------------------===//

/// \p text with printf's `%` escaped (user text inside a format).
static std::string literalText(StringRef text) {
  std::string s;
  for (char c : text)
    s += c == '%' ? std::string("%%") : std::string(1, c);
  return s;
}

/// A C string literal of \p text.
static std::string quoted(StringRef text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    s += c;
  }
  return s + "\"";
}

static std::string printfFormat(Type t) {
  if (isa<FloatType>(t))
    return "%g";
  if (auto i = dyn_cast<IntegerType>(t); i && i.getWidth() == 1)
    return "%d";
  return "%lld";
}

static std::string printfValue(Type t, const std::string &v) {
  if (isa<FloatType>(t))
    return "(double)(" + v + ")";
  if (auto i = dyn_cast<IntegerType>(t); i && i.getWidth() == 1)
    return "(int)(" + v + ")";
  return "(long long)(" + v + ")";
}

LogicalResult Emitter::emitPrint(PrintOp op) {
  // HIP: the same printf calls, through ROCm's hostcall printf.
  beginOp(op, "T.print");
  FileLineColRange where = getFileLoc(op.getLoc());
  std::string tag = literalText(op.getMsg());
  if (where)
    tag = (llvm::sys::path::filename(where.getFilename().getValue()) + ":" +
           Twine(where.getStartLine()) + ": " + tag)
              .str();
  Value v = op.getValue();
  if (!v) {
    line("if (tid == 0) printf(" + quoted(tag + " (block %d,%d,%d)\n") +
         ", (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z);");
    return success();
  }
  auto bt = dyn_cast<BufferType>(v.getType());
  if (!bt) {
    line("if (tid == 0) printf(" +
         quoted(tag + " = " + printfFormat(v.getType()) + "\n") + ", " +
         printfValue(v.getType(), expr(v)) + ");");
    return success();
  }
  Type elem = bt.getElementType();
  Value root = rootOf(v);
  std::string name = expr(root);
  if (scopeOf(root) == MemoryScope::Fragment) {
    // Every thread prints the elements it holds (one replica each), tagged
    // with the buffer, the coordinates and the thread.
    auto it = fragments.find(root);
    if (it == fragments.end() || root != v) {
      op.emitError("T.print of part of a fragment is not supported");
      return failure();
    }
    const FragmentInfo &f = it->second;
    open("if (tid < " + Twine(f.threadExtent) + " && (tid & " +
         Twine(f.repMask) + ") == 0)");
    std::string reg = fresh("r");
    open("for (int " + reg + " = 0; " + reg + " < " + Twine(f.regs) + "; ++" +
         reg + ")");
    SmallVector<std::string> c = emitCoords(f, reg, "i");
    std::string fmt = tag + " " + name + "[", args;
    for (auto [d, idx] : llvm::enumerate(c)) {
      fmt += (d ? ", " : "") + std::string("%lld");
      args += ", (long long)" + idx;
    }
    fmt += "] = " + printfFormat(elem) + " (thread %d)\n";
    line("printf(" + quoted(fmt) + args + ", " +
         printfValue(elem, fromStorage(elem, name + "[" + reg + "]")) +
         ", tid);");
    close();
    close();
    return success();
  }
  // Memory: thread 0 prints every element after a barrier.
  if (isSharedScope(scopeOf(root)))
    line(blockBarrier());
  SmallVector<std::string> shape;
  std::string numel;
  if (failed(extents(bt, op, shape, numel)))
    return failure();
  open("if (tid == 0)");
  std::string f = fresh("f");
  open("for (" + indexType() + " " + f + " = 0; " + f + " < " +
       numel + "; ++" + f + ")");
  SmallVector<std::string> idx;
  std::string rest = f;
  idx.resize(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    idx[d] = d == 0 ? rest : "(" + rest + " % " + shape[d] + ")";
    rest = "(" + rest + " / " + shape[d] + ")";
  }
  if (idx.empty())
    idx.push_back("0");
  FailureOr<RootAccess> a = resolve(v, idx, op);
  if (failed(a))
    return failure();
  FailureOr<std::string> lv = lvalue(*a, op);
  if (failed(lv))
    return failure();
  line("printf(" + quoted(tag + " " + name + "[%lld] = " + printfFormat(elem) +
                          "\n") +
       ", (long long)" + f + ", " + printfValue(elem, fromStorage(elem, *lv)) +
       ");");
  close();
  close();
  return success();
}

LogicalResult Emitter::emitDeviceAssert(DeviceAssertOp op) {
  beginOp(op, "T.device_assert");
  FileLineColRange where = getFileLoc(op.getLoc());
  std::string loc =
      where ? (where.getFilename().getValue() + ":" +
               Twine(where.getStartLine()))
                  .str()
            : std::string("<unknown>");
  open("if (!(" + expr(op.getCondition()) + "))");
  // HIP too: printf is ROCm's hostcall printf (as for T.print), and
  // __trap() is s_trap, which ends the wavefront.
  line("printf(" +
       quoted(literalText(loc) + ": device assertion failed: " +
              literalText(op.getMsg()) +
              " (block %d,%d,%d thread %d)\n") +
       ", (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z, tid);");
  line("__trap();");
  close();
  return success();
}
