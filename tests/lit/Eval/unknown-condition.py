# A condition tlc cannot evaluate inside a kernel is a warning that says
# what was assumed; the same in test-harness code outside kernels is quiet.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=warning:

import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def scale(M, N, block_M=32, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            for i, j in T.Parallel(block_M, N):
                # CHECK: unknown-condition.py:[[@LINE+1]]:73: warning: tlc cannot evaluate `torch.are_deterministic_algorithms_enabled()` (a call result outside TileLang); the first alternative is assumed
                B[bx * block_M + i, j] = A[bx * block_M + i, j] * (2 if torch.are_deterministic_algorithms_enabled() else 3)
            # CHECK: unknown-condition.py:[[@LINE+1]]:16: warning: tlc cannot evaluate `torch.are_deterministic_algorithms_enabled()` (a call result outside TileLang); the `if` branch is assumed
            if torch.are_deterministic_algorithms_enabled():
                T.print(B)

    return main


scale(1024, 1024)
if torch.are_deterministic_algorithms_enabled():
    print("harness code: no warning")
