//===- FragmentMethods.cpp - Methods of T.Fragment values ----------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The methods of TileLang's `tilelang.layout.Fragment` that programs call
// at trace time, on layout values (LayoutObj):
//
//   repeat(repeats, repeat_on_thread=False, lower_dim_first=True)
//   replicate(replicate)
//   condense_rep_var()
//   get_thread_size()
//   bind_thread_range(begin, extent)
//   map_forward_thread(indices)  (LayoutIndexMaps.cpp)
//
// Each result is a new layout value; a fragment tlc could not evaluate
// (opaque) gives an opaque result carrying the reason. A plain T.Layout
// has none of these methods (AttributeError, as in TileLang); the methods
// both have (Layout's) are in LayoutMethods.cpp.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/IndexExpr.h"

#include <map>

using namespace tlc;
using namespace tlc::eval;

/// The Fragment methods by attribute name.
static std::optional<NativeId> fragmentMethod(llvm::StringRef attr) {
  return llvm::StringSwitch<std::optional<NativeId>>(attr)
      .Case("repeat", NativeId::FragRepeat)
      .Case("replicate", NativeId::FragReplicate)
      .Case("condense_rep_var", NativeId::FragCondenseRepVar)
      .Case("get_thread_size", NativeId::FragGetThreadSize)
      .Case("bind_thread_range", NativeId::FragBindThreadRange)
      .Case("map_forward_thread", NativeId::FragMapForwardThread)
      .Default(std::nullopt);
}

/// True when \p lo is a fragment (evaluated or not) rather than a layout.
static bool isFragmentValue(const LayoutObj *lo) {
  if (lo->attr)
    return tile::decodeFragment(lo->attr).has_value();
  return llvm::StringRef(lo->description).contains_insensitive("fragment");
}

/// The Layout methods (LayoutMethods.cpp) by attribute name; a Fragment
/// has them too, but its own `repeat`.
static std::optional<NativeId> layoutMethod(llvm::StringRef attr) {
  return llvm::StringSwitch<std::optional<NativeId>>(attr)
      .Case("repeat", NativeId::LayoutRepeat)
      .Case("is_equal", NativeId::LayoutIsEqual)
      .Case("get_input_shape", NativeId::LayoutGetInputShape)
      .Case("get_output_shape", NativeId::LayoutGetOutputShape)
      .Case("inverse", NativeId::LayoutInverse)
      .Case("map_forward_index", NativeId::LayoutMapForwardIndex)
      .Case("get_forward_vars", NativeId::LayoutGetForwardVars)
      .Case("get_forward_index", NativeId::LayoutGetForwardIndex)
      .Case("expand", NativeId::LayoutExpand)
      .Case("reshape", NativeId::LayoutReshape)
      .Default(std::nullopt);
}

Value Interpreter::layoutAttr(Value obj, llvm::StringRef attr, Node at) {
  auto *lo = obj.as<LayoutObj>();
  // The properties: `index` (both) and a fragment's `thread`.
  if (attr == "index") {
    CallArgs args;
    args.pos.push_back(obj);
    args.posNodes.push_back(at);
    return callLayoutMapMethod(NativeId::LayoutGetForwardIndex, args, at);
  }
  if (attr == "thread") {
    if (!isFragmentValue(lo))
      return raise("AttributeError",
                   "'Layout' object has no attribute 'thread' (it is a "
                   "property of Fragment)",
                   at);
    return fragmentThread(obj, at);
  }
  std::optional<NativeId> id = fragmentMethod(attr);
  if (!id || !isFragmentValue(lo))
    if (std::optional<NativeId> l = layoutMethod(attr))
      id = l;
  if (!id)
    return heap.opaque("attribute");
  if (!isFragmentValue(lo) && fragmentMethod(attr) == id)
    return raise("AttributeError",
                 "'Layout' object has no attribute '" + attr +
                     "' (it is a method of Fragment)",
                 at);
  auto *part = heap.make<PartialObj>();
  part->fn = Value::native(uint32_t(*id));
  part->args.push_back(obj);
  return heap.obj(ObjKind::Partial, part);
}

namespace {
/// One call of a Fragment method: its receiver and arguments.
struct FragmentCall {
  Interpreter &in;
  CallArgs &args;
  Node at;
  LayoutObj *self;
  llvm::StringRef name;

  /// Argument \p i (after the receiver) or keyword \p kw.
  const Value *arg(unsigned i, llvm::StringRef kw) const {
    if (const Value *v = args.keyword(kw))
      return v;
    return i + 1 < args.pos.size() ? &args.pos[i + 1] : nullptr;
  }
  /// Where argument \p i / keyword \p kw was written (the call otherwise).
  Node node(unsigned i, llvm::StringRef kw) const {
    for (size_t k = 0; k < args.kw.size(); ++k)
      if (args.kw[k].first == kw && k < args.kwNodes.size())
        return args.kwNodes[k];
    return i + 1 < args.posNodes.size() ? args.posNodes[i + 1] : at;
  }
  /// Rejects arguments beyond \p count and unknown keywords.
  bool checkArity(unsigned count, llvm::ArrayRef<llvm::StringRef> kws) {
    if (args.pos.size() > count + 1) {
      in.raise("TypeError",
               "Fragment." + name + "() takes " + llvm::Twine(count) +
                   " positional argument" + (count == 1 ? "" : "s") +
                   " but " + llvm::Twine(args.pos.size() - 1) +
                   " were given",
               at);
      return false;
    }
    for (size_t k = 0; k < args.kw.size(); ++k)
      if (!llvm::is_contained(kws, args.kw[k].first)) {
        in.raise("TypeError",
                 "Fragment." + name +
                     "() got an unexpected keyword argument '" +
                     args.kw[k].first + "'",
                 k < args.kwNodes.size() ? args.kwNodes[k] : at);
        return false;
      }
    return true;
  }
  /// A new layout value for \p f (keeping the receiver's description).
  Value make(const layout::Fragment &f) {
    auto *o = in.heap.make<LayoutObj>();
    o->description = self->description;
    o->attr = tile::encodeFragment(&in.mlirContext, f);
    return in.heap.obj(ObjKind::Layout, o);
  }
  /// An opaque result: the receiver was not evaluated.
  Value opaque() {
    auto *o = in.heap.make<LayoutObj>();
    o->description = self->description;
    o->whyOpaque = self->whyOpaque.empty()
                       ? ("made by Fragment." + name + "() of a " +
                          self->description +
                          " whose map depends on the buffer and target")
                             .str()
                       : self->whyOpaque;
    return in.heap.obj(ObjKind::Layout, o);
  }
};
} // namespace

/// `repeat(repeats, repeat_on_thread, lower_dim_first)`: dimension d of the
/// result is repeats[d] copies of dimension d; the copy number (the lowest
/// dimension varying fastest when lower_dim_first) moves to new threads or
/// new registers.
static Value fragRepeat(FragmentCall &c, const layout::Fragment &f) {
  const Value *reps = c.arg(0, "repeats");
  if (!reps)
    return c.in.raise("TypeError",
                      "Fragment.repeat() missing 1 required positional "
                      "argument: 'repeats'",
                      c.at);
  Node repsAt = c.node(0, "repeats");
  llvm::SmallVector<Value, 4> elems;
  if (reps->isSequence())
    elems.append(getElems(*reps).begin(), getElems(*reps).end());
  else
    elems.push_back(*reps);
  unsigned rank = f.getInputRank();
  if (elems.size() != rank)
    return c.in.fail(repsAt, "Fragment.repeat needs one repeat count per "
                             "dimension: the fragment has " +
                                 llvm::Twine(rank) + ", got " +
                                 llvm::Twine(elems.size()));
  std::vector<int64_t> counts;
  for (Value v : elems) {
    if (v.isAbrupt())
      return v;
    if (!v.isInt() || v.getInt() < 1)
      return c.in.fail(repsAt, "Fragment.repeat counts must be positive "
                               "integers, got " +
                                   c.in.toString(v, true));
    counts.push_back(v.getInt());
  }
  bool onThread = false, lowerFirst = true;
  if (const Value *v = c.arg(1, "repeat_on_thread"))
    onThread = c.in.truth(*v, c.node(1, "repeat_on_thread")) == Truth::True;
  if (const Value *v = c.arg(2, "lower_dim_first"))
    lowerFirst = c.in.truth(*v, c.node(2, "lower_dim_first")) != Truth::False;
  if (!onThread && f.getForwardIndex().size() != 1)
    return c.in.fail(c.at, "Fragment.repeat on registers needs a fragment "
                           "with one register index; this one has " +
                               llvm::Twine(f.getForwardIndex().size()));
  int64_t total = 1;
  for (int64_t d : f.getInputShape())
    total *= d;
  for (int64_t n : counts)
    if (llvm::MulOverflow(total, n, total) ||
        total > layout::kMaxEnumeratedInputs)
      return c.in.fail(repsAt, "Fragment.repeat gives more than " +
                                   llvm::Twine(layout::kMaxEnumeratedInputs) +
                                   " elements, more than tlc checks a "
                                   "fragment on");
  // Repeating one dimension at a time in the order in which the copy
  // number's digits grow (fastest first) composes to the mixed-radix copy
  // number of all dimensions at once.
  layout::Fragment r = f;
  for (unsigned k = 0; k < rank; ++k) {
    unsigned d = lowerFirst ? rank - 1 - k : k;
    if (counts[d] > 1)
      r = r.repeat(d, counts[d], onThread);
  }
  return c.make(r);
}

/// `replicate(n)`: n times the replicas, copy k of each on the threads
/// k * get_thread_size() above the original ones.
static Value fragReplicate(FragmentCall &c, const layout::Fragment &f) {
  const Value *n = c.arg(0, "replicate");
  if (!n)
    return c.in.raise("TypeError",
                      "Fragment.replicate() missing 1 required positional "
                      "argument: 'replicate'",
                      c.at);
  if (n->isAbrupt())
    return *n;
  if (!n->isInt() || n->getInt() < 1)
    return c.in.fail(c.node(0, "replicate"),
                     "Fragment.replicate needs a positive integer, got " +
                         c.in.toString(*n, true));
  int64_t slots = 0;
  if (llvm::MulOverflow(f.getThreadExtent(), n->getInt(), slots) ||
      slots > layout::kMaxEnumeratedInputs)
    return c.in.fail(c.node(0, "replicate"),
                     "Fragment.replicate gives too many threads");
  return c.make(f.replicate(n->getInt()));
}

/// `condense_rep_var()`: keeps only the part of the replica number the
/// thread map uses. If the thread depends on rep only through
/// `(rep // low) % extent`, the result has `extent` replicas and thread
/// `thread(rep * low)`; otherwise the fragment is returned unchanged.
static Value fragCondense(FragmentCall &c, const layout::Fragment &f) {
  int64_t reps = f.getReplicate();
  if (reps == 1)
    return c.make(f);
  // Signature of replica r: its thread for every element.
  std::vector<int64_t> shape(f.getInputShape().begin(),
                             f.getInputShape().end());
  int64_t elems = 1;
  for (int64_t d : shape)
    elems *= d;
  if (elems * reps > layout::kMaxEnumeratedInputs)
    return c.make(f);
  std::vector<std::vector<int64_t>> sig(reps);
  std::vector<int64_t> coord(shape.size(), 0);
  for (int64_t e = 0; e < elems; ++e) {
    int64_t rest = e;
    for (size_t d = shape.size(); d-- > 0;) {
      coord[d] = rest % shape[d];
      rest /= shape[d];
    }
    for (int64_t r = 0; r < reps; ++r)
      sig[r].push_back(f.apply(coord, r)->thread);
  }
  for (int64_t low = 1; low <= reps; ++low) {
    if (reps % low)
      continue;
    for (int64_t extent = 1; extent * low <= reps; ++extent) {
      if ((reps / low) % extent)
        continue;
      bool ok = true;
      for (int64_t r = 0; r < reps && ok; ++r)
        ok = sig[r] == sig[((r / low) % extent) * low];
      for (int64_t a = 0; a < extent && ok; ++a)
        for (int64_t b = a + 1; b < extent && ok; ++b)
          ok = sig[a * low] != sig[b * low];
      if (!ok)
        continue;
      unsigned rank = f.getInputRank();
      std::vector<layout::IndexExpr> repl(rank + 1);
      repl[rank] = layout::IndexExpr::var(rank, "rep") * low;
      llvm::Expected<layout::Fragment> r = layout::Fragment::get(
          shape,
          std::vector<layout::IndexExpr>(f.getForwardIndex().begin(),
                                         f.getForwardIndex().end()),
          layout::substitute(f.getForwardThread(), repl), extent,
          f.getOrigin());
      if (!r) {
        llvm::consumeError(r.takeError());
        return c.make(f);
      }
      return c.make(*r);
    }
  }
  return c.make(f);
}

/// `bind_thread_range(begin, extent)`: the fragment's thread t is the
/// block's thread begin + t: the fragment belongs to the tile operations
/// running on threads [begin, begin + extent), which number their threads
/// from 0 (T.annotate_layout records the range; the GPU targets check that
/// the operations using the fragment run on it). The other methods return
/// fragments without a range, as TileLang's do.
static Value fragBind(FragmentCall &c, const layout::Fragment &f) {
  const Value *begin = c.arg(0, "begin");
  const Value *extent = c.arg(1, "extent");
  if (!begin || !extent)
    return c.in.raise("TypeError",
                      "Fragment.bind_thread_range() takes begin and extent",
                      c.at);
  for (auto [v, i, kw] : {std::make_tuple(begin, 0u, "begin"),
                          std::make_tuple(extent, 1u, "extent")}) {
    if (v->isAbrupt())
      return *v;
    if (!v->isInt())
      return c.in.fail(c.node(i, kw),
                       "Fragment.bind_thread_range needs a constant integer " +
                           llvm::Twine(kw) + ", got " +
                           c.in.toString(*v, true));
  }
  if (begin->getInt() < 0 || extent->getInt() < 1)
    return c.in.fail(c.at, "Fragment.bind_thread_range needs begin >= 0 and "
                           "extent >= 1, got (" +
                               llvm::Twine(begin->getInt()) + ", " +
                               llvm::Twine(extent->getInt()) + ")");
  if (f.getThreadExtent() > extent->getInt())
    return c.in.fail(c.node(1, "extent"),
                     "the fragment uses " + llvm::Twine(f.getThreadExtent()) +
                         " threads, more than the bound range's " +
                         llvm::Twine(extent->getInt()));
  Value v = c.make(f);
  v.as<LayoutObj>()->threadRange = {begin->getInt(),
                                    begin->getInt() + extent->getInt()};
  return v;
}

Value Interpreter::callFragmentMethod(NativeId id, CallArgs &args, Node at) {
  Value selfValue = args.positional(0);
  if (!selfValue.isObj(ObjKind::Layout))
    return fail(at, "a Fragment method needs its fragment");
  FragmentCall c{*this, args, at, selfValue.as<LayoutObj>(), ""};
  switch (id) {
  case NativeId::FragRepeat:
    c.name = "repeat";
    if (!c.checkArity(3, {"repeats", "repeat_on_thread", "lower_dim_first"}))
      return Value::exception();
    break;
  case NativeId::FragReplicate:
    c.name = "replicate";
    if (!c.checkArity(1, {"replicate"}))
      return Value::exception();
    break;
  case NativeId::FragCondenseRepVar:
    c.name = "condense_rep_var";
    if (!c.checkArity(0, {}))
      return Value::exception();
    break;
  case NativeId::FragGetThreadSize:
    c.name = "get_thread_size";
    if (!c.checkArity(0, {}))
      return Value::exception();
    break;
  case NativeId::FragBindThreadRange:
    c.name = "bind_thread_range";
    if (!c.checkArity(2, {"begin", "extent"}))
      return Value::exception();
    break;
  default:
    return Value::poison();
  }
  std::optional<layout::Fragment> f = tile::decodeFragment(c.self->attr);
  if (!f) {
    if (id == NativeId::FragGetThreadSize)
      return heap.opaque("Fragment.get_thread_size()");
    return c.opaque();
  }
  switch (id) {
  case NativeId::FragRepeat:
    return fragRepeat(c, *f);
  case NativeId::FragReplicate:
    return fragReplicate(c, *f);
  case NativeId::FragCondenseRepVar:
    return fragCondense(c, *f);
  case NativeId::FragGetThreadSize:
    return Value::integer(f->getThreadExtent());
  default:
    return fragBind(c, *f);
  }
}
