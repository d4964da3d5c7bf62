# Fragments accessed inside a T.Parallel at indices composed from the loop
# variables (a tile flattened into a rank-1 fragment, `b[i * N + j]`, and
# read back at a rotated flat index): the CUDA target exchanges such a
# fragment through shared memory around the loop (its registers stored
# row-major, the loop accesses the tile, a loop that writes it loads the
# registers back), as for reads in another thread's layout. The CPU target
# against NumPy at a ragged M; the CUDA target against the CPU target on
# sim (tests/sim/run_sim.py --breadth).
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python %S/Inputs/fragment_composed_index_check.py %t/out | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: flatten True
# CHECK-NEXT: rotate True
#
# CUDA-LABEL: flatten_kernel(
# CUDA: // T.Parallel  fragment-composed-index.py:[[# @LINE + 23]]:{{[0-9]+}}
# CUDA-NEXT: __syncthreads();  // the exchange area is free
# CUDA-NEXT: half *[[X:exchanged(_[0-9]+)?]] = reinterpret_cast<tlc::cuda::half *>(smem + 0);  // b, row-major
# CUDA: [[X]][(t_{{[0-9]+}})] = tlc::cuda::toHalf(x);
# CUDA: __syncthreads();
# CUDA: b[r_{{[0-9]+}}] = [[X]][
# CUDA-LABEL: rotate_kernel(
# CUDA: = [[X2:exchanged(_[0-9]+)?]][(t_{{[0-9]+}})];

import tilelang
import tilelang.language as T


@tilelang.jit
def flatten(M, N, block_M=32, block_N=64, threads=128):
    dtype = "float16"

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M * N,), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            a = T.alloc_fragment([block_M, block_N], dtype)
            b = T.alloc_fragment([block_M * block_N], dtype)
            T.copy(A[by * block_M, bx * block_N], a)
            for i, j in T.Parallel(block_M, block_N):
                b[i * block_N + j] = a[i, j]
            for i in T.Parallel(block_M * block_N):
                B[by * block_M * N + bx * block_N + i // block_N * N + i % block_N] = b[i]

    return main


@tilelang.jit
def rotate(M, block=256, cols=16, shift=5, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(X: T.Tensor((M,), dtype), Y: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block), threads=threads) as bx:
            b = T.alloc_fragment([block], dtype)
            a = T.alloc_fragment([block // cols, cols], dtype)
            T.copy(X[bx * block], b)
            for i in T.Parallel(block):
                b[i] = b[i] + 1
            for i, j in T.Parallel(block // cols, cols):
                a[i, j] = b[(i * cols + j + shift) % block] * 2
            for i, j in T.Parallel(block // cols, cols):
                Y[bx * block + i * cols + j] = a[i, j]

    return main


flatten(100, 128)
rotate(1000)
