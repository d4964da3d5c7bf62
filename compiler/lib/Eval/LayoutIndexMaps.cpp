//===- LayoutIndexMaps.cpp - Index maps of T.Layout values ---------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The methods of TileLang's `tilelang.layout.Layout` / `Fragment` that read
// or rebuild a layout's index functions at trace time:
//
//   index, get_forward_index()   the forward expressions over TileLang's
//                                placeholders `_i, _j, ...` (a list)
//   get_forward_vars()           those placeholders (`_rep` first on a
//                                fragment with more than one replica)
//   map_forward_index(indices)   the forward expressions at `indices`, one
//   layout(*indices)             per forward variable (a list)
//   thread                       a fragment's thread expression
//   map_forward_thread(indices)  it at `indices` (a list of one)
//   inverse()                    the inverse of a bijective affine layout
//   expand(leading_shape)        new leading inputs passed through
//   reshape(shape, num, den)     the same map over another input shape
//
// An expression at given indices is computed with the interpreter's own
// operators: constant indices give Python ints, symbolic ones symbolic
// values, IR values (loop variables of a kernel) IR index arithmetic.
//
// inverse() follows TileLang's rule: a layout over a constant shape has an
// inverse only when every output is an affine combination of digits
// `(x // a) % b` of the inputs and the map is a bijection onto its output
// box (TVM's DetectIterMap at the Bijective level); anything else (a XOR
// swizzle, a padded pitch, a map that drops or repeats an input) raises.
// The inverse is built digit by digit: the flattened output is a mixed
// radix number whose digits are the inputs' digits.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/IndexExpr.h"
#include "tlc/Layout/Layout.h"

#include <map>

using namespace tlc;
using namespace tlc::eval;
using layout::IndexExpr;
using layout::IndexKind;
using syntax::BinaryOp;

/// TileLang's name of forward placeholder \p dim: `_i`, `_j`, `_k`, ...
static std::string placeholderName(unsigned dim) {
  return std::string("_") + char('i' + dim);
}

/// The value of \p e with input id k bound to \p inputs[k], computed with
/// the interpreter's operators; poison for an input id without a value.
static Value evalIndex(Interpreter &in, const IndexExpr &e,
                       llvm::ArrayRef<Value> inputs, Node at) {
  switch (e.kind()) {
  case IndexKind::Const:
    return Value::integer(*e.getConstant());
  case IndexKind::Var:
    return e.getVarId() < inputs.size() ? inputs[e.getVarId()]
                                        : Value::poison();
  default:
    break;
  }
  Value l = evalIndex(in, e.lhs(), inputs, at);
  if (l.isAbrupt())
    return l;
  Value r = evalIndex(in, e.rhs(), inputs, at);
  if (r.isAbrupt())
    return r;
  BinaryOp op = BinaryOp::Add;
  switch (e.kind()) {
  case IndexKind::Add:
    op = BinaryOp::Add;
    break;
  case IndexKind::Mul:
    op = BinaryOp::Mult;
    break;
  case IndexKind::FloorDiv:
    op = BinaryOp::FloorDiv;
    break;
  case IndexKind::Mod:
    op = BinaryOp::Mod;
    break;
  case IndexKind::Xor:
    op = BinaryOp::BitXor;
    break;
  case IndexKind::And:
    op = BinaryOp::BitAnd;
    break;
  case IndexKind::Or:
    op = BinaryOp::BitOr;
    break;
  case IndexKind::Shl:
    op = BinaryOp::LShift;
    break;
  default:
    op = BinaryOp::RShift;
    break;
  }
  return in.binary(op, l, r, at);
}

//===----------------------------------------------------------------------===//
// The inverse of an affine bijective layout
//===----------------------------------------------------------------------===//

namespace {
/// The digit `(x % hi) // lo` of input x (lo divides hi, or hi is x's
/// extent).
struct Split {
  unsigned var;
  int64_t lo, hi;
};

/// `coef * split` summands of one output, plus a constant.
struct AffineSum {
  std::vector<std::pair<Split, int64_t>> terms;
  int64_t base = 0;
};

/// Reads index expressions as sums of input digits.
struct AffineReader {
  llvm::ArrayRef<int64_t> extents;
  std::string why;

  /// Number of values the digit \p s takes.
  int64_t count(const Split &s) const { return llvm::divideCeil(s.hi, s.lo); }

  /// \p e as one digit, or std::nullopt.
  std::optional<Split> split(const IndexExpr &e) {
    if (e.kind() == IndexKind::Var) {
      unsigned v = e.getVarId();
      if (v >= extents.size())
        return std::nullopt;
      return Split{v, 1, extents[v]};
    }
    if (e.kind() != IndexKind::FloorDiv && e.kind() != IndexKind::Mod)
      return std::nullopt;
    std::optional<int64_t> c = e.rhs().getConstant();
    if (!c || *c <= 0)
      return std::nullopt;
    std::optional<Split> s = split(e.lhs());
    if (!s)
      return std::nullopt;
    int64_t n = count(*s);
    if (e.kind() == IndexKind::FloorDiv) {
      if (*c >= n)
        return Split{s->var, s->hi, s->hi}; // always 0
      return Split{s->var, s->lo * *c, s->hi};
    }
    if (*c >= n)
      return s; // the modulo changes nothing
    if (s->hi % (s->lo * *c) != 0)
      return std::nullopt;
    return Split{s->var, s->lo, s->lo * *c};
  }

  /// Adds \p coef * \p e to \p sum; false when \p e is not affine in the
  /// input digits.
  bool read(const IndexExpr &e, int64_t coef, AffineSum &sum) {
    switch (e.kind()) {
    case IndexKind::Const:
      sum.base += coef * *e.getConstant();
      return true;
    case IndexKind::Add:
      return read(e.lhs(), coef, sum) && read(e.rhs(), coef, sum);
    case IndexKind::Mul: {
      std::optional<int64_t> l = e.lhs().getConstant();
      std::optional<int64_t> r = e.rhs().getConstant();
      if (r)
        return read(e.lhs(), coef * *r, sum);
      if (l)
        return read(e.rhs(), coef * *l, sum);
      why = "'" + e.str() + "' multiplies two inputs";
      return false;
    }
    default:
      if (std::optional<Split> s = split(e)) {
        if (s->lo < s->hi)
          sum.terms.push_back({*s, coef});
        return true;
      }
      why = "'" + e.str() + "' is not an affine function of the inputs";
      return false;
    }
  }
};
} // namespace

/// The inverse of the layout \p shape -> \p forward (output extents
/// \p outShape): a layout over \p outShape giving the input coordinate of
/// each output coordinate; an error saying why there is none.
static llvm::Expected<layout::Layout>
invertAffine(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<IndexExpr> forward,
             llvm::ArrayRef<int64_t> outShape) {
  auto failure = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  AffineReader reader{shape, ""};
  std::vector<AffineSum> sums(forward.size());
  for (size_t o = 0; o < forward.size(); ++o)
    if (!reader.read(forward[o], 1, sums[o]))
      return failure(reader.why);
  // Row-major strides of the output box.
  std::vector<int64_t> stride(outShape.size(), 1);
  for (size_t o = outShape.size(); o-- > 1;)
    stride[o - 1] = stride[o] * outShape[o];
  // Cut points of each input: its digits lie between consecutive cuts.
  std::vector<std::vector<int64_t>> cuts(shape.size());
  for (size_t v = 0; v < shape.size(); ++v)
    cuts[v] = {1, shape[v]};
  for (const AffineSum &s : sums)
    for (auto &[sp, coef] : s.terms) {
      cuts[sp.var].push_back(sp.lo);
      cuts[sp.var].push_back(std::min(sp.hi, shape[sp.var]));
    }
  // Flat coefficient of each atomic digit (input, lower cut).
  std::map<std::pair<unsigned, int64_t>, int64_t> coefOf;
  for (size_t v = 0; v < shape.size(); ++v) {
    std::vector<int64_t> &c = cuts[v];
    llvm::sort(c);
    c.erase(std::unique(c.begin(), c.end()), c.end());
    for (size_t t = 0; t + 1 < c.size(); ++t) {
      if (c[t + 1] % c[t] != 0)
        return failure("the digits of input " + placeholderName(v) +
                       " do not divide its extent " + llvm::Twine(shape[v]));
      coefOf[{unsigned(v), c[t]}] = 0;
    }
  }
  for (size_t o = 0; o < sums.size(); ++o)
    for (auto &[sp, coef] : sums[o].terms) {
      const std::vector<int64_t> &c = cuts[sp.var];
      for (size_t t = 0; t + 1 < c.size(); ++t)
        if (c[t] >= sp.lo && c[t + 1] <= sp.hi)
          coefOf[{sp.var, c[t]}] += coef * (c[t] / sp.lo) * stride[o];
    }
  // The digits sorted by coefficient must be a mixed-radix numbering of
  // the whole output box.
  struct Digit {
    unsigned var;
    int64_t lo, extent, coef;
  };
  std::vector<Digit> digits;
  for (auto &[key, coef] : coefOf) {
    const std::vector<int64_t> &c = cuts[key.first];
    int64_t hi = *std::upper_bound(c.begin(), c.end(), key.second);
    if (coef <= 0)
      return failure(coef == 0
                         ? "no output depends on the digit " +
                               llvm::Twine(placeholderName(key.first)) +
                               " // " + llvm::Twine(key.second) + " % " +
                               llvm::Twine(hi / key.second) +
                               ": the map is not injective"
                         : llvm::Twine("an input digit has a negative scale"));
    digits.push_back({key.first, key.second, hi / key.second, coef});
  }
  llvm::sort(digits,
             [](const Digit &a, const Digit &b) { return a.coef < b.coef; });
  int64_t place = 1;
  for (const Digit &d : digits) {
    if (d.coef != place)
      return failure("the map is not a bijection onto its output box (a "
                     "digit of " +
                     llvm::Twine(placeholderName(d.var)) + " has scale " +
                     llvm::Twine(d.coef) + " where " + llvm::Twine(place) +
                     " would number it densely)");
    place *= d.extent;
  }
  if (place != layout::numElements(outShape))
    return failure("the map is not a bijection onto its output box of " +
                   llvm::Twine(layout::numElements(outShape)) +
                   " places (it fills " + llvm::Twine(place) + ")");
  // input_v = sum over its digits of ((flat // coef) % extent) * lo.
  IndexExpr flat = IndexExpr::constant(0);
  for (size_t o = 0; o < outShape.size(); ++o)
    flat = flat + IndexExpr::var(unsigned(o), layout::inputName(o)) * stride[o];
  std::vector<IndexExpr> backward(shape.size(), IndexExpr::constant(0));
  for (const Digit &d : digits)
    backward[d.var] =
        backward[d.var] +
        layout::floorMod(layout::floorDiv(flat, d.coef), d.extent) * d.lo;
  return layout::Layout::get(
      std::vector<int64_t>(outShape.begin(), outShape.end()),
      std::move(backward));
}

//===----------------------------------------------------------------------===//
// The methods
//===----------------------------------------------------------------------===//

namespace {
/// One call of an index-map method on a layout value.
struct MapCall {
  Interpreter &in;
  CallArgs &args;
  Node at;
  Value selfValue;
  LayoutObj *self;
  llvm::StringRef name;
  std::optional<layout::Layout> l;
  std::optional<layout::Fragment> f;

  /// Argument \p i (after the receiver) or keyword \p kw.
  const Value *arg(unsigned i, llvm::StringRef kw) const {
    if (const Value *v = args.keyword(kw))
      return v;
    return i + 1 < args.pos.size() ? &args.pos[i + 1] : nullptr;
  }
  /// Rejects more than \p count positional arguments and other keywords.
  bool checkArity(unsigned count, llvm::ArrayRef<llvm::StringRef> kws) {
    if (args.pos.size() > count + 1) {
      in.raise("TypeError",
               "Layout." + name + "() takes " + llvm::Twine(count) +
                   " positional argument" + (count == 1 ? "" : "s") + " but " +
                   llvm::Twine(args.pos.size() - 1) + " were given",
               at);
      return false;
    }
    for (auto &kv : args.kw)
      if (!llvm::is_contained(kws, kv.first)) {
        in.raise("TypeError",
                 "Layout." + name + "() got an unexpected keyword argument '" +
                     kv.first + "'",
                 at);
        return false;
      }
    return true;
  }
  /// The input extents and forward expressions (a fragment's register
  /// index expressions).
  llvm::ArrayRef<int64_t> shape() const {
    return l ? l->getInputShape() : f->getInputShape();
  }
  llvm::ArrayRef<IndexExpr> forward() const {
    return l ? l->getForward() : f->getForwardIndex();
  }
  /// True when the forward variables start with `_rep`.
  bool hasRepVar() const { return f && f->getReplicate() > 1; }
  /// The placeholder values: inputs by id, `_rep` at id rank.
  llvm::SmallVector<Value, 4> placeholders() {
    llvm::SmallVector<Value, 4> vars;
    for (unsigned d = 0; d < shape().size(); ++d)
      vars.push_back(Value::sym(in.syms.symbol(placeholderName(d))));
    vars.push_back(Value::sym(in.syms.symbol("_rep")));
    return vars;
  }
  /// The values of \p exprs at \p inputs, as a list.
  Value listOf(llvm::ArrayRef<IndexExpr> exprs, llvm::ArrayRef<Value> inputs) {
    llvm::SmallVector<Value, 4> out;
    for (const IndexExpr &e : exprs) {
      Value v = evalIndex(in, e, inputs, at);
      if (v.isException())
        return v;
      out.push_back(v.isPoison() ? in.heap.opaque("index expression") : v);
    }
    return in.heap.list(out);
  }
  /// Binds the `indices` argument of map_forward_index / map_forward_thread
  /// (or the arguments of a call) to input ids; exception when their count
  /// is not the number of forward variables.
  std::optional<llvm::SmallVector<Value, 4>> bind(llvm::ArrayRef<Value> given) {
    size_t want = shape().size() + (hasRepVar() ? 1 : 0);
    if (given.size() != want) {
      in.raise("RuntimeError",
               "Layout." + name + ": the layout has " + llvm::Twine(want) +
                   " forward variable" + (want == 1 ? "" : "s") + ", got " +
                   llvm::Twine(given.size()) + " indices",
               at);
      return std::nullopt;
    }
    for (const Value &v : given)
      if (v.isException()) // poison stays: its expressions are opaque
        return std::nullopt;
    llvm::SmallVector<Value, 4> inputs;
    size_t off = hasRepVar() ? 1 : 0;
    for (size_t d = 0; d < shape().size(); ++d)
      inputs.push_back(given[d + off]);
    inputs.push_back(hasRepVar() ? given[0] : Value::integer(0));
    return inputs;
  }
  /// The `indices` argument as a list of values.
  std::optional<llvm::SmallVector<Value, 4>> indicesArg() {
    const Value *v = arg(0, "indices");
    if (!v) {
      in.raise("TypeError",
               "Layout." + name +
                   "() missing 1 required positional argument: 'indices'",
               at);
      return std::nullopt;
    }
    if (v->isException())
      return std::nullopt;
    if (!v->isSequence()) {
      in.raise("TypeError",
               "Layout." + name + "() needs a list of indices, got " +
                   in.toString(*v, true),
               at);
      return std::nullopt;
    }
    return llvm::SmallVector<Value, 4>(getElems(*v).begin(),
                                       getElems(*v).end());
  }
  /// A layout value of \p r (a T.Layout).
  Value makeLayout(const layout::Layout &r) {
    auto *o = in.heap.make<LayoutObj>();
    o->description = "Layout";
    o->attr = tile::encodeLayout(&in.mlirContext, r);
    return in.heap.obj(ObjKind::Layout, o);
  }
  /// A fragment value of \p r, keeping the receiver's thread range.
  Value makeFragment(const layout::Fragment &r) {
    auto *o = in.heap.make<LayoutObj>();
    o->description = self->description;
    o->attr = tile::encodeFragment(&in.mlirContext, r);
    o->threadRange = self->threadRange;
    return in.heap.obj(ObjKind::Layout, o);
  }
};
} // namespace

/// `inverse()`: see invertAffine. A fragment is inverted as TileLang does,
/// as the layout (coordinate, replica) -> (register index, thread).
static Value layoutInverse(MapCall &c) {
  llvm::Expected<layout::Layout> fwd = [&]() -> llvm::Expected<layout::Layout> {
    if (c.l)
      return *c.l;
    std::vector<int64_t> shape(c.f->getInputShape().begin(),
                               c.f->getInputShape().end());
    shape.push_back(c.f->getReplicate());
    std::vector<IndexExpr> exprs(c.f->getForwardIndex().begin(),
                                 c.f->getForwardIndex().end());
    exprs.push_back(c.f->getForwardThread());
    return layout::Layout::get(std::move(shape), std::move(exprs));
  }();
  if (!fwd)
    return c.in.raise("RuntimeError",
                      "Layout.inverse(): " + llvm::toString(fwd.takeError()),
                      c.at);
  if (layout::numElements(fwd->getInputShape()) > layout::kMaxEnumeratedInputs)
    return c.in.heap.opaque("Layout.inverse()");
  llvm::Expected<layout::Layout> inv = invertAffine(
      fwd->getInputShape(), fwd->getForward(), fwd->getOutputShape());
  if (!inv)
    return c.in.raise("RuntimeError",
                      "Layout.inverse(): the layout has no inverse: " +
                          llvm::toString(inv.takeError()),
                      c.at);
  return c.makeLayout(*inv);
}

/// `expand(leading_shape)`: inputs `leading_shape + shape`, outputs the
/// leading inputs followed by the old outputs (a fragment gives a Layout of
/// its register index, as TileLang's does).
static Value layoutExpand(MapCall &c) {
  const Value *lead = c.arg(0, "leading_shape");
  if (!lead)
    return c.in.raise("TypeError",
                      "Layout.expand() missing 1 required positional "
                      "argument: 'leading_shape'",
                      c.at);
  if (lead->isAbrupt())
    return *lead;
  llvm::SmallVector<Value, 4> elems;
  if (lead->isInt())
    elems.push_back(*lead);
  else if (lead->is(ValueKind::List) || lead->is(ValueKind::Tuple))
    elems.append(getElems(*lead).begin(), getElems(*lead).end());
  else
    return c.in.raise("TypeError",
                      "leading_shape must be an int or a sequence, got " +
                          c.in.toString(*lead, true),
                      c.at);
  if (elems.empty())
    return c.selfValue;
  std::vector<int64_t> shape;
  for (auto [k, v] : llvm::enumerate(elems)) {
    if (v.isAbrupt())
      return v;
    if (v.isInt()) {
      if (v.getInt() <= 0)
        return c.in.raise("ValueError",
                          "leading_shape[" + llvm::Twine(k) +
                              "] must be > 0, got " + llvm::Twine(v.getInt()),
                          c.at);
      shape.push_back(v.getInt());
      continue;
    }
    if (v.is(ValueKind::Sym) || v.isIR())
      return c.in.heap.opaque("Layout.expand() of a symbolic shape");
    return c.in.raise("TypeError",
                      "leading_shape elements must be int or PrimExpr, got " +
                          c.in.toString(v, true) + " at index " +
                          llvm::Twine(k),
                      c.at);
  }
  unsigned leadN = shape.size();
  shape.insert(shape.end(), c.shape().begin(), c.shape().end());
  int64_t total = 1;
  for (int64_t d : shape)
    if (llvm::MulOverflow(total, d, total) ||
        total > layout::kMaxEnumeratedInputs)
      return c.in.fail(c.at, "Layout.expand gives more than " +
                                 llvm::Twine(layout::kMaxEnumeratedInputs) +
                                 " elements, more than tlc checks a layout on");
  std::vector<IndexExpr> repl;
  for (unsigned d = 0; d < c.shape().size(); ++d)
    repl.push_back(IndexExpr::var(d + leadN, layout::inputName(d + leadN)));
  std::vector<IndexExpr> forward;
  for (unsigned d = 0; d < leadN; ++d)
    forward.push_back(IndexExpr::var(d, layout::inputName(d)));
  for (const IndexExpr &e : c.forward())
    forward.push_back(layout::substitute(e, repl));
  llvm::Expected<layout::Layout> r =
      layout::Layout::get(std::move(shape), std::move(forward));
  if (!r)
    return c.in.fail(c.at, "Layout.expand: " + llvm::toString(r.takeError()));
  return c.makeLayout(*r);
}

/// `reshape(shape, rescale_num=1, rescale_den=1)`: the element at flat
/// position p of the new shape is the old element at p * den // num.
static Value layoutReshape(MapCall &c) {
  const Value *shapeV = c.arg(0, "shape");
  if (!shapeV)
    return c.in.raise("TypeError",
                      "Layout.reshape() missing 1 required positional "
                      "argument: 'shape'",
                      c.at);
  if (shapeV->isAbrupt())
    return *shapeV;
  int64_t num = 1, den = 1;
  for (auto [i, kw, out] : {std::make_tuple(1u, "rescale_num", &num),
                            std::make_tuple(2u, "rescale_den", &den)}) {
    if (const Value *v = c.arg(i, kw)) {
      if (v->isAbrupt())
        return *v;
      if (!v->isInt())
        return c.in.heap.opaque("Layout.reshape()");
      *out = v->getInt();
    }
  }
  if (!shapeV->isSequence())
    return c.in.raise("TypeError",
                      "Layout.reshape() needs a list of extents, got " +
                          c.in.toString(*shapeV, true),
                      c.at);
  std::vector<int64_t> shape;
  for (Value v : getElems(*shapeV)) {
    if (v.isAbrupt())
      return v;
    if (!v.isInt())
      return c.in.heap.opaque("Layout.reshape() of a symbolic shape");
    shape.push_back(v.getInt());
  }
  if (llvm::equal(shape, c.shape()))
    return c.selfValue;
  int64_t oldN = layout::numElements(c.shape()), newN = 1, lhs = 0, rhs = 0;
  bool ok = num > 0 && den > 0 &&
            llvm::all_of(shape, [](int64_t d) { return d > 0; });
  for (int64_t d : shape)
    ok = ok && !llvm::MulOverflow(newN, d, newN);
  ok = ok && !llvm::MulOverflow(oldN, num, lhs) &&
       !llvm::MulOverflow(newN, den, rhs) && lhs == rhs;
  if (!ok)
    return c.in.raise("RuntimeError",
                      "Layout.reshape: the input shape has " +
                          llvm::Twine(oldN) + " elements, the new shape " +
                          llvm::Twine(newN) +
                          " (rescale_num = " + llvm::Twine(num) +
                          ", rescale_den = " + llvm::Twine(den) + ")",
                      c.at);
  if (newN > layout::kMaxEnumeratedInputs)
    return c.in.fail(c.at, "Layout.reshape gives more than " +
                               llvm::Twine(layout::kMaxEnumeratedInputs) +
                               " elements, more than tlc checks a layout on");
  // The old coordinate of each new one.
  IndexExpr flat = IndexExpr::constant(0);
  for (unsigned d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + IndexExpr::var(d, layout::inputName(d));
  IndexExpr oldFlat = layout::floorDiv(flat * den, num);
  llvm::ArrayRef<int64_t> old = c.shape();
  std::vector<IndexExpr> repl(old.size() + 1);
  int64_t inner = 1;
  for (unsigned d = old.size(); d-- > 0;) {
    repl[d] = layout::floorMod(layout::floorDiv(oldFlat, inner), old[d]);
    inner *= old[d];
  }
  if (!old.empty())
    repl[0] = layout::floorDiv(oldFlat, inner / old[0]);
  std::vector<IndexExpr> forward;
  for (const IndexExpr &e : c.forward())
    forward.push_back(layout::substitute(e, repl));
  if (c.l) {
    llvm::Expected<layout::Layout> r =
        layout::Layout::get(std::move(shape), std::move(forward));
    if (!r)
      return c.in.fail(c.at,
                       "Layout.reshape: " + llvm::toString(r.takeError()));
    // A rescale that maps several new elements to one old place: valid in
    // TileLang, beyond what a layout value of tlc holds.
    if (!r->isInjective()) {
      auto *o = c.in.heap.make<LayoutObj>();
      o->description = "Layout";
      o->whyOpaque = "made by Layout.reshape() with a rescale that maps "
                     "several elements to one place";
      return c.in.heap.obj(ObjKind::Layout, o);
    }
    return c.makeLayout(*r);
  }
  repl[old.size()] = IndexExpr::var(shape.size(), "rep");
  IndexExpr thread = layout::substitute(c.f->getForwardThread(), repl);
  llvm::Expected<layout::Fragment> r =
      layout::Fragment::get(std::move(shape), std::move(forward), thread,
                            c.f->getReplicate(), c.f->getOrigin());
  if (!r)
    return c.in.fail(c.at, "Layout.reshape: " + llvm::toString(r.takeError()));
  return c.makeFragment(*r);
}

Value Interpreter::callLayoutMapMethod(NativeId id, CallArgs &args, Node at) {
  Value selfValue = args.positional(0);
  if (!selfValue.isObj(ObjKind::Layout))
    return fail(at, "a Layout method needs its layout");
  MapCall c{*this, args, at, selfValue, selfValue.as<LayoutObj>(), "", {}, {}};
  switch (id) {
  case NativeId::LayoutInverse:
    c.name = "inverse";
    break;
  case NativeId::LayoutMapForwardIndex:
    c.name = "map_forward_index";
    break;
  case NativeId::LayoutGetForwardVars:
    c.name = "get_forward_vars";
    break;
  case NativeId::LayoutGetForwardIndex:
    c.name = "get_forward_index";
    break;
  case NativeId::LayoutExpand:
    c.name = "expand";
    break;
  case NativeId::LayoutReshape:
    c.name = "reshape";
    break;
  case NativeId::FragMapForwardThread:
    c.name = "map_forward_thread";
    break;
  default:
    c.name = "__call__";
    break;
  }
  bool ok = true;
  switch (id) {
  case NativeId::LayoutMapForwardIndex:
  case NativeId::FragMapForwardThread:
    ok = c.checkArity(1, {"indices"});
    break;
  case NativeId::LayoutExpand:
    ok = c.checkArity(1, {"leading_shape"});
    break;
  case NativeId::LayoutReshape:
    ok = c.checkArity(3, {"shape", "rescale_num", "rescale_den"});
    break;
  case NativeId::LayoutCall: // any number of indices, no keywords
    ok = c.checkArity(unsigned(args.pos.size()), {});
    break;
  default:
    ok = c.checkArity(0, {});
    break;
  }
  if (!ok)
    return Value::exception();
  // A T.Layout mapping two elements to one place has no inverse (TileLang
  // raises); its attribute cannot hold such a map, so the other methods'
  // results are opaque.
  if (!c.self->notInjective.empty() && id == NativeId::LayoutInverse)
    return raise("RuntimeError",
                 "Layout.inverse(): the layout has no inverse: it is not "
                 "injective " +
                     c.self->notInjective,
                 at);
  if (c.self->notInjective.empty()) {
    c.l = tile::decodeLayout(c.self->attr);
    c.f = tile::decodeFragment(c.self->attr);
  }
  if (!c.l && !c.f) {
    if (id == NativeId::LayoutInverse || id == NativeId::LayoutExpand ||
        id == NativeId::LayoutReshape) {
      auto *o = heap.make<LayoutObj>();
      o->description = c.self->description;
      o->whyOpaque =
          c.self->whyOpaque.empty()
              ? ("made by Layout." + c.name + "() of a " + c.self->description +
                 " whose map depends on the buffer and target")
                    .str()
              : c.self->whyOpaque;
      return heap.obj(ObjKind::Layout, o);
    }
    return heap.opaque(heap.copyString(("Layout." + c.name + "()").str()));
  }
  switch (id) {
  case NativeId::LayoutInverse:
    return layoutInverse(c);
  case NativeId::LayoutExpand:
    return layoutExpand(c);
  case NativeId::LayoutReshape:
    return layoutReshape(c);
  case NativeId::LayoutGetForwardVars: {
    llvm::SmallVector<Value, 4> ph = c.placeholders(), vars;
    if (c.hasRepVar())
      vars.push_back(ph.back());
    vars.append(ph.begin(), ph.end() - 1);
    return heap.list(vars);
  }
  case NativeId::LayoutGetForwardIndex:
    return c.listOf(c.forward(), c.placeholders());
  case NativeId::FragMapForwardThread: {
    std::optional<llvm::SmallVector<Value, 4>> given = c.indicesArg();
    if (!given)
      return Value::exception();
    std::optional<llvm::SmallVector<Value, 4>> inputs = c.bind(*given);
    if (!inputs)
      return Value::exception();
    return c.listOf(c.f->getForwardThread(), *inputs);
  }
  default: {
    std::optional<llvm::SmallVector<Value, 4>> given;
    if (id == NativeId::LayoutCall)
      given.emplace(args.pos.begin() + 1, args.pos.end());
    else
      given = c.indicesArg();
    if (!given)
      return Value::exception();
    std::optional<llvm::SmallVector<Value, 4>> inputs = c.bind(*given);
    if (!inputs)
      return Value::exception();
    return c.listOf(c.forward(), *inputs);
  }
  }
}

Value Interpreter::fragmentThread(Value obj, Node at) {
  std::optional<layout::Fragment> f =
      tile::decodeFragment(obj.as<LayoutObj>()->attr);
  if (!f)
    return heap.opaque("Fragment.thread");
  llvm::SmallVector<Value, 4> vars;
  for (unsigned d = 0; d < f->getInputRank(); ++d)
    vars.push_back(Value::sym(syms.symbol(placeholderName(d))));
  vars.push_back(Value::sym(syms.symbol("_rep")));
  Value v = evalIndex(*this, f->getForwardThread(), vars, at);
  return v.isPoison() ? heap.opaque("Fragment.thread") : v;
}
