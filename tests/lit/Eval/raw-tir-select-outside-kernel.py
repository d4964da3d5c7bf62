# TVM IR a script builds with the tirx API outside any kernel (a Select of
# IR variables, then a PrimFunc of it, as upstream issue-2994's test does
# before handing it to a code generator) is IR tlc does not build: an
# unmodelled value, not the error "conditional expression on IR values
# needs a kernel". The file's kernel is analysed as before.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @fill
import tilelang
import tilelang.language as T
from tilelang import tvm
from tvm import tirx

on_true = tirx.Var("on_true", "int8x2")
on_false = tirx.Var("on_false", "int8x2")
ramp = tirx.Ramp(0, 1, 2)
limit = tirx.Broadcast(tirx.const(1, "int32"), 2)
selected = tirx.Select(ramp < limit, on_true, on_false)
func = tirx.PrimFunc([on_true, on_false], tirx.Evaluate(selected))


@T.prim_func
def fill(A: T.Tensor((128,), T.int8)):
    with T.Kernel(1, threads=128):
        for i in T.Parallel(128):
            A[i] = T.Select(i < 64, T.int8(1), T.int8(0))
