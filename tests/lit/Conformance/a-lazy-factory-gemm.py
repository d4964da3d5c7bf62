# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group A: lazy @tilelang.jit factory returning a nested @T.prim_func, meta
# parameters with T.dtype annotations, plain helper functions for tile sizes,
# T.Tensor call and subscript forms, a runtime scalar argument, pass_configs;
# make_swizzled_layout operands and T.use_swizzle rasterisation.
import argparse

import tilelang
import tilelang.language as T


def pick_block_k(dtype):
    # 16-bit inputs get a 32-wide K tile, wider dtypes 16.
    return 32 if T.dtype(dtype).bits == 16 else 16


def warps_for(block_m, block_n):
    return max(4, (block_m * block_n) // (64 * 64))


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def scaled_matmul(M, N, K, block_M: int = 128, block_N: int = 128, num_stages: int = 2,
                  in_dtype: T.dtype = T.float16, accum_dtype: T.dtype = T.float32):
    block_K = pick_block_k(in_dtype)
    threads = warps_for(block_M, block_N) * 32
    assert K % block_K == 0, "K must be a multiple of the K tile"
    k_tiles = K // block_K

    @T.prim_func
    def main(
        A: T.Tensor((M, K), in_dtype),
        B: T.Tensor[(K, N), in_dtype],
        alpha: T.float32,
        C: T.Tensor((M, N), in_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), in_dtype)
            B_shared = T.alloc_shared((block_K, block_N), in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.annotate_layout({
                A_shared: tilelang.layout.make_swizzled_layout(A_shared),
                B_shared: tilelang.layout.make_swizzled_layout(B_shared),
            })
            T.use_swizzle(panel_size=10)

            T.clear(C_local)
            for ko in T.Pipelined(k_tiles, num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)

            for i, j in T.Parallel(block_M, block_N):
                C_local[i, j] = C_local[i, j] * alpha
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=2048)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--k", type=int, default=512)
    args = parser.parse_args()
    kernel = scaled_matmul(args.m, args.n, args.k, block_M=128, block_N=256, num_stages=3)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"A","kind":"tensor","shape":[2048,512],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"B","kind":"tensor","shape":[512,1024],"dtype":"float16","scope":"global"
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[4,16],{{.*}}"detail":"256 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[32,256],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 4 panels"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,256],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×2 warps · 128 regs/thread"
# CHECK: "name":"ko","kind":"pipeline","shape":[16],{{.*}}"detail":"3 stages"
