//===- SafeValues.cpp - T.annotate_safe_value's map -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/SafeValues.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinAttributes.h"

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

/// `T.annotate_padding({buf: v})` asks that reads of out-of-range elements
/// copied into buf give v. Every target's guarded copies give 0 there, so a
/// pad of 0 is honoured and any other value is refused where the program is
/// built, instead of a wrong answer.
static LogicalResult checkPadding(IntrinsicOp op) {
  for (auto [name, text] : mapEntries(op, "padding_map")) {
    double value;
    if (!text.getAsDouble(value) && value == 0)
      continue;
    return op.emitError()
           << "T.annotate_padding: a pad value other than 0 is not "
              "implemented yet ('"
           << name << "' padded with '" << text
           << "'): out-of-range elements would read 0";
  }
  return success();
}

FailureOr<llvm::DenseMap<Value, double>>
tlc::tile::collectSafeValues(Operation *scope, FuncOp func) {
  llvm::DenseMap<Value, double> values;
  Block &params = func.getBody().front();
  WalkResult w = scope->walk([&](IntrinsicOp op) {
    if (op.getCallee() == "T.annotate_padding")
      return failed(checkPadding(op)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
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
