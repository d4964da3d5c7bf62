# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CUDA: __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128) cluster_colsum_kernel(
# CUDA: tlc::cuda::mbarrierInit(&done[0], 512);
# CUDA: tlc::cuda::clusterArriveRelaxed();
# CUDA-NEXT: // T.cluster_wait
# CUDA-NEXT: tlc::cuda::clusterWait();
# CUDA: tlc::cuda::mbarrierArriveCluster(&done[0], (uint32_t)(0));
# CUDA: tlc::cuda::mbarrierArriveCluster(&done[0], (uint32_t)(0));
# CUDA: tlc::cuda::mbarrierWaitCluster(&done[0], (uint32_t)(0) & 1u);
# RUN: rm -rf %t && mkdir -p %t
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nvcc %s | FileCheck %s --check-prefix=NVCC %}
# NVCC: wrote {{.*}}cluster_colsum.cubin
# On the sim device at 512 x 64 (two clusters of 4), against NumPy.
# RUN: %if sim-compiler %{ sed 's/cluster_colsum(8192, 256, cluster=4)/cluster_colsum(512, 64, cluster=4)/' %s > %t/small.py %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %t/small.py > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --save %t/out > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); o=np.load(d+'Out.npy'); r=x.reshape(2, 256, 64).sum(1); print(o.shape, bool(np.all(np.abs(o-r) <= 1e-4 * (1 + np.abs(r)))))" | FileCheck %s --check-prefix=NUMPY %}
# NUMPY: (2, 64) True
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
