//===- SafeValues.cpp - T.annotate_safe_value's map -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/SafeValues.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The entries of the map option \p key of \p op, printed by the evaluator
/// as `{A: 10, B: 0.5}`: (name, value text) pairs, trimmed.
static SmallVector<std::pair<StringRef, StringRef>> mapEntries(IntrinsicOp op,
                                                               StringRef key) {
  StringRef map;
  if (DictionaryAttr options = op.getOptionsAttr())
    if (auto s = options.getAs<StringAttr>(key))
      map = s.getValue();
  SmallVector<StringRef> entries;
  map.trim().trim("{}").split(entries, ',', -1, /*KeepEmpty=*/false);
  SmallVector<std::pair<StringRef, StringRef>> result;
  for (StringRef entry : entries) {
    auto [name, text] = entry.split(':');
    result.push_back({name.trim(), text.trim()});
  }
  return result;
}

FailureOr<llvm::DenseMap<Value, double>>
tlc::tile::collectSafeValues(Operation *scope, FuncOp func) {
  llvm::DenseMap<Value, double> values;
  Block &params = func.getBody().front();
  WalkResult w = scope->walk([&](IntrinsicOp op) {
    if (op.getCallee() != "T.annotate_safe_value")
      return WalkResult::advance();
    for (auto [name, text] : mapEntries(op, "safe_value_map")) {
      double value;
      if (text.getAsDouble(value)) {
        op.emitError() << "T.annotate_safe_value: the safe value of '" << name
                       << "' must be a number, not '" << text << "'";
        return WalkResult::interrupt();
      }
      Value arg;
      for (BlockArgument a : params.getArguments())
        if (auto n = dyn_cast<NameLoc>(a.getLoc());
            n && n.getName().getValue() == name)
          arg = a;
      if (!arg || !isa<BufferType>(arg.getType())) {
        op.emitError() << "T.annotate_safe_value: '" << name
                       << "' is not a tensor parameter of the kernel";
        return WalkResult::interrupt();
      }
      values[arg] = value;
    }
    return WalkResult::advance();
  });
  if (w.wasInterrupted())
    return failure();
  return values;
}

/// The root buffer \p v views (through tile.region and tile.view).
static Value viewedRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto r = dyn_cast<RegionOp>(def))
      v = r.getSource();
    else if (auto view = dyn_cast<ViewOp>(def))
      v = view.getSource();
    else
      break;
  }
  return v;
}

/// Records \p pad for every tile.load of global memory whose value flows
/// into \p value through element arithmetic (ops without regions).
static void padLoadsOf(Value value, double pad,
                       llvm::DenseMap<Operation *, double> &reads) {
  SmallVector<Value> work = {value};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getNumRegions() || !seen.insert(def).second)
      continue;
    if (auto load = dyn_cast<LoadOp>(def)) {
      auto t = cast<BufferType>(viewedRoot(load.getBuffer()).getType());
      if (t.getScope() == MemoryScope::Global)
        reads[def] = pad;
      continue;
    }
    for (Value v : def->getOperands())
      if (!isa<BufferType>(v.getType()))
        work.push_back(v);
  }
}

FailureOr<llvm::DenseMap<Operation *, double>>
tlc::tile::collectPaddedReads(Operation *scope) {
  // The padded buffers: allocations named in a padding map.
  llvm::DenseMap<Value, double> padded;
  WalkResult w = scope->walk([&](IntrinsicOp op) {
    if (op.getCallee() != "T.annotate_padding")
      return WalkResult::advance();
    for (auto [name, text] : mapEntries(op, "padding_map")) {
      double value;
      if (text.getAsDouble(value)) {
        op.emitError() << "T.annotate_padding: the pad value of '" << name
                       << "' must be a number, not '" << text << "'";
        return WalkResult::interrupt();
      }
      bool found = false;
      scope->walk([&](AllocOp alloc) {
        if (auto n = dyn_cast<NameLoc>(alloc.getLoc());
            n && n.getName().getValue() == name) {
          padded[alloc.getResult()] = value;
          found = true;
        }
      });
      if (!found) {
        op.emitError() << "T.annotate_padding: '" << name
                       << "' is not a buffer allocated in the kernel";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (w.wasInterrupted())
    return failure();
  llvm::DenseMap<Operation *, double> reads;
  if (padded.empty())
    return reads;
  scope->walk([&](Operation *op) {
    if (auto copy = dyn_cast<CopyOp>(op)) {
      auto pad = padded.find(viewedRoot(copy.getDst()));
      if (pad != padded.end())
        reads[op] = pad->second;
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      auto pad = padded.find(viewedRoot(store.getBuffer()));
      if (pad != padded.end())
        padLoadsOf(store.getValue(), pad->second, reads);
    }
  });
  return reads;
}
