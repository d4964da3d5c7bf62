# Raw TIR launches: a prim_func that binds its grid and block with
# T.launch_thread or `for ... in T.thread_binding(...)` instead of a
# T.Kernel is one launch of the tags it binds (the rest of the function is
# its body), built on every target, with raw TIR's block barrier
# T.tvm_storage_sync("shared"). The CPU target and the sim device (the
# CUDA code run on the host) against NumPy; HIP is printed.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python %S/Inputs/raw_launch_check.py %t/out | FileCheck %s
# CHECK: negate True
# CHECK-NEXT: let_copy True
# CHECK-NEXT: ranges True
# CHECK-NEXT: reverse True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CUDA-LABEL: negate_kernel(
# CUDA: blockIdx.x
# CUDA-LABEL: ranges_kernel(
# CUDA: ((int)threadIdx.x / 5) * 5
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=HIP
# HIP: __launch_bounds__(128)
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ rm -rf %t/sim && tlc-run %t/cuda --device sim --save %t/sim > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/raw_launch_check.py %t/sim | FileCheck %s %}

import tilelang
import tilelang.language as T


@tilelang.jit
def negate(N=1024):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        bx = T.launch_thread("blockIdx.x", N // 128)
        tx = T.launch_thread("threadIdx.x", 128)
        B[bx * 128 + tx] = -A[bx * 128 + tx]

    return main


@tilelang.jit
def let_copy(rows=96):

    @T.prim_func
    def main(A: T.Tensor((rows, 8), "float32"), B: T.Tensor((rows, 4), "float32")):
        for bx in T.thread_binding(rows // 32, thread="blockIdx.x"):
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                b = A[bx * 32 + tx, 4:8]
                B[bx * 32 + tx, 0:4] = b

    return main


@tilelang.jit
def ranges(M=6, N=40):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        for by in T.thread_binding(M, thread="blockIdx.y"):
            for bx in T.thread_binding(2, thread="blockIdx.x"):
                for ty in T.thread_binding(0, 4, thread="threadIdx.y"):
                    for tx in T.thread_binding(5, thread="threadIdx.x"):
                        c = bx * 20 + ty * 5 + tx
                        B[by, c] = A[by, c] * 2.0 + by

    return main


@tilelang.jit
def reverse(N=512, threads=128):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        bx = T.launch_thread("blockIdx.x", N // threads)
        tx = T.launch_thread("threadIdx.x", threads)
        stage = T.alloc_buffer((threads,), "float32", scope="shared")
        stage[tx] = A[bx * threads + tx]
        T.tvm_storage_sync("shared")
        B[bx * threads + tx] = stage[threads - 1 - tx]

    return main


negate()
let_copy()
ranges()
reverse()
