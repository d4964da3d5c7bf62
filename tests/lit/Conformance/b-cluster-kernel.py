# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group B: T.ClusterKernel with cluster_dims=(2, 1, 1); T.block_rank_in_cluster
# picks which half of the N tile a CTA owns, T.cluster_sync brackets the
# main loop; module-level factory + tilelang.compile.
import tilelang
import tilelang.language as T


def cluster_matmul(M, N, K, block_M=128, block_N=128, block_K=64, cluster=2,
                   dtype=T.float16, accum_dtype=T.float32):
    half_N = block_N // cluster

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.ClusterKernel(T.ceildiv(N, block_N) * cluster, T.ceildiv(M, block_M), threads=128,
                             cluster_dims=(cluster, 1, 1)) as (bx, by):
            rank = T.block_rank_in_cluster()
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, half_N), dtype)
            C_local = T.alloc_fragment((block_M, half_N), accum_dtype)
            n0 = (bx // cluster) * block_N + rank * half_N

            T.cluster_sync()
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, n0], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, n0])
            T.cluster_sync()

    return main


func = cluster_matmul(4096, 4096, 2048)
kernel = tilelang.compile(func, out_idx=[2], target="cuda")

# CHECK: "name":"A","kind":"tensor","shape":[4096,2048],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[64,32],{{.*}}"detail":"128 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
