//===- Exchanges.cpp - Fragment exchanges of the generated code ----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The fragment exchanges of an instance, as its GPU lowering decided them:
// tile-plan-fragment-exchanges' plan (the fragments each T.Parallel and
// fragment copy exchanges, FragmentExchangePlan.h), the scalar reads and
// T.cumsum the scratch-area measurement marks as publishing
// (`tile.exchange_publishes`) and tile-plan-scratch-areas' offset of the
// area. The printer, which prints that plan, records each exchange tile's
// accesses (for the bank conflicts) with its statement and offset; every
// tile is declared with one line,
//
//   float *exchanged = reinterpret_cast<float *>(smem + 8192);  // C_local, row-major
//
// whose source-map entry is the statement being printed (the hint's range).
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/Exchanges.h"
#include "tlc/Driver/LayoutViews.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/FragmentExchangePlan.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Layout/BankConflicts.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"
#include "tlc/Target/CUDA/CUDATarget.h"
#include "tlc/Target/CUDA/GPULanguage.h"
#include "tlc/Target/CUDA/PrinterFragmentLayouts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <optional>
#include <tuple>

using namespace tlc;
using namespace tlc::driver;

namespace {
/// One exchange tile declared in the printed code.
struct Declared {
  unsigned generatedLine;
  std::string tile, name;
  int64_t offset;
};
} // namespace

/// The exchange tiles declared in \p source (`T *TILE =
/// reinterpret_cast<T *>(smem + OFFSET);  // NAME, row-major`).
static std::vector<Declared> declaredTiles(llvm::StringRef source) {
  std::vector<Declared> out;
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  for (auto [i, raw] : llvm::enumerate(lines)) {
    llvm::StringRef line = raw.trim();
    if (!line.ends_with(", row-major") || !line.contains("(smem + "))
      continue;
    // `T *TILE = ...`
    size_t star = line.find(" *"), eq = line.find(" = ");
    if (star == llvm::StringRef::npos || eq == llvm::StringRef::npos ||
        eq < star)
      continue;
    llvm::StringRef tile = line.slice(star + 2, eq).trim();
    llvm::StringRef rest = line.drop_front(line.find("(smem + ") + 8);
    int64_t offset = 0;
    if (rest.consumeInteger(10, offset))
      continue;
    size_t comment = line.rfind("// ");
    if (comment == llvm::StringRef::npos)
      continue;
    llvm::StringRef name = line.drop_front(comment + 3);
    name.consume_back(", row-major");
    out.push_back({unsigned(i + 1), tile.str(), name.trim().str(), offset});
  }
  return out;
}

namespace {
/// One exchange the lowering decided: the statement, the fragment, the
/// tile's byte offset, and whether the statement writes the fragment (its
/// registers are loaded back from the tile after a loop).
struct Decided {
  mlir::Operation *op;
  mlir::Value root;
  int64_t offset;
  bool loadBack;
};
} // namespace

/// The buffer \p v views (through `tile.region`s).
static mlir::Value rootOf(mlir::Value v) {
  while (auto region = v.getDefiningOp<tile::RegionOp>())
    v = region.getSource();
  return v;
}

/// The exchanges the lowering of \p func decided, in program order: each
/// loop's fragments in the order of their tiles (16-byte aligned one after
/// the other from the kernel's `tile.exchange_offset`), exchanged copies,
/// published scalar reads and T.cumsum (each at the area's start).
static std::vector<Decided> decidedExchanges(tile::FuncOp func) {
  std::vector<Decided> out;
  func.walk([&](tile::KernelOp kernel) {
    auto base =
        kernel->getAttrOfType<mlir::IntegerAttr>("tile.exchange_offset");
    if (!base)
      return;
    kernel.walk([&](mlir::Operation *op) {
      if (auto loop = llvm::dyn_cast<tile::ParallelOp>(op)) {
        mlir::FailureOr<llvm::SmallVector<mlir::Value, 1>> roots =
            tile::getFragmentExchanges(loop);
        if (mlir::failed(roots))
          return;
        int64_t offset = base.getInt();
        for (mlir::Value root : *roots) {
          bool writes = loop.getBody()
                            .walk([&](tile::StoreOp store) {
                              return rootOf(store.getBuffer()) == root
                                         ? mlir::WalkResult::interrupt()
                                         : mlir::WalkResult::advance();
                            })
                            .wasInterrupted();
          out.push_back({op, root, offset, writes});
          auto type = llvm::cast<tile::BufferType>(root.getType());
          int64_t bytes = tile::getElementStorageBytes(type.getElementType());
          for (int64_t e : type.getShape())
            bytes *= e;
          offset += (bytes + 15) / 16 * 16;
        }
        return;
      }
      if (auto copy = llvm::dyn_cast<tile::CopyOp>(op)) {
        mlir::FailureOr<bool> exchanged = tile::isExchangedCopy(copy);
        if (mlir::succeeded(exchanged) && *exchanged)
          out.push_back({op, copy.getSrc(), base.getInt(), false});
        return;
      }
      if (!op->hasAttr("tile.exchange_publishes"))
        return;
      if (auto load = llvm::dyn_cast<tile::LoadOp>(op))
        out.push_back({op, rootOf(load.getBuffer()), base.getInt(), false});
      else if (auto scan = llvm::dyn_cast<tile::CumSumOp>(op))
        out.push_back({op, rootOf(scan.getSrc()), base.getInt(), false});
    });
  });
  return out;
}

/// True when \p v is a fragment allocation.
static bool isFragment(mlir::Value v) {
  auto type = llvm::dyn_cast<tile::BufferType>(v.getType());
  return type && type.getScope() == tile::MemoryScope::Fragment;
}

/// True when a statement of \p ops may make the printer exchange a
/// fragment (checked before printing, which costs a lowering and a print
/// per instance): a copy between fragments, T.cumsum of a fragment, a
/// fragment read outside a T.Parallel, a T.Parallel access of a fragment at
/// indices other than its variables in order (transposed, composed), or a
/// T.Parallel over two fragments a T.gemm lays out.
static bool mayExchange(llvm::ArrayRef<mlir::Operation *> ops) {
  llvm::DenseSet<mlir::Value> gemmFragments;
  for (mlir::Operation *op : ops)
    if (auto gemm = llvm::dyn_cast<tile::GemmOp>(op))
      for (mlir::Value v : {gemm.getA(), gemm.getB(), gemm.getC()})
        if (isFragment(v))
          gemmFragments.insert(v);
  llvm::DenseMap<mlir::Operation *, llvm::SmallPtrSet<mlir::Value, 2>>
      gemmFragmentsOf;
  for (mlir::Operation *op : ops) {
    if (auto copy = llvm::dyn_cast<tile::CopyOp>(op))
      if (isFragment(copy.getSrc()) && isFragment(copy.getDst()))
        return true;
    if (llvm::isa<tile::CumSumOp>(op) &&
        llvm::any_of(op->getOperands(), isFragment))
      return true;
    mlir::Value buffer;
    mlir::ValueRange indices;
    if (auto load = llvm::dyn_cast<tile::LoadOp>(op))
      buffer = load.getBuffer(), indices = load.getIndices();
    else if (auto store = llvm::dyn_cast<tile::StoreOp>(op))
      buffer = store.getBuffer(), indices = store.getIndices();
    if (!buffer || !isFragment(buffer))
      continue;
    auto par = op->getParentOfType<tile::ParallelOp>();
    if (!par) {
      if (llvm::isa<tile::LoadOp>(op))
        return true;
      continue;
    }
    if (!llvm::isa_and_nonnull<tile::AllocOp>(buffer.getDefiningOp()))
      return true;
    if (gemmFragments.contains(buffer)) {
      auto &seen = gemmFragmentsOf[par];
      seen.insert(buffer);
      if (seen.size() > 1)
        return true;
    }
    int last = -1;
    for (mlir::Value i : indices) {
      if (mlir::matchPattern(i, mlir::m_Constant()))
        continue;
      auto arg = llvm::dyn_cast<mlir::BlockArgument>(i);
      if (!arg || arg.getOwner() != &par.getBody().front() ||
          int(arg.getArgNumber()) <= last)
        return true;
      last = arg.getArgNumber();
    }
  }
  return false;
}

/// The worst bank-conflict degree of the instructions \p warps of exchange
/// tile \p r at byte \p offset (layout::bankConflictDegree: NVIDIA's
/// shared memory, or with \p lds CDNA's LDS phases), 0 when there are none.
/// \p worstLanes gets the elements of the first instruction of that degree.
static int64_t exchangeDegree(
    const std::vector<std::array<int64_t, 32>> &warps,
    const target::CudaExchangeAccesses &r, int64_t offset, bool lds,
    bool store, std::array<int64_t, 32> &worstLanes) {
  int64_t worst = 0;
  for (const std::array<int64_t, 32> &lanes : warps) {
    layout::WarpAccess a;
    a.bytes = r.elementBytes;
    a.lds = lds;
    a.store = store;
    for (auto [l, e] : llvm::enumerate(lanes))
      if (e >= 0)
        a.address[l] = offset + e * r.elementBytes;
    int64_t degree = layout::bankConflictDegree(a);
    if (degree > worst) {
      worst = degree;
      worstLanes = lanes;
    }
  }
  return worst;
}

/// Adds to \p labels the fragments of the lowered \p func whose layout in
/// the code printed for \p gpuTarget differs from the one inference
/// attached to their allocation among \p ops (matched by name and source
/// location: lowering keeps both).
static void printerFragmentLabels(tile::FuncOp func,
                                  llvm::ArrayRef<mlir::Operation *> ops,
                                  llvm::StringRef gpuTarget, bool hip,
                                  std::vector<PrinterFragmentLabel> &labels) {
  using Key = std::tuple<std::string, unsigned, unsigned>;
  auto keyOf = [](mlir::Location loc) -> std::optional<Key> {
    auto name = llvm::dyn_cast<mlir::NameLoc>(loc);
    mlir::FileLineColRange at = tile::getSourceLocation(loc);
    if (!name || !at)
      return std::nullopt;
    return Key{name.getName().str(), at.getStartLine(), at.getStartColumn()};
  };
  std::map<Key, unsigned> original;
  for (auto [i, op] : llvm::enumerate(ops))
    if (llvm::isa<tile::AllocOp>(op))
      if (std::optional<Key> k = keyOf(op->getLoc()))
        original.try_emplace(*k, i);
  func.walk([&](tile::KernelOp kernel) {
    auto printed = target::getPrinterFragmentLayouts(kernel, gpuTarget);
    if (!printed)
      return;
    for (const auto &entry : *printed) {
      tile::AllocOp alloc = entry.first;
      const layout::Fragment &fragment = entry.second;
      std::optional<Key> k = keyOf(alloc.getLoc());
      auto it = k ? original.find(*k) : original.end();
      if (it == original.end())
        continue;
      auto inferred = llvm::dyn_cast_or_null<tile::FragmentAttr>(
          llvm::cast<tile::AllocOp>(ops[it->second]).getLayoutAttr());
      if (inferred && inferred.getFragment().isEquivalentTo(fragment))
        continue;
      std::string detail = fragment.longForm();
      if (!detail.empty() && detail.back() != '\n')
        detail += '\n';
      detail +=
          std::string("held so by the ") + (hip ? "HIP" : "CUDA") + " target";
      if (inferred)
        detail += "; layout inference chose " +
                  inferred.getFragment().shortLabel() +
                  ", which the generated code does not follow";
      labels.push_back({it->second, fragment.shortLabel(), detail});
    }
  });
}

std::vector<InstanceExchange> tlc::driver::findInstanceExchanges(
    mlir::Operation *top, llvm::ArrayRef<mlir::Operation *> ops,
    llvm::StringRef target, std::vector<PrinterFragmentLabel> *fragmentLabels) {
  std::vector<InstanceExchange> out;
  llvm::StringRef arch = target;
  arch.consume_front("cuda:");
  bool hip = arch.consume_front("hip:");
  if ((!hip && !arch.starts_with("sm_")) || !llvm::isa<tile::FuncOp>(top))
    return out;
  std::vector<std::string> archs;
  if (hip) {
    // The CDNA architectures (HIPTarget's list; the oldest decides what
    // the printer may use).
    llvm::SmallVector<llvm::StringRef> parts;
    arch.split(parts, ',');
    for (llvm::StringRef p : parts) {
      p = p.trim();
      if (p != "gfx90a" && p != "gfx942" && p != "gfx950")
        return out;
      archs.push_back(p.str());
    }
  } else {
    llvm::Expected<std::vector<std::string>> cuda =
        target::parseCudaArchitectures(arch);
    if (!cuda) {
      llvm::consumeError(cuda.takeError());
      return out;
    }
    archs = std::move(*cuda);
  }
  if (archs.empty())
    return out;
  // Only instances with static fragments can exchange; the printer
  // enumerates each fragment, so an instance past layout inference's
  // per-kernel budget (4,194,304 elements) is not printed here either.
  int64_t fragmentElements = 0;
  for (mlir::Operation *op : ops) {
    auto alloc = llvm::dyn_cast<tile::AllocOp>(op);
    if (!alloc)
      continue;
    tile::BufferType type = tile::getBufferType(alloc.getResult());
    if (!type || type.getScope() != tile::MemoryScope::Fragment)
      continue;
    if (!type.isStatic())
      return out;
    int64_t n = 1;
    for (int64_t e : type.getShape())
      n = e <= 0 || n > (int64_t(1) << 22) / e ? (int64_t(1) << 22) + 1 : n * e;
    fragmentElements += n;
    if (fragmentElements > (int64_t(1) << 22))
      return out;
  }
  if (fragmentElements == 0 || !mayExchange(ops))
    return out;
  // Statements by their source range, first in walk order.
  using Key = std::tuple<std::string, unsigned, unsigned, unsigned, unsigned>;
  std::map<Key, unsigned> byRange;
  llvm::StringMap<unsigned> allocByName;
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (auto alloc = llvm::dyn_cast<tile::AllocOp>(op)) {
      if (auto name = llvm::dyn_cast<mlir::NameLoc>(alloc.getLoc()))
        allocByName.try_emplace(name.getName().getValue(), i);
      continue;
    }
    if (mlir::FileLineColRange r = tile::getSourceLocation(op->getLoc()))
      byRange.try_emplace(Key{r.getFilename().str(), r.getStartLine(),
                              r.getStartColumn(), r.getEndLine(),
                              r.getEndColumn()},
                          i);
  }
  mlir::MLIRContext *context = top->getContext();
  mlir::OwningOpRef<mlir::ModuleOp> copy =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(context));
  copy->getBody()->push_back(top->clone());
  mlir::ScopedDiagnosticHandler drop(
      context, [](mlir::Diagnostic &) { return mlir::success(); });
  std::string gpuTarget = (hip ? "hip:" : "cuda:") + llvm::join(archs, ",");
  tile::setGpuTarget(*copy, gpuTarget);
  target::registerScratchAreaMeasure();
  if (mlir::failed(tile::runGpuLowering(*copy)))
    return out;
  auto func = llvm::dyn_cast<tile::FuncOp>(copy->getBody()->front());
  if (!func || tile::hasLoweringFailed(func))
    return out;
  if (fragmentLabels)
    printerFragmentLabels(func, ops, gpuTarget, hip, *fragmentLabels);
  std::vector<Decided> decided = decidedExchanges(func);
  if (decided.empty())
    return out;
  target::CudaEmitOptions options;
  options.locationComments = false;
  options.recordExchanges = true;
  if (hip) {
    options.language = &target::GPULanguage::hip();
    // "gfx90a" < "gfx942" < "gfx950": the oldest sorts first.
    options.amdArch = *llvm::min_element(archs);
  } else if (unsigned cc = target::getOldestComputeCapability(archs)) {
    options.minComputeCapability = cc;
  }
  mlir::FailureOr<target::CudaKernel> cu = target::emitCudaKernel(func, options);
  if (mlir::failed(cu))
    return out;
  // Each decided exchange with the tile the code declares for it (the same
  // statement and offset): its statement's source range, the fragment's
  // name in the code, the accesses' bank conflicts.
  std::vector<Declared> declared = declaredTiles(cu->source);
  for (const Decided &dec : decided) {
    const target::CudaExchangeAccesses *r = nullptr;
    for (const target::CudaExchangeAccesses &rec : cu->exchanges)
      if (rec.op == dec.op && rec.offset == dec.offset) {
        r = &rec;
        break;
      }
    const Declared *d = nullptr;
    for (const Declared &decl : declared)
      if (r && decl.tile == r->tile)
        d = &decl;
    if (!r || !d)
      continue;
    auto entry = llvm::partition_point(
        cu->sourceMap, [&](const artifact::SourceMapEntry &e) {
          return e.generatedLine < d->generatedLine;
        });
    if (entry == cu->sourceMap.end() ||
        entry->generatedLine != d->generatedLine ||
        entry->fileIndex >= cu->files.size())
      continue;
    auto it = byRange.find(Key{cu->files[entry->fileIndex], entry->line,
                               entry->column, entry->endLine,
                               entry->endColumn});
    if (it == byRange.end())
      continue;
    InstanceExchange x;
    x.op = it->second;
    auto root = allocByName.find(r->fragment);
    x.root = root == allocByName.end() ? -1 : int(root->second);
    x.name = r->fragment;
    x.offset = dec.offset;
    x.loadBack = dec.loadBack;
    x.lds = hip;
    if (r->complete) {
      x.elementBytes = r->elementBytes;
      x.storeDegree =
          exchangeDegree(r->stores, *r, dec.offset, hip, true, x.storeLanes);
      x.loadDegree =
          exchangeDegree(r->loads, *r, dec.offset, hip, false, x.loadLanes);
    }
    out.push_back(std::move(x));
  }
  return out;
}

/// What the statement \p op does with the exchanged fragment, for the
/// message.
static std::string whyExchanged(mlir::Operation *op, const std::string &name,
                                bool loadBack) {
  if (llvm::isa<tile::ParallelOp>(op))
    return "this loop " +
           std::string(loadBack ? "writes" : "reads") + " " + name +
           " at elements other threads hold: every thread stores its "
           "registers into a row-major shared tile, the loop " +
           (loadBack ? "works on the tile, and the registers are loaded back "
                       "after it"
                     : "reads the tile");
  if (llvm::isa<tile::CopyOp>(op))
    return "the two fragments are laid out differently: " + name +
           " is stored into a row-major shared tile and the destination's "
           "registers are loaded from it";
  if (llvm::isa<tile::LoadOp>(op))
    return "not every thread holds the element read here: " + name +
           " is stored into a row-major shared tile and the element read "
           "from it";
  return name + " is stored into a row-major shared tile and worked on "
                "there";
}

void tlc::driver::reportInstanceExchanges(
    eval::FileAnalysis &analysis, const syntax::SyntaxTree &tree,
    llvm::ArrayRef<mlir::Operation *> ops,
    llvm::ArrayRef<InstanceExchange> exchanges, const std::string &instance,
    std::set<std::pair<uint32_t, std::string>> &seen) {
  for (const InstanceExchange &x : exchanges) {
    if (x.op >= ops.size() || (x.root >= 0 && size_t(x.root) >= ops.size()))
      continue;
    mlir::Operation *op = ops[x.op];
    int64_t bytes = 0;
    std::vector<int64_t> shape;
    if (x.root >= 0)
      if (auto alloc = llvm::dyn_cast<tile::AllocOp>(ops[x.root])) {
        tile::BufferType type = tile::getBufferType(alloc.getResult());
        if (type && type.isStatic()) {
          int64_t n = 1;
          shape.assign(type.getShape().begin(), type.getShape().end());
          for (int64_t e : type.getShape())
            n *= e;
          unsigned bits = type.getElementType().getIntOrFloatBitWidth();
          bytes = n * std::max(8u, bits) / 8;
        }
      }
    std::string kernelName;
    if (auto fn = op->getParentOfType<tile::FuncOp>())
      kernelName = fn.getSymName().str();
    Diagnostic d;
    d.severity = Severity::Remark;
    d.range = sourceRangeOf(tree, op->getLoc());
    d.message = x.name + (x.lds ? " goes through LDS" : " goes through shared memory") +
                " here (fragment exchange";
    if (bytes)
      d.message += ", " + std::to_string(bytes) + " bytes";
    d.message += " at byte " + std::to_string(x.offset);
    auto degree = [](int64_t n) {
      return n == 1 ? std::string("conflict-free")
                    : std::to_string(n) + "-way bank conflict";
    };
    std::string phases;
    if (x.storeDegree)
      phases += "stores " + degree(x.storeDegree);
    if (x.loadDegree)
      phases += (phases.empty() ? "" : ", ") + std::string("loads ") +
                degree(x.loadDegree);
    if (!phases.empty())
      d.message += "; " + phases;
    d.message += ")";
    if (!seen.insert({d.range.begin, d.message}).second)
      continue;
    d.notes.push_back({x.root >= 0 ? sourceRangeOf(tree, ops[x.root]->getLoc())
                                   : d.range,
                       whyExchanged(op, x.name, x.loadBack) +
                           ", with block barriers between (" +
                           (x.lds ? "HIP" : "CUDA") + " code)"});
    analysis.diagnostics.push_back(d);
    eval::Hint h;
    h.range = d.range;
    h.kernel = kernelName;
    h.instance = instance;
    h.name = x.name;
    h.kind = "fragment-exchange";
    h.detail = d.message;
    // The tile (the fragment's shape, row-major) and the lanes of its worst
    // store and load instructions, for the editor's picture.
    for (int64_t e : shape) {
      h.shape.push_back(std::to_string(e));
      h.shapeIsInt.push_back(true);
    }
    if (x.elementBytes && (x.storeDegree || x.loadDegree)) {
      auto lanes = [](const std::array<int64_t, 32> &l) {
        std::string s;
        for (int64_t e : l)
          s += " " + std::to_string(e);
        return s;
      };
      h.layoutDetail = "exchange tile at byte " + std::to_string(x.offset) +
                       ", " + std::to_string(x.elementBytes) +
                       "-byte elements, row-major\nworst store lanes:" +
                       lanes(x.storeLanes) +
                       "\nworst load lanes:" + lanes(x.loadLanes) + "\n";
    }
    analysis.hints.push_back(std::move(h));
  }
}
