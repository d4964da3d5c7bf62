//===- SharedLayouts.cpp - Shared-memory swizzle and padding layouts ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/SharedLayouts.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "tlc/Layout/WgmmaLayouts.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <string>

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static bool validElementBits(unsigned bits) {
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

/// Whether \p shape, its last dimension widened to \p lastExtent (a padded
/// row), has an element count that fits int64_t with room for the offsets
/// these layouts form (a panel's `rows * width`, a stage's `rows * pitch`).
static bool fitsOffsets(llvm::ArrayRef<int64_t> shape, int64_t lastExtent) {
  llvm::SmallVector<int64_t> widened(shape.begin(), shape.end());
  if (!widened.empty())
    widened.back() = lastExtent;
  int64_t n = numElementsSaturated(widened);
  return n > 0 && n < std::numeric_limits<int64_t>::max();
}

static llvm::Error tooLarge(llvm::ArrayRef<int64_t> shape) {
  std::string dims;
  for (int64_t e : shape)
    dims += (dims.empty() ? "" : ", ") + std::to_string(e);
  return makeError("a shared layout of [" + dims +
                   "] has more elements than 64-bit offsets can address");
}

int64_t tlc::layout::swizzleBytes(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::B32:
    return 32;
  case SwizzleMode::B64:
    return 64;
  case SwizzleMode::B128:
    return 128;
  }
  return 0;
}

LayoutKind tlc::layout::layoutKindOf(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::B32:
    return LayoutKind::Swizzle32B;
  case SwizzleMode::B64:
    return LayoutKind::Swizzle64B;
  case SwizzleMode::B128:
    return LayoutKind::Swizzle128B;
  }
  return LayoutKind::Custom;
}

std::array<int, 3> tlc::layout::cuteSwizzleBytes(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::B32:
    return {1, 4, 3};
  case SwizzleMode::B64:
    return {2, 4, 3};
  case SwizzleMode::B128:
    return {3, 4, 3};
  }
  return {0, 4, 3};
}

bool tlc::layout::canSwizzle(SwizzleMode mode, int64_t rows, int64_t cont,
                             unsigned elemBits) {
  if (!validElementBits(elemBits) || rows <= 0 || cont <= 0)
    return false;
  int64_t width = swizzleBytes(mode) * 8 / elemBits;
  return rows % 8 == 0 && cont % width == 0;
}

/// Offset contributed by the leading dimensions: `lead_flat * tileElems`,
/// over inputs 0 .. rank-3.
static IndexExpr leadingOffset(llvm::ArrayRef<int64_t> shape,
                               int64_t tileElems) {
  IndexExpr lead = IndexExpr::constant(0);
  for (unsigned d = 0; d + 2 < shape.size(); ++d)
    lead = lead * shape[d] + IndexExpr::var(d, inputName(d));
  return lead * tileElems;
}

llvm::Expected<Layout> tlc::layout::makeSwizzledLayout(
    llvm::ArrayRef<int64_t> shape, unsigned elemBits, SwizzleMode mode) {
  if (shape.size() < 2)
    return makeError("a swizzled layout needs a buffer of rank >= 2");
  int64_t rows = shape.end()[-2], cont = shape.back();
  if (!canSwizzle(mode, rows, cont, elemBits))
    return makeError(stringifyLayoutKind(layoutKindOf(mode)) +
                     " does not apply to [" + llvm::Twine(rows) + ", " +
                     llvm::Twine(cont) + "] with " + llvm::Twine(elemBits) +
                     "-bit elements");
  if (!fitsOffsets(shape, cont))
    return tooLarge(shape);
  unsigned rank = shape.size();
  IndexExpr i = IndexExpr::var(rank - 2, inputName(rank - 2));
  IndexExpr j = IndexExpr::var(rank - 1, inputName(rank - 1));
  int64_t vec = 128 / elemBits;
  int64_t chunks = swizzleBytes(mode) / 16;
  int64_t width = chunks * vec; // elements per panel row
  IndexExpr s = floorMod(i, 8);
  IndexExpr phase = mode == SwizzleMode::B128  ? s
                    : mode == SwizzleMode::B64 ? floorDiv(s, 2)
                                               : floorDiv(s, 4);
  IndexExpr chunk = floorMod(floorDiv(j, vec), chunks);
  IndexExpr inAtom =
      floorMod(j, vec) + (bitXor(chunk, phase) + s * chunks) * vec;
  IndexExpr offset = floorDiv(j, width) * (rows * width) +
                     floorDiv(i, 8) * (8 * width) + inAtom +
                     leadingOffset(shape, rows * cont);
  llvm::Expected<Layout> l = Layout::get(shape.vec(), {offset},
                                         layoutKindOf(mode));
  if (l)
    l->setElementBits(elemBits);
  return l;
}

llvm::Expected<Layout>
tlc::layout::makeRowSwizzledLayout(llvm::ArrayRef<int64_t> shape,
                                   unsigned elemBits) {
  if (shape.empty() || (elemBits != 8 && elemBits != 16))
    return makeError("a row swizzle needs 8- or 16-bit elements");
  int64_t elems = 128 / elemBits;
  if (shape.back() % elems != 0)
    return makeError("a row swizzle needs rows of whole 16-byte chunks");
  if (!fitsOffsets(shape, shape.back()))
    return tooLarge(shape);
  unsigned rank = shape.size();
  int64_t chunks = shape.back() / elems;
  // XOR-ing the chunk with 3 row bits leaves the row unless it is a
  // multiple of 8 chunks (12 chunks: 8..11 would land on 12..15).
  if (chunks > 8 && chunks % 8 != 0)
    return makeError("a row swizzle of more than 8 chunks needs a multiple "
                     "of 8");
  IndexExpr row = IndexExpr::constant(0);
  for (unsigned d = 0; d + 1 < rank; ++d)
    row = row * shape[d] + IndexExpr::var(d, inputName(d));
  IndexExpr col = IndexExpr::var(rank - 1, inputName(rank - 1));
  IndexExpr mask = chunks >= 8    ? floorMod(row, 8)
                   : chunks == 4 ? floorMod(floorDiv(row, 2), 4)
                   : chunks == 2 ? floorMod(floorDiv(row, 4), 2)
                                 : IndexExpr::constant(0);
  IndexExpr offset = row * shape.back() +
                     bitXor(floorDiv(col, elems), mask) * elems +
                     floorMod(col, elems);
  LayoutKind kind = chunks >= 8    ? LayoutKind::Swizzle128B
                    : chunks == 4 ? LayoutKind::Swizzle64B
                    : chunks == 2 ? LayoutKind::Swizzle32B
                                  : LayoutKind::Linear;
  llvm::Expected<Layout> l = Layout::get(shape.vec(), {offset}, kind);
  if (l)
    l->setElementBits(elemBits);
  return l;
}

llvm::Expected<Layout> tlc::layout::makePaddedLayout(
    llvm::ArrayRef<int64_t> shape, unsigned elemBits, int64_t padElems) {
  if (shape.size() < 2)
    return makeError("a padded layout needs a buffer of rank >= 2");
  if (padElems < 0)
    return makeError("padding must be non-negative");
  unsigned rank = shape.size();
  int64_t rows = shape.end()[-2], cont = shape.back();
  int64_t pitch = 0;
  if (llvm::AddOverflow(cont, padElems, pitch) || !fitsOffsets(shape, pitch))
    return tooLarge(shape);
  IndexExpr offset = IndexExpr::var(rank - 2, inputName(rank - 2)) * pitch +
                     IndexExpr::var(rank - 1, inputName(rank - 1)) +
                     leadingOffset(shape, rows * pitch);
  llvm::Expected<Layout> l =
      Layout::get(shape.vec(), {offset}, LayoutKind::Padded);
  if (l) {
    l->setElementBits(elemBits);
    l->setPadding(padElems);
  }
  return l;
}

std::optional<SwizzleMode>
tlc::layout::widestSwizzle(llvm::ArrayRef<int64_t> shape, unsigned elemBits) {
  if (shape.size() < 2)
    return std::nullopt;
  for (SwizzleMode m : {SwizzleMode::B128, SwizzleMode::B64, SwizzleMode::B32})
    if (canSwizzle(m, shape.end()[-2], shape.back(), elemBits))
      return m;
  return std::nullopt;
}

/// Row-major layout with the element width recorded.
static Layout linearWithBits(llvm::ArrayRef<int64_t> shape,
                             unsigned elemBits) {
  Layout l = Layout::linear(shape);
  l.setElementBits(elemBits);
  return l;
}

/// \p l, or the row-major layout where it could not be formed (a shape
/// past what offsets address: the program is refused elsewhere).
static Layout orLinear(llvm::Expected<Layout> l, llvm::ArrayRef<int64_t> shape,
                       unsigned elemBits) {
  if (l)
    return std::move(*l);
  llvm::consumeError(l.takeError());
  return linearWithBits(shape, elemBits);
}

Layout tlc::layout::makeGemmABLayoutSm80(llvm::ArrayRef<int64_t> shape,
                                         unsigned elemBits, bool kInner) {
  if (shape.size() < 2 || !validElementBits(elemBits))
    return linearWithBits(shape, elemBits);
  int64_t cont = shape.back();
  bool canPad = (cont * elemBits) % 256 == 0;
  if (elemBits == 8 && !kInner && canPad)
    return orLinear(makePaddedLayout(shape, elemBits, 128 / elemBits), shape,
                    elemBits);
  if (std::optional<SwizzleMode> m = widestSwizzle(shape, elemBits))
    return orLinear(makeSwizzledLayout(shape, elemBits, *m), shape, elemBits);
  if (canPad)
    return orLinear(makePaddedLayout(shape, elemBits, 128 / elemBits), shape,
                    elemBits);
  return linearWithBits(shape, elemBits);
}

Layout tlc::layout::makeGemmABLayoutHopper(llvm::ArrayRef<int64_t> shape,
                                           unsigned elemBits) {
  return makeWgmmaOperandLayout(shape, elemBits, 0);
}

Layout tlc::layout::makeWgmmaOperandLayout(llvm::ArrayRef<int64_t> shape,
                                           unsigned elemBits, int64_t mnStep) {
  if (shape.size() >= 2)
    for (SwizzleMode m :
         {SwizzleMode::B128, SwizzleMode::B64, SwizzleMode::B32}) {
      if (!canSwizzle(m, shape.end()[-2], shape.back(), elemBits))
        continue;
      if (mnStep > 0 && (mnStep * elemBits) % (swizzleBytes(m) * 8) != 0)
        continue;
      return orLinear(makeSwizzledLayout(shape, elemBits, m), shape, elemBits);
    }
  return linearWithBits(shape, elemBits);
}

llvm::Expected<Layout> tlc::layout::makeMatrixCoreSwizzleLayout(
    llvm::ArrayRef<int64_t> shape, unsigned elemBits, int64_t kPack) {
  if (shape.size() < 2)
    return makeError("a swizzled layout needs a buffer of rank >= 2");
  if (!validElementBits(elemBits) || elemBits > 32 || kPack < 1)
    return makeError("matrix-core swizzle needs 8/16/32-bit elements");
  unsigned rank = shape.size();
  int64_t rows = shape.end()[-2], cont = shape.back();
  int64_t vecSize = (64 / elemBits) * kPack;
  if (cont % vecSize != 0)
    return makeError("matrix-core swizzle needs the contiguous extent " +
                     llvm::Twine(cont) + " to be a multiple of " +
                     llvm::Twine(vecSize));
  if (!fitsOffsets(shape, cont))
    return tooLarge(shape);
  int64_t perPhase = std::max<int64_t>(1, (32 * 32 / elemBits) / cont);
  int64_t maxPhase = std::min<int64_t>(16 / perPhase, cont / vecSize);
  IndexExpr row = IndexExpr::var(rank - 2, inputName(rank - 2));
  IndexExpr col = IndexExpr::var(rank - 1, inputName(rank - 1));
  IndexExpr phase = floorMod(floorDiv(row, perPhase), maxPhase);
  IndexExpr swizzled =
      bitXor(floorDiv(col, vecSize), phase) * vecSize + floorMod(col, vecSize);
  IndexExpr offset = row * cont + swizzled + leadingOffset(shape, rows * cont);
  llvm::Expected<Layout> l = Layout::get(shape.vec(), {offset});
  if (!l)
    return l.takeError();
  if (!l->isBijective())
    return makeError("matrix-core swizzle is not a bijection on [" +
                     llvm::Twine(rows) + ", " + llvm::Twine(cont) + "]");
  l->setElementBits(elemBits);
  return l;
}

std::optional<SwizzleMode>
tlc::layout::detectSwizzleMode(const Layout &layout) {
  switch (layout.getKind()) {
  case LayoutKind::Swizzle32B:
    return SwizzleMode::B32;
  case LayoutKind::Swizzle64B:
    return SwizzleMode::B64;
  case LayoutKind::Swizzle128B:
    return SwizzleMode::B128;
  default:
    break;
  }
  if (layout.getInputRank() < 2 || layout.getOutputRank() != 1)
    return std::nullopt;
  std::vector<unsigned> widths;
  if (layout.getElementBits())
    widths.push_back(layout.getElementBits());
  else
    widths = {16, 8, 32, 64};
  for (unsigned bits : widths)
    for (SwizzleMode m :
         {SwizzleMode::B128, SwizzleMode::B64, SwizzleMode::B32}) {
      llvm::Expected<Layout> candidate =
          makeSwizzledLayout(layout.getInputShape(), bits, m);
      if (!candidate) {
        llvm::consumeError(candidate.takeError());
        continue;
      }
      if (candidate->isEquivalentTo(layout))
        return m;
    }
  return std::nullopt;
}

llvm::Expected<Layout> tlc::layout::mergeSharedLayouts(const Layout &a,
                                                       const Layout &b) {
  if (a.isEquivalentTo(b))
    return a;
  std::optional<SwizzleMode> ma = detectSwizzleMode(a),
                             mb = detectSwizzleMode(b);
  if (ma && mb && a.getInputShape() == b.getInputShape())
    return swizzleBytes(*ma) <= swizzleBytes(*mb) ? a : b;
  return makeError("conflicting shared layouts: " + a.shortLabel() + " vs " +
                   b.shortLabel());
}
