# RUN: tlc-build --check %s
# RUN: not tlc-build --check -Dblock_DK=32 -Dblock_DV=64 %s 2>&1 | FileCheck %s
# RUN: not tlc-build --target=cpu -o %t -Dblock_DK=32 -Dblock_DV=64 %s 2>&1 | FileCheck %s
# A T.Parallel loop over (block_S, block_DV) that indexes (block_S,
# block_DK) buffers, as a public chunked-attention kernel does: right when
# block_DV <= block_DK (the defaults), and for block_DV > block_DK a write
# past the buffer that TileLang does not check (on the GPU it reached past
# the block's shared memory: an illegal address that killed an autotuning
# script). Such an instance is an error at the access; guarded accesses and
# T.if_then_else are not reported.
import tilelang
import tilelang.language as T


@tilelang.jit
def scale_rows(S=128, DK=64, DV=64, block_S=64, block_DK=64, block_DV=64):
    @T.prim_func
    def main(Q: T.Tensor((S, DK), "float16"), G: T.Tensor((S, DK), "float32"),
             O: T.Tensor((S, DK), "float16")):
        with T.Kernel(T.ceildiv(S, block_S), threads=128) as bs:
            Q_shared = T.alloc_shared((block_S, block_DK), "float16")
            G_shared = T.alloc_shared((block_S, block_DK), "float32")
            T.copy(Q[bs * block_S, 0], Q_shared)
            T.copy(G[bs * block_S, 0], G_shared)
            # CHECK: shared-out-of-bounds.py:[[@LINE+5]]:17: error: write outside 'Q_shared': the index of dimension 1 takes the values 0 to 63 here, but the dimension has 32 elements
            # CHECK: shared-out-of-bounds.py:[[@LINE-5]]:24: note: 'Q_shared' is allocated here with shape [64, 32]
            # CHECK: shared-out-of-bounds.py:[[@LINE+3]]:38: error: read outside 'Q_shared'
            # CHECK: shared-out-of-bounds.py:[[@LINE+2]]:66: error: read outside 'G_shared'
            for i_s, i_v in T.Parallel(block_S, block_DV):
                Q_shared[i_s, i_v] = Q_shared[i_s, i_v] * T.exp2(G_shared[i_s, i_v])
            for i_s, i_v in T.Parallel(block_S, block_DV):
                if i_v < block_DK:
                    Q_shared[i_s, i_v] = Q_shared[i_s, i_v] + 1
            for i_s, i_v in T.Parallel(block_S, block_DV):
                O[bs * block_S + i_s, i_v % DK] = T.if_then_else(
                    i_v < block_DK, Q_shared[i_s, i_v], 0)
    return main
# CHECK-NOT: error:
