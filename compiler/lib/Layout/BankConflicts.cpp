//===- BankConflicts.cpp - Shared-memory bank conflicts of warp accesses --===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/BankConflicts.h"

#include "Memo.h"

#include "tlc/Layout/LayoutMap.h"
#include "tlc/Layout/SharedLayouts.h"
#include "tlc/Support/LruCache.h"

#include <algorithm>

using namespace tlc::layout;

int64_t tlc::layout::lanesPerPhase(int64_t bytes) {
  return bytes == 8 ? 16 : 32;
}

/// The distinct 4-byte words that lanes [first, first + n) of \p access
/// touch, sorted (at most 32 lanes x 4 words: no allocation per bank).
static llvm::SmallVector<int64_t, 128> distinctWords(const WarpAccess &access,
                                                     int64_t first, int64_t n) {
  llvm::SmallVector<int64_t, 128> words;
  for (int64_t l = first; l < first + n; ++l) {
    int64_t a = access.address[l];
    if (a < 0)
      continue;
    int64_t begin = a / kBankBytes;
    int64_t end = (a + std::max<int64_t>(access.bytes, 1) - 1) / kBankBytes;
    for (int64_t w = begin; w <= end; ++w)
      words.push_back(w);
  }
  llvm::sort(words);
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

/// The most distinct words any bank holds among \p words.
static int64_t mostPerBank(llvm::ArrayRef<int64_t> words) {
  std::array<int64_t, kSharedBanks> count{};
  int64_t most = 0;
  for (int64_t w : words)
    most = std::max(most, ++count[w % kSharedBanks]);
  return most;
}

/// The degree of an LDS access: the worst phase of CDNA (BankConflicts.h
/// says which lanes each serves, and where that is documented).
static int64_t ldsConflictDegree(const WarpAccess &access) {
  auto phase = [&](std::initializer_list<std::pair<int64_t, int64_t>> runs) {
    llvm::SmallVector<int64_t, 128> words;
    for (auto [first, n] : runs) {
      llvm::SmallVector<int64_t, 128> part = distinctWords(access, first, n);
      words.append(part.begin(), part.end());
    }
    llvm::sort(words);
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return mostPerBank(words);
  };
  int64_t degree = 0;
  if (access.bytes >= 16 && !access.store) {
    // ds_read_b128: lanes 0-3 + 20-23, 4-7 + 16-19, 8-11 + 28-31,
    // 12-15 + 24-27 of each half.
    for (auto [a, b] :
         {std::pair<int64_t, int64_t>{0, 20}, {4, 16}, {8, 28}, {12, 24}})
      degree = std::max(degree, phase({{a, 4}, {b, 4}}));
    return degree;
  }
  int64_t lanes = access.bytes >= 16 ? 8 : access.bytes == 8 ? 16 : 32;
  for (int64_t first = 0; first < 32; first += lanes)
    degree = std::max(degree, phase({{first, lanes}}));
  return degree;
}

int64_t tlc::layout::bankConflictDegree(const WarpAccess &access) {
  if (access.lds)
    return ldsConflictDegree(access);
  if (access.bytes >= 16) {
    // The whole warp at once, as measured on the H200: the most distinct
    // words of one bank, over the wavefronts the words need at least.
    llvm::SmallVector<int64_t, 128> words = distinctWords(access, 0, 32);
    int64_t most = mostPerBank(words);
    int64_t least = (int64_t(words.size()) + kSharedBanks - 1) / kSharedBanks;
    return least ? (most + least - 1) / least : 0;
  }
  int64_t lanes = lanesPerPhase(access.bytes);
  int64_t degree = 0;
  for (int64_t first = 0; first < 32; first += lanes)
    degree = std::max(degree, mostPerBank(distinctWords(access, first, lanes)));
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

/// The structure of \p f as a memo key.
static std::string fragmentKey(const Fragment &f) {
  std::string key;
  appendMemoKey(key, f.getInputShape());
  key += std::to_string(f.getReplicate()) + ";";
  appendMemoKey(key, f.getIndexShape());
  for (const IndexExpr &e : f.getForwardIndex())
    appendMemoKey(key, e);
  key += '|';
  appendMemoKey(key, f.getForwardThread());
  return key;
}

std::shared_ptr<const std::vector<std::vector<int64_t>>>
tlc::layout::invertTableShared(const Fragment &f) {
  // Few: a 128 x 128 fragment's table is about a megabyte, and an edit
  // re-analyses one kernel's few fragments.
  static tlc::LruCache<std::vector<std::vector<int64_t>>> memo(8, 4);
  std::string key = fragmentKey(f);
  if (std::shared_ptr<const std::vector<std::vector<int64_t>>> known =
          memo.lookup(key))
    return known;
  llvm::Expected<std::vector<std::vector<int64_t>>> table = f.invertTable();
  if (!table) {
    llvm::consumeError(table.takeError());
    return nullptr;
  }
  auto shared = std::make_shared<const std::vector<std::vector<int64_t>>>(
      std::move(*table));
  memo.record(key, shared);
  return shared;
}

std::optional<std::vector<LaneCoords>>
tlc::layout::parallelLoopWarps(llvm::ArrayRef<int64_t> loopShape,
                               int64_t threads,
                               const LoopPartition &partition) {
  std::vector<LaneCoords> warps;
  int64_t numWarps = (threads + 31) / 32;
  const Fragment *f = partition.fragment;
  if (!f) {
    int64_t numel = numElements(loopShape);
    int64_t rounds = (numel + threads - 1) / threads;
    for (int64_t r = 0; r < rounds; ++r)
      for (int64_t w = 0; w < numWarps; ++w) {
        LaneCoords lanes;
        for (int64_t l = 0; l < 32; ++l) {
          int64_t t = w * 32 + l, flat = r * threads + t;
          if (t >= threads || flat >= numel)
            continue;
          std::vector<int64_t> c(loopShape.size());
          for (int d = int(loopShape.size()) - 1; d >= 0; --d) {
            c[d] = flat % loopShape[d];
            flat /= loopShape[d];
          }
          lanes[l] = std::move(c);
        }
        warps.push_back(std::move(lanes));
      }
    return warps;
  }
  std::shared_ptr<const std::vector<std::vector<int64_t>>> table =
      invertTableShared(*f);
  if (!table)
    return std::nullopt;
  int64_t regs = f->getRegsPerThread();
  int64_t active = std::min(f->getThreadExtent(), threads);
  for (int64_t r = 0; r < regs; ++r)
    for (int64_t w = 0; w * 32 < active; ++w) {
      LaneCoords lanes;
      for (int64_t l = 0; l < 32; ++l) {
        int64_t t = w * 32 + l;
        if (t >= active)
          continue;
        const std::vector<int64_t> &entry = (*table)[t * regs + r];
        if (entry.empty())
          continue;
        bool inBox = true;
        for (auto [d, e] : llvm::enumerate(partition.bound))
          inBox &= entry[d] < e;
        if (!inBox)
          continue;
        std::vector<int64_t> c(loopShape.size());
        for (size_t v = 0; v < c.size(); ++v)
          c[v] = entry[partition.varDim.empty() ? v : partition.varDim[v]];
        lanes[l] = std::move(c);
      }
      warps.push_back(std::move(lanes));
    }
  return warps;
}

std::vector<WarpAccess> tlc::layout::reductionScratchAccesses(int64_t threads,
                                                              int64_t blockMask,
                                                              int64_t regs,
                                                              int64_t bytes) {
  std::vector<WarpAccess> out;
  int64_t numWarps = (threads + 31) / 32;
  auto each = [&](llvm::function_ref<int64_t(int64_t)> element) {
    for (int64_t w = 0; w < numWarps; ++w) {
      WarpAccess a;
      a.bytes = bytes;
      for (int64_t l = 0; l < 32 && w * 32 + l < threads; ++l)
        a.address[l] = element(w * 32 + l) * bytes;
      out.push_back(a);
    }
  };
  for (int64_t k = 0; k < regs; ++k)
    each([&](int64_t t) { return k * threads + t; });
  for (int64_t k = 0; k < regs; ++k)
    for (int64_t p = 0; p <= blockMask; ++p)
      if ((p & ~blockMask) == 0)
        each([&](int64_t t) { return k * threads + ((t & ~blockMask) | p); });
  return out;
}

std::optional<std::vector<LaneCoords>>
tlc::layout::fragmentExchangeWarps(const Fragment &f, int64_t threads,
                                   bool store) {
  std::shared_ptr<const std::vector<std::vector<int64_t>>> table =
      invertTableShared(f);
  if (!table)
    return std::nullopt;
  int64_t regs = f.getRegsPerThread();
  int64_t active = std::min(f.getThreadExtent(), threads);
  unsigned rank = f.getInputRank();
  // The printer's replica bits: thread bits that change no register's
  // coordinate (`if ((tid & repMask) == 0)` stores).
  auto same = [&](int64_t a, int64_t b) {
    for (int64_t r = 0; r < regs; ++r) {
      const std::vector<int64_t> &x = (*table)[a * regs + r],
                                 &y = (*table)[b * regs + r];
      if (x.empty() != y.empty() ||
          !std::equal(x.begin(), x.begin() + (x.empty() ? 0 : rank),
                      y.begin()))
        return false;
    }
    return true;
  };
  int64_t repMask = 0;
  for (int64_t bit = 1; bit < active; bit <<= 1) {
    bool replica = true;
    for (int64_t t = 0; t < active && replica; ++t)
      if (!(t & bit) && (t | bit) < active)
        replica = same(t, t | bit);
    if (replica)
      repMask |= bit;
  }
  std::vector<LaneCoords> warps;
  for (int64_t r = 0; r < regs; ++r)
    for (int64_t w = 0; w * 32 < active; ++w) {
      LaneCoords lanes;
      for (int64_t l = 0; l < 32 && w * 32 + l < active; ++l) {
        int64_t t = w * 32 + l;
        const std::vector<int64_t> &entry = (*table)[t * regs + r];
        if (entry.empty() || (store && (t & repMask)))
          continue;
        lanes[l] = std::vector<int64_t>(entry.begin(), entry.begin() + rank);
      }
      warps.push_back(std::move(lanes));
    }
  return warps;
}

std::optional<StagedStore>
tlc::layout::stagedStoreAccesses(const Fragment &f, int64_t threads,
                                 int64_t elementBytes, int64_t vec) {
  std::vector<unsigned> dims;
  for (auto [d, e] : llvm::enumerate(f.getInputShape()))
    if (e != 1)
      dims.push_back(d);
  if (dims.size() != 2 || dims[1] + 1 != f.getInputRank() ||
      elementBytes <= 0 || 16 % elementBytes != 0 || vec * elementBytes >= 16 ||
      vec < 1)
    return std::nullopt;
  StagedStore s;
  s.rows = f.getInputShape()[dims[0]];
  s.cols = f.getInputShape()[dims[1]];
  int64_t chunk = 16 / elementBytes;
  if (s.cols % chunk != 0)
    return std::nullopt;
  s.padElems = chunk;
  llvm::Expected<Layout> tile = makePaddedLayout(
      {s.rows, s.cols}, unsigned(elementBytes * 8), s.padElems);
  if (!tile) {
    llvm::consumeError(tile.takeError());
    return std::nullopt;
  }
  s.tile = *tile;
  std::shared_ptr<const std::vector<std::vector<int64_t>>> table =
      invertTableShared(f);
  if (!table)
    return std::nullopt;
  // Registers -> tile: vector stores when they are 4 or 8 bytes, else one
  // element at a time (each element its own instruction).
  int64_t vecBytes = vec * elementBytes;
  bool vector = vec > 1 && (vecBytes == 4 || vecBytes == 8);
  s.storeVec = vector ? vec : 1;
  int64_t regs = f.getRegsPerThread();
  int64_t active = std::min(f.getThreadExtent(), threads);
  unsigned rank = f.getInputRank();
  for (int64_t r = 0; r < regs; r += vec)
    for (int64_t e = 0; e < (vector ? 1 : vec); ++e)
      for (int64_t w = 0; w * 32 < active; ++w) {
        LaneCoords lanes;
        for (int64_t l = 0; l < 32 && w * 32 + l < active; ++l) {
          const std::vector<int64_t> &entry =
              (*table)[(w * 32 + l) * regs + r + e];
          if (entry.empty() || entry[rank] != 0)
            continue;
          lanes[l] = std::vector<int64_t>{entry[dims[0]], entry[dims[1]]};
        }
        s.stores.push_back(std::move(lanes));
      }
  // Tile -> global: 16-byte chunks, row-major.
  int64_t perRow = s.cols / chunk, chunks = s.rows * perRow;
  int64_t numWarps = (threads + 31) / 32;
  for (int64_t c = 0; c * threads < chunks; ++c)
    for (int64_t w = 0; w < numWarps; ++w) {
      LaneCoords lanes;
      for (int64_t l = 0; l < 32 && w * 32 + l < threads; ++l) {
        int64_t q = c * threads + w * 32 + l;
        if (q < chunks)
          lanes[l] = std::vector<int64_t>{q / perRow, (q % perRow) * chunk};
      }
      s.reads.push_back(std::move(lanes));
    }
  return s;
}

int64_t tlc::layout::stagedStoreDegree(const Fragment &f, int64_t threads,
                                       int64_t elementBytes, int64_t vec,
                                       bool lds) {
  static tlc::LruCache<int64_t> memo(1024, 4);
  std::string key = fragmentKey(f) + "/" + std::to_string(threads) + "," +
                    std::to_string(elementBytes) + "," + std::to_string(vec) +
                    (lds ? ",lds" : "");
  if (std::shared_ptr<const int64_t> known = memo.lookup(key))
    return *known;
  int64_t worst = 0;
  auto degree = [&](const StagedStore &st, const LaneCoords &w, int64_t n,
                    bool store) {
    WarpAccess a = sharedAccess(st.tile, elementBytes, n, w);
    a.lds = lds;
    a.store = store;
    return bankConflictDegree(a);
  };
  if (std::optional<StagedStore> s =
          stagedStoreAccesses(f, threads, elementBytes, vec)) {
    for (const LaneCoords &w : s->stores)
      worst = std::max(worst, degree(*s, w, s->storeVec, true));
    for (const LaneCoords &w : s->reads)
      worst = std::max(worst, degree(*s, w, 16 / elementBytes, false));
  }
  memo.record(key, std::make_shared<const int64_t>(worst));
  return worst;
}
