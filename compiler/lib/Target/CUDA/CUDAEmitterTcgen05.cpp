//===- CUDAEmitterTcgen05.cpp - Tensor memory and tcgen05.mma for CUDA ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Blackwell (sm_100a) code for what tile-plan-tcgen05 planned:
//
// * Tensor memory: warp 0 allocates the kernel's `tile.tmem_alloc_cols`
//   columns at the top of the kernel (tcgen05.alloc writes their address
//   to a shared word every thread reads after a barrier) and frees them at
//   the end; each shared.tmem buffer is that address plus its
//   `tile.tmem_col`.
// * T.gemm with `tile.instr = "tcgen05"`: the first thread of the gemm's
//   thread range issues one tcgen05.mma.cta_group::1 per K step of the
//   instruction (M = 128, N up to 256 per instruction), A and B through
//   shared memory descriptors over tlc's swizzled panels (the canonical
//   layouts of WgmmaDescriptor.h, Tcgen05Descriptor.h's bits) or A from
//   tensor memory; the instruction descriptor is encoded here. fp4
//   (e2m1) operands are .kind::f8f6f4 tiles stored in the padded form,
//   one byte slot an element (CUDABufferAccess: tlc::fp4::paddedNibble). The
//   accumulator is D = A * B for the first step where the gemm clears it
//   (clear_accum, or the `if (cond) T.clear(C)` before it that
//   tile-plan-tcgen05 folded in), else D += A * B.
// * T.tcgen05_mma_arrive (and T.gemm's mbar): the same thread commits the
//   MMAs it issued to the mbarrier (tcgen05.commit).
// * T.copy between tensor memory and a fragment: tcgen05.ld / st .32x32b,
//   thread r of the range (a multiple of 128 threads from a warpgroup
//   boundary) on tensor memory lane r, 8 columns per instruction, the
//   fragment's registers found through its layout (layout inference gives
//   such a fragment one row per thread on sm_100a).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Target/CUDA/Tcgen05Descriptor.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Format.h"

#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

static std::string hex64(uint64_t v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format_hex(v, 18) << "ull";
  return s;
}

static std::string hex32(uint32_t v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format_hex(v, 10) << "u";
  return s;
}

/// The descriptor type of \p t, if tcgen05.mma takes it.
static std::optional<Tcgen05Type> tcgen05Type(Type t) {
  if (t.isF16())
    return Tcgen05Type::F16;
  if (t.isBF16())
    return Tcgen05Type::BF16;
  if (isa<Float8E4M3FNType>(t))
    return Tcgen05Type::E4M3;
  if (isa<Float8E5M2Type>(t))
    return Tcgen05Type::E5M2;
  if (isa<Float4E2M1FNType>(t))
    return Tcgen05Type::E2M1;
  if (t.isF32())
    return Tcgen05Type::F32;
  return std::nullopt;
}

LogicalResult Emitter::emitTmemPrologue(KernelOp kernel) {
  auto cols = kernel->getAttrOfType<IntegerAttr>("tile.tmem_alloc_cols");
  if (!cols)
    return success();
  if (!hasTcgen05(options.minComputeCapability) || lang.isHip())
    return kernel.emitError() << "tensor memory needs sm_100a";
  anyTcgen05 = true;
  bool pair = kernel->hasAttr("tile.tmem_2cta");
  tmemPair = pair;
  if (pair && !clusterLaunch)
    return kernel.emitError()
           << "use_2cta gemms run on a pair of CTAs: launch the kernel in "
              "clusters of 2 (T.Kernel(..., cluster_dims=2))";
  std::string suffix = pair ? "2Cta" : "";
  tmemBaseName = fresh("tmemBase");
  std::string slot = fresh("tmemSlot");
  line("// Tensor memory: " + Twine(cols.getInt()) + " columns, allocated " +
       (pair ? "with the peer CTA (cta_group::2) " : "") +
       "by warp 0 (tcgen05.alloc), freed at the end");
  line("__shared__ uint32_t " + slot + ";");
  open("if (threadIdx.x / 32 == 0)");
  line("tlc::cuda::tmemAlloc" + suffix + "(&" + slot + ", " +
       Twine(cols.getInt()) + ");");
  line("tlc::cuda::tmemRelinquishAllocPermit" + suffix + "();");
  close();
  line("tlc::cuda::tcgen05FenceBefore();");
  if (pair) {
    // Both CTAs' tensor memory exists before either's MMAs write it.
    anyCluster = true;
    line("tlc::cuda::clusterArrive();");
    line("tlc::cuda::clusterWait();");
  } else {
    line("__syncthreads();");
  }
  line("tlc::cuda::tcgen05FenceAfter();");
  line("const uint32_t " + tmemBaseName + " = " + slot + ";");
  return success();
}

/// Frees the kernel's tensor memory (warp 0's tcgen05.dealloc of the
/// columns its tcgen05.alloc took) once every tcgen05 operation of the
/// block (of the pair, for its allocation) is done.
static void emitTmemFree(Emitter &e, KernelOp kernel, int64_t cols) {
  bool pair = kernel->hasAttr("tile.tmem_2cta");
  e.line("tlc::cuda::tcgen05FenceBefore();");
  if (pair) {
    // The peer's MMAs into this CTA's tensor memory are done as well.
    e.line("tlc::cuda::clusterArrive();");
    e.line("tlc::cuda::clusterWait();");
  } else {
    e.line("__syncthreads();");
  }
  e.line(std::string("if (threadIdx.x / 32 == 0) tlc::cuda::tmemDealloc") +
         (pair ? "2Cta" : "") + "(" + e.tmemBaseName + ", " +
         std::to_string(cols) + ");");
  e.tmemBaseName.clear();
}

/// T.deallocate_tmem(buffer): TileLang frees the buffer at the call
/// instead of at the end of the block. tlc allocates the kernel's tensor
/// memory as one block of columns, so the call frees it when it is the
/// last of the kernel's top-level T.deallocate_tmem calls and they name
/// every tensor memory buffer (the end-of-kernel free is then not
/// emitted); otherwise the buffer's columns are freed with the rest at
/// the end of the kernel (later, which the program cannot observe).
static LogicalResult emitDeallocateTmem(Emitter &e, IntrinsicOp op) {
  Value buffer = argOf(op, "buffer");
  auto type = buffer ? dyn_cast<BufferType>(buffer.getType()) : BufferType();
  if (!type || type.getScope() != MemoryScope::TensorMemory ||
      !buffer.getDefiningOp<AllocOp>())
    return op.emitError("T.deallocate_tmem takes a buffer of T.alloc_tmem");
  auto kernel = op->getParentOfType<KernelOp>();
  auto cols = kernel->getAttrOfType<IntegerAttr>("tile.tmem_alloc_cols");
  llvm::SmallPtrSet<Value, 4> freed;
  IntrinsicOp last;
  for (Operation &o : kernel.getBody().front())
    if (auto d = dyn_cast<IntrinsicOp>(&o);
        d && d.getCallee() == "T.deallocate_tmem") {
      freed.insert(argOf(d, "buffer"));
      last = d;
    }
  bool all = true;
  kernel.walk([&](AllocOp alloc) {
    auto t = dyn_cast<BufferType>(alloc.getType());
    if (t && t.getScope() == MemoryScope::TensorMemory &&
        !freed.count(alloc.getResult()))
      all = false;
  });
  if (!cols || e.tmemBaseName.empty() || op != last || !all) {
    e.line("// T.deallocate_tmem: its columns are freed with the kernel's "
           "other tensor memory");
    return success();
  }
  e.line("// T.deallocate_tmem: every tensor memory buffer is freed here, "
         "so the kernel's columns are");
  emitTmemFree(e, kernel, cols.getInt());
  return success();
}

void Emitter::emitTmemEpilogue(KernelOp kernel) {
  auto cols = kernel->getAttrOfType<IntegerAttr>("tile.tmem_alloc_cols");
  if (!cols || tmemBaseName.empty())
    return;
  line("// Every tcgen05 operation of the block is done: warp 0 frees the "
       "tensor memory");
  emitTmemFree(*this, kernel, cols.getInt());
}

LogicalResult Emitter::emitTmemAlloc(AllocOp op, StringRef name) {
  auto col = op->getAttrOfType<IntegerAttr>("tile.tmem_col");
  auto cols = op->getAttrOfType<IntegerAttr>("tile.tmem_cols");
  if (!col || !cols || tmemBaseName.empty())
    return op.emitError() << "shared.tmem without a tensor memory plan (run "
                             "--tile-plan-tcgen05 for cuda:sm_100a)";
  line("const uint32_t " + name + " = " + tmemBaseName + " + " +
       Twine(col.getInt()) + ";  // tensor memory columns " +
       Twine(col.getInt()) + ".." + Twine(col.getInt() + cols.getInt() - 1));
  return success();
}

FailureOr<std::string>
Emitter::tmemViewAddress(Value view, Operation *at,
                         SmallVectorImpl<int64_t> &shape) {
  Value root = rootOf(view);
  auto rootType = cast<BufferType>(root.getType());
  auto viewType = cast<BufferType>(view.getType());
  unsigned rank = rootType.getRank();
  auto refuse = [&](const Twine &why) {
    at->emitError() << "tensor memory view: " << why;
    return failure();
  };
  if (rank < 2 || viewType.getRank() != rank || !viewType.isStatic() ||
      !rootType.isStatic())
    return refuse("tlc takes a whole static tile, one stage of a [stages, "
                  "lanes, columns] tile, or a window of its columns");
  // Per dimension: the constant part of the offset, the run-time parts and
  // the multiple they are known to be of.
  SmallVector<int64_t> offsets(rank, 0), divisors(rank, 0);
  SmallVector<std::string> dynamic(rank);
  for (Value v = view; auto region = v.getDefiningOp<RegionOp>();
       v = region.getSource()) {
    if (cast<BufferType>(region.getSource().getType()).getRank() != rank)
      return refuse("a view that drops dimensions");
    for (auto [d, o] : llvm::enumerate(region.getMixedOffsets())) {
      if (std::optional<int64_t> c = getConstantIntValue(o)) {
        offsets[d] += *c;
        continue;
      }
      Value x = cast<Value>(o);
      std::optional<IndexRange> known = rangeOf(x);
      divisors[d] =
          std::gcd(divisors[d], known ? std::max<int64_t>(known->div, 1) : 1);
      dynamic[d] = dynamic[d].empty() ? expr(x) : dynamic[d] + " + " + expr(x);
    }
  }
  ArrayRef<int64_t> rootShape = rootType.getShape(),
                    viewShape = viewType.getShape();
  unsigned laneDim = rank - 2, colDim = rank - 1;
  if (viewShape[laneDim] != rootShape[laneDim] || offsets[laneDim] != 0 ||
      !dynamic[laneDim].empty())
    return refuse("tcgen05.ld / st / mma take all " +
                  Twine(rootShape[laneDim]) + " lanes of the tile");
  for (unsigned d = 0; d < laneDim; ++d)
    if (viewShape[d] != 1)
      return refuse("one stage at a time of a [stages, lanes, columns] tile");
  int64_t bits = getElementStorageBytes(rootType.getElementType()) * 8;
  int64_t perCol = 32 / bits; // elements per 32-bit column
  if (bits > 32 || offsets[colDim] % perCol ||
      (!dynamic[colDim].empty() && divisors[colDim] % perCol))
    return refuse("a window of columns must start on a 32-bit column (a "
                  "multiple of " +
                  Twine(perCol) + " elements of " + Twine(bits) + " bits)");
  int64_t perStage = rootShape[colDim] * bits / 32;
  // Column of the view: stages (row-major over the leading dimensions)
  // times the columns of one, plus the window's column.
  std::string address = expr(root);
  int64_t constant = offsets[colDim] / perCol;
  int64_t stride = perStage;
  for (unsigned d = laneDim; d-- > 0;) {
    constant += offsets[d] * stride;
    if (!dynamic[d].empty())
      address += " + (" + dynamic[d] + ") * " + std::to_string(stride);
    stride *= rootShape[d];
  }
  if (!dynamic[colDim].empty())
    address += perCol == 1
                   ? " + (" + dynamic[colDim] + ")"
                   : " + (" + dynamic[colDim] + ") / " + std::to_string(perCol);
  if (constant)
    address += " + " + std::to_string(constant);
  shape.assign({viewShape[laneDim], viewShape[colDim]});
  return address == expr(root) ? address : "(" + address + ")";
}

FailureOr<std::string> Emitter::operandTileStart(Value v, Operation *op) {
  Value root = rootOf(v);
  if (root == v)
    return expr(root);
  auto type = cast<BufferType>(v.getType());
  SmallVector<std::string> zeros(type.getRank(), "0");
  FailureOr<RootAccess> access = resolve(v, zeros, op);
  if (failed(access))
    return failure();
  FailureOr<std::string> index = linearIndex(*access, op);
  if (failed(index))
    return failure();
  return "(" + expr(root) + " + " + *index + ")";
}

bool cuda_detail::isTcgen05Gemm(GemmOp op) {
  auto instr = op->getAttrOfType<StringAttr>("tile.instr");
  return instr && instr.getValue() == "tcgen05";
}

/// The shared operand \p v of \p op (a whole static tile stored in panels
/// of \p swizzleBytes rows) as descriptors see it.
static FailureOr<std::pair<WgmmaOperandTile, uint64_t>>
describeTcgen05Operand(Value v, int64_t swizzleBytes, bool kMajor,
                       Operation *op, StringRef which) {
  auto t = cast<BufferType>(v.getType());
  WgmmaOperandTile tile;
  tile.rows = t.getShape()[t.getRank() - 2];
  tile.cols = t.getShape()[t.getRank() - 1];
  tile.elemBytes = getElementStorageBytes(t.getElementType());
  tile.kMajor = kMajor;
  llvm::Expected<WgmmaSwizzle> mode = getSwizzleForBytes(swizzleBytes);
  if (!mode) {
    op->emitError() << "T.gemm (tcgen05): " << llvm::toString(mode.takeError());
    return failure();
  }
  tile.swizzle = *mode;
  llvm::Expected<WgmmaOperandAccess> first = getWgmmaOperandAccess(tile, 0, 0);
  if (!first) {
    op->emitError() << "T.gemm (tcgen05): operand " << which << ": "
                    << llvm::toString(first.takeError());
    return failure();
  }
  llvm::Expected<uint64_t> bits = encodeTcgen05SmemDescriptor(
      0, first->leadingByteOffset, first->strideByteOffset, tile.swizzle);
  if (!bits) {
    op->emitError() << "T.gemm (tcgen05): operand " << which << ": "
                    << llvm::toString(bits.takeError());
    return failure();
  }
  return std::make_pair(tile, *bits);
}

/// The byte offset in \p tile where an instruction's operand starting at
/// M/N index \p mn0 and K index \p k0 begins.
static FailureOr<int64_t> operandStart(const WgmmaOperandTile &tile,
                                       int64_t mn0, int64_t k0, Operation *op) {
  llvm::Expected<WgmmaOperandAccess> acc = getWgmmaOperandAccess(tile, mn0, k0);
  if (!acc) {
    op->emitError() << "T.gemm (tcgen05): " << llvm::toString(acc.takeError());
    return failure();
  }
  return acc->startOffset;
}

LogicalResult Emitter::emitTcgen05Gemm(GemmOp op) {
  beginOp(op, "T.gemm (tcgen05.mma)");
  if (!hasTcgen05(options.minComputeCapability))
    return op.emitError("T.gemm (tcgen05): tcgen05.mma needs sm_100a");
  // use_2cta: the pair's leader issues M = 2 x 128 rows, each CTA's A
  // its 128 rows and B half of N, at the same shared offsets in both.
  bool pair = op->hasAttr("tile.use_2cta");
  Value aRoot = rootOf(op.getA()), bRoot = rootOf(op.getB()), c = op.getC();
  auto aType = cast<BufferType>(aRoot.getType());
  if (aType.getScope() == MemoryScope::TensorMemory && aRoot != op.getA())
    return op.emitError("T.gemm (tcgen05): an A operand in tensor memory "
                        "must be a whole buffer");
  // D: a whole tile or one stage of a [stages, lanes, columns] one.
  SmallVector<int64_t> cShape;
  FailureOr<std::string> dBase = tmemViewAddress(c, op, cShape);
  if (failed(dBase))
    return failure();
  auto tileStart = [&](Value v) { return operandTileStart(v, op); };
  bool transA = op.getTransposeA(), transB = op.getTransposeB();
  bool aInTmem = aType.getScope() == MemoryScope::TensorMemory;
  std::optional<Tcgen05Type> abType = tcgen05Type(aType.getElementType());
  std::optional<Tcgen05Type> bbType =
      tcgen05Type(cast<BufferType>(bRoot.getType()).getElementType());
  if (!abType || !bbType)
    return op.emitError("T.gemm (tcgen05): unsupported operand type");
  llvm::Expected<Tcgen05Kind> kind = getTcgen05Kind(*abType);
  if (!kind)
    return op.emitError() << "T.gemm (tcgen05): "
                          << llvm::toString(kind.takeError());
  int64_t kStep = getTcgen05InstrK(*kind);
  int64_t m = cShape[0], n = cShape[1];
  // K of the operand itself: a K range of a tile (`A_s[:, 64:128]`) reads
  // part of the tile's K, from the region's first element.
  auto aShape = cast<BufferType>(op.getA().getType()).getShape();
  int64_t k = transA ? aShape[aShape.size() - 2] : aShape.back();
  if (k % kStep)
    return op.emitError() << "T.gemm (tcgen05): K = " << k
                          << " is not a multiple of the instruction's "
                          << kStep;
  int64_t nInstr = std::min<int64_t>(n, 256);
  if (pair && n > 256)
    return op.emitError("T.gemm (tcgen05): use_2cta with more than 256 "
                        "columns");
  if (n % nInstr)
    return op.emitError() << "T.gemm (tcgen05): N = " << n
                          << " is not a multiple of 256";
  Tcgen05Instr instr;
  instr.a = *abType;
  instr.b = *bbType;
  instr.d = Tcgen05Type::F32;
  instr.m = pair ? 2 * m : m;
  instr.n = nInstr;
  instr.ctaGroup = pair ? 2 : 1;
  instr.mnMajorA = transA;
  instr.mnMajorB = !transB;
  llvm::Expected<uint32_t> idesc = encodeTcgen05InstrDescriptor(instr);
  if (!idesc)
    return op.emitError() << "T.gemm (tcgen05): "
                          << llvm::toString(idesc.takeError());
  auto swB = panelSwizzle.find(bRoot);
  auto swA = panelSwizzle.find(aRoot);
  if (swB == panelSwizzle.end() || (!aInTmem && swA == panelSwizzle.end()))
    return op.emitError("T.gemm (tcgen05): the operands have no swizzled "
                        "panels (run --tile-plan-tcgen05)");
  FailureOr<std::pair<WgmmaOperandTile, uint64_t>> B =
      describeTcgen05Operand(bRoot, swB->second, transB, op, "B");
  if (failed(B))
    return failure();
  std::optional<std::pair<WgmmaOperandTile, uint64_t>> A;
  if (!aInTmem) {
    FailureOr<std::pair<WgmmaOperandTile, uint64_t>> a =
        describeTcgen05Operand(aRoot, swA->second, !transA, op, "A");
    if (failed(a))
      return failure();
    A = *a;
  }
  // The first step clears D where the gemm does: clear_accum, or the
  // condition of the `if (cond) T.clear(C)` tile-plan-tcgen05 folded in.
  std::string firstAccumulate = op.getClearAccum() ? "0u" : "1u";
  if (op->hasAttr("tile.clear_if")) {
    // The branch before the gemm (barriers the lowering placed between).
    Operation *prev = op->getPrevNode();
    while (isa_and_nonnull<BarrierOp>(prev))
      prev = prev->getPrevNode();
    auto ifOp = dyn_cast_or_null<IfOp>(prev);
    if (!ifOp)
      return op.emitOpError("tile.clear_if without the branch before it")
             << (prev ? " (" + prev->getName().getStringRef().str() + ")"
                      : std::string());
    firstAccumulate = "(" + expr(ifOp.getCondition()) + ") ? 0u : 1u";
  }
  std::string kindName = *kind == Tcgen05Kind::F16    ? "kTcgen05F16"
                         : *kind == Tcgen05Kind::TF32 ? "kTcgen05Tf32"
                                                      : "kTcgen05F8F6F4";
  anyTcgen05 = true;
  line("// one thread issues the MMAs (the thread T.tcgen05_mma_arrive / "
       "mbar commits them from)");
  open("if (tid == 0)");
  std::string aDesc = fresh("aDesc"), bDesc = fresh("bDesc");
  FailureOr<std::string> bStartPtr = tileStart(op.getB());
  if (failed(bStartPtr))
    return failure();
  if (A) {
    FailureOr<std::string> aStartPtr = tileStart(op.getA());
    if (failed(aStartPtr))
      return failure();
    line("const uint64_t " + aDesc + " = tlc::cuda::tcgen05SmemDescriptor(" +
         *aStartPtr + ", " + hex64(A->second) + ");");
  }
  line("const uint64_t " + bDesc + " = tlc::cuda::tcgen05SmemDescriptor(" +
       *bStartPtr + ", " + hex64(B->second) + ");");
  line("tlc::cuda::tcgen05FenceAfter();");
  int64_t aBits = getElementStorageBytes(aType.getElementType()) * 8;
  for (int64_t ch = 0; ch < n / nInstr; ++ch) {
    for (int64_t kk = 0; kk < k / kStep; ++kk) {
      FailureOr<int64_t> bStart =
          operandStart(B->first, ch * nInstr, kk * kStep, op);
      if (failed(bStart))
        return failure();
      std::string accumulate = kk == 0 ? firstAccumulate : "1u";
      std::string d = *dBase + " + " + std::to_string(ch * nInstr);
      std::string bArg = bDesc + " + " + std::to_string(*bStart / 16);
      if (aInTmem) {
        // A in tensor memory: lane = row, K packed into 32-bit columns.
        int64_t aCol = kk * kStep * aBits / 32;
        line("tlc::cuda::tcgen05MmaTS(" + d + ", " + expr(aRoot) + " + " +
             std::to_string(aCol) + ", " + bArg + ", " + hex32(*idesc) + ", " +
             accumulate + ");");
        continue;
      }
      FailureOr<int64_t> aStart = operandStart(A->first, 0, kk * kStep, op);
      if (failed(aStart))
        return failure();
      line("tlc::cuda::tcgen05MmaSS" + std::string(pair ? "2Cta" : "") +
           "<tlc::cuda::" + kindName + ">(" + d + ", " + aDesc + " + " +
           std::to_string(*aStart / 16) + ", " + bArg + ", " + hex32(*idesc) +
           ", " + accumulate + ");");
    }
  }
  close();
  return success();
}

/// How diagnostics name tcgen05.cp's primitive: TileLang spells it
/// T.tcgen05_cp_warpx4 or (its earlier name, still in its examples)
/// T.tcgen05_cp, and the IR keeps one callee for both.
static constexpr const char *kTcgen05CpNames =
    "T.tcgen05_cp / T.tcgen05_cp_warpx4 (tcgen05.cp)";

std::optional<LogicalResult>
Emitter::emitTcgen05Intrinsic(IntrinsicOp op, StringRef barrierAddress) {
  StringRef callee = op.getCallee();
  if (callee == "T.tcgen05_before_thread_sync" ||
      callee == "T.tcgen05_after_thread_sync") {
    if (!hasTcgen05(options.minComputeCapability) || lang.isHip()) {
      op.emitError() << callee
                     << " is Blackwell's (tcgen05), which needs "
                        "sm_100a";
      return failure();
    }
    anyTcgen05 = true;
    line(callee == "T.tcgen05_before_thread_sync"
             ? "tlc::cuda::tcgen05FenceBefore();"
             : "tlc::cuda::tcgen05FenceAfter();");
    return success();
  }
  if (callee == "T.tcgen05_gemm_blockscaled")
    return emitBlockScaledGemm(op, barrierAddress);
  if (callee == "T.deallocate_tmem") {
    if (!hasTcgen05(options.minComputeCapability) || lang.isHip())
      return op.emitError("T.deallocate_tmem frees Blackwell's tensor memory "
                          "(tcgen05.dealloc), which needs sm_100a");
    return emitDeallocateTmem(*this, op);
  }
  if (callee == "T.tcgen05_sf_warp_transpose")
    return emitScaleFactorCopy(op, argOf(op, "smem_src"), Value(),
                               /*transpose=*/true, /*copy=*/false);
  if (callee == "T.tcgen05_cp_warpx4") {
    // use_2cta: a constant picks cta_group::1 or ::2 (False is as if
    // absent). The program may have called the alias T.tcgen05_cp.
    Value pairArg = argOf(op, "use_2cta");
    if (pairArg && !matchPattern(pairArg, m_Constant())) {
      op.emitError() << kTcgen05CpNames
                     << ": use_2cta must be a constant (it picks "
                        "tcgen05.cp.cta_group::1 or ::2)";
      return failure();
    }
    bool pair = pairArg && matchPattern(pairArg, m_One());
    return emitScaleFactorCopy(
        op, argOf(op, "smem_src"), argOf(op, "tmem_dst"), /*transpose=*/false,
        /*copy=*/true, pair, argOf(op, "tmem_col_offset"));
  }
  if (callee != "T.tcgen05_mma_arrive")
    return std::nullopt;
  if (!hasTcgen05(options.minComputeCapability) || lang.isHip()) {
    op.emitError() << "T.tcgen05_mma_arrive (tcgen05.commit) is Blackwell's, "
                      "which needs sm_100a";
    return failure();
  }
  bool twoCta = false;
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < op.getParams().size() &&
        cast<StringAttr>(op.getParams()[i]).getValue() == "arrive_2cta")
      twoCta = !matchPattern(v, m_Zero());
  anyTcgen05 = true;
  if (twoCta) {
    // The pair's MMAs: the barrier at this offset in both CTAs arrives.
    line("if (tid == 0) tlc::cuda::tcgen05Commit2Cta(" + barrierAddress.str() +
         ", 3);  // both CTAs' barriers arrive");
    return success();
  }
  line("if (tid == 0) tlc::cuda::tcgen05Commit(" + barrierAddress.str() +
       ");  // the MMAs this thread issued arrive when done");
  return success();
}

LogicalResult Emitter::emitTmemCopy(CopyOp op) {
  Value src = op.getSrc(), dst = op.getDst();
  bool load = scopeOf(rootOf(src)) == MemoryScope::TensorMemory;
  Value tmem = load ? src : dst, frag = load ? dst : src;
  if (!hasTcgen05(options.minComputeCapability))
    return op.emitError("a copy to or from tensor memory needs sm_100a");
  if (isSharedScope(scopeOf(rootOf(frag)))) {
    // Scale factors into tensor memory: TileLang's copy transposes them
    // per warp and issues tcgen05.cp.
    if (load)
      return op.emitError("T.copy from tensor memory to shared memory is not "
                          "generated (copy through a fragment)");
    return emitScaleFactorCopy(op, src, dst, /*transpose=*/true,
                               /*copy=*/true);
  }
  if (rootOf(frag) != frag || scopeOf(frag) != MemoryScope::Fragment)
    return op.emitError("T.copy with tensor memory: tlc copies tensor "
                        "memory to or from a whole fragment (tcgen05.ld / "
                        "tcgen05.st)");
  // The tensor memory side: a whole tile, a stage, a window of columns.
  SmallVector<int64_t> tShape;
  FailureOr<std::string> tAddress = tmemViewAddress(tmem, op, tShape);
  if (failed(tAddress))
    return failure();
  auto tType = cast<BufferType>(tmem.getType());
  auto fType = cast<BufferType>(frag.getType());
  auto it = fragments.find(frag);
  if (it == fragments.end() || fType.getRank() != 2 || !fType.isStatic() ||
      fType.getShape() != ArrayRef<int64_t>(tShape))
    return op.emitError()
           << "T.copy with tensor memory: the fragment must be a 2-D tile of "
              "the tensor memory side's shape ["
           << tShape[0] << ", " << tShape[1] << "]";
  const FragmentInfo &F = it->second;
  int64_t rows = tShape[0], cols = tShape[1];
  if (rows != numThreads || numThreads % 128)
    return op.emitError()
           << "T.copy with tensor memory: tcgen05.ld/st .32x32b gives "
              "thread r of a warpgroup lane r, so the copy's "
           << numThreads << " threads must be the tile's " << rows
           << " rows, 128 of them";
  // Warp w of the block reaches lanes 32 * (w % 4) onwards only (the
  // tcgen05.ld / st data path): the copy's warps are the lanes' when its
  // threads start on a warpgroup.
  if (range.lo % 128)
    return op.emitError()
           << "T.copy with tensor memory: its threads start at thread "
           << range.lo
           << "; warp w reaches tensor memory lanes 32 * (w % 4) "
              "onwards only, so they must start on a warpgroup (a multiple "
              "of 128)";
  Type tElem = tType.getElementType(), fElem = fType.getElementType();
  int64_t tBits = getElementStorageBytes(tElem) * 8;
  if (tBits != 32 && tBits != 16)
    return op.emitError("T.copy with tensor memory: 32- or 16-bit "
                        "elements only");
  int64_t perCol = 32 / tBits; // elements per 32-bit column
  int64_t perChunk = 8 * perCol;
  if (cols % perChunk)
    return op.emitError() << "T.copy with tensor memory: " << cols
                          << " columns are no whole number of " << perChunk
                          << "-element chunks";
  // The register of every element (r, j) of thread r: the same for every
  // thread, from the fragment's layout.
  SmallVector<int64_t> regOf(cols, -1);
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t r = 0; r < rows; ++r) {
      int64_t found = -1;
      if (F.tables) {
        found = F.tables->registerAt({r, j}, r);
      } else {
        for (int64_t rep = 0; rep < F.layout.getReplicate(); ++rep) {
          std::optional<layout::FragmentSlot> s = F.layout.apply({r, j}, rep);
          if (s && s->thread == r)
            found = s->index;
        }
      }
      if (found < 0 || (regOf[j] >= 0 && regOf[j] != found))
        return op.emitError()
               << "T.copy with tensor memory: the fragment's layout "
               << F.layout.shortLabel()
               << " does not hold row r in thread r (tcgen05 .32x32b)";
      regOf[j] = found;
    }
  FailureOr<std::string> tStorage = storageType(tElem, op);
  FailureOr<std::string> fStorage = storageType(fElem, op);
  if (failed(tStorage) || failed(fStorage))
    return failure();
  beginOp(op, load ? "T.copy tensor memory -> fragment (tcgen05.ld)"
                   : "T.copy fragment -> tensor memory (tcgen05.st)");
  anyTcgen05 = true;
  open("");
  std::string taddr = fresh("taddr"), regs = fresh("cells");
  line("const uint32_t " + taddr + " = " + *tAddress +
       " + ((uint32_t)(tid & ~31) << 16);  // this warp's 32 lanes");
  line("uint32_t " + regs + "[8];");
  auto element = [&](int64_t j) {
    return expr(frag) + "[" + std::to_string(regOf[j]) + "]";
  };
  if (load)
    line("tlc::cuda::tcgen05FenceAfter();");
  for (int64_t c0 = 0; c0 < cols; c0 += perChunk) {
    std::string at = taddr + " + " + std::to_string(c0 / perCol);
    if (load) {
      line("tlc::cuda::tmemLoad32x32bX8(" + at + ", " + regs + ");");
      line("tlc::cuda::tmemWaitLoad();");
      for (int64_t q = 0; q < perChunk; ++q) {
        std::string cell = regs + "[" + std::to_string(q / perCol) + "]";
        // The element's storage bits: a whole cell, or its low / high half
        // (the lower-numbered element in the low half).
        std::string bits = perCol == 1
                               ? "__uint_as_float(" + cell + ")"
                               : "tlc::cuda::bitCast<" + *tStorage +
                                     ">((uint16_t)(" + cell + " >> " +
                                     std::to_string(16 * (q % perCol)) + "))";
        line(element(c0 + q) + " = " +
             toStorage(fElem, fromStorage(tElem, bits)) + ";");
      }
    } else {
      for (int64_t q = 0; q < 8; ++q) {
        auto cellBits = [&](int64_t j) {
          std::string v = toStorage(tElem, fromStorage(fElem, element(j)));
          return perCol == 1
                     ? "__float_as_uint(" + v + ")"
                     : "(uint32_t)tlc::cuda::bitCast<uint16_t>(" + v + ")";
        };
        std::string cell = perCol == 1
                               ? cellBits(c0 + q)
                               : cellBits(c0 + 2 * q) + " | (" +
                                     cellBits(c0 + 2 * q + 1) + " << 16)";
        line(regs + "[" + std::to_string(q) + "] = " + cell + ";");
      }
      line("tlc::cuda::tmemStore32x32bX8(" + at + ", " + regs + ");");
    }
  }
  if (!load) {
    line("tlc::cuda::tmemWaitStore();");
    line("tlc::cuda::tcgen05FenceBefore();");
  }
  close();
  return success();
}

LogicalResult Emitter::emitScaleFactorCopy(Operation *op, Value shared,
                                           Value tmem, bool transpose,
                                           bool copy, bool pair,
                                           Value colOffset) {
  StringRef what = copy && transpose ? "T.copy of scale factors to tensor "
                                       "memory (tcgen05.cp)"
                   : copy            ? kTcgen05CpNames
                                     : "T.tcgen05_sf_warp_transpose";
  auto refuse = [&](const Twine &why) {
    op->emitError() << what << ": " << why;
    return failure();
  };
  if (!hasTcgen05(options.minComputeCapability) || lang.isHip())
    return refuse("tcgen05.cp is Blackwell's, which needs sm_100a");
  // A static [rows, 4] uint8 shared tile (leading extents 1) stored
  // row-major: 512-byte groups, each 128 rows' 32-bit words.
  auto st = shared ? dyn_cast<BufferType>(shared.getType()) : BufferType();
  if (!st || !isSharedScope(scopeOf(rootOf(shared))) || st.getRank() < 2 ||
      !st.isStatic() || !st.getElementType().isUnsignedInteger(8) ||
      st.getShape().back() != 4 || st.getShape().end()[-2] % 128 ||
      llvm::any_of(st.getShape().drop_back(2),
                   [](int64_t e) { return e != 1; }))
    return refuse("the scale factors must be a static [rows, 4] uint8 shared "
                  "tile, rows a multiple of 128 (four E8M0 factors a row)");
  auto rootType = cast<BufferType>(rootOf(shared).getType());
  if (rootType.getShape().back() != 4 || sharedStorage.count(rootOf(shared)))
    return refuse("the scale factors' shared tile must be stored row-major, "
                  "four bytes a row");
  int64_t groups = st.getShape().end()[-2] / 128;
  // The groups' 4 columns each from tmem_col_offset= (0 when absent) on:
  // a constant offset must leave them inside the tile (TileLang's 2-CTA
  // example copies its half of B's rows into a tile sized for all of N).
  std::optional<int64_t> constOffset = 0;
  if (colOffset) {
    APInt c;
    constOffset = matchPattern(colOffset, m_ConstantInt(&c))
                      ? std::optional<int64_t>(c.getSExtValue())
                      : std::nullopt;
  }
  if (copy) {
    auto tt = tmem ? dyn_cast<BufferType>(tmem.getType()) : BufferType();
    if (!tt || tt.getScope() != MemoryScope::TensorMemory ||
        rootOf(tmem) != tmem || tt.getRank() != 2 || !tt.isStatic() ||
        !tt.getElementType().isUnsignedInteger(8) || tt.getShape()[0] != 128 ||
        (constOffset &&
         (*constOffset < 0 || tt.getShape()[1] < *constOffset + 4 * groups)))
      return refuse(
          "copies " + Twine(128 * groups) +
          " rows of scale factors into columns [" +
          (colOffset ? "tmem_col_offset, tmem_col_offset + " : "0, ") +
          Twine(4 * groups) +
          ") of a whole [128, cols] uint8 tensor memory tile");
    // One .cta_group in a kernel (PTX ISA): the pair's tensor memory takes
    // the pair's copies.
    if (pair != tmemPair)
      return refuse(
          pair ? "use_2cta=True copies in both CTAs of a pair "
                 "(tcgen05.cp.cta_group::2), but no block-scaled MMA of this "
                 "kernel runs on the pair"
               : "this kernel's tensor memory is the CTA pair's (use_2cta "
                 "MMAs) and a kernel's tcgen05 instructions all take one "
                 ".cta_group: pass use_2cta=True");
  }
  if (numThreads < 32 || range.lo % 32)
    return refuse("needs a whole warp (the range's first warp transposes, "
                  "its first thread issues tcgen05.cp)");
  FailureOr<std::string> start = operandTileStart(shared, op);
  if (failed(start))
    return failure();
  anyTcgen05 = true;
  line("// " + what.str());
  open("if (tid < 32)");
  std::string words = fresh("sfWords");
  line("uint32_t *const " + words + " = reinterpret_cast<uint32_t *>(" +
       *start + ");");
  if (transpose) {
    // Word 4m + k of each group becomes word 32k + m (tcgen05.cp .32x128b
    // .warpx4 puts row m's 16 bytes in 4 columns of lane m); the async
    // proxy reads what the warp wrote.
    line("tlc::cuda::sfWarpTranspose(" + words + ", " + Twine(groups) +
         ", tid);");
    line("tlc::cuda::fenceProxyAsync();");
    line("__syncwarp();");
  }
  if (copy) {
    // Each group: 32 rows of 16 bytes, no swizzle, 8-row core matrices 128
    // bytes apart (SBO), one along the 128 bits (LBO unused), into
    // columns 4g..4g+3 of every lane.
    llvm::Expected<uint64_t> bits =
        encodeTcgen05SmemDescriptor(0, 0, 128, WgmmaSwizzle::None);
    if (!bits)
      return refuse(llvm::toString(bits.takeError()));
    // use_2cta: the pair's first CTA issues it, and both CTAs copy from
    // their own shared memory at the same address into their own tensor
    // memory.
    open("if (tid == 0)");
    std::string column =
        colOffset ? " + (uint32_t)(" + expr(colOffset) + ")" : "";
    for (int64_t g = 0; g < groups; ++g)
      line("tlc::cuda::tcgen05CopyWarpx4" + std::string(pair ? "2Cta" : "") +
           "(" + expr(tmem) + column + " + " + Twine(4 * g) +
           ", tlc::cuda::tcgen05SmemDescriptor(" + words + " + " +
           Twine(128 * g) + ", " + hex64(*bits) + "));");
    close();
  }
  close();
  return success();
}

LogicalResult Emitter::emitBlockScaledGemm(IntrinsicOp op,
                                           StringRef barrierAddress) {
  auto refuse = [&](const Twine &why) {
    op.emitError() << "T.tcgen05_gemm_blockscaled: " << why;
    return failure();
  };
  if (!hasTcgen05(options.minComputeCapability) || lang.isHip())
    return refuse("tcgen05.mma is Blackwell's, which needs sm_100a");
  Value a = argOf(op, "A"), b = argOf(op, "B"), c = argOf(op, "C"),
        sfa = argOf(op, "SFA_tmem"), sfb = argOf(op, "SFB_tmem");
  if (!a || !b || !c || !sfa || !sfb)
    return refuse("needs A, B, C, SFA_tmem and SFB_tmem");
  auto constantTrue = [&](StringRef param) {
    Value v = argOf(op, param);
    return v && matchPattern(v, m_One());
  };
  bool transA = constantTrue("transpose_A"),
       transB = constantTrue("transpose_B");
  for (StringRef p : {"transpose_A", "transpose_B"})
    if (Value v = argOf(op, p); v && !matchPattern(v, m_Constant()))
      return refuse(p + " must be a constant");
  auto aType = cast<BufferType>(a.getType()),
       bType = cast<BufferType>(b.getType());
  std::optional<Tcgen05Type> at = tcgen05Type(aType.getElementType()),
                             bt = tcgen05Type(bType.getElementType());
  Value aRoot = rootOf(a), bRoot = rootOf(b);
  auto swA = panelSwizzle.find(aRoot), swB = panelSwizzle.find(bRoot);
  if (!at || !bt || swA == panelSwizzle.end() || swB == panelSwizzle.end())
    return refuse("A and B must be e4m3/e5m2 shared tiles in swizzled panels "
                  "(run --tile-plan-tcgen05)");
  SmallVector<int64_t> cShape;
  FailureOr<std::string> d = tmemViewAddress(c, op, cShape);
  if (failed(d))
    return failure();
  int64_t m = cShape[0], n = cShape[1];
  auto aShape = aType.getShape();
  int64_t k = transA ? aShape[aShape.size() - 2] : aShape.back();
  const int64_t kStep = 32; // .kind::mxf8f6f4: 32 bytes of 8-bit operands
  if (k % kStep)
    return refuse("K = " + Twine(k) + " is not a multiple of 32");
  // use_2cta (the CTA pair, cta_group::2): the pair's first CTA issues
  // M = 2 x 128 rows, each CTA's A its 128 rows, its B half of C's N
  // columns, D and the scale factors its own tensor memory's.
  Value pairArg = argOf(op, "use_2cta");
  if (pairArg && !matchPattern(pairArg, m_Constant()))
    return refuse("use_2cta must be a constant (it picks cta_group::1 or ::2)");
  bool pair = pairArg && matchPattern(pairArg, m_One());
  if (pair != tmemPair)
    return refuse(
        "a kernel's tcgen05 instructions all take one .cta_group "
        "(PTX ISA), and this kernel's tensor memory is " +
        Twine(tmemPair ? "the CTA pair's: pass use_2cta=True" : "one CTA's"));
  Tcgen05Instr instr;
  instr.a = *at;
  instr.b = *bt;
  instr.m = pair ? 2 * m : m;
  instr.n = n;
  instr.ctaGroup = pair ? 2 : 1;
  instr.mnMajorA = transA;
  instr.mnMajorB = !transB;
  llvm::Expected<uint32_t> idesc =
      encodeTcgen05BlockScaledInstrDescriptor(instr);
  if (!idesc)
    return refuse(llvm::toString(idesc.takeError()));
  FailureOr<std::pair<WgmmaOperandTile, uint64_t>> A =
      describeTcgen05Operand(aRoot, swA->second, !transA, op, "A");
  FailureOr<std::pair<WgmmaOperandTile, uint64_t>> B =
      describeTcgen05Operand(bRoot, swB->second, transB, op, "B");
  if (failed(A) || failed(B))
    return failure();
  FailureOr<std::string> aStart = operandTileStart(a, op),
                         bStart = operandTileStart(b, op);
  if (failed(aStart) || failed(bStart))
    return failure();
  // The scale factor ids (which of the four factors a 32-bit column holds)
  // are or-ed in at run time: A's at bits 29-30, B's at 4-5.
  auto id = [&](StringRef param) {
    Value v = argOf(op, param);
    return v ? "((uint32_t)(" + expr(v) + ") & 3u)" : std::string("0u");
  };
  std::string firstAccumulate = "1u";
  if (Value clear = argOf(op, "clear_accum"))
    firstAccumulate = "(" + expr(clear) + ") ? 0u : 1u";
  anyTcgen05 = true;
  line("// tcgen05.mma .kind::mxf8f6f4.block_scale: one thread issues the "
       "MMAs (and commits them to mbar)");
  open("if (tid == 0)");
  std::string aDesc = fresh("aDesc"), bDesc = fresh("bDesc"),
              idescName = fresh("idesc");
  line("const uint64_t " + aDesc + " = tlc::cuda::tcgen05SmemDescriptor(" +
       *aStart + ", " + hex64(A->second) + ");");
  line("const uint64_t " + bDesc + " = tlc::cuda::tcgen05SmemDescriptor(" +
       *bStart + ", " + hex64(B->second) + ");");
  line("const uint32_t " + idescName + " = " + hex32(*idesc) + " | " +
       id("sf_a_id") + " << 29 | " + id("sf_b_id") + " << 4;");
  line("tlc::cuda::tcgen05FenceAfter();");
  for (int64_t kk = 0; kk < k / kStep; ++kk) {
    FailureOr<int64_t> as = operandStart(A->first, 0, kk * kStep, op);
    FailureOr<int64_t> bs = operandStart(B->first, 0, kk * kStep, op);
    if (failed(as) || failed(bs))
      return failure();
    line("tlc::cuda::tcgen05MmaBlockScaledSS" +
         std::string(pair ? "2Cta" : "") + "(" + *d + ", " + aDesc + " + " +
         std::to_string(*as / 16) + ", " + bDesc + " + " +
         std::to_string(*bs / 16) + ", " + idescName + ", " + expr(sfa) + ", " +
         expr(sfb) + ", " + (kk == 0 ? firstAccumulate : "1u") + ");");
  }
  if (!barrierAddress.empty() && pair)
    line("tlc::cuda::tcgen05Commit2Cta(" + barrierAddress.str() +
         ", 3);  // mbar of both CTAs arrives when the MMAs are done");
  else if (!barrierAddress.empty())
    line("tlc::cuda::tcgen05Commit(" + barrierAddress.str() +
         ");  // the MMAs arrive on mbar when done");
  close();
  return success();
}
