//===- LayoutViews.cpp - Layout pictures and bank conflicts of a file -----===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/LayoutViews.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Driver/Driver.h"
#include "tlc/Layout/EnumerationLimit.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace tlc;
using namespace tlc::driver;

/// True when \p target is generated as CUDA (the default analysis target
/// is a CUDA one).
static bool isCudaTarget(llvm::StringRef target) {
  return target.empty() || target.starts_with("cuda:") ||
         target.starts_with("sm_");
}

/// True when \p target is generated as HIP (CDNA's LDS).
static bool isHipTarget(llvm::StringRef target) {
  return target.starts_with("hip:");
}

/// The language the \p target's code is printed in, for the notes.
static llvm::StringRef languageOf(llvm::StringRef target) {
  return isHipTarget(target) ? "HIP" : "CUDA";
}

/// The variable name an allocation was written to, or "".
static std::string allocName(mlir::Value root) {
  mlir::Location loc = root.getLoc();
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    return name.getName().str();
  return "";
}

/// The canonical dtype name of a buffer type (`float16`).
static std::string dtypeName(tile::BufferType type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  mlir::Type t = type.getElementType();
  if (t.isF16())
    return "float16";
  if (t.isBF16())
    return "bfloat16";
  if (t.isF32())
    return "float32";
  if (t.isF64())
    return "float64";
  if (t.isSignlessInteger() || t.isSignedInteger())
    return "int" + std::to_string(t.getIntOrFloatBitWidth());
  if (t.isUnsignedInteger())
    return "uint" + std::to_string(t.getIntOrFloatBitWidth());
  t.print(os);
  return s;
}

/// The instance label of the \p index-th top-level op, when the analysis
/// lists one instance per op.
static std::string instanceLabel(const eval::FileAnalysis &analysis,
                                 size_t index, size_t ops) {
  if (analysis.instances.size() == ops && index < ops)
    return analysis.instances[index].label;
  return "";
}

/// The slices of allocation \p root among the regions of \p kernel: each
/// region whose source is \p root or a region of it, its offsets added up
/// (static where every part is a constant).
static std::vector<LayoutSliceView> slicesOf(tile::KernelOp kernel,
                                             mlir::Value root,
                                             const syntax::SyntaxTree &tree) {
  std::vector<LayoutSliceView> slices;
  llvm::DenseMap<mlir::Value, std::vector<std::optional<int64_t>>> origin;
  origin[root] = std::vector<std::optional<int64_t>>(
      llvm::cast<tile::BufferType>(root.getType()).getRank(), 0);
  kernel.walk([&](tile::RegionOp region) {
    auto base = origin.find(region.getSource());
    if (base == origin.end())
      return;
    auto type = llvm::cast<tile::BufferType>(region.getType());
    std::vector<std::optional<int64_t>> begin = base->second;
    for (auto [d, ofr] : llvm::enumerate(region.getMixedOffsets())) {
      if (d >= begin.size())
        break;
      std::optional<int64_t> c = mlir::getConstantIntValue(ofr);
      begin[d] = begin[d] && c ? std::optional<int64_t>(*begin[d] + *c)
                               : std::nullopt;
    }
    origin[region.getResult()] = begin;
    if (!type.isStatic() || type.getRank() != begin.size())
      return;
    LayoutSliceView slice;
    slice.range = sourceRangeOf(tree, region.getLoc());
    if (slice.range.begin == slice.range.end)
      return;
    slice.begin = std::move(begin);
    slice.extent.assign(type.getShape().begin(), type.getShape().end());
    slices.push_back(std::move(slice));
  });
  return slices;
}

std::vector<LayoutView>
tlc::driver::collectLayoutViews(const eval::FileAnalysis &analysis,
                                const syntax::SyntaxTree &tree,
                                llvm::StringRef target) {
  std::vector<LayoutView> views;
  if (!analysis.module)
    return views;
  mlir::ModuleOp module = *analysis.module;
  // HIP is printed by the same printer: the same storage plan, with the
  // MFMA operand tiles in their LDS swizzles.
  std::optional<tile::SharedStorageTarget> storageTarget;
  if (isCudaTarget(target) || isHipTarget(target))
    storageTarget = tile::parseSharedStorageTarget(target);
  size_t ops = module.getBody()->getOperations().size();
  for (auto [index, top] : llvm::enumerate(module.getBody()->getOperations())) {
    std::string instance = instanceLabel(analysis, index, ops);
    top.walk([&](tile::KernelOp kernel) {
      llvm::DenseMap<mlir::Value, tile::SharedStorage> storage;
      if (storageTarget)
        storage = tile::planSharedStorage(kernel, *storageTarget);
      std::string kernelName;
      if (auto fn = kernel->getParentOfType<tile::FuncOp>())
        kernelName = fn.getSymName().str();
      kernel.walk([&](tile::AllocOp alloc) {
        mlir::Value root = alloc.getResult();
        auto type = llvm::cast<tile::BufferType>(root.getType());
        std::string name = allocName(root);
        if (name.empty() || !type.isStatic())
          return;
        // A tile with an extent of 0 or less is an error at its allocation
        // and has no layout to show (found by tlc-fuzz-lsp: the linear
        // layout of such a tile was built from an error and corrupted the
        // heap).
        if (llvm::any_of(type.getShape(), [](int64_t e) { return e <= 0; }))
          return;
        // Nor has one past the elements layouts enumerate (an error at its
        // kernel or allocation: far past shared memory and registers).
        if (layout::numElementsSaturated(type.getShape()) >
            layout::kMaxEnumeratedInputs)
          return;
        LayoutView v;
        if (auto f = llvm::dyn_cast_or_null<tile::FragmentAttr>(
                alloc.getLayoutAttr())) {
          v.fragment = f.getFragment();
        } else if (isSharedScope(type.getScope())) {
          if (storageTarget) {
            auto it = storage.find(root);
            const tile::SharedStorage *s =
                it == storage.end() ? nullptr : &it->second;
            v.shared = tile::sharedStorageLayout(root, s);
            v.sharedLabel = tile::sharedStorageLabel(root, s);
          } else if (auto l = llvm::dyn_cast_or_null<tile::LayoutAttr>(
                         alloc.getLayoutAttr()))
            v.shared = l.getLayout();
          else
            v.shared = layout::Layout::linear(type.getShape());
        } else {
          return;
        }
        v.dtype = dtypeName(type);
        v.elementBytes = tile::getElementStorageBytes(type.getElementType());
        v.kernel = kernelName;
        v.instance = instance;
        v.instanceIndex = index;
        v.name = name;
        v.range = sourceRangeOf(tree, alloc.getLoc());
        v.slices = slicesOf(kernel, root, tree);
        views.push_back(std::move(v));
      });
    });
  }
  return views;
}

llvm::Expected<layout::LayoutMap> LayoutView::buildMap() const {
  llvm::Expected<layout::LayoutMap> map =
      fragment ? layout::mapFragment(*fragment, name, dtype)
      : shared ? layout::mapShared(*shared, elementBytes, name, dtype)
               : llvm::Expected<layout::LayoutMap>(llvm::createStringError(
                     llvm::inconvertibleErrorCode(), "no layout"));
  if (map)
    map->instance = instance;
  if (map && shared && !sharedLabel.empty())
    map->label = sharedLabel;
  return map;
}

std::string tlc::driver::layoutFileName(const LayoutView &view) {
  std::string s = (view.kernel.empty() ? "kernel" : view.kernel) + "." +
                  std::to_string(view.instanceIndex) + "." + view.name + ".svg";
  for (char &c : s)
    if (!llvm::isAlnum(c) && c != '.' && c != '_' && c != '-')
      c = '_';
  return s;
}

/// The note of a bank conflict: the padding or swizzle that removes it.
static std::string conflictNote(const InstanceConflict &c, mlir::Value root,
                                const std::string &name,
                                llvm::StringRef target) {
  if (!c.area.empty()) {
    std::string note = "the " + languageOf(target).str() +
                       " target stages this store through shared memory in a "
                       "tile whose rows it pads by 16 bytes";
    if (c.padElems > 0)
      note += "; a padding of " + std::to_string(c.padElems) +
              " elements would be conflict-free (a T.copy of " +
              (root ? allocName(root) : std::string("the fragment")) +
              " into a shared tile of your own padded so, then to global "
              "memory, avoids it)";
    return note;
  }
  llvm::ArrayRef<int64_t> shape;
  if (root)
    if (auto type = llvm::dyn_cast<tile::BufferType>(root.getType()))
      shape = type.getShape();
  std::string note;
  if (c.padElems > 0 && shape.size() >= 2) {
    std::string padded, slice;
    for (auto [i, e] : llvm::enumerate(shape)) {
      bool last = i + 1 == shape.size();
      padded += (i ? ", " : "") + std::to_string(last ? e + c.padElems : e);
      slice +=
          std::string(i ? ", " : "") + (last ? "0:" + std::to_string(e) : ":");
    }
    note = "padding each row of " + name + " by " + std::to_string(c.padElems) +
           " element" + (c.padElems == 1 ? "" : "s") + " (allocate (" + padded +
           ") and use " + name + "[" + slice +
           "]) makes this access conflict-free";
  } else if (c.swizzleFixes) {
    note = "XOR-swizzling the 16-byte chunks of " + name +
           "'s rows would make this access conflict-free (the " +
           languageOf(target).str() +
           " target swizzles 16- and 8-bit tiles that T.gemm reads, and those "
           "only T.copy uses that a fragment is copied into)";
  } else {
    note = "no row padding of up to 32 bytes removes it: the conflict comes "
           "from the access pattern itself";
  }
  if (c.padElems > 0 && c.swizzleFixes)
    note += "; so would XOR-swizzling its 16-byte chunks";
  return note;
}

std::vector<InstanceConflict>
tlc::driver::findInstanceConflicts(llvm::ArrayRef<mlir::Operation *> ops,
                                   llvm::StringRef target) {
  std::vector<InstanceConflict> result;
  bool hip = isHipTarget(target);
  if (ops.empty() || (!isCudaTarget(target) && !hip))
    return result;
  // `a` targets issue T.gemm as wgmma, which reads its shared operands
  // through descriptors, not ldmatrix; on sm_90a the analysis knows which
  // gemms take it (the others stay on mma.sync).
  bool mmaSync = !target.ends_with("a");
  bool sm90a = target.ends_with("sm_90a");
  llvm::StringRef arch = target;
  arch.consume_front("cuda:");
  llvm::DenseMap<mlir::Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(ops))
    position[op] = i;
  for (mlir::Operation *op : ops) {
    auto kernel = llvm::dyn_cast<tile::KernelOp>(op);
    if (!kernel)
      continue;
    for (const tile::BankConflict &c :
         hip ? tile::findLdsBankConflicts(kernel)
             : tile::findBankConflicts(kernel, mmaSync, sm90a, arch)) {
      InstanceConflict ic;
      auto at = position.find(c.op);
      if (at == position.end())
        continue;
      ic.op = at->second;
      if (c.root)
        if (mlir::Operation *def = c.root.getDefiningOp()) {
          auto r = position.find(def);
          if (r != position.end())
            ic.root = r->second;
        }
      ic.area = c.area;
      ic.instruction = c.instruction;
      ic.degree = c.degree;
      ic.padElems = c.padElems;
      ic.swizzleFixes = c.swizzleFixes;
      result.push_back(std::move(ic));
    }
  }
  return result;
}

void tlc::driver::reportInstanceConflicts(
    eval::FileAnalysis &analysis, const syntax::SyntaxTree &tree,
    llvm::ArrayRef<mlir::Operation *> ops,
    llvm::ArrayRef<InstanceConflict> conflicts, llvm::StringRef target,
    const std::string &instance,
    std::set<std::pair<uint32_t, std::string>> &seen) {
  for (const InstanceConflict &c : conflicts) {
    if (c.op >= ops.size() || (c.root >= 0 && size_t(c.root) >= ops.size()))
      continue;
    mlir::Operation *op = ops[c.op];
    mlir::Value root = c.root >= 0 && ops[c.root]->getNumResults() == 1
                           ? ops[c.root]->getResult(0)
                           : mlir::Value();
    std::string kernelName;
    if (auto fn = op->getParentOfType<tile::FuncOp>())
      kernelName = fn.getSymName().str();
    std::string name = root ? allocName(root) : std::string();
    if (!c.area.empty())
      name = c.area + (name.empty() ? "" : " of " + name);
    else if (name.empty())
      name = "a shared buffer";
    Diagnostic d;
    d.severity = Severity::Remark;
    d.range = sourceRangeOf(tree, op->getLoc());
    d.message = std::to_string(c.degree) + "-way bank conflict on " + name +
                " (" + c.instruction + ")";
    if (!seen.insert({d.range.begin, d.message}).second)
      continue;
    mlir::Location at = root ? root.getLoc() : op->getLoc();
    d.notes.push_back({sourceRangeOf(tree, at), conflictNote(c, root, name, target)});
    analysis.diagnostics.push_back(d);
    eval::Hint h;
    h.range = d.range;
    h.kernel = kernelName;
    h.instance = instance;
    h.name = name;
    h.kind = "bank-conflict";
    h.detail = d.message;
    analysis.hints.push_back(std::move(h));
  }
}
