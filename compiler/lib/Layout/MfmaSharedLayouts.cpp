//===- MfmaSharedLayouts.cpp - LDS layouts of CDNA MFMA operands ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/MfmaSharedLayouts.h"

#include "tlc/Support/LruCache.h"

#include "llvm/ADT/Twine.h"

#include <string>

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Expected<Layout>
tlc::layout::makeXorSwizzleLayout(llvm::ArrayRef<int64_t> shape,
                                  unsigned elemBits,
                                  const XorSwizzle &swizzle) {
  if (shape.size() < 2)
    return makeError("an XOR-swizzled layout needs a buffer of rank >= 2");
  unsigned rank = shape.size();
  int64_t cont = shape.back();
  if (swizzle.vec < 1 || swizzle.perPhase < 1 || swizzle.maxPhase < 1 ||
      cont % swizzle.vec != 0 || (cont / swizzle.vec) % swizzle.maxPhase != 0)
    return makeError("an XOR swizzle of " + llvm::Twine(swizzle.maxPhase) +
                     " phases of " + llvm::Twine(swizzle.vec) +
                     " elements does not divide rows of " + llvm::Twine(cont));
  // The row over every leading dimension, as the printer flattens it.
  IndexExpr row = IndexExpr::constant(0);
  for (unsigned d = 0; d + 1 < rank; ++d)
    row = row * shape[d] + IndexExpr::var(d, inputName(d));
  IndexExpr col = IndexExpr::var(rank - 1, inputName(rank - 1));
  IndexExpr offset = row * cont + col;
  if (swizzle.maxPhase > 1) {
    IndexExpr phase =
        floorMod(floorDiv(row, swizzle.perPhase), swizzle.maxPhase);
    offset = row * cont +
             bitXor(floorDiv(col, swizzle.vec), phase) * swizzle.vec +
             floorMod(col, swizzle.vec);
  }
  llvm::Expected<Layout> l = Layout::get(shape.vec(), {offset});
  if (!l)
    return l.takeError();
  l->setElementBits(elemBits);
  return l;
}

/// Elements of one transposed chunk read (8 bytes), 0 when \p r's elements
/// have none.
static int64_t transposedChunkElements(const MfmaOperandReads &r) {
  return r.elementBytes == 1 || r.elementBytes == 2 ? 8 / r.elementBytes : 0;
}

std::vector<LaneCoords>
tlc::layout::mfmaOperandReads(const MfmaOperandReads &r, int64_t rows,
                              int64_t cont) {
  std::vector<LaneCoords> out;
  if (r.tile != 16 && r.tile != 32)
    return out;
  int64_t kExtent = r.kInner ? cont : rows;
  int64_t mnExtent = r.kInner ? rows : cont;
  if (r.transposed) {
    const int64_t n = transposedChunkElements(r);
    if (!n || r.perStep % n != 0)
      return out;
    const int64_t across = 16 / n;
    for (int64_t kk = 0; kk < kExtent / r.step(); ++kk)
      for (int64_t t = 0; t < mnExtent / r.tile; ++t)
        for (int64_t h = 0; h < r.perStep / n; ++h)
          for (int64_t half = 0; half < 2; ++half) {
            LaneCoords lanes;
            for (int64_t l = 0; l < 32; ++l) {
              int64_t lane = half * 32 + l;
              int64_t k = kk * r.step() + r.perStep * (lane / r.tile) + n * h +
                          lane % 16 / across;
              int64_t mn =
                  t * r.tile + 16 * (lane % r.tile / 16) + n * (lane % across);
              lanes[l] = std::vector<int64_t>{k, mn};
            }
            out.push_back(std::move(lanes));
          }
    return out;
  }
  for (int64_t kk = 0; kk < kExtent / r.step(); ++kk)
    for (int64_t t = 0; t < mnExtent / r.tile; ++t)
      for (int64_t v = 0; v < (r.vector ? 1 : r.perStep); ++v)
        for (int64_t half = 0; half < 2; ++half) {
          LaneCoords lanes;
          for (int64_t l = 0; l < 32; ++l) {
            int64_t lane = half * 32 + l;
            int64_t mn = t * r.tile + lane % r.tile;
            int64_t k = kk * r.step() + r.perStep * (lane / r.tile) + v;
            lanes[l] = r.kInner ? std::vector<int64_t>{mn, k}
                                : std::vector<int64_t>{k, mn};
          }
          out.push_back(std::move(lanes));
        }
  return out;
}

/// The summed conflict degree of \p reads of a tile of \p cont columns
/// laid out by \p s, each lane reading \p vec elements of \p bytes bytes.
static int64_t conflictCost(const std::vector<LaneCoords> &reads,
                            const XorSwizzle &s, int64_t cont, int64_t bytes,
                            int64_t vec) {
  int64_t cost = 0;
  for (const LaneCoords &lanes : reads) {
    WarpAccess a;
    a.lds = true;
    a.bytes = vec * bytes;
    for (int64_t l = 0; l < 32; ++l)
      if (lanes[l])
        a.address[l] = s.offset((*lanes[l])[0], (*lanes[l])[1], cont) * bytes;
    cost += bankConflictDegree(a);
  }
  return cost;
}

/// The most elements of an operand tile whose swizzle is chosen: 64 KiB
/// of one-byte elements, a CDNA workgroup's whole LDS.
static constexpr int64_t kMaxLdsTileElements = int64_t(1) << 16;

XorSwizzle tlc::layout::chooseMfmaSwizzle(const MfmaOperandReads &r,
                                          int64_t rows, int64_t cont) {
  XorSwizzle best;
  int64_t bytes = r.elementBytes;
  if ((bytes != 1 && bytes != 2 && bytes != 4) || rows <= 0 || cont <= 0 ||
      r.perStep <= 0)
    return best;
  // A tile past a workgroup's 64 KiB of LDS builds for no CDNA GPU (the
  // shared-memory budget error says so); enumerating its reads would take
  // minutes (a fuzz input's [128, 2^24] operand kept --check busy).
  if (rows > kMaxLdsTileElements / cont)
    return best;
  static tlc::LruCache<XorSwizzle> memo(256, 4);
  std::string key = std::to_string(r.tile) + "," + std::to_string(r.perStep) +
                    "," + std::to_string(r.kInner) + std::to_string(r.vector) +
                    std::to_string(r.transposed) + "," + std::to_string(bytes) +
                    "/" + std::to_string(rows) + "x" + std::to_string(cont);
  if (std::shared_ptr<const XorSwizzle> known = memo.lookup(key))
    return *known;
  const int64_t chunk = r.transposed ? transposedChunkElements(r) : 0;
  int64_t vec = r.vector ? r.perStep : chunk ? chunk : 1;
  std::vector<LaneCoords> reads = mfmaOperandReads(r, rows, cont);
  int64_t bestCost = conflictCost(reads, best, cont, bytes, vec);
  // Each read conflict-free is the floor; a later candidate must be
  // strictly cheaper than the best so far.
  const int64_t floor = int64_t(reads.size());
  // Transposed 16-bit chunk reads also try runs of 32 bytes: a 4 x 16
  // block is 4 rows of 32 bytes, which a row XOR moves apart only in whole
  // 32-byte runs once rows are 128 bytes or longer.
  for (int64_t runBytes : {16, 8, 4, 32}) {
    if (runBytes == 32 && !chunk)
      continue;
    int64_t run = runBytes / bytes;
    if (cont % run != 0 || (r.vector && run % r.perStep != 0) ||
        (chunk && run % chunk != 0))
      continue;
    for (int64_t maxPhase : {2, 4, 8, 16})
      for (int64_t perPhase : {1, 2, 4, 8, 16, 32}) {
        if (bestCost <= floor || (cont / run) % maxPhase != 0)
          continue;
        XorSwizzle s{run, perPhase, maxPhase};
        int64_t cost = conflictCost(reads, s, cont, bytes, vec);
        if (cost < bestCost) {
          bestCost = cost;
          best = s;
        }
      }
  }
  memo.record(key, std::make_shared<const XorSwizzle>(best));
  return best;
}
