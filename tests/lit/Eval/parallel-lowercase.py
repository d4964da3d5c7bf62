# T.parallel (TIR's parallel-kind loop) inside a T.Kernel is a T.Parallel,
# as TileLang's layout inference treats both ForKind.PARALLEL loops
# (testing/python/language/test_tilelang_language_parallel.py): a
# fragment and a T.alloc_var read in it build for CUDA, and a loop that
# only touches fragments and a var is not vectorized (no float2). With a
# start other than 0 (T.parallel(1, n)) it stays a serial loop. The CPU
# target's outputs are checked against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel=scale_var %s | FileCheck %s --check-prefix=TILE
# TILE: tile.parallel (%i) in [256]
# TILE-NOT: tile.for
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=local_and_var --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA: void __launch_bounds__(128)
# CUDA-NOT: float2
# CUDA: y[r] = t;
# RUN: tlc-build --emit=tile --kernel=strided %s | FileCheck %s --check-prefix=SERIAL
# SERIAL: tile.parallel (%i) in [64]
# SERIAL: tile.for %i = %c1 to %c64
# SERIAL-NOT: tile.parallel
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 4 --save %t/out
# RUN: %python %S/Inputs/parallel_lowercase_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: scale_var (256,) True
# REF: strided (64,) True
import tilelang
import tilelang.language as T


@tilelang.jit
def local_and_var():
    with T.Kernel(1) as _:
        x = T.alloc_fragment([256], T.float32)
        y = T.alloc_fragment([256], T.float32)
        z = T.alloc_var(T.float32)
        for i in T.parallel(256):
            y[i] = x[i] * z


@tilelang.jit(out_idx=[1])
def scale_var(n=256):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=128):
            x = T.alloc_fragment([n], T.float32)
            z = T.alloc_var(T.float32)
            z = 3.0
            T.copy(A, x)
            for i in T.parallel(n):
                x[i] = x[i] * z + i
            T.copy(x, B)

    return main


@tilelang.jit(out_idx=[1])
def strided(n=64):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.parallel(n):
                B[i] = 0.0
            for i in T.parallel(1, n):
                B[i] = A[i] + A[i - 1]

    return main


scale_var()
strided()
