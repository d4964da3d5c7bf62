//===- FragmentRegisters.cpp - Which register holds a loop's element ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/FragmentRegisters.h"

#include "llvm/ADT/BitVector.h"

#include <vector>

using namespace tlc;
using namespace tlc::layout;

RegisterMap tlc::layout::mapRegisters(const IndexedFragment &loop,
                                      const IndexedFragment &buf,
                                      llvm::ArrayRef<unsigned> dims,
                                      llvm::ArrayRef<int64_t> bound) {
  RegisterMap out;
  bool identity = dims.size() == loop.shape.size();
  for (auto [i, d] : llvm::enumerate(dims))
    identity &= d == i;
  if (identity && ((loop.tables && loop.tables == buf.tables) ||
                   buf.layout->isEquivalentTo(*loop.layout))) {
    out.kind = RegisterMap::Kind::Same;
    return out;
  }
  // The fitted outputs of slot (t, r) of the loop are base + T[t] + R[r]:
  // its coordinate, or of a flat map its flat index.
  const BitLinear &coords = *loop.coords;
  int64_t regs = loop.layout->getRegsPerThread();
  int64_t threadExtent = loop.layout->getThreadExtent();
  unsigned rank = loop.shape.size();
  unsigned outs = coords.isFlat() ? 1 : rank;
  int64_t tBits = coords.coef.empty() ? 0 : coords.coef[0].size();
  int64_t rBits = coords.coef.size() < 2 ? 0 : coords.coef[1].size();
  std::vector<int64_t> byThread(threadExtent * outs, 0);
  std::vector<int64_t> byReg(regs * outs, 0);
  for (int64_t t = 0; t < threadExtent; ++t)
    for (unsigned d = 0; d < outs; ++d)
      for (int64_t b = 0; b < tBits; ++b)
        if ((t >> b) & 1)
          byThread[t * outs + d] += coords.coef[0][b][d];
  for (int64_t r = 0; r < regs; ++r)
    for (unsigned d = 0; d < outs; ++d) {
      int64_t v = coords.base[d];
      for (int64_t b = 0; b < rBits; ++b)
        if ((r >> b) & 1)
          v += coords.coef[1][b][d];
      byReg[r * outs + d] = v;
    }
  auto coordAt = [&](int64_t t, int64_t r, unsigned d) {
    if (coords.isFlat())
      return coords.unflatten(d, byThread[t] + byReg[r]);
    return byThread[t * outs + d] + byReg[r * outs + d];
  };
  std::vector<int64_t> perReg(regs, -1);
  llvm::SmallVector<int64_t> bc(dims.size());
  auto registerOf = [&](int64_t t, int64_t r) -> int64_t {
    for (auto [k, d] : llvm::enumerate(dims))
      bc[k] = d == kUnitAccessDim ? 0 : coordAt(t, r, d);
    if (buf.tables)
      return buf.tables->registerAt(bc, t);
    for (int64_t rep = 0; rep < buf.layout->getReplicate(); ++rep) {
      std::optional<FragmentSlot> s = buf.layout->apply(bc, rep);
      if (s && s->thread == t)
        return s->index;
    }
    return -1;
  };
  // A slot of the loop layout that holds no element (a guarded
  // partition's last round) visits nothing.
  auto inBox = [&](int64_t t, int64_t r) {
    if (loop.tables && !loop.tables->holds(t, r))
      return false;
    bool in = true;
    for (auto [d, e] : llvm::enumerate(bound))
      in &= coordAt(t, r, d) < e;
    return in;
  };
  for (int64_t t = 0; t < threadExtent; ++t) {
    for (int64_t r = 0; r < regs; ++r) {
      if (!inBox(t, r))
        continue;
      int64_t found = registerOf(t, r);
      if (found < 0 || (perReg[r] >= 0 && perReg[r] != found))
        return out; // OtherThread
      perReg[r] = found;
    }
  }
  // Registers no slot of the box visits are free: take the buffer register
  // of their first slot the buffer holds, which keeps the map linear where
  // the whole-shape one is; registers that hold no element in any thread
  // (padding of a power-of-two register digit, planReduciblePartition) are
  // left out of the fit.
  bool skipped = !bound.empty() || (loop.tables && loop.tables->emptySlots);
  for (int64_t r = 0; r < regs && skipped; ++r)
    for (int64_t t = 0; t < threadExtent && perReg[r] < 0; ++t)
      perReg[r] = registerOf(t, r);
  std::optional<BitLinear> fit = BitLinear::fit(
      {regs}, 1,
      [&](llvm::ArrayRef<int64_t> p)
          -> std::optional<llvm::SmallVector<int64_t>> {
        if (perReg[p[0]] < 0)
          return std::nullopt;
        return llvm::SmallVector<int64_t>{perReg[p[0]]};
      },
      /*skipUndefined=*/skipped);
  if (!fit) {
    out.kind = RegisterMap::Kind::NotLinear;
    return out;
  }
  out.kind = RegisterMap::Kind::Mapped;
  out.fit = std::move(*fit);
  return out;
}

bool tlc::layout::isWholeInEveryThread(const IndexedFragment &f,
                                       int64_t threads) {
  const Fragment &layout = *f.layout;
  int64_t numel = 1;
  for (int64_t e : f.shape)
    numel *= e;
  if (layout.getReplicate() < threads || layout.getRegsPerThread() != numel)
    return false;
  llvm::SmallVector<int64_t> coord(f.shape.size());
  for (int64_t r = 0; r < numel; ++r) {
    int64_t rest = r;
    for (int d = int(f.shape.size()) - 1; d >= 0; --d) {
      coord[d] = rest % f.shape[d];
      rest /= f.shape[d];
    }
    llvm::BitVector held(threads);
    for (int64_t rep = 0; rep < layout.getReplicate(); ++rep) {
      std::optional<FragmentSlot> s = layout.apply(coord, rep);
      if (!s || s->index != r)
        return false;
      if (s->thread < threads)
        held.set(s->thread);
    }
    if (!held.all())
      return false;
  }
  return true;
}
