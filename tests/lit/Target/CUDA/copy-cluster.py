# T.copy_cluster on sm_90a (tile-lower-copy-cluster, CUDAEmitterCluster.cpp),
# run on the sim device and checked against NumPy (TileLang's semantics,
# docs/programming_guides/cluster_tma.md) and against the CPU target (whose
# copy into a peer is one arrival on the peer's remote_barrier, as here):
#
# * `shared_tile`: clusters of 2 (and 4) blocks that read the same tile of A
#   (the cluster's, A[by * bM, (bx // C) * bN]) multicast it to the whole
#   cluster (mask 0b11 / 0b1111): the mask's lowest rank issues one
#   cp.async.bulk.tensor .multicast::cluster, every block's mbarrier
#   expects the bytes; each block writes the tile to its own columns of B;
# * `demo` (tma_multicast_demo's pattern): a cluster of 4, mask 0b0011,
#   each block naming its own tile: rank 1 receives rank 0's tile, ranks 2
#   and 3 (outside the mask) load their own (the CPU target too: the
#   mask's lowest rank copies into the mask between two cluster barriers);
# * `push`: each block of a cluster of 2 or 4 copies its shared buffer into
#   the next rank's (dst_block) with a remote_barrier: one bulk copy
#   (cp.async.bulk.shared::cluster.shared::cta) that arrives on the peer's
#   barrier expecting the bytes; the peer waits on its barrier;
# * `push_stores`: the same without a barrier (st.shared::cluster by every
#   thread, ordered by T.cluster_sync);
# * `upstream_dsmem`: tma_dsmem's kernel (block 0 pushes into block 1).
#
# Planted faults (the generated source edited): the multicast's cta mask
# naming the leader only (the receiver's mbarrier never gets its bytes:
# the sim reports the deadlock) and the push to the wrong peer (a block
# receives twice, another never: the sim reports it).
#
# About 25 s on a loaded 2-core host: seven sim runs of small clusters,
# two planted faults, six CPU builds and their verification.
#
# REQUIRES: sim-compiler
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cuda:sm_90a --emit=lowered --kernel shared_tile %s | FileCheck %s --check-prefix=LOWERED
# LOWERED: tile.alloc {arrive_counts = array<i64: 1>} : !tile.buffer<[1], ui64, shared.cluster_barrier>
# LOWERED: tile.intrinsic "T.copy_cluster"({{.*}}) {params = ["src", "dst", "cluster_mask", "tile.mbarrier"], {{.*}}tile.cluster_bytes = 8192 : i64, tile.cluster_copy = "multicast", tile.cluster_leader = 0 : i64, tile.cluster_mask = 3 : i64, tile.cluster_swizzle = 0 : i64, tile.tma = 0 : i64}
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel shared_tile %s | FileCheck %s --check-prefix=CUDA
# CUDA: tlc::cuda::clusterArrive();
# CUDA: tlc::cuda::mbarrierArriveExpectTx({{.*}}, 8192);
# CUDA: tlc::cuda::tmaLoadMulticast<2>({{.*}}, &tmap0, {{.*}}, (uint16_t)3,
# CUDA: tlc::cuda::tmaLoad<2>(
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel push %s | FileCheck %s --check-prefix=PUSH
# PUSH: tlc::cuda::mbarrierArriveExpectTxCluster({{.*}}, 256);
# PUSH: tlc::cuda::bulkCopySharedCluster(
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel push_stores %s | FileCheck %s --check-prefix=STORES
# STORES: tlc::cuda::stSharedCluster(
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cu %s > /dev/null
# RUN: tlc-build --target=cpu -o %t/cpu --kernel shared_tile %s > /dev/null
# RUN: tlc-build --target=cpu -o %t/cpu --kernel shared_tile4 %s > /dev/null
# RUN: tlc-build --target=cpu -o %t/cpu --kernel push_stores %s > /dev/null
# RUN: tlc-build --target=cpu -o %t/cpu --kernel demo %s > /dev/null
# RUN: tlc-build --target=cpu -o %t/cpu --kernel push %s > /dev/null
# RUN: tlc-build --target=cpu -o %t/cpu --kernel push4 %s > /dev/null
# RUN: tlc-build --target=cpu -o %t/cpu --kernel upstream_dsmem %s > /dev/null
# RUN: %python %S/Inputs/copy_cluster_check.py tlc-run %t/cu %t/cpu %t/w | FileCheck %s
# CHECK: shared_tile C=2: ok
# CHECK: shared_tile C=2 vs cpu: PASS
# CHECK: shared_tile C=4: ok
# CHECK: shared_tile C=4 vs cpu: PASS
# CHECK: demo: ok
# CHECK: demo vs cpu: PASS
# CHECK: push C=2: ok
# CHECK: push C=2 vs cpu: PASS
# CHECK: push C=4: ok
# CHECK: push C=4 vs cpu: PASS
# CHECK: push_stores: ok
# CHECK: push_stores vs cpu: PASS
# CHECK: upstream_dsmem: ok
# CHECK: upstream_dsmem vs cpu: PASS
# CHECK: fault mask: caught
# CHECK: fault peer: caught

import tilelang
import tilelang.language as T


def make_shared_tile(M, N, bM, bN, C):
    mask = (1 << C) - 1

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), B: T.Tensor((M, N * C), T.float16)):
        with T.Kernel(N * C // bN, M // bM, threads=128, cluster_dims=(C, 1, 1)) as (bx, by):
            tile = T.alloc_shared((bM, bN), T.float16)
            T.copy_cluster(A[by * bM, (bx // C) * bN], tile, cluster_mask=mask)
            T.copy(tile, B[by * bM, bx * bN])

    return main


@tilelang.jit
def shared_tile():
    return make_shared_tile(256, 512, 64, 64, 2)


@tilelang.jit
def shared_tile4():
    return make_shared_tile(128, 256, 64, 64, 4)


@tilelang.jit
def demo(M=256, N=512, bM=128, bN=64, mask=0b0011):

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), B: T.Tensor((M, N), T.float16)):
        with T.Kernel(N // bN, M // bM, threads=128, cluster_dims=(4, 1, 1)) as (bx, by):
            tile = T.alloc_shared((bM, bN), T.float16)
            T.copy_cluster(A[by * bM, bx * bN], tile, cluster_mask=mask)
            T.copy(tile, B[by * bM, bx * bN])

    return main


def make_push(n, C, blocks):

    @T.prim_func
    def main(X: T.Tensor((blocks, n), T.float32), Y: T.Tensor((blocks, n), T.float32)):
        with T.Kernel(blocks, threads=n, cluster_dims=(C, 1, 1)) as bx:
            mine = T.alloc_shared((n,), T.float32)
            got = T.alloc_shared((n,), T.float32)
            bar = T.alloc_cluster_barrier([1])
            tx = T.get_thread_binding()
            rank = T.block_rank_in_cluster()
            mine[tx] = X[bx, tx] * 2.0 + 1.0
            T.cluster_sync()
            T.copy_cluster(mine, got, dst_block=(rank + 1) % C, remote_barrier=bar[0])
            T.mbarrier_wait_parity(bar[0], 0)
            Y[bx, tx] = got[tx]
            T.cluster_sync()

    return main


@tilelang.jit
def push():
    return make_push(64, 2, 8)


@tilelang.jit
def push4():
    return make_push(64, 4, 8)


@tilelang.jit
def push_stores(n=64, blocks=8):

    @T.prim_func
    def main(X: T.Tensor((blocks, n), T.float32), Y: T.Tensor((blocks, n), T.float32)):
        with T.Kernel(blocks, threads=n, cluster_dims=(2, 1, 1)) as bx:
            mine = T.alloc_shared((n,), T.float32)
            got = T.alloc_shared((n,), T.float32)
            tx = T.get_thread_binding()
            rank = T.block_rank_in_cluster()
            mine[tx] = X[bx, tx] - 3.0
            T.cluster_sync()
            T.copy_cluster(mine, got, dst_block=1 - rank)
            T.cluster_sync()
            Y[bx, tx] = got[tx]

    return main


@tilelang.jit
def upstream_dsmem(N=128):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(2, threads=128, cluster_dims=(2, 1, 1)) as pid:
            s_src = T.alloc_shared((N,), "float32")
            s_dst = T.alloc_shared((N,), "float32")
            s_barrier = T.alloc_cluster_barrier([1])
            T.fill(s_src, 0.0)
            T.fill(s_dst, 0.0)
            T.cluster_sync()
            if pid == 0:
                for i in T.Parallel(N):
                    s_src[i] = A[i]
                T.copy_cluster(s_src, s_dst, dst_block=1, remote_barrier=s_barrier[0])
            if pid == 1:
                T.mbarrier_wait_parity(s_barrier[0], 0)
                for i in T.Parallel(N):
                    B[i] = s_dst[i]

    return main
