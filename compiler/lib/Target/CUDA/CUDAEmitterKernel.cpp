//===- CUDAEmitterKernel.cpp - CUDA functions and kernels -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA emitter's functions and kernels: the host function, a kernel's
// preparation (plans read from the passes, fragment layouts, shared
// memory) and its body, and the allocations and views it declares.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "SafeValue.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Dialect/Tile/Transforms/SharedStoragePlan.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/Target/Artifact/SharedMemoryLimits.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

//===----------------------------------------------------------------------===//
// Functions and kernels
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitFunction() {
  Block &body = func.getBody().front();
  chooseIndexWidth();
  for (const std::string &s : collectKernelSymbols(func)) {
    std::string name = fresh(s);
    symbolNames[s] = name;
    result.symbols.push_back(s);
  }
  for (Operation &op : body) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      if (failed(emitKernel(kernel)))
        return failure();
      continue;
    }
    // Global allocations are workspaces: the runtime allocates them (see
    // emitKernel); other scopes belong inside a T.Kernel.
    auto alloc = dyn_cast<AllocOp>(op);
    if (alloc && cast<BufferType>(alloc.getType()).getScope() !=
                     MemoryScope::Global) {
      alloc.emitError() << "only T.alloc_global / T.empty may allocate in "
                           "the function body outside a T.Kernel on the "
                        << lang.name << " target";
      return failure();
    }
  }
  if (result.launches.empty()) {
    func.emitError() << "the function has no T.Kernel to emit for "
                     << lang.name;
    return failure();
  }
  return success();
}

LogicalResult Emitter::prepareKernel(KernelOp op) {
  std::optional<int64_t> threads = op.getStaticNumThreads();
  if (!threads) {
    // Name the run-time values (T.dynamic sizes, tensor extents) the count
    // is computed from; a count from unbound factory parameters only is
    // not built at all (tile::getUnboundTileParameters).
    SmallVector<StringRef> names;
    SmallVector<Value> work(op.getThreads().begin(), op.getThreads().end());
    llvm::SmallPtrSet<Operation *, 8> visited;
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || !visited.insert(def).second)
        continue;
      if (auto symbol = dyn_cast<tile::SymbolOp>(def)) {
        if (!llvm::is_contained(names, symbol.getName()))
          names.push_back(symbol.getName());
        continue;
      }
      work.append(def->operand_begin(), def->operand_end());
    }
    llvm::sort(names);
    InFlightDiagnostic d = op.emitError();
    d << "the " << lang.name << " target needs a static thread count";
    if (!names.empty())
      d << ": this one is computed from " << llvm::join(names, ", ")
        << ", known only when the kernel runs";
    return failure();
  }
  // The evaluator reports such counts at T.Kernel; an instance that has
  // that error can still reach here (the editor's exchange hints), and
  // every per-thread plan below divides by the count.
  if (*threads < 1 || *threads > 1024) {
    op.emitError() << "a thread block has 1 to 1024 threads, not "
                   << *threads;
    return failure();
  }
  numThreads = blockThreads = *threads;
  range = ThreadRange{0, blockThreads, nullptr};
  // tile-warp-specialize: a producer warpgroup after the program's threads.
  auto wsProducer = op->getAttrOfType<IntegerAttr>("tile.ws_producer_threads");
  wsProducerThreads = wsProducer ? wsProducer.getInt() : 0;
  // tile-gemm-pingpong: two consumer warpgroups run the program's threads.
  auto pingPong = op->getAttrOfType<IntegerAttr>("tile.gemm_pingpong");
  gemmPingPong = pingPong && wsProducerThreads ? pingPong.getInt() : 0;
  launchThreads = blockThreads * (gemmPingPong ? 2 : 1) + wsProducerThreads;
  // tile-gemm-cluster: pairs of blocks share one operand by TMA multicast.
  auto clusterAxis = op->getAttrOfType<IntegerAttr>("tile.gemm_cluster");
  gemmClusterAxis =
      clusterAxis && wsProducerThreads ? int(clusterAxis.getInt()) : -1;
  fragments.clear();
  sharedSlots.clear();
  runtimeSharedOffsets.clear();
  swizzled.clear();
  sharedBytes = 0;
  scratchOffset = -1;
  if (lang.isHip() && failed(checkNvidiaOnlyHardware(op)))
    return failure();
  if (failed(checkTileShapes(op)) || failed(checkParallelPlans(op)) ||
      failed(planThreadRanges(op)) || failed(assignFragmentLayouts(op)))
    return failure();
  // How every shared buffer is stored (planSharedStorage: the one plan
  // hints, layout pictures and the bank-conflict analysis read too):
  // wgmma / tcgen05 operands in the swizzled panels their descriptors read
  // (tile-plan-wgmma, tile-plan-tcgen05), HIP's MFMA operand tiles in the
  // swizzle chosen for their LDS reads, shared gemm operands and
  // accumulator staging tiles of 16- and 8-bit elements XOR-swizzled in
  // 16-byte chunks (conflict-free ldmatrix and stores); every access goes
  // through the swizzle.
  ldsSwizzle.clear();
  panelSwizzle.clear();
  SharedStorageTarget storageTarget;
  storageTarget.hip = lang.isHip();
  // tile-plan-shared-storage's plan, where it recorded one; the same
  // choice for IR that did not go through it (tlc-translate).
  if (isModulePlanned(op, kStoragePlanned)) {
    FailureOr<llvm::DenseMap<Value, SharedStorage>> recorded =
        getRecordedSharedStorage(op, storageTarget);
    if (failed(recorded))
      return failure();
    sharedStorage = std::move(*recorded);
  } else {
    sharedStorage = chooseSharedStorage(op, storageTarget);
  }
  for (auto &[root, s] : sharedStorage) {
    switch (s.kind) {
    case SharedStorage::Kind::Linear:
      break;
    case SharedStorage::Kind::RowSwizzle:
      swizzled[root] = s.chunks;
      break;
    case SharedStorage::Kind::Panels:
      panelSwizzle[root] = s.chunks * 16;
      swizzled[root] = s.chunks;
      break;
    case SharedStorage::Kind::LdsSwizzle:
      ldsSwizzle[root] = s.lds;
      swizzled[root] = 0;
      break;
    }
  }
  usesWgmma = false;
  op.walk([&](GemmOp gemm) {
    // tcgen05.mma reads the same panels, also in the async proxy (the
    // fence helpers are wgmma.h's).
    if (isTcgen05Gemm(gemm) || isWgmmaGemm(gemm))
      usesWgmma = anyWgmma = true;
  });
  op.walk([&](IntrinsicOp intr) {
    if (intr.getCallee() == "T.tcgen05_gemm_blockscaled")
      usesWgmma = anyWgmma = true;
  });

  // Multi-buffered pipelines (tile-plan-pipelines) and the placement of
  // every shared buffer (tile-plan-shared-memory).
  readPipelinePlan(op);
  collectLazySelects(op);
  auto planned = op->getAttrOfType<IntegerAttr>("tile.shared_bytes");
  if (!planned) {
    op.emitError() << "the kernel's shared memory is not planned (run "
                      "--tile-lower-gpu before the "
                   << lang.name << " printer)";
    return failure();
  }
  WalkResult walk = op.walk([&](AllocOp alloc) {
    auto type = cast<BufferType>(alloc.getType());
    if (!isSharedScope(type.getScope()))
      return WalkResult::advance();
    if (alloc->hasAttr("tile.dynamic_shared"))
      return WalkResult::advance(); // placed at run time, below
    auto offset = alloc->getAttrOfType<IntegerAttr>("tile.offset");
    if (!offset || !type.isStatic()) {
      alloc.emitError("this shared buffer has no place in shared memory "
                      "(run --tile-plan-shared-memory)");
      return WalkResult::interrupt();
    }
    int64_t bytes = getElementStorageBytes(type.getElementType());
    for (int64_t e : type.getShape())
      bytes *= e;
    auto staged = stagedBuffers.find(alloc.getResult());
    if (staged != stagedBuffers.end())
      bytes *= staged->second;
    sharedSlots[alloc.getResult()] = {offset.getInt(), bytes};
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return success();
}

LogicalResult Emitter::emitKernel(KernelOp op) {
  if (failed(prepareKernel(op)))
    return failure();
  auto planned = op->getAttrOfType<IntegerAttr>("tile.shared_bytes");
  // The reduction scratch and the fragment exchange area
  // (tile-plan-scratch-areas).
  int64_t scratch = 0, exchange = 0;
  if (failed(readScratchAreas(op, scratch, exchange)))
    return failure();
  int64_t limit = sharedMemoryBudget();

  if (failed(checkAreaRanges(op)))
    return failure();
  // The mbarriers of the program (T.alloc_barrier, create_list_of_mbarrier).
  FailureOr<int64_t> withBarriers = planMbarriers(op, sharedBytes);
  if (failed(withBarriers))
    return failure();
  int64_t barrierBytes = *withBarriers - sharedBytes;
  sharedBytes = *withBarriers;

  // The planned buffers fit the budget the evaluator checked; the areas
  // this printer adds (reduction scratch, fragment exchange) may not.
  if (sharedBytes > limit) {
    InFlightDiagnostic d = op.emitError()
                           << "the kernel needs " << sharedBytes
                           << (lang.isHip() ? " bytes of LDS per workgroup on "
                                              "the HIP target ("
                                            : " bytes of shared memory per "
                                              "block on the CUDA target (")
                           << planned.getInt() << " for its buffers";
    if (scratch)
      d << ", " << scratch << " for reduction scratch";
    if (exchange)
      d << ", " << exchange << " to exchange fragments";
    if (barrierBytes)
      d << ", " << barrierBytes << " for mbarriers";
    // The parts are each area's own size; the total is where the last one
    // ends, after areas that are never live together were given the same
    // bytes (tile-plan-scratch-areas) and each was aligned.
    int64_t parts = planned.getInt() + scratch + exchange + barrierBytes;
    if (parts > sharedBytes)
      d << "; areas not live at the same time share bytes";
    else if (parts < sharedBytes)
      d << ", " << sharedBytes - parts << " of alignment padding";
    if (lang.isHip())
      d << "); " << options.amdArch << " allows " << limit;
    else
      d << "); sm_" << options.minComputeCapability << " allows " << limit;
    return failure();
  }

  FailureOr<std::string> runtimeBytes = planRuntimeSharedBuffers(op);
  if (failed(runtimeBytes))
    return failure();

  std::string entry = fresh(func.getSymName().str() +
                            (result.launches.empty()
                                 ? std::string("_kernel")
                                 : "_kernel" + std::to_string(
                                                   result.launches.size())));
  result.launches.push_back({entry, launchThreads, sharedBytes});
  result.launches.back().dynamicSharedMemoryExpr = *runtimeBytes;
  // tile-persistent-gemm: a 1-D grid of blocks that loop over the tiles.
  auto persistent = op->getAttrOfType<IntegerAttr>("tile.persistent_ctas");
  persistentCtas = persistent && wsProducerThreads ? persistent.getInt() : 0;
  result.launches.back().persistentGrid = persistentCtas;
  result.launches.back().cooperative =
      op.walk([](IntrinsicOp i) {
          return i.getCallee() == "T.sync_grid" ? WalkResult::interrupt()
                                                : WalkResult::advance();
        }).wasInterrupted();
  FailureOr<std::string> clusterDims = planCluster(op, result.launches.back());
  if (failed(clusterDims))
    return failure();

  // Parameters: global tensors, scalars, then the symbols.
  currentLoc = op.getLoc();
  std::string params;
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    std::string name = define(arg, getParamName(func, i));
    std::string decl;
    if (auto bt = dyn_cast<BufferType>(arg.getType())) {
      FailureOr<std::string> t = storageType(bt.getElementType(), op);
      if (failed(t))
        return failure();
      bool readOnly = inferParamRole(func, i) == artifact::Role::In;
      decl = (readOnly ? "const " : "") + *t + " *__restrict__ " + name;
    } else {
      FailureOr<std::string> t = valueType(arg.getType(), op);
      if (failed(t))
        return failure();
      decl = *t + " " + name;
    }
    params += (params.empty() ? "" : ", ") + decl;
  }
  // Workspaces (global allocations of the function body, in order), which
  // the runtime allocates and passes to every kernel after the parameters.
  for (Operation &pre : func.getBody().front()) {
    auto alloc = dyn_cast<AllocOp>(pre);
    if (!alloc ||
        cast<BufferType>(alloc.getType()).getScope() != MemoryScope::Global)
      continue;
    FailureOr<std::string> t = storageType(
        cast<BufferType>(alloc.getType()).getElementType(), alloc);
    if (failed(t))
      return failure();
    params += (params.empty() ? "" : ", ") + *t + " *__restrict__ " +
              define(alloc.getResult(), "workspace");
  }
  for (const std::string &s : result.symbols)
    params += (params.empty() ? "" : ", ") + std::string("long long ") +
              symbolNames[s];
  // Tensor maps of the TMA copies (tile-plan-tma), by value.
  if (failed(planTensorMaps(op, params, result.launches.back().tensorMaps)))
    return failure();

  // T.annotate_min_blocks_per_sm(n): __launch_bounds__'s second argument.
  std::string minBlocks;
  op.walk([&](IntrinsicOp in) {
    IntegerAttr c;
    if (in.getCallee() == "T.annotate_min_blocks_per_sm" &&
        in.getArgs().size() == 1 &&
        matchPattern(in.getArgs()[0], m_Constant(&c)) &&
        c.getValue().getSExtValue() > 0)
      minBlocks = ", " + std::to_string(c.getValue().getSExtValue());
  });
  // setmaxnreg takes effect only in a kernel with a register cap at entry:
  // one block per multiprocessor unless the program asks for more.
  if (minBlocks.empty() && op->hasAttr("tile.ws_max_nreg")) {
    auto blocks = op->getAttrOfType<IntegerAttr>("tile.ws_blocks_per_sm");
    minBlocks = ", " + std::to_string(blocks ? blocks.getInt() : 1);
  }
  if (minBlocks.empty())
    op.walk([&](IntrinsicOp in) {
      StringRef c = in.getCallee();
      if (c == "T.set_max_nreg" || c == "T.inc_max_nreg" ||
          c == "T.dec_max_nreg")
        minBlocks = ", 1";
    });
  beginOp(op, "T.Kernel");
  line("extern \"C\" __global__ void " + *clusterDims + "__launch_bounds__(" +
       Twine(launchThreads) + minBlocks + ") " + entry + "(" + params + ")");
  open("");
  line("const int tid = threadIdx.x;");
  declareRngState(op);
  // wgmma's swizzled operands start on 1024-byte boundaries of it.
  if (sharedBytes || !runtimeBytes->empty())
    line(std::string("extern __shared__ __align__(") +
         (usesWgmma ? "1024" : "128") + ") unsigned char smem[];");
  static const char *axes[] = {"x", "y", "z"};
  UseSwizzleOp raster;
  op.walk([&](UseSwizzleOp u) {
    if (u.getEnable())
      raster = u;
  });
  auto blockIndices = op.getBlockIndices();
  if (persistentCtas) {
    // Each role's tile loop defines the block indices of its tile.
  } else if (gemmClusterAxis >= 0) {
    emitGemmClusterBlockIndices(op, raster);
  } else if (raster && blockIndices.size() >= 2) {
    // Blocks run in panels of `panel` rows (row order) or columns, so
    // neighbours share L2 lines: a bijection of the 2-D block grid.
    beginOp(raster, "T.use_swizzle");
    bool row = raster.getOrder() == SwizzleOrder::Row;
    std::string p = std::to_string(raster.getPanelSize());
    line("const int linearBlock = blockIdx.y * gridDim.x + blockIdx.x;");
    std::string major = row ? "gridDim.y" : "gridDim.x";
    std::string minor = row ? "gridDim.x" : "gridDim.y";
    line("const int panel = linearBlock / (" + p + " * " + minor + ");");
    line("const int inPanel = linearBlock % (" + p + " * " + minor + ");");
    line("const int panelWidth = min(" + p + ", (int)" + major +
         " - panel * " + p + ");");
    std::string it = indexType();
    std::string a = define(blockIndices[0], "bx");
    std::string b = define(blockIndices[1], "by");
    if (row) {
      line("const " + it + " " + b + " = panel * " + p +
           " + inPanel % panelWidth;");
      line("const " + it + " " + a + " = inPanel / panelWidth;");
    } else {
      line("const " + it + " " + a + " = panel * " + p +
           " + inPanel % panelWidth;");
      line("const " + it + " " + b + " = inPanel / panelWidth;");
    }
    for (unsigned d = 2; d < blockIndices.size(); ++d)
      line("const " + it + " " + define(blockIndices[d], "bz") +
           " = blockIdx." + axes[d] + ";");
    currentLoc = op.getLoc();
  } else {
    for (auto [d, arg] : llvm::enumerate(blockIndices))
      line("const " + indexType() + " " +
           define(arg, "b" + std::string(axes[d])) + " = blockIdx." +
           axes[d] + ";");
  }

  // Scalars the function body computes before the kernel (symbols, launch
  // arithmetic) are recomputed in the kernel.
  for (Operation &pre : func.getBody().front()) {
    if (&pre == op.getOperation())
      break;
    if (isa<KernelOp, AllocOp>(pre))
      continue;
    if (failed(emitOp(&pre)))
      return failure();
  }
  if (failed(emitTmemPrologue(op)))
    return failure();
  if (failed(wsProducerThreads
                 ? emitWarpSpecializedBody(op)
                 : emitBlock(op.getBody().front(), /*allowBarriers=*/true)))
    return failure();
  emitTmemEpilogue(op);
  close();
  line("");
  return success();
}

LogicalResult Emitter::emitAlloc(AllocOp op) {
  auto type = cast<BufferType>(op.getType());
  if (type.getScope() == MemoryScope::Barrier ||
      type.getScope() == MemoryScope::ClusterBarrier)
    return emitBarrierAlloc(op);
  FailureOr<std::string> t = storageType(type.getElementType(), op);
  if (failed(t))
    return failure();
  std::string name = define(op.getResult(), "buf");
  beginOp(op, "T.alloc " + type.getShapeString() + " " +
                  stringifyMemoryScope(type.getScope()).str());
  switch (type.getScope()) {
  case MemoryScope::Shared:
  case MemoryScope::SharedDyn:
    if (auto it = runtimeSharedOffsets.find(op.getResult());
        it != runtimeSharedOffsets.end()) {
      line(*t + " *" + name + " = reinterpret_cast<" + *t + " *>(smem + " +
           it->second + ");  // placed at launch");
      return success();
    }
    line(*t + " *" + name + " = reinterpret_cast<" + *t + " *>(smem + " +
         Twine(sharedSlots[op.getResult()].offset) + ");");
    return success();
  case MemoryScope::Fragment: {
    const FragmentInfo &info = fragments[op.getResult()];
    line("alignas(16) " + *t + " " + name + "[" + Twine(info.regs) +
         "];  // " + info.layout.shortLabel());
    return success();
  }
  case MemoryScope::Local:
  case MemoryScope::LocalVar:
  case MemoryScope::Reducer: { // every thread's replica (CUDAEmitterReducers)
    if (!type.isStatic()) {
      op.emitError() << "local buffers need static shapes on the "
                     << lang.name << " target";
      return failure();
    }
    int64_t n = 1;
    for (int64_t e : type.getShape())
      n *= e;
    std::string value;
    if (op.getInit())
      value = toStorage(type.getElementType(), expr(op.getInit()));
    // A T.alloc_var's initial value is stored into it, as TileLang writes
    // it (`tmp[0] = 5;`); a larger array starts as {value, 0, ...}.
    if (n == 1 || value.empty()) {
      line(*t + " " + name + "[" + Twine(n) + "];");
      if (!value.empty())
        line(name + "[0] = " + value + ";");
    } else {
      line(*t + " " + name + "[" + Twine(n) + "] = {" + value + "};");
    }
    return success();
  }
  case MemoryScope::DescriptorWgmma:
    // A wgmma matrix descriptor (T.alloc_wgmma_desc): a 64-bit register.
    if (!lang.isHip() && hasWgmma(options.minComputeCapability) &&
        type.isStatic()) {
      int64_t n = 1;
      for (int64_t e : type.getShape())
        n *= e;
      line("uint64_t " + name + "[" + Twine(n) + "];  // wgmma descriptor");
      return success();
    }
    if (!lang.isHip()) {
      op.emitError() << "a wgmma descriptor (local.descriptor.wgmma) is "
                        "Hopper's; building for sm_"
                     << options.minComputeCapability
                     << ", which has no wgmma (it needs sm_90a)";
      return failure();
    }
    [[fallthrough]];
  case MemoryScope::TensorMemory:
    if (!lang.isHip() && hasTcgen05(options.minComputeCapability))
      return emitTmemAlloc(op, name);
    [[fallthrough]];
  case MemoryScope::DescriptorTcgen05Smem:
  case MemoryScope::DescriptorTcgen05Instr:
    if (!lang.isHip() && !hasTcgen05(options.minComputeCapability)) {
      // Tensor memory (tcgen05.alloc) and the tcgen05 descriptors exist
      // from sm_100a on (PTX ISA, "Tensor Memory").
      op.emitError() << stringifyMemoryScope(type.getScope())
                     << " is Blackwell's tensor memory (tcgen05), which "
                        "needs sm_100a; building for sm_"
                     << options.minComputeCapability
                     << archSuffix(options.minComputeCapability)
                     << ", which has none (build with --target=cuda:sm_100a)";
      return failure();
    }
    if (!lang.isHip()) {
      op.emitError() << stringifyMemoryScope(type.getScope())
                     << ": hand-written tcgen05 descriptors are not "
                        "generated yet";
      return failure();
    }
    [[fallthrough]];
  default:
    op.emitError() << "the " << lang.name << " target does not support "
                   << stringifyMemoryScope(type.getScope())
                   << " allocations yet";
    return failure();
  }
}

LogicalResult Emitter::emitView(ViewOp op) {
  // T.reshape / T.view of a whole global tensor or shared buffer: a pointer
  // to the same bytes, indexed row-major by the view's own shape (the view
  // is a root for addressing). Fragments and local buffers are other names
  // of their registers, a swizzled shared tile is addressed through its
  // storage, a multi-buffered one at the stage in use (all below).
  Value src = op.getSource();
  auto srcType = cast<BufferType>(src.getType());
  auto type = cast<BufferType>(op.getType());
  MemoryScope scope = srcType.getScope();
  if (scope == MemoryScope::Fragment) {
    // The same registers, laid out by the source's layout re-indexed
    // (assignFragmentLayouts checked it): the view is another name of the
    // source's register array.
    beginOp(op, "T.view " + type.getShapeString() + " of a fragment: " +
                    fragments[op.getResult()].layout.shortLabel());
    names[op.getResult()] = expr(src);
    return success();
  }
  if ((scope == MemoryScope::Local || scope == MemoryScope::LocalVar) &&
      src.getDefiningOp<AllocOp>() &&
      srcType.getElementType() == type.getElementType()) {
    // A thread's own array, indexed row-major by either shape.
    beginOp(op, "T.view " + type.getShapeString() + " of a local buffer");
    names[op.getResult()] = expr(src);
    return success();
  }
  bool whole = getRootBuffer(src) == src; // an allocation or a parameter
  if (whole && getParamStrides(src)) {
    op.emitError() << "the " << lang.name
                   << " target views (T.reshape, T.view) dense tensors only, "
                      "not one with strides";
    return failure();
  }
  // A swizzled shared tile moves whole 16-byte chunks of its rows: a view
  // whose elements stay inside one (at most 16 bytes, dividing the row) is
  // addressed through the tile's storage (linearIndex).
  auto stored = sharedStorage.find(src);
  bool viewsStorage = false;
  if (stored != sharedStorage.end() && srcType.isStatic() &&
      srcType.getRank() >= 1 &&
      (stored->second.kind == SharedStorage::Kind::RowSwizzle ||
       stored->second.kind == SharedStorage::Kind::Panels)) {
    int64_t vb = getElementStorageBytes(type.getElementType());
    int64_t sb = getElementStorageBytes(srcType.getElementType());
    int64_t rowBytes = srcType.getShape().back() * sb;
    viewsStorage = vb > 0 && sb > 0 && 16 % vb == 0 && 16 % sb == 0 &&
                   rowBytes % vb == 0 && type.isStatic() &&
                   !isPackedNibble(type.getElementType()) &&
                   !isPackedNibble(srcType.getElementType());
  }
  if (!whole || !(scope == MemoryScope::Global || isSharedScope(scope)) ||
      (swizzled.count(src) && !viewsStorage) ||
      getElementStorageBytes(srcType.getElementType()) == 0 ||
      getElementStorageBytes(type.getElementType()) == 0 ||
      (srcType.getElementType() != type.getElementType() &&
       (getElementBitWidth(srcType.getElementType()) < 8 ||
        getElementBitWidth(type.getElementType()) < 8))) {
    op.emitError() << "the " << lang.name
                   << " target views (T.reshape, T.view) whole global "
                      "tensors, shared buffers of byte-sized "
                      "elements (swizzled ones in elements of at most 16 "
                      "bytes), fragments and local buffers (same element "
                      "type) only";
    return failure();
  }
  FailureOr<std::string> t = storageType(type.getElementType(), op);
  if (failed(t))
    return failure();
  if (stagedBuffers.count(src)) {
    // A multi-buffered source: each use addresses the stage the source
    // names there (expr()), the slice of its storage the pipelined loop is
    // on, so the view has no variable of its own.
    beginOp(op, "T.view " + type.getShapeString() + " of a " +
                    std::to_string(stagedBuffers.lookup(src)) +
                    "-stage buffer: the stage in use");
    return success();
  }
  beginOp(op, "T.view " + type.getShapeString());
  std::string name = define(op.getResult(), "view");
  line(*t + " *" + name + " = (" + *t + " *)(" + expr(src) + ");");
  return success();
}
