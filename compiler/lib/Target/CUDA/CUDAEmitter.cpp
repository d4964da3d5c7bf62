//===- CUDAEmitter.cpp - Tile IR to CUDA C++ ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Functions, kernels, allocations and control flow of the CUDA emitter.
// Buffer addressing is in CUDABufferAccess.cpp, scalar arithmetic in
// CUDAEmitterScalar.cpp, tile operations in CUDAEmitterTileOps.cpp.
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

FileLineColRange tlc::target::cuda_detail::getFileLoc(Location loc) {
  return tile::getSourceLocation(loc);
}

static bool isSmallFloat(Type t) {
  return t.isF16() || t.isBF16() ||
         isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(t);
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

Emitter::Emitter(FuncOp func, const CudaEmitOptions &options)
    : lang(*options.language), ns(options.language->helpers.str()),
      func(func), options(options), currentLoc(func.getLoc()) {}

void Emitter::line(const Twine &text) {
  out.append(indent * 2, ' ');
  out += text.str();
  out += '\n';
  ++lineCount;
  if (FileLineColRange r = getFileLoc(currentLoc)) {
    auto [it, inserted] = fileIndex.try_emplace(r.getFilename().getValue(),
                                                result.files.size());
    if (inserted)
      result.files.push_back(r.getFilename().str());
    artifact::SourceMapEntry e;
    e.generatedLine = lineCount;
    e.fileIndex = it->second;
    e.line = r.getStartLine();
    e.column = r.getStartColumn();
    e.endLine = r.getEndLine();
    e.endColumn = r.getEndColumn();
    result.sourceMap.push_back(e);
  }
}

void Emitter::open(const Twine &text) {
  std::string t = text.str();
  line(t.empty() ? std::string("{") : t + " {");
  ++indent;
}

void Emitter::close(StringRef suffix) {
  --indent;
  line("}" + suffix);
}

void Emitter::beginOp(Operation *op, StringRef what) {
  currentLoc = op->getLoc();
  FileLineColRange r = getFileLoc(op->getLoc());
  if (options.locationComments) {
    std::string where;
    if (r)
      where = (llvm::sys::path::filename(r.getFilename().getValue()) + ":" +
               Twine(r.getStartLine()) + ":" + Twine(r.getStartColumn()))
                  .str();
    line("// " + what + (where.empty() ? "" : "  " + where));
  }
  if (options.lineDirectives && r) {
    // `#line` is not mapped itself: it names the next line.
    out += "#line " + std::to_string(r.getStartLine()) + " \"" +
           r.getFilename().str() + "\"\n";
    ++lineCount;
  }
}

//===----------------------------------------------------------------------===//
// Names, types, expressions
//===----------------------------------------------------------------------===//

std::string Emitter::fresh(StringRef hint) {
  std::string base;
  for (char c : hint)
    base += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (base.empty() || isdigit(static_cast<unsigned char>(base[0])))
    base = "v" + base;
  // Names the generated code uses, and C++ keywords (a Python buffer may
  // be called `do`, `new` or `this`: example_mha_bwd_bshd.py's `do`).
  static const char *reserved[] = {
      "int", "float", "double", "half", "char", "long", "short", "tid",
      "smem", "dim3", "min", "max", "float2", "float4", "uint4", "signed",
      "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch",
      "class", "const", "constexpr", "const_cast", "continue", "decltype",
      "default", "delete", "do", "dynamic_cast", "else", "enum", "explicit",
      "export", "extern", "false", "for", "friend", "goto", "if", "inline",
      "mutable", "namespace", "new", "noexcept", "nullptr", "operator",
      "private", "protected", "public", "register", "reinterpret_cast",
      "return", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try",
      "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "and", "or", "not",
      "xor", "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq",
      "not_eq", "tlc", "std"};
  for (const char *r : reserved)
    if (base == r)
      base += "_";
  std::string name = base;
  for (unsigned i = 1; !usedNames.insert(name).second; ++i)
    name = base + "_" + std::to_string(i);
  return name;
}

std::string Emitter::define(Value v, StringRef hint) {
  StringRef base = hint;
  Location loc = v.getLoc();
  if (auto n = dyn_cast<NameLoc>(loc))
    base = n.getName().getValue();
  else if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto n = dyn_cast<NameLoc>(arg.getLoc()))
      base = n.getName().getValue();
  std::string name = fresh(base);
  names[v] = name;
  return name;
}

std::string Emitter::expr(Value v) {
  auto it = names.find(v);
  if (it != names.end())
    return it->second;
  return "/*unknown value*/0";
}

FailureOr<std::string> Emitter::storageType(Type t, Operation *at) {
  // tfloat32 is stored in 32 bits, as float32 (what mma .tf32 reads).
  if (t.isF32() || t.isTF32())
    return std::string("float");
  if (t.isF64())
    return std::string("double");
  if (t.isF16())
    return ns + "half";
  if (t.isBF16())
    return ns + "bfloat16";
  // fp4 e2m1: one code a byte in registers; shared and global memory
  // hold packed pairs, addressed through tlc::fp4::E2M1Ref (lvalue()).
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType>(t))
    return std::string("uint8_t");
  // AMD's FNUZ fp8 (tilelang's float8_e4m3fnuz, what determine_fp8_type()
  // gives on gfx942): bytes converted by tlc_device/hip/convert.h.
  if (lang.isHip() && isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t))
    return std::string("uint8_t");
  // float8_e8m0fnu (the MX block scale, an exponent alone): bytes
  // converted by tlc_device/cuda/convert.h as the CPU target does.
  if (!lang.isHip() && isa<Float8E8M0FNUType>(t))
    return std::string("uint8_t");
  if (isa<IndexType>(t))
    return indexType();
  if (auto i = dyn_cast<IntegerType>(t)) {
    unsigned w = i.getWidth();
    if (w == 1)
      return std::string("bool");
    if (w == 8 || w == 16 || w == 32 || w == 64)
      return std::string(i.isUnsigned() ? "uint" : "int") + std::to_string(w) +
             "_t";
    // int4/uint4: one code a byte in registers, packed pairs in shared and
    // global memory (like fp4 e2m1).
    if (w == 4)
      return std::string("uint8_t");
  }
  InFlightDiagnostic diag = at->emitError()
                            << "the " << lang.name
                            << " target does not support element type " << t;
  if (auto v = dyn_cast<VectorType>(t))
    diag << " (TileLang's " << getDTypeName(t)
         << ": buffers of vector elements are not built; use a buffer of "
         << getDTypeName(v.getElementType())
         << " with the lanes as one more innermost dimension)";
  return failure();
}

FailureOr<std::string> Emitter::valueType(Type t, Operation *at) {
  if (isSmallFloat(t))
    return std::string("float");
  // int4/uint4 values are computed in int (fromStorage/toStorage).
  if (t.isInteger(4))
    return std::string("int");
  if (auto i = dyn_cast<IntegerType>(t); i && i.isUnsigned())
    return storageType(IntegerType::get(t.getContext(), i.getWidth()), at);
  return storageType(t, at);
}

std::string Emitter::fromStorage(Type t, StringRef raw) {
  if (t.isF16() || t.isBF16())
    return (Twine(ns) + "toFloat(" + raw + ")").str();
  if (isa<Float8E4M3FNType>(t))
    return (Twine(ns) + "fp8E4M3ToFloat(" + raw + ")").str();
  if (isa<Float8E5M2Type>(t))
    return (Twine(ns) + "fp8E5M2ToFloat(" + raw + ")").str();
  if (isa<Float8E4M3FNUZType>(t))
    return (Twine(ns) + "fp8E4M3FnuzToFloat(" + raw + ")").str();
  if (isa<Float8E5M2FNUZType>(t))
    return (Twine(ns) + "fp8E5M2FnuzToFloat(" + raw + ")").str();
  if (isa<Float8E8M0FNUType>(t))
    return (Twine(ns) + "fp8E8M0ToFloat(" + raw + ")").str();
  if (isa<Float4E2M1FNType>(t))
    return ("tlc::fp4::e2m1ToFloat(" + raw + ")").str();
  if (t.isInteger(4))
    return (Twine(t.isUnsignedInteger() ? "tlc::fp4::uint4FromCode("
                                        : "tlc::fp4::int4FromCode(") +
            raw + ")")
        .str();
  return raw.str();
}

std::string Emitter::toStorage(Type t, StringRef v) {
  if (t.isF16())
    return (Twine(ns) + "toHalf(" + v + ")").str();
  if (t.isBF16())
    return (Twine(ns) + "toBFloat16(" + v + ")").str();
  if (isa<Float8E4M3FNType>(t))
    return (Twine(ns) + "toFp8E4M3(" + v + ")").str();
  if (isa<Float8E5M2Type>(t))
    return (Twine(ns) + "toFp8E5M2(" + v + ")").str();
  if (isa<Float8E4M3FNUZType>(t))
    return (Twine(ns) + "toFp8E4M3Fnuz(" + v + ")").str();
  if (isa<Float8E5M2FNUZType>(t))
    return (Twine(ns) + "toFp8E5M2Fnuz(" + v + ")").str();
  if (isa<Float8E8M0FNUType>(t))
    return (Twine(ns) + "toFp8E8M0(" + v + ")").str();
  if (isa<Float4E2M1FNType>(t))
    return ("tlc::fp4::e2m1FromFloat(" + v + ")").str();
  if (t.isInteger(4))
    return ("tlc::fp4::int4ToCode(" + v + ")").str();
  return v.str();
}

FailureOr<std::string> Emitter::extent(BufferType t, unsigned d,
                                       Operation *at) {
  Dim dim = t.getDim(d);
  if (dim.isStatic())
    return std::to_string(dim.getValue());
  if (dim.isSymbolic())
    return symbolicExpr(dim.getSymbol().getValue(), at, "extent");
  at->emitError() << "the " << lang.name
                  << " target cannot address a buffer with an unknown extent";
  return failure();
}

FailureOr<std::string> Emitter::symbolicExpr(StringRef text, Operation *at,
                                             StringRef what) {
  auto it = symbolNames.find(text);
  if (it != symbolNames.end())
    return it->second;
  // An expression of the kernel's symbols (`M - 64`, `ceildiv(N, 128)`),
  // its divisions and min/max written out.
  auto parsed = artifact::ShapeExpr::parse(text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
  } else {
    std::string s, missing;
    llvm::raw_string_ostream os(s);
    parsed->printInline(os, [&](raw_ostream &o, StringRef name) {
      auto sym = symbolNames.find(name);
      if (sym == symbolNames.end())
        missing = name.str();
      else
        o << sym->second;
    });
    if (missing.empty())
      return "(" + s + ")";
  }
  at->emitError() << "the " << lang.name << " target needs " << what << " '"
                  << text
                  << "' to be an expression of the kernel's symbols";
  return failure();
}

FailureOr<SmallVector<std::string>> Emitter::strides(Value root,
                                                     Operation *at) {
  SmallVector<std::string> out;
  if (ArrayAttr attr = getParamStrides(root)) {
    for (Attribute a : attr) {
      if (auto i = dyn_cast<IntegerAttr>(a)) {
        out.push_back(std::to_string(i.getInt()));
        continue;
      }
      FailureOr<std::string> e =
          symbolicExpr(cast<StringAttr>(a).getValue(), at, "stride");
      if (failed(e))
        return failure();
      out.push_back(*e);
    }
    return out;
  }
  return out;
}

LogicalResult Emitter::extents(BufferType t, Operation *at,
                               SmallVectorImpl<std::string> &shape,
                               std::string &numel) {
  for (unsigned d = 0; d < t.getRank(); ++d) {
    FailureOr<std::string> e = extent(t, d, at);
    if (failed(e))
      return failure();
    shape.push_back(*e);
    numel += (numel.empty() ? "" : " * ") + *e;
  }
  // A rank-0 buffer is one element.
  if (numel.empty())
    numel = "1";
  return success();
}

std::string Emitter::foldResult(OpFoldResult r) {
  if (auto attr = dyn_cast<Attribute>(r))
    return std::to_string(cast<IntegerAttr>(attr).getInt());
  return expr(cast<Value>(r));
}

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
    if (!lang.isHip() && options.minComputeCapability >= 90 &&
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
    if (!lang.isHip() && options.minComputeCapability >= 100)
      return emitTmemAlloc(op, name);
    [[fallthrough]];
  case MemoryScope::DescriptorTcgen05Smem:
  case MemoryScope::DescriptorTcgen05Instr:
    if (!lang.isHip() && options.minComputeCapability < 100) {
      // Tensor memory (tcgen05.alloc) and the tcgen05 descriptors exist
      // from sm_100a on (PTX ISA, "Tensor Memory").
      op.emitError() << stringifyMemoryScope(type.getScope())
                     << " is Blackwell's tensor memory (tcgen05), which "
                        "needs sm_100a; building for sm_"
                     << options.minComputeCapability
                     << (options.minComputeCapability == 90 ? "a" : "")
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
  // is a root for addressing). Swizzled, multi-buffered and register
  // buffers have no such row-major bytes.
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
      (swizzled.count(src) && !viewsStorage) || stagedBuffers.count(src) ||
      getElementStorageBytes(srcType.getElementType()) == 0 ||
      getElementStorageBytes(type.getElementType()) == 0 ||
      (srcType.getElementType() != type.getElementType() &&
       (getElementBitWidth(srcType.getElementType()) < 8 ||
        getElementBitWidth(type.getElementType()) < 8))) {
    op.emitError() << "the " << lang.name
                   << " target views (T.reshape, T.view) whole global "
                      "tensors, single-stage shared buffers of byte-sized "
                      "elements (swizzled ones in elements of at most 16 "
                      "bytes), fragments and local buffers (same element "
                      "type) only";
    return failure();
  }
  FailureOr<std::string> t = storageType(type.getElementType(), op);
  if (failed(t))
    return failure();
  beginOp(op, "T.view " + type.getShapeString());
  std::string name = define(op.getResult(), "view");
  line(*t + " *" + name + " = (" + *t + " *)(" + expr(src) + ");");
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitBlock(Block &block, bool allowBarriers) {
  // The barriers between the statements are tile-insert-barriers'
  // `tile.barrier` ops, printed where they stand.
  llvm::SaveAndRestore<bool> scope(barriersAllowed, allowBarriers);
  for (Operation &op : block)
    if (failed(emitStatement(&op)))
      return failure();
  return success();
}

LogicalResult Emitter::emitStatement(Operation *op) {
  if (skipOps.contains(op))
    return success();
  if (auto before = linesBefore.find(op); before != linesBefore.end())
    for (const std::string &l : before->second)
      line(l);
  if (auto after = linesAfter.find(op);
      after != linesAfter.end() && lazySelects.deferred.contains(op)) {
    // It runs in the branch of a select later in its block: what follows
    // it (a ring's release) follows that select.
    Operation *sel = op;
    while (lazySelects.deferred.contains(sel))
      sel = llvm::find_if(lazySelects.sides, [&](const auto &entry) {
              return llvm::is_contained(entry.second.first, sel) ||
                     llvm::is_contained(entry.second.second, sel);
            })->first;
    SmallVector<std::string, 1> lines = std::move(after->second);
    linesAfter.erase(after);
    llvm::append_range(linesAfter[sel], lines);
  }
  if (failed(emitOp(op)))
    return failure();
  if (auto after = linesAfter.find(op); after != linesAfter.end())
    for (const std::string &l : after->second)
      line(l);
  return success();
}

LogicalResult Emitter::checkStretches(ParallelOp op,
                                      ArrayRef<Operation *> barriers) {
  if (Operation *user =
          findUseAcrossBarriers(op.getBody().front(), barriers))
    return user->emitError()
           << "the " << lang.name
           << " target runs the stretches of a T.Parallel body between "
              "grid barriers under the element's tests: a value "
              "computed before the barrier cannot be used after it "
              "(keep it in a fragment or local buffer)";
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  // Run by the lazy select they feed (CUDAEmitterLazySelect.cpp).
  if (lazySelects.deferred.contains(op))
    return success();
  if (lazySelects.sides.contains(op))
    return emitLazySelect(op);
  // Tile operations are partitioned over the threads of their range: the
  // block, or the warps `T.ws(g)` / `if tx < c` select (TileLang lays such
  // an op out for the threads of the branch). A condition that is not a
  // warp-aligned range is refused, not miscompiled.
  auto perThread = [](Value buffer) {
    auto type = dyn_cast<BufferType>(buffer.getType());
    return type && (type.getScope() == MemoryScope::Local ||
                    type.getScope() == MemoryScope::LocalVar ||
                    type.getScope() == MemoryScope::Reducer);
  };
  // A fill of a T.alloc_local buffer, or a copy into or out of one, is
  // every thread's own (as in TileLang): not partitioned, no range.
  bool perThreadOp =
      (isa<FillOp>(op) && perThread(cast<FillOp>(op).getDst())) ||
      (isa<ClearOp>(op) && perThread(cast<ClearOp>(op).getDst())) ||
      (isa<CopyOp>(op) && isPerThreadCopy(cast<CopyOp>(op)));
  if ((isa<ParallelOp, CopyOp, GemmOp, ReduceOp, CumSumOp, FillOp, ClearOp>(
           op) &&
       !perThreadOp) ||
      (isa<AtomicAddOp>(op) && op->getNumResults() == 0 &&
       isa<BufferType>(op->getOperand(op->getNumOperands() - 1).getType()))) {
    if (!parallelReg.empty() && !isa<ParallelOp>(op)) {
      // Nested in a T.Parallel: per-thread already (the loop's checks).
    } else {
      FailureOr<ThreadRange> r = rangeOfOp(op);
      if (failed(r))
        return failure();
      if (*r != range) {
        InFlightDiagnostic d =
            op->emitError()
            << "a tile operation under a condition on the thread index "
               "(threads ["
            << r->lo << ", " << r->hi
            << ")) must sit directly in that condition's branch on the "
            << lang.name
            << " target (a loop or a block-uniform branch in between is "
               "fine)";
        if (r->condition)
          d.attachNote(r->condition->getLoc()) << "the condition";
        return failure();
      }
      if (failed(checkFragmentRanges(op)))
        return failure();
    }
  }
  if (auto alloc = dyn_cast<AllocOp>(op))
    return emitAlloc(alloc);
  if (isa<RegionOp, AnnotateLayoutOp>(op))
    return success(); // views are resolved at their uses
  if (auto view = dyn_cast<ViewOp>(op))
    return emitView(view);
  if (auto mk = dyn_cast<MakeTensorOp>(op)) {
    // T.make_tensor / T.Tensor.from_ptr: a global tensor at the address a
    // `T.ptr` parameter (or a pointer table) holds.
    auto type = cast<BufferType>(mk.getType());
    FailureOr<std::string> t = storageType(type.getElementType(), op);
    if (failed(t))
      return failure();
    std::string name = define(mk.getResult(), "tensor");
    beginOp(op, "T.make_tensor " + type.getShapeString());
    line(*t + " *__restrict__ " + name + " = reinterpret_cast<" + *t + " *>(" +
         expr(mk.getPtr()) + ");");
    return success();
  }
  // A scalar load or store prints no comment, but its lines map to its own
  // statement (the sim's and the LSP's places), not to the last tile op;
  // the lines after it (a loop's closing braces) keep the enclosing op's.
  if (isa<LoadOp, StoreOp>(op) && getFileLoc(op->getLoc())) {
    Location enclosing = currentLoc;
    currentLoc = op->getLoc();
    LogicalResult r = isa<LoadOp>(op) ? emitLoad(cast<LoadOp>(op))
                                      : emitStore(cast<StoreOp>(op));
    currentLoc = enclosing;
    return r;
  }
  if (auto load = dyn_cast<LoadOp>(op))
    return emitLoad(load);
  if (auto store = dyn_cast<StoreOp>(op))
    return emitStore(store);
  if (auto par = dyn_cast<ParallelOp>(op))
    return emitParallel(par);
  if (auto copy = dyn_cast<CopyOp>(op)) {
    // T.async_copy / a copy in T.attr(..., "async_scope", 1): cp.async,
    // committed as a group of its own for T.async_copy; the program waits
    // (T.ptx_wait_group). Chunks too small for cp.async stay plain stores.
    // (tile-plan-copies chooses cp.async for such a copy; a producer of a
    // multi-buffered loop is committed with its iteration's group.)
    auto async = copy->getAttrOfType<StringAttr>("tile.async_copy");
    LogicalResult r = emitCopy(copy);
    if (succeeded(r) && async && async.getValue() == "commit" &&
        lang.hasAsyncCopy && !issuingProducers)
      line("tlc::cuda::cpAsyncCommit();");
    return r;
  }
  if (auto gemm = dyn_cast<GemmOp>(op))
    return emitGemm(gemm);
  if (auto red = dyn_cast<ReduceOp>(op))
    return emitReduce(red);
  if (auto cs = dyn_cast<CumSumOp>(op))
    return emitCumSum(cs);
  if (auto at = dyn_cast<AtomicAddOp>(op))
    return emitAtomicAdd(at);
  if (auto pr = dyn_cast<PrintOp>(op))
    return emitPrint(pr);
  if (auto as = dyn_cast<DeviceAssertOp>(op))
    return emitDeviceAssert(as);
  if (auto as = dyn_cast<AssumeOp>(op)) {
    // nvcc and HIP's clang take it as a fact; the sim checks it.
    beginOp(op, "T.assume");
    line("__builtin_assume(" + expr(as.getCondition()) + ");");
    return success();
  }
  if (isa<UseSwizzleOp>(op))
    return success(); // applied at the kernel's block indices
  if (auto fill = dyn_cast<FillOp>(op)) {
    beginOp(op, "T.fill");
    return emitFill(op, fill.getDst(), expr(fill.getValue()));
  }
  if (auto clear = dyn_cast<ClearOp>(op);
      clear && clear->hasAttr("tile.tcgen05_clear")) {
    beginOp(op, "T.clear");
    line("// cleared by the first tcgen05.mma of the gemm after this branch");
    return success();
  }
  if (auto clear = dyn_cast<ClearOp>(op)) {
    beginOp(op, "T.clear");
    return emitFill(op, clear.getDst(), "0");
  }
  if (auto sync = dyn_cast<SyncThreadsOp>(op)) {
    beginOp(op, "T.sync_threads");
    if (sync.getBarrierId() && !lang.hasNamedBarriers) {
      op->emitError() << "T.sync_threads(barrier_id=...): " << lang.name
                      << " has no named barriers over part of the block";
      return failure();
    }
    if (sync.getBarrierId())
      line("tlc::cuda::namedBarrierSync(" + Twine(*sync.getBarrierId()) + ", " +
           Twine(sync.getArriveCount().value_or(blockThreads)) + ");");
    else // under a thread range: the range's threads
      line(blockBarrier());
    return success();
  }
  if (auto barrier = dyn_cast<BarrierOp>(op)) {
    // Placed by tile-insert-barriers, among the threads of the range
    // being emitted.
    currentLoc = op->getLoc();
    if (!barriersAllowed || !parallelReg.empty()) {
      op->emitError("a barrier where the threads of its range do not run "
                    "together (inside a T.Parallel, or under a condition that "
                    "may differ between them)");
      return failure();
    }
    if (barrier.getFenceProxyAsync())
      line("tlc::cuda::fenceProxyAsyncShared();");
    line(blockBarrier() + "  // " + barrier.getReason().str());
    return success();
  }
  if (auto sym = dyn_cast<SymbolOp>(op)) {
    auto it = symbolNames.find(sym.getName());
    names[sym.getResult()] =
        it != symbolNames.end() ? it->second : sym.getName().str();
    return success();
  }
  if (auto tb = dyn_cast<ThreadBindingOp>(op)) {
    // Blocks are launched one-dimensional (`tid` is threadIdx.x); the
    // thread index along dimension d of threads = [X, Y, Z] is its digit of
    // the linear index, x fastest, as CUDA numbers the threads of a block.
    ArrayRef<int64_t> dims;
    if (auto kernel = tb->getParentOfType<KernelOp>())
      dims = kernel.getStaticThreads();
    unsigned d = tb.getDim();
    std::string index = "(" + indexType() + ")threadIdx.x";
    if (d >= dims.size()) {
      names[tb.getResult()] = d == 0 ? index : "0";
      return success();
    }
    int64_t below = 1;
    for (unsigned i = 0; i < d; ++i)
      below *= dims[i];
    if (below > 1)
      index = "(" + index + " / " + std::to_string(below) + ")";
    if (d + 1 < dims.size())
      index = "(" + index + " % " + std::to_string(dims[d]) + ")";
    names[tb.getResult()] = index;
    return success();
  }
  if (auto forOp = dyn_cast<ForOp>(op)) {
    beginOp(op, "for");
    std::string iv = define(forOp.getInductionVar(), "i");
    if (forOp.getKind() != LoopKind::Serial)
      line("#pragma unroll");
    open("for (" + indexType() + " " + iv + " = " +
         expr(forOp.getLowerBound()) + "; " +
         iv + " < " + expr(forOp.getUpperBound()) + "; " + iv + " += " +
         expr(forOp.getStep()) + ")");
    if (failed(emitBlock(forOp.getBody().front(),
                         barriersAllowed && parallelReg.empty())))
      return failure();
    close();
    return success();
  }
  if (auto pipe = dyn_cast<PipelinedOp>(op)) {
    if (pipelineStages.count(pipe.getOperation()))
      return emitPipelined(pipe);
    beginOp(op, "T.Pipelined (num_stages = " +
                    std::to_string(pipe.getNumStages()) +
                    "; emitted as a serial loop)");
    std::string iv = define(pipe.getInductionVar(), "k");
    open("for (" + indexType() + " " + iv + " = " +
         expr(pipe.getLowerBound()) + "; " +
         iv + " < " + expr(pipe.getUpperBound()) + "; ++" + iv + ")");
    if (failed(emitBlock(pipe.getBody().front(), barriersAllowed)))
      return failure();
    close();
    return success();
  }
  if (auto ifOp = dyn_cast<IfOp>(op)) {
    if (std::optional<std::string> exit = uniformLoopExit(ifOp)) {
      beginOp(op, "if ...: " + *exit + " (decided for the whole block)");
      line("if (__syncthreads_or(" + expr(ifOp.getCondition()) + ")) " + *exit +
           ";");
      return success();
    }
    beginOp(op, "if");
    // Every thread takes the same branch of a block-uniform condition, so
    // the branch may hold barriers of its own (a copy into shared memory
    // and the gemm that reads it under `if mask[...]`).
    bool uniform = barriersAllowed && parallelReg.empty() &&
                   !mayVaryAcrossThreads(ifOp.getCondition());
    // A branch that a warp-aligned range of threads takes (T.ws, `if tx <
    // c`) partitions its tile operations over those threads and
    // synchronises them with a named barrier.
    // Inside the else branch of `tx < c and u` (u the same for every
    // thread: `elif` after `if tx < 64 and cta_id == 0`), whose threads are
    // no range, a nested branch is one where threadRangeOf finds the same
    // range whatever u is (`elif 128 <= tx < 256`).
    bool ranged = (barriersAllowed || rangesInUniformConjunctElse) &&
                  parallelReg.empty() && !uniform;
    auto emitBranch = [&](Block &b) {
      if (ranged)
        if (std::optional<ThreadRange> r = branchRange(ifOp, *b.getParent()))
          return emitRangeBlock(b, *r);
      bool conjunctElse = false;
      if (ranged && &b == ifOp.elseBlock())
        if (auto both = ifOp.getCondition().getDefiningOp<arith::AndIOp>())
          conjunctElse = !mayVaryAcrossThreads(both.getLhs()) ||
                         !mayVaryAcrossThreads(both.getRhs());
      llvm::SaveAndRestore<bool> keep(
          rangesInUniformConjunctElse,
          rangesInUniformConjunctElse || conjunctElse);
      return emitBlock(b, uniform);
    };
    // tile-split-masks' all-true side of a split loop: the then side only
    // (nothing when the next wgmma's scale-d clears C).
    if (maskAllTrue.contains(op)) {
      line("if (!(" + expr(ifOp.getCondition()) +
           ")) break;  // not all true from here on: the masked loop");
      if (ifOp->hasAttr("tile.split_mask_scale_d")) {
        line("// all true here: the next gemm's scale-d = 0 clears C");
        return success();
      }
      open("");
      if (failed(emitBranch(*ifOp.thenBlock())))
        return failure();
      close();
      return success();
    }
    // tile-split-masks: the then side's fill is the next wgmma's scale-d.
    if (ifOp->hasAttr("tile.split_mask_scale_d") && ifOp.elseBlock()) {
      line("// else the next gemm's scale-d = 0 clears C");
      open("if (!(" + expr(ifOp.getCondition()) + "))");
      if (failed(emitBranch(*ifOp.elseBlock())))
        return failure();
      close();
      return success();
    }
    open("if (" + expr(ifOp.getCondition()) + ")");
    if (failed(emitBranch(*ifOp.thenBlock())))
      return failure();
    if (Block *elseBlock = ifOp.elseBlock()) {
      --indent;
      open("} else");
      if (failed(emitBranch(*elseBlock)))
        return failure();
    }
    close();
    return success();
  }
  if (auto whileOp = dyn_cast<WhileOp>(op)) {
    beginOp(op, "while");
    Block &cond = whileOp.getCond().front();
    auto condition = dyn_cast<ConditionOp>(cond.getTerminator());
    bool uniform = barriersAllowed && parallelReg.empty() && condition &&
                   !mayVaryAcrossThreads(condition.getCondition());
    open("while (true)");
    for (Operation &c : cond) {
      if (auto condition = dyn_cast<ConditionOp>(c)) {
        line("if (!(" + expr(condition.getCondition()) + ")) break;");
        continue;
      }
      if (failed(emitOp(&c)))
        return failure();
    }
    if (failed(emitBlock(whileOp.getBody().front(), uniform)))
      return failure();
    close();
    return success();
  }
  if (auto intrinsic = dyn_cast<IntrinsicOp>(op))
    return emitIntrinsic(intrinsic);
  if (auto cancel = dyn_cast<ClcTryCancelOp>(op))
    return emitClcTryCancel(cancel);
  if (auto query = dyn_cast<ClcQueryOp>(op))
    return emitClcQuery(query);
  if (op->getDialect() &&
      isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return emitScalar(op);
  op->emitError() << "'" << op->getName()
                  << "' is not supported by the " << lang.name
                  << " target yet";
  return failure();
}

FailureOr<std::string> Emitter::fragmentRegister(Operation *op, Value buffer,
                                                 ValueRange indices) {
  Value root = rootOf(buffer);
  auto it = fragmentAccess.find(op);
  if (it != fragmentAccess.end())
    return it->second;
  auto ex = exchangeReads.find(op);
  if (ex != exchangeReads.end())
    return ex->second.first + "[" +
           rowMajorIndex(indices, fragments[ex->second.second].shape) + "]";
  // Scalar code (outside T.Parallel, or inside one at indices that are not
  // loop variables): any indices into a fragment every thread holds whole
  // (a fully replicated layout, its registers row-major: checked).
  auto info = fragments.find(root);
  if (info != fragments.end() && root == buffer &&
      isWholeInEveryThread(info->second)) {
    SmallVector<int64_t> coord;
    for (Value i : indices) {
      IntegerAttr c;
      if (!matchPattern(i, m_Constant(&c)))
        break;
      coord.push_back(c.getInt());
    }
    if (coord.size() == indices.size()) {
      std::optional<layout::FragmentSlot> slot =
          info->second.layout.apply(coord, 0);
      if (slot)
        return expr(root) + "[" + std::to_string(slot->index) + "]";
    } else {
      return expr(root) + "[" + rowMajorIndex(indices, info->second.shape) +
             "]";
    }
  }
  if (info != fragments.end() && root == buffer)
    if (FailureOr<std::string> e = guardedHolderElement(op, root, indices);
        succeeded(e))
      return *e;
  if (info != fragments.end() && root == buffer)
    if (FailureOr<std::string> e = publishedElement(op, root, indices);
        succeeded(e))
      return *e;
  op->emitError() << "the " << lang.name
                  << " target accesses fragments only inside a T.Parallel at "
                     "the loop variables, or in scalar code when every thread "
                     "holds the whole fragment or reads it where the block "
                     "may meet at a barrier";
  return failure();
}

LogicalResult Emitter::emitLoad(LoadOp op) {
  auto type = cast<BufferType>(op.getBuffer().getType());
  Value root = rootOf(op.getBuffer());
  FailureOr<std::string> vt = valueType(op.getType(), op);
  if (failed(vt))
    return failure();
  std::string name = define(op.getResult(), "x");
  if (scopeOf(root) == MemoryScope::Fragment) {
    FailureOr<std::string> reg = fragmentRegister(op, op.getBuffer(),
                                                  op.getIndices());
    if (failed(reg))
      return failure();
    auto forwarded = exchangeForward.find(*reg);
    line("const " + *vt + " " + name + " = " +
         fromStorage(type.getElementType(),
                     forwarded != exchangeForward.end() ? forwarded->second
                                                        : *reg) +
         ";");
    return success();
  }
  FailureOr<std::pair<std::string, std::string>> access =
      elementAccess(op.getBuffer(), op.getIndices(), op);
  if (failed(access))
    return failure();
  const auto &[lv, cond] = *access;
  std::string value = fromStorage(type.getElementType(), lv);
  if (!cond.empty())
    value = "(" + cond + ") ? " + *vt + "(" + value + ") : " + *vt + "(" +
            safeValueOf(op, root, type.getElementType()) + ")";
  line("const " + *vt + " " + name + " = " + value + ";");
  return success();
}

LogicalResult Emitter::emitStore(StoreOp op) {
  auto type = cast<BufferType>(op.getBuffer().getType());
  Value root = rootOf(op.getBuffer());
  std::string value = toStorage(type.getElementType(), expr(op.getValue()));
  // A register slot of a vector stored after the run (HIP T.Parallel).
  if (auto slot = vectorSlot.find(op); slot != vectorSlot.end()) {
    line(slot->second + " = " + value + ";");
    return success();
  }
  if (scopeOf(root) == MemoryScope::Fragment) {
    FailureOr<std::string> reg = fragmentRegister(op, op.getBuffer(),
                                                  op.getIndices());
    if (failed(reg))
      return failure();
    // A register: every replica keeps its copy. The exchange tile in
    // shared memory: one replica stores each element.
    bool shared = exchangeStores.count(op) || exchangeReads.count(op);
    if (!shared || replicaGuard.empty()) {
      line(*reg + " = " + value + ";");
      return success();
    }
    exchangeForward.erase(*reg);
    auto copy = replicaCopy.find(op);
    if (copy != replicaCopy.end()) {
      // Every replica keeps the element in its copy, which loads read.
      line(copy->second + " = " + value + ";");
      value = copy->second;
    } else if (exchangeStores.count(op) && op->getBlock() == replicaBody) {
      // Later loads of this element in the iteration read the value, not
      // the tile the other replicas did not store to.
      FailureOr<std::string> st = storageType(type.getElementType(), op);
      if (failed(st))
        return failure();
      std::string stored = fresh("stored");
      line("const " + *st + " " + stored + " = " + value + ";");
      value = stored;
      exchangeForward[*reg] = stored;
    }
    line(guardedStatement("", *reg + " = " + value + ";"));
    return success();
  }
  FailureOr<std::pair<std::string, std::string>> access =
      elementAccess(op.getBuffer(), op.getIndices(), op);
  if (failed(access))
    return failure();
  const auto &[lv, cond] = *access;
  // Per-thread buffers are registers too. (A reducer's contributions come
  // from one replica of a replicated loop: guardedStatement.)
  if (scopeOf(root) == MemoryScope::Local ||
      scopeOf(root) == MemoryScope::LocalVar)
    line((cond.empty() ? "" : "if (" + cond + ") ") + lv + " = " + value +
         ";");
  else
    line(guardedStatement(cond, lv + " = " + value + ";"));
  return success();
}

std::string Emitter::guardedStatement(StringRef cond,
                                      StringRef statement) const {
  std::string all = replicaGuard;
  if (!cond.empty())
    all = all.empty() ? cond.str() : all + " && (" + cond.str() + ")";
  if (all.empty())
    return statement.str();
  return "if (" + all + ") " + statement.str();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// The identifiers of \p text, in order.
static SmallVector<StringRef> identifiers(StringRef text) {
  SmallVector<StringRef> ids;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (llvm::isAlpha(c) || c == '_') {
      size_t j = i + 1;
      while (j < text.size() && (llvm::isAlnum(text[j]) || text[j] == '_'))
        ++j;
      ids.push_back(text.slice(i, j));
      i = j;
    } else if (llvm::isDigit(c)) { // a literal: 1.0f, 0x7f800000, 32ll
      while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '.'))
        ++i;
    } else {
      ++i;
    }
  }
  return ids;
}

/// The name a line `const TYPE NAME = EXPR;` defines (one declarator), or
/// "".
static StringRef definedName(StringRef line) {
  line = line.trim();
  if (!line.consume_front("const ") || !line.ends_with(";"))
    return "";
  size_t eq = line.find(" = ");
  if (eq == StringRef::npos || line.substr(eq + 3).contains(" = "))
    return "";
  StringRef lhs = line.take_front(eq);
  if (lhs.contains(','))
    return "";
  SmallVector<StringRef> ids = identifiers(lhs);
  return ids.size() >= 2 ? ids.back() : "";
}

void Emitter::pruneUnusedDefinitions() {
  SmallVector<StringRef> lines;
  StringRef(out).split(lines, '\n');
  llvm::StringMap<unsigned> uses;
  SmallVector<SmallVector<StringRef>> ids;
  for (StringRef l : lines) {
    ids.push_back(identifiers(l));
    for (StringRef id : ids.back())
      ++uses[id];
  }
  llvm::StringMap<unsigned> definedAt;
  SmallVector<unsigned> work;
  for (auto [i, l] : llvm::enumerate(lines)) {
    StringRef name = definedName(l);
    if (name.empty())
      continue;
    definedAt[name] = i;
    if (uses[name] == 1)
      work.push_back(i);
  }
  // A removed definition may leave the names it used unused in turn.
  std::vector<bool> removed(lines.size(), false);
  while (!work.empty()) {
    unsigned i = work.pop_back_val();
    if (removed[i])
      continue;
    removed[i] = true;
    for (StringRef id : ids[i]) {
      if (--uses[id] != 1)
        continue;
      auto it = definedAt.find(id);
      if (it != definedAt.end() && !removed[it->second])
        work.push_back(it->second);
    }
  }
  if (llvm::none_of(removed, [](bool r) { return r; }))
    return;
  // Keep the lines, and renumber the source map (1-based lines of `out`).
  std::string kept;
  SmallVector<unsigned> newLine(lines.size() + 1, 0);
  unsigned n = 0;
  for (auto [i, l] : llvm::enumerate(lines)) {
    if (removed[i])
      continue;
    newLine[i + 1] = ++n;
    kept += l;
    if (i + 1 < lines.size())
      kept += '\n';
  }
  std::vector<artifact::SourceMapEntry> map;
  for (artifact::SourceMapEntry e : result.sourceMap) {
    if (e.generatedLine == 0 || e.generatedLine > lines.size() ||
        !newLine[e.generatedLine])
      continue;
    e.generatedLine = newLine[e.generatedLine];
    map.push_back(e);
  }
  result.sourceMap = std::move(map);
  out = std::move(kept);
}

CudaKernel Emitter::takeResult() {
  pruneUnusedDefinitions();
  result.source = std::move(out);
  return std::move(result);
}

FailureOr<CudaKernel> tlc::target::emitCudaKernel(FuncOp func,
                                                  const CudaEmitOptions &options) {
  Emitter emitter(func, options);
  if (failed(emitter.emitFunction()))
    return failure();
  CudaKernel kernel = emitter.takeResult();
  std::string header = "// Generated by tlc from " +
                       (kernel.files.empty() ? std::string("Tile IR")
                                             : kernel.files.front()) +
                       "; do not edit.\n#include \"" +
                       options.language->deviceHeader.str() + "\"\n\n";
  unsigned headerLines = 3;
  // The wgmma helpers (one per instruction shape) only where used; after
  // the blank line, so translateModuleToCuda keeps it with its function.
  if (emitter.anyWgmma || emitter.anyTma || emitter.anyGridSync ||
      emitter.anyCluster || emitter.anyTcgen05) {
    if (emitter.anyWgmma)
      header += "#include \"tlc_device/cuda/wgmma.h\"\n";
    if (emitter.anyTma) // TMA copies and mbarriers (tile-plan-tma)
      header += "#include \"tlc_device/cuda/tma.h\"\n";
    if (emitter.anyGridSync) // T.sync_grid (cooperative groups)
      header += "#include \"tlc_device/" +
                std::string(options.language->isHip() ? "hip" : "cuda") +
                "/grid.h\"\n";
    if (emitter.anyCluster) // thread-block clusters (sm_90)
      header += "#include \"tlc_device/cuda/cluster.h\"\n";
    if (emitter.anyTcgen05) // tensor memory, tcgen05.mma (sm_100a)
      header += "#include \"tlc_device/cuda/tcgen05.h\"\n";
    header += "\n";
    headerLines += 1 + int(emitter.anyWgmma) + int(emitter.anyTma) +
                   int(emitter.anyGridSync) + int(emitter.anyCluster) +
                   int(emitter.anyTcgen05);
  }
  // The program's own device source, after every header it may use.
  std::string imported = importedSourceText(func, /*forCpu=*/false);
  header += imported;
  headerLines += llvm::count(imported, '\n');
  for (artifact::SourceMapEntry &e : kernel.sourceMap)
    e.generatedLine += headerLines;
  kernel.source = header + kernel.source;
  return kernel;
}

LogicalResult tlc::target::translateModuleToCuda(ModuleOp module,
                                                 llvm::raw_ostream &os,
                                                 const CudaEmitOptions &options,
                                         llvm::StringRef kernelFilter) {
  if (failed(tile::runGpuLowering(module)))
    return failure();
  bool ok = true, first = true;
  for (FuncOp func : module.getOps<FuncOp>()) {
    if (skipUnbuildable(func, kernelFilter, ok, /*needsKernel=*/true))
      continue;
    FailureOr<CudaKernel> k = emitCudaKernel(func, options);
    if (failed(k)) {
      ok = false;
      continue;
    }
    StringRef source = k->source;
    if (!first) // one #include for the whole text
      source = source.drop_front(source.find("\n\n") + 2);
    os << source;
    first = false;
  }
  return success(ok);
}
