//===- TileTypes.td - Tile dialect types -------------------*- tablegen -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_TILETYPES_TD
#define TLC_DIALECT_TILE_IR_TILETYPES_TD

include "tlc/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_BufferType : Tile_Type<"Buffer", "buffer", [ShapedTypeInterface]> {
  let summary = "a TileLang buffer: shape, element type and memory scope";
  let description = [{
    A buffer of `shape` elements of `elementType` living in memory `scope`.
    Kernel tensor parameters, allocations and regions of buffers (views) all
    have this type.

    Each dimension is either a static extent (`128`), a symbolic extent
    named by a kernel symbol or by the text of an expression over symbols
    (`M`, `block_K`, `"M // 128"`), or an unnamed dynamic extent (`?`).
    Symbolic dimensions compare by their text: two dimensions named `M` are
    equal, `M` and `N` are not known to differ. In C++ a symbolic dimension
    is `ShapedType::kDynamic` in `getShape()` and its text is in
    `getDimSymbols()`.

    The element type is a builtin type: `i1` (bool), signless `i4`-`i64`
    (signed integers), `ui8`-`ui64` (unsigned), `f16`, `bf16`, `f32`,
    `f64`, `tf32`, the `f8*`/`f6*`/`f4*` types, or a vector of one of these
    (`vector<2xf16>` for `float16x2`).

    ```mlir
    !tile.buffer<[128, 32], f16, shared.dyn>
    !tile.buffer<[M, K], bf16, global>
    !tile.buffer<["(N + 127) // 128", ?], f32, local.fragment>
    !tile.buffer<[1], i32, local.var>
    !tile.buffer<[2], ui64, shared.barrier>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "static extents (kDynamic if symbolic)">:$shape,
    ArrayRefParameter<"::mlir::StringAttr",
                      "symbol text per dimension (null if none)">:$dimSymbols,
    "::mlir::Type":$elementType,
    EnumParameter<Tile_MemoryScope>:$scope
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins
      "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
      "MemoryScope":$scope), [{
      return $_get(elementType.getContext(), shape,
                   ::llvm::ArrayRef<::mlir::StringAttr>(), elementType, scope);
    }]>
  ];
  let skipDefaultBuilders = 0;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Creates a buffer type from a list of dimensions (static extents or
    /// symbolic texts). Normalises the storage so equal shapes give equal
    /// types.
    static BufferType get(::mlir::MLIRContext *context,
                          ::llvm::ArrayRef<Dim> dims, ::mlir::Type elementType,
                          MemoryScope scope);

    /// True, buffers are always ranked (ShapedType interface).
    bool hasRank() const { return true; }
    /// The same buffer with another shape (static extents, dropping
    /// symbols) and/or element type (ShapedType interface).
    ::mlir::ShapedType cloneWith(
        ::std::optional<::llvm::ArrayRef<int64_t>> shape,
        ::mlir::Type elementType) const;
    /// The dimensions as Dim values.
    ::llvm::SmallVector<Dim> getDims() const;
    /// Dimension \p i as a Dim.
    Dim getDim(unsigned i) const;
    /// Symbolic text of dimension \p i; empty for static and `?` dims.
    ::llvm::StringRef getDimSymbol(unsigned i) const;
    /// True when every dimension is a static extent.
    bool isStatic() const;
    /// The same buffer in another scope.
    BufferType withScope(MemoryScope newScope) const;
    /// The same buffer with other dimensions.
    BufferType withDims(::llvm::ArrayRef<Dim> newDims) const;
    /// The shape for display: `[128, 32]`, `[M, block_K]`,
    /// `[M // 128, ?]` (symbolic texts unquoted).
    std::string getShapeString() const;
  }];
}

#endif // TLC_DIALECT_TILE_IR_TILETYPES_TD
