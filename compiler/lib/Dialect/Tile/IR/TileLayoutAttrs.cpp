//===- TileLayoutAttrs.cpp - #tile.layout and #tile.fragment --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Conversions between the layout attributes and TLCLayout's Layout and
// Fragment, and their verifiers: the expressions must parse over the
// attribute's inputs and describe a valid map on the tile.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The expressions of \p exprs as an array of strings.
static ArrayAttr exprArray(MLIRContext *context,
                           llvm::ArrayRef<layout::IndexExpr> exprs) {
  SmallVector<Attribute> out;
  for (const layout::IndexExpr &e : exprs)
    out.push_back(StringAttr::get(context, e.str()));
  return ArrayAttr::get(context, out);
}

/// The strings of \p array; an error message when an entry is not one.
static FailureOr<std::vector<std::string>> exprTexts(ArrayAttr array) {
  std::vector<std::string> out;
  for (Attribute a : array) {
    auto s = dyn_cast<StringAttr>(a);
    if (!s)
      return failure();
    out.push_back(s.getValue().str());
  }
  return out;
}

static std::optional<layout::LayoutKind> parseKind(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<layout::LayoutKind>>(text)
      .Case("linear", layout::LayoutKind::Linear)
      .Case("swizzle 32B", layout::LayoutKind::Swizzle32B)
      .Case("swizzle 64B", layout::LayoutKind::Swizzle64B)
      .Case("swizzle 128B", layout::LayoutKind::Swizzle128B)
      .Case("padded", layout::LayoutKind::Padded)
      .Case("custom", layout::LayoutKind::Custom)
      .Default(std::nullopt);
}

/// Builds the Layout of the attribute's parameters.
static llvm::Expected<layout::Layout>
buildLayout(llvm::ArrayRef<int64_t> shape, ArrayAttr map, StringAttr kind,
            int64_t bits, int64_t padding) {
  FailureOr<std::vector<std::string>> texts = exprTexts(map);
  if (failed(texts))
    return llvm::createStringError("map entries must be strings");
  std::vector<std::string> names = layout::inputNames(shape.size());
  std::vector<layout::IndexExpr> forward;
  for (const std::string &text : *texts) {
    llvm::Expected<layout::IndexExpr> e = layout::parseIndexExpr(text, names);
    if (!e)
      return llvm::createStringError("in '" + text +
                                     "': " + llvm::toString(e.takeError()));
    forward.push_back(*e);
  }
  layout::LayoutKind k = layout::LayoutKind::Custom;
  if (kind) {
    std::optional<layout::LayoutKind> parsed = parseKind(kind.getValue());
    if (!parsed)
      return llvm::createStringError("unknown layout kind '" +
                                     kind.getValue().str() + "'");
    k = *parsed;
  }
  llvm::Expected<layout::Layout> l =
      layout::Layout::get(shape.vec(), std::move(forward), k);
  if (!l)
    return l.takeError();
  l->setElementBits(bits);
  l->setPadding(padding);
  if (!l->isInjective())
    return llvm::createStringError("the map is not injective on the tile");
  return l;
}

LayoutAttr LayoutAttr::get(MLIRContext *context, const layout::Layout &l) {
  StringAttr kind;
  if (l.getKind() != layout::LayoutKind::Custom)
    kind = StringAttr::get(context, layout::stringifyLayoutKind(l.getKind()));
  return get(context, l.getInputShape(), exprArray(context, l.getForward()),
             kind, l.getElementBits(), l.getPadding());
}

layout::Layout LayoutAttr::getLayout() const {
  llvm::Expected<layout::Layout> l = buildLayout(
      getShape(), getMap(), getKind(), getBits(), getPadding());
  if (!l) {
    llvm::consumeError(l.takeError());
    return layout::Layout::linear(getShape());
  }
  return std::move(*l);
}

LogicalResult
LayoutAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                   llvm::ArrayRef<int64_t> shape, ArrayAttr map,
                   StringAttr kind, int64_t bits, int64_t padding) {
  for (int64_t e : shape)
    if (e <= 0)
      return emitError() << "layout extents must be positive";
  llvm::Expected<layout::Layout> l =
      buildLayout(shape, map, kind, bits, padding);
  if (!l)
    return emitError() << "invalid layout: " << llvm::toString(l.takeError());
  return success();
}

/// Builds the Fragment of the attribute's parameters.
static llvm::Expected<layout::Fragment>
buildFragment(llvm::ArrayRef<int64_t> shape, StringAttr thread,
              ArrayAttr index, int64_t replicate, StringAttr origin,
              int64_t warpRows, int64_t warpCols) {
  FailureOr<std::vector<std::string>> texts = exprTexts(index);
  if (failed(texts))
    return llvm::createStringError("index entries must be strings");
  if (replicate < 1)
    return llvm::createStringError("replicate must be at least 1");
  if (warpRows < 0 || warpCols < 0)
    return llvm::createStringError("warp counts must be non-negative");
  layout::FragmentOrigin o;
  if (origin)
    o.tag = origin.getValue().str();
  o.warpRows = warpRows, o.warpCols = warpCols;
  return layout::Fragment::parse(shape.vec(), *texts, thread.getValue(),
                                 replicate, o);
}

FragmentAttr FragmentAttr::get(MLIRContext *context,
                               const layout::Fragment &f) {
  StringAttr origin;
  if (!f.getOrigin().tag.empty())
    origin = StringAttr::get(context, f.getOrigin().tag);
  return get(context, f.getInputShape(),
             StringAttr::get(context, f.getForwardThread().str()),
             exprArray(context, f.getForwardIndex()), f.getReplicate(), origin,
             f.getOrigin().warpRows, f.getOrigin().warpCols);
}

layout::Fragment FragmentAttr::getFragment() const {
  llvm::Expected<layout::Fragment> f =
      buildFragment(getShape(), getThread(), getIndex(), getReplicate(),
                    getOrigin(), getWarpRows(), getWarpCols());
  if (!f) {
    llvm::consumeError(f.takeError());
    return layout::Fragment::fullyReplicated(getShape(), 1);
  }
  return std::move(*f);
}

LogicalResult
FragmentAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                     llvm::ArrayRef<int64_t> shape, StringAttr thread,
                     ArrayAttr index, int64_t replicate, StringAttr origin,
                     int64_t warpRows, int64_t warpCols) {
  for (int64_t e : shape)
    if (e <= 0)
      return emitError() << "fragment extents must be positive";
  llvm::Expected<layout::Fragment> f =
      buildFragment(shape, thread, index, replicate, origin, warpRows,
                    warpCols);
  if (!f)
    return emitError() << "invalid fragment: "
                       << llvm::toString(f.takeError());
  if (llvm::Error err = f->verify(f->getThreadExtent()))
    return emitError() << "invalid fragment: " << llvm::toString(std::move(err));
  return success();
}
