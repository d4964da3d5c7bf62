# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s > %t.mlir 2>/dev/null
# RUN: tlc-opt %t.mlir > /dev/null
# T.copy operands must have the same shape once extent-1 dimensions are
# dropped; a tile origin A[y, x] takes its extents from the other operand.
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
        # expected-error@+1 {{T.copy between regions of different shapes: [128, 32] and [64, 32]}}
        T.copy(A_shared, B_shared)
        # expected-error@+1 {{T.copy between regions of different shapes: [64, 32] and [128, 32]}}
        T.copy(A[bx * block_M:bx * block_M + 64, 0:block_K], A_shared)
