# Two T.dynamic calls with one name are two variables, as in TileLang (each
# call makes a fresh tir.Var; upstream test_tilelang_jit_cutedsl_parameter_
# identity): a kernel using both has two size parameters, named apart as
# TVM's printer names two Vars of one name (`size`, `size_1`), and a launch
# with tensors of unequal lengths binds each from its own tensor. The
# renaming is per kernel instance: kernels that each use one symbol of a
# name keep the plain name, in the IR and in the hints (issue 12, G15).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECKED --allow-empty
# CHECKED-NOT: {{error|warning}}
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @main(%a: !tile.buffer<[size], i32, global>, %b: !tile.buffer<[size_1], i32, global>) symbols(size: dynamic, size_1: dynamic)
# CHECK: %[[SIZE:.*]] = tile.symbol "size"
# CHECK: %[[SIZE_1:.*]] = tile.symbol "size_1"
# CHECK: %[[A0:.*]] = arith.index_cast %[[SIZE_1]] : index to i32
# CHECK-NEXT: tile.store %[[A0]], %a
# CHECK: %[[B0:.*]] = arith.index_cast %[[SIZE]] : index to i32
# CHECK-NEXT: tile.store %[[B0]], %b
# CHECK: tile.func @first(%a: !tile.buffer<[size], i32, global>) symbols(size: dynamic)
# CHECK: tile.func @second(%b: !tile.buffer<[size], i32, global>) symbols(size: dynamic)
# CHECK: tile.func @scaled(%a: !tile.buffer<[n], i32, global>) symbols(n: dynamic)
# CHECK: tile.func @scaled_1(%a: !tile.buffer<[n], i32, global>) symbols(n: dynamic)
# CHECK-NOT: n_1
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# HINTS: "kernel":"main","instance":"main","name":"a","kind":"tensor","shape":["size"]
# HINTS: "kernel":"main","instance":"main","name":"b","kind":"tensor","shape":["size_1"]
# HINTS: "kernel":"first","instance":"first","name":"a","kind":"tensor","shape":["size"]
# HINTS: "kernel":"second","instance":"second","name":"b","kind":"tensor","shape":["size"]
# HINTS: "kernel":"scaled","instance":"scaled(2)","name":"a","kind":"tensor","shape":["n"]
# HINTS: "kernel":"scaled","instance":"scaled(3)","name":"a","kind":"tensor","shape":["n"]
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu --kernel=main -o %t/art %s > /dev/null
# RUN: tlc-run %t/art -D size=5 -D size_1=9 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; a=np.load('%t/out/a.npy'); b=np.load('%t/out/b.npy'); print(a.shape, b.shape, int(a[0]), int(b[0]))" | FileCheck %s --check-prefix=LAUNCH
# LAUNCH: (5,) (9,) 9 5
import tilelang.language as T

length = T.dynamic("size")
other_length = T.dynamic("size")


@T.prim_func
def main(a: T.Tensor((length,), T.int32), b: T.Tensor((other_length,), T.int32)):
    with T.Kernel(1, threads=32):
        if T.get_thread_binding(0) == 0:
            a[0] = other_length
            b[0] = length


# One symbol each: both keep the name, whatever the other kernel uses.
@T.prim_func
def first(a: T.Tensor((length,), T.int32)):
    with T.Kernel(1, threads=32):
        if T.get_thread_binding(0) == 0:
            a[0] = length


@T.prim_func
def second(b: T.Tensor((other_length,), T.int32)):
    with T.Kernel(1, threads=32):
        if T.get_thread_binding(0) == 0:
            b[0] = other_length


def scaled(k):
    n = T.dynamic("n")

    @T.prim_func
    def scaled_main(a: T.Tensor((n,), T.int32)):
        with T.Kernel(1, threads=32):
            if T.get_thread_binding(0) == 0:
                a[0] = n * k

    return scaled_main


double = scaled(2)
triple = scaled(3)
