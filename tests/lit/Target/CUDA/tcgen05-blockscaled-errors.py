# RUN: not tlc-build --target=cpu --emit=cpp --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=CPU
# RUN: not tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=SM100
#
# A block-scaled MMA of 256 columns of B whose scale-factor tile holds the
# factors of 128 rows (four a 32-bit column for each 128 rows: it needs 8
# columns) is an error at the MMA on both targets, not factors read as
# zero (CPU) or from the next tile's columns (sm_100a).
#
# CPU: tcgen05-blockscaled-errors.py:[[# @LINE + 19]]:9: error: T.tcgen05_gemm_blockscaled: the scale factors of 256 rows take [128, 8] (four a column for each 128 rows)
# SM100: tcgen05-blockscaled-errors.py:[[# @LINE + 18]]:9: error: T.tcgen05_gemm_blockscaled (tcgen05.mma .kind::mxf8f6f4.block_scale): SFB_tmem must be a whole [128, cols >= 8] uint8 tensor memory tile (four factors a column for each 128 of the 256 rows)
import tilelang
import tilelang.language as T


@tilelang.jit
def short_sfb(block_M=128, block_N=256, block_K=128):
    C = T.empty((block_M, block_N), T.float32)
    with T.Kernel(1, threads=128) as bx:
        A_shared = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
        B_shared = T.alloc_shared((block_K, block_N), T.float8_e4m3fn)
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        SFA_tmem = T.alloc_tmem([block_M, 4], "uint8")
        SFB_tmem = T.alloc_tmem([block_M, 4], "uint8")
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        mbar = T.alloc_barrier(1)
        T.fill(A_shared, 1)
        T.fill(B_shared, 1)
        T.tcgen05_gemm_blockscaled(A_shared, B_shared, C_tmem, SFA_tmem, SFB_tmem, mbar=mbar,
                                   clear_accum=True)
        T.mbarrier_wait_parity(mbar, 0)
        T.copy(C_tmem, C_local)
        T.copy(C_local, C[0, 0])
    return C


def main():
    short_sfb()


if __name__ == "__main__":
    main()
