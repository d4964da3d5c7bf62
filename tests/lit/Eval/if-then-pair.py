# `with T.If(cond), T.Then():` is T.If with its T.Then nested: the body runs
# under the condition (it ran unconditionally before, with a warning that
# T.Then was ignored). A condition known at trace time keeps or drops the
# body.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s

import tilelang
import tilelang.language as T


@tilelang.jit
def guarded(N=128, limit=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), n: T.int32):
        with T.Kernel(1, threads=N) as _:
            tx = T.get_thread_binding()
            with T.If(tx < n), T.Then():
                A[tx] = 1.0
            with T.If(limit > 100), T.Then():
                A[tx] = 2.0
            with T.If(limit < 100), T.Then():
                A[tx] = 3.0

    return main


# CHECK-LABEL: tile.func @guarded(
# CHECK: %[[C:.*]] = arith.cmpi slt, %tx, %{{.*}} : index
# CHECK-NEXT: tile.if %[[C]] {
# CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
# CHECK-NEXT: tile.store %[[ONE]], %A[%tx]
# CHECK-NEXT: }
# CHECK-NOT: 2.000000e+00
# CHECK: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
# CHECK-NEXT: tile.store %[[THREE]], %A[%tx]
guarded()
