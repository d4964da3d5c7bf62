# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s > %t.mlir 2>/dev/null
# RUN: tlc-opt %t.mlir > /dev/null
# T.copy operands must have the same shape once extent-1 dimensions are
# dropped; a tile origin A[y, x] takes its extents from the other operand.
# Regions of one rank and different static extents follow TileLang: the copy
# loops over the destination when it loads global memory into another scope,
# over the source otherwise; a smaller loop region copies part of the other
# region, a larger one is an error.
import tilelang
import tilelang.language as T


@tilelang.jit
def copies(M=1024, K=1024, block_M=128, block_K=32):
    A: T.Tensor((M, K), T.float16)
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        A_shared = T.alloc_shared((block_M, block_K), T.float16)
        B_shared = T.alloc_shared((64, block_K), T.float16)
        row = T.alloc_fragment((block_K,), T.float32)
        T.copy(A[bx * block_M, 0], A_shared)
        T.copy(A[bx * block_M:(bx + 1) * block_M, 0:block_K], A_shared)
        T.copy(A_shared[0, :], row)
        # expected-error@+1 {{[TileLang Semantic Check] T.copy would write outside the dst region (the copy loops over the src region): non-unit dimension 0 has extent 128, but the dst region has extent 64.}}
        T.copy(A_shared, B_shared)
        # expected-error@+1 {{[TileLang Semantic Check] T.copy would read outside the src region (the copy loops over the dst region): non-unit dimension 0 has extent 128, but the src region has extent 64.}}
        T.copy(A[bx * block_M:bx * block_M + 64, 0:block_K], A_shared)
        # A smaller loop region fills part of the other one.
        T.copy(B_shared, A_shared)
        T.copy(B_shared, A[bx * block_M:(bx + 1) * block_M, 0:block_K])
        T.copy(A[bx * block_M:(bx + 1) * block_M, 0:block_K], B_shared)
        # expected-error@+1 {{T.copy between regions of different shapes: [128, 32] and [32]}}
        T.copy(A_shared, row)
