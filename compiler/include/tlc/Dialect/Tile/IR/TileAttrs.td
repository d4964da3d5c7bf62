//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Attributes of the `tile` dialect. Layout attributes (shared-memory
// swizzles, fragment thread maps) are added here by the layout work.
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

#endif // TLC_DIALECT_TILE_IR_TILEATTRS_TD
