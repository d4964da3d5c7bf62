# A -D binding that binds nothing is reported (a misspelt name would
# otherwise silently keep the default size); used bindings are not.
# RUN: tlc-build --check -D M=256 -D blockM=64 -D N=128 %s 2>&1 | FileCheck %s
# RUN: tlc-build --check -D M=256 -D N=128 %s 2>&1 | FileCheck %s --check-prefix=USED --allow-empty

# CHECK: warning: -D blockM=64 binds nothing: no kernel or factory parameter, T.const name or argparse option is named 'blockM'
# CHECK-NOT: -D M=
# CHECK-NOT: -D N=
# USED-NOT: binds nothing

import tilelang
import tilelang.language as T


@tilelang.jit
def scale(M, N, block_M=32, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            for i, j in T.Parallel(block_M, N):
                B[bx * block_M + i, j] = A[bx * block_M + i, j] * 2

    return main


scale(1024, 1024)
