# TileLang's cluster queries (tilelang/language/kernel.py): a cluster is a
# cluster_dims-shaped tile of the grid; the cluster index along an axis is
# the block index // cluster_dims[axis], there are ceildiv(grid extent,
# cluster_dims[axis]) clusters along it, and a launch without clusters has
# clusters of one block. The static values are checked by the programs'
# own asserts (a failing one is an error); the indices run on the CPU
# against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --verify-diagnostics %S/Inputs/cluster-queries-errors.py
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 1 --save %t/out > /dev/null
# RUN: %python %S/Inputs/cluster_queries_ref.py %t/out | FileCheck %s
# CHECK: clustered PASS
# CHECK: plain PASS
# CHECK-NOT: FAIL
import tilelang.language as T


@T.prim_func
def clustered(Ids: T.Tensor((8, 6, 2), "int32")):
    with T.Kernel(8, 6, threads=32, cluster_dims=(2, 3)) as (bx, by):
        assert T.get_cluster_dims() == [2, 3, 1]
        assert T.get_cluster_size() == 6
        assert T.get_cluster_extents() == [4, 2, 1]
        assert T.get_cluster_extent(1) == 2
        cx, cy = T.get_cluster_ids()
        Ids[bx, by, 0] = cx
        Ids[bx, by, 1] = cy * 10 + T.get_cluster_id(2)


@T.prim_func
def plain(Ids: T.Tensor((5,), "int32")):
    with T.Kernel(5, threads=32) as bx:
        assert T.get_cluster_dims() == [1, 1, 1]
        assert T.get_cluster_size() == 1
        assert T.get_cluster_extents() == [5, 1, 1]
        Ids[bx] = T.get_cluster_id() + T.get_cluster_id(1) * 100
