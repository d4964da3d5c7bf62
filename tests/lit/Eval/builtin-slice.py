# Python's slice(): `B[tuple(slice(None) for _ in shape)]` is the whole
# buffer, `A[slice(2, 6)]` the region A[2:6], as with the `:` syntax.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s

import tilelang
import tilelang.language as T


def regions(shape=(8, 16)):

    @T.prim_func
    def main(A: T.Tensor(shape, "float32"), B: T.Tensor(shape, "float32"),
             C: T.Tensor((16,), "float32")):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared(shape, "float32")
            whole = tuple(slice(None) for _ in shape)
            T.copy(A[whole], A_shared)
            T.atomic_add(B[whole], A_shared[whole])
            T.copy(A_shared[0, slice(2, 6)], C[slice(4, 8)])
            T.copy(A_shared[1, slice(0, 16, 1)], C)

    return main


# CHECK-LABEL: tile.func @regions(
# CHECK: tile.copy %A to %[[SH:.*]] : !tile.buffer<[8, 16], f32, global> to
# CHECK: tile.atomic_add %B, %[[SH]] : !tile.buffer<[8, 16], f32, global>
# CHECK: %[[S:.*]] = tile.region %[[SH]][0, 2] : {{.*}} to !tile.buffer<[1, 4], f32, shared.dyn>
# CHECK: %[[D:.*]] = tile.region %C[4] : {{.*}} to !tile.buffer<[4], f32, global>
# CHECK: tile.copy %[[S]] to %[[D]]
# CHECK: tile.region %[[SH]][1, 0] : {{.*}} to !tile.buffer<[1, 16], f32, shared.dyn>
k = tilelang.compile(regions())
