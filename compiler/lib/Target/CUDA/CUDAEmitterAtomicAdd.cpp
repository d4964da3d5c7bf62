//===- CUDAEmitterAtomicAdd.cpp - T.atomic_add for CUDA and HIP -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.atomic_add of an element (atomicAdd, its previous value on request),
// of a fragment (each thread adds the registers it holds, one replica of
// each), and of a shared or global tile (the block's threads share its
// elements). With use_tma=True on sm_90 and later, a shared tile is added
// by the copy engine instead, as TileLang's TMA reduction: the bulk
// reduction cp.reduce.async.bulk.global.shared::cta.bulk_group.add (PTX
// ISA 8.0, "Data Movement and Conversion Instructions:
// cp.reduce.async.bulk") adds one contiguous run of the tile to global
// memory, `.f32`, `.noftz.f16` or `.noftz.bf16`, each element's add
// relaxed at gpu scope as an atomicAdd is; source and destination 16-byte
// aligned, the size a multiple of 16. Each tile row is one run (the
// non-tensor form: no tensor map is needed); a row that is not aligned or
// reaches past the tensor at run time is added element by element, and a
// program whose operands never allow the bulk form gets a remark saying
// why.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

//===----------------------------------------------------------------------===//
// T.atomic_add
//===----------------------------------------------------------------------===//

/// Whether an atomic of memory order \p order orders the thread's earlier
/// accesses before it (release side) or its later ones after it (acquire
/// side). Absent is relaxed.
static bool releases(std::optional<MemoryOrder> order) {
  return order &&
         (*order == MemoryOrder::Release || *order == MemoryOrder::AcqRel ||
          *order == MemoryOrder::SeqCst);
}
static bool acquires(std::optional<MemoryOrder> order) {
  return order &&
         (*order == MemoryOrder::Acquire || *order == MemoryOrder::Consume ||
          *order == MemoryOrder::AcqRel || *order == MemoryOrder::SeqCst);
}

/// T.atomic_add(dst, tile) with a shared or global \p vt tile: element e of
/// the tile (row-major) is added by thread e % threads, into the element of
/// dst at the same coordinates (dst's extent-1 dimensions dropped, as the
/// fragment form does). A shared tile is read after a block barrier (its
/// writers are other threads) and kept until every thread has read it.
LogicalResult Emitter::emitTileAtomicAdd(
    AtomicAddOp op, BufferType vt,
    llvm::function_ref<std::string(const std::string &, const std::string &)>
        atomicOn) {
  Value dst = op.getDst(), value = op.getValue();
  auto type = cast<BufferType>(dst.getType());
  bool shared = isSharedScope(scopeOf(rootOf(value)));
  SmallVector<int64_t> shape;
  int64_t numel = 1;
  for (unsigned d = 0; d < vt.getRank(); ++d) {
    shape.push_back(vt.getDim(d).getValue());
    numel *= shape.back();
  }
  SmallVector<unsigned> memDims;
  for (unsigned d = 0; d < type.getRank(); ++d)
    if (!(type.getDim(d).isStatic() && type.getDim(d).getValue() == 1))
      memDims.push_back(d);
  if (shared)
    line(blockBarrier() + "  // the tile's writers are other threads");
  std::string e = fresh("e");
  open("for (int " + e + " = tid; " + e + " < " + Twine(numel) + "; " + e +
       " += " + Twine(numThreads) + ")");
  SmallVector<std::string> src(shape.size());
  int64_t stride = numel;
  for (auto [d, n] : llvm::enumerate(shape)) {
    stride /= n;
    src[d] =
        "(" + e + " / " + std::to_string(stride) + ") % " + std::to_string(n);
  }
  SmallVector<std::string> idx(type.getRank(), "0");
  unsigned k = 0;
  for (auto [d, n] : llvm::enumerate(shape))
    if (n != 1 && k < memDims.size())
      idx[memDims[k++]] = src[d];
  auto from = guardedElement(value, src, op);
  auto to = guardedElement(dst, idx, op);
  if (failed(from) || failed(to))
    return failure();
  std::string cond = from->second;
  if (!to->second.empty())
    cond += (cond.empty() ? "" : " && ") + to->second;
  std::string call =
      atomicOn(to->first, fromStorage(vt.getElementType(), from->first));
  line((cond.empty() ? "" : "if (" + cond + ") ") + call + ";");
  close();
  if (shared)
    line(blockBarrier() + "  // every thread has read the tile");
  return success();
}

/// Why the copy engine cannot add shared tile \p value (of type \p vt) to
/// \p op's destination, or "" when it can (the conditions of
/// cp.reduce.async.bulk and of one contiguous run per tile row).
static std::string bulkReduceRefusal(Emitter &e, AtomicAddOp op, BufferType vt,
                                     unsigned cc) {
  if (e.lang.isHip())
    return "the HIP target has no bulk reduction";
  if (cc < 90)
    return "cp.reduce.async.bulk needs sm_90 or later, and this build is "
           "for sm_" +
           std::to_string(cc);
  Value value = op.getValue(), dst = op.getDst();
  Type elem = vt.getElementType();
  auto dt = cast<BufferType>(dst.getType());
  if (!(elem.isF32() || elem.isF16() || elem.isBF16()) ||
      dt.getElementType() != elem)
    return "the bulk reduction adds float32, float16 and bfloat16 tiles "
           "into tensors of the same dtype";
  if (!value.getDefiningOp<AllocOp>() || e.sharedStorage.count(value))
    return "the source is not a whole shared tile stored row-major (a "
           "region, a view, or a tile stored swizzled for a gemm)";
  int64_t cols = vt.getRank() ? vt.getShape().back() : 1;
  int64_t rowBytes = cols * getElementStorageBytes(elem);
  if (rowBytes % 16)
    return "a row of the tile is " + std::to_string(rowBytes) +
           " bytes, and the bulk reduction moves multiples of 16 bytes";
  // Through views that keep the rank, the destination is a parameter.
  Value root = dst;
  while (auto r = root.getDefiningOp<RegionOp>()) {
    if (cast<BufferType>(r.getSource().getType()).getRank() != dt.getRank())
      return "the destination is a region that drops dimensions";
    root = r.getSource();
  }
  if (!isa<BlockArgument>(root) || getParamStrides(root))
    return "the destination is not a dense row-major tensor parameter";
  // The tile's rows lie along the tensor's last dimension (whose extent
  // bounds the row as one run).
  unsigned lastMem = dt.getRank();
  for (unsigned d = 0; d < dt.getRank(); ++d)
    if (!(dt.getDim(d).isStatic() && dt.getDim(d).getValue() == 1))
      lastMem = d;
  if (cols == 1 || lastMem + 1 != dt.getRank())
    return "the tile's rows are not contiguous in the destination (they "
           "do not lie along its last dimension)";
  return "";
}

/// T.atomic_add(dst, shared tile, use_tma=True) by the copy engine, one
/// cp.reduce.async.bulk a tile row, the rows spread over the block's
/// threads; false (after a remark) where the operands or the target
/// (compute capability \p cc) do not allow it.
static FailureOr<bool> emitBulkReduceAdd(Emitter &e, AtomicAddOp op,
                                         BufferType vt, StringRef storage,
                                         unsigned cc) {
  std::string why = bulkReduceRefusal(e, op, vt, cc);
  if (!why.empty()) {
    op.emitRemark() << "T.atomic_add(..., use_tma=True) adds the tile "
                       "element by element with atomics: "
                    << why;
    return false;
  }
  Value dst = op.getDst(), value = op.getValue();
  auto dt = cast<BufferType>(dst.getType());
  Type elem = vt.getElementType();
  ArrayRef<int64_t> shape = vt.getShape();
  int64_t cols = shape.back(), rows = vt.getNumElements() / cols;
  int64_t bytes = getElementStorageBytes(elem);
  SmallVector<unsigned> memDims;
  for (unsigned d = 0; d < dt.getRank(); ++d)
    if (!(dt.getDim(d).isStatic() && dt.getDim(d).getValue() == 1))
      memDims.push_back(d);
  StringRef suffix = elem.isF32()   ? ".f32"
                     : elem.isF16() ? ".noftz.f16"
                                    : ".noftz.bf16";
  e.line("// T.atomic_add(use_tma=True): the copy engine adds each of the " +
         Twine(rows) + " rows of " + Twine(cols * bytes) +
         " bytes (cp.reduce.async.bulk.global.shared::cta.bulk_group.add" +
         suffix +
         "); a row not 16-byte aligned or past the tensor's end "
         "is added element by element");
  e.line("tlc::cuda::fenceProxyAsync();  // the tile, to the copy engine");
  e.line(e.blockBarrier() + "  // the tile's writers are other threads");
  e.open("");
  std::string r = e.fresh("row"), c = e.fresh("c");
  e.open("for (int " + r + " = tid; " + r + " < " + Twine(rows) + "; " + r +
         " += " + Twine(e.numThreads) + ")");
  // The tile coordinates of the row's element c, and the destination's.
  auto coords = [&](const std::string &col) {
    SmallVector<std::string> src(shape.size());
    int64_t stride = rows;
    for (unsigned d = 0; d + 1 < shape.size(); ++d) {
      stride /= shape[d];
      src[d] = "(" + r + " / " + std::to_string(stride) + ") % " +
               std::to_string(shape[d]);
    }
    src.back() = col;
    SmallVector<std::string> idx(dt.getRank(), "0");
    unsigned k = 0;
    for (auto [d, n] : llvm::enumerate(shape))
      if (n != 1 && k < memDims.size())
        idx[memDims[k++]] = src[d];
    return std::make_pair(src, idx);
  };
  auto [rowSrc, rowIdx] = coords("0");
  FailureOr<Emitter::VectorAccess> run =
      e.vectorAccess(dst, rowIdx, op, {}, cols);
  FailureOr<std::pair<std::string, std::string>> from =
      e.guardedElement(value, rowSrc, op);
  if (failed(run) || failed(from))
    return failure();
  std::string cond = run->bounds.empty() ? "" : run->bounds + " && ";
  e.open("if (" + cond + "reinterpret_cast<uintptr_t>(" + run->address +
         ") % 16 == 0)");
  e.line("tlc::cuda::bulkReduceAdd(" + run->address + ", &" + from->first +
         ", " + Twine(cols * bytes) + ");");
  e.close();
  e.open("else");
  e.open("for (int " + c + " = 0; " + c + " < " + Twine(cols) + "; ++" + c +
         ")");
  auto [src, idx] = coords(c);
  FailureOr<std::pair<std::string, std::string>> a =
      e.guardedElement(value, src, op);
  FailureOr<std::pair<std::string, std::string>> to =
      e.guardedElement(dst, idx, op);
  if (failed(a) || failed(to))
    return failure();
  e.line((to->second.empty() ? "" : "if (" + to->second + ") ") + e.ns +
         "atomicAddTo<" + storage + ">(&" + to->first + ", " + a->first + ");");
  e.close();
  e.close();
  e.close();
  e.line("tlc::cuda::tmaStoreCommit();");
  e.line("tlc::cuda::tmaStoreWait<0, false>();  // the adds are performed "
         "and the tile is read");
  e.close();
  e.line(e.blockBarrier() + "  // every row of the tile is read");
  e.anyTma = true;
  return true;
}

LogicalResult Emitter::emitAtomicAdd(AtomicAddOp op) {
  beginOp(op, "T.atomic_add");
  // T.atomic_add(..., memory_order=...): atomicAdd is relaxed, so the
  // order's release and acquire sides are device-scope fences around it
  // (what the PTX memory model asks of a release / acquire pattern).
  std::optional<MemoryOrder> order = op.getMemoryOrder();
  if (releases(order))
    line("__threadfence();  // memory_order " +
         stringifyMemoryOrder(*order).str() + ": release side");
  // The relaxed add itself.
  LogicalResult done = [&]() -> LogicalResult {
    Value dst = op.getDst();
    auto type = cast<BufferType>(dst.getType());
    FailureOr<std::string> st = storageType(type.getElementType(), op);
    if (failed(st))
      return failure();
    auto atomicOn = [&](const std::string &lv, const std::string &value) {
      return ns + "atomicAddTo<" + *st + ">(&" + lv + ", " +
             toStorage(type.getElementType(), value) + ")";
    };
    if (!op.getIndices().empty() || type.getRank() == 0) {
      SmallVector<std::string> idx;
      for (Value i : op.getIndices())
        idx.push_back(expr(i));
      if (idx.empty())
        idx.push_back("0");
      auto element = guardedElement(dst, idx, op);
      if (failed(element))
        return failure();
      auto &[lv, cond] = *element;
      std::string call = atomicOn(lv, expr(op.getValue()));
      if (op.getPrev() && !replicaGuard.empty()) {
        op.emitError() << "the " << lang.name
                       << " target cannot return the previous value of an "
                          "atomic add in a T.Parallel whose layout holds each "
                          "element in several threads (only one of them may "
                          "add)";
        return failure();
      }
      if (op.getPrev()) {
        FailureOr<std::string> vt = valueType(type.getElementType(), op);
        if (failed(vt))
          return failure();
        std::string name = define(op.getPrev(), "prev");
        line("const " + *vt + " " + name + " = " +
             (cond.empty() ? fromStorage(type.getElementType(), call)
                           : "(" + cond + ") ? " +
                                 fromStorage(type.getElementType(), call) +
                                 " : " + *vt + "(0)") +
             ";");
      } else {
        line(guardedStatement(cond, call + ";"));
      }
      return success();
    }
    // Tile form: a fragment added elementwise into memory.
    Value value = op.getValue();
    auto it = fragments.find(value);
    if (it == fragments.end()) {
      // Tile form from a shared or global tile: the block's threads share
      // its elements.
      auto vt = dyn_cast<BufferType>(value.getType());
      MemoryScope vs = scopeOf(rootOf(value));
      if (!vt || !vt.isStatic() ||
          !(isSharedScope(vs) || vs == MemoryScope::Global)) {
        op.emitError() << "the " << lang.name
                       << " target adds fragments, shared or global tiles "
                          "of static shape (tile form) or scalars "
                          "atomically";
        return failure();
      }
      if (isSharedScope(vs) && op->hasAttr("tile.use_tma")) {
        FailureOr<bool> bulk =
            emitBulkReduceAdd(*this, op, vt, *st, options.minComputeCapability);
        if (failed(bulk) || *bulk)
          return failure(failed(bulk));
      }
      return emitTileAtomicAdd(op, vt, atomicOn);
    }
    const FragmentInfo &frag = it->second;
    Type valElem = cast<BufferType>(value.getType()).getElementType();
    SmallVector<unsigned> memDims;
    for (unsigned d = 0; d < type.getRank(); ++d)
      if (!(type.getDim(d).isStatic() && type.getDim(d).getValue() == 1))
        memDims.push_back(d);
    open("");
    if (frag.repMask)
      open(frag.ifOneReplica());
    else
      open("");
    std::string reg = fresh("r");
    line("#pragma unroll");
    open("for (int " + reg + " = 0; " + reg + " < " + Twine(frag.regs) +
         "; ++" + reg + ")");
    SmallVector<std::string> coords = emitCoords(frag, reg, "i");
    SmallVector<std::string> idx(type.getRank(), "0");
    unsigned k = 0;
    for (auto [d, e] : llvm::enumerate(frag.shape))
      if (e != 1 && k < memDims.size())
        idx[memDims[k++]] = coords[d];
    auto element = guardedElement(dst, idx, op);
    if (failed(element))
      return failure();
    auto &[lv, cond] = *element;
    std::string call =
        atomicOn(lv, fromStorage(valElem, expr(value) + "[" + reg + "]"));
    line((cond.empty() ? "" : "if (" + cond + ") ") + call + ";");
    close();
    close();
    close();
    return success();
  }();
  if (succeeded(done) && acquires(order))
    line("__threadfence();  // memory_order " +
         stringifyMemoryOrder(*order).str() + ": acquire side");
  return done;
}
