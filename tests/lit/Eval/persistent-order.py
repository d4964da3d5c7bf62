# T.Persistent visits the tile domain in TileLang's grouped order: the last
# dimension in groups of group_size tiles (default 8, clamped to [1, last
# extent]), the group slowest, then the other dimensions row-major, then
# the offset in the group; wave w of worker i takes linear index
# w * wave_size + i, and tiles past the padded domain or the last extent are
# skipped. Both spellings of the loop: `for ... in` and TVM's frame form
# `with T.Persistent(...) as (...)`. Each kernel records which worker
# visited a tile and how many tiles that worker had visited before; run on
# the CPU target and compared with the order enumerated in Python.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/persistent_order_run.py tlc-run %t/art %t | FileCheck %s --check-prefix=ORDER

import tilelang
import tilelang.language as T


@tilelang.jit
def grouped_3d(D0=2, D1=3, D2=10, workers=16, group=3):
    # 10 = 3 + 3 + 3 + 1: the last group is partial; 72 padded tiles over
    # 16 workers: the fifth wave runs past the padded domain.
    @T.prim_func
    def main(Worker: T.Tensor((D0, D1, D2), T.int32), Seq: T.Tensor((D0, D1, D2), T.int32)):
        with T.Kernel(workers, threads=32) as worker:
            seq = T.alloc_var(T.int32)
            seq = 0
            with T.Persistent([D0, D1, D2], workers, worker, group) as (b0, b1, b2):
                Worker[b0, b1, b2] = worker
                Seq[b0, b1, b2] = seq
                seq += 1

    return main


@tilelang.jit
def default_group_2d(M=5, N=20, workers=7):
    @T.prim_func
    def main(Worker: T.Tensor((M, N), T.int32), Seq: T.Tensor((M, N), T.int32)):
        with T.Kernel(workers, threads=32) as worker:
            seq = T.alloc_var(T.int32)
            seq = 0
            for bm, bn in T.Persistent([M, N], workers, worker):
                Worker[bm, bn] = worker
                Seq[bm, bn] = seq
                seq += 1

    return main


@tilelang.jit
def clamped_1d(N=11, workers=4):
    @T.prim_func
    def main(Worker: T.Tensor((N,), T.int32), Seq: T.Tensor((N,), T.int32)):
        with T.Kernel(workers, threads=32) as worker:
            seq = T.alloc_var(T.int32)
            seq = 0
            for b in T.Persistent([N], workers, worker, group_size=32):
                Worker[b] = worker
                Seq[b] = seq
                seq += 1

    return main


grouped_3d()
default_group_2d()
clamped_1d()

# ceildiv(10, 3) groups * 2 * 3 * 3 = 72 padded tiles, ceildiv(72, 16) = 5
# waves; grouped domain [4, 2, 3, 3]: the offset is the fastest coordinate,
# the group the slowest.
# CHECK-LABEL: tile.func @grouped_3d
# CHECK: tile.for %wave = %c0 to %c5
# CHECK: %[[LIN:.*]] = arith.addi %{{.*}}, %worker : index
# CHECK: %[[OFF:.*]] = arith.remsi %[[LIN]], %c3
# CHECK: %[[GROUP:.*]] = arith.floordivsi %{{.*}}, %c2
# CHECK: %[[BASE:.*]] = arith.muli %[[GROUP]], %c3
# CHECK: %[[LAST:.*]] = arith.addi %[[BASE]], %[[OFF]] : index
# CHECK: %[[IN:.*]] = arith.cmpi slt, %[[LIN]], %c72
# CHECK: %[[INLAST:.*]] = arith.cmpi slt, %[[LAST]], %c10
# CHECK: tile.if %[[IN]]
# CHECK: tile.if %[[INLAST]]
# 20 % 8 != 0: guarded; 3 groups * 5 * 8 = 120 tiles over 7 workers.
# CHECK-LABEL: tile.func @default_group_2d
# CHECK: tile.for %wave = %c0 to %c18
# CHECK: arith.cmpi slt, %{{.*}}, %c120
# CHECK: arith.cmpi slt, %{{.*}}, %c20
# The group is clamped to the 11 tiles: one group, 11 tiles over 4 workers.
# CHECK-LABEL: tile.func @clamped_1d
# CHECK: tile.for %wave = %c0 to %c3
# CHECK: arith.cmpi slt, %{{.*}}, %c11
# CHECK-NOT: arith.cmpi
# CHECK: tile.store

# ORDER: grouped_3d ok
# ORDER: default_group_2d ok
# ORDER: clamped_1d ok
