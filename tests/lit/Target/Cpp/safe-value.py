# T.annotate_safe_value with a non-zero value: reads outside the tensor
# give that value, in element reads of a T.Parallel (rows shifted up by 10)
# and in a T.copy of a tile that runs past the tensor's end; writes outside
# stay skipped. The CPU target at ragged sizes against NumPy; the CUDA code
# reads the safe value where a guard fails (and does not zero-fill with
# cp.async there).
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s -D M=150 -D N=70
# RUN: tlc-run %t/art --save %t/out
# RUN: %python %S/Inputs/check_safe_value.py %t/out 150 70 | FileCheck %s
# CHECK: shifted True
# CHECK: tiles True
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s -D M=150 -D N=70 | FileCheck %s --check-prefix=CUDA
# CUDA-LABEL: void __launch_bounds__
# CUDA: ? float({{.*}}) : float((float)(10.0f))
# CUDA-LABEL: void __launch_bounds__
# CUDA-NOT: cpAsyncPred
# CUDA: : (float)(-2.5f))
# tile-legalize-bounds records the checks and the safe values (the rows
# shifted up by 10 may fall below 0 and past 150; tiles of 64 x 32 run past
# both extents); the printer above prints them.
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a %s -D M=150 -D N=70 | FileCheck %s --check-prefix=LOWERED
# LOWERED: tile.load %A[{{.*}}] {tile.bounds = [{dims = ["both", "upper"], safe_value = 1.000000e+01 : f64}, {}
# LOWERED: tile.copy {{.*}} {tile.bounds = [{dims = ["upper", "upper"], safe_value = -2.500000e+00 : f64}, {}]

import tilelang
import tilelang.language as T


@tilelang.jit
def shifted(M, N, block_M=64, block_N=32, dtype="float16", pad_value=10):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            T.annotate_safe_value({A: pad_value})
            for i, j in T.Parallel(block_M, block_N):
                A_shared[i, j] = A[by * block_M + i - 10, bx * block_N + j]
            for i, j in T.Parallel(block_M, block_N):
                B[by * block_M + i, bx * block_N + j] = A_shared[i, j]

    return main


@tilelang.jit
def tiles(M, N, block_M=64, block_N=32, dtype="float16", pad_value=-2.5):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((T.ceildiv(M, block_M) * block_M, T.ceildiv(N, block_N) * block_N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            T.annotate_safe_value({A: pad_value})
            for ko in T.Pipelined(1, num_stages=1):
                T.copy(A[by * block_M, bx * block_N], A_shared)
            T.copy(A_shared, C[by * block_M, bx * block_N])

    return main


M = 1024
N = 1024
shifted(M, N)
tiles(M, N)
