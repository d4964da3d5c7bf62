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

#include "llvm/ADT/BitVector.h"
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
  if (hasFragmentLayouts(kernel))
    return readFragmentLayouts(kernel, fragmentRanges, blockThreads, describe);
  FragmentLayoutTarget target{lang.name, lang.gemmArch};
  return tile::assignFragmentLayouts(kernel, target, fragmentRanges,
                                     blockThreads, intervals, describe);
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
  if (f.layout.getReplicate() < numThreads || f.regs != f.numel)
    return false;
  SmallVector<int64_t> coord(f.shape.size());
  for (int64_t r = 0; r < f.numel; ++r) {
    int64_t rest = r;
    for (int d = int(f.shape.size()) - 1; d >= 0; --d) {
      coord[d] = rest % f.shape[d];
      rest /= f.shape[d];
    }
    llvm::BitVector held(numThreads);
    for (int64_t rep = 0; rep < f.layout.getReplicate(); ++rep) {
      std::optional<layout::FragmentSlot> s = f.layout.apply(coord, rep);
      if (!s || s->index != r)
        return false;
      if (s->thread < numThreads)
        held.set(s->thread);
    }
    if (!held.all())
      return false;
  }
  return true;
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
  return idx;
}

FailureOr<std::string>
Emitter::fragmentIndex(const FragmentInfo &loop, const FragmentInfo &buf,
                       ArrayRef<unsigned> dims, StringRef reg, Operation *at,
                       ArrayRef<int64_t> bound, bool quiet) {
  // The answer depends only on the two layouts and dims: look it up first.
  std::string key;
  if (loop.tables && buf.tables) {
    llvm::raw_string_ostream os(key);
    os << static_cast<const void *>(loop.tables.get()) << '/'
       << static_cast<const void *>(buf.tables.get());
    for (unsigned d : dims)
      os << ',' << d;
    if (!bound.empty())
      os << "/box";
    for (int64_t e : bound)
      os << ',' << e;
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
  bool identity = dims.size() == loop.shape.size();
  for (auto [i, d] : llvm::enumerate(dims))
    identity &= d == i;
  if (identity && ((loop.tables && loop.tables == buf.tables) ||
                   buf.layout.isEquivalentTo(loop.layout))) {
    remember(true, BitLinear());
    return reg.str();
  }
  // The fitted outputs of slot (t, r) of the loop are base + T[t] + R[r]:
  // its coordinate, or of a flat map its flat index.
  unsigned rank = loop.shape.size();
  unsigned outs = loop.coords.isFlat() ? 1 : rank;
  int64_t tBits = loop.coords.coef.empty() ? 0 : loop.coords.coef[0].size();
  int64_t rBits = loop.coords.coef.size() < 2 ? 0 : loop.coords.coef[1].size();
  std::vector<int64_t> byThread(loop.threadExtent * outs, 0);
  std::vector<int64_t> byReg(loop.regs * outs, 0);
  for (int64_t t = 0; t < loop.threadExtent; ++t)
    for (unsigned d = 0; d < outs; ++d)
      for (int64_t b = 0; b < tBits; ++b)
        if ((t >> b) & 1)
          byThread[t * outs + d] += loop.coords.coef[0][b][d];
  for (int64_t r = 0; r < loop.regs; ++r)
    for (unsigned d = 0; d < outs; ++d) {
      int64_t v = loop.coords.base[d];
      for (int64_t b = 0; b < rBits; ++b)
        if ((r >> b) & 1)
          v += loop.coords.coef[1][b][d];
      byReg[r * outs + d] = v;
    }
  auto coordAt = [&](int64_t t, int64_t r, unsigned d) {
    if (loop.coords.isFlat())
      return loop.coords.unflatten(d, byThread[t] + byReg[r]);
    return byThread[t * outs + d] + byReg[r * outs + d];
  };
  std::vector<int64_t> perReg(loop.regs, -1);
  SmallVector<int64_t> bc(dims.size());
  auto registerOf = [&](int64_t t, int64_t r) -> int64_t {
    for (auto [k, d] : llvm::enumerate(dims))
      bc[k] = d == kUnitDim ? 0 : coordAt(t, r, d);
    int64_t found = -1;
    if (buf.tables) {
      found = buf.tables->registerAt(bc, t);
    } else {
      for (int64_t rep = 0; rep < buf.layout.getReplicate() && found < 0;
           ++rep) {
        std::optional<layout::FragmentSlot> s = buf.layout.apply(bc, rep);
        if (s && s->thread == t)
          found = s->index;
      }
    }
    return found;
  };
  auto inBox = [&](int64_t t, int64_t r) {
    bool in = true;
    for (auto [d, e] : llvm::enumerate(bound))
      in &= coordAt(t, r, d) < e;
    return in;
  };
  for (int64_t t = 0; t < loop.threadExtent; ++t) {
    for (int64_t r = 0; r < loop.regs; ++r) {
      if (!inBox(t, r))
        continue;
      int64_t found = registerOf(t, r);
      if (found < 0 || (perReg[r] >= 0 && perReg[r] != found)) {
        if (!quiet)
          at->emitError() << "fragment layouts disagree: the element a "
                             "thread visits in the loop ("
                          << loop.layout.shortLabel()
                          << ") is held by another thread in "
                          << buf.layout.shortLabel();
        return failure();
      }
      perReg[r] = found;
    }
  }
  // Registers no slot of the box visits are free: take the buffer register
  // of their first slot the buffer holds, which keeps the map linear where
  // the whole-shape one is.
  for (int64_t r = 0; r < loop.regs && !bound.empty(); ++r)
    for (int64_t t = 0; t < loop.threadExtent && perReg[r] < 0; ++t)
      perReg[r] = registerOf(t, r);
  std::optional<BitLinear> fit = BitLinear::fit(
      {loop.regs}, 1,
      [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
        if (perReg[p[0]] < 0)
          return std::nullopt;
        return SmallVector<int64_t>{perReg[p[0]]};
      });
  if (!fit) {
    if (!quiet)
      at->emitError() << "fragment register mapping is not linear in the "
                         "register bits; not supported by the "
                      << lang.name << " target yet";
    return failure();
  }
  remember(false, *fit);
  return fit->expr(0, {reg.str()});
}
