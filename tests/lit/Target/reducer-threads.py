# Reducers in blocks whose thread count is not a power of two: 96, 100, 75
# and 48 threads. On the GPU targets lane exchanges combine the replicas
# within groups of the largest power of two dividing the block (at most a
# warp or wavefront: 32, 4, 1, 16 threads; a partial last CUDA warp
# shuffles under the mask of the lanes it has), then the scratch area
# across the groups. Each block sums float32 columns seeded with 2.5
# (T.reducer_init's initial value, counted once) and takes their maxima,
# the bitxor of int32 columns seeded with 7 and the maxima of uint32
# columns (unsigned order); the sum and the bitxor through the out-of-place
# T.finalize_reducer, the others in place. On the CPU target,
# cuda:sm_90a / sm_80 and hip:gfx942 (the last three on the sim device),
# against NumPy; nvcc (where installed) compiles the CUDA build.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/reducer_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/reducer_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda80 %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/reducer_check.py tlc-run %t/cuda80 %t/wcuda80 --device=sim | FileCheck %s %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/reducer_check.py tlc-run %t/hip %t/whip --device=sim | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nvcc %s > /dev/null %}
# CHECK: odd_block (96 threads): ok
# CHECK-NEXT: odd_block (100 threads): ok
# CHECK-NEXT: odd_block (75 threads): ok
# CHECK-NEXT: odd_block (48 threads): ok
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T


@tilelang.jit
def odd_block(threads, N=40):

    @T.prim_func
    def main(X: T.Tensor((threads, N), T.float32),
             Xi: T.Tensor((threads, N), T.int32),
             Xu: T.Tensor((threads, N), T.uint32),
             Sum: T.Tensor((N,), T.float32), Max: T.Tensor((N,), T.float32),
             Xor: T.Tensor((N,), T.int32), UMax: T.Tensor((N,), T.uint32)):
        with T.Kernel(1, threads=threads):
            s = T.alloc_reducer((N,), T.float32, op="sum")
            m = T.alloc_reducer((N,), T.float32, op="max")
            x = T.alloc_reducer((N,), T.int32, op="bitxor")
            u = T.alloc_reducer((N,), T.uint32, op="max")
            s_out = T.alloc_fragment((N,), T.float32)
            x_out = T.alloc_fragment((N,), T.int32)
            T.reducer_init(s, 2.5)
            T.reducer_init(m)
            T.reducer_init(x, 7)
            T.reducer_init(u)
            for i, j in T.Parallel(threads, N):
                T.reducer_update(s[j], X[i, j])
                T.reducer_update(m[j], X[i, j])
                T.reducer_update(x[j], Xi[i, j])
                T.reducer_update(u[j], Xu[i, j])
            T.finalize_reducer(s, s_out)
            T.finalize_reducer(m)
            T.finalize_reducer(x, x_out)
            T.finalize_reducer(u)
            T.copy(s_out, Sum)
            T.copy(x_out, Xor)
            for j in T.Parallel(N):
                Max[j] = m[j]
                UMax[j] = u[j]

    return main


odd_block(96)
odd_block(100)
odd_block(75)
odd_block(48)
