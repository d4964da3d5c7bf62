# T.cumsum over fragments (rank 1, 2 and 3, along any dimension, forward
# and reverse): the CUDA target stores the fragment into a row-major tile
# of the exchange area, scans each line there with one thread, and loads
# the destination's registers back. The CPU target against NumPy at ragged
# sizes; the CUDA target against the CPU target on sim
# (tests/sim/run_sim.py --breadth).
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python %S/Inputs/fragment_cumsum_check.py %t/out | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: tile dim 0 forward True
# CHECK-NEXT: tile dim 1 reverse True
# CHECK-NEXT: row forward True
# CHECK-NEXT: cube dim 1 True
#
# CUDA-LABEL: cumsum_tile_kernel(
# CUDA: // T.cumsum  fragment-cumsum.py:[[# @LINE + 25]]:{{[0-9]+}}
# CUDA-NEXT: __syncthreads();  // the exchange area is free
# CUDA-NEXT: float *[[X:exchanged(_[0-9]+)?]] = reinterpret_cast<float *>(smem + {{[0-9]+}});  // a, row-major
# CUDA: __syncthreads();
# CUDA-NEXT: for (int [[L:line(_[0-9]+)?]] = tid; [[L]] < 64; [[L]] += 128) {
# CUDA-NEXT: const int [[B:base(_[0-9]+)?]] = ([[L]] / 64) * 2048 + [[L]] % 64;
# CUDA: [[X]][[[B]] + [[I:i(_[0-9]+)?]] * 64] = [[S:running(_[0-9]+)?]];
# CUDA: __syncthreads();
# CUDA: a[r{{(_[0-9]+)?}}] = [[X]][

import tilelang
import tilelang.language as T


@tilelang.jit
def cumsum_tile(M, N, block_M=32, block_N=64, dim=0, reverse=False, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            a_shared = T.alloc_shared((block_M, block_N), dtype)
            a = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], a_shared)
            T.copy(a_shared, a)
            T.cumsum(src=a, dim=dim, reverse=reverse)
            T.copy(a, B[by * block_M, bx * block_N])

    return main


@tilelang.jit
def cumsum_row(N, block_N=96, threads=64):
    dtype = "float32"

    @T.prim_func
    def main(X: T.Tensor((N,), dtype), Y: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=threads) as bx:
            x = T.alloc_fragment((block_N,), dtype)
            y = T.alloc_fragment((block_N,), dtype)
            T.copy(X[bx * block_N], x)
            for i in T.Parallel(block_N):
                x[i] = x[i] * 2
            T.cumsum(src=x, dst=y, dim=0)
            T.copy(y, Y[bx * block_N])

    return main


@tilelang.jit
def cumsum_cube(B, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(P: T.Tensor((B, 4, 8, 16), dtype), Q: T.Tensor((B, 4, 8, 16), dtype)):
        with T.Kernel(B, threads=threads) as bx:
            p = T.alloc_fragment((4, 8, 16), dtype)
            T.copy(P[bx, 0, 0, 0], p)
            T.cumsum(src=p, dim=1)
            T.copy(p, Q[bx, 0, 0, 0])

    return main


cumsum_tile(70, 100)
cumsum_tile(70, 100, dim=1, reverse=True)
cumsum_row(200)
cumsum_cube(3)
