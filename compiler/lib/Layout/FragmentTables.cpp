//===- FragmentTables.cpp - Enumerated facts of a fragment layout ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tables are memoised by the layout's structural key in a bounded,
// mutex-guarded map (the editor lays out kernels on several threads).
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/FragmentTables.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <mutex>

using namespace llvm;
using namespace tlc::layout;

namespace {
/// Tables by structural key. Bounded (emptied when full): one file uses a
/// handful of layouts, so this only trims what earlier builds left behind.
class FragmentTableCache {
public:
  std::shared_ptr<const FragmentTables> lookup(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
  }
  void record(const std::string &key,
              std::shared_ptr<const FragmentTables> tables) {
    std::lock_guard<std::mutex> lock(mutex);
    if (map.size() >= kMaxEntries)
      map.clear();
    map.try_emplace(key, std::move(tables));
  }

private:
  static constexpr size_t kMaxEntries = 256;
  std::mutex mutex;
  llvm::StringMap<std::shared_ptr<const FragmentTables>> map;
};
} // namespace

static FragmentTableCache &tableCache() {
  static FragmentTableCache cache;
  return cache;
}

/// The fit of a layout some of whose slots hold no element (a guarded
/// partition's last round), extended linearly over them, when it maps
/// every empty slot outside the shape: coordinates out of range, or of a
/// flat map a flat index past the last element (no empty slot may alias
/// an element, or code over the registers could not tell it apart).
static void fitAroundEmptySlots(FragmentTables &t, const Fragment &f,
                                const std::vector<std::vector<int64_t>> &table,
                                unsigned fitRank) {
  unsigned rank = t.shape.size();
  int64_t regs = f.getRegsPerThread(), threads = f.getThreadExtent();
  std::vector<bool> filled(table.size());
  bool empty = false;
  for (auto [s, slot] : llvm::enumerate(table)) {
    filled[s] = slot.size() == rank + 1;
    empty |= !filled[s];
  }
  // Only the whole shape: a fit to fewer outputs cannot say which slots
  // are out of range.
  if (!empty || fitRank != rank || rank == 0)
    return;
  int64_t numel = 1;
  for (int64_t e : t.shape)
    numel *= e;
  auto slotAt = [&](ArrayRef<int64_t> p) -> const std::vector<int64_t> * {
    const std::vector<int64_t> &slot = table[p[0] * regs + p[1]];
    return slot.size() == rank + 1 ? &slot : nullptr;
  };
  std::optional<BitLinear> fit = BitLinear::fit(
      {threads, regs}, rank,
      [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
        const std::vector<int64_t> *slot = slotAt(p);
        if (!slot)
          return std::nullopt;
        return SmallVector<int64_t>(slot->begin(), slot->begin() + rank);
      },
      /*skipUndefined=*/true);
  if (!fit && rank > 1) {
    fit = BitLinear::fit(
        {threads, regs}, 1,
        [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
          const std::vector<int64_t> *slot = slotAt(p);
          if (!slot)
            return std::nullopt;
          int64_t flat = 0;
          for (unsigned d = 0; d < rank; ++d)
            flat += (*slot)[d] * t.strides[d];
          return SmallVector<int64_t>{flat};
        },
        /*skipUndefined=*/true);
    if (fit)
      fit->flatShape = t.shape;
  }
  if (!fit)
    return;
  // Registers empty in every thread, and a digit of the register number
  // that picks exactly such registers (sought only where the fit maps an
  // empty slot inside the shape): for each field (shift, width) of the
  // register bits, the least digit value from which every register is
  // empty, O(registers) a field.
  int64_t padShift = 0, padMask = 0, padLimit = 0;
  bool padSought = false;
  auto seekPadding = [&] {
    padSought = true;
    std::vector<bool> emptyReg(regs, true);
    for (int64_t th = 0; th < threads; ++th)
      for (int64_t r = 0; r < regs; ++r)
        if (filled[th * regs + r])
          emptyReg[r] = false;
    unsigned regBits = llvm::Log2_64_Ceil(std::max<int64_t>(regs, 2));
    for (unsigned sh = 0; sh < regBits && !padMask; ++sh)
      for (unsigned w = 1; sh + w <= regBits && !padMask; ++w) {
        int64_t mask = (int64_t(1) << w) - 1;
        // The least digit value whose registers, and those of every larger
        // value, are all empty.
        std::vector<bool> full(mask + 1, false);
        for (int64_t r = 0; r < regs; ++r)
          if (!emptyReg[r])
            full[(r >> sh) & mask] = true;
        int64_t lim = mask + 1;
        while (lim > 0 && !full[lim - 1])
          --lim;
        if (lim > 0 && lim <= mask)
          padShift = sh, padMask = mask, padLimit = lim;
      }
  };
  bool padded = false;
  for (int64_t th = 0; th < threads; ++th)
    for (int64_t r = 0; r < regs; ++r) {
      if (filled[th * regs + r])
        continue;
      bool outside = false;
      if (fit->isFlat()) {
        int64_t flat = fit->evaluateLinear(0, {th, r});
        outside = flat < 0 || flat >= numel;
      } else {
        for (unsigned d = 0; d < rank; ++d) {
          int64_t c = fit->evaluate(d, {th, r});
          outside |= c < 0 || c >= t.shape[d];
        }
      }
      if (outside)
        continue;
      if (!padSought)
        seekPadding();
      if (!padMask || ((r >> padShift) & padMask) < padLimit)
        return;
      padded = true;
    }
  t.coords = std::move(fit);
  t.emptySlots = true;
  t.filled = std::move(filled);
  if (padded)
    t.padShift = padShift, t.padMask = padMask, t.padLimit = padLimit;
}

std::shared_ptr<const FragmentTables> FragmentTables::get(const Fragment &f,
                                                          unsigned fitRank) {
  std::string key = f.structuralKey();
  key += '#';
  key += std::to_string(fitRank);
  if (std::shared_ptr<const FragmentTables> known = tableCache().lookup(key))
    return known;
  auto t = std::make_shared<FragmentTables>();
  t->shape.assign(f.getInputShape().begin(), f.getInputShape().end());
  unsigned rank = t->shape.size();
  t->strides.assign(rank, 1);
  int64_t numel = 1;
  for (unsigned d = rank; d-- > 0;) {
    t->strides[d] = numel;
    numel *= t->shape[d];
  }
  t->replicate = f.getReplicate();
  llvm::Expected<std::vector<std::vector<int64_t>>> table = f.invertTable();
  if (!table) {
    t->error = llvm::toString(table.takeError());
  } else {
    int64_t regs = f.getRegsPerThread();
    t->coords = BitLinear::fit(
        {f.getThreadExtent(), regs}, fitRank,
        [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
          const std::vector<int64_t> &slot = (*table)[p[0] * regs + p[1]];
          if (slot.size() < fitRank)
            return std::nullopt;
          return SmallVector<int64_t>(slot.begin(), slot.begin() + fitRank);
        });
    // Not linear per coordinate: linear in the row-major flat index?
    if (!t->coords && fitRank == rank && rank > 1) {
      t->coords = BitLinear::fit(
          {f.getThreadExtent(), regs}, 1,
          [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
            const std::vector<int64_t> &slot = (*table)[p[0] * regs + p[1]];
            if (slot.size() < rank)
              return std::nullopt;
            int64_t flat = 0;
            for (unsigned d = 0; d < rank; ++d)
              flat += slot[d] * t->strides[d];
            return SmallVector<int64_t>{flat};
          });
      if (t->coords)
        t->coords->flatShape = t->shape;
    }
    t->regsPerThread = regs;
    if (!t->coords)
      fitAroundEmptySlots(*t, f, *table, fitRank);
    t->registerOf.assign(numel, -1);
    t->threadOf.assign(numel * t->replicate, -1);
    for (auto [s, entry] : llvm::enumerate(*table)) {
      if (entry.size() != rank + 1)
        continue;
      int64_t flat = 0;
      for (unsigned d = 0; d < rank; ++d)
        flat += entry[d] * t->strides[d];
      t->registerOf[flat] = int32_t(int64_t(s) % regs);
      t->threadOf[flat * t->replicate + entry[rank]] =
          int32_t(int64_t(s) / regs);
    }
  }
  tableCache().record(key, t);
  return t;
}

int64_t FragmentTables::registerAt(ArrayRef<int64_t> coord,
                                   int64_t thread) const {
  if (coord.size() != shape.size())
    return -1;
  int64_t flat = 0;
  for (auto [c, e, s] : llvm::zip(coord, shape, strides)) {
    if (c < 0 || c >= e)
      return -1;
    flat += c * s;
  }
  const int32_t *holders = threadOf.data() + flat * replicate;
  for (int64_t r = 0; r < replicate; ++r)
    if (holders[r] == thread)
      return registerOf[flat];
  return -1;
}
