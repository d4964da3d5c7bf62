# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s 2>/dev/null | FileCheck %s
# TileLang loops are TVM frames: `with T.serial(n) as i:` and
# `with T.Persistent(...) as (bx, by):` are the loop, as `for` is. Outside
# any kernel (a program driving TVM's IRBuilder itself) the frame builds IR
# tlc does not model: a warning, and the body is analysed once with unknown
# loop variables. Iterating a loop frame with `for` outside a kernel is a
# TypeError in Python: an error.
import tilelang
import tilelang.language as T
from tilelang import tvm
from tvm.script.ir_builder import IRBuilder


@tilelang.jit
def frame_loops(M=4, N=6):
    @T.prim_func
    def main(A: T.Tensor((M * 32, N * 32), T.float16)):
        with T.Kernel(8, threads=128) as worker:
            with T.Persistent([M, N], 8, worker, 2) as (bm, bn):
                for i, j in T.Parallel(32, 32):
                    A[bm * 32 + i, bn * 32 + j] = 0
            with T.serial(2) as s:
                with T.Parallel(32) as i:
                    A[s, i] = 1

    return main


def build_rows(rows):
    worker = tvm.tirx.Var("worker", "int32")
    # expected-warning@+1 {{this loop frame is entered outside a kernel: it builds TVM IR that tlc does not model; its body is analysed once with unknown loop variables}}
    with IRBuilder() as builder, T.Persistent([rows, 8], 4, worker) as (row, col):
        T.evaluate(row + col)
    return builder


def iterate_outside():
    # expected-error@+1 {{TileLang loops can only be used inside a kernel}}
    for i in T.serial(4):
        pass


frame_loops()
build_rows(6)
iterate_outside()

# M=4, N=6, group 2: grouped domain [3, 4, 2], 24 tiles in 3 waves of 8.
# CHECK-LABEL: tile.func @frame_loops
# CHECK: tile.for %wave = %c0 to %c3
# CHECK-NOT: tile.if
# CHECK: tile.parallel (%i, %j) in [32, 32]
# CHECK: tile.for %s = %c0{{.*}} to %c2
# CHECK: tile.parallel (%i) in [32]
