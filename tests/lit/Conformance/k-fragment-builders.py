# XFAIL: *
# Known gap (tlc, not the program): make_gemm_fragment_8x8(_transposed) and make_fully_replicated_layout_fragment are not evaluated into layouts.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# K: make_gemm_fragment_8x8(_transposed).repeat, make_fully_replicated_layout_fragment,
# make_swizzled_layout in T.annotate_layout. Shape: lazy factory (layouts in meta layer).
import tilelang
import tilelang.language as T
from tilelang.layout import (
    make_fully_replicated_layout_fragment,
    make_gemm_fragment_8x8,
    make_gemm_fragment_8x8_transposed,
    make_swizzled_layout,
)


@tilelang.jit(out_idx=[-1])
def warp_tile_scale(M, N, tile=16, transposed=False):
    base = make_gemm_fragment_8x8_transposed() if transposed else make_gemm_fragment_8x8()
    frag = base.repeat([tile // 8, tile // 8], repeat_on_thread=False)

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), Scale: T.Tensor((N,), T.float16), B: T.Tensor((M, N), T.float16)):
        with T.Kernel(T.ceildiv(N, tile), T.ceildiv(M, tile), threads=32) as (bx, by):
            A_s = T.alloc_shared((tile, tile), T.float16)
            A_f = T.alloc_fragment((tile, tile), T.float16)
            col_scale = T.alloc_fragment((tile,), T.float16)
            T.annotate_layout({
                A_s: make_swizzled_layout(A_s),
                A_f: frag,
                col_scale: make_fully_replicated_layout_fragment(col_scale, 32),
            })
            T.copy(A[by * tile, bx * tile], A_s)
            T.copy(A_s, A_f)
            for j in T.Parallel(tile):
                col_scale[j] = Scale[bx * tile + j]
            for i, j in T.Parallel(tile, tile):
                A_f[i, j] = A_f[i, j] * col_scale[j]
            T.copy(A_f, B[by * tile, bx * tile])

    return main


kernel = warp_tile_scale(1024, 1024)
kernel_t = warp_tile_scale(1024, 1024, transposed=True)

# The annotated fragments are strict: A_f keeps the ldmatrix 8x8 mapping
# repeated 2x2 in registers (8 regs/thread, not a T.Parallel-derived layout),
# col_scale is held whole by each of the 32 threads.
# CHECK: "instance":"warp_tile_scale(1024, 1024)","name":"A","kind":"tensor","shape":[1024,1024],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"A_s","kind":"buffer","shape":[16,16],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 32B"
# CHECK: "name":"A_f","kind":"buffer","shape":[16,16],"dtype":"float16","scope":"local.fragment","layout":"{{[^p"][^"]*}}8 regs/thread"
# CHECK: "name":"col_scale","kind":"buffer","shape":[16],"dtype":"float16","scope":"local.fragment","layout":"{{[^"]*}}16 regs/thread · rep 32"
# CHECK: "instance":"warp_tile_scale(1024, 1024, transposed=True)","name":"A"
# CHECK: "name":"A_f","kind":"buffer","shape":[16,16],"dtype":"float16","scope":"local.fragment","layout":"{{[^p"][^"]*}}8 regs/thread"
# CHECK: "name":"col_scale","kind":"buffer","shape":[16],"dtype":"float16","scope":"local.fragment","layout":"{{[^"]*}}16 regs/thread · rep 32"
