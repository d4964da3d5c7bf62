# GEMMs written by hand with tilelang.intrinsics' AMD matrix-core emitters
# build for the CPU target: tlc runs its model of them
# (Eval/IntrinsicEmittersAMD.py.inc), whose loads and stores are per-thread
# element moves and whose instructions take the other lanes' operands with
# T.shfl_sync of width 64 (the wavefront). The CPU runs are compared with
# NumPy exactly (small integer inputs: every product and partial sum is
# exact): the MFMA emitter for float16, bfloat16, int8 and fp8 inputs, both
# operand orders, k_pack 2, is_m_first, 2-D and 4-D shared and global
# (pid_m, pid_n) stores; DCU's MMAC emitter as the public example drives it (B read
# through its lane permutation, tiles paired (j, i), a 4-D C_shared read
# back transposed), float16 and int8. intrinsics-emitter-mfma-sim.test
# builds the MFMA ones for gfx942 and gfx90a and runs them on sim, and
# checks that the MMAC ones are refused for HIP.
# RUN: tlc-build --check %s 2>&1 | not grep -E "warning:|error:"
# RUN: tlc-build --emit=tile --kernel=mfma_gemm %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/intrinsics_emitter_run.py tlc-run %t/cpu %t/work | FileCheck %s --check-prefix=OUT
# RUN: not tlc-build --target=cuda:sm_90a -o %t/cuda --kernel=mfma_gemm %s 2>&1 | FileCheck %s --check-prefix=CUDA

import tilelang
import tilelang.language as T
from tilelang.intrinsics import get_swizzle_layout
from tilelang.intrinsics.mfma_layout import make_mfma_swizzle_layout
from tilelang.intrinsics.mfma_macro_generator import MatrixCoreIntrinEmitter
from tilelang.intrinsics.mmac_macro_generator import (
    MatrixCoreIntrinEmitter as MMACIntrinEmitter,)


@tilelang.jit
def mfma_gemm(M, N, K, in_dtype="float16", accum_dtype="float32", a_transposed=False,
              b_transposed=True, k_pack=1, chunk=32, store="4d", is_m_first=False):
    block_row_warps, block_col_warps = 2, 2
    warp_row_tiles, warp_col_tiles = 32, 32
    block_M = block_row_warps * warp_row_tiles
    block_N = block_col_warps * warp_col_tiles
    emitter = MatrixCoreIntrinEmitter(
        a_dtype=in_dtype,
        b_dtype=in_dtype,
        accum_dtype=accum_dtype,
        a_transposed=a_transposed,
        b_transposed=b_transposed,
        block_row_warps=block_row_warps,
        block_col_warps=block_col_warps,
        warp_row_tiles=warp_row_tiles,
        warp_col_tiles=warp_col_tiles,
        chunk=chunk,
        k_pack=k_pack,
        is_m_first=is_m_first,
    )
    step_k = emitter.micro_size_k * k_pack
    A_shape = (K, M) if a_transposed else (M, K)
    B_shape = (N, K) if b_transposed else (K, N)
    A_shared_shape = (chunk, block_M) if a_transposed else (block_M, chunk)
    B_shared_shape = (block_N, chunk) if b_transposed else (chunk, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_shared = T.alloc_shared(A_shared_shape, in_dtype)
            B_shared = T.alloc_shared(B_shared_shape, in_dtype)
            C_tiles = T.alloc_shared((block_M // 16, block_N // 16, 16, 16), accum_dtype)
            C_flat = T.alloc_shared((block_M, block_N), accum_dtype)
            A_local = T.alloc_local((emitter.warp_rows * emitter.local_size_a * k_pack),
                                    in_dtype)
            B_local = T.alloc_local((emitter.warp_cols * emitter.local_size_b * k_pack),
                                    in_dtype)
            C_local = T.alloc_local(
                (emitter.warp_rows * emitter.warp_cols * emitter.local_size_out), accum_dtype)
            T.annotate_layout({
                A_shared: make_mfma_swizzle_layout(A_shared),
                B_shared: make_mfma_swizzle_layout(B_shared),
            })
            T.clear(C_local)
            for ko in T.Pipelined(K // chunk, num_stages=2):
                if a_transposed:
                    T.copy(A[ko * chunk, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, ko * chunk], A_shared)
                if b_transposed:
                    T.copy(B[bx * block_N, ko * chunk], B_shared)
                else:
                    T.copy(B[ko * chunk, bx * block_N], B_shared)
                for ki in T.serial(chunk // step_k):
                    emitter.ldmatrix_a(A_local, A_shared, ki)
                    emitter.ldmatrix_b(B_local, B_shared, ki)
                    emitter.mfma(A_local, B_local, C_local)
            if store == "global":
                emitter.stmatrix(C_local, C, pid_m=by, pid_n=bx)
            elif store == "2d":
                emitter.stmatrix(C_local, C_flat)
                T.copy(C_flat, C[by * block_M, bx * block_N])
            else:
                emitter.stmatrix(C_local, C_tiles)
                for i, j in T.Parallel(block_M, block_N):
                    C[by * block_M + i, bx * block_N + j] = C_tiles[i // 16, j // 16, i % 16,
                                                                    j % 16]

    return main


def dcu_swizzle(shared_buf):
    shape = shared_buf.shape
    if shape[-1] * 16 != 512:
        return T.Layout(shape, lambda *args: args)
    return T.Layout(shape, lambda i, j: get_swizzle_layout(i, j, shape[-1], shared_buf.dtype))


@tilelang.jit
def mmac_gemm(M, N, K, in_dtype="float16", accum_dtype="float32"):
    # The shape of examples/gemm/example_gemm_intrinsics_dcu.py at 2 x 2
    # wavefronts of 32 x 32.
    micro = 16
    micro_k = 32 if in_dtype == "int8" else 16
    block_row_warps = block_col_warps = 2
    warp_row_tiles = warp_col_tiles = 32
    chunk = 32 if in_dtype == "float16" else 64
    block_M = block_row_warps * warp_row_tiles
    block_N = block_col_warps * warp_col_tiles
    emitter = MMACIntrinEmitter(
        a_dtype=in_dtype, b_dtype=in_dtype, accum_dtype=accum_dtype, a_transposed=False,
        b_transposed=True, block_row_warps=block_row_warps, block_col_warps=block_col_warps,
        warp_row_tiles=warp_row_tiles, warp_col_tiles=warp_col_tiles, chunk=chunk)
    local_a = micro * micro_k // 64
    local_c = micro * micro // 64

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor((N, K), in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_shared = T.alloc_shared((block_M, chunk), in_dtype, scope="shared.dyn")
            B_shared = T.alloc_shared((block_N, chunk), in_dtype, scope="shared.dyn")
            C_shared = T.alloc_shared((block_M // micro, block_N // micro, micro, micro),
                                      accum_dtype, scope="shared.dyn")
            A_local = T.alloc_local((emitter.warp_rows * local_a), in_dtype)
            B_local = T.alloc_local((emitter.warp_cols * local_a), in_dtype)
            C_local = T.alloc_local((emitter.warp_rows * emitter.warp_cols * local_c),
                                    accum_dtype)
            T.annotate_layout({
                A_shared: dcu_swizzle(A_shared),
                B_shared: dcu_swizzle(B_shared),
            })
            T.clear(C_local)
            for ko in T.Pipelined((K // chunk), num_stages=2):
                for i, k in T.Parallel(block_M, chunk):
                    A_shared[i, k] = A[by * block_M + i, ko * chunk + k]
                for j, k in T.Parallel(block_N, chunk):
                    B_shared[j, k] = B[bx * block_N + j, ko * chunk + k]
                for ki in T.serial(0, (chunk // micro_k)):
                    emitter.ldmatrix_a(A_local, A_shared, ki)
                    emitter.ldmatrix_b(B_local, B_shared, ki)
                    emitter.mmac(A_local, B_local, C_local)
            emitter.stmatrix(C_local, C_shared)
            for i, j in T.Parallel(block_M, block_N):
                C[by * block_M + i, bx * block_N + j] = C_shared[j // micro, i // micro,
                                                                 i % micro, j % micro]

    return main


# CHECK-LABEL: tile.func @mfma_gemm
# CHECK: tile.intrinsic "T.shfl_sync"
# CUDA: error: T.shfl_sync: width 64 is not a power of two of at most 32 (the warp); 64 lanes are an AMD wavefront: build for hip:* or cpu
mfma_gemm(128, 192, 96)
mfma_gemm(128, 192, 96, a_transposed=True, b_transposed=False, store="2d")
mfma_gemm(128, 192, 160, in_dtype="bfloat16", k_pack=2, store="global")
mfma_gemm(128, 192, 192, in_dtype="int8", accum_dtype="int32", chunk=64)
mfma_gemm(128, 192, 96, is_m_first=True, store="2d")
mmac_gemm(128, 192, 96)
mmac_gemm(128, 192, 192, in_dtype="int8", accum_dtype="int32")
# float8_e4m3 is e4m3fnuz on gfx942, e4m3fn on the CPU target (exact for
# these small integers either way).
mfma_gemm(128, 192, 160, in_dtype="float8_e4m3")
mfma_gemm(128, 192, 160, in_dtype="float8_e5m2", a_transposed=True, b_transposed=False)
# A float16 accumulator (no MFMA has one: HIP widens it around the
# instruction, rounding once per instruction as the model does). Sums stay
# below 2048, exact in float16.
mfma_gemm(128, 192, 96, accum_dtype="float16", store="2d")
# float32 inputs (TileLang's k_dim 4: v_mfma_f32_16x16x4f32, one value of A
# and of B per lane).
mfma_gemm(128, 192, 96, in_dtype="float32", chunk=16, store="2d")

# OUT: mfma_gemm: ok
# OUT: mfma_gemm_1: ok
# OUT: mfma_gemm_2: ok
# OUT: mfma_gemm_3: ok
# OUT: mfma_gemm_4: ok
# OUT: mfma_gemm_5: ok
# OUT: mfma_gemm_6: ok
# OUT: mfma_gemm_7: ok
# OUT: mfma_gemm_8: ok
# OUT: mmac_gemm: ok
# OUT: mmac_gemm_1: ok
