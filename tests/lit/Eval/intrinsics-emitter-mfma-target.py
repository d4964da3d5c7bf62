# Newer TileLang passes the build target to its MFMA emitter
# (`MatrixCoreIntrinEmitter(..., target=determine_target("auto",
# return_object=True))`) and sizes a program's lanes from its own list of
# 8-bit inputs that take 16x16x32 steps (int8 and every float8 name,
# float8_e4m3fnuz being what determine_fp8_type() answers on gfx942). tlc's
# model took no target (a TypeError at the constructor) and gave OCP fp8
# 16x16x16 steps, so a program allocating 8 values per lane read half its
# K. Each GEMM below writes micro_size_k itself, as such programs do, and
# must equal NumPy exactly (small integers) on the CPU target and, built for
# gfx942, on the sim device.
# RUN: tlc-build --check %s 2>&1 | not grep -E "warning:|error:"
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/intrinsics_emitter_run.py tlc-run %t/cpu %t/work | FileCheck %s
# RUN: tlc-build --target=hip:gfx942 -o %t/g942 %s > /dev/null 2>&1
# RUN: %if sim-compiler %{ %python %S/Inputs/intrinsics_emitter_run.py tlc-run %t/g942 %t/w942 --device=sim | FileCheck %s --check-prefixes=CHECK,HIP %}
# RUN: grep -c 'mfmaF32x16x16x32<false, true>' %t/g942/target_gemm_3.hip
# CHECK: target_gemm: ok, 0 of 24576 elements differ
# CHECK: target_gemm_1: ok, 0 of 24576 elements differ
# CHECK: target_gemm_2: ok, 0 of 24576 elements differ
# CHECK-NOT: WRONG
# On gfx942 determine_fp8_type() is float8_e4m3fnuz, a fourth instance (on
# the CPU target it is float8_e4m3fn, the third one).
# HIP: target_gemm_3: ok, 0 of 24576 elements differ

import tilelang
import tilelang.language as T
from tilelang.intrinsics.mfma_layout import make_mfma_swizzle_layout
from tilelang.intrinsics.mfma_macro_generator import MatrixCoreIntrinEmitter
from tilelang.utils import determine_fp8_type, determine_target


@tilelang.jit
def target_gemm(M, N, K, in_dtype=T.float16, accum_dtype=T.float32):
    micro = 16
    # The program's own rule, as TileLang's AMD tests write it.
    micro_k = 32 if in_dtype in {T.float8_e4m3fnuz, T.float8_e4m3fn, T.int8} else 16
    warps_m, warps_n, tile_m, tile_n, block_K = 2, 2, 32, 32, 64
    block_M, block_N = warps_m * tile_m, warps_n * tile_n
    size_a = micro * micro_k // 64
    size_b = micro * micro_k // 64
    emitter = MatrixCoreIntrinEmitter(
        a_dtype=in_dtype, b_dtype=in_dtype, accum_dtype=accum_dtype,
        a_transposed=False, b_transposed=True,
        block_row_warps=warps_m, block_col_warps=warps_n,
        warp_row_tiles=tile_m, warp_col_tiles=tile_n, chunk=block_K,
        target=determine_target("auto", return_object=True))

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor((N, K), in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=64 * warps_m * warps_n) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), in_dtype)
            B_shared = T.alloc_shared((block_N, block_K), in_dtype)
            A_local = T.alloc_local((tile_m // micro) * size_a, in_dtype)
            B_local = T.alloc_local((tile_n // micro) * size_b, in_dtype)
            C_local = T.alloc_local((tile_m // micro) * (tile_n // micro) * 4, accum_dtype)
            T.annotate_layout({A_shared: make_mfma_swizzle_layout(A_shared),
                               B_shared: make_mfma_swizzle_layout(B_shared)})
            T.clear(C_local)
            for ko in T.Pipelined(K // block_K, num_stages=0):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[bx * block_N, ko * block_K], B_shared)
                for ki in T.serial(block_K // micro_k):
                    emitter.ldmatrix_a(A_local, A_shared, ki)
                    emitter.ldmatrix_b(B_local, B_shared, ki)
                    emitter.mfma(A_local, B_local, C_local)
            emitter.stmatrix(C_local, C, pid_m=by, pid_n=bx)

    return main


target_gemm(128, 192, 256)
target_gemm(128, 192, 256, in_dtype=T.int8, accum_dtype=T.int32)
target_gemm(128, 192, 256, in_dtype=T.float8_e4m3fn)
target_gemm(128, 192, 256, in_dtype=T.dtype(determine_fp8_type()))
