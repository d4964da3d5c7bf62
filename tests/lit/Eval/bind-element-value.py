# `t = S[i]` binds the element's value where it is assigned, as TileLang's
# immutable Bind of a BufferLoad does: a later store to S[i] does not
# change t (tlc read S[i] again where t was used, so B got the 0).
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: %[[V:[0-9]+]] = tile.load %shared[%tx]
# CHECK-NEXT: %[[Z:[a-z_0-9]+]] = arith.constant 0.0
# CHECK-NEXT: tile.store %[[Z]], %shared[%tx]
# CHECK-NEXT: tile.store %[[V]], %B[%tx]
# A Python name for a whole region stays a region (T.copy takes it).
# CHECK: tile.copy
# RUN: tlc-build --check %s 2>&1 | count 0
import tilelang
import tilelang.language as T


@tilelang.jit
def snapshot(N=128):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32),
             C: T.Tensor((N,), T.float32)):
        with T.Kernel(1, threads=N) as bx:
            S = T.alloc_shared((N,), T.float32)
            tx = T.get_thread_binding()
            S[tx] = A[tx]
            t = S[tx]
            S[tx] = 0
            B[tx] = t
            rows = A[0:N]
            T.copy(rows, C)
    return main


snapshot()
