# tilelang.intrinsics' MatrixCorePreshuffleIntrinEmitter (TileLang's AMD
# tests drive it with b_preshuffle=True): B stored as 16 x (k_pack k_dim)
# tiles, [N / 16, K / pk, 16, pk] (b_transposed) or [K / pk, N / 16, pk, 16],
# read by ldmatrix_b from shared memory or, given pid_m / pid_n, straight
# from global memory. tlc models it on the MFMA emitter (the same lane
# tables, element (tile, K tile, row, column)); it was an unmodelled
# object before (no kernel built). GEMMs of int8 and float16, both B
# layouts, k_pack 1 and 2, shared and global B, against NumPy exactly
# (small integers; the runner un-shuffles B itself) on the CPU target and,
# built for gfx942, on the sim device.
# RUN: tlc-build --check %s 2>&1 | not grep -E "warning:|error:"
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/preshuffle_run.py tlc-run %t/cpu %t/work | FileCheck %s
# RUN: tlc-build --target=hip:gfx942 -o %t/g942 %s > /dev/null 2>&1
# RUN: %if sim-compiler %{ %python %S/Inputs/preshuffle_run.py tlc-run %t/g942 %t/w942 --device=sim | FileCheck %s %}
# RUN: grep -c 'mfmaI32x16x16x32' %t/g942/pre_gemm.hip
# CHECK: pre_gemm: ok, 0 of 24576 elements differ
# CHECK: pre_gemm_1: ok, 0 of 24576 elements differ
# CHECK: pre_gemm_2: ok, 0 of 24576 elements differ
# CHECK: pre_gemm_3: ok, 0 of 24576 elements differ
# CHECK: pre_gemm_4: ok, 0 of 24576 elements differ
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T
from tilelang.intrinsics.mfma_macro_generator import MatrixCorePreshuffleIntrinEmitter


@tilelang.jit
def pre_gemm(M, N, K, in_dtype=T.int8, accum_dtype=T.int32, b_transposed=True, k_pack=1,
             from_global=False):
    micro = 16
    micro_k = 32 if in_dtype == T.int8 else 16
    pk = micro_k * k_pack
    warps_m, warps_n, tile_m, tile_n = 1, 4, 64, 16
    block_M, block_N, block_K = warps_m * tile_m, warps_n * tile_n, 2 * pk
    size = k_pack * micro * micro_k // 64
    B_shape = (N // micro, K // pk, micro, pk) if b_transposed else (K // pk, N // micro, pk, micro)
    B_tile = ((block_N // micro, block_K // pk, micro, pk) if b_transposed else
              (block_K // pk, block_N // micro, pk, micro))
    em = MatrixCorePreshuffleIntrinEmitter(
        a_dtype=in_dtype, b_dtype=in_dtype, accum_dtype=accum_dtype, a_transposed=False,
        b_transposed=b_transposed, block_row_warps=warps_m, block_col_warps=warps_n,
        warp_row_tiles=tile_m, warp_col_tiles=tile_n, chunk=block_K, k_pack=k_pack,
        b_preshuffle=True)

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=64 * warps_m * warps_n) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), in_dtype)
            B_shared = T.alloc_shared(B_tile, in_dtype)
            A_local = T.alloc_local((tile_m // micro) * size, in_dtype)
            B_local = T.alloc_local((tile_n // micro) * size, in_dtype)
            C_local = T.alloc_local((tile_m // micro) * (tile_n // micro) * 4, accum_dtype)
            T.clear(C_local)
            steps = block_K // pk
            for ko in T.Pipelined(K // block_K, num_stages=0):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                if not from_global:
                    if b_transposed:
                        for j, k, jj, kk in T.Parallel(block_N // micro, steps, micro, pk):
                            B_shared[j, k, jj, kk] = B[bx * (block_N // micro) + j,
                                                       ko * steps + k, jj, kk]
                    else:
                        for k, j, kk, jj in T.Parallel(steps, block_N // micro, pk, micro):
                            B_shared[k, j, kk, jj] = B[ko * steps + k,
                                                       bx * (block_N // micro) + j, kk, jj]
                for ki in T.serial(steps):
                    em.ldmatrix_a(A_local, A_shared, ki)
                    if from_global:
                        em.ldmatrix_b(B_local, B, ki + ko * steps, pid_m=by, pid_n=bx)
                    else:
                        em.ldmatrix_b(B_local, B_shared, ki)
                    em.mfma(A_local, B_local, C_local)
            em.stmatrix(C_local, C, pid_m=by, pid_n=bx)

    return main


pre_gemm(128, 192, 256)
pre_gemm(128, 192, 256, b_transposed=False)
pre_gemm(128, 192, 256, k_pack=2)
pre_gemm(128, 192, 256, in_dtype=T.float16, accum_dtype=T.float32, b_transposed=False, k_pack=2)
pre_gemm(128, 192, 256, from_global=True)
