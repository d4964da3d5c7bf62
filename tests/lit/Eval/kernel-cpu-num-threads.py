# T.Kernel(..., cpu_num_threads=n): TileLang's OpenMP thread count for the C
# target's parallel grid (testing/python/cpu's kernel launch test), a
# positive integer; tlc's CPU target ignores it. Other values are TileLang's
# ValueError at the argument.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 1 --save %t/out
# RUN: %python -c "import numpy as np; a = np.load('%t/out/inputs/A.npy'); b = np.load('%t/out/B.npy'); print('doubled', bool((b == 2 * a).all()))" | FileCheck %s --check-prefix=OUT
# OUT: doubled True
# RUN: not tlc-build --check -D count=0 %s 2>&1 | FileCheck %s --check-prefix=ZERO
# ZERO: :[[@LINE+14]]:55: error: T.Kernel's cpu_num_threads must be a positive integer, not 0
# RUN: not tlc-build --check -D count=True %s 2>&1 | FileCheck %s --check-prefix=BOOL
# BOOL: error: T.Kernel's cpu_num_threads must be a positive integer, not True
# RUN: not tlc-build --check -D count=1.5 %s 2>&1 | FileCheck %s --check-prefix=FLOAT
# FLOAT: error: T.Kernel's cpu_num_threads must be a positive integer, not 1.5
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def doubled(N=1024, count=4):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, 128), threads=128, cpu_num_threads=count) as bx:
            for i in T.Parallel(128):
                B[bx * 128 + i] = A[bx * 128 + i] * 2

    return main


if __name__ == "__main__":
    doubled()
