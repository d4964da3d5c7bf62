# For shared-view-swizzled-sim.test: a bf16 shared tile that T.gemm reads
# (so the CUDA target stores it swizzled: XOR-permuted 16-byte chunks for
# mma.sync, wgmma's panels for N=64 on sm_90a) is reused through T.view as
# an f32 staging area of half the rows, as DeepSeek-V3.2's sparse_mla_bwd
# stores its dKV accumulator in two halves; a second view reads the bf16
# pairs the stores left as 32-bit words (Bits).
import tilelang
import tilelang.language as T


@tilelang.jit
def shared_view_swizzled(M=64, N=32, K=64, k_blocks=2, stages=1):
    half = N // 2

    @T.prim_func
    def main(A: T.Tensor((M, K * k_blocks), "bfloat16"),
             B: T.Tensor((N, K * k_blocks), "bfloat16"),
             C: T.Tensor((k_blocks, N, M), "float32"),
             Bits: T.Tensor((k_blocks, N, K // 2), "int32")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((M, K), "bfloat16")
            B_s = T.alloc_shared((N, K), "bfloat16")
            acc = T.alloc_fragment((N, M), "float32")
            stage = T.view(B_s, shape=[half, K], dtype="float32")
            # The bytes the bf16 stores left, read as 32-bit words.
            words = T.view(B_s, shape=[N, K // 2], dtype="int32")
            for k in T.Pipelined(k_blocks, num_stages=stages):
                T.copy(A[0, k * K], A_s)
                for i, j in T.Parallel(N, K):
                    B_s[i, j] = B[i, k * K + j]
                T.gemm(B_s, A_s, acc, transpose_B=True, clear_accum=True)
                for i, j in T.Parallel(N, K // 2):
                    Bits[k, i, j] = words[i, j]
                for s in range(2):
                    for i, j in T.Parallel(N, M):
                        if i < half:
                            stage[i, j] = acc[i + s * half, j]
                    for i, j in T.Parallel(half, M):
                        C[k, i + s * half, j] = stage[i, j]

    return main
