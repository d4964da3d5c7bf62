//===- KernelRegions.cpp - Kernel regions, loops and checks
//-----------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// T.Kernel regions and TileLang loops, buffer creation, hints, and the
// checks on them (nesting, thread counts, shared memory budget).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"
#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;
using lang::MemoryScope;

//===----------------------------------------------------------------------===//
// Symbols, hints and checks
//===----------------------------------------------------------------------===//

void Interpreter::noteSymbolUse(llvm::StringRef name) {
  if (!instance)
    return;
  for (auto &s : instance->symbols)
    if (s.first == name)
      return;
  auto it = symbolKinds.find(name);
  int kind = it != symbolKinds.end() ? it->second : /*Meta=*/2;
  instance->symbols.push_back({name.str(), kind});
}

void Interpreter::noteSymbols(SymExpr e) {
  const SymNode *n = e.getNode();
  if (!n)
    return;
  switch (n->kind) {
  case SymKind::Constant:
    return;
  case SymKind::Symbol:
    if (n->value == 0)
      noteSymbolUse(n->name);
    else if (isDynamicDecl(n))
      symbolName(n);
    return;
  case SymKind::Sum:
    for (const SymTerm &t : n->terms)
      noteSymbols(SymExpr(t.term));
    return;
  case SymKind::Product:
    for (const SymNode *f : n->factors)
      noteSymbols(SymExpr(f));
    return;
  default:
    noteSymbols(SymExpr(n->lhs));
    noteSymbols(SymExpr(n->rhs));
    return;
  }
}

void Interpreter::addHint(TextRange range, llvm::StringRef name,
                          llvm::StringRef kind, llvm::ArrayRef<SymExpr> shape,
                          std::optional<lang::DType> dtype,
                          std::optional<lang::MemoryScope> scope,
                          std::string detail) {
  if (!instance || foreignDepth > 0)
    return;
  Hint h;
  h.range = range;
  h.kernel = instance->kernel;
  h.instance = instance->label;
  h.name = name.str();
  h.kind = kind.str();
  for (SymExpr d : shape) {
    h.shapeIsInt.push_back(d && d.isConstant());
    h.shape.push_back(d ? instanceNamed(d).str() : "?");
  }
  if (dtype)
    h.dtype = dtype->getName();
  if (scope)
    h.scope = lang::getScopeString(*scope).str();
  h.detail = std::move(detail);
  out.hints.push_back(std::move(h));
  ++instance->numHints;
}

void Interpreter::nameBuffer(BufferObj *buf, llvm::StringRef name,
                             Node target) {
  buf->name = name;
  if (buf->hintIndex >= 0 && size_t(buf->hintIndex) < out.hints.size()) {
    Hint &h = out.hints[buf->hintIndex];
    h.name = name.str();
    h.range = target.range();
  }
  if (!buf->value)
    return;
  // Allocations are ops; `T.empty` outputs are function parameters.
  mlir::Location l = ir->nameLoc(name, buf->range);
  if (mlir::Operation *op = buf->value.getDefiningOp())
    op->setLoc(l);
  else if (auto arg = mlir::dyn_cast<mlir::BlockArgument>(buf->value))
    arg.setLoc(l);
}

bool Interpreter::checkNotInParallel(llvm::StringRef what, Node at) {
  for (const LoopCtx &l : loops)
    if (l.kind == LoopKind::Parallel) {
      Diagnostic d;
      error(at, what + " cannot be used inside T.Parallel");
      return true;
    }
  return false;
}

/// True when the body of \p def calls T.Kernel (or another launch frame
/// whose name ends in `Kernel`) somewhere.
static bool launchesKernel(Node def) {
  bool found = false;
  for (Node stmt : def.children(Field::body))
    syntax::walk(stmt, [&](Node n) {
      if (n.kind() == NodeKind::Call &&
          n.child(Field::func).text().ends_with("Kernel")) {
        found = true;
        return syntax::WalkResult::Interrupt;
      }
      return syntax::WalkResult::Advance;
    });
  return found;
}

bool Interpreter::checkInKernel(llvm::StringRef what, Node at) {
  if (kernel)
    return false;
  // A prim_func that launches no kernel at all is TIR written for
  // TileLang's own passes (their unit tests build such functions and run
  // one pass on them): TileLang parses its tile ops, allocations and
  // pipelined loops. There is no kernel to analyse them in; one warning
  // says so, and building the function is refused at its first tile op.
  // (A function already warned about launches none: its body is not
  // walked again for each further tile op.)
  if (tracing() && instance && instance->def &&
      instance->def.kind() == NodeKind::FunctionDef &&
      (instance->warnedNotKernel || !launchesKernel(instance->def))) {
    if (!instance->warnedNotKernel) {
      instance->warnedNotKernel = true;
      warning(at, what + " outside any T.Kernel, in a prim_func that "
                         "launches none (TIR-level code): tlc does not "
                         "analyse this function's tile code");
      if (ir) {
        std::string why =
            (what + " in a prim_func that launches no T.Kernel (TIR-level "
                    "code, which tlc does not analyse)")
                .str();
        mlir::NamedAttribute option(ir->b.getStringAttr("what"),
                                    ir->b.getStringAttr(why));
        tile::IntrinsicOp::create(ir->b, ir->loc(at), mlir::TypeRange{},
                                  ir->b.getStringAttr("tlc.unbuildable"),
                                  mlir::ValueRange{}, ir->b.getStrArrayAttr({}),
                                  ir->b.getDictionaryAttr({option}));
      }
    }
    return true;
  }
  error(at, what + " can only be used inside a T.Kernel region");
  return true;
}

void Interpreter::checkBufferUse(BufferObj *buf, Node at) {
  if (!buf->kernelId || (kernel && buf->kernelId == kernel->id))
    return;
  if (!kernel)
    error(at, llvm::Twine(lang::getScopeDisplayName(buf->scope)) + " buffer '" +
                  buf->name +
                  "' is used outside of the T.Kernel region it belongs to");
  else
    error(at, llvm::Twine(lang::getScopeDisplayName(buf->scope)) + " buffer '" +
                  buf->name + "' belongs to another T.Kernel region");
}

/// Byte counts past int64 (a tile of 2^62 columns) saturate at this value,
/// printed as `more than 2^63 bytes`.
static constexpr int64_t kSaturatedBytes = std::numeric_limits<int64_t>::max();

/// \p a * \p b (both >= 0), kSaturatedBytes when it overflows.
static int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return llvm::MulOverflow(a, b, r) ? kSaturatedBytes : r;
}

/// \p a + \p b (both >= 0), kSaturatedBytes when it overflows.
static int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return llvm::AddOverflow(a, b, r) ? kSaturatedBytes : r;
}

/// Bytes of a buffer when its shape is static.
static std::optional<int64_t> bufferBytes(const BufferObj *b) {
  // Saturated at kSaturatedBytes: a (128, 2^62) tile must not wrap to a
  // size that fits (found by tlc-fuzz-eval: its 2^71 bytes read as 0).
  int64_t n = 1;
  for (SymExpr d : b->shape) {
    if (!d || !d.isConstant())
      return std::nullopt;
    n = saturatingMul(n, *d.getConstant());
  }
  int64_t bits = saturatingMul(n, b->dtype.getTotalBits());
  return bits == kSaturatedBytes ? bits : bits / 8 + (bits % 8 != 0);
}

/// \p bytes for a diagnostic: `64 KiB`, `48.5 KiB`, `96 bytes`, or
/// `64 KiB + 32 bytes` where one decimal of KiB would hide the difference
/// from a whole KiB (a figure just over a budget must not read as equal).
static std::string formatBytes(int64_t bytes) {
  if (bytes == kSaturatedBytes)
    return "more than 2^63 bytes";
  if (bytes % 1024 == 0)
    return std::to_string(bytes / 1024) + " KiB";
  if (bytes < 1024)
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  char buf[32];
  snprintf(buf, sizeof(buf), "%.1f KiB", double(bytes) / 1024);
  if (llvm::StringRef(buf).ends_with(".0 KiB")) {
    int64_t rest = bytes % 1024;
    if (rest >= 512)
      rest -= 1024;
    return std::to_string((bytes - rest) / 1024) + " KiB " +
           (rest < 0 ? "- " : "+ ") + std::to_string(std::abs(rest)) +
           (std::abs(rest) == 1 ? " byte" : " bytes");
  }
  return buf;
}

std::optional<int64_t> Interpreter::checkSharedMemory(KernelCtx &k) {
  // As TileLang plans shared memory: buffers whose live ranges (first to
  // last statement of the kernel body that uses them; a loop is one
  // statement) do not overlap share bytes, and only buffers a T.Pipelined
  // writes are multiplied by its stage count. The figure is the peak over
  // the statements, a lower bound of any real placement, so no program is
  // refused that TileLang could place.
  bool allStatic = true;
  mlir::Block *body =
      k.op ? &llvm::cast<tile::KernelOp>(k.op).getBody().front() : nullptr;
  tile::StatementIndex index;
  if (body)
    index = tile::indexStatements(*body);
  int numStatements = int(index.size());
  int64_t maxStages = 1;
  // With inLoops, buffers share bytes within loop iterations too
  // (tile::getNestedLiveRange), as tile-plan-shared-memory places the
  // buffers of a kernel marked `tile.reuse_in_loops`.
  bool inLoops = false;
  std::vector<tile::NestedLiveRange> nested;
  std::vector<std::pair<const tile::NestedLiveRange *, int64_t>> sized;
  // The peak with at most \p cap stages per buffer (notes when given).
  auto peak = [&](int64_t cap, std::vector<RelatedInfo> *notes) {
    std::vector<int64_t> live(std::max(numStatements, 1), 0);
    nested.clear();
    nested.reserve(k.sharedBuffers.size());
    sized.clear();
    for (BufferObj *b : k.sharedBuffers) {
      std::optional<int64_t> bytes = bufferBytes(b);
      if (!bytes) {
        allStatic = false;
        continue;
      }
      int64_t stages = std::min(std::max<int64_t>(1, b->stages), cap);
      maxStages = std::max(maxStages, stages);
      int64_t used = saturatingMul(*bytes, stages);
      std::optional<std::pair<int, int>> range =
          body && b->value ? tile::getLiveRange(*body, b->value, index)
                           : std::optional<std::pair<int, int>>();
      if (body && b->value && !range)
        continue; // Never used: TileLang removes it.
      int lo = range ? range->first : 0;
      int hi = range ? range->second : int(live.size()) - 1;
      for (int s = lo; s <= hi; ++s)
        live[s] = saturatingAdd(live[s], used);
      if (inLoops && body) {
        nested.push_back(b->value ? tile::getNestedLiveRange(*body, b->value)
                                  : tile::NestedLiveRange());
        if (nested.back().empty())
          nested.back().push_back({body, lo, hi});
        sized.push_back({&nested.back(), used});
      }
      if (!notes)
        continue;
      std::string msg = "'" + b->name.str() + "' uses " + formatBytes(used);
      if (stages > 1)
        msg += " (" + std::to_string(stages) + " pipeline stages x " +
               formatBytes(*bytes) + ")";
      notes->push_back({b->range, msg});
    }
    int64_t total = 0;
    for (int64_t v : live)
      total = std::max(total, v);
    if (inLoops && body)
      total = std::min(total, tile::getNestedLivePeak(sized));
    return total;
  };
  std::vector<RelatedInfo> notes;
  int64_t total = peak(INT64_MAX, &notes);
  const TargetInfo &tgt = target();
  // CDNA's 64 KiB of LDS: TileLang runs every T.Pipelined of gfx90a and
  // gfx942 as a plain loop (its pipeline planning drops num_stages there).
  // tlc keeps the stages that fit and runs the loop with fewer buffers
  // when they do not, rather than refusing the program.
  bool hip = llvm::StringRef(tgt.name).starts_with("hip:");
  // Over the budget: first with fewer stages (HIP), then with buffers
  // sharing bytes within loop iterations, then both.
  for (bool nest : {false, true}) {
    if (total <= tgt.sharedMemoryBytes || (nest && !body))
      break;
    inLoops = nest;
    if (nest) {
      int64_t within = peak(INT64_MAX, nullptr);
      if (within <= tgt.sharedMemoryBytes) {
        k.op->setAttr("tile.reuse_in_loops",
                      mlir::UnitAttr::get(k.op->getContext()));
        total = within;
        break;
      }
    }
    if (maxStages <= 1 || !hip)
      continue;
    int64_t cap = maxStages - 1;
    while (cap > 1 && peak(cap, nullptr) > tgt.sharedMemoryBytes)
      --cap;
    int64_t capped = peak(cap, nullptr);
    if (capped <= tgt.sharedMemoryBytes) {
      if (nest)
        k.op->setAttr("tile.reuse_in_loops",
                      mlir::UnitAttr::get(k.op->getContext()));
      // Each T.Pipelined that asked for more stages than fit is told at
      // its own call: the stages it asked for, the ones it runs with, the
      // LDS they need and use (the kernel, where no loop is located).
      std::string runs =
          cap < 2 ? std::string("one buffer (no overlap, as TileLang runs "
                                "it on gfx90a and gfx942)")
                  : std::to_string(cap) + " stages";
      auto message = [&](std::string asked) {
        return (asked.empty() ? "the pipeline stages need "
                              : asked + " needs ") +
               formatBytes(total) + " of LDS, more than the " +
               formatBytes(tgt.sharedMemoryBytes) + " of " + tgt.name +
               (asked.empty() ? ": T.Pipelined" : ": this T.Pipelined") +
               " runs with " + runs + ", " + formatBytes(capped) + " of LDS";
      };
      bool located = false;
      if (body)
        body->walk([&](tile::PipelinedOp pipe) {
          int64_t asked = pipe.getNumStages();
          if (asked <= cap)
            return;
          auto at = pipe.getLoc()->findInstanceOf<mlir::FileLineColRange>();
          if (at && at.getStartLine() > 0) {
            const LineIndex &lines = tree.lines();
            uint32_t b = lines.fromUtf8(
                {at.getStartLine() - 1, at.getStartColumn() - 1});
            uint32_t e =
                lines.fromUtf8({at.getEndLine() - 1, at.getEndColumn() - 1});
            warning(TextRange{b, std::max(b, e)},
                    message("num_stages=" + std::to_string(asked)));
            located = true;
          }
          pipe.setNumStages(cap);
          pipe.removeStageAttr();
          pipe.removeOrderAttr();
        });
      if (!located)
        warning(k.call, message(""));
      for (BufferObj *b : k.sharedBuffers)
        b->stages = std::min(b->stages, cap);
      total = capped;
    }
  }
  std::optional<int64_t> result =
      allStatic ? std::optional<int64_t>(total) : std::nullopt;
  if (total <= tgt.sharedMemoryBytes)
    return result;
  Diagnostic d;
  d.severity = Severity::Error;
  d.range = k.call.range();
  d.message = "shared memory usage " + formatBytes(total) + " exceeds the " +
              formatBytes(tgt.sharedMemoryBytes) + " budget of " + tgt.name;
  // CDNA: the LDS a workgroup can allocate is the hardware's; clang's
  // AMDGPU back end (which TileLang's HIP build uses as well) rejects a
  // kernel over it ("local memory (N) exceeds limit (65536)" for gfx90a
  // and gfx942), so these tiles do not build for this GPU with TileLang
  // either.
  if (hip)
    d.message += ", the LDS a workgroup can allocate on this GPU (a "
                 "hardware limit: the AMDGPU back end that TileLang's HIP "
                 "build uses rejects such a kernel too); smaller tiles or "
                 "fewer buffers fit";
  d.notes = std::move(notes);
  if (instance)
    d.notes.push_back({instance->def.getIdentifier().range,
                       "in instance " + instance->label});
  out.diagnostics.push_back(std::move(d));
  return result;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

BufferObj *Interpreter::makeBuffer(llvm::StringRef name,
                                   llvm::ArrayRef<SymExpr> shape,
                                   lang::DType dtype, MemoryScope scope,
                                   Node at, bool isParam, mlir::Value init) {
  auto *buf = heap.make<BufferObj>();
  buf->name = name;
  buf->shape.assign(shape.begin(), shape.end());
  buf->dtype = dtype;
  buf->scope = scope;
  buf->range = at.range();
  buf->kernelId = lang::isGlobalScope(scope) || !kernel ? 0 : kernel->id;
  for (SymExpr d : shape)
    noteSymbols(d);
  tile::BufferType t = ir->bufferType(shape, dtype, scope);
  mlir::Location l = name.empty() ? ir->loc(at) : ir->nameLoc(name, at.range());
  if (isParam)
    buf->value = ir->addParam(t, l);
  else
    buf->value = tile::AllocOp::create(ir->b, l, t, init);
  if (lang::usesSharedMemory(scope) && kernel)
    kernel->sharedBuffers.push_back(buf);
  buf->hintIndex = int(out.hints.size());
  addHint(at.range(), name, isParam ? "tensor" : "buffer", shape, dtype, scope,
          "");
  if (!instance)
    buf->hintIndex = -1;
  return buf;
}

Value Interpreter::makeTensorFromAnnotation(Value ann, llvm::StringRef name,
                                            Node at) {
  auto *t = ann.as<BufferObj>();
  if (!tracing())
    return ann;
  // An extent tlc cannot evaluate (a size from torch, `q.shape[0]`) is the
  // tensor's own at run time: a dynamic symbol `NAME_shapeD`, bound from
  // the argument at launch like a T.dynamic extent. One opaque value is one
  // symbol: `UQ = q.shape[0]` in the shapes of Q and Output makes both
  // `Q_shape0` (so one binding serves both, and launching with tensors
  // that disagree is a shape error).
  llvm::SmallVector<SymExpr, 4> shape(t->shape.begin(), t->shape.end());
  for (auto [d, e] : llvm::enumerate(shape)) {
    if (e || name.empty())
      continue;
    const Obj *source =
        d < t->opaqueExtents.size() ? t->opaqueExtents[d] : nullptr;
    llvm::StringRef sym;
    if (source) {
      auto it = opaqueExtentSymbols.find({instance, source});
      if (it != opaqueExtentSymbols.end())
        sym = it->second;
    }
    if (sym.empty()) {
      sym = heap.copyString((name + "_shape" + llvm::Twine(d)).str());
      if (source)
        opaqueExtentSymbols[{instance, source}] = sym;
    }
    symbolKinds[sym] = /*Dynamic=*/0;
    e = syms.symbol(sym);
  }
  lang::DType dtype = t->dtype;
  if (anyDTypeTensors.contains(t) && !name.empty()) {
    // `A: T.Tensor[[int, int], Any]`: the argument's dtype, bound by
    // `-D A.dtype=...`.
    std::string key = (name + ".dtype").str();
    auto bound = llvm::find_if(options.defines,
                               [&](const auto &kv) { return kv.first == key; });
    std::optional<lang::DType> d;
    if (bound != options.defines.end()) {
      usedDefines.insert(key);
      d = toDType(parseDefine(bound->second), at);
      if (!d)
        error(at, "-D " + key + "=" + bound->second + " is not a dtype");
    } else {
      warning(at, "the dtype of tensor '" + name +
                      "' comes from the argument (Any); analysed as "
                      "float32 (bind it with -D " + key + "=...)");
    }
    if (d)
      dtype = *d;
  }
  BufferObj *b = makeBuffer(name, shape, dtype, t->scope, at, true);
  // A stride tlc cannot evaluate is a dynamic symbol `NAME_strideD`, bound
  // from the argument's stride at launch.
  llvm::SmallVector<SymExpr, 4> strides(t->strides.begin(), t->strides.end());
  for (auto [d, s] : llvm::enumerate(strides)) {
    if (s || name.empty())
      continue;
    llvm::StringRef sym =
        heap.copyString((name + "_stride" + llvm::Twine(d)).str());
    symbolKinds[sym] = /*Dynamic=*/0;
    s = syms.symbol(sym);
  }
  // Strides other than the dense row-major ones (a transposed view, a
  // padded row pitch) are the parameter's `tile.strides`.
  SymExpr dense = syms.constant(1);
  bool rowMajor = true;
  for (size_t d = strides.size(); d-- > 0 && rowMajor;) {
    rowMajor =
        strides[d] && dense && syms.equal(strides[d], dense).value_or(false);
    dense = shape[d] ? syms.mul(dense, shape[d]) : SymExpr();
  }
  if (!rowMajor) {
    b->strides.assign(strides.begin(), strides.end());
    ir->setParamAttr(b->value, "tile.strides", ir->stridesAttr(b->strides));
    // A symbolic stride is a symbol of the kernel (bound from the
    // argument's stride at launch).
    for (SymExpr s : b->strides)
      noteSymbols(s);
  }
  return Value::object(ValueKind::Buffer, b);
}

//===----------------------------------------------------------------------===//
// Kernel regions and loops
//===----------------------------------------------------------------------===//

/// Names of the variables a `for`/`with` target binds.
/// T.Parallel(loop_layout=F): a fragment the loop writes at exactly its
/// variables (`acc[i, j] = ...`, over the loop's shape) has the layout F
/// (TileLang completes it from the loop layout), which every target then
/// follows as if annotated; the annotation stands at the argument \p at,
/// so a use that needs another layout is reported there.
static void annotateLoopLayoutWrites(tile::ParallelOp loop,
                                     mlir::Attribute layout,
                                     mlir::Location at) {
  mlir::Block &body = loop.getBody().front();
  llvm::SmallVector<int64_t, 3> shape;
  for (mlir::OpFoldResult e : loop.getMixedExtents()) {
    std::optional<int64_t> c = mlir::getConstantIntValue(e);
    if (!c)
      return;
    shape.push_back(*c);
  }
  llvm::SmallVector<mlir::Value, 2> written;
  loop.getBody().walk([&](tile::StoreOp store) {
    mlir::Value buf = store.getBuffer();
    auto type = mlir::dyn_cast<tile::BufferType>(buf.getType());
    if (!type || type.getScope() != tile::MemoryScope::Fragment ||
        !buf.getDefiningOp<tile::AllocOp>() ||
        type.getShape() != llvm::ArrayRef<int64_t>(shape) ||
        llvm::is_contained(written, buf))
      return;
    mlir::ValueRange indices = store.getIndices();
    if (indices.size() != body.getNumArguments() ||
        !llvm::equal(indices, body.getArguments()))
      return;
    written.push_back(buf);
  });
  mlir::OpBuilder b(loop);
  for (mlir::Value buf : written)
    tile::AnnotateLayoutOp::create(b, at, buf, layout);
}

static void targetNames(Node target, llvm::SmallVectorImpl<Node> &out) {
  if (!target)
    return;
  if (target.kind() == NodeKind::Tuple || target.kind() == NodeKind::List) {
    for (Node e : target.children(Field::elts))
      out.push_back(e);
    return;
  }
  out.push_back(target);
}

Flow Interpreter::execKernel(KernelFrameObj *frame, Node withNode,
                             Node target) {
  Node call = frame->call;
  if (kernel) {
    error(call, "T.Kernel regions cannot be nested");
    return Flow::Normal;
  }
  if (!tracing()) {
    error(call, "T.Kernel can only be used inside a @T.prim_func or "
                "@tilelang.jit function");
    return Flow::Normal;
  }
  llvm::SmallVector<mlir::OpFoldResult, 3> grid, threads;
  llvm::SmallVector<SymExpr, 3> gridSyms;
  for (Value g : frame->grid) {
    grid.push_back(toFold(g, call));
    gridSyms.push_back(g.is(ValueKind::Expr) ? g.as<ExprObj>()->sym : toSym(g));
  }
  int64_t numThreads = 1;
  bool staticThreads = true;
  for (Value t : frame->threads) {
    threads.push_back(toFold(t, call));
    if (t.isIntLike())
      numThreads *= t.getInt();
    else
      staticThreads = false;
  }
  if (staticThreads) {
    const TargetInfo &tgt = this->target();
    if (numThreads <= 0)
      error(call,
            "thread count must be positive, got " + llvm::Twine(numThreads));
    else if (numThreads > tgt.maxThreads)
      error(call, "thread count " + llvm::Twine(numThreads) +
                      " exceeds the maximum of " + llvm::Twine(tgt.maxThreads) +
                      " threads per block");
    // Any positive count is valid, as in TileLang: the last warp of a
    // block may be partial.
  }
  auto op = tile::KernelOp::create(ir->b, ir->loc(call), grid, threads);
  mlir::Block &body = op.getBody().front();

  KernelCtx k;
  k.id = ++lastKernelId;
  k.op = op.getOperation();
  k.threads = staticThreads ? numThreads : 0;
  k.call = call;
  llvm::SmallVector<Node, 3> names;
  targetNames(target, names);
  static const char *const defaults[] = {"bx", "by", "bz"};
  llvm::SmallVector<Value, 3> vars;
  for (unsigned i = 0; i < body.getNumArguments(); ++i) {
    llvm::StringRef name = i < names.size() && names[i].kind() == NodeKind::Name
                               ? names[i].identifier()
                               : llvm::StringRef(defaults[std::min(i, 2u)]);
    SymExpr sym = syms.freshSymbol(name);
    ir->bindSymbol(sym, body.getArgument(i));
    body.getArgument(i).setLoc(
        ir->nameLoc(name, i < names.size() ? names[i].range() : call.range()));
    vars.push_back(wrapScalar(
        {body.getArgument(i), lang::DType(lang::ScalarType::Int32), sym}));
  }
  k.blockVars = vars;
  k.gridExtents.assign(frame->grid.begin(), frame->grid.end());
  k.clusterDims.assign(frame->clusterDims.begin(), frame->clusterDims.end());
  // T.MixedKernel: `as (bx, sid)` binds the vector sub-core's index too,
  // and marks the kernel as written for Ascend.
  auto sids = mixedKernelSids.find(frame);
  bool mixed = sids != mixedKernelSids.end();
  if (mixed) {
    mlir::OpBuilder::InsertionGuard guard(ir->b);
    ir->b.setInsertionPointToEnd(&body);
    mlir::Location l = ir->loc(call);
    auto sid = tile::IntrinsicOp::create(
        ir->b, l, mlir::TypeRange{ir->b.getI32Type()},
        ir->b.getStringAttr("T.MixedKernel"), mlir::ValueRange{},
        ir->b.getStrArrayAttr({}),
        ir->b.getDictionaryAttr({ir->b.getNamedAttr(
            "sids", ir->b.getI64IntegerAttr(sids->second))}));
    vars.push_back(wrapScalar(
        {sid->getResult(0), lang::DType(lang::ScalarType::Int32), SymExpr()}));
  }
  if (!frame->clusterDims.empty())
    op->setAttr("cluster_dims", ir->b.getDenseI64ArrayAttr(frame->clusterDims));
  if (!frame->sourceCode.empty())
    op->setAttr("source_code", ir->b.getStringAttr(frame->sourceCode));
  if (target) {
    Value bound = vars.size() == 1 && target.kind() == NodeKind::Name
                      ? vars[0]
                      : heap.tuple(vars);
    if (target.kind() == NodeKind::Name && vars.size() > 1)
      bound = heap.list(vars);
    if (assign(target, bound) != Flow::Normal)
      return Flow::Raise;
  }
  std::string detail = staticThreads ? std::to_string(numThreads) + " threads"
                                     : "symbolic threads";
  size_t launchHint = out.hints.size();
  addHint(target ? target.range() : call.range(),
          target ? target.text() : llvm::StringRef(), "kernel", gridSyms,
          std::nullopt, std::nullopt, detail);
  bool haveLaunchHint = out.hints.size() > launchHint;
  if (haveLaunchHint && staticThreads)
    out.hints[launchHint].threads = numThreads;

  KernelCtx *saved = kernel;
  kernel = &k;
  Flow f;
  {
    mlir::OpBuilder::InsertionGuard guard(ir->b);
    ir->b.setInsertionPointToEnd(&body);
    if (FrameObj *ascend = std::exchange(ascendKernelFrame, nullptr))
      markAscend(ascend->call, "T.SimtVF");
    if (mixed)
      markAscend(call, "T.MixedKernel");
    f = execBody(withNode, Field::body);
  }
  kernel = saved;
  std::optional<int64_t> sharedBytes = checkSharedMemory(k);
  if (haveLaunchHint)
    out.hints[launchHint].sharedBytes = sharedBytes;
  if (f == Flow::Break || f == Flow::Continue)
    f = Flow::Normal;
  return f;
}

/// Makes \p v available before \p loop: true when it is defined outside the
/// loop, or by side-effect-free operations of the loop's body that use only
/// such values (an extent computed from kernel parameters in the enclosing
/// iteration), which move before the loop. A value that depends on the
/// loop's variables stays where it is (false).
static bool hoistAbove(mlir::Operation *loop, mlir::Value v) {
  if (!loop->isAncestor(v.getParentBlock()->getParentOp()))
    return true;
  mlir::Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != &loop->getRegion(0).front() ||
      def->getNumRegions() || !mlir::isMemoryEffectFree(def))
    return false;
  for (mlir::Value operand : def->getOperands())
    if (!hoistAbove(loop, operand))
      return false;
  def->moveBefore(loop);
  return true;
}

Flow Interpreter::execIRLoop(LoopFrameObj *loop, Node forNode, Node target) {
  Node call = loop->call;
  // Loops may also be written at the function level (raw TIR style, and
  // programs built for IR transforms); software pipelining needs the
  // kernel's shared memory.
  if (!kernel && loop->loopKind == LoopKind::Pipelined) {
    checkInKernel("T.Pipelined", call);
    return Flow::Normal;
  }
  // A tile loop run by plain Python code (a macro called outside any
  // prim_func) has no function to build into (found by tlc-fuzz-eval).
  if (!ir->currentFunc) {
    error(call, "this loop can only be used inside a @T.prim_func");
    return Flow::Normal;
  }
  bool inParallel = llvm::any_of(
      loops, [](const LoopCtx &l) { return l.kind == LoopKind::Parallel; });
  // TileLang rejects these loop nests with a ValueError when it compiles
  // the kernel (its nested-loop check is a lowering pass: defining the
  // prim_func succeeds, `tilelang.compile` raises): each iteration of a
  // T.Parallel runs on some thread, with no order among them. The trace
  // goes on after the loop, whose body is not traced (it would only add
  // errors that follow from this one).
  if (loop->loopKind == LoopKind::Pipelined && inParallel) {
    errorAtCompileAs("ValueError", call.range(),
                     "ValueError: T.Pipelined cannot be used inside "
                     "T.Parallel");
    return Flow::Normal;
  }
  bool writtenParallel = loop->loopKind == LoopKind::Parallel;
  tile::ParallelOp fuseInto;
  if (writtenParallel && inParallel) {
    // Only a T.Parallel that is the whole body of an enclosing T.Parallel
    // extends its iteration space; one after other statements, or inside a
    // serial loop of a T.Parallel iteration, would run the same elements'
    // work on several threads in no defined order.
    const LoopCtx &outer = loops.back();
    auto body = outer.node.children(Field::body);
    bool continuous = outer.writtenParallel &&
                      std::distance(body.begin(), body.end()) == 1 &&
                      *body.begin() == forNode;
    if (!continuous)
      errorAtCompileAs("ValueError", call.range(),
                       "ValueError: a T.Parallel nested in another "
                       "T.Parallel must be the whole body of the enclosing "
                       "T.Parallel (no other statement and no other loop "
                       "between them)");
    // TileLang makes the two one parallel loop nest (its ParallelOp takes
    // every T.Parallel directly nested in the first), so its dimensions
    // are the enclosing loop's followed by this one's: the enclosing
    // tile.parallel grows by them, and layout inference sees one loop over
    // the whole tile. Extents that depend on the enclosing loop's variables
    // (a triangular nest), or a loop layout given to either loop, keep the
    // inner loop serial in each outer iteration (the results are the same;
    // partitioning both over the block's threads would run only the
    // iterations where the two partitions met).
    auto enclosing = llvm::dyn_cast_or_null<tile::ParallelOp>(
        ir->b.getInsertionBlock()->getParentOp());
    auto extentOutside = [&](Value e) {
      if (e.isIntLike() || e.is(ValueKind::Sym))
        return true;
      return e.is(ValueKind::Expr) && e.as<ExprObj>()->value &&
             hoistAbove(enclosing, e.as<ExprObj>()->value);
    };
    if (continuous && enclosing && !enclosing.getLoopLayout() &&
        !loop->loopLayout && loop->boundIndex.isNone() &&
        llvm::all_of(loop->stops, extentOutside))
      fuseInto = enclosing;
    else
      loop->loopKind = LoopKind::Serial;
  }
  llvm::SmallVector<Node, 3> names;
  targetNames(target, names);
  mlir::Location l = ir->loc(call);
  auto nameOf = [&](unsigned i) {
    // T.Persistent's loop runs over waves; the names are the tile's.
    if (!loop->persistentDomain.empty())
      return llvm::StringRef("wave");
    return i < names.size() && names[i].kind() == NodeKind::Name
               ? names[i].identifier()
               : llvm::StringRef("i");
  };
  auto makeVar = [&](mlir::Value arg, unsigned i) {
    SymExpr sym = syms.freshSymbol(nameOf(i));
    ir->bindSymbol(sym, arg);
    arg.setLoc(ir->nameLoc(nameOf(i),
                           i < names.size() && loop->persistentDomain.empty()
                               ? names[i].range()
                               : call.range()));
    return wrapScalar({arg, lang::DType(lang::ScalarType::Int32), sym});
  };
  auto bindVars = [&](llvm::ArrayRef<Value> vars) -> bool {
    if (!target)
      return true;
    // A loop target binds its name afresh, as Python's `for` does: a
    // T.alloc_var of the same name is not written by the loop (other names
    // bound to that variable keep reading it).
    for (Node n : names)
      if (n.kind() == NodeKind::Name) {
        auto it = env->vars.find(n.identifier());
        if (it != env->vars.end() && it->second.is(ValueKind::Buffer) &&
            it->second.as<BufferObj>()->scope == lang::MemoryScope::LocalVar)
          env->vars.erase(it);
      }
    Value v = vars.size() == 1 ? vars[0] : heap.tuple(vars);
    return assign(target, v) == Flow::Normal;
  };
  auto runBody = [&](mlir::Block *block, LoopKind kind) -> Flow {
    mlir::OpBuilder::InsertionGuard guard(ir->b);
    ir->b.setInsertionPointToEnd(block);
    loops.push_back({kind, loop->numStages, forNode, writtenParallel});
    Flow f = execBody(forNode, Field::body);
    loops.pop_back();
    if (f == Flow::Break || f == Flow::Continue)
      return Flow::Normal;
    if (f == Flow::Return) {
      error(forNode, "'return' inside a TileLang loop is not supported");
      return Flow::Normal;
    }
    return f;
  };

  if (!loop->boundIndex.isNone()) {
    if (!bindVars({loop->boundIndex}))
      return Flow::Raise;
    return runBody(ir->b.getInsertionBlock(), LoopKind::Serial);
  }
  switch (loop->loopKind) {
  case LoopKind::Parallel: {
    if (fuseInto) {
      llvm::SmallVector<mlir::OpFoldResult, 4> extents =
          fuseInto.getMixedExtents();
      {
        mlir::OpBuilder::InsertionGuard guard(ir->b);
        ir->b.setInsertionPoint(fuseInto);
        for (Value e : loop->stops)
          extents.push_back(toFold(e, call));
      }
      llvm::SmallVector<mlir::Value, 4> dynamicExtents;
      llvm::SmallVector<int64_t, 4> staticExtents;
      mlir::dispatchIndexOpFoldResults(extents, dynamicExtents, staticExtents);
      fuseInto->setOperands(dynamicExtents);
      fuseInto.setStaticExtentsAttr(ir->b.getDenseI64ArrayAttr(staticExtents));
      mlir::Block &body = fuseInto.getBody().front();
      llvm::SmallVector<Value, 3> vars;
      for (unsigned i = 0; i < loop->stops.size(); ++i)
        vars.push_back(makeVar(body.addArgument(ir->b.getIndexType(), l), i));
      if (!bindVars(vars))
        return Flow::Raise;
      return runBody(&body, LoopKind::Parallel);
    }
    llvm::SmallVector<mlir::OpFoldResult, 3> extents;
    for (Value e : loop->stops)
      extents.push_back(toFold(e, call));
    auto op = tile::ParallelOp::create(ir->b, l, extents);
    // T.Parallel(loop_layout=...): layout inference keeps it (pinned), and
    // `tile.loop_layout_given` tells the GPU fragment assignment that the
    // program gave it (inference writes `loop_layout` on every loop).
    if (loop->loopLayout) {
      op.setLoopLayoutAttr(loop->loopLayout);
      op->setAttr("tile.loop_layout_given", ir->b.getUnitAttr());
    }
    mlir::Block &body = op.getBody().front();
    llvm::SmallVector<Value, 3> vars;
    for (unsigned i = 0; i < body.getNumArguments(); ++i)
      vars.push_back(makeVar(body.getArgument(i), i));
    if (!bindVars(vars))
      return Flow::Raise;
    Flow f = runBody(&body, LoopKind::Parallel);
    if (loop->loopLayout)
      annotateLoopLayoutWrites(op, loop->loopLayout,
                               ir->loc(loop->loopLayoutArg));
    return f;
  }
  case LoopKind::Pipelined: {
    mlir::Value lb = toIndex(loop->starts[0], call);
    mlir::Value ub = toIndex(loop->stops[0], call);
    if (!lb || !ub)
      return Flow::Normal;
    auto op = tile::PipelinedOp::create(ir->b, l, lb, ub,
                                        std::max<int64_t>(0, loop->numStages));
    auto listAttr = [&](Value v, llvm::StringRef attr) {
      if (!v.isSequence())
        return;
      llvm::SmallVector<int64_t, 4> ints;
      for (Value e : getElems(v))
        if (e.isIntLike())
          ints.push_back(e.getInt());
      op->setAttr(attr, ir->b.getDenseI64ArrayAttr(ints));
    };
    listAttr(loop->order, "order");
    listAttr(loop->stage, "stage");
    mlir::Block &body = op.getBody().front();
    Value var = makeVar(body.getArgument(0), 0);
    if (!bindVars({var}))
      return Flow::Raise;
    SymExpr trip = syms.sub(toSym(loop->stops[0]).isNull() &&
                                    loop->stops[0].is(ValueKind::Expr)
                                ? loop->stops[0].as<ExprObj>()->sym
                                : toSym(loop->stops[0]),
                            toSym(loop->starts[0]));
    addHint(target ? target.range() : call.range(),
            target ? target.text() : llvm::StringRef(), "pipeline", {trip},
            std::nullopt, std::nullopt,
            std::to_string(loop->numStages) + " stages");
    if (instance)
      out.hints.back().stages = loop->numStages;
    Flow f = runBody(&body, LoopKind::Pipelined);
    normalizePipelineSchedule(*this, op, *loop);
    return f;
  }
  default: {
    // Serial, unroll, vectorized; several dimensions (T.grid) nest.
    tile::LoopKind kind =
        loop->loopKind == LoopKind::Unroll       ? tile::LoopKind::Unroll
        : loop->loopKind == LoopKind::Vectorized ? tile::LoopKind::Vectorized
                                                 : tile::LoopKind::Serial;
    mlir::OpBuilder::InsertionGuard guard(ir->b);
    llvm::SmallVector<Value, 3> vars;
    mlir::Block *inner = nullptr;
    for (unsigned d = 0; d < loop->stops.size(); ++d) {
      mlir::Value lb = toIndex(loop->starts[d], call);
      mlir::Value ub = toIndex(loop->stops[d], call);
      mlir::Value st = toIndex(loop->steps[d], call);
      if (!lb || !ub || !st)
        return Flow::Normal;
      if (loop->steps[d].isIntLike() && loop->steps[d].getInt() == 0) {
        error(call, "loop step cannot be zero");
        return Flow::Normal;
      }
      auto op = tile::ForOp::create(ir->b, l, lb, ub, st, kind);
      if (loop->unrollFactor)
        op.setUnrollFactorAttr(ir->b.getI64IntegerAttr(*loop->unrollFactor));
      inner = &op.getBody().front();
      vars.push_back(makeVar(inner->getArgument(0), d));
      ir->b.setInsertionPointToEnd(inner);
    }
    if (!loop->persistentDomain.empty()) {
      // T.Persistent: wave w runs the tile at linear index w * wave_size +
      // index of the grouped domain [groups, D0, ..., D(n-2), group_size]
      // (TileLang's order), when that tile exists.
      llvm::ArrayRef<Value> domain = loop->persistentDomain;
      Value last = domain.back();
      Value group = loop->groupSize;
      llvm::SmallVector<Value, 4> grouped;
      grouped.push_back(intDiv(last, group, SymKind::CeilDiv, call));
      grouped.append(domain.begin(), domain.end() - 1);
      grouped.push_back(group);
      Value linear =
          binary(syntax::BinaryOp::Add,
                 binary(syntax::BinaryOp::Mult, vars[0], loop->waveSize, call),
                 loop->waveIndex, call);
      llvm::SmallVector<Value, 4> idx = unflatten(linear, grouped, call);
      Value lastCoord =
          binary(syntax::BinaryOp::Add,
                 binary(syntax::BinaryOp::Mult, idx.front(), group, call),
                 idx.back(), call);
      Value padded = Value::integer(1);
      for (Value d : grouped)
        padded = binary(syntax::BinaryOp::Mult, padded, d, call);
      // The guards TileLang needs: waves past the padded domain, and a
      // partial last group.
      auto provablyDivides = [](Value a, Value b) {
        return a.isIntLike() && b.isIntLike() && b.getInt() != 0 &&
               a.getInt() % b.getInt() == 0;
      };
      llvm::SmallVector<Value, 2> conds;
      if (!provablyDivides(padded, loop->waveSize))
        conds.push_back(compare(syntax::CmpOp::Lt, linear, padded, call));
      if (!provablyDivides(last, group))
        conds.push_back(compare(syntax::CmpOp::Lt, lastCoord, last, call));
      for (Value cond : conds) {
        Scalar inRange = toScalar(cond, call);
        if (!inRange)
          return Flow::Normal;
        auto guard = tile::IfOp::create(
            ir->b, l, ir->convert(inRange.value, ir->b.getI1Type(), l), false);
        ir->b.setInsertionPointToEnd(guard.thenBlock());
        inner = guard.thenBlock();
      }
      vars.assign(idx.begin() + 1, idx.end() - 1);
      vars.push_back(lastCoord);
    }
    if (!bindVars(vars))
      return Flow::Raise;
    return runBody(inner, loop->loopKind);
  }
  }
}
