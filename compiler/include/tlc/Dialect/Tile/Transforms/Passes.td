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

#endif // TLC_DIALECT_TILE_TRANSFORMS_PASSES_TD
