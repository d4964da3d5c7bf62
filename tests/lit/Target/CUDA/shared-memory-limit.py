# RUN: tlc-build --check %s
# RUN: tlc-build --emit=lowered --mlir-print-debuginfo --target=cuda:sm_90a %s > %t.mlir
# RUN: not tlc-translate --tile-to-cuda %t.mlir 2>&1 | FileCheck %s
# The buffers fit the 227 KB a block may use on sm_90 (the check passes),
# but the scratch the CUDA printer adds for a reduction across warps does
# not: the build says so, with the parts, instead of writing a kernel the
# driver refuses at launch (DeepSeek MLA decode, measured on the H200:
# 245,760 bytes). S and S2 are read after the reduction, so the scratch
# cannot take the place of either (it does over a dead buffer). The
# one-element copy of the result used to crash the printer (no non-unit
# dimension to offset).
import tilelang
import tilelang.language as T


@tilelang.jit
def big(M=2, N=4096):
    X: T.Tensor((M, N), T.float32)
    Y: T.Tensor((1,), T.float32)
    # CHECK: shared-memory-limit.py:[[@LINE+1]]:{{[0-9]+}}: error: the kernel needs 233472 bytes of shared memory per block on the CUDA target (231424 for its buffers, 2048 for reduction scratch); sm_90 allows 232448
    with T.Kernel(1, threads=256) as bx:
        S = T.alloc_shared((97, 1024), T.float16)
        S2 = T.alloc_shared((M, N), T.float32)
        F = T.alloc_fragment((M, N), T.float32)
        R = T.alloc_fragment((M,), T.float32)
        T.fill(S, 0)
        T.copy(X, S2)
        T.copy(S2, F)
        T.reduce_max(F, R, dim=1)
        for i in T.Parallel(M):
            R[i] = R[i] + T.cast(S[i, 0], T.float32) + S2[i, 0]
        T.copy(R[0:1], Y)


@tilelang.jit
def one(N=4096):
    X: T.Tensor((1, N), T.float32)
    Y: T.Tensor((1,), T.float32)
    # CHECK-NOT: error
    with T.Kernel(1, threads=256) as bx:
        F = T.alloc_fragment((1, N), T.float32)
        R = T.alloc_fragment((1,), T.float32)
        T.copy(X, F)
        T.reduce_max(F, R, dim=1)
        T.copy(R, Y)
