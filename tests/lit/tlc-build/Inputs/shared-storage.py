# Kernels whose shared buffers the GPU printers store in each of their ways
# (hints-shared-storage.py checks the hint of every buffer against the
# index function of the generated code).
import tilelang
import tilelang.language as T
from tilelang.layout import make_swizzled_layout


@tilelang.jit(out_idx=[-1])
def staged_gemm(M, N, K, block_M=128, block_N=128, block_K=32, dtype="float16", accum_dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])
    return main


@tilelang.jit(out_idx=[-1])
def annotated_gemm(M, N, K, block_M=64, block_N=64, block_K=64, dtype="float16", accum_dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_ann = T.alloc_shared((block_M, block_K), dtype)
            B_ann = T.alloc_shared((block_N, block_K), dtype)
            C_pad = T.alloc_shared((block_M, block_N + 8), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.annotate_layout({A_ann: make_swizzled_layout(A_ann)})
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_ann)
                T.copy(B[bx * block_N, k * block_K], B_ann)
                T.gemm(A_ann, B_ann, C_local, transpose_B=True)
            T.copy(C_local, C_pad[:, 0:block_N])
            T.copy(C_pad[:, 0:block_N], C[by * block_M, bx * block_N])
    return main


@tilelang.jit(out_idx=[-1])
def scaled_gemm(M, N, K, block_M=64, block_N=256, block_K=32, dtype="float16", accum_dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_scaled = T.alloc_shared((block_M, block_K), dtype)
            B_wide = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.serial(T.ceildiv(K, block_K)):
                for i, j in T.Parallel(block_M, block_K):
                    A_scaled[i, j] = A[by * block_M + i, k * block_K + j] * T.float16(2)
                T.copy(B[k * block_K, bx * block_N], B_wide)
                T.gemm(A_scaled, B_wide, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


staged = staged_gemm(1024, 1024, 1024)
annotated = annotated_gemm(1024, 1024, 1024)
scaled = scaled_gemm(1024, 1024, 1024)
