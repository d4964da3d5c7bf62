//===- BufferEffects.cpp - What Tile ops read and write -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <climits>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

Value tlc::tile::getRootBuffer(Value buffer) {
  while (true) {
    if (auto region = buffer.getDefiningOp<RegionOp>())
      buffer = region.getSource();
    else if (auto view = buffer.getDefiningOp<ViewOp>())
      buffer = view.getSource();
    else
      return buffer;
  }
}

int64_t tlc::tile::getElementStorageBytes(Type t) {
  if (t.isIntOrFloat())
    return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
  if (isa<IndexType>(t))
    return 8;
  return 0;
}

MemoryScope tlc::tile::getScopeOf(Value buffer) {
  return cast<BufferType>(buffer.getType()).getScope();
}

BufferAccesses tlc::tile::getBufferAccesses(Operation *op,
                                            bool (*keep)(MemoryScope)) {
  BufferAccesses accesses;
  auto note = [&](Value buffer, bool write) {
    if (!isa<BufferType>(buffer.getType()))
      return;
    Value root = getRootBuffer(buffer);
    if (keep && !keep(getScopeOf(root)))
      return;
    (write ? accesses.writes : accesses.reads).insert(root);
  };
  op->walk([&](Operation *nested) {
    if (auto copy = dyn_cast<CopyOp>(nested)) {
      note(copy.getSrc(), false);
      note(copy.getDst(), true);
    } else if (auto load = dyn_cast<LoadOp>(nested)) {
      note(load.getBuffer(), false);
    } else if (auto store = dyn_cast<StoreOp>(nested)) {
      note(store.getBuffer(), true);
    } else if (auto fill = dyn_cast<FillOp>(nested)) {
      note(fill.getDst(), true);
    } else if (auto clear = dyn_cast<ClearOp>(nested)) {
      note(clear.getDst(), true);
    } else if (auto atomic = dyn_cast<AtomicAddOp>(nested)) {
      note(atomic.getDst(), true);
    } else if (auto gemm = dyn_cast<GemmOp>(nested)) {
      note(gemm.getA(), false);
      note(gemm.getB(), false);
      note(gemm.getC(), false);
      note(gemm.getC(), true);
    } else if (auto red = dyn_cast<ReduceOp>(nested)) {
      note(red.getSrc(), false);
      note(red.getDst(), true);
    } else if (auto cs = dyn_cast<CumSumOp>(nested)) {
      note(cs.getSrc(), false);
      note(cs.getDst(), true);
    } else if (isa<PrintOp>(nested) && nested->getNumOperands()) {
      note(nested->getOperand(0), false);
    } else if (isa<IntrinsicOp>(nested)) {
      // An instruction-like primitive may read or write any buffer it is
      // given.
      for (Value v : nested->getOperands()) {
        note(v, false);
        note(v, true);
      }
    }
  });
  return accesses;
}

StatementIndex tlc::tile::indexStatements(Block &body) {
  StatementIndex index;
  int n = 0;
  for (Operation &op : body)
    index[&op] = n++;
  return index;
}

int tlc::tile::getStatementOf(Block &body, Operation *op,
                              const StatementIndex &index) {
  for (; op; op = op->getParentOp())
    if (op->getBlock() == &body)
      return index.lookup(op);
  return -1;
}

std::optional<std::pair<int, int>>
tlc::tile::getLiveRange(Block &body, Value buffer,
                        const StatementIndex &index) {
  int first = INT_MAX, last = -1;
  SmallVector<Value, 4> work = {buffer};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      // Annotating a layout touches no memory.
      if (isa<AnnotateLayoutOp>(user))
        continue;
      int s = getStatementOf(body, user, index);
      if (s >= 0) {
        first = std::min(first, s);
        last = std::max(last, s);
      }
      if (isa<RegionOp, ViewOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  if (last < 0)
    return std::nullopt;
  return std::make_pair(first, last);
}

SmallVector<StringRef> tlc::tile::getUnboundTileParameters(FuncOp func) {
  SmallVector<StringRef> meta, used;
  if (ArrayAttr symbols = func.getSymbolsAttr())
    for (Attribute a : symbols)
      if (auto decl = dyn_cast<SymbolDeclAttr>(a))
        if (decl.getKind() == SymbolKind::Meta)
          meta.push_back(decl.getName().getValue());
  if (meta.empty())
    return used;
  llvm::SmallPtrSet<const void *, 4> seen;
  func.walk([&](AllocOp alloc) {
    auto type = cast<BufferType>(alloc.getType());
    if (type.getScope() == MemoryScope::Global)
      return;
    for (unsigned d = 0; d < type.getRank(); ++d) {
      Dim dim = type.getDim(d);
      if (!dim.isSymbolic())
        continue;
      // The extent's text names the symbols it is computed from.
      StringRef text = dim.getSymbol().getValue();
      for (StringRef name : meta) {
        size_t at = text.find(name);
        for (; at != StringRef::npos; at = text.find(name, at + 1)) {
          auto isIdent = [](char c) { return llvm::isAlnum(c) || c == '_'; };
          bool before = at > 0 && isIdent(text[at - 1]);
          bool after =
              at + name.size() < text.size() && isIdent(text[at + name.size()]);
          if (!before && !after)
            break;
        }
        if (at != StringRef::npos && seen.insert(name.data()).second)
          used.push_back(name);
      }
    }
  });
  llvm::sort(used, [&](StringRef a, StringRef b) {
    return llvm::find(meta, a) < llvm::find(meta, b);
  });
  return used;
}
