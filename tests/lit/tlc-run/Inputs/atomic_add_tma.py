# For atomic-add-tma-sim.test: gqa backward's TMA reduction
# (flash_attention/example_gqa_bwd_tma_reduce.py): every block of a
# (row block, split) grid adds its shared tile of A to the same rows of dQ
# with T.atomic_add(..., use_tma=True). `col0` shifts the destination's
# columns (col0 = 1 of float32 puts every row off a 16-byte boundary);
# M need not be a multiple of block_M (the last rows lie past the tensor).
import tilelang
import tilelang.language as T


@tilelang.jit
def atomic_add_tma(M=80, N=64, splits=3, block_M=32, col0=0,
                   dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((splits, M, N), dtype),
             dQ: T.Tensor((M, N + col0), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), splits, threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, N), dtype)
            T.copy(A[by, bx * block_M, 0], A_shared)
            T.atomic_add(dQ[bx * block_M:(bx + 1) * block_M, col0:col0 + N],
                         A_shared, use_tma=True)

    return main
