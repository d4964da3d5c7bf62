# A T.Parallel loop that reads one fragment element from several iterations
# (`Af[i, j // 2]`, or the row maximum `m[i]` in a loop over (i, j)) takes
# its threads from that fragment: each iteration runs on a thread holding
# the element it reads, and the iterations that share an element get
# registers of their own. Such loops are no layout conflict (TileLang's
# dequantising GEMMs and paged decoders use them); the CPU build runs the
# kernel and is checked against Python. The CUDA target reads the shared
# elements through the fragment exchange area (the remarks below; it
# refused the second loop, "none at exactly the loop variables").
# RUN: tlc-build --verify-diagnostics %s
# RUN: tlc-build --emit=tile --target=cuda:sm_90a %s > /dev/null
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s > /dev/null
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py gather-loop tlc-run %t/cpu %t/w | FileCheck %s

import tilelang
import tilelang.language as T


@tilelang.jit
def gather_loop(M=32, K=16):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float32), B: T.Tensor((M, 2 * K), T.float32),
             C: T.Tensor((M, 2 * K), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((M, K), T.float32)
            S_shared = T.alloc_shared((M, 2 * K), T.float32)
            # expected-note@+1 {{this loop reads Af at elements other threads hold: every thread stores its registers into a row-major shared tile, the loop reads the tile, with block barriers between (CUDA code)}}
            Af = T.alloc_fragment((M, K), T.float32)
            Df = T.alloc_fragment((M, 2 * K), T.float32)
            # expected-note@+1 {{this loop reads m at elements other threads hold: every thread stores its registers into a row-major shared tile, the loop reads the tile, with block barriers between (CUDA code)}}
            m = T.alloc_fragment((M,), T.float32)
            T.copy(A, A_shared)
            T.copy(A_shared, Af)
            # expected-remark@+1 {{Af goes through shared memory here (fragment exchange, 2048 bytes at byte 4096; stores 4-way bank conflict, loads 2-way bank conflict)}}
            for i, j in T.Parallel(M, 2 * K):
                Df[i, j] = Af[i, j // 2] * 2.0
            T.copy(Df, B)
            T.reduce_max(Af, m, dim=1)
            # expected-remark@+1 {{m goes through shared memory here (fragment exchange, 128 bytes at byte 4096; stores conflict-free, loads conflict-free)}}
            for i, j in T.Parallel(M, 2 * K):
                S_shared[i, j] = m[i] + j
            T.copy(S_shared, C)

    return main


gather_loop()

# CHECK: gather-loop ok
