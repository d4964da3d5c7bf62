# T.annotate_padding({buf: v}): out-of-range elements of global memory
# read into buf (by a T.copy into it, or a store into it of a value loaded
# out of range) read v instead of 0, on every target; other reads keep 0
# (or the tensor's T.annotate_safe_value). The CPU target and the sim
# device (the CUDA code run on the host) against NumPy; the pad is in the
# CUDA and HIP guards.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python %S/Inputs/annotate_padding_check.py %t/out | FileCheck %s
# CHECK: copied True
# CHECK-NEXT: shifted True
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s --check-prefix=CUDA
# CUDA-LABEL: copied_kernel(
# CUDA: ? A[{{.*}}] : (float)(7.0f));
# CUDA-LABEL: shifted_kernel(
# CUDA: >= 0) ? float(tlc::cuda::toFloat(A[{{.*}}])) : float((float)(7.5f));
# RUN: tlc-build --emit=hip --target=hip:gfx942 --kernel shifted %s | FileCheck %s --check-prefix=HIP
# HIP: >= 0) ? float(tlc::hip::toFloat(A[{{.*}}])) : float((float)(7.5f));
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ rm -rf %t/sim && tlc-run %t/cuda --device sim --save %t/sim > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/annotate_padding_check.py %t/sim | FileCheck %s %}

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def copied(N=100, pad=7.0, block=128):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((block,), "float32")):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((block,), "float32")
            T.annotate_padding({A_shared: pad})
            T.copy(A[0:block], A_shared)
            T.copy(A_shared, B)

    return main


@tilelang.jit(out_idx=[1])
def shifted(M=96, N=64, block_M=32, block_N=32, pad=7.5):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), "float16")
            T.annotate_padding({A_shared: pad})
            for i, j in T.Parallel(block_M, block_N):
                A_shared[i, j] = A[by * block_M + i - 10, bx * block_N + j]
            for i, j in T.Parallel(block_M, block_N):
                B[by * block_M + i, bx * block_N + j] = A_shared[i, j]

    return main


copied()
shifted()
