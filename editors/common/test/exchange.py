# exchange.py - a kernel whose fragment goes through shared memory, for the
# editor tests of the layout view's exchange tiles (editors/nvim/test,
# editors/vscode/test; tests/lit/lsp/layout-exchange.test has the same
# kernel). The gemm leaves C_local in the accumulator layout; the loop reads
# it transposed, so every thread needs elements other threads hold: the
# generated code stores C_local into a row-major 64x64 float32 tile after
# A_s and B_s (at byte 8192) and the loop reads it from there.
#
# Part of the tlc project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

import tilelang
import tilelang.language as T


@tilelang.jit
def transpose_read(M=64, N=64, K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            C_local = T.alloc_fragment((M, N), "float32")
            D_local = T.alloc_fragment((M, N), "float32")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.clear(C_local)
            T.gemm(A_s, B_s, C_local)
            for i, j in T.Parallel(M, N):
                D_local[i, j] = C_local[j, i]
            T.copy(D_local, C[0, 0])

    return main


transpose_read()
