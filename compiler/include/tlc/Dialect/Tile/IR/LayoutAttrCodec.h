//===- LayoutAttrCodec.h - Layout attributes <-> TLCLayout types -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that knows how layouts are stored in Tile IR: the
// `#tile.layout<...>` (shared memory) and `#tile.fragment<...>` (registers)
// attributes on `tile.alloc`, `tile.parallel` and `tile.annotate_layout`,
// plus the constructor names (`"make_swizzled_layout"`) the evaluator
// records for `T.annotate_layout` arguments it cannot evaluate.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_LAYOUTATTRCODEC_H
#define TLC_DIALECT_TILE_TRANSFORMS_LAYOUTATTRCODEC_H

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/Layout.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/MLIRContext.h"

#include <optional>

namespace tlc {
namespace tile {

/// Builds the attribute that stores \p fragment.
mlir::Attribute encodeFragment(mlir::MLIRContext *context,
                               const layout::Fragment &fragment);
/// Builds the attribute that stores \p layout.
mlir::Attribute encodeLayout(mlir::MLIRContext *context,
                             const layout::Layout &layout);

/// The fragment stored in \p attr; std::nullopt when \p attr is not a
/// fragment attribute.
std::optional<layout::Fragment> decodeFragment(mlir::Attribute attr);
/// The layout stored in \p attr; std::nullopt when \p attr is not a layout
/// attribute.
std::optional<layout::Layout> decodeLayout(mlir::Attribute attr);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_LAYOUTATTRCODEC_H
