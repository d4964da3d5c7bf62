# T.copy_cluster copies a tile as T.copy does: a point source
# (`A[by * bM, bx * bN]`) is the tile of the destination's extents that
# starts there (right-aligned, leading unit dims dropped), and a point
# destination takes the source's. What the back end needs to issue the
# copy stays on the op: `cluster_mask` (TMA multicast), `dst_block` and
# `remote_barrier` (SM-to-SM copy into another block's shared memory).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not="warning:" --implicit-check-not="error:"
# RUN: tlc-build --emit=tile %s 2>&1 | FileCheck %s
# DIAG-NOT: {{.}}
import tilelang
import tilelang.language as T


def multicast(M, N, bM, bN, mask):
    @T.prim_func
    def multicast(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, bN), T.ceildiv(M, bM), threads=128, cluster_dims=(4, 1, 1)) as (bx, by):
            A_shared = T.alloc_shared((bM, bN), "float16")
            T.copy_cluster(A[by * bM, bx * bN], A_shared, cluster_mask=mask)
            T.copy(A_shared, B[by * bM, bx * bN])

    return multicast


# CHECK-LABEL: tile.func @multicast(
# CHECK: %[[SRC:.*]] = tile.region %A[{{.*}}] : !tile.buffer<[512, 256], f16, global> to !tile.buffer<[128, 64], f16, global>
# CHECK: %[[MASK:.*]] = arith.constant 3 : i32
# CHECK: tile.intrinsic "T.copy_cluster"(%[[SRC]], %{{.*}}, %[[MASK]]) {params = ["src", "dst", "cluster_mask"]} : (!tile.buffer<[128, 64], f16, global>, !tile.buffer<[128, 64], f16, shared.dyn>, i32) -> ()
k1 = tilelang.compile(multicast(512, 256, 128, 64, 0b0011), target="cuda")


# A (1, 32) source row named by its first element into a (32,) tile:
# the leading unit extent is dropped as in T.copy.
# CHECK-LABEL: tile.func @rows(
# CHECK: tile.region %X[{{.*}}] : !tile.buffer<[64, 32], f32, global> to !tile.buffer<[1, 32], f32, global>
# CHECK: tile.intrinsic "T.copy_cluster"({{.*}}) {params = ["src", "dst", "cluster_mask"]} : (!tile.buffer<[1, 32], f32, global>, !tile.buffer<[32], f32, shared.dyn>, i32) -> ()
@T.prim_func
def rows(X: T.Tensor((64, 32), "float32")):
    with T.Kernel(64, threads=32, cluster_dims=(2, 1, 1)) as bx:
        row = T.alloc_shared((32,), "float32")
        T.copy_cluster(X[bx, 0], row, cluster_mask=1)


# SM-to-SM: a whole shared buffer into block 1's copy of another, its
# completion counted on a cluster barrier.
# CHECK-LABEL: tile.func @dsmem(
# CHECK: %[[BLK:.*]] = arith.constant 1 : i32
# CHECK: tile.intrinsic "T.copy_cluster"(%{{.*}}, %{{.*}}, %[[BLK]], %{{.*}}) {params = ["src", "dst", "dst_block", "remote_barrier"]} : (!tile.buffer<[128], f32, shared.dyn>, !tile.buffer<[128], f32, shared.dyn>, i32, !tile.buffer<[1], ui64, shared.cluster_barrier>) -> ()
@T.prim_func
def dsmem(X: T.Tensor((128,), "float32")):
    with T.Kernel(2, threads=128, cluster_dims=(2, 1, 1)) as bx:
        src = T.alloc_shared((128,), "float32")
        dst = T.alloc_shared((128,), "float32")
        bar = T.alloc_cluster_barrier([1])
        T.copy(X, src)
        if bx == 0:
            T.copy_cluster(src, dst, dst_block=1, remote_barrier=bar[0])
