//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TLC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileInferLayout : Pass<"tile-infer-layout", "::mlir::ModuleOp"> {
  let summary = "infer fragment thread maps and shared-memory swizzles";
  let description = [{
    Gives every `local.fragment` allocation of a `tile.kernel` an element ->
    (thread, register) map and every `shared`/`shared.dyn` allocation an
    index map (swizzle, padding or row-major), and gives every
    `tile.parallel` loop the fragment that partitions its iterations over
    the block's threads. The results are attached as the `layout` attribute
    of `tile.alloc` and the `loop_layout` attribute of `tile.parallel`.

    Inference follows TileLang's three levels:

    1. *strict*: layouts that ops impose. `tile.gemm` fixes its accumulator
       and register operands to the target's tensor-core fragments (sm_80
       `mma.sync m16n8k16`, sm_90 `wgmma m64nNk16`, CDNA MFMA 16x16x16 with
       wavefront 64), partitioned over the kernel's warps by the gemm's
       warp policy, and its shared operands to the swizzle the loads expect;
       `tile.annotate_layout` pins a buffer's layout; a fragment read
       outside any parallel loop is fully replicated.
    2. *common*: propagation to a fixed point. A `tile.parallel` loop takes
       the layout of a fragment it writes (else of a non-replicated one it
       reads) and completes the fragments it accesses; `tile.reduce` removes
       the reduced dimension (its threads become replicas); fragment ->
       fragment `tile.copy` carries a layout either way.
    3. *free*: for what is left, the cheapest candidate (fewest registers
       per thread) among the layouts of the fragments a loop reads and
       TileLang's vectorised round-robin partition; untouched fragments get
       the default partition. Shared buffers no gemm constrains are
       row-major, except sm_90 sources of a copy to global memory (TMA
       stores), which get the Hopper swizzle.

    Two ops that need different layouts for one buffer are an error on the
    second op, with a note at the first.

    ```mlir
    // Before:
    %acc = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
    tile.gemm %a, %b, %acc : ...
    // After (sm_80, 128 threads):
    %acc = tile.alloc {layout = #tile.fragment<[128, 128],
        thread = "64 * (j // 64) + 32 * (i // 64) + 4 * (i % 8) + (j // 2) % 4",
        index = ["32 * ((i // 16) % 4) + 4 * ((j // 8) % 8) + 2 * ((i // 8) % 2) + j % 2"],
        origin = "mma.C", warp_rows = 2, warp_cols = 2>} : ...
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Target whose gemm layouts apply: sm_80, sm_86, sm_89, sm_90, "
           "sm_90a, gfx90a or gfx942 (optionally prefixed by cuda: or "
           "hip:). Empty: the module's `tile.target` string attribute, "
           "else sm_80.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanPipelines : Pass<"tile-plan-pipelines", "::mlir::ModuleOp"> {
  let summary = "decide which T.Pipelined loops are multi-buffered and how";
  let description = [{
    Software pipelining plan of every `tile.pipelined` loop. With
    `num_stages = S >= 2`, the loop's *producers* — copies from global
    memory into whole shared buffers allocated outside the loop, whose
    operands depend only on index arithmetic — run `S - 1` iterations ahead
    into `S` copies of their shared buffers. A loop is left serial when it
    has no producer or when something else in the loop writes a buffer a
    producer fills.

    Explicit `stage = [...]` / `order = [...]` lists (one entry per
    statement of the body) are honoured when they describe such a plan:
    copies in stage 0 run `max(stage)` iterations ahead into
    `max(stage) + 1` buffers, everything else is in the last stage, and
    `order` orders the copies' issue and puts them before or after the
    compute, whose own order stays the program order. Lists this plan
    cannot honour (another stage split, reordered compute, lists of another
    length, such as TileLang's `group=` schedules) are a warning on the
    loop, which is then planned as if they were absent (tile-rotate-pipelines
    runs before and has rewritten every loop whose lists change its
    results, so the loops left here compute the same either way). Functions already
    marked, and default instances whose tile shapes depend on unbound
    parameters (`getUnboundTileParameters`), are left alone.

    Results, as attributes:

    * `tile.stages = S : i64` on a multi-buffered `tile.pipelined` and on
      every shared `tile.alloc` it stages (their memory is `S` times their
      type's size);
    * `tile.prefetch = R : i64` on each producer copy: its position in the
      issue order;
    * `tile.producers_last` on a loop whose copies are issued after the
      compute.

    ```mlir
    // num_stages = 3, one copy from global into %A_s:
    %A_s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>
    tile.pipelined %k = %c0 to %n {num_stages = 3 : i64, tile.stages = 3 : i64} {
      tile.copy %tileA, %A_s {tile.prefetch = 0 : i64} : ...
      tile.gemm %A_s, %B_s, %acc : ...
    }
    ```
  }];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanWgmma : Pass<"tile-plan-wgmma", "::mlir::ModuleOp"> {
  let summary = "choose wgmma for the gemms of sm_90a and lay out their operands";
  let description = [{
    On `sm_90a`, marks every `tile.gemm` that `wgmma.mma_async` can compute
    as the CUDA printer generates it, and lays out its shared operands for
    the instruction's matrix descriptors. A gemm takes wgmma when the
    layout library selects it (`layout::selectGemmInstr` on the sm_90
    family: M a multiple of 64, whole warpgroups, K a multiple of the
    instruction's K; 8-bit operands only K-major) and moreover: f16/bf16
    with an f32 accumulator (or e4m3/e5m2 with f32), B a whole shared
    allocation of static shape that a 128-, 64- or 32-byte swizzle covers
    (`layout::widestSwizzle`: rows a multiple of 8, the contiguous extent a
    multiple of the swizzle width) or a region of one whose last two
    dimensions start where a descriptor can (a pipeline stage `B[s, :, :]`,
    a K split `B[:, 0:64]`: on an 8-row group of the swizzle and a panel's
    first column, or for a K-major operand's K inside one panel on 16
    bytes; other regions keep mma.sync with a remark saying why, which
    T.wgmma_gemm's refusal gives), A such a shared operand too or a
    whole static f16/bf16 fragment stored [M, K] (the register-A form,
    `wgmma.mma_async ... {a}, descB`: the P.V product of attention, whose
    fragment gets the wgmma A register layout), a warp partition whose
    warpgroup tiles are multiples of 64 x 8, and no other gemm reading the
    same buffers with mma.sync. A kernel in which some gemm keeps mma.sync
    keeps it for all its gemms. Everything else keeps mma.sync (the layouts of the
    sm_80 family), and so does every gemm of a function whose pass
    configs set `tl.disable_wgmma` (TileLang's TL_DISABLE_WGMMA; layout
    inference then gives its fragments the sm_80 layouts too).

    Results, as attributes:

    * `tile.instr = "wgmma"` on each such `tile.gemm`;
    * on each of its shared operand allocations `tile.swizzle = S : i64` (the
      swizzle's row bytes: the buffer is stored in panels of S bytes per
      row, `layout::makeGemmABLayoutHopper`) and `tile.align = 1024 : i64`,
      which `tile-plan-shared-memory` honours (the hardware swizzles
      addresses, so every panel starts on a 1024-byte boundary).

    The target is the `target` option, else the module's `tile.gpu_target`
    string attribute (`cuda:sm_90a`; several architectures such as
    `cuda:sm_80,sm_90a` keep mma.sync, as does anything else).

    ```mlir
    %A_s = tile.alloc {tile.align = 1024 : i64, tile.swizzle = 64 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>
    %B_s = tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[32, 128], f16, shared.dyn>
    tile.gemm %A_s, %B_s, %acc {tile.instr = "wgmma"} : ...
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables wgmma). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanTcgen05 : Pass<"tile-plan-tcgen05", "::mlir::ModuleOp"> {
  let summary = "place tensor memory and choose tcgen05.mma on sm_100a";
  let description = [{
    On `sm_100a` (Blackwell), plans what the CUDA printer prints for
    tensor memory (`shared.tmem` buffers) and for the gemms that
    accumulate into it:

    * each `shared.tmem` allocation gets the first column of its tensor
      memory (`tile.tmem_col`) and its column count (`tile.tmem_cols`):
      its first dimension is the lanes (at most 128), the rest is packed
      into 32-bit columns (an f32 [128, 256] tile takes 256 columns, a
      bf16 [128, 64] one 32). The buffers are placed one after another; the
      kernel gets `tile.tmem_alloc_cols`, the total rounded up to a power
      of two of at least 32 (what tcgen05.alloc takes). More than the 512
      columns of a CTA is an error at the allocation that does not fit.
    * every `tile.gemm` whose accumulator is in tensor memory gets
      `tile.instr = "tcgen05"`, and its shared operands the swizzled
      panels of tile-plan-wgmma (`tile.swizzle`, `tile.align = 1024`):
      tcgen05's shared memory descriptors read the canonical layouts
      wgmma's do. Such a gemm needs f16/bf16 (or e4m3/e5m2, or K-major
      e2m1 fp4, whose panels give each element a byte slot: tcgen05's
      padded form, the 16 codes of each 16-byte chunk in its first 8
      bytes) operands with an f32 accumulator of 128 rows (one CTA; 256 with `tile.use_2cta`),
      B a whole static shared tile, A one too or a whole tensor memory
      tile (the TS form); otherwise the pass reports an error at the gemm
      and marks its function `tile.lowering_failed`.

    The target is the `target` option, else the module's
    `tile.gpu_target`; any target other than `cuda:sm_100a` leaves the
    module unchanged.

    ```mlir
    %C = tile.alloc {tile.tmem_col = 0 : i64, tile.tmem_cols = 256 : i64} : !tile.buffer<[128, 256], f32, shared.tmem>
    tile.gemm %A_s, %B_s, %C {tile.instr = "tcgen05", transpose_b} : ...
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_100a` or `cuda:sm_100a` plans tensor "
           "memory). Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanSharedMemory : Pass<"tile-plan-shared-memory", "::mlir::ModuleOp"> {
  let summary = "place every shared buffer of a kernel, reusing dead bytes";
  let description = [{
    Gives every `shared`/`shared.dyn` allocation of each `tile.kernel` a
    byte offset in the block's dynamic shared memory. A buffer is live from
    the first to the last statement of the kernel body that uses it (a loop
    is one statement; views count as uses, layout annotations do not), so
    buffers whose live ranges do not overlap may share bytes — as TileLang
    plans shared memory, and as the evaluator's budget check assumes.
    Pipeline stages (`tile.stages`, from `tile-plan-pipelines`) multiply a
    buffer's size. Buffers are placed largest first at the lowest offset,
    aligned to 128 bytes (or to the buffer's own `tile.align = A : i64`
    where larger, as `tile-plan-wgmma` asks for swizzled operands), that overlaps no placed buffer live at the same
    time; unused buffers take no bytes.

    Results: `tile.offset = B : i64` on each shared `tile.alloc` and
    `tile.shared_bytes = N : i64` (the bytes the plan needs) on each
    `tile.kernel`. Whoever reuses memory must order the accesses:
    `tile-insert-barriers` puts a barrier between the last use of a buffer
    and the first write of another that overlaps it. A shared buffer whose
    shape has symbolic extents (`[16, n]`) is sized only at launch: it gets
    `tile.dynamic_shared` instead of an offset, and the target places it
    after every planned byte (and whatever the target adds after them), at
    an offset computed at run time. One with an unknown extent (`?`) or
    pipeline stages is an error (its function is marked
    `tile.lowering_failed`); functions
    already marked and default instances whose tile shapes depend on
    unbound parameters are left alone.

    ```mlir
    // A_s (8 KiB) is dead when C_s (16 KiB) is first written:
    %A_s = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>
    %C_s = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[128, 64], f16, shared.dyn>
    tile.kernel ... {tile.shared_bytes = 16384 : i64}
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"128",
           "Byte alignment of every buffer's offset (a power of two).">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanTma : Pass<"tile-plan-tma", "::mlir::ModuleOp"> {
  let summary = "load the pipeline stages of sm_90a kernels with TMA and mbarriers";
  let description = [{
    On `sm_90a`, after `tile-plan-shared-memory`: a multi-buffered
    `tile.pipelined` (`tile.stages = S`) all of whose producers are box
    copies that the tensor memory accelerator can perform is loaded with
    `cp.async.bulk.tensor` instead of `cp.async`. A producer qualifies when
    its source is a `tile.region` of a global tensor argument that the
    kernel does not write, of static shape with rank 2 to 5, every
    extent below 2^31, its innermost stride 1 and the others multiples of
    16 bytes (what `cuTensorMapEncodeTiled` accepts; the dense row-major
    strides, or the parameter's static `tile.strides`: a view with a
    symbolic, unaligned or transposed stride keeps cp.async), whose
    region has at most two non-unit extents, the last along the tensor's innermost dimension; and
    its destination is a whole shared allocation with `tile.swizzle`
    (`tile-plan-wgmma`'s panels) of the same element type (1, 2 or 4
    bytes), at most 256 rows (a multiple of 8), its columns a whole number
    of swizzle panels. Each panel is then one box of the tensor map, and
    the box's out-of-bounds elements are filled with zeros, as the guarded
    cp.async copies fill them. Loops with any other producer keep cp.async
    entirely.

    Results, as attributes:

    * `tile.tma = I : i64` on each such copy: the index of its tensor map
      among the kernel's (the printer passes them in this order after the
      symbols);
    * `tile.tma_barriers = B : i64` on the loop: the byte offset of its
      ring of `S` 8-byte mbarriers (the full barriers, one per stage),
      placed after every planned buffer at an 8-byte boundary;
    * `tile.shared_bytes` on the kernel grows by the rings. A kernel whose
      rings would pass sm_90's 227 KiB keeps cp.async.
    * `tile.tma_store = I : i64` and `tile.tma_store_offset = O : i64` on
      the epilogue of a kernel with such a pipeline, when the tlc pass
      config `tlc.tma_store` asks, and without the config in a GEMM (the
      loop's one wgmma gemm, no one-shot loads) as a candidate marked
      `tile.tma_store_default`, which `tile-persistent-gemm` keeps only
      where it makes the kernel persistent with at least 8 tiles a
      multiprocessor (measured faster there, docs/perf/hopper.md, perf37;
      a one-tile kernel's TMA store measured no faster on the H200,
      docs/perf/hopper-fa-pingpong.md). When the kernel body's
      last statement copies a whole 2-D fragment into a region of a static
      global tensor argument (rank 2 to 5, 2- or 4-byte elements, strides
      as for the loads) whose non-unit extents are the fragment's rows (at most
      256, a multiple of 8) and the tensor's innermost dimension (a whole
      number of 128-byte panels), and a 1024-byte aligned run of planned
      buffers that no statement from the copy on uses (the dead stages)
      holds the tile, the copy is a TMA store: the threads write the
      fragment into 128-byte swizzled panels at byte `O`, fence them for
      the async proxy, and one thread stores each panel as a box of tensor
      map `I` (`cp.async.bulk.tensor` shared -> global, one bulk group,
      waited for until read). The copy engine clips the boxes at the
      tensor's edges, so ragged tiles need no guards. `disable_tma` on the
      copy and `tl.disable_tma_lower` keep the threads' own stores.
    * `tile.bulk_store` (a unit attribute) on a statement of the kernel
      body that copies a whole 1-D shared allocation (row-major, no
      swizzle) into a region of a static 1-D global tensor argument of the
      same element type (1 to 8 bytes), the tile's bytes a multiple of 16
      (issue 2529): after a proxy fence and a barrier one thread stores the
      run of whole 16-byte chunks inside the tensor with the non-tensor
      `cp.async.bulk.global.shared::cta` (when the global address is
      16-byte aligned) and waits until it is read; the threads store the
      rest (a ragged tail).
    * `tile.bulk_load = B` on a statement of the kernel body that copies a
      region of such a 1-D tensor, one the kernel does not write, into a
      whole 1-D shared allocation (the same conditions, the tile's bytes
      below 2^20): an mbarrier at byte `B` (8 bytes after the planned
      shared memory) is initialised, every thread fences the async proxy
      and meets at a barrier, one thread loads the run of whole 16-byte
      chunks inside the tensor with the non-tensor
      `cp.async.bulk.shared::cluster.global` completing on it (when the
      global address is 16-byte aligned), the threads load the rest and
      zero what lies outside the tensor, every thread waits for the
      mbarrier, and a barrier follows when statements come after it.
    * With `tlc.tma_once=True` (off by default: 7-8 % slower at head
      dimension 64 on an H100, docs/perf/hopper.md, perf36),
      `tile.tma = I` and `tile.tma_once = B` on a statement of the kernel
      body before its TMA pipeline (attention's Q): a box copy the rules
      above accept, whose destination only wgmma gemms read and before
      which no statement touches shared memory, is one TMA load completing
      on the mbarrier at byte `B` (placed before the ring's barriers; its
      map after every other). In a warp-specialised kernel the producer
      issues it before its loop and the consumers wait for it where the
      copy stands; else thread 0 issues it there and every thread waits.
      `tile-persistent-gemm` returns it to the threads (a persistent kernel
      loads Q for every tile).

    The target is the `target` option, else the module's `tile.gpu_target`
    attribute (`cuda:sm_90a` only).

    ```mlir
    tile.pipelined %k = %c0 to %n stages 3 attributes {tile.stages = 3 : i64, tile.tma_barriers = 49152 : i64} {
      %a = tile.region %A[%y, %x] : ... to !tile.buffer<[128, 32], f16, global>
      tile.copy %a to %A_s {tile.prefetch = 0 : i64, tile.tma = 0 : i64} : ...
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables TMA). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileSplitMasks : Pass<"tile-split-masks", "::mlir::ModuleOp"> {
  let summary = "skip per-element mask initialisations where they are all true";
  let description = [{
    Index-set splitting of masks in pipelined loops, when the tlc pass
    config `tlc.split_masks` asks (or the `force` option), and without the
    config for causal attention (a condition on two of the loop's indices
    initialising the accumulator of a wgmma gemm whose reduction is at most
    128: head dimension 64, measured faster, and 128, perf37's default);
    `tlc.split_masks=False` turns it off. A top-level
    `tile.parallel` of a `tile.pipelined` body whose body is pure integer
    arithmetic and one `tile.store` of `arith.select %c, %a, %b` into a
    whole static fragment at exactly the loop indices, with `%a` fixed for
    the iteration, becomes

    ```mlir
    tile.if %all {tile.split_mask} { tile.fill %frag, %a } else { <the loop> }
    ```

    where `%all`, computed before the branch from the values of the
    iteration, implies `%c` at every point: `%c` is a signed comparison
    (or an `and` of comparisons) of expressions built from the loop indices
    and iteration values by + - min max, * by a constant and floor division
    by a positive constant, whose least and greatest values over the index
    space (indices from 0 to extent - 1) are built as values. Attention's
    causal mask `bx * M + i >= k * N + j` is thus skipped on every key
    block below the diagonal (`bx * M >= k * N + N - 1`). Anything else is
    left as it is.

    When `%a` is +0.0 and the next op (past index arithmetic) is a wgmma
    `tile.gemm` accumulating into the fragment, the branch gets
    `tile.split_mask_scale_d` and the gemm `tile.scale_d_mask`: the CUDA
    printer drops the fill and gives the gemm's first k step scale-d =
    `!%all` (wgmma writes C = A * B). Unless the config is `fill` or
    `branch`, the branch also gets `tile.split_mask_loop`: the
    warp-specialised loop printers split the loop into the iterations
    where `%all` holds (no mask; left by a uniform `break` at the first
    where it does not, before anything of it is issued) and the rest.
    `tlc.split_masks=fill` keeps the fill and the branch, `=branch` the
    branch (with the scale-d fold).
  }];
  let options = [
    Option<"force", "force", "bool", /*default=*/"false",
           "Split in every kernel, without the pass config.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TilePadAnnotatedTiles
    : Pass<"tile-pad-annotated-tiles", "::mlir::ModuleOp"> {
  let summary = "store shared tiles annotated with a row-padded layout so";
  let description = [{
    A shared allocation of static shape whose `tile.annotate_layout` is a
    row-padded layout, element (x0, ..., xr-1) at `sum(x_d * stride_d)`
    with the last stride 1 and each other stride a multiple of the next of
    at least the next extent times it, some larger (TileLang's
    `T.Layout((65, 36), lambda i, j: i * 40 + j)`, as upstream's
    operand-alignment test annotates a gemm operand so that row 1 starts
    on a 16-byte boundary), is stored as annotated: the allocation becomes
    the padded tile (`[65, 40]`, linear) and its uses the region of the
    annotated shape at the origin (its regions are re-based on the padded
    tile); the annotation is dropped. Every element then lies where the
    layout puts it, and what reads the physical place (the gemm operand's
    origin, ldmatrix rows, bank conflicts) sees the annotated pitch.
    Left alone: other layouts, tiles with an initial value, and tiles
    that views, intrinsics or other annotations use. Runs first in the
    GPU lowering.
  }];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileReverseBlocks : Pass<"tile-reverse-blocks", "::mlir::ModuleOp"> {
  let summary = "launch the blocks with the longest loops first";
  let description = [{
    When the tlc pass config `tlc.heavy_blocks_first` asks (or the `force`
    option): in a kernel with a `tile.pipelined` loop from a constant to an
    upper bound that is a non-decreasing function of the first block index
    `bx` (+, min, max, * and / by positive constants of `bx` and values
    free of it) and really depends on it, every use of `bx` is replaced by
    `(grid_x - 1) - bx` (a static grid_x; the op carries
    `tile.heavy_blocks_first`). Blocks
    are launched in increasing linear order, so the longest run first and
    the last wave holds the shortest (causal attention: query block `bx`
    reads `bx + 1` key blocks). The set of block indices is unchanged; a
    kernel with atomics, intrinsic calls or `tile.while` loops, whose
    blocks could observe their order, is left alone.
  }];
  let options = [
    Option<"force", "force", "bool", /*default=*/"false",
           "Reverse in every qualifying kernel, without the pass config.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileWarpSpecialize : Pass<"tile-warp-specialize", "::mlir::ModuleOp"> {
  let summary = "give the TMA pipelines of sm_90a kernels a producer warpgroup";
  let description = [{
    On `sm_90a`, after `tile-plan-tma`: automatic warp specialisation of a
    kernel whose one TMA pipeline (`tile.tma_barriers`) lies in the kernel
    body itself and computes with `wgmma` gemms only. The launch grows by
    one *producer* warpgroup of 128 threads placed after the program's
    threads, which keep their indices and become the *consumers*:

    * the producer (one elected thread) runs the loop's iterations, waits
      on the stage's empty barrier (parity of its previous use), expects
      the stage's bytes on its full barrier and issues the TMA boxes;
    * the consumers run the whole kernel body as written: in the loop they
      wait on the stage's full barrier, compute, and once the wgmma that
      read the stage has completed each thread arrives on its empty
      barrier; no block barrier in the loop, and every block barrier of
      the kernel becomes a named barrier among the consumer threads;
    * `setmaxnreg` rebalances registers between the two roles (producer
      down, consumers up; `__launch_bounds__(threads, 1)`).

    A kernel qualifies when its static thread count is 128, 256 or 384,
    the pipeline's producers are all TMA copies whose stages only wgmma
    gemms read, the copies' coordinates and the loop bounds are index
    arithmetic on block indices, scalars and views of the function's
    tensors (the producer recomputes them), and the empty ring fits in
    227 KiB. Kernels that arrange threads themselves (thread bindings,
    thread ranges such as `T.ws` or `if tx < c`, mbarriers, named barriers,
    setmaxnreg, warp intrinsics) are left alone; reductions and scans do
    not disqualify a kernel (their cross-warp steps synchronise the
    consumers with a named barrier), so flash attention qualifies when it
    has at least two consumer warpgroups (a loop of several gemms with one
    stays single-role, which measured faster). Left alone too: every
    kernel of a function with `tl.disable_warp_specialized` (TileLang's
    TL_DISABLE_WARP_SPECIALIZED). `T.disable_warp_group_reg_alloc` /
    `T.no_set_max_nreg` keep the registers as they are; the counts may be
    chosen with `T.annotate_producer_reg_dealloc(n)` /
    `T.annotate_consumer_reg_alloc(n)` (multiples of 8 in 24..256).

    Results, as attributes:

    * `tile.ws_producer_threads = 128 : i64` on the `tile.kernel` (the
      block launched has this many more threads than the program names);
    * `tile.ws_max_nreg = array<i64: P, C>` on the kernel: the producer's
      and the consumers' setmaxnreg counts (absent: no setmaxnreg; only
      for 128 or 256 consumer threads, 40 / 232 by default);
    * `tile.ws_blocks_per_sm = N : i64` with it: the blocks per
      multiprocessor the counts are planned for (`__launch_bounds__`'s
      second argument). 2 for one consumer warpgroup whose shared memory
      lets two blocks share a multiprocessor (then 40 / 216 by default:
      2 x 128 x (40 + 216) = 65536 registers), else 1;
    * `tile.ws_empty_barriers = B : i64` on the loop: the byte offset of
      its ring of `S` empty mbarriers, placed after every planned buffer;
      `tile.shared_bytes` on the kernel grows by it.
    * `tile.ws_rings = R : i64` on the loop and `tile.ws_ring = r : i64` on
      each producer copy, when the loop has several gemms and none keeps a
      wgmma group in flight: producers whose stages are read by the same
      first and last op of the body share a ring, and each ring has its own
      `S` full and `S` empty barriers (ring r's stage s at index
      `s + S * r`; the full ring of tile-plan-tma grows in place to `R * S`
      barriers, the empty ones follow). The producer waits for and fills
      the rings in turn; the consumers wait for a ring's stage right before
      its first reader and release it right after its last (attention's K
      after S = Q K^T, V after O += P V). Absent: one ring for all
      producers, released at the end of the iteration.
    * `tile.ws_pingpong = B : i64` on such a loop of several rings when
      there are two consumer warpgroups (256 threads) and every gemm sits
      at the top of the loop body, and `tile.ws_pingpong` (unit) on each of
      those gemms: the warpgroups take turns at the tensor cores through
      the named barriers `B` and `B + 1` (B = 2; 1 is the consumers' block
      barrier). Warpgroup w waits for its turn (`bar.sync B + w, 256`)
      before a gemm's wgmma and hands the turn over (`bar.arrive
      B + 1 - w, 256`) once the group is committed, before waiting for it;
      warpgroup 1 hands warpgroup 0 the first turn before the loop and
      warpgroup 0 takes the last hand-over after it. The order is then
      S0 S1 P0 P1 per iteration, so one warpgroup's softmax runs while the
      other's gemm has the tensor cores. Only when the tlc pass config
      `tlc.ws_pingpong` asks: on the H200 it measured between -7% and +8%
      against free-running warpgroups (docs/perf/hopper-fa-pingpong.md).
      The turn's barrier ids are immediates in warp-uniform branches.
    * `tile.ws_overlap` (unit) on such a loop of several rings whose body
      ends with a P V gemm (A a register fragment) after S = Q K^T, when the
      tlc pass config `tlc.ws_overlap` asks (FA3's intra-warpgroup overlap):
      the ops after the last write of P (O's rescale, the P V gemm) get
      `tile.ws_stage = 1 : i64` and run one iteration late, right after
      the next S is issued (so they may not read the iteration's values or
      share a buffer with the ops up to S); the ops from the first one
      after S that touches P V's registers through the last write of P (the
      cast to P) get `tile.ws_after_wait`. The consumers then issue S(k) and
      P V(k-1) back to back, wait for S alone (`wgmma.wait_group 1`),
      release K's stage and run the softmax while P V is in flight, wait for
      P V (`wait_group 0`), release V's stage and write P; the first
      iteration's S and the last P V are peeled. With ping-pong the turn is
      taken before S and handed over after P V.
    * One consumer warpgroup shares a multiprocessor with a second block
      only when its fragments take at most 160 registers a thread.
    * `tile.wgmma_wait = 1 : i64` on the loop's gemm when it is the only
      one, reads A and B from shared memory and nothing else in the loop
      touches its accumulator: one wgmma group stays in flight across
      iterations (`wgmma.wait_group 1`), iteration k releases the stage of
      k - 1, and the consumers wait for the last group after the loop.

    ```mlir
    tile.kernel ... attributes {tile.shared_bytes = 49200 : i64, tile.ws_blocks_per_sm = 2 : i64, tile.ws_max_nreg = array<i64: 40, 216>, tile.ws_producer_threads = 128 : i64} {
      tile.pipelined %k = %c0 to %n stages 3 attributes {tile.stages = 3 : i64, tile.tma_barriers = 49152 : i64, tile.ws_empty_barriers = 49176 : i64} {
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePersistentGemm : Pass<"tile-persistent-gemm", "::mlir::ModuleOp"> {
  let summary = "make warp-specialised sm_90a GEMMs persistent";
  let description = [{
    On `sm_90a`, after `tile-warp-specialize`: a warp-specialised GEMM (one
    ring, the loop's one wgmma gemm keeping a group in flight:
    `tile.wgmma_wait`) whose static 1-D or 2-D grid has more tiles than
    the multiprocessors can hold at once is launched with one block per
    multiprocessor slot (`num-sms` x `tile.ws_blocks_per_sm`), and each
    block loops over the output tiles `blockIdx.x, blockIdx.x + gridDim.x,
    ...`. The tile's block indices come from a grouped rasterisation: the
    program's `T.use_swizzle(panel, order)` if it has one, else panels of
    8 rows of tiles. The producer warpgroup walks the same tiles with its
    stage and phase carried from tile to tile, so it loads the next tile's
    stages while the consumers still run the previous tile's epilogue; the
    consumers carry their read stage and phase too and release the stage
    of their last wgmma group after each tile.

    The epilogue (the body's last statement, a fragment stored to a global
    tile, staged through shared memory or stored by TMA) gets an area of
    its own after every planned buffer and barrier, since the stages it
    reused in a one-tile kernel are being refilled. A kernel qualifies
    when no shared buffer but the pipeline's stages is used outside the
    loop and the area fits in 227 KiB; where it does not fit (128 x 256 at
    4 stages), a kernel that `tlc.persistent=True` asks for stores its
    tile from the registers (`tile.epilogue_direct` on the copy, no TMA
    store; a TMA-store candidate's map index stays as
    `tile.epilogue_tma_map` for `tile-gemm-epilogue-bands`).
    `tlc.persistent=True` / `tlc.persistent=False` (pass config)
    force the choice; without it every qualifying GEMM is made persistent
    (measured faster on the H200, docs/perf/hopper-persistent.md) except
    one whose program names its own clusters (`cluster_dims`: a
    persistent launch is one row of blocks, which they would not tile).
    Where the area leaves room for fewer blocks a multiprocessor than
    tile-warp-specialize planned, `tile.ws_blocks_per_sm` is lowered to
    match (tile-gemm-pingpong and `__launch_bounds__` read it). `tlc.num_sms=N` overrides
    `num-sms` (another device; tests give each block several tiles of a
    small problem that way).

    With `tlc.persistent_attention=True` (off by default until measured) a
    warp-specialised attention kernel (two gemms over K and V rings, a
    static grid of query blocks x heads x batches, the output fragment
    stored last) is planned the same way: one block per multiprocessor
    walks the tiles in groups of G (head, batch) pairs, each group from its
    last query block down with the pairs fastest (causal rows longest
    first), G the largest divisor of the pairs whose K and V fit in half
    the L2 (`tlc.persistent_group=N` overrides); the consumers load Q
    themselves and the epilogue stages O in an area of its own.

    Results, as attributes:

    * `tile.persistent_ctas = N : i64` on the `tile.kernel`: the blocks
      launched (the manifest's grid becomes `[N]`);
    * `tile.persistent_panel = P : i64` and `tile.persistent_order = "row"
      | "column"`: the rasterisation (P = 0: tile t is block
      `(t % gx, t / gx)`); for attention, P = G and the order
      `"longest_first"`;
    * `tile.epilogue_area = B : i64` on the epilogue copy (the staging
      tile's byte offset; a TMA-stored epilogue's `tile.tma_store_offset`
      moves there), `tile.shared_bytes` grows by it;
    * `tile.tma_store_async` (unit) on the kernel when its epilogue is a
      TMA store whose panels' read is left in flight until the next tile's
      epilogue: `tlc.tma_store_async` asks, and without it every persistent
      GEMM's TMA store (measured as fast or faster than waiting at once,
      docs/perf/hopper.md, perf37).

    A TMA store that `tile-plan-tma` planned by default
    (`tile.tma_store_default`) is kept only in a GEMM made persistent here
    whose grid has at least 8 tiles a multiprocessor; elsewhere its
    attributes are removed (the threads store the tile).

    ```mlir
    tile.kernel (%bx, %by) grid [32, 64] threads [256] attributes {tile.persistent_ctas = 132 : i64, tile.persistent_order = "row", tile.persistent_panel = 10 : i64, ...} {
      ...
      tile.copy %C_local, %C_tile {tile.epilogue_area = 148480 : i64}
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">,
    Option<"numSms", "num-sms", "int64_t", /*default=*/"132",
           "Multiprocessors of the device (132 on the H100 SXM and the "
           "H200). The kernel is correct for any grid it is launched "
           "with; this only sizes the grid.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileGemmPingPong : Pass<"tile-gemm-pingpong", "::mlir::ModuleOp"> {
  let summary = "give persistent sm_90a GEMMs two consumer warpgroups that "
                "take alternate tiles (ping-pong)";
  let description = [{
    On `sm_90a`, after `tile-persistent-gemm`, when the tlc pass config
    `tlc.gemm_pingpong=True` asks, or without it where the H200 measured a
    gain (docs/perf/hopper-gemm-pingpong.md): a static trip count of at
    most 64 k-steps a tile, at least two tiles a block on average (a
    static grid), and one block a multiprocessor in tile-persistent-gemm's
    plan (`tlc.gemm_pingpong=False` turns it off): a persistent
    warp-specialised GEMM (`tile.persistent_ctas`) whose program has one
    warpgroup (128 threads: one consumer warpgroup accumulates the whole
    tile, e.g. 128 x 128 as two wgmma m64 rows) is launched with a second
    consumer warpgroup, 384 threads in all. Consumer warpgroup `w` runs the
    program's body (its threads are the program's threads 0..127) for the
    block's tiles `w`, `w + 2`, ... of the persistent schedule; the
    producer fills the one ring for every tile of the block in order, as
    before. Each warpgroup carries its ring position across the other's
    tiles (it steps over the other tile's trip count, which is its own: the
    loop bounds may not depend on the block indices), and the warpgroups
    take turns at the tensor cores: warpgroup `w` waits for its turn
    (`bar.sync B + w, 256`) before its tile's main loop and hands it over
    (`bar.arrive B + 1 - w, 256`) once the loop's last wgmma group is
    committed, before it waits for that group and stores its tile. One
    warpgroup's epilogue thus runs while the other's main loop holds the
    tensor cores (CUTLASS's ping-pong kernel schedule). Warpgroup 1 hands
    warpgroup 0 the first turn before its tile loop; after it, the
    warpgroup that did not run the block's last tile takes the last
    hand-over, so every arrival is matched. The empty barriers keep their
    count of 128 (one warpgroup reads each stage).

    A kernel qualifies when, besides the loop, its body has only index
    arithmetic, views, allocations, `T.use_swizzle`, and clears, fills and
    `T.Parallel` loops that touch no shared buffer and at most one fragment
    (an elementwise epilogue: nothing the printer would stage in a shared
    area both warpgroups use), and the epilogue (the copy
    tile-persistent-gemm gave an area), and the second epilogue area fits
    in 227 KiB. Odd tile counts give warpgroup 0 one tile more; a block
    with one tile leaves warpgroup 1 idle.

    Results, as attributes:

    * `tile.gemm_pingpong = B : i64` on the kernel: two consumer
      warpgroups; named barriers `B` and `B + 1` are the turns, `B + 2 + w`
      warpgroup `w`'s own barrier (every block barrier of the body, 128
      threads);
    * `tile.epilogue_area_stride = S : i64` on the epilogue: warpgroup
      `w`'s staging tile (or TMA store panels) at `tile.epilogue_area +
      w * S` (S a multiple of 1024); `tile.shared_bytes` grows by it;
    * `tile.persistent_ctas` becomes one block per multiprocessor,
      `tile.ws_blocks_per_sm = 1`, and `tile.ws_max_nreg` 40 / 232 (the
      program's annotated counts where they fit three warpgroups).

    ```mlir
    tile.kernel (%bx, %by) grid [3, 3] threads [128] attributes {tile.gemm_pingpong = 2 : i64, tile.persistent_ctas = 2 : i64, tile.ws_blocks_per_sm = 1 : i64, tile.ws_max_nreg = array<i64: 40, 232>, ...} {
      ...
      tile.copy %C_local, %C_tile {tile.epilogue_area = 132096 : i64, tile.epilogue_area_stride = 35840 : i64}
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileGemmWideN : Pass<"tile-gemm-wide-n", "::mlir::ModuleOp"> {
  let summary = "give an sm_90a GEMM's consumer warpgroups whole rows of "
                "the accumulator (one wgmma as wide as N)";
  let description = [{
    On `sm_90a`, before `tile-plan-wgmma`: the one gemm of a kernel (both
    operands in shared memory, an f32 fragment accumulator, two or more
    consumer warpgroups) of the Square policy (TileLang's default; the IR
    does not record whether the program named it) gets `policy = FullRow`
    where the default Square partition splits the
    accumulator's columns between warpgroups and FullRow gives every
    warpgroup bands of 64 rows with all N <= 256 columns. At 128 x 256 over
    two warpgroups Square's 4 x 2 warps issue two m64n128k16 wgmmas a
    warpgroup reading the same B columns each k16; FullRow's 8 x 1 issue
    one m64n256k16 (the issue's "widest N that fits"; cuBLAS's sm90 kernels
    of that tile run two warpgroups along M): 20 instead of 24 KiB of
    shared operands read per MFLOP, half the HGMMA instructions. The
    fragment's registers a thread are the same. `tlc.gemm_wide_n=False`
    keeps Square.

    Results, as attributes: `policy = #tile<policy full_row>` and the unit
    `tile.wide_n` on the gemm.

    ```mlir
    tile.gemm %A_shared, %B_shared, %C_local {policy = #tile<policy full_row>, tile.wide_n}
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileGemmEpilogueBands
    : Pass<"tile-gemm-epilogue-bands", "::mlir::ModuleOp"> {
  let summary = "stage a persistent sm_90a GEMM's register-stored epilogue "
                "through a column band of shared memory";
  let description = [{
    On `sm_90a`, after `tile-persistent-gemm`: a persistent GEMM whose
    epilogue had no room for a staging area of the whole tile and so stores
    it from the registers (`tile.epilogue_direct`: 128 x 256 at 4 stages
    with `tlc.persistent=True`; a warp's 4-byte store touches 8 separate
    128-byte lines, ~4,100 LSU cycles a tile) gets an area of one column
    band instead: the fewest bands B (2, 4, 8, ...: the columns split into
    16-byte vectors) whose padded band (rows x (cols / B + 16 bytes))
    fits after the stages within 227 KiB. The CUDA printer's staged store
    then writes the tile in B rounds: the registers of a band's columns
    into the area, then the band's rows in 16-byte vectors (128 x 64 halves:
    whole 128-byte lines, 4 a warp instruction). The producer keeps
    refilling the ring for the next tile meanwhile (the stages are not
    touched). `tlc.gemm_epilogue_bands=False` keeps the register store;
    `=N` asks for N bands (refused, with the direct store kept, where N
    bands do not fit or do not split the columns).

    Where the epilogue was a TMA-store candidate (`tile.epilogue_tma_map`,
    left by `tile-persistent-gemm`; `tlc.tma_store=False` plans none) each
    band is a whole number of 128-byte swizzled panels (the map's box is
    one panel) and the printer stores it by TMA: the band's registers into
    a band buffer as panels, one thread issues the panels' bulk tensor
    stores as one bulk group, and the buffer is written again only after
    `cp.async.bulk.wait_group.read` says the copy engine read it. Two band
    buffers where they fit (the fewest such bands: 4 of 64 columns at 128 x
    256 f16, 2 x 16 KiB), so a band's read overlaps the staging of the
    next; else one. The last band's read stays in flight into the next
    tile's mainloop (`tile.tma_store_async`, unless
    `tlc.tma_store_async=False`). `tlc.gemm_epilogue_tma_store=False`
    keeps the threads' 16-byte stores.

    Results, as attributes on the epilogue copy: `tile.epilogue_area` (the
    area's byte offset, 1024-aligned) and `tile.epilogue_bands`; with the
    TMA store also `tile.tma_store` (the map), `tile.tma_store_offset` (=
    the area) and `tile.epilogue_band_buffers`; the kernel's
    `tile.shared_bytes` grows by the area.

    ```mlir
    tile.copy %C_local, %C_view {tile.epilogue_area = 197632 : i64,
                                 tile.epilogue_bands = 4 : i64}
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileGemmDeepenRing : Pass<"tile-gemm-deepen-ring", "::mlir::ModuleOp"> {
  let summary = "give an sm_90a GEMM over a shallow grid one pipeline "
                "stage more where shared memory has room";
  let description = [{
    On `sm_90a`, before `tile-plan-pipelines`: a kernel of two or more
    consumer warpgroups whose body has one `T.Pipelined` loop (2 or 3
    stages, no order/stage lists, a static trip count above stages + 1)
    holding the kernel's one gemm, over a static grid of fewer than 8
    tiles a multiprocessor (`tlc.num_sms`, else `num-sms`: the grids
    tile-persistent-gemm gives no TMA-store epilogue), gets one stage more
    when its ring already keeps it at one block a multiprocessor (more than
    half of 227 KiB) and the deeper ring fits with 1 KiB for the barriers.
    The loop's copies' shared destinations are the stages; other shared
    allocations count once. At 4096^3 (128 x 256 x 64 tiles, 3.9 a
    multiprocessor) 3 -> 4 stages: 144 -> 192 KiB; tile-persistent-gemm
    then leaves the kernel one tile a block (no room for an epilogue area),
    which measured 0.958-0.966 of cuBLAS against the 3-stage persistent
    kernel's 0.906-0.927 (docs/perf/hopper.md). `tlc.gemm_deepen_ring=False`
    keeps the program's stages; `=True` deepens regardless of the grid;
    `tlc.persistent=True` and `tl.disable_warp_specialized=True` keep
    them too.

    Results, as attributes: the loop's `num_stages` + 1 and
    `tile.program_stages` (the program's count) on it.

    ```mlir
    tile.pipelined %ko = %c0 to %c64 stages 4 {tile.program_stages = 3 : i64} {
      ...
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">,
    Option<"numSms", "num-sms", "int64_t", /*default=*/"132",
           "Multiprocessors of the device (132 on the H100 SXM and the "
           "H200).">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileGemmCluster : Pass<"tile-gemm-cluster", "::mlir::ModuleOp"> {
  let summary = "launch warp-specialised sm_90a GEMMs in clusters of two "
                "blocks that multicast the operand they share";
  let description = [{
    On `sm_90a`, after `tile-gemm-pingpong`, when the tlc pass config
    `tlc.gemm_cluster=True` (or `=2`) asks (opt-in; no default until the
    H200 measures one): a warp-specialised GEMM (one ring whose loop has
    two TMA loads and one gemm, a static 2-D grid of tiles) is launched in
    clusters of two blocks that take adjacent output tiles along one axis
    of the tile grid, x (the two tiles read the same rows of A) or y (the
    same columns of B). The load whose coordinates do not use that axis's
    block index (and the other does) is shared: each block's producer
    loads half of its rows (rank r: rows `[r R / 2, (r + 1) R / 2)` of
    each swizzle panel) and multicasts them to both blocks
    (`cp.async.bulk.tensor ... .multicast::cluster`, cta mask 0b11), so
    each block's full barrier still expects the whole tile's bytes. Both
    producers write into each block's stage, so the empty barrier counts
    one arrival per consumer warp of both blocks (lane 0 of each warp
    arrives on its own block's barrier and, through `mapa`, on the
    peer's), and the producer waits on it at cluster scope. A cluster
    barrier after the rings' initialisation and one before the exit keep
    each block's barriers and stages there while the peer may reach them.

    The axis has an even number of tiles, and the shared tile's rows are a
    multiple of 16 (each half starts a swizzle pattern of 8 rows); of the
    axes that qualify, the one whose shared tile is larger. A persistent
    GEMM (`tile.persistent_ctas`, also with `tile-gemm-pingpong`) walks
    pairs of tiles: its blocks (made even) are pairs along x, both blocks
    of a pair the same pairs of tiles in the same order (the
    rasterisation orders pairs), so their rings stay in lockstep. Without
    persistence the program's `T.use_swizzle` orders the pairs.

    Results, as attributes:

    * `tile.gemm_cluster = A : i64` on the kernel: the axis (0: x, 1: y);
    * `cluster_dims = array<i64: 2, 1, 1>` (persistent, or A = 0) or
      `array<i64: 1, 2, 1>` on the kernel: the launch's clusters;
    * `tile.tma_multicast = 2 : i64` on the shared load (its tensor map's
      box is half the tile's rows);
    * `tile.persistent_ctas` rounded down to an even count.

    ```mlir
    tile.kernel (%bx, %by) grid [32, 32] threads [256] attributes {cluster_dims = array<i64: 2, 1, 1>, tile.gemm_cluster = 1 : i64, tile.persistent_ctas = 132 : i64, ...} {
      ...
      tile.copy %B_tile, %B_shared {tile.tma = 1 : i64, tile.tma_multicast = 2 : i64}
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileLowerCopyCluster : Pass<"tile-lower-copy-cluster", "::mlir::ModuleOp"> {
  let summary = "choose the sm_90a instructions of each T.copy_cluster";
  let description = [{
    On `sm_90a`, after `tile-plan-shared-memory` and `tile-plan-tma`: each
    `tile.intrinsic "T.copy_cluster"` (TileLang's copy between the blocks of
    a thread-block cluster) gets the form the printer issues, as
    attributes; what cannot be issued is an error at the call (only when
    building for this target; `--check` accepts the program).

    * `cluster_mask = M` (a constant naming blocks of the cluster): the
      source is a region of a static global tensor parameter (rank 2 to 5,
      innermost stride 1, the others multiples of 16 bytes), the
      destination a whole shared buffer of the region's extents, not
      multi-buffered: unswizzled (128-byte aligned; the printer requires
      it stored row-major) or a wgmma operand of one swizzled panel, its
      rows the swizzle's 32, 64 or 128 bytes (1024-byte aligned), whose
      swizzle the tensor map then uses (`tile.cluster_swizzle`, 0: none);
      each box extent at most 256 and its rows a multiple of 16 bytes. The
      copy is a TMA load of the region as one box of tensor map
      `tile.tma = I` (the kernel's next after tile-plan-tma's): the mask's
      lowest rank (`tile.cluster_leader`) issues it with
      `.multicast::cluster` and cta mask `tile.cluster_mask`, the blocks
      outside the mask load their own region, the other blocks of the mask
      issue nothing and receive the leader's tile (TileLang's semantics).
      A new `T.alloc_cluster_barrier([1])` at the top of the kernel body,
      passed as the operand `tile.mbarrier`, counts each block's
      `tile.cluster_bytes`; every block and thread must reach the copy
      (its parents are loops only), as the printer meets the cluster at a
      barrier before it.
    * `dst_block = R` with `remote_barrier`: when both whole shared
      buffers are unswizzled (the printer requires them stored alike),
      16-byte aligned and the size a multiple of 16
      below 2^20, `tile.cluster_copy = "bulk"`: one thread arrives on
      block R's barrier expecting the bytes
      (`mbarrier.arrive.expect_tx...shared::cluster`) and copies the buffer
      with `cp.async.bulk.shared::cluster.shared::cta`, completing on it.
      Otherwise (and without remote_barrier), `"stores"`: the threads store
      the elements (2 or 4 bytes) with `st.shared::cluster`, then with a
      barrier one thread arrives on R's barrier (TileLang's fallback).

    ```mlir
    tile.intrinsic "T.copy_cluster"(%src, %tile, %mask, %bar)
        {params = ["src", "dst", "cluster_mask", "tile.mbarrier"],
         tile.cluster_copy = "multicast", tile.cluster_leader = 0 : i64,
         tile.cluster_mask = 3 : i64, tile.cluster_bytes = 16384 : i64,
         tile.cluster_swizzle = 0 : i64, tile.tma = 0 : i64} : (...) -> ()
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The CUDA target (`sm_90a` or `cuda:sm_90a` enables it). "
           "Empty: the module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileInsertBarriers : Pass<"tile-insert-barriers", "::mlir::ModuleOp"> {
  let summary = "place the barriers that order shared-memory accesses";
  let description = [{
    The last GPU lowering step: puts a `tile.barrier` wherever the threads
    of a kernel must wait for each other before touching shared memory
    again, so that the printers print barriers and do not place them.

    Barriers stand only in code that all threads of a range run together:
    the kernel body, loops, branches on block-uniform conditions (a
    block-sparse mask read at the block indices), and branches whose
    condition on the thread index selects a whole number of warps
    (`T.ws(g)`, `tx < c`: their barriers are among those threads). None
    inside a `T.Parallel` or under any other condition on the thread index.

    In each such block, the statements' shared-memory effects
    (`getBufferAccesses`, nested statements included) are followed in
    program order. A statement that reads a buffer written, or writes a
    buffer read or written, since the last barrier gets a barrier before
    it (`"shared-memory dependence"`). A block-wide barrier already there
    (a `tile.sync_threads` without a barrier id, or a `tile.barrier`, in
    code every thread of the block runs together) counts as the last
    barrier, so none is added beside it; in a kernel with `wgmma` only a
    `tile.barrier` with `fence_proxy_async` does. A 1-D bulk copy of
    `tile-plan-tma` (`tile.bulk_store`, `tile.bulk_load`) prints its own
    barriers (every thread's async-proxy fence and a barrier before the copy
    engine touches the tile, one after it when a statement follows): no
    barrier is placed before it, and it orders its own and all earlier
    accesses before what follows. Buffers that `tile-plan-shared-memory`
    placed in common bytes (reuse after a live range ends) conflict like one
    buffer; a buffer's bytes include its pipeline stages (`tile.stages`).
    The statements of an `if` on the thread index count with the threads
    of their branch: in a kernel that orders its thread groups with
    mbarriers itself (`T.alloc_barrier`, `T.mbarrier_*`), accesses of
    disjoint thread ranges are the program's to order and need no barrier.

    A loop (`for`, a serial `T.Pipelined`, a `while` on a block-uniform
    condition, a thread-range branch directly in a loop) whose body both
    writes and reads shared memory starts every iteration with a barrier:
    the next iteration must not overwrite what this one still reads. In a
    kernel with mbarriers a loop whose shared accesses all lie in
    thread-range branches is left to the program.

    The producers of a multi-buffered `T.Pipelined` (`tile.prefetch` copies
    of a loop with `tile.stages`) take no part: the loop orders its stages
    itself (one barrier per iteration, or mbarrier rings), as do the
    barriers inside a tile operation's own expansion (reduction scratch,
    fragment exchange, staged stores), which the printer still places.

    In a kernel with `wgmma` gemms (`tile.instr = "wgmma"`), a dependence
    barrier carries `fence_proxy_async`: the ordinary writes it orders may
    be read through the async proxy.

    Functions marked `tile.lowering_failed`, default instances whose tile
    shapes depend on unbound parameters, and kernels of non-static thread
    count are left alone, as are the kernels of a function whose pass
    configs set `tl.disable_thread_storage_sync` (TileLang's
    TL_DISABLE_THREAD_STORAGE_SYNC skips its ThreadSync pass, which places
    these barriers: the program's own `T.sync_threads` and the barriers of
    a tile operation's expansion stay).

    ```mlir
    tile.copy %src to %A_s : ...
    tile.barrier "shared-memory dependence"
    tile.copy %A_s to %dst : ...
    tile.for %i = %c0 to %n step %c1 {
      tile.barrier "the previous iteration's reads are done"
      tile.copy %x to %A_s : ...
      tile.barrier "shared-memory dependence"
      tile.gemm %A_s, %B_s, %acc : ...
    }
    ```
  }];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileLegalizeBounds : Pass<"tile-legalize-bounds", "::mlir::ModuleOp"> {
  let summary = "decide the index checks of every global-memory access";
  let description = [{
    Ragged tiles run past the end of a tensor: a 64-row tile of a 150-row
    matrix, a row shifted by `i - 10`, a gather through an index tensor.
    This pass decides, for every operation of a kernel that reads or writes
    global memory, which of its indices must be checked at run time, and
    records it as the discardable attribute `tile.bounds` (one entry per
    operand, `tlc/Dialect/Tile/IR/BoundsGuards.h`). The GPU printers print
    exactly these checks, per thread and per element or vector: an
    out-of-range read gives the safe value, an out-of-range write is
    skipped. They decide none themselves.

    The indices an operation uses are its explicit ones (`tile.load`,
    `tile.store`, the element form of `tile.atomic_add`) or every position
    of the view it works on (`tile.copy`, `tile.fill`, reductions, the tile
    form of `tile.atomic_add`); through each `tile.region` they shift by the
    region's offsets. Their intervals come from `IndexIntervals` (constants,
    grid and thread extents, loop bounds, + - * / % min max). Per dimension
    of the tensor: `"in"` when the interval lies in `[0, extent)` (the guard
    vanishes: static shapes that the tiles divide), `"lower"`/`"both"` when
    it may lie below 0 (`i - 1`; an index read from memory), `"upper"` when
    it may reach the extent or is unknown (symbolic extents, indices of a
    `tile.intrinsic`). A check is also dropped where a fact proves it
    for an explicit index: a `tile.assume` (T.assume) before the access in
    its block or an enclosing one (comparisons joined by `and`: `i < N`,
    `i <= c`, `i >= 0`), or an enclosing `tile.for` with a positive
    constant step whose variable is the index (below its upper bound); the
    bound must be the tensor's symbolic extent (`tile.symbol` of its name)
    or a value whose interval stays below the static one. Indices are
    compared by structure (equal pure operations on equal operands).

    `T.annotate_safe_value({A: v})` sets what out-of-range reads of `A`
    give: a non-zero `v` is recorded as the entry's `safe_value` (cp.async
    cannot zero-fill such a tile). The map is parsed once per kernel
    (`tlc/Dialect/Tile/IR/SafeValues.h`, shared with the CPU target); an
    entry that is not a number or does not name a tensor parameter is an
    error at the call, and the function is not lowered.

    ```mlir
    %r = tile.region %A[%row, %c0] [64, 32] : ...
    tile.copy %r to %A_s {tile.bounds = [
        {dims = ["upper", "in"], safe_value = 1.000000e+01 : f64}, {} ]} : ...
    ```

    Functions marked `tile.lowering_failed` are left alone.
  }];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanCopies : Pass<"tile-plan-copies", "::mlir::ModuleOp"> {
  let summary = "choose the instructions of each copy between memories (CUDA, HIP)";
  let description = [{
    The last GPU lowering pass (after `tile-legalize-bounds`, whose safe
    values it reads): for every `tile.copy` between memories (global,
    shared, local; neither side a fragment or tensor memory, both of
    static shape, not a `tile.tma` copy) of a kernel whose function was
    lowered, how the block's threads carry it out, in chunks of
    consecutive elements (`tlc/Dialect/Tile/Transforms/CopyPlan.h`,
    `chooseCopy`, which the printer also calls for IR that did not go
    through this pass):

    * a chunk is 16 bytes when the source and destination element types
      are the same, halved until it divides the innermost extent; 1
      element for a conversion, for a copy whose last dimension is not the
      innermost one of both sides, or whose innermost stride is not 1; on
      HIP it is halved further until it fits the runs of an LDS tile's
      XOR swizzle (`planLdsSwizzles`), except that a chunk of 8 or 16
      bytes may be stored whole into a destination swizzled in runs of 4
      or 8 bytes, its runs permuted in registers;
    * a chunk of 4, 8 or 16 bytes (not packed fp4) is one vector access,
      else the chunk goes element by element; a vector chunk into shared
      memory is a `cp.async` on CUDA where the copy is a producer of a
      multi-buffered pipeline not loaded by TMA, or `T.async_copy`;
    * a vector chunk whose source's safe value is 0 may be zero-filled by
      the instruction where it lies outside the tensor: `cp.async` with
      source size 0, or on HIP a raw buffer load of a global tensor a
      buffer resource covers (dense row-major, under 2 GiB).

    Results, as attributes on the copy: `tile.instr = "cp.async"`,
    `"vector"` or `"element"`; `tile.vec = N : i64` (elements per chunk);
    `tile.xor_runs = R : i64` (HIP: the permuted run bytes); the unit
    `tile.zero_fill`. Which thread moves which chunk, and the bounds and
    alignment tests of each chunk, stay the printer's.

    The target is the `target` option, else the module's
    `tile.gpu_target` attribute (`cuda:...` or `hip:...`; anything else
    plans nothing).

    ```mlir
    tile.copy %a to %A_s {tile.instr = "cp.async", tile.prefetch = 0 : i64, tile.vec = 8 : i64, tile.zero_fill} : ...
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanParallelLoops : Pass<"tile-plan-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "choose which threads run each T.Parallel iteration (CUDA, HIP)";
  let description = [{
    Runs after `tile-plan-copies` and before `tile-plan-scratch-areas`
    (whose measurement of the fragment exchanges follows the plan): for
    every `tile.parallel` of a kernel whose function was lowered, how the
    block's threads share its iterations
    (`tlc/Dialect/Tile/Transforms/ParallelPlan.h`, `chooseParallelPlan`,
    which the printer also calls for IR that did not go through this
    pass):

    * `"fragment"`: the loop has static extents and its body accesses a
      fragment (the result of a `tile.alloc` or `tile.view` of
      `local.fragment` scope; accesses inside a nested `tile.parallel` do
      not count) at its variables. Iteration `v` runs on the thread and
      register that the fragment's layout gives the element the access
      touches, so that access reads or writes the thread's own register.
      The fragment is, by preference, one accessed at exactly the loop
      variables over its whole shape; else one accessed at the loop
      variables over a leading box of it (the loop's extents at most the
      fragment's: the threads skip the slots outside the box); else one
      accessed at the loop variables in order with unit dimensions read
      at 0 between them (`m[i, 0]` of an [M, 1] fragment under
      T.Parallel(M)); else one accessed at a permutation of the loop
      variables over its whole shape (`s[j, i]` under T.Parallel(I, J)).
      The first such access in program order wins.
    * `"threads"`: static extents, no such fragment: the iterations,
      flattened row-major, go round-robin over the T threads of the loop
      (those of the warp-aligned thread range that runs it, `T.ws(g)`,
      `tx < c`, else the block's) in R = ceil(count / T) rounds, thread t
      running iterations t + r * T, tested `< count` when R * T passes
      the count (the printer runs a loop whose fragment reads are the
      loop variables plus invariant offsets over that fragment's slots
      instead, which its fragment layouts decide).
    * `"strided"`: extents known at run time: a loop from the thread index
      striding by the thread count.
    * `"layout"`: a loop whose body touches no fragment and whose
      `loop_layout` the program gave (`T.Parallel(..., loop_layout=F)`,
      marked `tile.loop_layout_given`): iteration x runs on F's thread of
      x, in F's register slot (TileLang places a loop by its annotated
      layout). A loop with that layout that touches fragments is
      partitioned by them; tile-assign-fragment-layouts gives them F.
    * `"whole"`: a loop that touches no fragment and stores into a
      T.alloc_local buffer, or touches only such buffers: every thread
      runs every iteration over its own copies (TileLang partitions no such
      loop; T.alloc_var buffers do not count). It comes first.

    Results: `tile.partition = "fragment" | "threads" | "strided" |
    "layout" | "whole"` on the
    loop; for a fragment partition `tile.loop_dims = array<i64: ...>` (the
    fragment dimension each loop variable runs along), `tile.loop_box =
    array<i64: ...>` (a box partition: the loop's extents) and the unit
    attribute `tile.partitions_loop` on the partitioning `tile.load` /
    `tile.store`; for a partition over the threads `tile.loop_regs = R :
    i64` and the unit `tile.loop_guard` when the rounds are guarded. The
    fragment layouts themselves, and with them the
    `tid <` tests of layouts that leave threads idle, the replica tests,
    the HIP vector LDS stores of a loop and the fragments a loop exchanges
    through shared memory, stay the printer's.

    The target is the `target` option, else the module's
    `tile.gpu_target` attribute (`cuda:...` or `hip:...`; anything else
    plans nothing). Functions marked `tile.lowering_failed` are left
    alone.

    ```mlir
    tile.parallel (%i, %j) in (64, 32) {
      %x = tile.load %acc[%j, %i] {tile.partitions_loop} : ...
      ...
    } {tile.loop_dims = array<i64: 1, 0>, tile.partition = "fragment"}
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanSharedStorage
    : Pass<"tile-plan-shared-storage", "::mlir::ModuleOp"> {
  let summary = "record how the CUDA/HIP printer stores each shared buffer";
  let description = [{
    The CUDA and HIP printers address a shared tile row-major, XOR-swizzled
    in 16-byte chunks (`swizzledIndex`: 16- and 8-bit gemm operands and
    staged tiles, conflict-free ldmatrix), in the descriptor panels wgmma
    and tcgen05 read (operands with tile-plan-wgmma / tile-plan-tcgen05's
    `tile.swizzle`), or in HIP's LDS swizzle of an MFMA operand
    (`tile::chooseSharedStorage`, SharedStoragePlan.h). Runs after
    `tile-plan-parallel-loops`, before `tile-plan-parallel-vectors` (whose
    vector widths follow the storage), on each kernel that
    `tile-plan-shared-memory` placed.

    Results: on each shared allocation not stored row-major,
    `tile.storage = {kind = "row_swizzle", chunks = N : i64}`,
    `{kind = "panels", chunks = N : i64}` (16-byte chunks per panel row) or
    `{kind = "lds_swizzle", vec = V : i64, per_phase = P : i64,
    max_phase = M : i64}`; `tile.storage_planned` on the module. From then
    on `tile::planSharedStorage` answers with the recorded plan for the
    printer's addressing, the vector widths, the hints, the layout
    pictures and the bank-conflict analysis; the printer refuses, with an
    error at the allocation, a plan it cannot address (an unknown kind,
    missing fields, a swizzle that does not permute the buffer's rows,
    panels that are not the ones its descriptors read, an LDS swizzle on
    CUDA or panels on HIP, a descriptor operand stored otherwise).

    The target is the `target` option, else the module's `tile.gpu_target`
    attribute (`cuda:...` or `hip:...`; anything else plans nothing).
    Functions marked `tile.lowering_failed` are left alone.

    ```mlir
    %a = tile.alloc() {tile.offset = 0 : i64,
                       tile.storage = {chunks = 8 : i64, kind = "row_swizzle"}}
        : !tile.buffer<128x64xf16, shared.dyn>
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanParallelVectors : Pass<"tile-plan-parallel-vectors", "::mlir::ModuleOp"> {
  let summary = "choose which T.Parallel element accesses are vectors (CUDA, HIP)";
  let description = [{
    Runs after `tile-plan-parallel-loops` (it reads the loops' partitions)
    and `tile-assign-fragment-layouts` (it reads the fragments' layouts),
    before `tile-plan-scratch-areas`: for every `tile.parallel` of a
    kernel whose function was lowered, which of its element loads and
    stores the printer issues as vectors, at which width, and the alignment
    fact that allows it (`tlc/Dialect/Tile/Transforms/VectorPlan.h`,
    `chooseParallelVectors`, which the printer also calls for IR that did
    not go through this pass).

    Today one kind of access is vectorised: on `hip:*`, a `tile.store`
    straight in the body of a loop partitioned by a whole fragment
    (`tile.partition = "fragment"` without `tile.loop_box`), into a static
    LDS tile at the loop variables, the last one along the fragment's last
    dimension and no other on it. The width is the partitioning fragment's
    vector width: the registers of its layout that hold consecutive
    elements along its last dimension,
    each run starting at a multiple of the width, at most 16 bytes. The
    store is vectorised when that is 4, 8 or 16 bytes of the stored
    element, the tile's LDS swizzle keeps runs of that width together,
    every run's first element is proven a multiple of the width from the
    tile's start (from the index intervals of the region offsets and the
    rows' length, through the tile's swizzle), and nothing else in the body
    touches the tile nor a `T.sync_grid` splits the body (the printer
    computes each run into register slots and stores them after the run as
    one ds_write_b64 / ds_write_b128). Every other access (global memory,
    shared memory on CUDA, fragments) is an element access: no attribute.

    Results: `tile.vec = W : i64` (elements per vector) and the unit
    `tile.vec_aligned` (every vector's alignment proven, no run-time test)
    on each vectorised access; the unit `tile.vectors_planned` on the
    module (the accesses without `tile.vec` of a planned module are
    element accesses). The layout is the one the printer follows:
    `tile.fragment_layout`, tile-assign-fragment-layouts' record; layout
    inference's `layout` attribute only on a fragment of a kernel without
    that record (IR that did not go through the pass). The printer rejects a
    plan it cannot follow with an error
    on the access (a width that is not 2, 4, 8 or 16, or that does not
    divide the runs of its fragment layout, two widths in one loop, an
    access that does not qualify at that width, `tile.vec_aligned` missing).
    A loop whose fragments the printer exchanges through shared memory (its
    decision) stores element by element.

    The target is the `target` option, else the module's
    `tile.gpu_target` attribute (`cuda:...` or `hip:...`; anything else
    plans nothing). Functions marked `tile.lowering_failed` are left
    alone.

    ```mlir
    tile.parallel (%i, %j) in [64, 64] attributes {tile.loop_dims = ...,
                                                   tile.partition = "fragment"} {
      %x = tile.load %acc[%i, %j] {tile.partitions_loop} : ...
      tile.store %x, %C_s[%i, %j] {tile.vec = 4 : i64, tile.vec_aligned} : ...
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanThreadRanges : Pass<"tile-plan-thread-ranges", "::mlir::ModuleOp"> {
  let summary = "choose the named barrier of each thread range (CUDA, HIP)";
  let description = [{
    A branch of a `tile.if` whose condition on the thread index selects a
    warp-aligned part of the block (`T.ws(g)`, `tx < c`, `tx >= c` and
    their else branches) runs its tile operations on its own threads, and
    the CUDA and HIP printers synchronise those threads with a named
    barrier (`bar.sync id, count`) instead of the block's `__syncthreads`,
    which the other threads do not reach. This pass chooses the ids
    (`tlc/Dialect/Tile/Transforms/ThreadRangePlan.h`,
    `chooseRangeBarriers`, which the printer also calls for IR that did
    not go through this pass): one per distinct range, the first range met
    (post-order over the `tile.if` ops, the branch before the else branch)
    gets 15 and the next ones count down, skipping the ids the program
    names itself (`T.sync_threads(barrier_id=)`, `T.named_barrier_arrive`),
    which programs number from 1 up. A kernel with more ranges than free
    ids is an error at the `tile.if` that runs out, and its function is
    marked `tile.lowering_failed`.

    Result: `tile.range_barriers = array<i64: THEN, ELSE>` on each
    `tile.if` with a branch of its own range, the id of each branch's
    range (0: that branch runs on the enclosing threads); the unit
    `tile.ranges_planned` on the module. The printer rejects a plan it
    cannot follow with an error on the `tile.if` (a range without an id, an
    id for a branch that is no range, an id outside 1..15 or one the
    program uses, two ids for one range, one id for two ranges). Kernels
    with a dynamic or impossible thread count are left to the printer,
    which reports them.

    The target is the `target` option, else the module's
    `tile.gpu_target` attribute (`cuda:...` or `hip:...`; anything else
    plans nothing). Functions marked `tile.lowering_failed` are left
    alone.

    ```mlir
    %0 = arith.cmpi slt, %tx, %c128 : index
    tile.if %0 {
      ...  // threads [0, 128): named barrier 15
    } else {
      ...  // threads [128, 384): named barrier 14
    } {tile.range_barriers = array<i64: 15, 14>}
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanPipelineWaits : Pass<"tile-plan-pipeline-waits", "::mlir::ModuleOp"> {
  let summary = "choose how a multi-buffered loop's iterations wait for their stage (CUDA, HIP)";
  let description = [{
    A `T.Pipelined` loop that `tile-plan-pipelines` multi-buffered
    (`tile.stages = S`) and whose producers are not TMA copies
    (`tile.tma_barriers`) nor a warp-specialised ring is printed with its
    producers issued S - 1 iterations ahead, one group of asynchronous
    copies per iteration, and one block barrier per iteration that both
    publishes the iteration's stage and proves every thread done with the
    stage the prefetch after it refills. This pass chooses how the
    iteration waits for its stage before that barrier
    (`tlc/Dialect/Tile/Transforms/PipelineWaitPlan.h`,
    `choosePipelineWait`, which the printer also calls for IR that did not
    go through this pass):

    * on `cuda:*` the producers are cp.async copies: S - 1 groups are
      committed before the loop and one more by each iteration, the oldest
      pending one being the iteration's own, so the wait
      (`cp.async.wait_group N`) may leave N = S - 2 groups in flight;
      on `hip:*` the producers are plain loads and there is no count;
    * when a wgmma or tcgen05 gemm of the kernel (`tile.instr`) reads
      shared memory, which it does through the async proxy, a proxy fence
      precedes the barrier (the stages were written by the generic proxy).

    Results: `tile.async_wait = N : i64` and the unit
    `tile.async_proxy_fence` on each such `tile.pipelined`; the unit
    `tile.pipeline_waits_planned` on the module. The printer rejects a plan
    it cannot follow with an error on the loop: a cp.async loop without
    `tile.async_wait`, one on a loop without cp.async producers, a count
    outside 0..S-2 (a larger one reads a stage before its copies land; a
    smaller one only waits longer), no fence where a wgmma or tcgen05 gemm
    reads.

    The target is the `target` option, else the module's
    `tile.gpu_target` attribute (`cuda:...` or `hip:...`; anything else
    plans nothing). Functions marked `tile.lowering_failed` are left
    alone.

    ```mlir
    tile.pipelined %k = %c0 to %n step %c1 stages 3 attributes {
        tile.async_wait = 1 : i64, tile.stages = 3 : i64} {
      ...
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileAssignFragmentLayouts
    : Pass<"tile-assign-fragment-layouts", "::mlir::ModuleOp"> {
  let summary = "choose and record every fragment's (thread, register) "
                "layout for the CUDA and HIP code";
  let description = [{
    A `local.fragment` buffer is spread over the registers of the threads
    that use it. This pass chooses, per kernel, where each element lives
    in the CUDA/HIP code (`FragmentLayouts.h`): gemm operands get the
    target's instruction layouts (mma.sync on `cuda:*`, MFMA on `hip:*`,
    wgmma's where tile-plan-wgmma chose it) for the gemm's thread range;
    `T.annotate_layout` pins are kept (a use that needs another layout is
    refused); fragments copied to or from tensor memory get the tcgen05
    32x32b layout; three rounds in program order propagate through
    `T.reduce`, views, fragment copies of equal shape and `T.Parallel`
    (the loop's layout from an access of its full shape at its variables,
    else a fragment of the loop's shape, else the default); the rest get
    the default partition of the threads of their home range (fully
    replicated for rank-0 fragments and small ones only scalar code uses).
    This is separate from layout inference's `layout` attributes, which
    the printers do not read for fragments.

    Results: `tile.fragment_layout = #tile.fragment<...>` on every fragment
    `tile.alloc` and `tile.view` of a kernel it laid out, and the unit
    `tile.fragment_layouts_assigned` on that kernel. The exchange planning
    (tile-plan-fragment-exchanges, tile-plan-scratch-areas) and the
    printers read the record; they choose the same way themselves only for
    a kernel without one. A kernel it cannot lay out is left unrecorded,
    quietly: its printer reports why when it prints it. The printers reject
    a malformed record with an error at the op: a fragment without a
    layout in a recorded kernel, a layout that is no `#tile.fragment` or
    not of the buffer's shape, a layout on an op that defines no fragment.

    The target is the `target` option, else the module's
    `tile.gpu_target` attribute (`cuda:...` or `hip:...`; anything else
    records nothing). Functions marked `tile.lowering_failed` or with
    unbound tile parameters, and kernels without a static thread count of
    1 to 1024, are left alone.

    ```mlir
    %acc = tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64],
        thread = "...", index = ["..."], origin = "mma.C">}
        : !tile.buffer<[64, 64], f32, local.fragment>
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanFragmentExchanges
    : Pass<"tile-plan-fragment-exchanges", "::mlir::ModuleOp"> {
  let summary = "choose which fragments each T.Parallel and fragment copy "
                "exchanges through shared memory (CUDA, HIP)";
  let description = [{
    A thread holds only its own elements of a fragment (`local.fragment`),
    as the target's fragment layout places them. A `T.Parallel` that reads
    or writes a fragment at elements its threads do not hold (the
    fragment's layout does not follow the loop's, an index that is not a
    loop variable, a loop no fragment partitions) exchanges that fragment
    through the shared exchange area: every thread stores its registers
    into a row-major tile, the loop works on the tile, and the registers
    are loaded back after it when the loop writes the fragment. A fragment
    every thread holds whole is read from registers; a loop that reads its
    one fragment at shifted indices runs over the fragment's own slots
    instead. A `T.copy` between two fragments laid out differently goes
    through such a tile too. Which accesses need it follows from the
    fragment layouts recorded by tile-assign-fragment-layouts and the
    loops' `tile.partition` plans only: the pass asks
    `tile::chooseFragmentExchanges`
    (`tlc/Dialect/Tile/Transforms/FragmentExchangePlan.h`) of them, so
    tlc-opt plans too; a kernel without a layout record is left to the
    printer. The pass preserves the `PreparedKernels` analysis
    tile-plan-scratch-areas asks for byte counts: lowering prepares each
    kernel once.

    Results: `tile.exchange_tile = K : i64` on every direct load and store
    of an exchanged fragment in the loop (K: the fragment's tile, in the
    order of the tiles in the exchange area, 16-byte aligned one after
    the other); the unit `tile.exchanged` on an exchanging copy; the unit
    `tile.exchanges_planned` on each kernel it planned (an op of it without
    these attributes exchanges nothing). tile-plan-scratch-areas sizes the
    exchange area from these plans. The printer prints the recorded
    exchanges and rejects a plan it cannot follow with an error at the op:
    a tile that is not a non-negative integer, on an access that is no
    direct fragment access, two tiles for one fragment or two fragments in
    one tile, an access of an exchanged fragment without its tile, tiles
    that do not number 0..n-1, a loop or copy that reads elements its
    threads do not hold without exchanging them, an exchange in a loop
    that runs over its fragment's slots.

    The target is the `target` option, else the module's
    `tile.gpu_target` attribute (`cuda:...` or `hip:...`; anything else
    plans nothing). Functions marked `tile.lowering_failed`, with unbound
    tile parameters, and kernels without a shared-memory plan are left
    alone.

    ```mlir
    tile.parallel (%i, %j) in (64, 64) {
      %v = tile.load %acc[%j, %i] {tile.exchange_tile = 0 : i64} : ...
      tile.store %v, %out[%i, %j] : ...
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU target (`cuda:sm_80`, `hip:gfx942`, ...). Empty: the "
           "module's `tile.gpu_target` attribute.">
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TilePlanScratchAreas : Pass<"tile-plan-scratch-areas", "::mlir::ModuleOp"> {
  let summary = "place the reduction scratch and fragment exchange areas";
  let description = [{
    The CUDA/HIP code of some operations needs shared memory besides the
    planned buffers: a `T.reduce_*` whose result rows span several warps
    combines the warps' partials in a scratch area, and a `T.Parallel`,
    fragment copy, scalar read or `T.cumsum` that reads a fragment in
    another thread's layout exchanges it through an exchange area. How
    many bytes each op needs follows from the target's fragment layouts:
    the target library measures it (`PreparedKernel::measureScratchAreas`,
    PreparedKernels.h) and records it on the op, `tile.scratch_bytes = N : i64`,
    `tile.exchange_bytes = N : i64` and `tile.exchange_publishes` (read
    after the area's last barrier: scalar code, `T.cumsum`). Without the
    hook (tlc-opt) the needs already on the ops are placed.

    Each area (sized by its largest use) goes after the kernel's planned
    buffers (`tile.shared_bytes`) at a 128-byte boundary, the scratch
    first. Where that passes the block's budget (the target's, or the
    `budget` option), the areas go over buffers dead at every use of them
    instead (`isBufferDeadAt`: a loop iteration that writes a buffer whole
    before reading it lends its bytes to the exchange of that iteration; a
    published exchange shares no buffer's bytes), if the kernel then needs
    fewer bytes; not in warp-specialised kernels (`tile.ws_producer_threads`,
    `T.ws`), whose threads do not run in program order. A use of an area
    placed over a buffer ends with a barrier, so that nobody writes the
    buffer while another thread still reads the area:
    `tile.area_barrier` on that op (the use's other barriers, the area
    free and the area complete, start every expansion that uses an area).

    Results on each planned kernel: `tile.scratch_offset = B : i64`,
    `tile.exchange_offset = B : i64` (for the areas it needs),
    `tile.area_bytes = N : i64` (its shared bytes with the areas) and
    `tile.areas_planned`. The printer reads them.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "the GPU target the hook measures for (default: the module's "
           "tile.gpu_target)">,
    Option<"budget", "budget", "int64_t", /*default=*/"0",
           "without the target's hook: the shared bytes per block past "
           "which the areas go over dead buffers (0: none placed)">,
  ];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

def TileLowerIm2col : Pass<"tile-lower-im2col", "::mlir::ModuleOp"> {
  let summary = "lower T.im2col into the element loop it stands for";
  let description = [{
    `T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad)`
    fills the shared tile `col` [BM, BK] with one tile of the im2col matrix
    of the NHWC image `img` [N, H, W, C] (convolution as GEMM, TileLang's
    `tl.c2d_im2col`): row m is output pixel `p = nhw_step * BM + m`
    (`ow = p % OW`, `oh = (p / OW) % OH`, `n = p / (OW * OH)`), column j is
    `q = c_step * BK + j` in (kh, kw, c) order, c fastest (`c = q % C`,
    `kw = (q / C) % kernel`, `kh = q / (C * kernel)`), and the element is
    `img[n, oh * stride + kh * dilation - pad, ow * stride + kw * dilation
    - pad, c]`, 0 outside the image (the padding), past the last pixel or
    past the last column, where `OH = (H + 2 pad - dilation (kernel - 1) -
    1) / stride + 1` (and OW alike). This pass writes it as that loop: a
    `tile.parallel` over [BM, BK] whose body reads the image under a
    `tile.if` on the bounds and stores 0 otherwise, which every target
    already generates (on sm_90a TileLang uses a TMA im2col load instead;
    the values are the same).

    An image whose shape is not static, a tile that is not a rank-2 static
    shared (or local) buffer, or element types that differ are an error at
    the call; the function is marked `tile.lowering_failed`.
    Runs first in the GPU lowering and before the CPU target prints.
  }];
  let dependentDialects = ["::tlc::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileRotatePipelines : Pass<"tile-rotate-pipelines", "::mlir::ModuleOp"> {
  let summary = "run explicitly staged T.Pipelined loops as TileLang's rotated schedule";
  let description = [{
    `T.Pipelined(n, order=[...], stage=[...])` gives statement i of the loop
    body (its top-level statements; index arithmetic and views are not
    statements) a stage s_i and an order o_i. TileLang's software pipeline
    (InjectSoftwarePipeline) runs the loop as pipeline steps
    `k = lb .. ub + S - 1`, S = max(stage): in step k the statements run in
    ascending `order`, statement i for iteration `k - s_i` when that lies in
    [lb, ub) (the prologue, steady state and epilogue are the steps where
    some statements are out of range; a loop shorter than S runs only the
    in-range instances). Buffers the loop writes are multi-versioned: with
    `def` the lowest stage writing an allocation and `use` the highest
    reading it, `use - def + 1` versions, one fewer when no writer ordered
    before a reader has a lower stage than it; iteration j touches version
    `(j - lb) mod versions`. Function parameters (global memory) have one.
    When a later-stage statement and an earlier-stage one touch the same
    data (an accumulator), the result is the rotated schedule's, not the
    program order's.

    This pass makes every target compute exactly that. A loop whose
    rotated schedule provably equals its program order (each allocation
    with one version is touched by conflicting statement pairs of the same
    stage in their `order`, or with the later one in the next stage and
    ordered first; each multi-versioned allocation is written whole by one
    statement before its readers, which lie in that stage or later, and is
    not used outside the loop) is left alone, for tile-plan-pipelines and
    the back ends to overlap. Any other loop is rewritten as the serial
    `tile.for` over the steps (`tile.rotated_stages = S + 1`): each
    statement, with the index arithmetic it uses, under a `tile.if` on its
    iteration's range, and each multi-versioned buffer as separate
    allocations chosen by `tile.if`s on the iteration modulo the count.

    Loops with only one list, a negative entry (TileLang's `group=` /
    warp-specialisation lists) or lists of another length than the
    statements are left alone (tile-plan-pipelines warns about them).
    Two statements with one `order` value, a statement that uses another
    statement's result, allocations in the body or a pre-loop view of a
    multi-versioned buffer, in a loop that needs the rewrite, are errors at
    the loop; the function is marked `tile.lowering_failed`.
    Runs early in the GPU lowering (after tile-split-range-fragments) and
    before the CPU target prints.
  }];
  let dependentDialects = ["::tlc::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileSplitRangeFragments
    : Pass<"tile-split-range-fragments", "::mlir::ModuleOp"> {
  let summary = "give a fragment of several thread ranges one copy per range";
  let description = [{
    A fragment lives in registers: a tile operation under a thread range
    (`if tx // 128 == g:`, `T.ws(g)`, `tx < c`) writes the registers of
    that range's threads only. When tile operations of two or more disjoint
    ranges use one fragment (two warpgroups' gemms into one accumulator,
    the register carry of a ping-pong pipeline), each range holds a copy
    of its own, and a block-wide operation on it (a `T.Parallel` over the
    whole block, a `T.copy` to global memory) runs in every range's
    threads on that range's copy.

    A target that keeps one block-wide array per fragment (the CPU target)
    needs this made explicit, or one range's gemm overwrites what another
    range reads after it. This pass gives each such fragment one
    allocation per range (its views too): an operation inside range k uses
    copy k; a block-wide one is repeated once per copy, in place, and the
    fragments it uses get copies as well (the sum of a per-range
    accumulator is per range). A repeated statement of an explicitly
    staged `T.Pipelined` body keeps its stage and takes consecutive
    `order` slots.

    A block-wide `T.copy` of a copied fragment whole into global or shared
    memory would store every element once per copy: copy k stores only
    rows [k * R / n, (k + 1) * R / n) of its R rows (n copies; a
    `tile.region` of the fragment and of the destination), or, where n
    does not divide R, copy 0 stores them all. Other block-wide writes of
    global or shared memory from the copies are split by the same rows: a
    `T.Parallel` that reads every copied fragment's rows at one loop
    variable (`C[i, j] = out[i, j]`, `Ct[j, i] = out[i, j]`) and writes
    no copied fragment runs once per copy with its body in a `tile.if` on
    that variable's share of the rows; a tile-form `T.atomic_add` of a
    copied fragment whole (element type of its destination) becomes a
    `T.Parallel` of element-form adds of the same memory order, guarded
    alike. Any other such statement (a fragment row read at an index that
    is not one loop variable, a loop that also writes a copy) is an error:
    each copy would write the same elements.

    On a GPU target (the `target` option, else the module's
    `tile.gpu_target`: `cuda:` or `hip:`) a fragment is laid out for the
    threads of one range, so each repeated block-wide use runs inside its
    copy's range: it is wrapped in a `tile.if` on `lo <= tx < hi`, and
    every use of copy k is then in range k (the ping-pong sum and its
    store each on their own warpgroup).

    Also on a GPU target, first: a fragment that the tile operations of
    one narrower range R use (a warpgroup's gemm under `T.ws(1)`) and a
    wider one uses too (`T.copy(C_local_g1, C[...])` after the branches)
    is laid out for R, as TileLang binds it to the gemm's threads and the
    wider operation's loop follows that layout: the wider operation is
    wrapped in a `tile.if` on R, and the fragments it uses that no range
    holds go to R too. One that also uses a fragment of another range, or
    has a result, is left as it is.

    Kernels are left alone when no fragment is used by two distinct
    narrower ranges, when those ranges overlap, when two fragments' ranges
    differ, when a use lies in a range that neither holds nor lies within
    every copy's, or when a block-wide use has a result (a scalar read of
    the fragment outside a range, whose copy is the reading thread's).
    Runs first in the GPU lowering, and before the CPU target prints a
    kernel that reads its thread index.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The target; a GPU one (`cuda:...`, `hip:...`) runs each copy's "
           "block-wide uses in its range. Empty: the module's "
           "`tile.gpu_target` attribute.">,
  ];
  let dependentDialects = ["::tlc::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileCheckSharedBounds : Pass<"tile-check-shared-bounds", "::mlir::ModuleOp"> {
  let summary = "report shared-memory accesses that leave their buffer";
  let description = [{
    A `tile.load` or `tile.store` of a shared, fragment, local or
    `local.var` buffer (the result of a `tile.alloc` itself, not a view of
    it) whose index, in some dimension, leaves `[0, extent)` at some
    iteration of the loops around it is an error at the access, with the
    allocation as a note. TileLang does not check these: the access lands in
    another buffer of the block's shared memory, or past its end (an illegal
    address on the GPU), or in another register array or local memory (a
    `[heads]` fragment read by `T.Parallel(block_M)` with `block_M >
    heads`). Regions (tile-op operands) are checked for shared buffers only. A typical case
    is a `T.Parallel(block_S, block_DV)` loop that indexes a
    `(block_S, block_DK)` buffer, wrong for the configurations where
    `block_DV > block_DK`; an autotuner then skips those configurations as
    builds that failed.

    Only what every run executes is reported, so no valid program gets the
    error: the access must lie directly in its kernel or in `tile.parallel`,
    `tile.for` and `tile.pipelined` loops whose iteration counts are known
    and positive (not under a `tile.if`, a `tile.while`, a warp-specialised
    branch or any other region), a load must not feed an `arith.select`
    (`T.if_then_else` only evaluates the side it picks), and each index must
    be computed by integer arithmetic (+ - * / % min max, casts) from
    constants and loop, block and thread indices. Every combination of
    those indices (up to 2^20) is evaluated exactly: an index that
    `IndexIntervals` bounds only loosely is never reported on its interval
    alone. The message gives the values the index takes and the extent.

    The driver runs this check on every analysed instance (`--check`, the
    language server and builds); as a pass it emits the same errors and
    fails.
  }];
  let dependentDialects = ["::tlc::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileCheckUndefinedAccumulators
    : Pass<"tile-check-undefined-accumulators", "::mlir::ModuleOp"> {
  let summary = "warn where a gemm accumulates into a buffer never written";
  let description = [{
    A `tile.gemm` without `clear_accum` adds to its accumulator C. When C
    is (a view of) a register buffer (`local.fragment` or `local`, no
    `init`) and no operation between its `tile.alloc` and the gemm, in
    program order and nested ones included, may write it, the value the
    gemm adds to is undefined: TileLang does not initialise fragments, and
    one allocated in a loop body starts each iteration undefined (its
    CUDA/HIP declares the array in the loop body). The gemm gets a warning,
    the allocation a note. The back ends differ on such a program (the CPU
    target starts the buffer at zero, the GPU keeps whatever the registers
    held), so a GPU run disagrees with its CPU reference; upstream's
    examples/amd/example_amd_flash_attn_fwd_k_block.py is one.

    An operation counts as a write unless it is a `tile.load`, the A or B
    operand of a gemm, a view (its buffer result joins the accumulator's
    aliases) or declares only reads of the buffer; a write anywhere before
    the gemm (a `T.clear` under a `tile.if`, the first of two gemms that
    clears) silences the warning. The driver runs this check on every
    analysed instance (`--check`, the language server, builds).
  }];
  let dependentDialects = ["::tlc::tile::TileDialect"];
}

#endif // TLC_DIALECT_TILE_TRANSFORMS_PASSES_TD
