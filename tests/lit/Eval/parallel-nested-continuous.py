# A T.Parallel inside another T.Parallel must be the enclosing loop's whole
# body (TileLang merges the two into one iteration space and raises a
# ValueError for any other nest). After another statement, or inside a
# serial loop of a T.Parallel iteration, its iterations would run the same
# elements' work on several threads in no defined order (in
# `after_statement`, B[i] = 0 of one iteration races with the inner loop of
# another); tlc built such nests. Serial loops inside T.Parallel, T.Parallel
# inside serial loops, and directly nested ones (two or three deep: one
# loop nest, parallel-nested-one-nest.py) build.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: parallel-nested-continuous.py:29:22: error: ValueError: a T.Parallel nested in another T.Parallel must be the whole body of the enclosing T.Parallel
# CHECK: parallel-nested-continuous.py:47:26: error: ValueError: a T.Parallel nested in another T.Parallel must be the whole body
# CHECK-NOT: error
# RUN: tlc-build --emit=tile --target=cpu --kernel=continuous %s | FileCheck %s --check-prefix=OK
# OK: tile.func @continuous
# OK: tile.parallel (%i, %j, %k) in [16, 8, 2]
# OK-NOT: tile.for
# RUN: tlc-build --emit=tile --target=cpu --kernel=mixed %s | FileCheck %s --check-prefix=MIXED
# MIXED: tile.func @mixed
import tilelang
import tilelang.language as T


@T.prim_func
def after_statement(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
    with T.Kernel(1, threads=256):
        for i in T.Parallel(16):
            B[i] = 0
            for j in T.Parallel(16):
                B[i * 16 + j] = A[i * 16 + j] + 1.0


@T.prim_func
def continuous(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
    with T.Kernel(1, threads=256):
        for i in T.Parallel(16):
            for j in T.Parallel(8):
                for k in T.Parallel(2):
                    B[i * 16 + j * 2 + k] = A[i * 16 + j * 2 + k] + 1.0


@T.prim_func
def serial_between(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
    with T.Kernel(1, threads=256):
        for i in T.Parallel(16):
            for j in T.serial(8):
                for k in T.Parallel(2):
                    B[i * 16 + j * 2 + k] = A[i * 16 + j * 2 + k] + 1.0


@T.prim_func
def mixed(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
    with T.Kernel(1, threads=256):
        for i in T.serial(16):
            for j in T.Parallel(8):
                for k in T.serial(2):
                    B[i * 16 + j * 2 + k] = A[i * 16 + j * 2 + k] + 1.0
        for i in T.Parallel(16):
            for j in T.serial(16):
                B[i * 16 + j] = B[i * 16 + j] * 2.0
