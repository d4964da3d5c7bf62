//===- TileBase.td - Tile dialect definition and enums -----*- tablegen -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `tile` dialect and the enumerations its types and operations use.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_TILEBASE_TD
#define TLC_DIALECT_TILE_IR_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tlc::tile";
  let summary = "Tile-level IR of TileLang kernels";
  let description = [{
    The `tile` dialect is what tlc's staged evaluator builds from a TileLang
    program: one `tile.func` per kernel instance, holding `tile.kernel`
    launch regions, buffer allocations in every TileLang memory scope and
    tile operations (`tile.copy`, `tile.gemm`, `tile.reduce`, ...) on
    `!tile.buffer` values. Scalar arithmetic uses the `arith` and `math`
    dialects, which this dialect loads.

    Buffers are typed by shape, element type and memory scope:

    ```mlir
    !tile.buffer<[128, 32], f16, shared.dyn>
    !tile.buffer<[M, block_K], f16, global>
    !tile.buffer<["M // 128", 4], f32, local.fragment>
    ```

    Conventions:

    * Index computations (block and thread indices, loop variables, buffer
      indices, extents) have type `index`. Element values have the buffer's
      element type; integer element types are used through their signless
      form (`ui8` buffers load and store `i8` values), as `arith` requires.
    * Region-holding statement ops (`tile.func`, `tile.kernel`,
      `tile.parallel`, `tile.pipelined`, `tile.for`, `tile.if`,
      `tile.while`) have a single block and no terminator: a builder simply
      appends operations at the end of the body block.
    * Python-level names (buffer variables, loop variables) travel in
      `NameLoc` locations; print with `--mlir-use-nameloc-as-prefix` to see
      them as SSA names.
    * Layouts are attributes: the optional `layout` attribute of
      `tile.alloc`, the `loop_layout` attribute of `tile.parallel` and the
      attribute operand of `tile.annotate_layout`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Registers the dialect's types (TileTypes.cpp).
    void registerTypes();
  }];
}

//===----------------------------------------------------------------------===//
// Enumerations
//===----------------------------------------------------------------------===//

// The memory scopes of TileLang buffers, with TileLang's exact strings. The
// order matches tlc/Lang/Scope.def so both tables can be mapped by string.
def Tile_MemoryScope : I32EnumAttr<"MemoryScope", "TileLang memory scope", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"SharedDyn", 1, "shared.dyn">,
    I32EnumAttrCase<"Shared", 2, "shared">,
    I32EnumAttrCase<"Fragment", 3, "local.fragment">,
    I32EnumAttrCase<"Local", 4, "local">,
    I32EnumAttrCase<"LocalVar", 5, "local.var">,
    I32EnumAttrCase<"Barrier", 6, "shared.barrier">,
    I32EnumAttrCase<"ClusterBarrier", 7, "shared.cluster_barrier">,
    I32EnumAttrCase<"TensorMemory", 8, "shared.tmem">,
    I32EnumAttrCase<"Reducer", 9, "local.reducer">,
    I32EnumAttrCase<"DescriptorWgmma", 10, "local.descriptor.wgmma">,
    I32EnumAttrCase<"DescriptorTcgen05Smem", 11,
                    "local.descriptor.tcgen05_smem">,
    I32EnumAttrCase<"DescriptorTcgen05Instr", 12,
                    "local.descriptor.tcgen05_instr">,
    // TileLang's Ascend back end: analysed, built for no tlc target.
    I32EnumAttrCase<"AscendL1", 13, "shared.l1">,
    I32EnumAttrCase<"AscendL0A", 14, "shared.l0a">,
    I32EnumAttrCase<"AscendL0B", 15, "shared.l0b">,
    I32EnumAttrCase<"AscendL0C", 16, "shared.l0c">,
    I32EnumAttrCase<"AscendUB", 17, "shared.ub">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_MemoryScopeAttr : EnumAttr<Tile_Dialect, Tile_MemoryScope, "scope">;

def Tile_GemmWarpPolicy : I32EnumAttr<"GemmWarpPolicy",
    "how the warps of a block partition a T.gemm tile", [
    I32EnumAttrCase<"Square", 0, "square">,
    I32EnumAttrCase<"FullRow", 1, "full_row">,
    I32EnumAttrCase<"FullCol", 2, "full_col">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_GemmWarpPolicyAttr
    : EnumAttr<Tile_Dialect, Tile_GemmWarpPolicy, "policy">;

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "tile reduction kind", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"AbsSum", 3, "abssum">,
    I32EnumAttrCase<"AbsMax", 4, "absmax">,
    I32EnumAttrCase<"BitAnd", 5, "bitand">,
    I32EnumAttrCase<"BitOr", 6, "bitor">,
    I32EnumAttrCase<"BitXor", 7, "bitxor">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce">;

def Tile_LoopKind : I32EnumAttr<"LoopKind", "flavour of a tile.for loop", [
    I32EnumAttrCase<"Serial", 0, "serial">,
    I32EnumAttrCase<"Unroll", 1, "unroll">,
    I32EnumAttrCase<"Vectorized", 2, "vectorized">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_LoopKindAttr : EnumAttr<Tile_Dialect, Tile_LoopKind, "loop">;

// What tile.clc_query reads from a cluster launch control response.
def Tile_ClcQueryKind : I32EnumAttr<"ClcQueryKind",
    "what a cluster launch control query decodes", [
    I32EnumAttrCase<"IsCanceled", 0, "is_canceled">,
    I32EnumAttrCase<"FirstCtaidX", 1, "first_ctaid_x">,
    I32EnumAttrCase<"FirstCtaidY", 2, "first_ctaid_y">,
    I32EnumAttrCase<"FirstCtaidZ", 3, "first_ctaid_z">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_ClcQueryKindAttr
    : EnumAttr<Tile_Dialect, Tile_ClcQueryKind, "clc_query">;

def Tile_SymbolKind : I32EnumAttr<"SymbolKind",
    "where the value of a kernel symbol comes from", [
    // `T.dynamic("m")`: one kernel for every value, read at launch.
    I32EnumAttrCase<"Dynamic", 0, "dynamic">,
    // `T.const("M")`: specialised per call from the tensor arguments.
    I32EnumAttrCase<"Const", 1, "const">,
    // A factory/meta parameter no call site bound.
    I32EnumAttrCase<"Meta", 2, "meta">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_SymbolKindAttr : EnumAttr<Tile_Dialect, Tile_SymbolKind, "symkind">;

def Tile_SwizzleOrder : I32EnumAttr<"SwizzleOrder",
    "block rasterization order of T.use_swizzle", [
    I32EnumAttrCase<"Row", 0, "row">,
    I32EnumAttrCase<"Column", 1, "column">,
    I32EnumAttrCase<"Mlx", 2, "mlx">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_SwizzleOrderAttr
    : EnumAttr<Tile_Dialect, Tile_SwizzleOrder, "swizzle_order">;

def Tile_MemoryOrder : I32EnumAttr<"MemoryOrder", "atomic memory order", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Consume", 1, "consume">,
    I32EnumAttrCase<"Acquire", 2, "acquire">,
    I32EnumAttrCase<"Release", 3, "release">,
    I32EnumAttrCase<"AcqRel", 4, "acq_rel">,
    I32EnumAttrCase<"SeqCst", 5, "seq_cst">
  ]> {
  let cppNamespace = "::tlc::tile";
  let genSpecializedAttr = 0;
}

def Tile_MemoryOrderAttr
    : EnumAttr<Tile_Dialect, Tile_MemoryOrder, "memory_order">;

#endif // TLC_DIALECT_TILE_IR_TILEBASE_TD
