//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Attributes of the `tile` dialect: symbol declarations and the layout
// attributes (shared-memory index maps, fragment thread maps). Layout
// expressions are stored as text in TLCLayout's syntax (Python operators
// over the inputs i, j, k, ... and rep) and checked by the verifiers.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_TILEATTRS_TD
#define TLC_DIALECT_TILE_IR_TILEATTRS_TD

include "tlc/Dialect/Tile/IR/TileBase.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_SymbolDeclAttr : Tile_Attr<"SymbolDecl", "symbol"> {
  let summary = "declaration of a named kernel symbol";
  let description = [{
    Declares a symbol of a `tile.func`: a name that shapes and index
    expressions use while its value is unknown, and where the value will come
    from (`dynamic` for `T.dynamic`, `const` for `T.const`, `meta` for a
    factory parameter no call site bound). `tile.func` prints its list in
    the `symbols(...)` clause; the attribute's own form is:

    ```mlir
    #tile.symbol<"block_M", meta>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    EnumParameter<Tile_SymbolKind>:$kind
  );
  let assemblyFormat = "`<` $name `,` $kind `>`";
}

def Tile_SymbolDeclArrayAttr
    : TypedArrayAttrBase<Tile_SymbolDeclAttr, "array of symbol declarations">;

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

def Tile_LayoutAttr : Tile_Attr<"Layout", "layout"> {
  let summary = "shared-memory layout: logical tile index -> physical offset";
  let description = [{
    How a `shared` / `shared.dyn` buffer is stored. For the element at
    logical coordinate `(i, j, ...)` of a tile of `shape`, `map` gives the
    physical coordinate (usually one expression: the element offset). The
    expressions use Python integer syntax over the inputs `i, j, k, ...`
    (`//` floor division, `%` floor modulo, `^` xor, `&`, `|`, `<<`, `>>`),
    and must map the tile injectively.

    `kind` names the pattern (`linear`, `swizzle 32B`, `swizzle 64B`,
    `swizzle 128B`, `padded`, `custom`) for labels and TMA / WGMMA
    descriptors; `bits` is the element width the swizzle was built for and
    `padding` the extra elements per row of a padded layout.

    A 128-byte swizzle XOR-permutes the 16-byte chunks of each row of an
    8-row atom, `chunk' = chunk % 8 ^ row % 8`, so the 8 rows an `ldmatrix`
    reads hit 8 different bank groups. For `B_shared[32, 128]` f16 (8 halves
    per chunk, two 64-column panels):

    ```mlir
    #tile.layout<[32, 128], map = ["2048 * (j // 64) + 64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"],
                 kind = "swizzle 128B", bits = 16>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "logical shape">:$shape,
    "::mlir::ArrayAttr":$map,
    OptionalParameter<"::mlir::StringAttr", "layout kind">:$kind,
    DefaultValuedParameter<"int64_t", "0", "element width in bits">:$bits,
    DefaultValuedParameter<"int64_t", "0", "padding elements per row">:$padding
  );
  let assemblyFormat = [{
    `<` `[` $shape `]` `,` struct($map, $kind, $bits, $padding) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Builds the attribute of \p layout.
    static LayoutAttr get(::mlir::MLIRContext *context,
                          const ::tlc::layout::Layout &layout);
    /// The layout (the verifier guarantees it parses).
    ::tlc::layout::Layout getLayout() const;
  }];
}

def Tile_FragmentAttr : Tile_Attr<"Fragment", "fragment"> {
  let summary = "register fragment: element -> (thread, register) map";
  let description = [{
    How a `local.fragment` buffer (or the iterations of a `tile.parallel`
    loop) is spread over the threads of the block. Replica `rep` (in
    `[0, replicate)`) of the element at logical coordinate `(i, j, ...)` of a
    tile of `shape` lives in thread `thread(i, j, ..., rep)`, register
    `index(i, j, ...)` of that thread. Every element is held by
    `replicate` distinct threads and no two element replicas share a
    (thread, register) slot; the verifier checks this by enumeration.
    Expressions use the syntax of `#tile.layout`, plus the input `rep`.

    `origin` and `warp_rows` / `warp_cols` record where the layout came from (`mma.C`,
    `wgmma.C`, `mfma.A`, `mma.C row` for a reduction, `parallel` for a loop
    partition) and the gemm's warp grid, for labels and hovers.

    The accumulator of one sm_80 `mma.sync m16n8k16` (f32, 4 registers per
    lane): lane `4 * (i % 8) + j // 2` holds `(i, j)` in register
    `2 * (i // 8) + j % 2`:

    ```mlir
    #tile.fragment<[16, 8], thread = "4 * (i % 8) + j // 2",
                   index = ["2 * (i // 8) + j % 2"], origin = "mma.C">
    ```

    A row vector replicated over the 4 lanes of each quad:

    ```mlir
    #tile.fragment<[16], thread = "4 * (i % 8) + rep",
                   index = ["i // 8"], replicate = 4>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "logical shape">:$shape,
    "::mlir::StringAttr":$thread,
    "::mlir::ArrayAttr":$index,
    DefaultValuedParameter<"int64_t", "1", "threads per element">:$replicate,
    OptionalParameter<"::mlir::StringAttr", "provenance tag">:$origin,
    DefaultValuedParameter<"int64_t", "0", "gemm warps along M">:$warp_rows,
    DefaultValuedParameter<"int64_t", "0", "gemm warps along N">:$warp_cols
  );
  let assemblyFormat = [{
    `<` `[` $shape `]` `,` struct($thread, $index, $replicate, $origin,
                                   $warp_rows, $warp_cols) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Builds the attribute of \p fragment.
    static FragmentAttr get(::mlir::MLIRContext *context,
                            const ::tlc::layout::Fragment &fragment);
    /// The fragment (the verifier guarantees it parses).
    ::tlc::layout::Fragment getFragment() const;
  }];
}

#endif // TLC_DIALECT_TILE_IR_TILEATTRS_TD
