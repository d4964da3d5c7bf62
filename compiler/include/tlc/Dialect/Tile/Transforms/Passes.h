//===- Passes.h - Tile dialect transformation passes ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declarations and registration of the Tile dialect's passes (one per file
// under compiler/lib/Dialect/Tile/Transforms, declared in Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TLC_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tlc/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace tlc {
namespace tile {

#define GEN_PASS_DECL
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_PASSES_H
