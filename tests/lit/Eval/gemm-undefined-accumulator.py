# A T.gemm without clear_accum adds to its accumulator; when nothing wrote
# the accumulator before (allocated in the loop body, as upstream's AMD
# flash-attention k_block example does for both of its gemms, or before the
# loop without a T.clear), the value it adds to is undefined: TileLang does
# not initialise fragments. The back ends differ on such a program (the CPU
# target starts the buffer at zero, the GPU keeps the registers' last
# values), so --check warns at the gemm. The clean forms get nothing.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: gemm-undefined-accumulator.py:[[@LINE+22]]:13: warning: T.gemm accumulates into 'acc_s', which nothing has written yet: its value is undefined here (TileLang does not initialise fragments; one allocated in a loop body starts each iteration undefined); clear it first (T.clear) or pass clear_accum=True
# CHECK: gemm-undefined-accumulator.py:[[@LINE+20]]:21: note: 'acc_s' is allocated here
# CHECK: gemm-undefined-accumulator.py:[[@LINE+38]]:9: warning: T.gemm accumulates into 'acc'
# CHECK-NOT: warning
import tilelang
import tilelang.language as T


@tilelang.jit
def kernels(A, B):
    A: T.Tensor((128, 64), T.float16)
    B: T.Tensor((128, 64), T.float16)
    C = T.empty((128, 128), T.float32)
    with T.Kernel(1, threads=128):
        A_s = T.alloc_shared((128, 64), T.float16)
        B_s = T.alloc_shared((128, 64), T.float16)
        out = T.alloc_fragment((128, 128), T.float32)
        T.clear(out)
        for k in T.Pipelined(2, num_stages=1):
            T.copy(A, A_s)
            T.copy(B, B_s)
            acc_s = T.alloc_fragment((128, 128), T.float32)
            T.gemm(A_s, B_s, acc_s, transpose_B=True)
            for i, j in T.Parallel(128, 128):
                out[i, j] += acc_s[i, j]
        T.copy(out, C)
    return C


@tilelang.jit
def no_clear(A, B):
    A: T.Tensor((128, 64), T.float16)
    B: T.Tensor((128, 64), T.float16)
    C = T.empty((128, 128), T.float32)
    with T.Kernel(1, threads=128):
        A_s = T.alloc_shared((128, 64), T.float16)
        B_s = T.alloc_shared((128, 64), T.float16)
        acc = T.alloc_fragment((128, 128), T.float32)
        T.copy(A, A_s)
        T.copy(B, B_s)
        T.gemm(A_s, B_s, acc, transpose_B=True)
        T.copy(acc, C)
    return C


@tilelang.jit
def clean(A, B):
    A: T.Tensor((128, 64), T.float16)
    B: T.Tensor((128, 64), T.float16)
    C = T.empty((128, 128), T.float32)
    with T.Kernel(1, threads=128):
        A_s = T.alloc_shared((128, 64), T.float16)
        B_s = T.alloc_shared((128, 64), T.float16)
        acc = T.alloc_fragment((128, 128), T.float32)
        acc2 = T.alloc_fragment((128, 128), T.float32)
        T.clear(acc2)
        for k in T.Pipelined(2, num_stages=1):
            T.copy(A, A_s)
            T.copy(B, B_s)
            # The first iteration clears (clear_accum known at run time).
            T.gemm(A_s, B_s, acc, transpose_B=True, clear_accum=k == 0)
            T.gemm(A_s, B_s, acc2, transpose_B=True)
            acc_s = T.alloc_fragment((128, 128), T.float32)
            T.gemm(A_s, B_s, acc_s, transpose_B=True, clear_accum=True)
            for i, j in T.Parallel(128, 128):
                acc2[i, j] += acc_s[i, j]
        for i, j in T.Parallel(128, 128):
            C[i, j] = acc[i, j] + acc2[i, j]
    return C


kernels.compile()
no_clear.compile()
clean.compile()
