//===- SharedAccessOperands.cpp - T.gemm's reads of shared operands -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The warp reads of T.gemm's shared operands: ldmatrix (and wgmma operand
// reads) on NVIDIA targets, the MFMA operand reads of the HIP printer.
//
//===----------------------------------------------------------------------===//

#include "SharedAccessPlans.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "tlc/Layout/Fragment.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

/// The ldmatrix reads of T.gemm's shared operands: every 8x8 matrix of the
/// tile (8-aligned rows, one 16-byte chunk column) is read as eight 16-byte
/// rows by lanes 8q .. 8q + 7 (PTX ISA, ldmatrix); one phase each. 8-bit
/// tiles stored K-outer (A [K, M], B [K, N]) are read byte by byte by the
/// printer, not with ldmatrix; those reads are not modelled.
void tlc::tile::detail::planGemmOperands(GemmOp op,
                                         std::vector<AccessPlan> &plans,
                                         StringRef instruction) {
  for (Value v : {op.getA(), op.getB()}) {
    Value root = rootOf(v);
    auto rootType = cast<BufferType>(root.getType());
    auto type = cast<BufferType>(v.getType());
    int64_t bytes = getElementStorageBytes(type.getElementType());
    if (!isSharedScope(rootType.getScope()) || !rootType.isStatic() ||
        !type.isStatic() || type.getRank() < 2 || (bytes != 1 && bytes != 2))
      continue;
    bool kOuter = v == op.getA() ? op.getTransposeA() : !op.getTransposeB();
    if (bytes == 1 && kOuter)
      continue;
    std::optional<SmallVector<int64_t>> offsets = staticOffsets(v);
    if (!offsets)
      continue;
    unsigned rank = type.getRank();
    int64_t rows = type.getShape()[rank - 2], cols = type.getShape()[rank - 1];
    int64_t chunk = 16 / bytes;
    if (rows % 8 != 0 || cols % chunk != 0)
      continue;
    AccessPlan plan;
    plan.op = op;
    plan.root = root;
    plan.elementBytes = bytes;
    plan.vec = chunk;
    plan.instruction = instruction.str();
    for (int64_t r0 = 0; r0 < rows; r0 += 8)
      for (int64_t c = 0; c < cols; c += chunk) {
        layout::LaneCoords lanes;
        for (int64_t i = 0; i < 8; ++i)
          lanes[i] = rootCoord({rank - 2, rank - 1}, {r0 + i, c}, *offsets);
        plan.warps.push_back(std::move(lanes));
      }
    plans.push_back(std::move(plan));
  }
}

/// The LDS reads of T.gemm's shared operands on HIP (HIPEmitterGemm.cpp):
/// wavefront w of the accumulator's wavefront grid (wm = w % warpRows,
/// wn = w / warpRows) reads, per K step kk, MFMA tile (T x T: 16, or 32
/// where layout inference gave the accumulator an `mfma32` layout) and
/// value r, row or column lane % T of the tile at k = kk * step + perStep *
/// (lane / T) + r (with a register operand and 8-bit values, kk * 32 + 16
/// (r / 4) + 4 (lane / 16) + r % 4; kk * 16 + 8 (r / 4) + 4 (lane / 32) +
/// r % 4 on 32x32 tiles). A K-contiguous operand whose rows are
/// whole multiples of perStep is read as one vector per lane and tile
/// (ds_read_b64 / ds_read_b128, the printer's `vectorBytes`). An
/// MN-contiguous 8- or 16-bit operand whose rows are whole multiples of n =
/// 8 / element bytes is read as 8-byte chunks (the printer's
/// `transposedReads`): per step, tile and read h < perStep / n, each row of
/// 16 lanes reads the n x 16 block of k rows perStep (lane / T) + n h .. +
/// n - 1 and columns 16 ((lane % T) / 16) .. + 15 of the tile, a chunk a
/// lane (gfx950's ds_read_b64_tr_b16 / _b8; ds_read_b64 and a DPP
/// transpose elsewhere; either assignment of chunks to the 16 lanes of one
/// LDS phase gives the same degree, so the plan uses gfx950's: lane j reads
/// row j / (16 / n), columns n (j % (16 / n))). Any other operand is read
/// as one ds_read_u16 / ds_read_u8 per element. Only where the tile's
/// swizzle keeps the chunks whole: the printer reads them element by
/// element otherwise, and so does this plan.
void tlc::tile::detail::planMfmaOperands(
    GemmOp op, std::vector<AccessPlan> &plans,
    const DenseMap<Value, SharedStorage> &storage) {
  // The elements an LDS swizzle keeps together (none: the whole row).
  auto keptTogether = [&](Value root) -> int64_t {
    auto it = storage.find(root);
    return it != storage.end() &&
                   it->second.kind == SharedStorage::Kind::LdsSwizzle
               ? it->second.lds.vec
               : 0;
  };
  auto cAlloc = op.getC().getDefiningOp<AllocOp>();
  auto cAttr = cAlloc ? dyn_cast_or_null<FragmentAttr>(cAlloc.getLayoutAttr())
                      : FragmentAttr();
  if (!cAttr)
    return;
  layout::Fragment cf = cAttr.getFragment();
  int64_t warpRows = cf.getOrigin().warpRows,
          warpCols = cf.getOrigin().warpCols;
  auto matrix = [](BufferType t) {
    SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
    while (s.size() > 2 && s.front() == 1)
      s.erase(s.begin());
    return s;
  };
  auto aType = cast<BufferType>(op.getA().getType());
  auto bType = cast<BufferType>(op.getB().getType());
  auto cType = cast<BufferType>(op.getC().getType());
  if (!aType.isStatic() || !bType.isStatic() || !cType.isStatic())
    return;
  SmallVector<int64_t> as = matrix(aType), cs = matrix(cType);
  if (as.size() != 2 || cs.size() != 2 || warpRows <= 0 || warpCols <= 0)
    return;
  int64_t bytes = getElementStorageBytes(aType.getElementType());
  if (bytes != 1 && bytes != 2 && bytes != 4)
    return;
  const bool tile32 = StringRef(cf.getOrigin().tag).starts_with("mfma32");
  const int64_t T = tile32 ? 32 : 16, groups = 64 / T;
  const int64_t perLane = bytes == 1 ? 8 : 4, kStep = groups * perLane;
  bool aShared = isSharedScope(scopeOfRoot(op.getA()));
  bool bShared = isSharedScope(scopeOfRoot(op.getB()));
  int64_t kPack = 1;
  if (auto kp = op->getAttrOfType<IntegerAttr>("k_pack"))
    kPack = kp.getInt();
  if (!aShared || !bShared)
    kPack = 1;
  const bool splitK = perLane == 8 && (!aShared || !bShared);
  const int64_t perStep = perLane * kPack, step = kStep * kPack;
  bool transA = op.getTransposeA(), transB = op.getTransposeB();
  int64_t m = cs[0], n = cs[1], k = transA ? as[0] : as[1];
  if (kPack < 1 || k % step != 0 || m % warpRows || n % warpCols)
    return;
  int64_t warpM = m / warpRows, warpN = n / warpCols;
  if (warpM % T || warpN % T)
    return;
  int64_t waves = warpRows * warpCols;
  for (bool isA : {true, false}) {
    Value v = isA ? op.getA() : op.getB();
    if (!(isA ? aShared : bShared))
      continue;
    Value root = rootOf(v);
    auto rootType = cast<BufferType>(root.getType());
    auto type = cast<BufferType>(v.getType());
    std::optional<SmallVector<int64_t>> offsets = staticOffsets(v);
    if (!rootType.isStatic() || !offsets || type.getRank() < 2)
      continue;
    unsigned rank = type.getRank();
    int64_t tiles = (isA ? warpM : warpN) / T;
    bool trans = isA ? transA : !transB;
    // K runs along the operand's rows' last dimension: vector reads.
    int64_t vecBytes = perStep * bytes;
    bool vector = !trans && !splitK && (vecBytes == 8 || vecBytes == 16) &&
                  rootType.getShape().back() == type.getShape().back() &&
                  rootType.getShape().back() % perStep == 0;
    const int64_t chunk = bytes == 1 || bytes == 2 ? 8 / bytes : 0;
    bool transposed = trans && !splitK && chunk && perStep % chunk == 0 &&
                      rootType.getShape().back() == type.getShape().back() &&
                      rootType.getShape().back() % chunk == 0 &&
                      keptTogether(root) % chunk == 0;
    if (transposed) {
      AccessPlan plan;
      plan.op = op;
      plan.root = root;
      plan.elementBytes = bytes;
      plan.vec = chunk;
      plan.instruction = bytes == 2 ? "ds_read_b64_tr_b16 (or ds_read_b64)"
                                    : "ds_read_b64_tr_b8 (or ds_read_b64)";
      const int64_t across = 16 / chunk;
      for (int64_t kk = 0; kk < k / step; ++kk)
        for (int64_t tile = 0; tile < tiles; ++tile)
          for (int64_t h = 0; h < perStep / chunk; ++h)
            for (int64_t w = 0; w < waves; ++w)
              for (int64_t half = 0; half < 2; ++half) {
                layout::LaneCoords lanes;
                for (int64_t l = 0; l < 32; ++l) {
                  int64_t lane = half * 32 + l;
                  int64_t grid = isA ? w % warpRows : w / warpRows;
                  int64_t mn = grid * (isA ? warpM : warpN) + tile * T +
                               16 * (lane % T / 16) + chunk * (lane % across);
                  int64_t kl = kk * step + perStep * (lane / T) + chunk * h +
                               lane % 16 / across;
                  lanes[l] =
                      rootCoord({rank - 2, rank - 1}, {kl, mn}, *offsets);
                }
                plan.warps.push_back(std::move(lanes));
              }
      plans.push_back(std::move(plan));
      continue;
    }
    AccessPlan plan;
    plan.op = op;
    plan.root = root;
    plan.elementBytes = bytes;
    plan.vec = vector ? perStep : 1;
    plan.instruction =
        widthName(vector ? vecBytes : bytes, /*store=*/false, /*hip=*/true);
    for (int64_t kk = 0; kk < k / step; ++kk)
      for (int64_t tile = 0; tile < tiles; ++tile)
        for (int64_t r = 0; r < (vector ? 1 : perStep); ++r)
          for (int64_t w = 0; w < waves; ++w)
            for (int64_t half = 0; half < 2; ++half) {
              layout::LaneCoords lanes;
              for (int64_t l = 0; l < 32; ++l) {
                int64_t lane = half * 32 + l;
                int64_t grid = isA ? w % warpRows : w / warpRows;
                int64_t mn = grid * (isA ? warpM : warpN) + tile * T + lane % T;
                int64_t kl =
                    splitK ? kk * kStep + 4 * groups * (r / 4) +
                                 4 * (lane / T) + r % 4
                           : kk * step + perStep * (lane / T) + r;
                // A is [M, K] (trans: [K, M]); B is [K, N] (trans: [N, K]).
                SmallVector<int64_t> at = trans ? SmallVector<int64_t>{kl, mn}
                                                : SmallVector<int64_t>{mn, kl};
                lanes[l] = rootCoord({rank - 2, rank - 1}, at, *offsets);
              }
              plan.warps.push_back(std::move(lanes));
            }
    plans.push_back(std::move(plan));
  }
}
