//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operations of the `tile` dialect: kernel structure, allocation, views,
// tile compute, element access, control flow, synchronisation and debug.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_TILEOPS_TD
#define TLC_DIALECT_TILE_IR_TILEOPS_TD

include "tlc/Dialect/Tile/IR/TileBase.td"
include "tlc/Dialect/Tile/IR/TileAttrs.td"
include "tlc/Dialect/Tile/IR/TileTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

// Any `!tile.buffer`. A plain constraint (C++ type mlir::Type) rather than
// Tile_Buffer itself, so that assembly prints types in full
// (`!tile.buffer<...>`) instead of the stripped `<...>` form; C++ code casts
// with `cast<BufferType>(value.getType())`.
def Tile_Buffer : Type<CPred<"::llvm::isa<::tlc::tile::BufferType>($_self)">,
                       "tile buffer">;

// A scalar value: what a buffer element or an index expression is.
def Tile_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat, Index],
                            "integer, float or index scalar">;
// What a buffer element may be read as (vectors for `float16x2` buffers).
def Tile_ElementValue : AnyTypeOf<[AnySignlessInteger, AnyFloat, Index,
                                   AnyVectorOfAnyRank],
                                  "scalar or vector element value">;

// The value type of the elements of the buffer operand named `buffer`.
class Tile_ElementValueOf<string buffer, string value>
    : TypesMatchWith<"type of '" # value # "' is the element value type of '"
                     # buffer # "'", buffer, value,
                     "::tlc::tile::getElementValueType($_self)">;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Tile_FuncOp : Tile_Op<"func", [
    FunctionOpInterface, IsolatedFromAbove, SingleBlock, NoTerminator,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a TileLang kernel function (one instance of a prim_func)";
  let description = [{
    One instance of a `@T.prim_func` (or eager `@tilelang.jit` function):
    its tensor parameters (`!tile.buffer` in `global` scope) and scalar
    parameters (`i32`, `f32`, ...), the symbols its shapes use, and a body
    holding `tile.kernel` launches and `global` allocations. The body has
    one block, whose arguments are the parameters, and no terminator.

    The optional `symbols(...)` clause declares every symbol that
    `tile.symbol` ops and symbolic buffer dimensions of this function name,
    with where its value comes from (`dynamic`, `const` or `meta`).

    `fast_math` (from `@tilelang.jit(pass_configs={
    PassConfigKey.TL_ENABLE_FAST_MATH: True})`) lets GPU targets use
    approximate math: `exp2`, `exp`, `log`, `log2`, `sin`, `cos`, `tan`,
    `pow` and f32 division on hardware approximations that flush
    subnormals, as nvcc's `--use_fast_math` does. The CPU target keeps
    IEEE math.

    ```mlir
    tile.func @matmul(%A: !tile.buffer<[M, 1024], f16, global>,
                      %B: !tile.buffer<[1024, 1024], f16, global>,
                      %C: !tile.buffer<[M, 1024], f16, global>)
        symbols(M: dynamic) {
      %M = tile.symbol "M"
      ...
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<StrAttr>:$sym_visibility,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs,
    OptionalAttr<Tile_SymbolDeclArrayAttr>:$symbols,
    UnitAttr:$fast_math
  );
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins
    "::llvm::StringRef":$name, "::mlir::FunctionType":$type,
    CArg<"::llvm::ArrayRef<SymbolDeclAttr>", "{}">:$symbols)>];
  let extraClassDeclaration = [{
    /// The callable region; null for a declaration.
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    /// Parameter types.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// Result types (always empty for kernels).
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// A declaration when the body is empty.
    bool isDeclaration() { return isExternal(); }
    /// Looks up the declaration of symbol \p name; null when undeclared.
    SymbolDeclAttr lookupSymbol(::llvm::StringRef name);
    /// Adds the entry block with one argument per parameter (locations
    /// \p argLocs, or the op's location when empty) and returns it.
    ::mlir::Block *addEntryBlock(::llvm::ArrayRef<::mlir::Location> argLocs = {});
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_KernelOp : Tile_Op<"kernel", [
    AttrSizedOperandSegments, SingleBlock, NoTerminator,
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a kernel launch: grid, threads and the per-block body";
  let description = [{
    `with T.Kernel(*blocks, threads=...) as (bx, by):`. The grid has 1 to 3
    extents and the block 1 to 3 thread extents; each is a static integer or
    an `index` value. The body has one block whose `index` arguments are
    the block indices, one per grid extent, and no terminator.

    ```mlir
    tile.kernel (%bx, %by) grid [8, %n] threads [128] {
      %A_shared = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
      ...
    }
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$grid,
    DenseI64ArrayAttr:$static_grid,
    Variadic<Index>:$threads,
    DenseI64ArrayAttr:$static_threads
  );
  let regions = (region SizedRegion<1>:$body);
  let builders = [OpBuilder<(ins
    "::llvm::ArrayRef<::mlir::OpFoldResult>":$grid,
    "::llvm::ArrayRef<::mlir::OpFoldResult>":$threads)>];
  let extraClassDeclaration = [{
    /// The grid extents, static or dynamic.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedGrid();
    /// The thread extents, static or dynamic.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedThreads();
    /// Total threads per block when every thread extent is static.
    std::optional<int64_t> getStaticNumThreads();
    /// The block index arguments (bx, by, bz).
    ::mlir::Block::BlockArgListType getBlockIndices() {
      return getBody().getArguments();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_SymbolOp : Tile_Op<"symbol", [
    Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the value of a named kernel symbol";
  let description = [{
    The `index` value of a symbol of the enclosing `tile.func` (a
    `T.dynamic`/`T.const` size or an unbound meta parameter). The name must
    be declared in the function's `symbols(...)` clause.

    ```mlir
    %M = tile.symbol "M"
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Index:$result);
  let assemblyFormat = "$name attr-dict";
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name), [{
    build($_builder, $_state, $_builder.getIndexType(), name);
  }]>];
  let hasVerifier = 1;
}

def Tile_ThreadBindingOp : Tile_Op<"thread_binding", [
    Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the thread index of the enclosing kernel";
  let description = [{
    `T.get_thread_binding(dim)`: `threadIdx.x/y/z` of the enclosing
    `tile.kernel`, as an `index`.

    ```mlir
    %tx = tile.thread_binding 0
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<2>]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
  let builders = [OpBuilder<(ins "int64_t":$dim), [{
    build($_builder, $_state, $_builder.getIndexType(), dim);
  }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Allocation and views
//===----------------------------------------------------------------------===//

def Tile_AllocOp : Tile_Op<"alloc", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "allocate a buffer in any memory scope";
  let description = [{
    `T.alloc_shared`, `T.alloc_fragment`, `T.alloc_local`, `T.alloc_var`,
    `T.alloc_barrier`, `T.alloc_global`: a buffer of the result type. All
    scopes but `global` must be allocated inside a `tile.kernel`; `global`
    ones outside of it.

    * `local.var` buffers have shape `[1]` and may have an `init` value.
    * Barrier buffers (`shared.barrier`, `shared.cluster_barrier`) have shape
      `[n]`, a 64-bit integer element type and `arrive_counts` with n
      entries.
    * `layout` is an optional layout attribute (filled in by layout
      inference or copied from `T.annotate_layout`).

    ```mlir
    %A_shared = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
    %i = tile.alloc init(%c0 : i32) : !tile.buffer<[1], i32, local.var>
    %bar = tile.alloc {arrive_counts = array<i64: 128, 128>}
        : !tile.buffer<[2], ui64, shared.barrier>
    ```
  }];
  let arguments = (ins
    Optional<Tile_ElementValue>:$init,
    OptionalAttr<DenseI64ArrayAttr>:$arrive_counts,
    OptionalAttr<AnyAttr>:$layout
  );
  let results = (outs Res<Tile_Buffer, "", [MemAlloc]>:$result);
  let assemblyFormat = [{
    (`init` `(` $init^ `:` type($init) `)`)? attr-dict `:` type($result)
  }];
  let builders = [OpBuilder<(ins "BufferType":$type,
                                 CArg<"::mlir::Value", "{}">:$init)>];
  let hasVerifier = 1;
}

def Tile_RegionOp : Tile_Op<"region", [
    Pure, DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "a rectangular region (view) of a buffer";
  let description = [{
    The region of `source` that starts at `offsets` (one per dimension,
    static or `index` values) and has the result type's shape: TileLang's
    `A[by * 128, k * 32]` (a start point whose extents come from the other
    operand of `T.copy`) and slices `A[0:64, :]` / `A[i, 0:32]`. The
    region has the same rank, element type and scope as its source; a
    scalar index gives extent 1.

    A global region may extend past its tensor: the elements outside are
    guarded (reads give zero, writes are dropped). Other scopes are not, as
    in TileLang: a shared region must lie inside its allocation
    (tile-check-shared-bounds reports one that always leaves it).

    ```mlir
    %tile = tile.region %A[%y, %x]
        : !tile.buffer<[M, K], f16, global> to !tile.buffer<[128, 32], f16, global>
    %row = tile.region %S[%i, 0]
        : !tile.buffer<[64, 64], f32, shared.dyn> to !tile.buffer<[1, 64], f32, shared.dyn>
    ```
  }];
  let arguments = (ins
    Tile_Buffer:$source,
    Variadic<Index>:$offsets,
    DenseI64ArrayAttr:$static_offsets
  );
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = [{
    $source `` custom<DynamicIndexList>($offsets, $static_offsets) attr-dict
    `:` type($source) `to` type($result)
  }];
  let builders = [OpBuilder<(ins "BufferType":$resultType, "::mlir::Value":$source,
                                 "::llvm::ArrayRef<::mlir::OpFoldResult>":$offsets)>];
  let extraClassDeclaration = [{
    /// The offsets, static or dynamic.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedOffsets();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile operations
//===----------------------------------------------------------------------===//

def Tile_CopyOp : Tile_Op<"copy"> {
  let summary = "copy a tile between buffers or regions";
  let description = [{
    `T.copy(src, dst)`: copies every element of `src` to `dst` (any scopes),
    converting the element type when they differ. The shapes must agree once
    dimensions of extent 1 are dropped (`[1, 64]` and `[64]` agree); the
    verifier checks static extents and symbolic ones by name.

    ```mlir
    tile.copy %tile to %A_shared
        : !tile.buffer<[128, 32], f16, global> to !tile.buffer<[128, 32], f16, shared.dyn>
    ```
  }];
  let arguments = (ins
    Arg<Tile_Buffer, "source", [MemRead]>:$src,
    Arg<Tile_Buffer, "destination", [MemWrite]>:$dst,
    OptionalAttr<I64Attr>:$coalesced_width,
    UnitAttr:$disable_tma,
    OptionalAttr<StrAttr>:$eviction_policy
  );
  let assemblyFormat = [{
    $src `to` $dst attr-dict `:` type($src) `to` type($dst)
  }];
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::mlir::Value":$dst), [{
    build($_builder, $_state, src, dst, /*coalesced_width=*/nullptr,
          /*disable_tma=*/nullptr, /*eviction_policy=*/nullptr);
  }]>];
  let hasVerifier = 1;
}

def Tile_GemmOp : Tile_Op<"gemm"> {
  let summary = "tile matrix multiply-accumulate C += op(A) * op(B)";
  let description = [{
    `T.gemm(A, B, C, transpose_A, transpose_B, policy, clear_accum, k_pack,
    wg_wait)`. A is `[M, K]` (`[K, M]` with `transpose_a`), B is `[K, N]`
    (`[N, K]` with `transpose_b`) and the accumulator C is `[M, N]`, a
    `local.fragment` buffer. A and B live in shared memory or fragments and
    have the same element type; C is an integer type exactly when A's is.
    Leading dimensions of extent 1 are ignored, so regions of multi-buffered
    tiles can be operands. `clear_accum` sets C = op(A) * op(B).

    ```mlir
    tile.gemm %A_s, %B_s, %acc {policy = #tile<policy full_row>, transpose_b}
        : !tile.buffer<[128, 32], f16, shared.dyn>,
          !tile.buffer<[128, 32], f16, shared.dyn>,
          !tile.buffer<[128, 128], f32, local.fragment>
    ```
  }];
  let arguments = (ins
    Arg<Tile_Buffer, "A", [MemRead]>:$a,
    Arg<Tile_Buffer, "B", [MemRead]>:$b,
    Arg<Tile_Buffer, "accumulator C", [MemRead, MemWrite]>:$c,
    UnitAttr:$transpose_a,
    UnitAttr:$transpose_b,
    UnitAttr:$clear_accum,
    DefaultValuedAttr<Tile_GemmWarpPolicyAttr, "GemmWarpPolicy::Square">:$policy,
    DefaultValuedAttr<I64Attr, "1">:$k_pack,
    DefaultValuedAttr<I64Attr, "0">:$wg_wait
  );
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];

  let hasVerifier = 1;
}

def Tile_FillOp : Tile_Op<"fill", [Tile_ElementValueOf<"dst", "value">]> {
  let summary = "fill a buffer or region with a value";
  let description = [{
    `T.fill(buffer, value)`: every element of `dst` becomes `value`, whose
    type is the element value type of `dst`.

    ```mlir
    tile.fill %m_i, %neg_inf : !tile.buffer<[128], f32, local.fragment>
    ```
  }];
  let arguments = (ins
    Arg<Tile_Buffer, "destination", [MemWrite]>:$dst,
    Tile_ElementValue:$value
  );
  let assemblyFormat = "$dst `,` $value attr-dict `:` type($dst)";
  let hasVerifier = 1;
}

def Tile_ClearOp : Tile_Op<"clear"> {
  let summary = "set every element of a buffer or region to zero";
  let description = [{
    `T.clear(buffer)`.

    ```mlir
    tile.clear %acc : !tile.buffer<[128, 128], f32, local.fragment>
    ```
  }];
  let arguments = (ins Arg<Tile_Buffer, "destination", [MemWrite]>:$dst);
  let assemblyFormat = "$dst attr-dict `:` type($dst)";
}

def Tile_ReduceOp : Tile_Op<"reduce"> {
  let summary = "reduce a tile along one dimension";
  let description = [{
    `T.reduce_sum/max/min/abssum/absmax/bitand/bitor/bitxor(src, dst, dim,
    clear)`. `dst` has the shape of `src` without dimension `dim` (or with
    extent 1 there). With `clear` the result overwrites `dst`; without it
    the reduction accumulates into `dst`. `dim` is non-negative (the builder
    normalises `-1`). Bitwise kinds need integer elements.

    ```mlir
    tile.reduce max %scores to %m_i dim = 1 clear
        : !tile.buffer<[128, 64], f32, local.fragment> to !tile.buffer<[128], f32, local.fragment>
    ```
  }];
  let arguments = (ins
    Tile_ReduceKindAttr:$kind,
    Arg<Tile_Buffer, "source", [MemRead]>:$src,
    Arg<Tile_Buffer, "destination", [MemRead, MemWrite]>:$dst,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
    UnitAttr:$clear
  );
  let assemblyFormat = [{
    `` $kind $src `to` $dst `dim` `=` $dim (`clear` $clear^)? attr-dict
    `:` type($src) `to` type($dst)
  }];
  let hasVerifier = 1;
}

def Tile_CumSumOp : Tile_Op<"cumsum"> {
  let summary = "inclusive prefix sum of a tile along one dimension";
  let description = [{
    `T.cumsum(src, dst, dim, reverse)`; `dst` has the shape of `src` and may
    be `src` itself (the in-place form `T.cumsum(src)`).

    ```mlir
    tile.cumsum %x to %y dim = 0 reverse
        : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, shared.dyn>
    ```
  }];
  let arguments = (ins
    Arg<Tile_Buffer, "source", [MemRead]>:$src,
    Arg<Tile_Buffer, "destination", [MemWrite]>:$dst,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
    UnitAttr:$reverse
  );
  let assemblyFormat = [{
    $src `to` $dst `dim` `=` $dim (`reverse` $reverse^)? attr-dict
    `:` type($src) `to` type($dst)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicAddOp : Tile_Op<"atomic_add"> {
  let summary = "atomic add of an element or a tile";
  let description = [{
    `T.atomic_add(dst, value)`. Element form: `dst[indices] += value` with
    one `index` per dimension and a scalar `value`; with a result it returns
    the previous value (`return_prev=True`). Tile form (no indices): `value`
    is a buffer whose shape agrees with `dst` (a region), added elementwise.

    ```mlir
    tile.atomic_add %C[%i, %j], %v : !tile.buffer<[M, N], f32, global>, f32
    tile.atomic_add %C_tile, %acc
        : !tile.buffer<[128, 128], f32, global>, !tile.buffer<[128, 128], f32, local.fragment>
    %old = tile.atomic_add %cnt[%c0], %one {memory_order = #tile<memory_order relaxed>}
        : !tile.buffer<[1], i32, global>, i32 -> i32
    ```
  }];
  let arguments = (ins
    Arg<Tile_Buffer, "destination", [MemRead, MemWrite]>:$dst,
    Variadic<Index>:$indices,
    AnyType:$value,
    OptionalAttr<Tile_MemoryOrderAttr>:$memory_order
  );
  let results = (outs Optional<Tile_ElementValue>:$prev);
  let assemblyFormat = [{
    $dst (`[` $indices^ `]`)? `,` $value attr-dict `:` type($dst) `,`
    type($value) (`->` type($prev)^)?
  }];
  let builders = [
    // Tile form.
    OpBuilder<(ins "::mlir::Value":$dst, "::mlir::Value":$value), [{
      build($_builder, $_state, ::mlir::Type(), dst, ::mlir::ValueRange(),
            value, /*memory_order=*/nullptr);
    }]>,
    // Element form; \p returnPrev adds the previous-value result.
    OpBuilder<(ins "::mlir::Value":$dst, "::mlir::ValueRange":$indices,
                   "::mlir::Value":$value, CArg<"bool", "false">:$returnPrev), [{
      build($_builder, $_state,
            returnPrev ? value.getType() : ::mlir::Type(), dst, indices, value,
            /*memory_order=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [
    Tile_ElementValueOf<"buffer", "result">]> {
  let summary = "read one element of a buffer";
  let description = [{
    `buf[i, j]` used as a value. One `index` per dimension; a `local.var`
    buffer may also be read with no indices (reading the variable's name).
    The result is the element value type (signless for integers).

    ```mlir
    %x = tile.load %A_local[%i, %j] : !tile.buffer<[4, 8], f16, local>
    %k = tile.load %var[] : !tile.buffer<[1], i32, local.var>
    ```
  }];
  let arguments = (ins
    Arg<Tile_Buffer, "buffer", [MemRead]>:$buffer,
    Variadic<Index>:$indices
  );
  let results = (outs Tile_ElementValue:$result);
  let assemblyFormat = "$buffer `[` $indices `]` attr-dict `:` type($buffer)";
  let builders = [OpBuilder<(ins "::mlir::Value":$buffer,
                                 "::mlir::ValueRange":$indices), [{
    build($_builder, $_state,
          ::tlc::tile::getElementValueType(buffer.getType()), buffer, indices);
  }]>];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    Tile_ElementValueOf<"buffer", "value">]> {
  let summary = "write one element of a buffer";
  let description = [{
    `buf[i, j] = value` (and `var = value` for a `local.var`, with no
    indices). `value` has the element value type of the buffer.

    ```mlir
    tile.store %x, %C_local[%i, %j] : !tile.buffer<[4, 8], f32, local>
    tile.store %k1, %var[] : !tile.buffer<[1], i32, local.var>
    ```
  }];
  let arguments = (ins
    Tile_ElementValue:$value,
    Arg<Tile_Buffer, "buffer", [MemWrite]>:$buffer,
    Variadic<Index>:$indices
  );
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` attr-dict `:` type($buffer)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Loops and control flow
//===----------------------------------------------------------------------===//

def Tile_ParallelOp : Tile_Op<"parallel", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "elementwise parallel loop nest over a tile";
  let description = [{
    `for i, j in T.Parallel(ext0, ext1)`: the body runs once per point of
    the index space, distributed over the block's threads. Extents are
    static integers or `index` values; the body's `index` arguments are the
    loop variables. No tile operations (`tile.copy`, `tile.gemm`, ...) and
    no `tile.pipelined` may appear inside. `loop_layout` is the slot for a
    fragment layout attribute.

    ```mlir
    tile.parallel (%i, %j) in [128, 64] {
      %x = tile.load %S[%i, %j] : !tile.buffer<[128, 64], f32, local.fragment>
      ...
    }
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$extents,
    DenseI64ArrayAttr:$static_extents,
    OptionalAttr<I64Attr>:$coalesced_width,
    OptionalAttr<AnyAttr>:$loop_layout
  );
  let regions = (region SizedRegion<1>:$body);
  let builders = [OpBuilder<(ins
    "::llvm::ArrayRef<::mlir::OpFoldResult>":$extents)>];
  let extraClassDeclaration = [{
    /// The extents, static or dynamic.
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedExtents();
    /// The loop variables.
    ::mlir::Block::BlockArgListType getInductionVars() {
      return getBody().getArguments();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_PipelinedOp : Tile_Op<"pipelined", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "serial loop the compiler software-pipelines";
  let description = [{
    `for k in T.Pipelined(lb, ub, num_stages=n, order=..., stage=...)`:
    iterates `%k` from `lb` to `ub` (step 1); the compiler overlaps copies of
    later iterations with compute of earlier ones using `num_stages` buffers
    (0 means a plain loop). `order` and `stage`, when given, have one entry
    per top-level statement of the body: statement i of iteration j runs
    in pipeline step `j + stage[i]`, the statements of a step in ascending
    `order` (TileLang's rotated schedule, which tile-rotate-pipelines makes
    every target compute).

    ```mlir
    tile.pipelined %k = %c0 to %n stages 3 {
      ...
    }
    tile.pipelined %k = %c0 to %n stages 2 order [0, 1, 2] stage [0, 0, 1] {
      ...
    }
    ```
  }];
  let arguments = (ins
    Index:$lower_bound,
    Index:$upper_bound,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$num_stages,
    OptionalAttr<DenseI64ArrayAttr>:$order,
    OptionalAttr<DenseI64ArrayAttr>:$stage
  );
  let regions = (region SizedRegion<1>:$body);
  let builders = [OpBuilder<(ins "::mlir::Value":$lowerBound,
                                 "::mlir::Value":$upperBound,
                                 "int64_t":$numStages)>];
  let extraClassDeclaration = [{
    /// The loop variable.
    ::mlir::BlockArgument getInductionVar() {
      return getBody().getArgument(0);
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_ForOp : Tile_Op<"for", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "serial, unrolled or vectorised loop";
  let description = [{
    `T.serial`, `T.unroll`, `T.vectorized` and `range(...)` inside a
    kernel: `%i` goes from `lb` while below `ub` in increments of `step`
    (a non-zero value). The flavour keyword follows the bounds and is
    omitted for `serial`; `unroll_factor` is an optional attribute.

    ```mlir
    tile.for %i = %c0 to %c4 step %c1 unroll {
      ...
    }
    ```
  }];
  let arguments = (ins
    Index:$lower_bound,
    Index:$upper_bound,
    Index:$step,
    DefaultValuedAttr<Tile_LoopKindAttr, "LoopKind::Serial">:$kind,
    OptionalAttr<I64Attr>:$unroll_factor
  );
  let regions = (region SizedRegion<1>:$body);
  let builders = [OpBuilder<(ins "::mlir::Value":$lowerBound,
      "::mlir::Value":$upperBound, "::mlir::Value":$step,
      CArg<"LoopKind", "LoopKind::Serial">:$kind)>];
  let extraClassDeclaration = [{
    /// The loop variable.
    ::mlir::BlockArgument getInductionVar() {
      return getBody().getArgument(0);
    }
  }];
  let hasCustomAssemblyFormat = 1;
}

def Tile_IfOp : Tile_Op<"if", [
    NoTerminator, RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "conditional statement on an IR condition";
  let description = [{
    A Python `if` whose condition is an IR value (`i1`). The `then` region
    has one block; the `else` region is empty or has one block. Neither has
    a terminator or results: values chosen by a condition go through a
    `local.var` buffer, or `arith.select` for expressions
    (`T.if_then_else`).

    ```mlir
    tile.if %in_bounds {
      tile.store %x, %C[%i] : !tile.buffer<[N], f32, global>
    } else {
      ...
    }
    ```
  }];
  let arguments = (ins I1:$condition);
  let regions = (region SizedRegion<1>:$thenRegion, MaxSizedRegion<1>:$elseRegion);
  let hasCustomAssemblyFormat = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$condition,
                                 CArg<"bool", "false">:$withElse)>];
  let extraClassDeclaration = [{
    /// The block of the then branch.
    ::mlir::Block *thenBlock() { return &getThenRegion().front(); }
    /// The block of the else branch; null when there is none.
    ::mlir::Block *elseBlock() {
      return getElseRegion().empty() ? nullptr : &getElseRegion().front();
    }
  }];
}

def Tile_WhileOp : Tile_Op<"while", [
    NoTerminator, RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "while loop on an IR condition";
  let description = [{
    A Python `while` whose condition is an IR value. The `cond` region
    computes the condition and ends with `tile.condition`; the body region
    runs while it is true. Both regions have one block and no arguments.

    ```mlir
    tile.while {
      %k = tile.load %var[] : !tile.buffer<[1], i32, local.var>
      %c = arith.cmpi slt, %k, %n : i32
      tile.condition %c
    } do {
      ...
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = "custom<Body>($cond) `do` custom<Body>($body) attr-dict";
  let builders = [OpBuilder<(ins)>];
  let hasVerifier = 1;
}

def Tile_ConditionOp : Tile_Op<"condition", [HasParent<"WhileOp">]> {
  let summary = "the condition of a tile.while, last op of its cond region";
  let description = [{
    ```mlir
    tile.condition %c
    ```
  }];
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

//===----------------------------------------------------------------------===//
// Synchronisation, annotations and debug
//===----------------------------------------------------------------------===//

def Tile_SyncThreadsOp : Tile_Op<"sync_threads", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "block-wide barrier";
  let description = [{
    `T.sync_threads(barrier_id, arrive_count)`: `__syncthreads()`, or a named
    barrier when `barrier_id` is given.

    ```mlir
    tile.sync_threads
    tile.sync_threads {barrier_id = 1 : i64, arrive_count = 128 : i64}
    ```
  }];
  let arguments = (ins
    OptionalAttr<I64Attr>:$barrier_id,
    OptionalAttr<I64Attr>:$arrive_count
  );
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, /*barrier_id=*/nullptr, /*arrive_count=*/nullptr);
  }]>];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_BarrierOp : Tile_Op<"barrier", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a barrier the lowering placed among the threads running it";
  let description = [{
    A barrier that `tile-insert-barriers` placed to order shared-memory
    accesses: every thread that runs this code together waits here until
    all of them arrived, and their shared-memory writes before it are
    visible to their reads after it. Which threads those are follows from
    where the op sits: the whole block in the kernel body and block-uniform
    branches, the threads of a branch on the thread index that selects a
    range of warps (`T.ws(g)`, `tx < c`), the consumer threads of a
    warp-specialised kernel; the printer spells it accordingly
    (`__syncthreads()` or a named barrier over the range).

    `reason` says why the barrier is there (the printer writes it as a
    comment). `fence_proxy_async` puts `fence.proxy.async.shared::cta`
    before the barrier: the ordinary shared-memory writes it orders may be
    read by `wgmma` through the async proxy.

    Unlike `tile.sync_threads`, which the program wrote, this op is a
    decision of the lowering and never comes from the source.

    ```mlir
    tile.barrier "shared-memory dependence"
    tile.barrier fence_proxy_async "shared-memory dependence"
    tile.barrier "the previous iteration's reads are done"
    ```
  }];
  let arguments = (ins StrAttr:$reason, UnitAttr:$fence_proxy_async);
  let assemblyFormat = "(`fence_proxy_async` $fence_proxy_async^)? $reason attr-dict";
}

def Tile_UseSwizzleOp : Tile_Op<"use_swizzle"> {
  let summary = "rasterise the kernel's blocks in panels";
  let description = [{
    `T.use_swizzle(panel_size, order, enable)`: remaps block indices so
    neighbouring blocks share L2 lines. Only valid inside a `tile.kernel`.

    ```mlir
    tile.use_swizzle 10 row
    ```
  }];
  let arguments = (ins
    ConfinedAttr<I64Attr, [IntPositive]>:$panel_size,
    DefaultValuedAttr<Tile_SwizzleOrderAttr, "SwizzleOrder::Row">:$order,
    DefaultValuedAttr<BoolAttr, "true">:$enable
  );
  let assemblyFormat = "$panel_size `` $order attr-dict";
  let hasVerifier = 1;
}

def Tile_AnnotateLayoutOp : Tile_Op<"annotate_layout"> {
  let summary = "pin the layout of a buffer";
  let description = [{
    One entry of `T.annotate_layout({buffer: layout})`. `layout` is a layout
    attribute; until tlc's layout attributes exist, a string naming the
    layout constructor (`"make_swizzled_layout"`) is used.

    ```mlir
    tile.annotate_layout %A_shared layout("make_swizzled_layout")
        : !tile.buffer<[128, 32], f16, shared.dyn>
    ```
  }];
  let arguments = (ins Tile_Buffer:$buffer, AnyAttr:$layout);
  let assemblyFormat = [{
    $buffer `layout` `(` $layout `)` attr-dict `:` type($buffer)
  }];
  let hasVerifier = 1;
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "device printf of a value or a buffer";
  let description = [{
    `T.print(obj, msg)`: prints a scalar, or a whole buffer from one thread,
    prefixed with `msg`.

    ```mlir
    tile.print "acc" %acc : !tile.buffer<[16, 16], f32, local.fragment>
    tile.print "x" %x : f32
    tile.print "here"
    ```
  }];
  let arguments = (ins StrAttr:$msg, Optional<AnyType>:$value);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$msg,
                                 CArg<"::mlir::Value", "{}">:$value), [{
    build($_builder, $_state, $_builder.getStringAttr(msg), value);
  }]>];
  let assemblyFormat = "$msg ($value^ `:` type($value))? attr-dict";
  let hasVerifier = 1;
}

def Tile_DeviceAssertOp : Tile_Op<"device_assert", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "device-side assertion";
  let description = [{
    `T.device_assert(cond, msg)` and Python `assert` on an IR condition:
    traps with `msg` when `condition` is false.

    ```mlir
    tile.device_assert %ok, "index out of range"
    ```
  }];
  let arguments = (ins I1:$condition, StrAttr:$msg);
  let assemblyFormat = "$condition `,` $msg attr-dict";
}

def Tile_AssumeOp : Tile_Op<"assume", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a condition the program promises to hold";
  let description = [{
    `T.assume(cond)` on an IR condition: the program promises that
    `condition` holds wherever execution reaches the op. Nothing checks it.
    tile-legalize-bounds drops an index check that the promise proves for
    the accesses after it in its block (and nested in later operations of
    that block); the printers pass it to the C++ compiler
    (`__builtin_assume` on CUDA and HIP, `__builtin_unreachable` when it is
    false on the CPU target). A false promise is undefined behaviour, as in
    TileLang.

    ```mlir
    tile.assume %in_range
    ```

    The memory effects keep the op where it was written: it has no result,
    and what it promises holds only from there on.
  }];
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

//===----------------------------------------------------------------------===//
// Intrinsics and pointer views
//===----------------------------------------------------------------------===//

def Tile_IntrinsicOp : Tile_Op<"intrinsic", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a TileLang primitive that has no tile-level op of its own";
  let description = [{
    A call of a TileLang primitive whose meaning is a single target
    instruction or runtime call rather than a tile computation: warp
    shuffles and votes, mbarrier and cluster synchronisation, async-proxy
    fences, `setmaxnreg`, raw TMA/cp.async/ld/st intrinsics, fast and IEEE
    math with explicit rounding, packed two-wide math, `T.call_extern`,
    random numbers, Blackwell tensor-memory copies and the like.

    `callee` is the primitive's name as written in programs (`T.shfl_xor`);
    `params` names the parameter each operand was passed for, in order.
    Arguments that are not IR values (strings, flags, dtypes) are kept in
    `options`, keyed by parameter name. The op has at most one result, a
    scalar or vector element value whose type the primitive's rules give
    (`T.shfl_xor` returns its value's type, `T.ballot_sync` a `ui32`).
    Checking a program never needs more than this; a back end that cannot
    generate a given callee reports it when building for that target.

    The callee `tlc.unknown_value` stands for a value tlc could not
    evaluate at trace time (it came from outside TileLang, and a warning
    said so); `options` says what it was. The callee `tlc.unmodelled_call`
    stands for a call, inside a kernel, of such an object (a method of
    `tilelang.intrinsics`' TensorCoreIntrinEmitter, a TVM helper): its
    operands are the kernel data the call was given, `options.what` the
    callee as written. Building for any target refuses both
    (`tlc::tile::checkBuildable`).

    ```mlir
    %r = tile.intrinsic "T.shfl_xor"(%v, %c16) {params = ["value", "delta"]}
        : (f32, i32) -> f32
    tile.intrinsic "T.mbarrier_wait_parity"(%bar, %p)
        {params = ["mbarrier", "parity"]}
        : (!tile.buffer<[1], ui64, shared.barrier>, i32) -> ()
    tile.intrinsic "T.fence_proxy_async"() : () -> ()
    ```
  }];
  let arguments = (ins
    StrAttr:$callee,
    Variadic<AnyType>:$args,
    DefaultValuedAttr<StrArrayAttr, "{}">:$params,
    OptionalAttr<DictionaryAttr>:$options
  );
  let results = (outs Variadic<Tile_ElementValue>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Tile_MakeTensorOp : Tile_Op<"make_tensor", [Pure]> {
  let summary = "a global tensor view of a raw pointer";
  let description = [{
    `T.make_tensor(ptr, shape, dtype)` and `T.match_buffer(param, shape,
    dtype)`: the global tensor of the result's shape and dtype starting at
    the address held by `ptr` (a `T.ptr` parameter, an element of a pointer
    table, or a `T.handle`). Symbolic extents are named by kernel symbols,
    as for every other buffer.

    ```mlir
    %A = tile.make_tensor %ptr : i64 -> !tile.buffer<[M, 128], f16, global>
    ```
  }];
  let arguments = (ins AnySignlessInteger:$ptr);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = "$ptr attr-dict `:` type($ptr) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ViewOp : Tile_Op<"view", [Pure]> {
  let summary = "the same memory as a buffer of another shape or dtype";
  let description = [{
    `T.reshape(src, shape)` and `T.view(src, shape, dtype)`: the elements of
    `source`, in row-major order, seen as a buffer of the result's shape
    and element type, in the same memory scope. When both sizes are static
    they hold the same number of bits.

    ```mlir
    %flat = tile.view %A_shared
        : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[4096], f16, shared.dyn>
    %words = tile.view %A_shared
        : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 32], i32, shared.dyn>
    ```
  }];
  let arguments = (ins Tile_Buffer:$source);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cluster launch control (Blackwell)
//===----------------------------------------------------------------------===//

def Tile_ClcTryCancelOp : Tile_Op<"clc_try_cancel", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "ask to run a cluster of the grid that has not started yet";
  let description = [{
    `T.clc_try_cancel(result, mbarrier)` and
    `T.clc_try_cancel_multicast(result, mbarrier)`: Blackwell's cluster
    launch control (PTX ISA, `clusterlaunchcontrol.try_cancel`). The
    request cancels the launch of one cluster of the grid that has not
    started, so that the calling cluster can do its work instead (a
    persistent kernel stealing its next tile), or fails when every cluster
    has started. Its 16-byte response is written asynchronously into
    `response` (four 32-bit words of shared memory), and the write completes
    16 transaction bytes on `mbarrier`, whose phase the program has
    raised with `T.mbarrier_arrive_expect_tx(mbarrier, 16)`. With
    `multicast` the response goes to the same place in every block of the
    cluster and completes on each block's barrier at the same offset.
    `tile.clc_query` decodes the response once the wait on the barrier
    ended.

    ```mlir
    tile.clc_try_cancel %result, %bar
        : !tile.buffer<[4], ui32, shared>, !tile.buffer<[1], ui64, shared.barrier>
    tile.clc_try_cancel multicast %result, %bar
        : !tile.buffer<[1, 4], ui32, shared>, !tile.buffer<[1], ui64, shared.cluster_barrier>
    ```
  }];
  let arguments = (ins Tile_Buffer:$response, Tile_Buffer:$mbarrier,
                       UnitAttr:$multicast);
  let assemblyFormat = [{
    (`multicast` $multicast^)? $response `,` $mbarrier attr-dict `:`
    type($response) `,` type($mbarrier)
  }];
  let hasVerifier = 1;
}

def Tile_ClcQueryOp : Tile_Op<"clc_query", [MemoryEffects<[MemRead]>]> {
  let summary = "decode a cluster launch control response";
  let description = [{
    `T.clc_is_canceled(result)` and `T.clc_get_first_ctaid_x/y/z(result)`:
    `clusterlaunchcontrol.query_cancel` on the 16-byte response a
    `tile.clc_try_cancel` wrote into `response`. `is_canceled` (an `i1`)
    says whether the request canceled a cluster; `first_ctaid_x`, `_y`
    and `_z` (`i32`) are the block index of that cluster's first block
    (rank 0) along each dimension, which the calling block then works on.
    The block index is only meaningful when `is_canceled` holds.

    ```mlir
    %ok = tile.clc_query is_canceled %result : !tile.buffer<[4], ui32, shared> -> i1
    %x = tile.clc_query first_ctaid_x %result : !tile.buffer<[4], ui32, shared> -> i32
    ```
  }];
  let arguments = (ins Tile_ClcQueryKindAttr:$kind, Tile_Buffer:$response);
  let results = (outs AnySignlessInteger:$value);
  let assemblyFormat = [{
    `` $kind $response attr-dict `:` type($response) `->` type($value)
  }];
  let hasVerifier = 1;
}

#endif // TLC_DIALECT_TILE_IR_TILEOPS_TD
