# Thread-block clusters on the CPU target: the blocks of a cluster run at
# once (one host thread each), T.block_rank_in_cluster is the block's rank
# in it (x fastest), and T.cluster_arrive / T.cluster_wait / T.cluster_sync
# are the cluster barrier (a block's wait ends once every block of the
# cluster has arrived). `rank` writes the ranks of a 1-D and `rank2d` of a
# 2 x 2 cluster; `rotate` has each block of a cluster of 4 write its value,
# synchronise, and read its neighbour's, which with the blocks run one
# after the other would read an unwritten (zero) element; `split` arrives,
# computes, then waits. Checked against NumPy. A wait without an arrival
# is a located run-time error.
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cpu --emit=cpp --kernel rotate %s | FileCheck %s --check-prefix=CPP
# CPP: tlc::cpu::launchClusters(st, "{{.*}}", 16, 1, 1, 4, 1, 1,
# CPP: tlc::cpu::clusterBarrier(st, "{{.*}}clusters.py:{{[0-9]+}}:{{[0-9]+}}", true, true);
# RUN: %python %S/Inputs/clusters_check.py tlc-run %t/cpu %t/w | FileCheck %s
# CHECK: rank: ok
# CHECK: rank2d: ok
# CHECK: rotate: ok
# CHECK: split: ok
# RUN: not tlc-run %t/cpu --kernel lone_wait 2>&1 | FileCheck %s --check-prefix=WAIT
# WAIT: clusters.py:[[# @LINE + 72]]:{{[0-9]+}}: error: T.cluster_wait without a T.cluster_arrive before it

import tilelang
import tilelang.language as T


@tilelang.jit
def rank():

    @T.prim_func
    def main(A: T.Tensor((32,), T.int32)):
        with T.ClusterKernel(32, threads=32, cluster_dims=(4, 1, 1)) as bx:
            T.cluster_arrive()
            T.cluster_wait()
            r = T.block_rank_in_cluster()
            if T.get_thread_binding() == 0:
                A[bx] = r
            T.cluster_sync()

    return main


@tilelang.jit
def rank2d():

    @T.prim_func
    def main(A: T.Tensor((4, 6), T.int32)):
        with T.ClusterKernel(6, 4, threads=32, cluster_dims=(2, 2, 1)) as (
                bx, by):
            A[by, bx] = T.block_rank_in_cluster()

    return main


@tilelang.jit
def rotate():

    @T.prim_func
    def main(X: T.Tensor((16,), T.float32), G: T.Tensor((16,), T.float32),
             Y: T.Tensor((16,), T.float32)):
        with T.ClusterKernel(16, threads=32, cluster_dims=(4, 1, 1)) as bx:
            G[bx] = X[bx] * 2.0
            T.cluster_sync()
            r = T.block_rank_in_cluster()
            Y[bx] = G[bx - r + (r + 1) % 4]

    return main


@tilelang.jit
def split():

    @T.prim_func
    def main(X: T.Tensor((8,), T.float32), G: T.Tensor((8,), T.float32),
             Y: T.Tensor((8,), T.float32)):
        with T.ClusterKernel(8, threads=32, cluster_dims=(2, 1, 1)) as bx:
            G[bx] = X[bx] + 1.0
            T.cluster_arrive()
            t = X[bx] * 3.0
            T.cluster_wait()
            Y[bx] = G[bx ^ 1] + t

    return main


@tilelang.jit
def lone_wait():

    @T.prim_func
    def main(A: T.Tensor((4,), T.int32)):
        with T.ClusterKernel(4, threads=32, cluster_dims=(2, 1, 1)) as bx:
            A[bx] = T.block_rank_in_cluster()
            T.cluster_wait()

    return main


rank()
rank2d()
rotate()
split()
lone_wait()
