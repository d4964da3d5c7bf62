# GEMMs written by hand with tilelang.intrinsics' TensorCoreIntrinEmitter
# (ldmatrix_a / ldmatrix_b / mma / mma_atom / stmatrix) build for every
# target: tlc runs its model of the emitter (Eval/IntrinsicEmitters.cpp),
# whose loads and stores are per-thread element moves and whose mma takes
# the other lanes' fragment elements with T.shfl_sync. The CPU runs are
# compared with NumPy exactly (small integer inputs: every product and sum
# is exact), for float16, bfloat16, int8 and float8 inputs, both operand
# orders, 8-column warp tiles (n_dim 8) and float16 / int32 accumulators.
# Eval/intrinsics-emitter-lanes.py checks the per-lane element placement
# against the PTX fragment tables.
# RUN: tlc-build --check %s 2>&1 | not grep -E "warning:|error:"
# RUN: tlc-build --emit=tile --kernel=warp_gemm %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/intrinsics_emitter_run.py tlc-run %t/cpu %t/work | FileCheck %s --check-prefix=OUT
#
# The same programs built for cuda:sm_80 and cuda:sm_90a (the model's
# shuffles are __shfl_sync) on the sim device (threads of a block
# concurrent, shuffles lane by lane, racecheck): C compared with NumPy
# exactly, and with the CPU build above for the same inputs (tlc-run
# --verify; one CPU build serves both). The per-lane placement of
# intrinsics-emitter-lanes.py on sm_90a against the PTX tables
# (intrinsics-emitter-hip-sim.test: on gfx942).
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/intrinsics_emitter_run.py tlc-run %t/sm80 %t/w80 --device=sim | FileCheck %s --check-prefix=OUT %}
# RUN: %if sim-compiler %{ %python %S/Inputs/intrinsics_emitter_run.py tlc-run %t/sm90 %t/w90 --device=sim | FileCheck %s --check-prefix=OUT %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=VERIFY %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/lanes90 %S/intrinsics-emitter-lanes.py > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/intrinsics_emitter_lanes.py tlc-run %t/lanes90 %t/wl90 --device=sim | FileCheck %s --check-prefix=LANES %}
# LANES: lanes: A ok, B ok, C ok
# LANES: lanes_1: A ok, B ok, C ok
# VERIFY-COUNT-8: verify C: PASS
# VERIFY-NOT: FAIL

import tilelang
import tilelang.language as T
from tilelang.intrinsics import make_mma_swizzle_layout
from tilelang.intrinsics.mma_macro_generator import TensorCoreIntrinEmitter


@tilelang.jit
def warp_gemm(M, N, K, in_dtype="float16", accum_dtype="float32", a_transposed=False,
              b_transposed=True, warp_col_tiles=32, chunk=32):
    block_row_warps, block_col_warps, warp_row_tiles = 2, 2, 32
    block_M = block_row_warps * warp_row_tiles
    block_N = block_col_warps * warp_col_tiles
    emitter = TensorCoreIntrinEmitter(
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
    )
    micro_k = emitter.micro_size_k
    A_shape = (K, M) if a_transposed else (M, K)
    B_shape = (N, K) if b_transposed else (K, N)
    A_shared_shape = (chunk, block_M) if a_transposed else (block_M, chunk)
    B_shared_shape = (block_N, chunk) if b_transposed else (chunk, block_N)
    tiles_n = block_N // emitter.micro_size_y

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared(A_shared_shape, in_dtype)
            B_shared = T.alloc_shared(B_shared_shape, in_dtype)
            C_shared = T.alloc_shared((block_M // 16, tiles_n, 16, emitter.micro_size_y),
                                      accum_dtype)
            A_local = T.alloc_local((emitter.warp_rows * emitter.local_size_a), in_dtype)
            B_local = T.alloc_local((emitter.warp_cols * emitter.local_size_b), in_dtype)
            C_local = T.alloc_local(
                (emitter.warp_rows * emitter.warp_cols * emitter.local_size_out), accum_dtype)
            T.annotate_layout({
                A_shared: make_mma_swizzle_layout(A_shared),
                B_shared: make_mma_swizzle_layout(B_shared),
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
                for ki in T.serial(chunk // micro_k):
                    emitter.ldmatrix_a(A_local, A_shared, ki)
                    emitter.ldmatrix_b(B_local, B_shared, ki)
                    emitter.mma(A_local, B_local, C_local)
            emitter.stmatrix(C_local, C_shared)
            for i, j in T.Parallel(block_M, block_N):
                C[by * block_M + i, bx * block_N + j] = C_shared[
                    i // 16, j // emitter.micro_size_y, i % 16, j % emitter.micro_size_y]

    return main


@tilelang.jit
def atom_gemm(M, N, K, in_dtype="float16", accum_dtype="float32"):
    # One mma_atom per (row tile, column tile), operands staged in a 3-D
    # shared buffer, accumulators stored straight to global (pid_m, pid_n).
    emitter = TensorCoreIntrinEmitter(
        a_dtype=in_dtype, b_dtype=in_dtype, accum_dtype=accum_dtype,
        a_transposed=False, b_transposed=True, block_row_warps=1,
        block_col_warps=2, warp_row_tiles=32, warp_col_tiles=16, chunk=16)
    block_M, block_N, chunk = 32, 32, 16

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor((N, K), in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(N // block_N, M // block_M, threads=64) as (bx, by):
            A_shared = T.alloc_shared((1, block_M, chunk), in_dtype)
            B_shared = T.alloc_shared((1, block_N, chunk), in_dtype)
            A_local = T.alloc_local((emitter.warp_rows * emitter.local_size_a), in_dtype)
            B_local = T.alloc_local((emitter.warp_cols * emitter.local_size_b), in_dtype)
            C_local = T.alloc_local(
                (emitter.warp_rows * emitter.warp_cols * emitter.local_size_out), accum_dtype)
            T.clear(C_local)
            for ko in T.serial(K // chunk):
                T.copy(A[by * block_M, ko * chunk], A_shared[0, :, :])
                T.copy(B[bx * block_N, ko * chunk], B_shared[0, :, :])
                emitter.ldmatrix_a(A_local, A_shared, 0)
                emitter.ldmatrix_b(B_local, B_shared, 0)
                for i, j in T.grid(emitter.mma_num_inst_m, emitter.mma_num_inst_n):
                    emitter.mma_atom(A_local, B_local, C_local, i, j)
            emitter.stmatrix(C_local, C, pid_m=by, pid_n=bx)

    return main


# CHECK-LABEL: tile.func @warp_gemm
# CHECK: tile.intrinsic "T.shfl_sync"
warp_gemm(128, 64, 96)
warp_gemm(128, 64, 96, a_transposed=True, b_transposed=False)
warp_gemm(64, 96, 64, in_dtype="bfloat16", warp_col_tiles=24)
warp_gemm(128, 64, 192, in_dtype="int8", accum_dtype="int32", chunk=64)
warp_gemm(64, 128, 128, in_dtype="float8_e5m2", a_transposed=True, chunk=64)
warp_gemm(64, 128, 96, in_dtype="float8_e4m3", b_transposed=False, chunk=32)
warp_gemm(128, 64, 96, accum_dtype="float16")
atom_gemm(64, 96, 48)

# OUT: atom_gemm: ok
# OUT: warp_gemm: ok
# OUT: warp_gemm_1: ok
# OUT: warp_gemm_2: ok
# OUT: warp_gemm_3: ok
# OUT: warp_gemm_4: ok
# OUT: warp_gemm_5: ok
# OUT: warp_gemm_6: ok
