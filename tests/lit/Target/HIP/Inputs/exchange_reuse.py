# The chained gemm of Conformance/f-gemm-transpose-policy.py (a FullCol
# accumulator cast into the FullRow register A of a second gemm, exchanged
# through LDS). With e_once, E's first tile is loaded once before the loop
# and stays live across every exchange. D = (A^T B^T) E with E of N rows
# and block_N columns, so that N > block_N runs several exchanges.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def chained_tn(M, N, K, block_M=64, block_N=128, block_K=64, e_once=0,
               dtype=T.float16):
    accum_dtype = T.float32

    @T.prim_func
    def main(
        A: T.Tensor((K, M), dtype),
        B: T.Tensor((N, K), dtype),
        E: T.Tensor((N, block_N), dtype),
        D: T.Tensor((M, block_N), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=256) as bx:
            A_shared = T.alloc_shared((block_K, block_M), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            E_shared = T.alloc_shared((block_N, block_N), dtype)
            S_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            S_cast = T.alloc_fragment((block_M, block_N), dtype)
            D_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(D_local)
            if e_once:
                T.copy(E[0, 0], E_shared)
            for n in T.serial(T.ceildiv(N, block_N)):
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                    T.copy(A[k * block_K, bx * block_M], A_shared)
                    T.copy(B[n * block_N, k * block_K], B_shared)
                    T.gemm(A_shared, B_shared, S_local, transpose_A=True,
                           transpose_B=True, policy=T.GemmWarpPolicy.FullCol,
                           clear_accum=k == 0)
                T.copy(S_local, S_cast)
                if not e_once:
                    T.copy(E[n * block_N, 0], E_shared)
                T.gemm(S_cast, E_shared, D_local, policy=T.GemmWarpPolicy.FullRow)
            T.copy(D_local, D[bx * block_M, 0])

    return main


kernel = chained_tn(2048, 128, 1024)
