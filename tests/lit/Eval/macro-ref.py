# RUN: tlc-build --emit=tile %s | FileCheck %s
# Macros are inlined; assigning to a T.Ref parameter or to a T.alloc_var
# stores; `assert` on an IR condition is a device assertion.
import tilelang
import tilelang.language as T


@T.macro
def bump(x: T.Ref, amount):
    x = x + amount


@tilelang.jit
def refs(N=64):
    A: T.Tensor((N,), T.int32)
    with T.Kernel(1, threads=64) as bx:
        L = T.alloc_local((4,), T.int32)
        v = T.alloc_var(T.int32)
        bump(L[1], 3)
        bump(v, 2)
        assert v < N, "v in range"
        A[0] = L[1] + v

# CHECK-LABEL: tile.func @refs
# CHECK: %[[L:.*]] = tile.alloc : !tile.buffer<[4], i32, local>
# CHECK: %[[V:.*]] = tile.alloc : !tile.buffer<[1], i32, local.var>
# CHECK: tile.load %[[L]][
# CHECK: arith.addi
# CHECK: tile.store {{.*}}, %[[L]][
# CHECK: tile.load %[[V]][]
# CHECK: arith.addi
# CHECK: tile.store {{.*}}, %[[V]][]
# CHECK: tile.device_assert {{.*}}, "v in range"
