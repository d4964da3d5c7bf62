//===- HIPEmitterCopy.cpp - Whole-chunk stores into swizzled LDS (HIP) ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An MFMA operand tile in LDS is stored in a row-XOR swizzle of runs of 4
// or 8 bytes (planLdsSwizzles): run r of a row lies at run r ^ phase. A
// global -> LDS copy moves chunks of 16 bytes, which used to be cut into
// runs (ds_write_b64 per 8 bytes, global_load_dwordx2 per 8 bytes). But the
// k runs of a chunk that starts at a multiple of k runs stay together: XOR
// with the phase moves them to the aligned slot of runs (r ^ phase) & ~(k
// - 1) and permutes them by XOR with phase % k. So the chunk is one 16-byte
// load and one ds_write_b128 of its runs swapped in registers
// (tlc::hip::storeXorRuns), where rows are a whole number of chunks.
// Which copies do so is tile-plan-copies' `tile.xor_runs`.
//
// Raw buffer loads read a ragged tile's chunks past the tensor as zero
// through a resource over the whole tensor (bufferResourceSize): its size
// is static, or for a symbolic shape the product of the run-time extents,
// tested against 2 GiB in a wavefront-uniform branch. Which copies may
// read so is tile-plan-copies' `tile.zero_fill` (tile::fitsBufferResource).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/CopyPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

std::string Emitter::permutedRunsCondition(const VectorAccess &a,
                                           int64_t vec) {
  // The swizzle places the chunk whole when its column is a multiple of
  // vec (rows are whole chunks): what the index ranges prove, else a test.
  const RootAccess &ra = a.access;
  const std::optional<IndexRange> &r = ra.ranges.empty()
                                           ? std::optional<IndexRange>()
                                           : ra.ranges.back();
  bool aligned = r && (r->div == 0 || r->div % vec == 0);
  std::string cond = a.bounds;
  if (!aligned && !ra.indices.empty())
    cond += (cond.empty() ? "" : " && ") + std::string("(") +
            ra.indices.back() + ") % " + std::to_string(vec) + " == 0";
  return cond;
}

std::string Emitter::storePermutedRuns(const VectorAccess &dst,
                                       int64_t vecBytes, int64_t runBytes,
                                       const std::string &value) {
  return "tlc::hip::storeXorRuns<" + std::to_string(vecBytes) + ", " +
         std::to_string(runBytes) + ">(" + expr(dst.access.root) + ", " +
         dst.linear + ", " + value + ");";
}

std::optional<Emitter::BufferResourceSize>
Emitter::bufferResourceSize(Value root, Operation *at) {
  auto type = cast<BufferType>(root.getType());
  // (Which tensors a resource covers: tile::fitsBufferResource, the copy
  // plan's test.)
  if (!lang.isHip() || !fitsBufferResource(root))
    return std::nullopt;
  int64_t elemBytes = getElementStorageBytes(type.getElementType());
  if (type.hasStaticShape())
    return BufferResourceSize{std::to_string(type.getNumElements() * elemBytes),
                              ""};
  // Symbolic extents: their product in 64 bits at run time.
  std::string bytes = std::to_string(elemBytes) + "LL";
  for (unsigned d = 0; d < type.getRank(); ++d) {
    Dim dim = type.getDim(d);
    FailureOr<std::string> e = extent(type, d, at);
    if (failed(e))
      return std::nullopt;
    bytes += " * " + (dim.isStatic() ? *e : "(" + *e + ")");
  }
  std::string var = fresh("bytes");
  line("const long long " + var + " = " + bytes + ";");
  return BufferResourceSize{"int(" + var + ")",
                            var + " < 2147483648LL"};
}

/// A divisor of every value \p v takes (0 when it is always 0), from
/// constants through + - * (1 when nothing is known).
static int64_t knownDivisor(Value v) {
  if (auto c = getConstantIntValue(v))
    return std::abs(*c);
  Operation *op = v.getDefiningOp();
  if (!op)
    return 1;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(op))
    return knownDivisor(op->getOperand(0));
  if (isa<arith::MulIOp>(op)) {
    int64_t a = knownDivisor(op->getOperand(0));
    int64_t b = knownDivisor(op->getOperand(1));
    return a == 0 || b == 0 ? 0 : a * b;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::gcd(knownDivisor(op->getOperand(0)),
                    knownDivisor(op->getOperand(1)));
  return 1;
}

int64_t Emitter::innerOffsetDivisor(Value view) {
  int64_t g = 0;
  while (auto region = view.getDefiningOp<RegionOp>()) {
    SmallVector<OpFoldResult> offsets = region.getMixedOffsets();
    if (offsets.empty())
      return 1;
    OpFoldResult o = offsets.back();
    int64_t d = 1;
    if (auto attr = dyn_cast<Attribute>(o))
      d = std::abs(cast<IntegerAttr>(attr).getInt());
    else if (std::optional<IndexRange> r = rangeOf(o))
      d = r->lo == 0 && r->hi == 0 ? 0 : r->div;
    else
      d = knownDivisor(cast<Value>(o));
    g = std::gcd(g, d);
    view = region.getSource();
  }
  return g;
}
