# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# I: T.ClusterKernel, cluster_arrive(_relaxed)/cluster_wait/cluster_sync, cluster barriers,
# remote T.mbarrier_arrive/ptx_arrive_cluster_barrier. Shape: lazy + Python-range helper.
import tilelang
import tilelang.language as T


def cluster_total(work, row0, col, cluster):
    """Plain helper, run at trace time: unrolls over the peers of a cluster."""
    total = work[row0, col]
    for r in range(1, cluster):
        total = total + work[row0 + r, col]
    return total


@tilelang.jit(out_idx=[-1])
def cluster_colsum(M, N, cluster=2, block_M=64, threads=128):
    num_blocks = T.ceildiv(M, block_M)
    assert num_blocks % cluster == 0

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Out: T.Tensor((num_blocks // cluster, N), T.float32)):
        Work = T.alloc_global((num_blocks, N), T.float32)
        with T.ClusterKernel(num_blocks, threads=threads, cluster_dims=(cluster, 1, 1)) as bx:
            rank = T.block_rank_in_cluster()
            done = T.alloc_cluster_barrier([threads * cluster])
            tile = T.alloc_fragment((block_M, N), T.float32)
            part = T.alloc_fragment((N,), T.float32)
            # barrier initialisation must be visible to the whole cluster
            T.cluster_arrive_relaxed()
            T.cluster_wait()
            T.copy(X[bx * block_M, 0], tile)
            T.reduce_sum(tile, part, dim=0)
            T.copy(part, Work[bx, 0])
            T.cluster_arrive()
            if rank == 0:
                T.mbarrier_arrive(done, 0)
            else:
                T.ptx_arrive_cluster_barrier(done[0], 0)
            T.cluster_wait()
            if rank == 0:
                T.mbarrier_wait_parity(done, 0)
                for j in T.Parallel(N):
                    Out[bx // cluster, j] = cluster_total(Work, bx, j, cluster)
            T.cluster_sync()

    return main


if __name__ == "__main__":
    kernel = cluster_colsum(8192, 256, cluster=4)

# CHECK: "name":"X","kind":"tensor","shape":[8192,256],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"Work","kind":"buffer","shape":[128,256],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"done","kind":"buffer","shape":[1],"dtype":"uint64","scope":"shared.cluster_barrier","layout":null
# CHECK: "name":"tile","kind":"buffer","shape":[64,256],"dtype":"float32","scope":"local.fragment","layout":"parallel · 128 regs/thread"
# CHECK: "name":"part","kind":"buffer","shape":[256],"dtype":"float32","scope":"local.fragment","layout":"parallel col · 4 regs/thread · rep 2"
