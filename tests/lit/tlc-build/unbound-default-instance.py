# A factory nothing calls has only a default instance, whose tile shapes
# are symbols: the editor shows it, but no kernel can be generated for it.
# Building the file builds the other kernels and warns about this one; it
# is an error only when asked for with --kernel.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t %s 2>&1 | FileCheck %s
# RUN: ls %t | FileCheck %s --check-prefix=BUILT
# RUN: tlc-build --emit=cuda %s 2>&1 >/dev/null | FileCheck %s
# RUN: not tlc-build --emit=cuda --kernel=rows_split %s 2>&1 | FileCheck %s --check-prefix=ASKED
# RUN: tlc-build --emit=cuda --kernel=rows_split -D blk_m=4 -D blk_k=128 %s | FileCheck %s --check-prefix=BOUND

# CHECK: unbound-default-instance.py:[[@LINE+14]]:9: warning: 'rows_split' is not built: its tile shapes depend on the parameters blk_m, blk_k, which no call site binds (bind them with -D name=value or call the factory)
# CHECK-NOT: error:
# BUILT: copy_rows.json
# BUILT-NOT: rows_split
# ASKED: error: 'rows_split' is not built: its tile shapes depend on the parameters blk_m, blk_k
# BOUND: __global__ void __launch_bounds__(128) rows_split_kernel(

import tilelang
import tilelang.language as T


def rows_split(M, N, blk_m, blk_k):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            S = T.alloc_shared((blk_m, blk_k), "float32")
            for k in T.serial(T.ceildiv(N, blk_k)):
                T.copy(A[bx * blk_m, k * blk_k], S)
                T.copy(S, B[bx * blk_m, k * blk_k])

    return main


@tilelang.jit
def copy_rows(M, N, block_M=32):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            S = T.alloc_shared((block_M, N), "float32")
            T.copy(A[bx * block_M, 0], S)
            T.copy(S, B[bx * block_M, 0])

    return main


copy_rows(100, 64)
