# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: tlc-build --emit=tile %s | tlc-opt | FileCheck %s --check-prefix=ROUNDTRIP
# IR-valued Python builds Tile IR; Python values fold. The output parses and
# verifies with tlc-opt.
import tilelang
import tilelang.language as T

USE_BIAS = True


@T.macro
def scale_row(buf, i, factor):
    for j in T.Parallel(64):
        buf[i, j] = buf[i, j] * factor


def twice(x):
    return x * 2


@tilelang.jit
def body(N=256, block=64, eps=1e-6):
    A: T.Tensor((N, 64), T.float16)
    B: T.Tensor((N, 64), T.float32)
    Counter: T.Tensor((1,), T.int32)
    with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
        S = T.alloc_shared((block, 64), T.float16)
        F = T.alloc_fragment((block, 64), T.float32)
        R = T.alloc_fragment((block,), T.float32)
        C = T.alloc_fragment((block,), T.float32)
        v = T.alloc_var(T.int32, init=0)
        T.copy(A[bx * block, 0], S)
        T.copy(S, F)
        for i, j in T.Parallel(block, 64):
            F[i, j] = T.exp2(F[i, j] * 1.44) + (1.0 if USE_BIAS else 0.0)
        T.reduce_max(F, R, dim=1)
        T.cumsum(R, C)
        for i in range(4):
            scale_row(F, i, twice(3))
        for i in T.serial(block):
            if R[i] > 0:
                F[i, 0] = T.rsqrt(R[i] + eps)
            else:
                F[i, 0] = T.if_then_else(R[i] < -1, T.cast(R[i], T.float32), 0)
        while v < 4:
            v = v + 1
        T.atomic_add(Counter[0], v)
        tx = T.get_thread_binding()
        T.device_assert(tx < 128, "tx out of range")
        T.sync_threads()
        T.print(F, msg="F")
        T.copy(F, B[bx * block, 0])


# CHECK-LABEL: tile.func @body(
# CHECK-SAME: !tile.buffer<[256, 64], f16, global>
# CHECK: tile.kernel (%bx) grid [4] threads [128]
# CHECK: tile.alloc {{.*}}: !tile.buffer<[64, 64], f16, shared.dyn>
# CHECK: tile.alloc init({{.*}} : i32) : !tile.buffer<[1], i32, local.var>
# CHECK: tile.region %{{.*}} : !tile.buffer<[256, 64], f16, global> to !tile.buffer<[64, 64], f16, global>
# CHECK: tile.copy
# CHECK: tile.parallel (%i, %j) in [64, 64]
# CHECK: tile.load
# CHECK: arith.mulf
# CHECK: math.exp2
# CHECK: arith.addf
# CHECK: tile.store
# CHECK: tile.reduce max {{.*}} dim = 1 clear
# CHECK: tile.cumsum
# The Python range() in the kernel is a serial loop; the macro inlines its
# T.Parallel body and twice(3) folds to 6.
# CHECK: tile.for %i = {{.*}} to {{.*}} step
# CHECK: tile.parallel
# CHECK: arith.constant 6.000000e+00 : f32
# CHECK: tile.for
# CHECK: tile.if
# CHECK: math.rsqrt
# CHECK: } else {
# CHECK: arith.select
# CHECK: tile.while {
# CHECK: arith.cmpi slt
# CHECK: tile.condition
# CHECK: } do {
# CHECK: tile.store
# CHECK: tile.atomic_add %Counter[{{.*}}], {{.*}} : !tile.buffer<[1], i32, global>, i32
# CHECK: tile.thread_binding 0
# CHECK: tile.device_assert {{.*}}, "tx out of range"
# CHECK: tile.sync_threads
# CHECK: tile.print "F"

# ROUNDTRIP: tile.func @body
# ROUNDTRIP: tile.kernel
