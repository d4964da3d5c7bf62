# What a GPU back end cannot generate names the target being built: HIP when
# building for HIP (the printer shared by CUDA and HIP said "CUDA" in both),
# and nothing at --check (the program is valid).
# RUN: tlc-build --check %s
# RUN: not tlc-build --target=hip:gfx942 --emit=hip %s 2>&1 | FileCheck %s --check-prefix=HIP
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
# HIP: target-name-messages.py:31:13: error: the HIP target lowers T.cumsum over shared or global tiles of rank 1 or 2
# HIP: target-name-messages.py:46:17: error: this tile operation runs on threads [0, 40), which is not a whole number of warps: the HIP target partitions
# CUDA: target-name-messages.py:31:13: error: the CUDA target lowers T.cumsum over shared or global tiles of rank 1 or 2
# CUDA: target-name-messages.py:46:17: error: this tile operation runs on threads [0, 40), which is not a whole number of warps: the CUDA target partitions
# The messages of CUDAEmitter(Kernel).cpp and CUDAEmitterCopy.cpp too:
# HIP: target-name-messages.py:57:14: error: the HIP target does not support element type 'f6E2M3FN'
# HIP: target-name-messages.py:71:17: error: the HIP target views (T.reshape, T.view) dense tensors only, not one with strides
# HIP-NOT: target-name-messages.py:88:{{[0-9]+}}: error
# HIP-NOT: CUDA
# CUDA: target-name-messages.py:57:14: error: the CUDA target does not support element type 'f6E2M3FN'
# CUDA: target-name-messages.py:71:17: error: the CUDA target views (T.reshape, T.view) dense tensors only, not one with strides
# CUDA-NOT: target-name-messages.py:88:{{[0-9]+}}: error
import tilelang
import tilelang.language as T


@tilelang.jit
def cumsum3(N=8):

    @T.prim_func
    def main(A: T.Tensor((2, N, N), "float32"), B: T.Tensor((2, N, N), "float32")):
        with T.Kernel(1, threads=64) as _:
            s = T.alloc_shared((2, N, N), "float32")
            T.copy(A, s)
            T.cumsum(s, dim=2)
            T.copy(s, B)

    return main


@tilelang.jit
def ranged(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as _:
            tx = T.get_thread_binding()
            f = T.alloc_fragment((N,), "float32")
            if tx < 40:
                T.fill(f, 1.0)
                T.copy(f, A)

    return main


@tilelang.jit
def fp4_store(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), Q: T.Tensor((N,), "float6_e2m3fn")):
        with T.Kernel(1, threads=64) as _:
            for i in T.Parallel(N):
                Q[i] = A[i]

    return main


@tilelang.jit
def strided_view(M=16, N=16):

    @T.prim_func
    def main(A: T.StridedTensor((M, N), (32, 1), "float32"),
             B: T.Tensor((M * N,), "float32")):
        with T.Kernel(1, threads=64) as _:
            v = T.reshape(A, (M * N,))
            for i in T.Parallel(M * N):
                B[i] = v[i]

    return main


@tilelang.jit
def fragment_rows(N=64):  # builds: a run-time fragment window

    @T.prim_func
    def main(A: T.Tensor((4, N), "float32"), B: T.Tensor((4, N), "float32")):
        with T.Kernel(1, threads=64) as _:
            f = T.alloc_fragment((4, N), "float32")
            s = T.alloc_shared((N,), "float32")
            T.copy(A, f)
            for k in T.serial(4):
                T.copy(f[k, :], s)
                T.copy(s, B[k, :])

    return main
