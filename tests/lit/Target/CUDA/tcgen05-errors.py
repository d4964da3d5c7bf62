# RUN: not tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s 2>&1 | FileCheck %s
#
# What the sm_100a target still refuses, each at its statement: scale
# factors of a block-scaled MMA copied from shared to tensor memory in
# other than groups of 128 rows (tcgen05.cp .32x128b.warpx4 copies 128
# rows' four factors at a time; gemm_mxfp8_blockscaled_1d1d's
# `T.copy(SFA_shared[...], SFA_tmem)` has 128), and a window of 16-bit
# columns that starts inside a 32-bit tensor memory column.
#
# CHECK: tcgen05-errors.py:[[# @LINE + 13]]:9: error: T.copy of scale factors to tensor memory (tcgen05.cp): the scale factors must be a static [rows, 4] uint8 shared tile, rows a multiple of 128 (four E8M0 factors a row)
# CHECK: tcgen05-errors.py:[[# @LINE + 23]]:9: error: tensor memory view: a window of columns must start on a 32-bit column (a multiple of 2 elements of 16 bits)
import tilelang
import tilelang.language as T


@tilelang.jit
def scale_factors_to_tmem(block_M=64):
    SF = T.empty((block_M, 4), "uint8")
    with T.Kernel(1, threads=128) as bx:
        SF_shared = T.alloc_shared((block_M, 4), "uint8")
        SF_tmem = T.alloc_tmem([block_M, 4], "uint8")
        T.fill(SF_shared, 1)
        T.copy(SF_shared, SF_tmem)
        T.copy(SF_shared, SF[0, 0])
    return SF


@tilelang.jit
def odd_columns(block_M=128, block_N=64):
    C = T.empty((block_M, 32), T.bfloat16)
    with T.Kernel(1, threads=128) as bx:
        C_tmem = T.alloc_tmem([block_M, block_N], T.bfloat16)
        C_local = T.alloc_fragment((block_M, 32), T.bfloat16)
        T.copy(C_tmem[:, 1:33], C_local)
        T.copy(C_local, C[0, 0])
    return C


def main():
    scale_factors_to_tmem()
    odd_columns()


if __name__ == "__main__":
    main()
