//===- BufferEffects.cpp - What Tile ops read and write -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <climits>
#include <map>

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

ArrayAttr tlc::tile::getParamStrides(Value buffer) {
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg)
    return {};
  auto func = dyn_cast_or_null<FuncOp>(arg.getOwner()->getParentOp());
  if (!func || arg.getArgNumber() >= func.getNumArguments())
    return {};
  return func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), "tile.strides");
}

std::optional<SmallVector<int64_t>> tlc::tile::getStaticStrides(Value buffer) {
  Value root = getRootBuffer(buffer);
  SmallVector<int64_t> strides;
  if (ArrayAttr attr = getParamStrides(root)) {
    for (Attribute a : attr) {
      auto i = dyn_cast<IntegerAttr>(a);
      if (!i)
        return std::nullopt;
      strides.push_back(i.getInt());
    }
    return strides;
  }
  auto type = cast<BufferType>(root.getType());
  if (!type.isStatic())
    return std::nullopt;
  strides.assign(type.getRank(), 1);
  for (int d = int(type.getRank()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getShape()[d + 1];
  return strides;
}

bool tlc::tile::hasUnitInnerStride(Value buffer) {
  ArrayAttr attr = getParamStrides(getRootBuffer(buffer));
  if (!attr || attr.empty())
    return true;
  auto last = dyn_cast<IntegerAttr>(attr[attr.size() - 1]);
  return last && last.getInt() == 1;
}

int64_t tlc::tile::getElementStorageBytes(Type t) {
  if (t.isIntOrFloat())
    return std::max<int64_t>(1, getElementBitWidth(t) / 8);
  if (isa<IndexType>(t))
    return 8;
  return 0;
}

bool tlc::tile::isPackedNibble(Type t) {
  return isa<Float4E2M1FNType>(t) || t.isInteger(4);
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
    } else if (auto in = dyn_cast<IntrinsicOp>(nested);
               in && in.getCallee() == "T.access_ptr") {
      // TVM's access_ptr: its rw mask says what the pointer is used for
      // ("r", "w", "rw"); no mask, either.
      StringRef mask;
      if (DictionaryAttr d = in.getOptionsAttr())
        if (auto m = d.getAs<StringAttr>("access_type"))
          mask = m.getValue();
      bool r = mask.contains('r'), w = mask.contains('w');
      for (Value v : nested->getOperands()) {
        if (r || !w)
          note(v, false);
        if (w || !r)
          note(v, true);
      }
    } else if (auto in = dyn_cast<IntrinsicOp>(nested);
               in && in.getCallee() == "T.im2col" && in.getArgs().size() > 1) {
      // Reads the image, writes the tile (tile-lower-im2col).
      note(in.getArgs()[0], false);
      note(in.getArgs()[1], true);
      for (Value v : in.getArgs().drop_front(2))
        note(v, false);
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

//===----------------------------------------------------------------------===//
// Dead shared buffers
//===----------------------------------------------------------------------===//

namespace {
/// What a statement does first to a buffer's contents, as far as the
/// statements after it care: nothing they can tell (None: not touched, a
/// partial write, or a loop that may not run), a whole write (Kill), or a
/// read (Use: the old contents matter).
enum class FirstAccess { None, Kill, Use };

/// The buffer and every region / view of it.
struct Aliases {
  Value root;
  llvm::SmallPtrSet<Value, 8> values;
  explicit Aliases(Value buffer) : root(buffer) {
    SmallVector<Value, 4> work = {buffer};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (!values.insert(v).second)
        continue;
      for (Operation *user : v.getUsers())
        if (isa<RegionOp, ViewOp>(user))
          work.push_back(user->getResult(0));
    }
  }
  bool usedBy(Operation *op) const {
    return llvm::any_of(op->getOperands(),
                        [&](Value v) { return values.contains(v); });
  }
};
} // namespace

static FirstAccess firstAccessOf(Operation *op, const Aliases &a);

/// The first access of the statements [\p begin, \p end) of one block.
static FirstAccess firstAccessIn(Block::iterator begin, Block::iterator end,
                                 const Aliases &a) {
  for (Operation &op : llvm::make_range(begin, end))
    if (FirstAccess f = firstAccessOf(&op, a); f != FirstAccess::None)
      return f;
  return FirstAccess::None;
}

static FirstAccess firstAccessIn(Region &region, const Aliases &a) {
  if (region.empty())
    return FirstAccess::None;
  Block &b = region.front();
  return firstAccessIn(b.begin(), b.end(), a);
}

static FirstAccess firstAccessOf(Operation *op, const Aliases &a) {
  if (isa<AnnotateLayoutOp, RegionOp, ViewOp>(op))
    return FirstAccess::None;
  if (isa<ForOp, PipelinedOp>(op)) {
    if (a.usedBy(op))
      return FirstAccess::Use;
    // A loop whose body writes the buffer whole before reading it leaves
    // the decision to what follows (it may run no iteration).
    return firstAccessIn(op->getRegion(0), a) == FirstAccess::Use
               ? FirstAccess::Use
               : FirstAccess::None;
  }
  if (auto ifOp = dyn_cast<IfOp>(op)) {
    FirstAccess t = firstAccessIn(ifOp.getThenRegion(), a);
    FirstAccess e = firstAccessIn(ifOp.getElseRegion(), a);
    if (t == FirstAccess::Use || e == FirstAccess::Use)
      return FirstAccess::Use;
    return t == FirstAccess::Kill && e == FirstAccess::Kill ? FirstAccess::Kill
                                                            : FirstAccess::None;
  }
  if (op->getNumRegions()) {
    // Anything else with a body: a read anywhere inside is a read.
    bool used = a.usedBy(op);
    op->walk([&](Operation *inner) {
      if (inner != op && inner->getNumRegions() == 0 &&
          firstAccessOf(inner, a) == FirstAccess::Use)
        used = true;
    });
    return used ? FirstAccess::Use : FirstAccess::None;
  }
  if (!a.usedBy(op))
    return FirstAccess::None;
  if (auto copy = dyn_cast<CopyOp>(op)) {
    if (a.values.contains(copy.getSrc()))
      return FirstAccess::Use;
    return copy.getDst() == a.root ? FirstAccess::Kill : FirstAccess::None;
  }
  if (auto fill = dyn_cast<FillOp>(op))
    return fill.getDst() == a.root ? FirstAccess::Kill : FirstAccess::None;
  if (auto clear = dyn_cast<ClearOp>(op))
    return clear.getDst() == a.root ? FirstAccess::Kill : FirstAccess::None;
  if (isa<StoreOp>(op))
    return FirstAccess::None; // a partial write
  return FirstAccess::Use;
}

bool tlc::tile::isBufferDeadAt(Block &kernelBody, Value buffer, Operation *at) {
  Aliases a(buffer);
  bool touched = a.usedBy(at);
  at->walk([&](Operation *inner) { touched |= a.usedBy(inner); });
  if (touched)
    return false;
  for (Operation *cur = at;;) {
    Block *block = cur->getBlock();
    if (!block)
      return false;
    FirstAccess after =
        firstAccessIn(std::next(Block::iterator(cur)), block->end(), a);
    if (after != FirstAccess::None)
      return after == FirstAccess::Kill;
    if (block == &kernelBody)
      return true; // the kernel ends
    Operation *parent = block->getParentOp();
    if (!parent || a.usedBy(parent))
      return false;
    if (isa<ForOp, PipelinedOp>(parent)) {
      // The next iteration runs the block again up to `cur`.
      if (firstAccessIn(block->begin(), std::next(Block::iterator(cur)), a) ==
          FirstAccess::Use)
        return false;
    } else if (!isa<IfOp>(parent)) {
      // A region the analysis does not model (a while loop's condition and
      // body, T.Parallel): dead only if nothing in it reads the buffer.
      if (firstAccessOf(parent, a) == FirstAccess::Use)
        return false;
    }
    cur = parent;
  }
}

//===----------------------------------------------------------------------===//
// Nested live ranges
//===----------------------------------------------------------------------===//

NestedLiveRange tlc::tile::getNestedLiveRange(Block &body, Value buffer) {
  Aliases a(buffer);
  SmallVector<Operation *> users;
  for (Value v : a.values)
    for (Operation *user : v.getUsers())
      if (!isa<AnnotateLayoutOp, RegionOp, ViewOp>(user))
        users.push_back(user);
  NestedLiveRange range;
  if (users.empty())
    return range;
  Block *block = &body;
  while (true) {
    // The statement of `block` holding each use.
    int first = INT_MAX, last = -1;
    Operation *holder = nullptr;
    for (Operation *user : users) {
      Operation *op = user;
      while (op && op->getBlock() != block)
        op = op->getParentOp();
      if (!op)
        return {}; // a use outside the kernel body: not modelled
      int pos = 0;
      for (Operation &o : *block) {
        if (&o == op)
          break;
        ++pos;
      }
      first = std::min(first, pos);
      last = std::max(last, pos);
      holder = op;
    }
    range.push_back({block, first, last});
    if (first != last || a.usedBy(holder))
      return range;
    Block *inner = nullptr;
    if (isa<ForOp>(holder)) {
      if (firstAccessIn(holder->getRegion(0), a) == FirstAccess::Use)
        return range;
      inner = &holder->getRegion(0).front();
    } else if (auto ifOp = dyn_cast<IfOp>(holder)) {
      for (Region *r : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        if (r->empty())
          continue;
        if (llvm::all_of(users, [&](Operation *u) {
              return r->isAncestor(u->getParentRegion());
            }))
          inner = &r->front();
      }
    }
    if (!inner)
      return range;
    block = inner;
  }
}

bool tlc::tile::nestedLiveRangesOverlap(ArrayRef<LiveLevel> a,
                                        ArrayRef<LiveLevel> b) {
  if (a.empty() || b.empty())
    return false;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i].block != b[i].block)
      return false; // two branches of one tile.if
    if (a[i].last < b[i].first || b[i].last < a[i].first)
      return false;
    if (i + 1 == a.size() || i + 1 == b.size())
      return true;
  }
  return true;
}

/// getNestedLivePeak over the ranges whose level \p depth is in one block.
static int64_t
nestedPeak(unsigned depth,
           ArrayRef<std::pair<const NestedLiveRange *, int64_t>> ranges) {
  auto add = [](int64_t x, int64_t y) {
    int64_t r;
    return llvm::AddOverflow(x, y, r) ? INT64_MAX : r;
  };
  int size = 0;
  for (auto &[r, bytes] : ranges)
    size = std::max(size, (*r)[depth].last + 1);
  std::vector<int64_t> base(size, 0);
  // Deeper ranges by statement, then by the block they continue in.
  std::map<int, llvm::MapVector<
                    Block *,
                    SmallVector<std::pair<const NestedLiveRange *, int64_t>>>>
      deeper;
  for (auto &[r, bytes] : ranges) {
    const LiveLevel &l = (*r)[depth];
    if (depth + 1 == r->size()) {
      for (int s = l.first; s <= l.last; ++s)
        base[s] = add(base[s], bytes);
    } else {
      deeper[l.first][(*r)[depth + 1].block].push_back({r, bytes});
    }
  }
  int64_t most = 0;
  for (int s = 0; s < size; ++s) {
    int64_t inner = 0;
    auto it = deeper.find(s);
    if (it != deeper.end())
      for (auto &[block, group] : it->second)
        inner = std::max(inner, nestedPeak(depth + 1, group));
    most = std::max(most, add(base[s], inner));
  }
  return most;
}

int64_t tlc::tile::getNestedLivePeak(
    ArrayRef<std::pair<const NestedLiveRange *, int64_t>> ranges) {
  SmallVector<std::pair<const NestedLiveRange *, int64_t>> used;
  for (auto &p : ranges)
    if (!p.first->empty())
      used.push_back(p);
  return used.empty() ? 0 : nestedPeak(0, used);
}
