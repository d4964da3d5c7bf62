# Global tiles of tensors whose innermost extent is a T.dynamic symbol: a
# chunk of a tile lies wholly in or wholly past its row only when the
# run-time extent is a multiple of the chunk, which the HIP target tests
# (wavefront-uniform) before taking raw buffer loads through a resource of
# the tensor's run-time size; other extents keep the masked path. An f16
# gemm whose K is symbolic (A [M, k], B [N, k]) and column sums over a
# symbolic row length.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm_dynamic_k(M, N, block_M=64, block_N=64, block_K=32, in_dtype=T.float16,
                   acc_dtype=T.float32):
    K = T.dynamic("k")

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor((N, K), in_dtype),
             C: T.Tensor((M, N), acc_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), in_dtype)
            B_s = T.alloc_shared((block_N, block_K), in_dtype)
            acc = T.alloc_fragment((block_M, block_N), acc_dtype)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[bx * block_N, ko * block_K], B_s)
                T.gemm(A_s, B_s, acc, transpose_B=True)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


k_gemm = gemm_dynamic_k(100, 70)


@tilelang.jit(out_idx=[-1])
def colsum_dynamic_n(M, block=64, dtype=T.float32):
    N = T.dynamic("n")

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), S: T.Tensor((T.ceildiv(M, block), N), dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=256) as (bx, by):
            A_s = T.alloc_shared((block, block), dtype)
            A_f = T.alloc_fragment((block, block), dtype)
            s = T.alloc_fragment((block,), dtype)
            T.copy(A[by * block, bx * block], A_s)
            T.copy(A_s, A_f)
            T.reduce_sum(A_f, s, dim=0)
            T.copy(s, S[by, bx * block])

    return main


k_colsum = colsum_dynamic_n(100)
