# Calls whose traces differ get distinct instances even where their labels
# used to be equal: an eager kernel called with tensors of two shapes (the
# label showed each tensor as `...`) and a factory called with two long
# tuples that differ past the 40 characters a label keeps (the second call
# was taken for the first and not traced).
# RUN: tlc-build --target=cpu --emit=hints --format=json %s | FileCheck %s
# CHECK-DAG: "kernel":"add_one","instance":"add_one(tensor[256], tensor[256])","name":"A","kind":"tensor","shape":[256]
# CHECK-DAG: "kernel":"add_one","instance":"add_one(tensor[1000], tensor[1000])","name":"A","kind":"tensor","shape":[1000]
# CHECK-DAG: "kernel":"tiles","instance":"tiles((100000001, 100000002, 10000...#[[H1:[0-9a-f]+]])","name":"A","kind":"tensor","shape":[100000001,100000002,100000003,100000004,1]
# CHECK-DAG: "kernel":"tiles","instance":"tiles((100000001, 100000002, 10000...#[[H2:[0-9a-f]+]])","name":"A","kind":"tensor","shape":[100000001,100000002,100000003,100000004,2]
# The same tensor shapes again make no new instance.
# RUN: tlc-build --target=cpu --emit=hints --format=json %s | grep -c '"name":"A"' | FileCheck %s --check-prefix=COUNT
# COUNT: {{^}}4{{$}}
import torch

import tilelang
import tilelang.language as T


@tilelang.jit
def add_one(A, B):
    N = T.const("N")
    A: T.Tensor[[N], T.float32]
    B: T.Tensor[[N], T.float32]
    with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
        for i in T.Parallel(128):
            if bx * 128 + i < N:
                B[bx * 128 + i] = A[bx * 128 + i] + 1


@tilelang.jit
def tiles(shape, dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor(shape, dtype)):
        with T.Kernel(1, threads=32) as bx:
            A[0, 0, 0, 0, 0] = A[0, 0, 0, 0, 0] + 1

    return main


add_one(torch.randn(256), torch.empty(256))
add_one(torch.randn(1000), torch.empty(1000))
add_one(torch.randn(1000), torch.empty(1000))
tiles((100000001, 100000002, 100000003, 100000004, 1))
tiles((100000001, 100000002, 100000003, 100000004, 2))
