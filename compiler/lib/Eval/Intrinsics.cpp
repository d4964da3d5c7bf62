//===- Intrinsics.cpp - T.* primitives that become tile.intrinsic ---------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The TileLang primitives whose meaning is one target instruction or
// runtime call rather than a tile computation: warp shuffles and votes,
// mbarrier, cluster and async-proxy synchronisation, register control, raw
// loads and stores, fast/IEEE/packed math, extern calls, random numbers,
// Blackwell tensor-memory helpers. Each is checked against its registry
// parameters and built as one `tile.intrinsic` op whose result type follows
// the primitive's rule (IntrinsicRule below). Which back end can generate a
// given callee is decided when building for that target, never here.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::DType;
using lang::MemoryScope;
using lang::ScalarType;

namespace {

/// How the result type of an intrinsic is found.
enum class ResultKind : uint8_t {
  /// No result (a statement).
  None,
  /// The dtype of the argument bound to `param` (element dtype for
  /// buffers and element references).
  SameAs,
  /// A fixed dtype.
  Fixed,
  /// The dtype named by the argument bound to `param` (`T.call_extern`).
  FromDTypeArg,
  /// The element dtype of `param` when `return_prev=True`, else none.
  ReturnPrev,
  /// `T.call_extern`: the dtype is the `dtype=` keyword, or the first
  /// positional argument (then the function name is the second).
  Extern,
};

/// The result rule of one intrinsic.
struct IntrinsicRule {
  ResultKind kind = ResultKind::None;
  const char *param = nullptr;
  DType fixed = DType(ScalarType::Int32);
};

} // namespace

static IntrinsicRule none() { return {}; }
static IntrinsicRule sameAs(const char *param) {
  return {ResultKind::SameAs, param, DType(ScalarType::Int32)};
}
static IntrinsicRule fixed(ScalarType t, unsigned lanes = 1) {
  return {ResultKind::Fixed, nullptr, DType(t, lanes)};
}
static IntrinsicRule fromDType(const char *param) {
  return {ResultKind::FromDTypeArg, param, DType(ScalarType::Int32)};
}

/// The rule of every primitive built as a tile.intrinsic; nullopt for the
/// others.
static std::optional<IntrinsicRule> getIntrinsicRule(BuiltinId id) {
  switch (id) {
  // Ascend (BuiltinsAscend.def): one op each, built for no tlc target.
  case BuiltinId::SetHf32Mode:
  case BuiltinId::DualCopy:
  case BuiltinId::AscendSetCopyPadValue:
  case BuiltinId::AscendPipeBarrier:
  case BuiltinId::AscendSetFlag:
  case BuiltinId::AscendWaitFlag:
  case BuiltinId::AscendThreadfence:
  case BuiltinId::AscendCrossCoreSetFlag:
  case BuiltinId::AscendCrossCoreWaitFlag:
  case BuiltinId::AscendGetBuf:
  case BuiltinId::AscendRlsBuf:
  case BuiltinId::AscendNd2nzPostCopy:
  case BuiltinId::AscendSyncInterWait:
  case BuiltinId::AscendSyncInterArrive:
  case BuiltinId::SetAtomic:
  case BuiltinId::SetAtomicNone:
  case BuiltinId::SimdVsts:
    return none();
  case BuiltinId::SimdVdup:
  case BuiltinId::SimdVcvt:
    return fromDType("dtype");
  case BuiltinId::SimdVld:
    return sameAs("src");
  case BuiltinId::SimdVdupv:
  case BuiltinId::SimdVabs:
  case BuiltinId::SimdVcmax:
    return sameAs("x");
  case BuiltinId::SimdVadd:
  case BuiltinId::SimdVmax:
  case BuiltinId::SimdVdiv:
    return sameAs("a");
  case BuiltinId::SimdPset:
    return fixed(ScalarType::Bool);
  // Launch-frame queries.
  case BuiltinId::GetLaneIdx:
  case BuiltinId::GetWarpIdx:
  case BuiltinId::GetWarpIdxSync:
  case BuiltinId::GetWarpGroupIdx:
  case BuiltinId::BlockRankInCluster:
  case BuiltinId::ClcGetFirstCtaidX:
  case BuiltinId::ClcGetFirstCtaidY:
  case BuiltinId::ClcGetFirstCtaidZ:
  case BuiltinId::SyncthreadsCount:
    return fixed(ScalarType::Int32);
  case BuiltinId::ShuffleElect:
  case BuiltinId::ClcIsCanceled:
  case BuiltinId::AnyOf:
  case BuiltinId::AllOf:
    return fixed(ScalarType::Bool);
  // Warp shuffles, votes and reductions.
  case BuiltinId::ShflXor:
  case BuiltinId::ShflDown:
  case BuiltinId::ShflUp:
  case BuiltinId::ShflSync:
  case BuiltinId::TvmWarpShuffle:
  case BuiltinId::WarpReduceSum:
  case BuiltinId::WarpReduceMax:
  case BuiltinId::WarpReduceMin:
  case BuiltinId::WarpReduceBitand:
  case BuiltinId::WarpReduceBitor:
    return sameAs("value");
  case BuiltinId::AnySync:
  case BuiltinId::AllSync:
  case BuiltinId::SyncthreadsAnd:
  case BuiltinId::SyncthreadsOr:
  case BuiltinId::MatchAllSync:
    return fixed(ScalarType::Int32);
  case BuiltinId::BallotSync:
  case BuiltinId::Ballot:
  case BuiltinId::Activemask:
  case BuiltinId::MatchAnySync:
    return fixed(ScalarType::UInt32);
  // Synchronisation, barriers, fences, register control: statements.
  case BuiltinId::ClusterArrive:
  case BuiltinId::ClusterArriveRelaxed:
  case BuiltinId::ClusterWait:
  case BuiltinId::ClusterSync:
  case BuiltinId::ClcTryCancel:
  case BuiltinId::ClcTryCancelMulticast:
  case BuiltinId::PdlTrigger:
  case BuiltinId::PdlSync:
  case BuiltinId::DeallocateTmem:
  case BuiltinId::TmaLoad:
  case BuiltinId::TmaStoreArrive:
  case BuiltinId::TmaStoreWait:
  case BuiltinId::PtxCpAsync:
  case BuiltinId::CpAsyncBarrierNoinc:
  case BuiltinId::Stg32:
  case BuiltinId::Stg64:
  case BuiltinId::Stg128:
  case BuiltinId::Stg256:
  case BuiltinId::Sts32:
  case BuiltinId::Sts64:
  case BuiltinId::Sts128:
  case BuiltinId::WaitWgmma:
  case BuiltinId::Tcgen05MmaArrive:
  case BuiltinId::AtomicStore:
  case BuiltinId::St:
  case BuiltinId::Ld:
  case BuiltinId::Dp4a:
  case BuiltinId::Tcgen05CpWarpx4:
  case BuiltinId::Tcgen05SfWarpTranspose:
  case BuiltinId::Tcgen05BeforeThreadSync:
  case BuiltinId::Tcgen05AfterThreadSync:
  case BuiltinId::RngInit:
  case BuiltinId::TvmThreadAllreduce:
  case BuiltinId::SetMaxNreg:
  case BuiltinId::IncMaxNreg:
  case BuiltinId::DecMaxNreg:
  case BuiltinId::SyncGlobal:
  case BuiltinId::NamedBarrierArrive:
  case BuiltinId::BarrierWait:
  case BuiltinId::BarrierArrive:
  case BuiltinId::MbarrierWaitParity:
  case BuiltinId::MbarrierArrive:
  case BuiltinId::MbarrierExpectTx:
  case BuiltinId::MbarrierArriveExpectTx:
  case BuiltinId::PtxArriveClusterBarrier:
  case BuiltinId::FenceProxyAsync:
  case BuiltinId::WarpgroupArrive:
  case BuiltinId::WarpgroupCommitBatch:
  case BuiltinId::WarpgroupWait:
  case BuiltinId::WarpgroupFenceOperand:
  case BuiltinId::PtxWaitGroup:
  case BuiltinId::PtxCommitGroup:
  case BuiltinId::TvmStorageSync:
  case BuiltinId::PtxArriveBarrier:
  case BuiltinId::PtxInitBarrierThreadCount:
  case BuiltinId::CopyCluster:
  case BuiltinId::TmaGather4:
  case BuiltinId::TmaScatter4:
  case BuiltinId::Tcgen05GemmBlockscaled:
  case BuiltinId::BlockscaledGemm:
  case BuiltinId::WgmmaGemmSp:
  case BuiltinId::Tcgen05GemmSp:
  case BuiltinId::ReducerInit:
  case BuiltinId::ReducerUpdate:
  case BuiltinId::FinalizeReducer:
  case BuiltinId::Cummax:
  case BuiltinId::Im2col:
  case BuiltinId::LoopBreak:
  case BuiltinId::SyncWarp:
  case BuiltinId::SyncGrid:
    return none();
  // Annotations: facts for the code generator, no effect on values.
  case BuiltinId::AnnotateL2HitRatio:
  case BuiltinId::AnnotateSafeValue:
  case BuiltinId::AnnotateMinBlocksPerSm:
  case BuiltinId::AnnotateRestrictBuffers:
  case BuiltinId::AnnotateWsSchedule:
  case BuiltinId::AnnotateProducerRegDealloc:
  case BuiltinId::AnnotateConsumerRegAlloc:
  case BuiltinId::NoSetMaxNreg:
  case BuiltinId::DisableWarpGroupRegAlloc:
  // A raw TIR block's read and write regions: metadata only.
  case BuiltinId::Reads:
  case BuiltinId::Writes:
    return none();
  case BuiltinId::CreateListOfMbarrier:
  case BuiltinId::InitializeWgmmaDescriptor:
  case BuiltinId::PtxWgmmaSs:
  case BuiltinId::TvmMfma:
  case BuiltinId::AnnotatePadding:
    return none();
  case BuiltinId::GetMbarrier:
    return fixed(ScalarType::Handle);
  case BuiltinId::QMultiplyShiftPerAxis:
    return fixed(ScalarType::Int32);
  case BuiltinId::Rand:
    return fixed(ScalarType::Float32);
  case BuiltinId::AtomicMax:
  case BuiltinId::AtomicMin:
    return IntrinsicRule{ResultKind::ReturnPrev, "dst",
                         DType(ScalarType::Int32)};
  // Raw loads: 32-bit words.
  case BuiltinId::Ldg32:
  case BuiltinId::Lds32:
    return fixed(ScalarType::UInt32);
  case BuiltinId::Ldg64:
  case BuiltinId::Lds64:
  case BuiltinId::DsReadTr16B64:
  case BuiltinId::DsReadTr8B64:
    return fixed(ScalarType::UInt32, 2);
  case BuiltinId::Ldg128:
  case BuiltinId::Lds128:
    return fixed(ScalarType::UInt32, 4);
  case BuiltinId::Ldg256:
    return fixed(ScalarType::UInt32, 8);
  // Atomics that read.
  case BuiltinId::AtomicOr:
    return sameAs("dst");
  case BuiltinId::AtomicLoad:
    return sameAs("src");
  // Math with explicit precision or rounding, packed two-wide math.
  case BuiltinId::FastExp:
  case BuiltinId::FastExp10:
  case BuiltinId::FastLog:
  case BuiltinId::FastLog2:
  case BuiltinId::FastLog10:
  case BuiltinId::FastSin:
  case BuiltinId::FastCos:
  case BuiltinId::FastTan:
  case BuiltinId::FastRcp:
  case BuiltinId::IeeeAdd:
  case BuiltinId::IeeeSub:
  case BuiltinId::IeeeMul:
  case BuiltinId::IeeeFdiv:
  case BuiltinId::IeeeFmaf:
  case BuiltinId::IeeeFrcp:
  case BuiltinId::IeeeFsqrt:
  case BuiltinId::IeeeFrsqrt:
  case BuiltinId::Add2:
  case BuiltinId::Sub2:
  case BuiltinId::Mul2:
  case BuiltinId::Max2:
  case BuiltinId::Min2:
  case BuiltinId::Fma2:
  case BuiltinId::Abs2:
  case BuiltinId::Fma:
  case BuiltinId::Fmul:
    return sameAs("x");
  // Calls.
  case BuiltinId::CallIntrin:
    return fromDType("dtype");
  case BuiltinId::CallExtern:
    return IntrinsicRule{ResultKind::Extern, nullptr, DType(ScalarType::Int32)};
  case BuiltinId::CallPacked:
    return fixed(ScalarType::Int32);
  case BuiltinId::CreateTmaDescriptor:
  case BuiltinId::AccessPtr:
  case BuiltinId::AddressOf:
    return fixed(ScalarType::Handle);
  // Random numbers.
  case BuiltinId::RngRand:
    return fixed(ScalarType::UInt32);
  case BuiltinId::RngRandFloat:
    return fixed(ScalarType::Float32);
  default:
    return std::nullopt;
  }
}

/// Parameters whose argument is a location (a buffer, a region or an
/// element address), not a value: `bar[0]` names the barrier, it does not
/// read it.
static bool isLocationParam(llvm::StringRef name) {
  return llvm::is_contained(
      {"mbarrier", "barrier", "dst", "src", "target", "result", "buffer",
       "smem_src", "tmem_dst", "buffer_or_ptr", "base", "reducer", "A", "B",
       "C", "E", "A_sparse", "SFA", "SFB", "SFA_tmem", "SFB_tmem", "mbar",
       "remote_barrier", "buffer_load"},
      name);
}

namespace {
/// Collects the operands and options of one tile.intrinsic.
struct IntrinsicArgs {
  Interpreter &in;
  llvm::SmallVector<mlir::Value, 6> operands;
  llvm::SmallVector<mlir::Attribute, 6> params;
  llvm::SmallVector<mlir::NamedAttribute, 4> options;
  /// Element dtype of each parameter's first IR argument.
  llvm::StringMap<DType> dtypes;
  bool failed = false;

  void option(llvm::StringRef name, mlir::Attribute a) {
    options.push_back(in.ir->b.getNamedAttr(name, a));
  }

  /// Adds the argument \p v passed for parameter \p name.
  void add(llvm::StringRef name, Value v, Node at, bool location,
           unsigned depth = 0) {
    auto &B = in.ir->b;
    if (v.isNone())
      return;
    if (v.isAbrupt()) {
      failed = true;
      return;
    }
    if (v.isStr()) {
      option(name, B.getStringAttr(getStr(v)));
      return;
    }
    if (v.is(ValueKind::DType)) {
      option(name, B.getStringAttr(v.getDType().getName()));
      return;
    }
    if (v.is(ValueKind::Buffer) || v.is(ValueKind::Region)) {
      bool element =
          v.is(ValueKind::Region) && v.as<RegionObj>()->isElement;
      bool var = v.is(ValueKind::Buffer) &&
                 v.as<BufferObj>()->scope == MemoryScope::LocalVar;
      if (location || (!element && !var)) {
        RegionObj *r = in.asRegion(v, at);
        mlir::Value rv = r ? in.regionValue(r, at) : mlir::Value();
        if (!rv) {
          failed = true;
          return;
        }
        dtypes.try_emplace(name, r->buffer->dtype);
        operands.push_back(rv);
        params.push_back(B.getStringAttr(name));
        return;
      }
    }
    if (v.isSequence() && depth < 4) {
      for (Value e : getElems(v))
        add(name, e, at, location, depth + 1);
      return;
    }
    if (v.isNumber() || v.is(ValueKind::Sym) || v.is(ValueKind::Expr) ||
        v.is(ValueKind::Region) || v.is(ValueKind::Buffer)) {
      Scalar s = in.toScalar(v, at);
      if (!s) {
        failed = true;
        return;
      }
      dtypes.try_emplace(name, s.dtype);
      operands.push_back(s.value);
      params.push_back(B.getStringAttr(name));
      return;
    }
    // Functions, layouts and values from outside TileLang carry no IR;
    // keep what they were for the reader.
    option(name, B.getStringAttr(in.toString(v)));
  }
};
} // namespace

/// The dtype a `T.call_extern(dtype, ...)` style argument names; nullopt
/// for `handle`/`void`-like spellings that give no value.
static std::optional<DType> resultDTypeOf(Interpreter &in, Value v) {
  if (v.isStr() && (getStr(v) == "void" || getStr(v).empty()))
    return std::nullopt;
  if (v.isNone())
    return std::nullopt;
  if (std::optional<DType> t = in.toDType(v))
    return t;
  return DType(ScalarType::Handle);
}

/// T.q_multiply_shift_per_axis(x, y, ls, rs, q, is_lshift_required,
/// is_rshift_required): TVM's fixed-point multiply as its legalization
/// defines it, in 64-bit integers: x << ls where is_lshift_required is
/// nonzero, times y, plus 2^(rs + q - 1), shifted right (arithmetically)
/// by rs + q, truncated to int32. is_rshift_required does not take part.
static Value qMultiplyShiftPerAxis(Interpreter &in, const PArgs &p) {
  llvm::ArrayRef<Value> a = p.rest("args");
  if (a.size() != 7)
    return in.fail(p.call,
                   "T.q_multiply_shift_per_axis takes 7 arguments (x, y, ls, "
                   "rs, q, is_lshift_required, is_rshift_required), got " +
                       llvm::Twine(a.size()));
  mlir::OpBuilder &b = in.ir->b;
  mlir::Location l = in.ir->loc(p.call);
  mlir::Type i64 = b.getI64Type(), i32 = b.getI32Type();
  llvm::SmallVector<mlir::Value, 6> v;
  for (unsigned i = 0; i < 6; ++i) {
    Scalar s = in.toScalar(a[i], p.call, i32);
    if (!s)
      return Value::poison();
    if (!mlir::isa<mlir::IntegerType, mlir::IndexType>(s.value.getType()))
      return in.fail(p.call, "T.q_multiply_shift_per_axis takes integer "
                             "arguments, not " + s.dtype.getName());
    if (i == 5 && s.value.getType().isInteger(1)) {
      v.push_back(s.value);
      continue;
    }
    mlir::Value x =
        in.ir->convert(s.value, i64, l, s.dtype.isUnsignedInteger());
    if (i == 5) // a flag: nonzero is true
      x = mlir::arith::CmpIOp::create(b, l, mlir::arith::CmpIPredicate::ne, x,
                                      in.ir->constInt(0, i64, l));
    v.push_back(x);
  }
  mlir::Value x = mlir::arith::SelectOp::create(
      b, l, v[5], mlir::arith::ShLIOp::create(b, l, v[0], v[2]), v[0]);
  x = mlir::arith::MulIOp::create(b, l, x, v[1]);
  mlir::Value shift = mlir::arith::AddIOp::create(b, l, v[3], v[4]);
  mlir::Value one = in.ir->constInt(1, i64, l);
  mlir::Value round = mlir::arith::ShLIOp::create(
      b, l, one, mlir::arith::SubIOp::create(b, l, shift, one));
  x = mlir::arith::AddIOp::create(b, l, x, round);
  x = mlir::arith::ShRSIOp::create(b, l, x, shift);
  return in.wrapScalar({mlir::arith::TruncIOp::create(b, l, i32, x),
                        lang::DType(lang::ScalarType::Int32), SymExpr()});
}

std::optional<Value>
Interpreter::buildClcOp(const PArgs &p, llvm::ArrayRef<mlir::Value> operands,
                        std::optional<lang::DType> result) {
  BuiltinId id = p.info.id;
  bool cancel =
      id == BuiltinId::ClcTryCancel || id == BuiltinId::ClcTryCancelMulticast;
  std::optional<tile::ClcQueryKind> kind;
  if (id == BuiltinId::ClcIsCanceled)
    kind = tile::ClcQueryKind::IsCanceled;
  else if (id == BuiltinId::ClcGetFirstCtaidX)
    kind = tile::ClcQueryKind::FirstCtaidX;
  else if (id == BuiltinId::ClcGetFirstCtaidY)
    kind = tile::ClcQueryKind::FirstCtaidY;
  else if (id == BuiltinId::ClcGetFirstCtaidZ)
    kind = tile::ClcQueryKind::FirstCtaidZ;
  if (!cancel && !kind)
    return std::nullopt;
  // Cluster launch control (tile.clc_try_cancel / tile.clc_query): the
  // response is four 32-bit words of shared memory, the completion one
  // mbarrier.
  auto isBuffer = [](mlir::Value v) {
    return v && mlir::isa<tile::BufferType>(v.getType());
  };
  mlir::Value response = operands.empty() ? mlir::Value() : operands[0];
  if (!isBuffer(response))
    return fail(p.node("result"), p.info.name +
                                      " needs the shared buffer of the "
                                      "response (4 x uint32) as `result`");
  auto rt = mlir::cast<tile::BufferType>(response.getType());
  int64_t words = 1;
  for (int64_t d : rt.getShape())
    words = d < 0 ? -1 : words * d;
  auto elem = mlir::dyn_cast<mlir::IntegerType>(rt.getElementType());
  if (!tile::isSharedScope(rt.getScope()) || !elem || elem.getWidth() != 32 ||
      words != 4)
    return fail(p.node("result"),
                p.info.name +
                    ": the response is 16 bytes of shared memory, "
                    "a T.alloc_shared((4,), \"uint32\") buffer or a "
                    "row of 4 of one; got " +
                    tile::getDTypeName(rt.getElementType()) + " " +
                    rt.getShapeString() + " in '" +
                    tile::stringifyMemoryScope(rt.getScope()).str() + "'");
  auto &B = ir->b;
  mlir::Location loc = ir->loc(p.call);
  if (kind) {
    auto op = tile::ClcQueryOp::create(B, loc, ir->valueType(*result), *kind,
                                       response);
    return wrapScalar({op.getValue(), *result, SymExpr()});
  }
  mlir::Value bar = operands.size() > 1 ? operands[1] : mlir::Value();
  auto bt = isBuffer(bar) ? mlir::cast<tile::BufferType>(bar.getType())
                          : tile::BufferType();
  // A one-element shared uint64 buffer is an mbarrier too: TileLang
  // passes its address (upstream issue 2602's test declares it so), as
  // tile.clc_try_cancel takes it.
  bool sharedWord = bt && tile::isSharedScope(bt.getScope()) &&
                    bt.getElementType().isInteger(64);
  if (!bt || !(tile::isBarrierScope(bt.getScope()) || sharedWord) ||
      !bt.isStatic() || bt.getRank() != 1 || bt.getShape()[0] != 1)
    return fail(p.node("mbarrier"),
                p.info.name + ": completes on one mbarrier, an element of "
                              "T.alloc_barrier or T.alloc_cluster_barrier");
  tile::ClcTryCancelOp::create(B, loc, response, bar,
                               id == BuiltinId::ClcTryCancelMulticast);
  return Value::none();
}

/// T.tvm_access_ptr(ptype, data, offset, extent, rw_mask): TVM's builtin
/// behind Buffer.access_ptr, the pointer to `extent` elements of the
/// buffer `data` from element `offset`, read (rw_mask bit 1) and/or
/// written (bit 2). It is T.access_ptr(data, access_type, offset=offset,
/// extent=extent) of the same buffer.
static Value tvmAccessPtr(Interpreter &in, const PArgs &p) {
  for (llvm::StringRef name : {"ptype", "data", "offset", "extent", "rw_mask"})
    if (Value v = p.getOr(name, Value::none()); v.isAbrupt())
      return v;
  // Outside a traced kernel (TIR-level code) it builds a TVM expression
  // nothing here reads, as T.access_ptr does there.
  if (!in.tracing())
    return in.heap.opaque(p.info.name);
  Value ptype = p.getOr("ptype", Value::none());
  if (!ptype.is(ValueKind::DType) && !ptype.isStr())
    return in.fail(p.node("ptype"),
                   "T.tvm_access_ptr: ptype is the pointee's dtype "
                   "(T.type_annotation(dtype)), not " +
                       in.toString(ptype, true));
  Value data = p.getOr("data", Value::none());
  if (!data.is(ValueKind::Buffer))
    return in.fail(p.node("data"),
                   "T.tvm_access_ptr: data must be a buffer's data (buf.data), "
                   "not " +
                       in.toString(data, true));
  Value mask = p.getOr("rw_mask", Value::none());
  if (!mask.isIntLike() || mask.is(ValueKind::Bool) || mask.getInt() < 1 ||
      mask.getInt() > 3)
    return in.fail(p.node("rw_mask"),
                   "T.tvm_access_ptr: rw_mask must be 1 (read), 2 (write) or "
                   "3 (read and write), not " +
                       in.toString(mask, true));
  static const char *const access[] = {"", "r", "w", "rw"};
  CallArgs args;
  args.pos = {data, in.heap.strNoCopy(access[mask.getInt()])};
  args.posNodes = {p.node("data"), p.node("rw_mask")};
  args.kw = {{"offset", p.getOr("offset", Value::integer(0))},
             {"extent", p.getOr("extent", Value::none())}};
  args.kwNodes = {p.node("offset"), p.node("extent")};
  return in.callPrimitive(lang::getBuiltin(BuiltinId::AccessPtr), args, p.call);
}

std::optional<Value> Interpreter::callIntrinsicPrimitive(const PArgs &p) {
  if (p.info.id == BuiltinId::TvmAccessPtr)
    return tvmAccessPtr(*this, p);
  if (p.info.id == BuiltinId::AnnotateSafeValue && tracing()) {
    // TileLang keeps any expression as a tensor's safe value; a constant
    // one (T.cast(-0.0, dtype), folded in the element's dtype) is the
    // number the targets read from the map, -0.0 with its sign.
    Value m = p.getOr("safe_value_map", Value::none());
    if (m.isAbrupt())
      return m;
    if (m.is(ValueKind::Dict)) {
      std::string text = "{";
      for (auto &[key, value] : m.as<DictObj>()->items) {
        if (key.isAbrupt() || value.isAbrupt())
          return Value::poison();
        Value v = value;
        mlir::Value x =
            v.is(ValueKind::Expr) ? v.as<ExprObj>()->value : mlir::Value();
        mlir::FloatAttr f;
        mlir::IntegerAttr i;
        if (x && mlir::matchPattern(x, mlir::m_Constant(&f)))
          v = Value::floating(f.getValueAsDouble());
        else if (x && mlir::matchPattern(x, mlir::m_Constant(&i)))
          v = Value::integer(i.getType().isInteger(1)
                                 ? int64_t(i.getValue().getZExtValue())
                                 : i.getValue().getSExtValue());
        if (text.size() > 1)
          text += ", ";
        text += toString(key) + ": " + toString(v);
      }
      text += "}";
      auto &B = ir->b;
      tile::IntrinsicOp::create(B, ir->loc(p.call), mlir::TypeRange(),
                                B.getStringAttr(p.info.name),
                                mlir::ValueRange(), B.getArrayAttr({}),
                                B.getDictionaryAttr(B.getNamedAttr(
                                    "safe_value_map", B.getStringAttr(text))));
      return Value::none();
    }
  }
  if (p.info.id == BuiltinId::TvmThreadAllreduce && tracing())
    return threadAllreduce(*this, p);
  if (p.info.id == BuiltinId::PtxLdmatrix)
    return ptxLdmatrix(*this, p);
  if (p.info.id == BuiltinId::QMultiplyShiftPerAxis && tracing())
    return qMultiplyShiftPerAxis(*this, p);
  if (p.info.id == BuiltinId::AtomicMax || p.info.id == BuiltinId::AtomicMin)
    if (std::optional<Value> r = tileAtomicMinMax(*this, p))
      return r;
  if ((p.info.id == BuiltinId::RngInit || p.info.id == BuiltinId::RngRand ||
       p.info.id == BuiltinId::RngRandFloat) &&
      tracing())
    return callRngPrimitive(p);
  if (p.info.id == BuiltinId::AssumeNoConflict)
    return assumeNoConflict(*this, p);
  if (p.info.id == BuiltinId::AnnotateManualMultiBuffer ||
      p.info.id == BuiltinId::AnnotateUnlimitMemory)
    return ascendScheduleAnnotation(*this, p);
  if (p.info.id == BuiltinId::BlockscaledGemm &&
      !checkAscendBlockscaledGemm(*this, p))
    return Value::poison();
  // Ascend's pipe and event names are strings (TileLang's TypeError).
  for (const char *param : {"pipe_t", "hard_event", "pipe"}) {
    if (!llvm::StringRef(p.info.name).starts_with("T.ascend_"))
      break;
    std::optional<Value> v = p.get(param);
    if (!v || v->isStr() || v->isAbrupt() || v->isPoison())
      continue;
    errorAs("TypeError", p.node(param).range(),
            p.info.name + ": " + param + " must be a string such as " +
                (llvm::StringRef(param) == "hard_event" ? "'MTE2_MTE1'"
                                                        : "'PIPE_MTE2'") +
                ", not '" + v->getTypeName() + "'");
    return Value::poison();
  }
  if (p.info.id == BuiltinId::DualCopy && !checkL2CacheCtrl(*this, p))
    return Value::poison();
  if (p.info.id == BuiltinId::AscendSetCopyPadValue) {
    // The pad register holds an element of one of these dtypes; a Python
    // number names none, so TileLang needs dtype= then.
    static const llvm::StringRef padTypes[] = {"int8",   "uint8",    "int16",
                                               "uint16", "float16",  "int32",
                                               "uint32", "bfloat16", "float32"};
    Value v = p.getOr("value", Value::poison());
    Value dt = p.getOr("dtype", Value::none());
    if (v.isAbrupt() || dt.isAbrupt())
      return Value::poison();
    if (dt.isNone() && v.isNumber()) {
      errorAs("ValueError", p.node("value").range(),
              "T.ascend_set_copy_pad_value: dtype= is required when the "
              "value is a Python number");
      return Value::poison();
    }
    if (!dt.isNone()) {
      std::optional<DType> t = toDType(dt, p.node("dtype"));
      if (!t)
        return fail(p.node("dtype"), "unknown dtype " + toString(dt, true));
      if (!llvm::is_contained(padTypes, t->getName())) {
        errorAs(
            "ValueError", p.node("dtype").range(),
            "T.ascend_set_copy_pad_value: the pad value is an element "
            "of " +
                llvm::join(llvm::ArrayRef<llvm::StringRef>(padTypes), ", ") +
                ", not " + t->getName());
        return Value::poison();
      }
    }
  }
  if (p.info.id == BuiltinId::AnnotateBufferVersions) {
    // Ascend multi-buffering: {buffer: versions}; no effect on values.
    Value v = p.getOr("versions", Value::none());
    if (v.isAbrupt())
      return v;
    if (!v.is(ValueKind::Dict))
      return fail(p.node("versions"),
                  "T.annotate_buffer_versions expects a dict {buffer: "
                  "number of versions}, not " + toString(v, true));
    markAscend(p.call, "T.annotate_buffer_versions");
    return Value::none();
  }
  if (p.info.id == BuiltinId::FinalizeReducer && tracing()) {
    // The out-of-place form writes a fragment of the reducer's shape and
    // dtype (TileLang's rule: "the destination fragment"). (Other misuses
    // are reported where the arguments are lowered.)
    auto extentsOf = [](Value v, BufferObj *&buf) {
      llvm::SmallVector<SymExpr, 4> out;
      buf = nullptr;
      if (v.is(ValueKind::Buffer)) {
        buf = v.as<BufferObj>();
        out.assign(buf->shape.begin(), buf->shape.end());
      } else if (v.is(ValueKind::Region)) {
        buf = v.as<RegionObj>()->buffer;
        out.assign(v.as<RegionObj>()->extents.begin(),
                   v.as<RegionObj>()->extents.end());
      }
      return out;
    };
    BufferObj *d = nullptr, *r = nullptr;
    llvm::SmallVector<SymExpr, 4> dExt =
        extentsOf(p.getOr("dst", Value::none()), d);
    llvm::SmallVector<SymExpr, 4> rExt =
        extentsOf(p.getOr("reducer", Value::none()), r);
    if (d && r) {
      if (d->scope != MemoryScope::Fragment)
        return fail(p.node("dst"), "T.finalize_reducer: dst must be a "
                                   "T.alloc_fragment buffer");
      if (dExt != rExt || d->dtype != r->dtype)
        return fail(p.node("dst"),
                    "T.finalize_reducer: dst must have the reducer's shape "
                    "and dtype (" +
                        r->dtype.getName() + ")");
    }
  }
  // T.set_hf32_mode(mode=None): TileLang takes None, "nearest_zero" or
  // "nearest_even" and raises a ValueError for anything else (a bool too).
  if (p.info.id == BuiltinId::SetHf32Mode) {
    Value mode = p.getOr("mode", Value::none());
    if (mode.isAbrupt())
      return mode;
    if (!mode.isNone() && !(mode.isStr() && (getStr(mode) == "nearest_zero" ||
                                             getStr(mode) == "nearest_even"))) {
      errorAs("ValueError", p.node("mode").range(),
              "hf32 mode must be None, 'nearest_zero', or 'nearest_even', "
              "got " +
                  toString(mode, true));
      return Value::poison();
    }
  }
  std::optional<IntrinsicRule> rule = getIntrinsicRule(p.info.id);
  if (!rule)
    return std::nullopt;
  // Outside a traced function these build TVM expressions for the Python
  // code that inspects them; their value is nothing tlc models.
  if (!tracing()) {
    if (rule->kind != ResultKind::None)
      return heap.opaque(p.info.name);
    return fail(p.call, p.info.name + " can only be used while a kernel is "
                                      "traced");
  }
  IntrinsicArgs a{*this};
  if (rule->kind == ResultKind::Extern) {
    llvm::ArrayRef<Value> pos = p.rest("args");
    Value dtype = p.getOr("dtype", Value::none());
    if (dtype.isNone() && !pos.empty()) {
      dtype = pos.front();
      pos = pos.drop_front();
    }
    // The name may come from outside TileLang (a string computed by a
    // library, e.g. tilelang.quantize's intrinsic tables): the call stays,
    // as an unmodelled call no target builds, and analysis goes on.
    bool unknownName = !pos.empty() && pos.front().is(ValueKind::Opaque);
    if (pos.empty() || (!pos.front().isStr() && !unknownName))
      return fail(p.call, "T.call_extern needs the name of the function");
    std::string name =
        unknownName ? toString(pos.front()) : std::string(getStr(pos.front()));
    // A name from TileLang's quantize library names the function of the
    // decoder source that library generates (LOP3 dequantisers), which tlc
    // does not carry.
    llvm::StringRef from =
        unknownName ? pos.front().as<OpaqueObj>()->description : "";
    bool fromLibrary = from.starts_with("tilelang.quantize.");
    if (fromLibrary)
      name = from.str();
    if (fromLibrary)
      warning(p.call, "the extern function's name is " + name +
                          ", a decoder of TileLang's quantize library whose "
                          "source tlc does not carry; the call is analysed "
                          "as an opaque call, and no target can build the "
                          "kernel while it is there");
    else if (unknownName)
      warning(p.call,
              "tlc cannot evaluate the name of this extern function "
              "('" +
                  name +
                  "', a value from outside TileLang); the "
                  "call is analysed as an opaque call, and no target can "
                  "build the kernel while it is there");
    else
      a.option("func_name", ir->b.getStringAttr(name));
    for (Value v : pos.drop_front())
      a.add("args", v, p.call, /*location=*/false);
    if (a.failed)
      return Value::poison();
    std::optional<DType> result = resultDTypeOf(*this, dtype);
    mlir::SmallVector<mlir::Type, 1> types;
    if (result)
      types.push_back(ir->valueType(*result));
    if (unknownName)
      a.option("what", ir->b.getStringAttr("T.call_extern of " + name));
    auto op = tile::IntrinsicOp::create(
        ir->b, ir->loc(p.call), types,
        ir->b.getStringAttr(unknownName ? "tlc.unmodelled_call" : p.info.name),
        a.operands, ir->b.getArrayAttr(a.params),
        ir->b.getDictionaryAttr(a.options));
    if (!result)
      return Value::none();
    return wrapScalar({op->getResult(0), *result, SymExpr()});
  }
  // T.copy_cluster copies a tile as T.copy does: an element on one side
  // (`A[by * bM, bx * bN]`) names the tile of the other side's extents
  // starting there.
  Value clusterSrc, clusterDst;
  if (p.info.id == BuiltinId::CopyCluster) {
    clusterSrc = p.getOr("src", Value::none());
    clusterDst = p.getOr("dst", Value::none());
    auto *s =
        clusterSrc.is(ValueKind::Region) ? clusterSrc.as<RegionObj>() : nullptr;
    auto *d =
        clusterDst.is(ValueKind::Region) ? clusterDst.as<RegionObj>() : nullptr;
    if (s && s->isElement && (!d || !d->isElement)) {
      if (RegionObj *dr = asRegion(clusterDst, p.node("dst")))
        if (RegionObj *w = inferExtents(*this, s, dr))
          clusterSrc = Value::object(ValueKind::Region, w);
    } else if (d && d->isElement && (!s || !s->isElement)) {
      if (RegionObj *sr = asRegion(clusterSrc, p.node("src")))
        if (RegionObj *w = inferExtents(*this, d, sr))
          clusterDst = Value::object(ValueKind::Region, w);
    }
  }
  llvm::ArrayRef<lang::ParamInfo> params = p.info.params;
  for (unsigned i = 0; i < params.size(); ++i) {
    const lang::ParamInfo &param = params[i];
    const lang::ParamBinding &bind = p.match.bindings[i];
    if (p.info.id == BuiltinId::CopyCluster &&
        (param.name == "src" || param.name == "dst")) {
      a.add(param.name, param.name == "src" ? clusterSrc : clusterDst,
            p.node(param.name), /*location=*/true);
      continue;
    }
    if (bind.source == lang::ParamBinding::Source::Default ||
        bind.source == lang::ParamBinding::Source::Missing)
      continue;
    if (rule->kind == ResultKind::FromDTypeArg && param.name == rule->param)
      continue;
    bool location = isLocationParam(param.name);
    if (param.kind == lang::ParamKind::VarPositional) {
      llvm::ArrayRef<Value> rest = p.rest(param.name);
      for (unsigned j = 0; j < rest.size(); ++j) {
        unsigned argIndex = bind.index + j;
        Node n = argIndex < p.args.posNodes.size() ? p.args.posNodes[argIndex]
                                                   : p.call;
        // T.ptx_arrive_barrier(bar[i], ...): its first operand names the
        // barrier.
        bool first = j == 0 && p.info.id == BuiltinId::PtxArriveBarrier;
        a.add(param.name, rest[j], n, location || first);
      }
      continue;
    }
    if (param.kind == lang::ParamKind::VarKeyword)
      continue;
    a.add(param.name, p.getOr(param.name, Value::none()), p.node(param.name),
          location);
  }
  if (a.failed)
    return Value::poison();
  if (p.info.id == BuiltinId::DsReadTr16B64 ||
      p.info.id == BuiltinId::DsReadTr8B64) {
    // The lanes' 8-byte chunks are LDS: an element (or the start of a
    // region) of a shared buffer whose elements tile the 8 bytes.
    mlir::Value src = a.operands.empty() ? mlir::Value() : a.operands[0];
    auto bt = src ? mlir::dyn_cast<tile::BufferType>(src.getType())
                  : tile::BufferType();
    if (!bt || !tile::isSharedScope(bt.getScope()))
      return fail(
          p.node("src"),
          p.info.name +
              " reads LDS: src must be an element of a "
              "shared buffer (T.alloc_shared), e.g. "
              "A_shared[i, j]" +
              (bt ? ", not of a '" +
                        tile::stringifyMemoryScope(bt.getScope()).str() +
                        "' buffer"
                  : std::string()));
    mlir::Type elem = bt.getElementType();
    unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
    if (bits < 8 || bits > 64 || 64 % bits != 0)
      return fail(p.node("src"),
                  p.info.name + " reads 8 bytes of whole elements; a '" +
                      tile::getDTypeName(elem) +
                      "' element does not tile them (8-, 16-, 32- and "
                      "64-bit elements do)");
  }
  if (p.info.id == BuiltinId::Fma || p.info.id == BuiltinId::Fmul) {
    // TileLang's checks: floats (TypeError) of one dtype (ValueError); a
    // Python number takes the others' dtype (the emitters convert it).
    std::optional<DType> common;
    for (llvm::StringRef name : {"x", "y", "z"}) {
      auto it = a.dtypes.find(name);
      if (it == a.dtypes.end() || p.getOr(name, Value::none()).isNumber())
        continue;
      if (!it->second.isFloat())
        return raise("TypeError",
                     p.info.name + " only supports floating-point inputs, "
                                   "got " +
                         it->second.getName(),
                     p.node(name));
      if (common && *common != it->second)
        return raise("ValueError",
                     p.info.name + " requires operands of the same dtype, "
                                   "got " +
                         common->getName() + " and " + it->second.getName(),
                     p.node(name));
      common = it->second;
    }
    if (common)
      a.dtypes["x"] = *common;
  }

  std::optional<DType> result;
  switch (rule->kind) {
  case ResultKind::None:
    break;
  case ResultKind::Fixed:
    result = rule->fixed;
    break;
  case ResultKind::SameAs: {
    auto it = a.dtypes.find(rule->param);
    result = it != a.dtypes.end() ? it->second : DType(ScalarType::Float32);
    break;
  }
  case ResultKind::FromDTypeArg:
    result = resultDTypeOf(*this, p.getOr(rule->param, Value::none()));
    break;
  case ResultKind::Extern:
    break;
  case ResultKind::ReturnPrev:
    if (p.flag("return_prev", false)) {
      auto it = a.dtypes.find(rule->param);
      result = it != a.dtypes.end() ? it->second : DType(ScalarType::Float32);
    }
    break;
  }

  auto &B = ir->b;
  if (std::optional<Value> clc = buildClcOp(p, a.operands, result))
    return *clc;
  mlir::SmallVector<mlir::Type, 1> resultTypes;
  if (result)
    resultTypes.push_back(ir->valueType(*result));
  mlir::DictionaryAttr options =
      a.options.empty() ? mlir::DictionaryAttr()
                        : B.getDictionaryAttr(a.options);
  auto op = tile::IntrinsicOp::create(
      B, ir->loc(p.call), resultTypes, B.getStringAttr(p.info.name),
      a.operands, B.getArrayAttr(a.params), options);
  if (!result)
    return Value::none();
  return wrapScalar({op->getResult(0), *result, SymExpr()});
}

void Interpreter::recordUnmodelledCall(Node call, CallArgs &args, bool warn) {
  Node func = call.child(Field::func);
  std::string name = func.text().str();
  if (name.size() > 80)
    name = name.substr(0, 77) + "...";
  if (warn)
    warning(func, "tlc does not model '" + name +
                      "' (an object from outside TileLang): what this call "
                      "does to the kernel is not analysed, and no target can "
                      "build the kernel while it is there");
  // The kernel data the call was given become operands, so that the op
  // stands where the effect would be; other arguments carry no IR.
  auto &B = ir->b;
  llvm::SmallVector<mlir::Value, 6> operands;
  llvm::SmallVector<mlir::Attribute, 6> params;
  auto add = [&](const llvm::Twine &param, Value v, Node at) {
    if (v.is(ValueKind::Buffer) || v.is(ValueKind::Region)) {
      if (RegionObj *r = asRegion(v, at))
        if (mlir::Value rv = regionValue(r, at)) {
          operands.push_back(rv);
          params.push_back(B.getStringAttr(param));
        }
      return;
    }
    if (v.is(ValueKind::Expr) || v.is(ValueKind::Sym)) {
      if (Scalar s = toScalar(v, at)) {
        operands.push_back(s.value);
        params.push_back(B.getStringAttr(param));
      }
    }
  };
  for (auto [i, v] : llvm::enumerate(args.pos))
    add("arg" + llvm::Twine(i), v,
        i < args.posNodes.size() ? args.posNodes[i] : call);
  for (auto [i, kv] : llvm::enumerate(args.kw))
    add(kv.first, kv.second, i < args.kwNodes.size() ? args.kwNodes[i] : call);
  tile::IntrinsicOp::create(
      B, ir->loc(call), mlir::TypeRange(),
      B.getStringAttr("tlc.unmodelled_call"), operands, B.getArrayAttr(params),
      B.getDictionaryAttr(B.getNamedAttr("what", B.getStringAttr(name))));
}
