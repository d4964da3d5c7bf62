//===- BankConflicts.cpp - Shared-memory bank conflicts of warp accesses --===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/BankConflicts.h"
#include "Memo.h"

#include "tlc/Layout/LayoutMap.h"
#include "tlc/Support/LruCache.h"

#include <algorithm>
#include <set>

using namespace tlc::layout;

int64_t tlc::layout::lanesPerPhase(int64_t bytes) {
  return bytes == 8 ? 16 : 32;
}

/// The distinct 4-byte words of each bank that lanes [first, first + n) of
/// \p access touch.
static std::array<std::set<int64_t>, kSharedBanks>
wordsByBank(const WarpAccess &access, int64_t first, int64_t n) {
  std::array<std::set<int64_t>, kSharedBanks> words;
  for (int64_t l = first; l < first + n; ++l) {
    int64_t a = access.address[l];
    if (a < 0)
      continue;
    int64_t begin = a / kBankBytes;
    int64_t end = (a + std::max<int64_t>(access.bytes, 1) - 1) / kBankBytes;
    for (int64_t w = begin; w <= end; ++w)
      words[w % kSharedBanks].insert(w);
  }
  return words;
}

int64_t tlc::layout::bankConflictDegree(const WarpAccess &access) {
  if (access.bytes >= 16) {
    // The whole warp at once, as measured on the H200: the most distinct
    // words of one bank, over the wavefronts the words need at least.
    auto words = wordsByBank(access, 0, 32);
    int64_t most = 0, total = 0;
    for (const std::set<int64_t> &s : words) {
      most = std::max<int64_t>(most, s.size());
      total += s.size();
    }
    int64_t least = (total + kSharedBanks - 1) / kSharedBanks;
    return least ? (most + least - 1) / least : 0;
  }
  int64_t lanes = lanesPerPhase(access.bytes);
  int64_t degree = 0;
  for (int64_t first = 0; first < 32; first += lanes)
    for (const std::set<int64_t> &s : wordsByBank(access, first, lanes))
      degree = std::max<int64_t>(degree, s.size());
  return degree;
}

WarpAccess tlc::layout::sharedAccess(const Layout &layout, int64_t elementBytes,
                                     int64_t vectorElems,
                                     const LaneCoords &lanes,
                                     int64_t baseBytes) {
  WarpAccess access;
  access.bytes = elementBytes * vectorElems;
  for (auto [l, coord] : llvm::enumerate(lanes)) {
    if (!coord)
      continue;
    std::optional<int64_t> offset = layout.applyFlat(*coord);
    if (offset)
      access.address[l] = baseBytes + *offset * elementBytes;
  }
  return access;
}

/// Answers of isVectorContiguous by the layout's structural key and the
/// width: the same tiles (and their padded and swizzled alternatives) are
/// checked again after every edit of a kernel.
static tlc::LruCache<bool> &contiguityMemo() {
  static tlc::LruCache<bool> memo(4096, 2);
  return memo;
}

bool tlc::layout::isVectorContiguous(const Layout &layout, int64_t n) {
  if (n <= 1)
    return true;
  llvm::ArrayRef<int64_t> shape = layout.getInputShape();
  if (shape.empty() || shape.back() % n != 0)
    return false;
  std::string key = std::to_string(n) + ";";
  appendMemoKey(key, shape);
  for (const IndexExpr &e : layout.getForward())
    appendMemoKey(key, e);
  if (std::shared_ptr<const bool> known = contiguityMemo().lookup(key))
    return *known;
  // Layout::applyFlat with the expressions compiled once: every element of
  // the tile is visited.
  std::vector<CompiledIndexExpr> compiled(layout.getForward().begin(),
                                          layout.getForward().end());
  std::vector<int64_t> outShape = layout.getOutputShape();
  auto applyFlat =
      [&](llvm::ArrayRef<int64_t> coord) -> std::optional<int64_t> {
    for (auto [c, e] : llvm::zip(coord, shape))
      if (c < 0 || c >= e)
        return std::nullopt;
    int64_t flat = 0;
    for (auto [e, extent] : llvm::zip(compiled, outShape)) {
      std::optional<int64_t> v = e.evaluate(coord);
      if (!v)
        return std::nullopt;
      flat = flat * extent + *v;
    }
    return flat;
  };
  bool ok = true;
  std::vector<int64_t> c;
  forEachCoord(shape, [&](llvm::ArrayRef<int64_t> coord) {
    if (!ok || coord.back() % n != 0)
      return;
    std::optional<int64_t> first = applyFlat(coord);
    if (!first || *first % n != 0) {
      ok = false;
      return;
    }
    c.assign(coord.begin(), coord.end());
    for (int64_t k = 1; k < n && ok; ++k) {
      ++c.back();
      std::optional<int64_t> at = applyFlat(c);
      ok = at && *at == *first + k;
    }
  });
  contiguityMemo().record(key, std::make_shared<const bool>(ok));
  return ok;
}
