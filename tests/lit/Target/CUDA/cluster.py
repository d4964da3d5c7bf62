# Thread-block clusters on sm_90a. T.ClusterKernel(cluster_dims=(C, 1, 1))
# is a kernel declared with __cluster_dims__ (every launch launches
# clusters) and a manifest recording the dims; T.block_rank_in_cluster is
# %cluster_ctarank; the cluster barrier is barrier.cluster arrive / wait;
# cluster barriers are mbarriers that other blocks arrive on through mapa.
# Each block sums its rows into a global workspace, the cluster barrier
# orders those writes before rank 0 adds its peers' rows: compared with
# NumPy on the sim device (the blocks of a cluster resident together).
# With wait=False the cluster_wait before reading the peers' rows is
# missing: the sim's racecheck reports it. The CPU target does not run
# clusters (refused at the rank), and neither do sm_80 and HIP (at the
# kernel); a cluster of one block is a block there.
#
# RUN: rm -rf %t
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel colsum %s | FileCheck %s
# CHECK: #include "tlc_device/cuda/cluster.h"
# CHECK: __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(64) colsum_kernel(
# CHECK: const int rank = (int)tlc::cuda::clusterCtaRank();
# CHECK: // T.cluster_arrive  cluster.py:{{[0-9]+}}:{{[0-9]+}}
# CHECK-NEXT: tlc::cuda::clusterArrive();
# CHECK-NEXT: // T.cluster_wait  cluster.py:{{[0-9]+}}:{{[0-9]+}}
# CHECK-NEXT: tlc::cuda::clusterWait();
#
# The remote arrival of a cluster barrier, and the wait at cluster scope.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel colsum_mbar %s | FileCheck %s --check-prefix=MBAR
# MBAR: // T.alloc_cluster_barrier  cluster.py:{{[0-9]+}}:{{[0-9]+}}
# MBAR: tlc::cuda::mbarrierInit(&done[0], 256);
# MBAR: tlc::cuda::clusterArriveRelaxed();
# MBAR: tlc::cuda::mbarrierArriveCluster(&done[0], (uint32_t)(0));
# MBAR: tlc::cuda::mbarrierWaitCluster(&done[0], (uint32_t)(0) & 1u);
#
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cu %s
# RUN: FileCheck %s --check-prefix=MANIFEST < %t/cu/colsum.json
# MANIFEST: "cluster": [
# MANIFEST-NEXT: 4,
# MANIFEST-NEXT: 1,
# MANIFEST-NEXT: 1
# MANIFEST-NEXT: ],
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nvcc %s | FileCheck %s --check-prefix=NVCC %}
# NVCC: wrote {{.*}}colsum.cubin
# NVCC: wrote {{.*}}colsum_mbar.cubin
#
# On the sim device, against NumPy (rows 0..M of X summed per cluster).
# RUN: %if sim-compiler %{ tlc-run %t/cu --kernel colsum --device sim --save %t/sim > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/cluster_check.py %t/sim 4 | FileCheck %s --check-prefix=NUMPY %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --kernel colsum_mbar --device sim --save %t/simb > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/cluster_check.py %t/simb 2 | FileCheck %s --check-prefix=NUMPY %}
# NUMPY: True
#
# The planted fault: no cluster_wait before rank 0 reads its peers' rows.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel colsum -Dwait=False -o %t/nowait %s > /dev/null %}
# RUN: %if sim-compiler %{ not tlc-run %t/nowait --device sim 2>&1 | FileCheck %s --check-prefix=RACE %}
# RACE: racecheck: write of global memory {{.*}} of 'workspace Work'{{.*}}(blocks of a cluster are ordered only by a release arrival
#
# A cluster barrier expecting one arrival more than the cluster makes:
# rank 0 waits for ever while its peer waits at the cluster barrier.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel colsum_mbar -Dextra=1 -o %t/hang %s > /dev/null %}
# RUN: %if sim-compiler %{ not tlc-run %t/hang --device sim 2>&1 | FileCheck %s --check-prefix=HANG %}
# HANG: synccheck: the threads of block ({{[0-9]+}},0,0) cannot all continue ({{.*}}while no other block of its cluster can run either)
#
# Without cluster_dims a block is a cluster of one: rank 0, and the cluster
# barrier orders the block's shared-memory accesses (barrier.cluster on
# sm_90a, __syncthreads on sm_80 and HIP); on sim against NumPy.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel reverse %s | FileCheck %s --check-prefix=ONE
# ONE: const int {{[a-z_0-9]+}} = 0;  // a cluster of one block
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --kernel reverse %s | FileCheck %s --check-prefix=ONE80
# ONE80: // T.cluster_arrive: a cluster of one block (the wait is the block barrier)
# ONE80: __syncthreads();  // a cluster of one block
# RUN: tlc-build --target=hip:gfx942 --emit=hip --kernel reverse %s | FileCheck %s --check-prefix=ONE80
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel reverse -o %t/one90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/one90 --device sim --save %t/one90out > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/one90out/'; x=np.load(d+'inputs/X.npy'); y=np.load(d+'Y.npy'); p=np.concatenate([x, np.zeros(28, np.float32)]).reshape(2, 64)[:, ::-1].reshape(-1)[:100]; print(np.array_equal(y, p))" | FileCheck %s --check-prefix=NUMPY %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel reverse -o %t/one80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/one80 --device sim --save %t/one80out > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/one80out/'; x=np.load(d+'inputs/X.npy'); y=np.load(d+'Y.npy'); p=np.concatenate([x, np.zeros(28, np.float32)]).reshape(2, 64)[:, ::-1].reshape(-1)[:100]; print(np.array_equal(y, p))" | FileCheck %s --check-prefix=NUMPY %}
#
# A grid that is not a multiple of the cluster: TileLang traces and
# compiles it, CUDA refuses the launch; a warning at the kernel.
# RUN: tlc-build --check -Dblocks=6 --kernel colsum %s 2>&1 | FileCheck %s --check-prefix=GRID
# GRID: warning: the grid's extent 6 along x is not a multiple of the cluster's extent 4 (a cluster launch tiles the grid with clusters): CUDA refuses to launch this kernel
# GRID-NOT: error
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda --kernel colsum %s 2>&1 | FileCheck %s --check-prefix=SM80
# SM80: error: a cluster launch (cluster_dims) needs thread block clusters, which need sm_90; building for sm_80
import tilelang
import tilelang.language as T

ROWS = 16


@tilelang.jit
def colsum(blocks=8, N=48, cluster=4, wait=True):
    M = blocks * ROWS

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Out: T.Tensor((blocks // cluster, N), T.float32)):
        Work = T.alloc_global((blocks, N), T.float32)
        with T.ClusterKernel(blocks, threads=64, cluster_dims=(cluster, 1, 1)) as bx:
            rank = T.block_rank_in_cluster()
            tx = T.get_thread_binding()
            if tx < N:
                acc = T.alloc_var(T.float32)
                acc = 0.0
                for i in T.serial(ROWS):
                    acc = acc + X[bx * ROWS + i, tx]
                Work[bx, tx] = acc
            T.cluster_arrive()
            if wait:
                T.cluster_wait()
            if rank == 0:
                if tx < N:
                    total = T.alloc_var(T.float32)
                    total = 0.0
                    for r in T.serial(cluster):
                        total = total + Work[bx + r, tx]
                    Out[bx // cluster, tx] = total

    return main


@tilelang.jit
def colsum_mbar(blocks=8, N=48, cluster=2, extra=0):
    M = blocks * ROWS

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Out: T.Tensor((blocks // cluster, N), T.float32)):
        Work = T.alloc_global((blocks, N), T.float32)
        with T.ClusterKernel(blocks, threads=128, cluster_dims=(cluster, 1, 1)) as bx:
            rank = T.block_rank_in_cluster()
            done = T.alloc_cluster_barrier([128 * cluster + extra])
            tx = T.get_thread_binding()
            T.cluster_arrive_relaxed()
            T.cluster_wait()
            if tx < N:
                acc = T.alloc_var(T.float32)
                acc = 0.0
                for i in T.serial(ROWS):
                    acc = acc + X[bx * ROWS + i, tx]
                Work[bx, tx] = acc
            # Every thread of the cluster arrives on rank 0's barrier
            # (release); rank 0 waits for them (acquire) and adds the rows.
            T.mbarrier_arrive(done, 0)
            if rank == 0:
                T.mbarrier_wait_parity(done, 0)
                if tx < N:
                    total = T.alloc_var(T.float32)
                    total = 0.0
                    for r in T.serial(cluster):
                        total = total + Work[bx + r, tx]
                    Out[bx // cluster, tx] = total
            # rank 0's barrier stays until every block has arrived on it
            T.cluster_sync()

    return main


@tilelang.jit
def reverse(N=100):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, 64), threads=64) as bx:
            S = T.alloc_shared((64,), T.float32)
            tx = T.get_thread_binding()
            S[tx] = X[bx * 64 + tx] if bx * 64 + tx < N else 0.0
            T.cluster_arrive()
            T.cluster_wait()
            if bx * 64 + tx < N:
                Y[bx * 64 + tx] = S[63 - tx] + T.block_rank_in_cluster()

    return main


colsum()
colsum_mbar()
reverse()
