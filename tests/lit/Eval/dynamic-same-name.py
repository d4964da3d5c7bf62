# Two T.dynamic calls with one name are two variables, as in TileLang
# (each call makes a fresh tir.Var): the kernel has two size parameters,
# named apart as the generated code does (`size`, `size_1`), and launching
# it with tensors of unequal lengths binds each to its own tensor. tlc
# keyed symbols by name and merged them: one `size`, bound from `a`, so
# `a[0] = other_length` stored len(a) (issue 12, G15; upstream
# test_tilelang_jit_cutedsl_parameter_identity's _shape_program). A call
# site that runs again keeps its symbol.
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @main(%a: !tile.buffer<[size], i32, global>, %b: !tile.buffer<[size_1], i32, global>) symbols(size: dynamic, size_1: dynamic)
# CHECK: tile.func @scaled(%a: !tile.buffer<[n], i32, global>) symbols(n: dynamic)
# CHECK: tile.func @scaled_1(%a: !tile.buffer<[n], i32, global>) symbols(n: dynamic)
# CHECK-NOT: n_1
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
