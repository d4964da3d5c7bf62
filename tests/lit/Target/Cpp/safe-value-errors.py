# A safe value that is not a number is the same error on every target, at
# the annotation (tlc/Dialect/Tile/IR/SafeValues.h is the map's one parser:
# the CPU target and tile-legalize-bounds, which the GPU printers read).
# RUN: not tlc-build --emit=cpp --target=cpu %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_80 %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=hip --target=hip:gfx942 %s 2>&1 | FileCheck %s
# CHECK: safe-value-errors.py:[[@LINE+12]]:{{[0-9]+}}: error: T.annotate_safe_value: the safe value of 'A' must be a number, not 'B'

import tilelang
import tilelang.language as T


@tilelang.jit
def pad_with_tensor(M, N, block_M=64, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            T.annotate_safe_value({A: B})
            for i, j in T.Parallel(block_M, N):
                B[bx * block_M + i, j] = A[bx * block_M + i, j]

    return main


pad_with_tensor(100, 32)
