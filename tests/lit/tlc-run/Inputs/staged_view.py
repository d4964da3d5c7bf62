# For staged-view-sim.test: T.view of a shared tile that T.Pipelined
# multi-buffers (its T.copy is the loop's producer: cp.async into one of
# `stages` copies of the tile). Each iteration reads the tile it computes
# on through two views: `words` (made before the loop, the tile's bf16
# pairs as 32-bit words) and `rows` (made in the body, the tile as
# [M * K] elements), so both must address the stage the iteration reads,
# not the first one.
import tilelang
import tilelang.language as T


@tilelang.jit
def staged_view(M=32, K=64, k_blocks=5, stages=3):

    @T.prim_func
    def main(A: T.Tensor((M, K * k_blocks), "bfloat16"),
             W: T.Tensor((k_blocks, M, K // 2), "int32"),
             S: T.Tensor((k_blocks, M), "float32")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((M, K), "bfloat16")
            words = T.view(A_s, shape=[M, K // 2], dtype="int32")
            for k in T.Pipelined(k_blocks, num_stages=stages):
                T.copy(A[0, k * K], A_s)
                rows = T.view(A_s, shape=[M * K], dtype="bfloat16")
                for i, j in T.Parallel(M, K // 2):
                    W[k, i, j] = words[i, j]
                for i in T.Parallel(M):
                    S[k, i] = T.Cast("float32", rows[i * K]) + T.Cast(
                        "float32", rows[i * K + K - 1])

    return main
