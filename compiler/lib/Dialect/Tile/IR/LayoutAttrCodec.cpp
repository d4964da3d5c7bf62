//===- LayoutAttrCodec.cpp - Layout attributes <-> TLCLayout types --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"

#include "tlc/Dialect/Tile/IR/TileDialect.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

Attribute tlc::tile::encodeFragment(MLIRContext *context,
                                    const layout::Fragment &f) {
  return FragmentAttr::get(context, f);
}

Attribute tlc::tile::encodeLayout(MLIRContext *context,
                                  const layout::Layout &l) {
  return LayoutAttr::get(context, l);
}

std::optional<layout::Fragment> tlc::tile::decodeFragment(Attribute attr) {
  if (auto f = dyn_cast_or_null<FragmentAttr>(attr))
    return f.getFragment();
  return std::nullopt;
}

std::optional<layout::Layout> tlc::tile::decodeLayout(Attribute attr) {
  if (auto l = dyn_cast_or_null<LayoutAttr>(attr))
    return l.getLayout();
  return std::nullopt;
}
