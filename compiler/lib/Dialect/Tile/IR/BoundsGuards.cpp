//===- BoundsGuards.cpp - The guards tile-legalize-bounds decides ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/BoundsGuards.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The words of one dimension's checks, indexed by BoundsCheck bits.
static constexpr llvm::StringLiteral kWords[] = {"in", "upper", "lower",
                                                 "both"};

Value tlc::tile::getViewedRoot(Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

void tlc::tile::setBoundsGuards(
    Operation *op, ArrayRef<std::optional<BoundsGuard>> perOperand) {
  Builder b(op->getContext());
  SmallVector<Attribute> entries;
  for (const std::optional<BoundsGuard> &g : perOperand) {
    if (!g) {
      entries.push_back(b.getDictionaryAttr({}));
      continue;
    }
    SmallVector<Attribute> dims;
    for (uint8_t bits : g->dims)
      dims.push_back(b.getStringAttr(kWords[bits & 3]));
    SmallVector<NamedAttribute> fields{
        b.getNamedAttr("dims", b.getArrayAttr(dims))};
    if (g->safeValue)
      fields.push_back(
          b.getNamedAttr("safe_value", b.getF64FloatAttr(*g->safeValue)));
    entries.push_back(b.getDictionaryAttr(fields));
  }
  op->setAttr(kBoundsAttrName, b.getArrayAttr(entries));
}

std::optional<BoundsGuard> tlc::tile::getBoundsGuard(Operation *op,
                                                     Value root) {
  auto entries = op->getAttrOfType<ArrayAttr>(kBoundsAttrName);
  if (!entries)
    return std::nullopt;
  std::optional<BoundsGuard> guard;
  for (auto [operand, entry] : llvm::zip(op->getOperands(), entries)) {
    auto fields = dyn_cast<DictionaryAttr>(entry);
    auto dims = fields ? fields.getAs<ArrayAttr>("dims") : ArrayAttr();
    if (!dims || getViewedRoot(operand) != root)
      continue;
    if (!guard)
      guard.emplace();
    guard->dims.resize(std::max<size_t>(guard->dims.size(), dims.size()), 0);
    for (auto [d, word] : llvm::enumerate(dims)) {
      auto s = dyn_cast<StringAttr>(word);
      // An unknown word checks both ends.
      uint8_t bits = kCheckUpper | kCheckLower;
      for (uint8_t k = 0; k < 4; ++k)
        if (s && s.getValue() == kWords[k])
          bits = k;
      guard->dims[d] |= bits;
    }
    if (auto v = fields.getAs<FloatAttr>("safe_value"))
      guard->safeValue = v.getValueAsDouble();
  }
  return guard;
}

bool tlc::tile::isExternCallStatement(Operation *op) {
  auto call = dyn_cast<IntrinsicOp>(op);
  return call && call.getCallee() == "T.call_extern" &&
         (op->getNumResults() == 0 ||
          (op->getNumResults() == 1 && op->getResult(0).use_empty()));
}
