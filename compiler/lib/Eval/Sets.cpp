//===- Sets.cpp - Python set and frozenset values -------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Python's set and frozenset. A SetObj is CPython's open-addressing hash
// table (linear probes of 9, then perturbed jumps; dummies for removed
// entries; the same growth and rebuild rules), and set operations walk and
// fill tables in the order CPython's do. Iteration is table order, so a
// set iterates (prints, converts to a list) in CPython's order wherever
// tlc's hash of its elements is CPython's: ints, bools, floats, and tuples
// and frozensets of them. A str has a fixed hash here where CPython's is
// salted per process, so sets of strings iterate in some fixed order; None
// has the constant hash of CPython 3.12 (3.11 and older hash its address).
//
// A set display of more than two constants is what CPython compiles it to:
// a frozenset constant (built from the elements, then rebuilt from its own
// iteration order by the compiler's constant table) merged into a new set.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <optional>

using namespace tlc;
using namespace tlc::eval;
using syntax::BinaryOp;
using syntax::CmpOp;

using Entry = SetObj::Entry;

//===----------------------------------------------------------------------===//
// Hashes
//===----------------------------------------------------------------------===//

/// CPython's modulus for numeric hashes, 2**61 - 1.
static constexpr uint64_t kHashModulus = (uint64_t(1) << 61) - 1;
static constexpr int kHashBits = 61;

/// -1 is CPython's error code; a hash of -1 becomes -2.
static int64_t notMinusOne(int64_t h) { return h == -1 ? -2 : h; }

/// hash(int): the value modulo 2**61 - 1, with the value's sign.
static int64_t hashInt(int64_t v) {
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  mag %= kHashModulus;
  return notMinusOne(v < 0 ? -int64_t(mag) : int64_t(mag));
}

static int64_t hashBigInt(const llvm::APInt &v) {
  unsigned bits = std::max(v.getBitWidth() + 1, 64u);
  llvm::APInt x = v.sext(bits);
  bool negative = x.isNegative();
  if (negative)
    x.negate();
  uint64_t mag = x.urem(llvm::APInt(bits, kHashModulus)).getZExtValue();
  return notMinusOne(negative ? -int64_t(mag) : int64_t(mag));
}

/// hash(float): equal to the hash of an equal int; otherwise the value's
/// binary fraction reduced modulo 2**61 - 1 (CPython's _Py_HashDouble).
static int64_t hashFloat(double d) {
  if (std::isinf(d))
    return d > 0 ? 314159 : -314159;
  if (std::isnan(d))
    return 0; // CPython hashes the object's address.
  int e;
  double m = std::frexp(d, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m != 0) {
    x = ((x << 28) & kHashModulus) | x >> (kHashBits - 28);
    m *= 268435456.0; // 2**28
    e -= 28;
    uint64_t y = uint64_t(m);
    m -= double(y);
    x += y;
    if (x >= kHashModulus)
      x -= kHashModulus;
  }
  e = e >= 0 ? e % kHashBits : kHashBits - 1 - ((-1 - e) % kHashBits);
  x = ((x << e) & kHashModulus) | x >> (kHashBits - e);
  return notMinusOne(int64_t(x * uint64_t(int64_t(sign))));
}

/// hash(tuple) from its elements' hashes (CPython's xxHash-based combine).
static int64_t hashTuple(llvm::ArrayRef<int64_t> lanes) {
  const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL,
                 p5 = 2870177450012600261ULL;
  uint64_t acc = p5;
  for (int64_t lane : lanes) {
    acc += uint64_t(lane) * p2;
    acc = (acc << 31) | (acc >> 33);
    acc *= p1;
  }
  acc += uint64_t(lanes.size()) ^ (p5 ^ 3527539ULL);
  return acc == uint64_t(-1) ? 1546275796 : int64_t(acc);
}

/// hash(frozenset): independent of table layout (CPython's frozenset_hash).
static int64_t hashFrozenSet(const SetObj *s) {
  auto shuffle = [](uint64_t h) {
    return ((h ^ 89869747ULL) ^ (h << 16)) * 3644798167ULL;
  };
  uint64_t h = 0;
  for (const Entry &e : s->table)
    if (e.state == Entry::Active)
      h ^= shuffle(uint64_t(e.hash));
  h ^= (uint64_t(s->used) + 1) * 1927868237ULL;
  h ^= (h >> 11) ^ (h >> 25);
  h = h * 69069U + 907133923ULL;
  return h == uint64_t(-1) ? 590923713 : int64_t(h);
}

/// A fixed hash of a name, for values CPython hashes by address or salt.
static int64_t hashName(llvm::StringRef s) {
  if (s.empty())
    return 0;
  return notMinusOne(int64_t(llvm::xxh3_64bits(s)));
}

bool Interpreter::hashValue(Value v, int64_t &hash, Value &abrupt, Node at,
                            bool setAsFrozen) {
  switch (v.getKind()) {
  case ValueKind::Poison:
  case ValueKind::Exception:
    abrupt = v;
    return false;
  case ValueKind::Bool:
  case ValueKind::Int:
    hash = hashInt(v.getInt());
    return true;
  case ValueKind::BigInt:
    hash = hashBigInt(v.as<BigIntObj>()->value);
    return true;
  case ValueKind::Float:
    hash = hashFloat(v.getFloat());
    return true;
  case ValueKind::None:
    hash = 0xFCA86420;
    return true;
  case ValueKind::Str:
    hash = hashName(getStr(v));
    return true;
  case ValueKind::Tuple: {
    llvm::SmallVector<int64_t, 8> lanes;
    for (Value e : getElems(v)) {
      if (!hashValue(e, hash, abrupt, at))
        return false;
      lanes.push_back(hash);
    }
    hash = hashTuple(lanes);
    return true;
  }
  case ValueKind::Set:
    if (v.as<SetObj>()->frozen || setAsFrozen) {
      hash = hashFrozenSet(v.as<SetObj>());
      return true;
    }
    break;
  case ValueKind::List:
  case ValueKind::Dict:
  case ValueKind::Slice:
    break;
  case ValueKind::Range: {
    RangeObj *r = v.as<RangeObj>();
    hash = hashTuple({hashInt(r->start), hashInt(r->stop), hashInt(r->step)});
    return true;
  }
  case ValueKind::Sym:
  case ValueKind::Opaque:
    // Equal to values tlc does not know: no hash to place it by.
    abrupt = heap.opaque("set element");
    return false;
  case ValueKind::DType:
    hash = hashName(v.getDType().getName());
    return true;
  case ValueKind::Function:
    hash = hashName(v.as<FunctionObj>()->name);
    return true;
  case ValueKind::Buffer:
    hash = hashName(v.as<BufferObj>()->name);
    return true;
  case ValueKind::Primitive:
    hash = hashName(v.getPrimitive()->getCanonical().name);
    return true;
  case ValueKind::NativeFn:
    hash = int64_t(v.getNativeId()) + 1;
    return true;
  default:
    // Hashed by identity in CPython; one fixed hash keeps tlc's output
    // deterministic (equality still tells the elements apart).
    hash = int64_t(v.getKind()) + 1;
    return true;
  }
  abrupt = raiseDefinite("TypeError",
                         "unhashable type: '" + v.getTypeName() + "'", at);
  return false;
}

//===----------------------------------------------------------------------===//
// The table (CPython's setobject.c algorithms)
//===----------------------------------------------------------------------===//

namespace {
constexpr size_t kLinearProbes = 9;
constexpr unsigned kPerturbShift = 5;

/// Operations on SetObj tables; equality is the interpreter's.
struct Table {
  Interpreter &in;

  bool same(const Entry &e, Value key, int64_t hash) {
    return e.state == Entry::Active && e.hash == hash &&
           in.equals(e.key, key).value_or(false);
  }

  /// The slot holding \p key, or null.
  Entry *find(SetObj *s, Value key, int64_t hash) {
    size_t mask = s->mask(), i = size_t(hash) & mask;
    size_t perturb = size_t(hash);
    while (true) {
      size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (size_t j = 0; j <= probes; ++j) {
        Entry &e = s->table[i + j];
        if (e.state == Entry::Empty)
          return nullptr;
        if (same(e, key, hash))
          return &e;
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }

  /// Places \p key, known absent, in a table without dummies.
  static void insertClean(std::vector<Entry> &table, Value key,
                          int64_t hash) {
    size_t mask = table.size() - 1, i = size_t(hash) & mask;
    size_t perturb = size_t(hash);
    while (true) {
      size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (size_t j = 0; j <= probes; ++j)
        if (table[i + j].state == Entry::Empty) {
          table[i + j] = {key, hash, Entry::Active};
          return;
        }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }

  /// Rebuilds \p s with the smallest size above \p minUsed (at least 8),
  /// dropping dummies and keeping the old table's order of insertion.
  void resize(SetObj *s, size_t minUsed) {
    size_t size = 8;
    while (size <= minUsed)
      size <<= 1;
    std::vector<Entry> old = std::move(s->table);
    s->table.assign(size, Entry());
    in.heap.countBytes(size * sizeof(Entry));
    for (const Entry &e : old)
      if (e.state == Entry::Active)
        insertClean(s->table, e.key, e.hash);
    s->fill = s->used;
  }

  /// Adds \p key (set_add_entry).
  void add(SetObj *s, Value key, int64_t hash) {
    size_t mask = s->mask(), i = size_t(hash) & mask;
    size_t perturb = size_t(hash);
    Entry *freeSlot = nullptr;
    while (true) {
      size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (size_t j = 0; j <= probes; ++j) {
        Entry &e = s->table[i + j];
        if (e.state == Entry::Empty) {
          if (freeSlot) {
            *freeSlot = {key, hash, Entry::Active};
            ++s->used;
            return;
          }
          e = {key, hash, Entry::Active};
          ++s->fill;
          ++s->used;
          if (s->fill * 5 >= mask * 3)
            resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
          return;
        }
        if (same(e, key, hash))
          return;
        if (e.state == Entry::Dummy)
          freeSlot = &e;
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }

  /// Removes \p key; false when absent (set_discard_entry).
  bool discard(SetObj *s, Value key, int64_t hash) {
    Entry *e = find(s, key, hash);
    if (!e)
      return false;
    *e = {Value(), -1, Entry::Dummy};
    --s->used;
    return true;
  }

  void clear(SetObj *s) {
    s->table.assign(8, Entry());
    s->used = s->fill = 0;
  }

  /// Adds every element of set \p o to \p s (set_merge).
  void merge(SetObj *s, const SetObj *o) {
    if (o == s || o->used == 0)
      return;
    if ((s->fill + o->used) * 5 >= s->mask() * 3)
      resize(s, (s->used + o->used) * 2);
    if (s->fill == 0 && s->mask() == o->mask() && o->fill == o->used) {
      s->table = o->table;
      s->fill = o->fill;
      s->used = o->used;
      return;
    }
    if (s->fill == 0) {
      for (const Entry &e : o->table)
        if (e.state == Entry::Active)
          insertClean(s->table, e.key, e.hash);
      s->fill = s->used = o->used;
      return;
    }
    for (const Entry &e : o->table)
      if (e.state == Entry::Active)
        add(s, e.key, e.hash);
  }

  /// The active entries of \p s in table order (a copy: callers mutate).
  static llvm::SmallVector<Entry, 16> entries(const SetObj *s) {
    llvm::SmallVector<Entry, 16> out;
    for (const Entry &e : s->table)
      if (e.state == Entry::Active)
        out.push_back(e);
    return out;
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Building sets
//===----------------------------------------------------------------------===//

Value Interpreter::newSet(bool frozen) {
  auto *s = heap.make<SetObj>();
  s->frozen = frozen;
  heap.countBytes(s->table.size() * sizeof(Entry));
  return Value::object(ValueKind::Set, s);
}

Value Interpreter::setAdd(Value set, Value key, Node at) {
  int64_t hash;
  Value abrupt;
  if (!hashValue(key, hash, abrupt, at))
    return abrupt;
  Table{*this}.add(set.as<SetObj>(), key, hash);
  return Value::none();
}

Value Interpreter::setUpdate(Value set, Value other, Node at) {
  SetObj *s = set.as<SetObj>();
  Table t{*this};
  if (other.is(ValueKind::Set)) {
    t.merge(s, other.as<SetObj>());
    return Value::none();
  }
  if (other.is(ValueKind::Dict)) {
    auto &items = other.as<DictObj>()->items;
    llvm::SmallVector<std::pair<Value, int64_t>, 16> keyed;
    for (auto &kv : items) {
      int64_t hash;
      Value abrupt;
      if (!hashValue(kv.first, hash, abrupt, at))
        return abrupt;
      keyed.push_back({kv.first, hash});
    }
    if ((s->fill + keyed.size()) * 5 >= s->mask() * 3)
      t.resize(s, (s->used + keyed.size()) * 2);
    for (auto &[key, hash] : keyed)
      t.add(s, key, hash);
    return Value::none();
  }
  if (other.isAbrupt() || other.is(ValueKind::Opaque))
    return other.isAbrupt() ? other : heap.opaque("set");
  llvm::SmallVector<Value, 16> vals;
  if (!iterate(other, vals, at))
    return Value::exception();
  for (Value v : vals) {
    Value r = setAdd(set, v, at);
    if (r.isAbrupt())
      return r;
  }
  return Value::none();
}

Value Interpreter::makeSet(llvm::ArrayRef<Value> elems, Node at,
                           bool frozen) {
  Value s = newSet(frozen);
  for (Value v : elems) {
    Value r = setAdd(s, v, at);
    if (r.isAbrupt())
      return r;
  }
  return s;
}

Value Interpreter::setFrom(Value iterable, bool frozen, Node at) {
  if (frozen && iterable.is(ValueKind::Set) &&
      iterable.as<SetObj>()->frozen)
    return iterable;
  Value s = newSet(frozen);
  if (iterable.isPoison())
    return s;
  Value r = setUpdate(s, iterable, at);
  return r.isAbrupt() || r.is(ValueKind::Opaque) ? r : s;
}

/// True for what CPython's compiler folds to a constant: literals, signs
/// of numbers and tuples of constants.
static bool isFoldedConstant(Node n) {
  switch (n.kind()) {
  case NodeKind::Constant:
    return true;
  case NodeKind::UnaryOp:
    return n.child(Field::operand).kind() == NodeKind::Constant;
  case NodeKind::Tuple:
    return llvm::all_of(n.children(Field::elts), isFoldedConstant);
  default:
    return false;
  }
}

Value Interpreter::evalSetDisplay(Node n) {
  auto elts = n.children(Field::elts);
  size_t count = 0;
  bool constant = true;
  for (Node e : elts) {
    ++count;
    constant = constant && isFoldedConstant(e);
  }
  // `{1, 2, 3}` is `set().update(frozenset((1, 2, 3)))` in CPython.
  Value folded = constant && count > 2 ? newSet(true) : Value::poison();
  Value s = newSet(false);
  for (Node e : elts) {
    bool starred = e.kind() == NodeKind::Starred;
    Value v = eval(starred ? e.child(Field::value) : e);
    if (v.isAbrupt())
      return v;
    // Errors point at the display, as CPython's traceback does.
    Value r = starred ? setUpdate(s, v, n)
                      : setAdd(folded.isPoison() ? s : folded, v, n);
    if (r.isAbrupt() || r.is(ValueKind::Opaque))
      return r;
  }
  if (!folded.isPoison()) {
    // The compiler's constant table rebuilds the frozenset from its own
    // iteration order (which can move colliding elements).
    Value constant = newSet(true);
    Table t{*this};
    for (const Entry &e : Table::entries(folded.as<SetObj>()))
      t.add(constant.as<SetObj>(), e.key, e.hash);
    t.merge(s.as<SetObj>(), constant.as<SetObj>());
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Set algebra
//===----------------------------------------------------------------------===//

/// A copy of \p s with its type (set_copy).
static Value copySet(Interpreter &in, const SetObj *s, bool frozen) {
  Value r = in.newSet(frozen);
  Table{in}.merge(r.as<SetObj>(), s);
  return r;
}

/// \p v as a set: itself, or a new set of its elements (an exception or
/// opaque value in \p abrupt when it cannot be iterated).
static SetObj *asSet(Interpreter &in, Value v, Value &abrupt, Node at) {
  if (v.is(ValueKind::Set))
    return v.as<SetObj>();
  Value s = in.setFrom(v, false, at);
  if (!s.is(ValueKind::Set)) {
    abrupt = s;
    return nullptr;
  }
  return s.as<SetObj>();
}

/// Whether \p key is in \p s, or an abrupt value.
static Value contains(Interpreter &in, SetObj *s, Value key, Node at) {
  int64_t hash;
  Value abrupt;
  if (!in.hashValue(key, hash, abrupt, at, /*setAsFrozen=*/true))
    return abrupt;
  return Value::boolean(Table{in}.find(s, key, hash) != nullptr);
}

/// Calls \p fn with each element of the iterable \p other and its hash, in
/// iteration order. Returns what the caller returns instead when that
/// fails: an opaque set for an opaque iterable, the exception of iterating
/// or of hashing an element.
static std::optional<Value>
forEachHashed(Interpreter &in, Value other, Node at,
              llvm::function_ref<void(Value, int64_t)> fn) {
  if (other.is(ValueKind::Opaque))
    return in.heap.opaque("set");
  llvm::SmallVector<Value, 16> vals;
  if (!in.iterate(other, vals, at))
    return Value::exception();
  for (Value v : vals) {
    int64_t hash;
    Value abrupt;
    if (!in.hashValue(v, hash, abrupt, at))
      return abrupt;
    fn(v, hash);
  }
  return std::nullopt;
}

/// s & other (set_intersection): the elements of the smaller set (the
/// other one on a tie) found in the larger, in the smaller's order.
static Value intersect(Interpreter &in, SetObj *s, Value other, bool frozen,
                       Node at) {
  if (other.is(ValueKind::Set) && other.as<SetObj>() == s)
    return copySet(in, s, frozen);
  Value r = in.newSet(frozen);
  Table t{in};
  if (other.is(ValueKind::Set)) {
    SetObj *o = other.as<SetObj>();
    if (o->used > s->used)
      std::swap(s, o);
    for (const Entry &e : Table::entries(o))
      if (t.find(s, e.key, e.hash))
        t.add(r.as<SetObj>(), e.key, e.hash);
    return r;
  }
  if (std::optional<Value> failed =
          forEachHashed(in, other, at, [&](Value v, int64_t hash) {
            if (t.find(s, v, hash))
              t.add(r.as<SetObj>(), v, hash);
          }))
    return *failed;
  return r;
}

/// s -= other (set_difference_update_internal).
static Value differenceUpdate(Interpreter &in, SetObj *s, Value other,
                              Node at) {
  Table t{in};
  if (other.is(ValueKind::Set) && other.as<SetObj>() == s) {
    t.clear(s);
    return Value::none();
  }
  if (other.is(ValueKind::Set)) {
    SetObj *o = other.as<SetObj>();
    Value small = other;
    if ((o->used >> 3) > s->used)
      small = intersect(in, s, other, false, at);
    for (const Entry &e : Table::entries(small.as<SetObj>()))
      t.discard(s, e.key, e.hash);
  } else if (std::optional<Value> failed =
                 forEachHashed(in, other, at, [&](Value v, int64_t hash) {
                   t.discard(s, v, hash);
                 })) {
    return *failed;
  }
  // More than a quarter dummies: rebuild.
  if (s->fill - s->used > s->mask() / 4)
    t.resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
  return Value::none();
}

/// s - other (set_difference).
static Value difference(Interpreter &in, SetObj *s, Value other, bool frozen,
                        Node at) {
  size_t otherSize;
  if (other.is(ValueKind::Set))
    otherSize = other.as<SetObj>()->used;
  else if (other.is(ValueKind::Dict))
    otherSize = other.as<DictObj>()->items.size();
  else
    otherSize = 0;
  if ((!other.is(ValueKind::Set) && !other.is(ValueKind::Dict)) ||
      (s->used >> 2) > otherSize) {
    Value r = copySet(in, s, frozen);
    Value u = differenceUpdate(in, r.as<SetObj>(), other, at);
    return u.isAbrupt() || u.is(ValueKind::Opaque) ? u : r;
  }
  Value abrupt;
  SetObj *o = asSet(in, other, abrupt, at);
  if (!o)
    return abrupt;
  Value r = in.newSet(frozen);
  Table t{in};
  for (const Entry &e : Table::entries(s))
    if (!t.find(o, e.key, e.hash))
      t.add(r.as<SetObj>(), e.key, e.hash);
  return r;
}

/// s ^= other (set_symmetric_difference_update).
static Value symmetricUpdate(Interpreter &in, SetObj *s, Value other,
                             Node at) {
  Table t{in};
  if (other.is(ValueKind::Set) && other.as<SetObj>() == s) {
    t.clear(s);
    return Value::none();
  }
  llvm::SmallVector<Entry, 16> items;
  if (other.is(ValueKind::Dict)) {
    for (auto &kv : other.as<DictObj>()->items) {
      int64_t hash;
      Value abrupt;
      if (!in.hashValue(kv.first, hash, abrupt, at))
        return abrupt;
      items.push_back({kv.first, hash, Entry::Active});
    }
  } else {
    Value abrupt;
    SetObj *o = other.is(ValueKind::Set)
                    ? other.as<SetObj>()
                    : asSet(in, other, abrupt, at);
    if (!o)
      return abrupt;
    items = Table::entries(o);
  }
  for (const Entry &e : items)
    if (!t.discard(s, e.key, e.hash))
      t.add(s, e.key, e.hash);
  return Value::none();
}

/// s <= other (set_issubset) with \p other a set.
static bool isSubset(Interpreter &in, SetObj *s, SetObj *o) {
  if (s->used > o->used)
    return false;
  Table t{in};
  for (const Entry &e : Table::entries(s))
    if (!t.find(o, e.key, e.hash))
      return false;
  return true;
}

bool Interpreter::setEquals(Value a, Value b) {
  SetObj *s = a.as<SetObj>(), *o = b.as<SetObj>();
  return s->used == o->used && isSubset(*this, s, o);
}

Value Interpreter::setBinary(BinaryOp op, Value l, Value r, Node at) {
  SetObj *s = l.as<SetObj>();
  bool frozen = s->frozen;
  switch (op) {
  case BinaryOp::BitOr: {
    Value res = copySet(*this, s, frozen);
    if (r.as<SetObj>() != s)
      Table{*this}.merge(res.as<SetObj>(), r.as<SetObj>());
    return res;
  }
  case BinaryOp::BitAnd:
    return intersect(*this, s, r, frozen, at);
  case BinaryOp::Sub:
    return difference(*this, s, r, frozen, at);
  case BinaryOp::BitXor: {
    Value res = copySet(*this, r.as<SetObj>(), frozen);
    Value u = symmetricUpdate(*this, res.as<SetObj>(), l, at);
    return u.isAbrupt() ? u : res;
  }
  default:
    return Value::poison();
  }
}

Value Interpreter::setInPlace(BinaryOp op, Value l, Value r, Node at) {
  SetObj *s = l.as<SetObj>();
  Value u;
  switch (op) {
  case BinaryOp::BitOr:
    u = setUpdate(l, r, at);
    break;
  case BinaryOp::Sub:
    u = differenceUpdate(*this, s, r, at);
    break;
  case BinaryOp::BitXor:
    u = symmetricUpdate(*this, s, r, at);
    break;
  case BinaryOp::BitAnd: {
    Value res = intersect(*this, s, r, false, at);
    if (!res.is(ValueKind::Set))
      return res;
    SetObj *n = res.as<SetObj>();
    std::swap(s->table, n->table);
    s->used = n->used;
    s->fill = n->fill;
    break;
  }
  default:
    return Value::poison();
  }
  return u.isAbrupt() ? u : l;
}

Value Interpreter::setCompare(CmpOp op, Value l, Value r, Node at) {
  SetObj *s = l.as<SetObj>(), *o = r.as<SetObj>();
  switch (op) {
  case CmpOp::Lt:
    return Value::boolean(s->used < o->used && isSubset(*this, s, o));
  case CmpOp::LtE:
    return Value::boolean(isSubset(*this, s, o));
  case CmpOp::Gt:
    return Value::boolean(s->used > o->used && isSubset(*this, o, s));
  default:
    return Value::boolean(isSubset(*this, o, s));
  }
}

Value Interpreter::setContains(Value set, Value key, Node at) {
  return contains(*this, set.as<SetObj>(), key, at);
}

//===----------------------------------------------------------------------===//
// Methods
//===----------------------------------------------------------------------===//

Value Interpreter::callSetMethod(NativeId id, Value self, CallArgs &args,
                                 llvm::StringRef name, Node at) {
  SetObj *s = self.as<SetObj>();
  Value a0 = args.positional(0);
  size_t n = args.pos.size();
  auto arity = [&](size_t want) -> bool {
    if (n == want)
      return true;
    raiseDefinite("TypeError",
                  name + "() takes exactly " + llvm::Twine(want) +
                      " argument" + (want == 1 ? "" : "s") + " (" +
                      llvm::Twine(n) + " given)",
                  at);
    return false;
  };
  bool mutating = id == NativeId::SetAdd || id == NativeId::SetDiscard ||
                  id == NativeId::SetRemove || id == NativeId::ListPop ||
                  id == NativeId::SetClear || id == NativeId::DictUpdate ||
                  id == NativeId::SetIntersectionUpdate ||
                  id == NativeId::SetDifferenceUpdate ||
                  id == NativeId::SetSymmetricDifferenceUpdate;
  if (s->frozen && mutating)
    return raise("AttributeError",
                 "'frozenset' object has no attribute '" + name + "'", at);
  Table t{*this};
  switch (id) {
  case NativeId::SetAdd:
    if (!arity(1))
      return Value::exception();
    return setAdd(self, a0, at);
  case NativeId::SetDiscard:
  case NativeId::SetRemove: {
    if (!arity(1))
      return Value::exception();
    int64_t hash;
    Value abrupt;
    if (!hashValue(a0, hash, abrupt, at, /*setAsFrozen=*/true))
      return abrupt;
    if (!t.discard(s, a0, hash) && id == NativeId::SetRemove)
      return raiseDefinite("KeyError", toString(a0, true), at);
    return Value::none();
  }
  case NativeId::ListPop: {
    if (!arity(0))
      return Value::exception();
    if (s->used == 0)
      return raiseDefinite("KeyError", "'pop from an empty set'", at);
    size_t i = s->finger & s->mask();
    while (s->table[i].state != Entry::Active)
      i = (i + 1) & s->mask();
    Value key = s->table[i].key;
    s->table[i] = {Value(), -1, Entry::Dummy};
    --s->used;
    s->finger = i + 1;
    return key;
  }
  case NativeId::SetClear:
    t.clear(s);
    return Value::none();
  case NativeId::DictCopy:
    return s->frozen ? self : copySet(*this, s, false);
  case NativeId::DictUpdate:
  case NativeId::SetUnion: {
    Value res = id == NativeId::DictUpdate ? self : copySet(*this, s, s->frozen);
    for (Value o : args.pos) {
      if (o.is(ValueKind::Set) && o.as<SetObj>() == s)
        continue;
      Value u = setUpdate(res, o, at);
      if (u.isAbrupt() || u.is(ValueKind::Opaque))
        return u;
    }
    return id == NativeId::DictUpdate ? Value::none() : res;
  }
  case NativeId::SetIntersection:
  case NativeId::SetIntersectionUpdate: {
    Value res = n == 0 ? copySet(*this, s, s->frozen) : self;
    for (Value o : args.pos) {
      res = intersect(*this, res.as<SetObj>(), o, s->frozen, at);
      if (!res.is(ValueKind::Set))
        return res;
    }
    if (id == NativeId::SetIntersection)
      return res;
    std::swap(s->table, res.as<SetObj>()->table);
    s->used = res.as<SetObj>()->used;
    s->fill = res.as<SetObj>()->fill;
    return Value::none();
  }
  case NativeId::SetDifference: {
    if (n == 0)
      return copySet(*this, s, s->frozen);
    Value res = difference(*this, s, a0, s->frozen, at);
    for (size_t i = 1; i < n && res.is(ValueKind::Set); ++i) {
      Value u = differenceUpdate(*this, res.as<SetObj>(), args.pos[i], at);
      if (u.isAbrupt() || u.is(ValueKind::Opaque))
        return u;
    }
    return res;
  }
  case NativeId::SetDifferenceUpdate:
    for (Value o : args.pos) {
      Value u = differenceUpdate(*this, s, o, at);
      if (u.isAbrupt() || u.is(ValueKind::Opaque))
        return u;
    }
    return Value::none();
  case NativeId::SetSymmetricDifference:
  case NativeId::SetSymmetricDifferenceUpdate: {
    if (!arity(1))
      return Value::exception();
    if (id == NativeId::SetSymmetricDifferenceUpdate)
      return symmetricUpdate(*this, s, a0, at);
    // A new set (of self's type) of the argument, updated with self.
    Value res = newSet(s->frozen);
    Value u = setUpdate(res, a0, at);
    if (u.isAbrupt() || u.is(ValueKind::Opaque))
      return u;
    u = symmetricUpdate(*this, res.as<SetObj>(), self, at);
    return u.isAbrupt() ? u : res;
  }
  case NativeId::SetIsSubset:
  case NativeId::SetIsSuperset:
  case NativeId::SetIsDisjoint: {
    if (!arity(1))
      return Value::exception();
    Value abrupt;
    SetObj *o = asSet(*this, a0, abrupt, at);
    if (!o)
      return abrupt;
    if (id == NativeId::SetIsSubset)
      return Value::boolean(isSubset(*this, s, o));
    if (id == NativeId::SetIsSuperset)
      return Value::boolean(isSubset(*this, o, s));
    SetObj *small = s->used <= o->used ? s : o, *big = small == s ? o : s;
    for (const Entry &e : Table::entries(small))
      if (t.find(big, e.key, e.hash))
        return Value::boolean(false);
    return Value::boolean(true);
  }
  default:
    return raise("AttributeError",
                 "'" + self.getTypeName() + "' object has no attribute '" +
                     name + "'",
                 at);
  }
}
