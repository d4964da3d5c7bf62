//===- LayoutAttrCodec.cpp - Layout attributes <-> TLCLayout types --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Interim encoding until the dialect's #tile.layout / #tile.fragment
// attributes land: a dictionary with the same fields.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/LayoutAttrCodec.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static ArrayAttr exprArray(Builder &b, llvm::ArrayRef<layout::IndexExpr> es) {
  SmallVector<Attribute> out;
  for (const layout::IndexExpr &e : es)
    out.push_back(b.getStringAttr(e.str()));
  return b.getArrayAttr(out);
}

Attribute tlc::tile::encodeFragment(MLIRContext *context,
                                    const layout::Fragment &f) {
  Builder b(context);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("kind", b.getStringAttr("fragment")),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(f.getInputShape())),
      b.getNamedAttr("thread", b.getStringAttr(f.getForwardThread().str())),
      b.getNamedAttr("index", exprArray(b, f.getForwardIndex())),
      b.getNamedAttr("replicate", b.getI64IntegerAttr(f.getReplicate()))};
  if (!f.getOrigin().tag.empty())
    fields.push_back(
        b.getNamedAttr("origin", b.getStringAttr(f.getOrigin().tag)));
  if (f.getOrigin().warpRows)
    fields.push_back(b.getNamedAttr(
        "warps", b.getDenseI64ArrayAttr(
                     {f.getOrigin().warpRows, f.getOrigin().warpCols})));
  return b.getDictionaryAttr(fields);
}

Attribute tlc::tile::encodeLayout(MLIRContext *context,
                                  const layout::Layout &l) {
  Builder b(context);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("kind", b.getStringAttr(l.shortLabel())),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(l.getInputShape())),
      b.getNamedAttr("map", exprArray(b, l.getForward()))};
  if (l.getElementBits())
    fields.push_back(
        b.getNamedAttr("bits", b.getI64IntegerAttr(l.getElementBits())));
  return b.getDictionaryAttr(fields);
}

std::optional<layout::Fragment> tlc::tile::decodeFragment(Attribute attr) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  if (!dict)
    return std::nullopt;
  auto kind = dict.getAs<StringAttr>("kind");
  auto shape = dict.getAs<DenseI64ArrayAttr>("shape");
  auto thread = dict.getAs<StringAttr>("thread");
  auto index = dict.getAs<ArrayAttr>("index");
  auto rep = dict.getAs<IntegerAttr>("replicate");
  if (!kind || kind.getValue() != "fragment" || !shape || !thread || !index ||
      !rep)
    return std::nullopt;
  std::vector<std::string> indexText;
  for (Attribute a : index)
    if (auto s = dyn_cast<StringAttr>(a))
      indexText.push_back(s.getValue().str());
  layout::FragmentOrigin origin;
  if (auto o = dict.getAs<StringAttr>("origin"))
    origin.tag = o.getValue().str();
  if (auto w = dict.getAs<DenseI64ArrayAttr>("warps"); w && w.size() == 2)
    origin.warpRows = w[0], origin.warpCols = w[1];
  llvm::Expected<layout::Fragment> f = layout::Fragment::parse(
      shape.asArrayRef().vec(), indexText, thread.getValue(), rep.getInt(),
      origin);
  if (!f) {
    llvm::consumeError(f.takeError());
    return std::nullopt;
  }
  return std::move(*f);
}

std::optional<layout::Layout> tlc::tile::decodeLayout(Attribute attr) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  if (!dict)
    return std::nullopt;
  auto shape = dict.getAs<DenseI64ArrayAttr>("shape");
  auto map = dict.getAs<ArrayAttr>("map");
  if (!shape || !map)
    return std::nullopt;
  std::vector<std::string> names =
      layout::inputNames(shape.size(), /*withRep=*/false);
  std::vector<layout::IndexExpr> forward;
  for (Attribute a : map) {
    auto s = dyn_cast<StringAttr>(a);
    if (!s)
      return std::nullopt;
    llvm::Expected<layout::IndexExpr> e =
        layout::parseIndexExpr(s.getValue(), names);
    if (!e) {
      llvm::consumeError(e.takeError());
      return std::nullopt;
    }
    forward.push_back(*e);
  }
  llvm::Expected<layout::Layout> l =
      layout::Layout::get(shape.asArrayRef().vec(), forward);
  if (!l) {
    llvm::consumeError(l.takeError());
    return std::nullopt;
  }
  return std::move(*l);
}
