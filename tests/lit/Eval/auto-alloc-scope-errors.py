# The T.auto_alloc programs TileLang refuses: a buffer that is both a gemm
# accumulator (local.fragment) and a gemm operand (shared) when its
# InferMemoryScope pass runs, and a reduction or T.print of a buffer whose
# scope is still "auto" while the kernel is traced (a ValueError).
# RUN: tlc-build --verify-diagnostics %s
import tilelang
import tilelang.language as T


@T.prim_func
def both_roles(A2: T.Tensor((128, 32), "float16"), B1: T.Tensor((128, 64), "float16"),
               B2: T.Tensor((64, 32), "float16"), C: T.Tensor((128, 128), "float16")):
    with T.Kernel(1, threads=128):
        # expected-error@+1 {{cannot infer memory scope for buffer 'both'; used as T.gemm accumulator (requires local.fragment); used as T.gemm A operand (requires shared.dyn) (use T.alloc_shared / T.alloc_fragment explicitly)}}
        both = T.auto_alloc((128, 64), "float16")
        c_acc = T.alloc_fragment((128, 128), "float16")
        b1 = T.alloc_shared((128, 64), "float16")
        a2 = T.alloc_shared((128, 32), "float16")
        b2 = T.alloc_shared((64, 32), "float16")
        T.copy(B1, b1)
        T.copy(A2, a2)
        T.copy(B2, b2)
        T.clear(c_acc)
        T.clear(both)
        T.gemm(both, b1, c_acc, transpose_B=True)
        T.gemm(a2, b2, both, transpose_B=True)
        T.copy(c_acc, C)


@T.prim_func
def reduced(A: T.Tensor((128, 64), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128):
        src = T.auto_alloc((128, 64), "float32")
        dst = T.alloc_fragment((128,), "float32")
        T.copy(A, src)
        # expected-error@+1 {{ValueError: T.reduce_sum of 'src', a T.auto_alloc buffer: its scope is 'auto' while the kernel is traced}}
        T.reduce_sum(src, dst, dim=1)
        T.copy(dst, B)


@T.prim_func
def printed(A: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128):
        tmp = T.auto_alloc((128,), "float32")
        for i in T.Parallel(128):
            tmp[i] = A[i]
        # expected-error@+1 {{ValueError: T.print of 'tmp', a T.auto_alloc buffer}}
        T.print(tmp)
