# tile-lower-copy-cluster: the form of each T.copy_cluster on sm_90a
# (tile.cluster_copy), and the forms it cannot issue refused at the call
# when building for sm_90a only (--check and the CPU target accept them).
#
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECKED --allow-empty
# CHECKED-NOT: error
# RUN: tlc-build --target=cuda:sm_90a --emit=lowered --kernel forms %s | FileCheck %s
# CHECK-LABEL: tile.func @forms(
# CHECK: %[[BAR:.*]] = tile.alloc {arrive_counts = array<i64: 1>} : !tile.buffer<[1], ui64, shared.cluster_barrier>
# CHECK: tile.intrinsic "T.copy_cluster"({{.*}}, %[[BAR]]) {params = ["src", "dst", "cluster_mask", "tile.mbarrier"], {{.*}}tile.cluster_bytes = 1024 : i64, tile.cluster_copy = "multicast", tile.cluster_leader = 1 : i64, tile.cluster_mask = 6 : i64, tile.cluster_swizzle = 0 : i64, tile.tma = 0 : i64}
# CHECK: tile.intrinsic "T.copy_cluster"({{.*}}) {params = ["src", "dst", "dst_block", "remote_barrier"], tile.cluster_bytes = 512 : i64, tile.cluster_copy = "bulk"}
# CHECK: tile.intrinsic "T.copy_cluster"({{.*}}) {params = ["src", "dst", "dst_block"], tile.cluster_bytes = 512 : i64, tile.cluster_copy = "stores"}
# A 6-element f16 buffer (12 bytes, not a multiple of 16) with a barrier:
# the threads' stores, then one arrival.
# CHECK: tile.intrinsic "T.copy_cluster"({{.*}}) {params = ["src", "dst", "dst_block", "remote_barrier"], tile.cluster_bytes = 12 : i64, tile.cluster_copy = "stores"}
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel forms %s | FileCheck %s --check-prefix=CUDA
# CUDA: tlc::cuda::tmaLoadMulticast<2>({{.*}}, (uint16_t)6,
# CUDA: else if (!((6u >>
# CUDA: tlc::cuda::bulkCopySharedCluster(
# CUDA: tlc::cuda::stSharedCluster(
# CUDA: tlc::cuda::stSharedCluster(
# CUDA: tlc::cuda::mbarrierArriveCluster(
#
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t --kernel runtime_mask %s 2>&1 | FileCheck %s --check-prefix=MASK
# MASK: tile-lower-copy-cluster.py:[[# @LINE + 41]]:13: error: T.copy_cluster on sm_90a: cluster_mask must be a constant
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t --kernel under_if %s 2>&1 | FileCheck %s --check-prefix=IF
# IF: tile-lower-copy-cluster.py:[[# @LINE + 52]]:17: error: T.copy_cluster on sm_90a: a TMA multicast meets the whole cluster at a cluster barrier
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t --kernel outside %s 2>&1 | FileCheck %s --check-prefix=OUTSIDE
# OUTSIDE: tile-lower-copy-cluster.py:[[# @LINE + 62]]:13: error: T.copy_cluster on sm_90a: cluster_mask 4 must name blocks of the cluster of 2 (bits 0..1)
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t --kernel bytes1 %s 2>&1 | FileCheck %s --check-prefix=BYTES
# BYTES: tile-lower-copy-cluster.py:[[# @LINE + 73]]:13: error: T.copy_cluster on sm_90a: the threads' st.shared::cluster stores copy 2- or 4-byte elements

import tilelang
import tilelang.language as T


@tilelang.jit
def forms():

    @T.prim_func
    def main(A: T.Tensor((64, 64), T.float16), B: T.Tensor((64, 64), T.float16)):
        with T.Kernel(4, threads=64, cluster_dims=(4, 1, 1)) as bx:
            tile = T.alloc_shared((16, 32), T.float16)
            s = T.alloc_shared((128,), T.float32)
            d = T.alloc_shared((128,), T.float32)
            e = T.alloc_shared((6,), T.float16)
            f = T.alloc_shared((6,), T.float16)
            bar = T.alloc_cluster_barrier([1])
            rank = T.block_rank_in_cluster()
            T.copy_cluster(A[bx * 16, 0], tile, cluster_mask=0b0110)
            T.copy(tile, B[bx * 16, 0])
            T.copy_cluster(s, d, dst_block=(rank + 1) % 4, remote_barrier=bar[0])
            T.copy_cluster(s, d, dst_block=(rank + 1) % 4)
            T.copy_cluster(e, f, dst_block=(rank + 1) % 4, remote_barrier=bar[0])

    return main


@tilelang.jit
def runtime_mask():

    @T.prim_func
    def main(A: T.Tensor((64, 64), T.float16), m: T.int32):
        with T.Kernel(4, threads=64, cluster_dims=(2, 1, 1)) as bx:
            tile = T.alloc_shared((16, 64), T.float16)
            T.copy_cluster(A[bx * 16, 0], tile, cluster_mask=m)

    return main


@tilelang.jit
def under_if():

    @T.prim_func
    def main(A: T.Tensor((64, 64), T.float16)):
        with T.Kernel(4, threads=64, cluster_dims=(2, 1, 1)) as bx:
            tile = T.alloc_shared((16, 64), T.float16)
            if bx < 2:
                T.copy_cluster(A[bx * 16, 0], tile, cluster_mask=0b11)

    return main


@tilelang.jit
def outside():

    @T.prim_func
    def main(A: T.Tensor((64, 64), T.float16)):
        with T.Kernel(4, threads=64, cluster_dims=(2, 1, 1)) as bx:
            tile = T.alloc_shared((16, 64), T.float16)
            T.copy_cluster(A[bx * 16, 0], tile, cluster_mask=0b100)

    return main


@tilelang.jit
def bytes1():

    @T.prim_func
    def main(A: T.Tensor((64,), T.int8)):
        with T.Kernel(2, threads=64, cluster_dims=(2, 1, 1)) as bx:
            s = T.alloc_shared((24,), T.int8)
            d = T.alloc_shared((24,), T.int8)
            T.copy_cluster(s, d, dst_block=1 - bx)

    return main
