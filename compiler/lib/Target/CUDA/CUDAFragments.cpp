//===- CUDAFragments.cpp - Fragment layouts of the CUDA emitter ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Turns every `local.fragment` buffer's layout into code: the layout's
// inverse (thread, register) -> coordinate is fitted as a map linear in
// the bits of the thread id and the register number (layout::BitLinear),
// so the emitted loops over registers unroll into constant register
// indices. The layouts are tile-assign-fragment-layouts' record
// (Dialect/Tile/Transforms/FragmentLayouts.h), or the same choice made
// here for a kernel without one; a layout that cannot be fitted is
// refused where it was written.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"
#include "tlc/Layout/RegisterMapKey.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

LogicalResult Emitter::checkTileShapes(KernelOp kernel) {
  WalkResult bad = kernel.walk([&](AllocOp alloc) {
    auto type = cast<BufferType>(alloc.getResult().getType());
    MemoryScope scope = type.getScope();
    if (scope != MemoryScope::Fragment && !isSharedScope(scope))
      return WalkResult::advance();
    // Every fragment is a static register array: a dynamic extent is no
    // size to plan a layout with.
    if (scope == MemoryScope::Fragment && !type.isStatic()) {
      alloc.emitError() << "fragments need static shapes on the " << lang.name
                        << " target (bind the sizes with -D or a call site)";
      return WalkResult::interrupt();
    }
    // No layout maps an empty tile: the linear and replicated maps the
    // planners start from do not exist for an extent of 0 (found by
    // tlc-fuzz-lsp, through the editor's fragment-exchange hints, which
    // print instances layout inference had refused for it).
    for (int64_t e : type.getShape())
      if (!ShapedType::isDynamic(e) && e <= 0) {
        alloc.emitError() << "buffer '" << bufferDisplayName(alloc.getResult())
                          << "' has an extent of " << e
                          << "; every extent of a tile must be positive";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(bad.wasInterrupted());
}

LogicalResult Emitter::assignFragmentLayouts(KernelOp kernel) {
  auto describe = [&](Value v, const layout::Fragment &f, Operation *blame,
                      int64_t homeThreads) -> LogicalResult {
    FailureOr<FragmentInfo> info =
        describeFragment(f, cast<BufferType>(v.getType()), blame, homeThreads);
    if (failed(info))
      return failure();
    fragments[v] = std::move(*info);
    return success();
  };
  // tile-assign-fragment-layouts' record; else (IR that did not go through
  // the pass, or a kernel it could not lay out, whose errors are reported
  // here) the same choice, made here.
  givenLoopLayouts.clear();
  if (hasFragmentLayouts(kernel)) {
    if (failed(readFragmentLayouts(kernel, fragmentRanges, blockThreads,
                                   describe)))
      return failure();
  } else {
    FragmentLayoutTarget target{lang.name, lang.gemmArch};
    if (failed(tile::assignFragmentLayouts(kernel, target, fragmentRanges,
                                           blockThreads, intervals, describe)))
      return failure();
  }
  // T.Parallel(loop_layout=F) over no fragment: F as the loop's layout,
  // for the threads of the loop's range.
  WalkResult given = kernel.walk([&](ParallelOp loop) {
    FailureOr<std::optional<ParallelPlan>> planned = getParallelPlan(loop);
    ParallelPlan plan = succeeded(planned) && *planned
                            ? std::move(**planned)
                            : chooseParallelPlan(loop);
    std::optional<layout::Fragment> f = givenLoopLayout(loop);
    if (plan.partition != ParallelPartition::Layout || !f)
      return WalkResult::advance();
    auto shape = BufferType::get(
        loop.getContext(),
        llvm::map_to_vector(f->getInputShape(),
                            [](int64_t e) { return Dim(e); }),
        Float32Type::get(loop.getContext()), MemoryScope::Fragment);
    FailureOr<FragmentInfo> info =
        describeFragment(*f, shape, loop, parallelLoopThreads(loop));
    if (failed(info))
      return WalkResult::interrupt();
    givenLoopLayouts[loop] = std::move(*info);
    return WalkResult::advance();
  });
  return failure(given.wasInterrupted());
}

FailureOr<FragmentInfo> Emitter::describeFragment(const layout::Fragment &f,
                                                  BufferType type,
                                                  Operation *blame,
                                                  int64_t homeThreads) {
  FragmentInfo info;
  info.shape.assign(type.getShape().begin(), type.getShape().end());
  info.numel = 1;
  for (int64_t e : info.shape)
    info.numel *= e;
  info.layout = f;
  info.regs = f.getRegsPerThread();
  info.threadExtent = f.getThreadExtent();
  if (info.threadExtent > homeThreads) {
    blame->emitError() << "fragment layout " << f.shortLabel() << " needs "
                       << info.threadExtent << " threads, "
                       << (homeThreads == blockThreads
                               ? "the kernel has "
                               : "the thread range using it has ")
                       << homeThreads;
    return failure();
  }
  std::shared_ptr<const FragmentTables> tables =
      FragmentTables::get(f, info.shape.size());
  if (!tables->error.empty()) {
    blame->emitError() << "fragment layout: " << tables->error;
    return failure();
  }
  unsigned rank = info.shape.size();
  int64_t regs = info.regs;
  const std::optional<BitLinear> &fit = tables->coords;
  if (!fit) {
    blame->emitError() << "the " << lang.name
                       << " target cannot index fragment layout "
                       << f.shortLabel()
                       << " (its thread/register map is not linear in the "
                          "bits of the thread id and register number)";
    return failure();
  }
  info.coords = *fit;
  if (tables->emptySlots) {
    // Which checks tell an empty slot from a full one (FragmentTables
    // fitted every empty slot outside the shape).
    llvm::SmallBitVector above(rank), below(rank);
    for (int64_t t = 0; t < info.threadExtent; ++t)
      for (int64_t r = 0; r < regs; ++r) {
        if (tables->holds(t, r) ||
            (tables->padMask &&
             ((r >> tables->padShift) & tables->padMask) >= tables->padLimit))
          continue;
        if (fit->isFlat()) {
          info.guardFlat = true;
          continue;
        }
        for (unsigned d = 0; d < rank; ++d) {
          int64_t c = fit->evaluate(d, {t, r});
          if (c >= info.shape[d])
            above.set(d);
          else if (c < 0)
            below.set(d);
        }
      }
    for (unsigned d = 0; d < rank; ++d) {
      if (above.test(d))
        info.guardAbove.push_back(d);
      if (below.test(d))
        info.guardBelow.push_back(d);
    }
  }
  info.tables = std::move(tables);
  info.repMask = info.coords.zeroMask(0);
  // Vector width: low register bits stepping the last dimension (of a
  // flat map: the flat index, inside rows a multiple of the width long)
  // by 1, 2, 4, ... with every other term a multiple of the width.
  int64_t vec = 1;
  bool flat = info.coords.isFlat();
  unsigned last = flat || !rank ? 0 : rank - 1;
  unsigned outs = flat ? 1 : rank;
  if (rank) {
    const auto &rbits = info.coords.coef[1];
    unsigned n = 0;
    while (n < rbits.size() && rbits[n][last] == (int64_t(1) << n) &&
           unsigned(llvm::count(rbits[n], 0)) == outs - 1)
      ++n;
    vec = int64_t(1) << n;
    auto aligned = [&](int64_t x) { return x % vec == 0; };
    while (vec > 1) {
      bool ok = aligned(info.coords.base[last]) && regs % vec == 0 &&
                (!flat || aligned(info.shape.back()));
      for (const auto &bits : info.coords.coef)
        for (auto [b, c] : llvm::enumerate(bits))
          if (&bits != &info.coords.coef[1] || (int64_t(1) << b) >= vec)
            ok &= aligned(c[last]);
      if (ok)
        break;
      vec /= 2;
    }
    int64_t bytes = getElementStorageBytes(type.getElementType());
    while (vec * bytes > 16)
      vec /= 2;
  }
  info.vec = vec;
  return info;
}

std::string Emitter::rowMajorIndex(ValueRange indices,
                                   ArrayRef<int64_t> shape) {
  std::string lin;
  for (auto [d, i] : llvm::enumerate(indices))
    lin = lin.empty() ? "(" + expr(i) + ")"
                      : "(" + lin + ") * " + std::to_string(shape[d]) + " + (" +
                            expr(i) + ")";
  return lin.empty() ? "0" : lin;
}

bool Emitter::isWholeInEveryThread(const FragmentInfo &f) const {
  return layout::isWholeInEveryThread(f.indexed(), numThreads);
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

SmallVector<std::string> Emitter::emitCoords(const FragmentInfo &info,
                                             StringRef reg, StringRef hint) {
  SmallVector<std::string> idx;
  for (unsigned d = 0; d < info.shape.size(); ++d) {
    std::string name = fresh((hint + Twine(d)).str());
    line("const " + indexType() + " " + name + " = " +
         info.coords.expr(d, {"tid", reg.str()}) + ";");
    idx.push_back(name);
  }
  // A slot of a guarded partition's last round that holds no element: the
  // rest of this register's iteration is skipped (its coordinates are
  // outside the shape; every caller is the body of a loop over registers).
  if (info.hasEmptySlots()) {
    SmallVector<std::string> out;
    if (info.guardFlat)
      out.push_back("(" + info.coords.linearExpr(0, {"tid", reg.str()}) +
                    ") >= " + std::to_string(info.numel));
    for (unsigned d : info.guardAbove)
      out.push_back(idx[d] + " >= " + std::to_string(info.shape[d]));
    for (unsigned d : info.guardBelow)
      out.push_back(idx[d] + " < 0");
    if (const layout::FragmentTables &t = *info.tables; t.padMask)
      out.push_back("((" + reg.str() + " >> " + std::to_string(t.padShift) +
                    ") & " + std::to_string(t.padMask) +
                    ") >= " + std::to_string(t.padLimit));
    if (!out.empty())
      line("if (" + llvm::join(out, " || ") + ") continue;  // empty slot");
  }
  return idx;
}

FailureOr<std::string>
Emitter::fragmentIndex(const FragmentInfo &loop, const FragmentInfo &buf,
                       ArrayRef<unsigned> dims, StringRef reg, Operation *at,
                       ArrayRef<int64_t> bound, bool quiet) {
  // The answer depends only on the two layouts and dims: look it up first.
  std::string key;
  if (loop.tables && buf.tables) {
    key = layout::registerMapKey(loop.tables.get(), buf.tables.get(), dims,
                                 bound);
    auto it = fragmentIndexMemo.find(key);
    if (it != fragmentIndexMemo.end())
      return it->second.identity ? reg.str()
                                 : it->second.fit.expr(0, {reg.str()});
  }
  auto remember = [&](bool identity, const BitLinear &fit) {
    if (key.empty())
      return;
    FragmentIndexMemo &m = fragmentIndexMemo[key];
    m.loop = loop.tables;
    m.buf = buf.tables;
    m.identity = identity;
    m.fit = fit;
  };
  layout::RegisterMap map =
      layout::mapRegisters(loop.indexed(), buf.indexed(), dims, bound);
  switch (map.kind) {
  case layout::RegisterMap::Kind::Same:
    remember(true, BitLinear());
    return reg.str();
  case layout::RegisterMap::Kind::Mapped:
    remember(false, map.fit);
    return map.fit.expr(0, {reg.str()});
  case layout::RegisterMap::Kind::OtherThread:
    if (!quiet)
      at->emitError() << "fragment layouts disagree: the element a "
                         "thread visits in the loop ("
                      << loop.layout.shortLabel()
                      << ") is held by another thread in "
                      << buf.layout.shortLabel();
    return failure();
  case layout::RegisterMap::Kind::NotLinear:
    break;
  }
  if (!quiet)
    at->emitError() << "fragment register mapping is not linear in the "
                       "register bits; not supported by the "
                    << lang.name << " target yet";
  return failure();
}
