# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s > %t.mlir 2>/dev/null
# RUN: tlc-opt %t.mlir > /dev/null
# T.gemm: M/N/K of A, B and C must agree (with transposes), A and B must
# share a dtype, and the accumulator must be a fragment.
import tilelang
import tilelang.language as T


@tilelang.jit
def gemms(block_M=128, block_N=128, block_K=32):
    with T.Kernel(1, 1, threads=128) as (bx, by):
        A = T.alloc_shared((block_M, block_K), T.float16)
        B = T.alloc_shared((block_K, block_N), T.float16)
        Bt = T.alloc_shared((block_N, block_K), T.float16)
        B64 = T.alloc_shared((64, block_N), T.float16)
        Bbf = T.alloc_shared((block_K, block_N), T.bfloat16)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        C_small = T.alloc_fragment((block_M, 64), T.float32)
        C_shared = T.alloc_shared((block_M, block_N), T.float32)
        # expected-warning@+1 {{T.gemm accumulates into 'C', which nothing has written yet}}
        T.gemm(A, B, C)
        T.gemm(A, Bt, C, transpose_B=True)
        # expected-error@+1 {{T.gemm: K of A [128, 32] (32) does not match K of B [64, 128] (64)}}
        T.gemm(A, B64, C)
        # expected-error@+2 {{T.gemm: K of A [128, 32] (32) does not match K of B [32, 128] (128)}}
        # expected-error@+1 {{T.gemm: N of B [32, 128] (32) does not match N of C [128, 128] (128)}}
        T.gemm(A, B, C, transpose_B=True)
        # expected-error@+1 {{T.gemm: N of B [32, 128] (128) does not match N of C [128, 64] (64)}}
        T.gemm(A, B, C_small)
        # expected-error@+1 {{T.gemm operands A and B have different dtypes (float16 and bfloat16)}}
        T.gemm(A, Bbf, C)
        # expected-error@+1 {{T.gemm accumulator C must be a fragment (T.alloc_fragment), but 'C_shared' is in shared.dyn}}
        T.gemm(A, B, C_shared)
