# A @tilelang.jit function whose return calls a plain function that defines
# a @T.prim_func (directly or through another such function) is a lazy
# factory: each call site is an instance named after the jit function, and
# the plain factories get no default instance of their own.
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @first(%A: !tile.buffer<[1024], f32, global>, %B: !tile.buffer<[1024], f32, global>)
# CHECK: tile.func @second(%A: !tile.buffer<[1024], f32, global>, %B: !tile.buffer<[1024], f32, global>)
# CHECK: tile.func @second_1(%A: !tile.buffer<[2048], f32, global>, %B: !tile.buffer<[2048], f32, global>)
# CHECK-NOT: tile.func
# RUN: tlc-build --check %s 2>&1 | count 0

import tilelang
import tilelang.language as T


def copy_kernel(N, block=128):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i]
    return main


def through(N):
    return copy_kernel(N)


@tilelang.jit
def first(N):
    return copy_kernel(N)


@tilelang.jit
def second(N):
    if N > 4096:
        raise ValueError("too large")
    return through(N)


first(1024)
second(1024)
second(2048)
