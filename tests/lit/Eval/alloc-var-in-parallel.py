# T.alloc_var inside a T.Parallel body: every iteration has its own scalar
# (TileLang lowers it to a local of the thread running the iteration,
# tile-ai/tilelang PR 844). The variable is allocated before the parallel
# loop and its initial value stored in every iteration; checked clean,
# built for the CPU and run against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s > /dev/null
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python %S/Inputs/alloc_var_in_parallel_ref.py %t/out | FileCheck %s
# CHECK-COUNT-2: PASS
# CHECK-NOT: FAIL
# IR-LABEL: tile.func @select_sign
# IR: tile.alloc : !tile.buffer<[1], f32, local.var>
# IR-NEXT: tile.parallel
# IR-LABEL: tile.func @running_init
# IR: tile.alloc : !tile.buffer<[1], f32, local.var>
# IR-NEXT: tile.parallel
# IR-NOT: tile.alloc
# IR: tile.store
import tilelang.language as T


@T.prim_func
def select_sign(A: T.Tensor((64, 32), T.float32), B: T.Tensor((64, 32), T.float32)):
    with T.Kernel(1, threads=128):
        for i, j in T.Parallel(64, 32):
            d = T.alloc_var(T.float32)
            if A[i, j] > 0:
                d = 1.0
            else:
                d = -1.0
            B[i, j] = d


@T.prim_func
def running_init(A: T.Tensor((64, 32), T.float32), B: T.Tensor((64, 32), T.float32)):
    with T.Kernel(2, threads=128) as bx:
        for i, j in T.Parallel(32, 32):
            # the initial value is the iteration's own, every iteration
            acc = T.alloc_var(T.float32, init=A[bx * 32 + i, j])
            for k in T.serial(3):
                acc = acc * 2.0
            B[bx * 32 + i, j] = acc
