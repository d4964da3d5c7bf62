//===- CUDAEmitterGemmOperands.cpp - Facts about gemm operands -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the gemm printers (mma.sync, wgmma, tcgen05) ask of their operands:
// the (thread, register) map of a register fragment fitted to an
// instruction's operand registers (fitGemmRegisters), whether
// tile-plan-wgmma chose wgmma for a gemm, and whether a shared operand's
// origin is aligned to the bytes ldmatrix or a descriptor needs
// (originAlignment).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

FailureOr<BitLinear> cuda_detail::fitGemmRegisters(
    const FragmentInfo &f, ArrayRef<int64_t> extents, int64_t threads,
    function_ref<SmallVector<int64_t>(int64_t tid, ArrayRef<int64_t>)> coordOf,
    Operation *at, StringRef what, StringRef instr) {
  std::string err;
  std::optional<BitLinear> fit = BitLinear::fit(
      extents, 1,
      [&](ArrayRef<int64_t> p) -> std::optional<SmallVector<int64_t>> {
        int64_t idx = -1;
        for (int64_t t = 0; t < threads; ++t) {
          SmallVector<int64_t> c = coordOf(t, p);
          int64_t found = -1;
          if (f.tables) {
            found = f.tables->registerAt(c, t);
          } else {
            for (int64_t rep = 0; rep < f.layout.getReplicate(); ++rep) {
              std::optional<layout::FragmentSlot> s = f.layout.apply(c, rep);
              if (s && s->thread == t)
                found = s->index;
            }
          }
          if (found < 0 || (idx >= 0 && idx != found))
            return std::nullopt;
          idx = found;
        }
        return SmallVector<int64_t>{idx};
      });
  if (!fit) {
    at->emitError() << "T.gemm: the " << what << " fragment layout "
                    << f.layout.shortLabel()
                    << " does not give each thread the " << instr
                    << " registers";
    return failure();
  }
  return *fit;
}

bool tlc::target::cuda_detail::isWgmmaGemm(GemmOp op) {
  auto instr = op->getAttrOfType<StringAttr>("tile.instr");
  return instr && instr.getValue() == "wgmma";
}

Emitter::OriginAlignment Emitter::originAlignment(Value operand,
                                                  int64_t align) {
  OriginAlignment result;
  auto type = cast<BufferType>(operand.getType());
  if (!isSharedScope(type.getScope()) || !type.getElementType().isIntOrFloat())
    return result;
  int64_t bits = getElementBitWidth(type.getElementType());
  // Per dimension of the root: the constant part of the origin, and the
  // interval of its dynamic part (whose values are multiples of `div`).
  SmallVector<int64_t> origin(type.getRank(), 0);
  SmallVector<IndexRange> dynamic(type.getRank(), IndexRange{0, 0, 0});
  Value v = operand;
  while (auto r = v.getDefiningOp<RegionOp>()) {
    auto source = cast<BufferType>(r.getSource().getType());
    if (source.getRank() != type.getRank())
      return result;
    for (auto [d, ofr] : llvm::enumerate(r.getMixedOffsets())) {
      if (std::optional<int64_t> c = getConstantIntValue(ofr)) {
        origin[d] += *c;
        continue;
      }
      std::optional<IndexRange> range = rangeOf(ofr);
      if (!range)
        return {OriginAlignment::Maybe, 0, 0, false};
      if (range->lo == range->hi) {
        origin[d] += range->lo;
        continue;
      }
      IndexRange &x = dynamic[d];
      x = {x.lo + range->lo, x.hi + range->hi,
           std::gcd(x.div, range->div > 0 ? range->div : 1)};
    }
    v = r.getSource();
  }
  auto root = cast<BufferType>(v.getType());
  if (!root.isStatic())
    return result;
  // In bits (sub-byte elements): the offset x lies in [lo, hi] and is
  // `base` modulo `step` (0: it is exactly `base`).
  align *= 8;
  int64_t base = 0, step = 0, lo = 0, hi = 0, stride = bits;
  for (int d = int(root.getRank()) - 1; d >= 0; --d) {
    base += origin[d] * stride;
    const IndexRange &x = dynamic[d];
    if (x.div) {
      step = std::gcd(step, x.div * stride);
      lo += x.lo * stride;
      hi += x.hi * stride;
    }
    stride *= root.getShape()[d];
  }
  lo += base;
  hi += base;
  result.lo = lo / 8;
  result.hi = hi / 8;
  if (!step) {
    result.kind =
        base % align ? OriginAlignment::Never : OriginAlignment::Aligned;
    return result;
  }
  if (base % align == 0 && step % align == 0)
    return result; // every value aligned
  // An aligned value in [lo, hi] of the right residue: x = 0 (mod align)
  // and x = base (mod step) has solutions only where gcd(step, align)
  // divides base; they repeat every lcm(step, align).
  result.kind = OriginAlignment::Never;
  int64_t g = std::gcd(step, align);
  if (((base % g) + g) % g == 0) {
    int64_t first =
        lo >= 0 ? (lo + align - 1) / align * align : -((-lo) / align * align);
    int64_t period = std::lcm(step, align);
    for (int64_t x = first; x <= hi && x < first + period; x += align)
      if (((x - base) % step + step) % step == 0) {
        result.kind = OriginAlignment::Maybe;
        break;
      }
  }
  return result;
}
