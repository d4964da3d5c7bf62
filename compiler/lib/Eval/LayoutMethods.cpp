//===- LayoutMethods.cpp - Methods of T.Layout values --------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The methods of TileLang's `tilelang.layout.Layout` that programs call at
// trace time on layout values (LayoutObj), T.Fragment values included
// (Fragment is a Layout there; its own `repeat` is in FragmentMethods.cpp):
//
//   repeat(dim, factor)      the layout tiled `factor` times along input
//                            dimension `dim`: L'(idx) = [idx[dim] // e] +
//                            L(idx with idx[dim] % e), e the old extent
//   is_equal(other)          the same input shape and the same map
//   get_input_shape()        the logical shape, a list of ints
//   get_output_shape()       the physical shape (a fragment's: its
//                            per-thread register index shape)
//
// What TileLang raises for bad arguments (TypeError, ValueError) is raised
// here as a Python exception, so `with pytest.raises(ValueError)` sees it.
// A layout tlc could not evaluate gives opaque results.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/IndexExpr.h"
#include "tlc/Layout/Layout.h"

using namespace tlc;
using namespace tlc::eval;

/// A list value of the integers \p dims.
static Value intList(Heap &heap, llvm::ArrayRef<int64_t> dims) {
  llvm::SmallVector<Value, 4> elems;
  for (int64_t d : dims)
    elems.push_back(Value::integer(d));
  return heap.list(elems);
}

/// `repeat(dim, factor)` of the layout \p l (receiver \p self).
static Value layoutRepeat(Interpreter &in, Value self, const layout::Layout &l,
                          CallArgs &args, Node at) {
  const Value *dimV = args.keyword("dim");
  if (!dimV && args.pos.size() > 1)
    dimV = &args.pos[1];
  const Value *factorV = args.keyword("factor");
  if (!factorV && args.pos.size() > 2)
    factorV = &args.pos[2];
  if (!dimV || !factorV)
    return in.raise("TypeError",
                    !dimV && !factorV
                        ? "Layout.repeat() missing 2 required positional "
                          "arguments: 'dim' and 'factor'"
                        : "Layout.repeat() missing 1 required positional "
                          "argument: '" +
                              llvm::Twine(!dimV ? "dim" : "factor") + "'",
                    at);
  for (const Value *v : {dimV, factorV})
    if (v->isAbrupt())
      return *v;
  // TileLang asks for Python ints (bool is one).
  if (!dimV->isInt() && !dimV->isBool())
    return in.raise("TypeError",
                    "dim must be an int, got " + in.toString(*dimV, true), at);
  if (!factorV->isInt() && !factorV->isBool())
    return in.raise("TypeError",
                    "factor must be an int, got " + in.toString(*factorV, true),
                    at);
  int64_t dim = dimV->getInt(), factor = factorV->getInt();
  if (factor < 1)
    return in.raise("ValueError",
                    "factor must be >= 1, got " + llvm::Twine(factor), at);
  if (factor == 1)
    return self; // the same object (`atom.repeat(dim=0, factor=1) is atom`)
  int64_t ndim = l.getInputRank();
  if (ndim == 0)
    return in.raise("ValueError", "Cannot repeat a 0-dim layout", at);
  if (dim < 0)
    dim += ndim;
  if (dim < 0 || dim >= ndim)
    return in.raise("ValueError",
                    "dim out of range: dim=" + llvm::Twine(dim) +
                        ", ndim=" + llvm::Twine(ndim),
                    at);
  std::vector<int64_t> shape(l.getInputShape().begin(),
                             l.getInputShape().end());
  int64_t extent = shape[dim];
  int64_t total = 0;
  if (llvm::MulOverflow(extent, factor, shape[dim]) ||
      llvm::MulOverflow(layout::numElementsSaturated(l.getInputShape()), factor,
                        total) ||
      total > layout::kMaxEnumeratedInputs)
    return in.fail(at, "Layout.repeat gives more than " +
                           llvm::Twine(layout::kMaxEnumeratedInputs) +
                           " elements, more than tlc checks a layout on");
  // Input `dim` of the result, and the old layout read at its remainder.
  layout::IndexExpr var =
      layout::IndexExpr::var(unsigned(dim), layout::inputName(dim));
  std::vector<layout::IndexExpr> repl(ndim);
  repl[dim] = layout::floorMod(var, extent);
  std::vector<layout::IndexExpr> forward{layout::floorDiv(var, extent)};
  for (const layout::IndexExpr &e : l.getForward())
    forward.push_back(layout::substitute(e, repl));
  llvm::Expected<layout::Layout> r =
      layout::Layout::get(std::move(shape), std::move(forward));
  if (!r)
    return in.fail(at, "Layout.repeat: " + llvm::toString(r.takeError()));
  auto *o = in.heap.make<LayoutObj>();
  o->description = self.as<LayoutObj>()->description;
  o->attr = tile::encodeLayout(&in.mlirContext, *r);
  return in.heap.obj(ObjKind::Layout, o);
}

Value Interpreter::callLayoutMethod(NativeId id, CallArgs &args, Node at) {
  Value selfValue = args.positional(0);
  if (!selfValue.isObj(ObjKind::Layout))
    return fail(at, "a Layout method needs its layout");
  auto *self = selfValue.as<LayoutObj>();
  llvm::StringRef name = id == NativeId::LayoutRepeat    ? "repeat"
                         : id == NativeId::LayoutIsEqual ? "is_equal"
                         : id == NativeId::LayoutGetInputShape
                             ? "get_input_shape"
                             : "get_output_shape";
  size_t want = id == NativeId::LayoutRepeat    ? 2
                : id == NativeId::LayoutIsEqual ? 1
                                                : 0;
  if (args.pos.size() > want + 1)
    return raise("TypeError",
                 "Layout." + name + "() takes " + llvm::Twine(want) +
                     " positional argument" + (want == 1 ? "" : "s") + " but " +
                     llvm::Twine(args.pos.size() - 1) + " were given",
                 at);
  for (auto &kv : args.kw)
    if (!(id == NativeId::LayoutRepeat &&
          (kv.first == "dim" || kv.first == "factor")) &&
        !(id == NativeId::LayoutIsEqual && kv.first == "other"))
      return raise("TypeError",
                   "Layout." + name +
                       "() got an unexpected keyword argument '" + kv.first +
                       "'",
                   at);
  // The attribute of a T.Layout that maps two elements to one place does
  // not hold its map: nothing is read from it.
  std::optional<layout::Layout> l;
  std::optional<layout::Fragment> f;
  if (self->notInjective.empty() || id == NativeId::LayoutGetInputShape) {
    l = tile::decodeLayout(self->attr);
    f = tile::decodeFragment(self->attr);
  }
  switch (id) {
  case NativeId::LayoutRepeat: {
    if (!l) {
      auto *o = heap.make<LayoutObj>();
      o->description = self->description;
      o->whyOpaque =
          self->whyOpaque.empty()
              ? ("made by Layout.repeat() of a " + self->description +
                 " whose map depends on the buffer and target")
                    .str()
              : self->whyOpaque;
      return heap.obj(ObjKind::Layout, o);
    }
    return layoutRepeat(*this, selfValue, *l, args, at);
  }
  case NativeId::LayoutIsEqual: {
    const Value *other = args.keyword("other");
    if (!other && args.pos.size() > 1)
      other = &args.pos[1];
    if (!other)
      return raise("TypeError",
                   "Layout.is_equal() missing 1 required positional "
                   "argument: 'other'",
                   at);
    if (other->isAbrupt())
      return *other;
    if (!other->isObj(ObjKind::Layout))
      return raise("TypeError",
                   "Layout.is_equal() needs a Layout, got " +
                       toString(*other, true),
                   at);
    mlir::Attribute otherAttr = other->as<LayoutObj>()->attr;
    if (!self->attr || !otherAttr || !self->notInjective.empty() ||
        !other->as<LayoutObj>()->notInjective.empty())
      return heap.opaque("Layout.is_equal()");
    std::optional<layout::Layout> ol = tile::decodeLayout(otherAttr);
    std::optional<layout::Fragment> of = tile::decodeFragment(otherAttr);
    if (l && ol)
      return Value::boolean(l->isEquivalentTo(*ol));
    if (f && of)
      return Value::boolean(f->isEquivalentTo(*of));
    return Value::boolean(false);
  }
  case NativeId::LayoutGetInputShape:
    if (l)
      return intList(heap, l->getInputShape());
    if (f)
      return intList(heap, f->getInputShape());
    return heap.opaque("Layout.get_input_shape()");
  default:
    if (l)
      return intList(heap, l->getOutputShape());
    if (f)
      return intList(heap, f->getIndexShape());
    return heap.opaque("Layout.get_output_shape()");
  }
}
