# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=hints --format=json %s 2>/dev/null | FileCheck %s
# An error in one kernel, or a Python exception while instantiating it,
# never stops the analysis of the other kernels of the file.
import tilelang
import tilelang.language as T


@tilelang.jit
def broken(N=128):
    A: T.Tensor((N,), T.float32)
    with T.Kernel(1, threads=128) as bx:
        S = T.alloc_shared((256,), T.float32)
        # expected-error@+1 {{T.copy would read outside the src region}}
        T.copy(A, S)
        F = T.alloc_fragment((256,), T.float32)
        T.copy(S, F)


@tilelang.jit
def failing_factory(block):
    # expected-error@+1 {{AssertionError: block must be a power of two}}
    assert block & (block - 1) == 0, "block must be a power of two"

    @T.prim_func
    def main(A: T.Tensor((block,), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            T.fill(A, 0)

    return main


@tilelang.jit
def fine(N=256):
    A: T.Tensor((N,), T.float16)
    with T.Kernel(2, threads=128) as bx:
        S = T.alloc_shared((128,), T.float16)
        T.copy(A[bx * 128], S)


failing_factory(48)
failing_factory(64)

# CHECK-DAG: "kernel":"broken",{{.*}}"name":"F","kind":"buffer","shape":[256]
# CHECK-DAG: "kernel":"failing_factory","instance":"failing_factory(64)","name":"A"
# CHECK-DAG: "kernel":"fine",{{.*}}"name":"S","kind":"buffer","shape":[128],"dtype":"float16"
