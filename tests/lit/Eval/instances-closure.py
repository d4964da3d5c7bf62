# A @tilelang.jit factory defined inside a function is a new definition at
# each call of that function; two of them called with the same arguments
# but other closure values (`block` here) trace differently, so each is its
# own instance: the second's label names its closure values. A definition
# whose closure holds the same values as an earlier one shares its
# instance. Both the eager (annotated parameters) and the lazy (nested
# @T.prim_func) forms, and a plain prim_func factory.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK-DAG: "instance":"scale_kernel(tensor[1024])","name":"tile","kind":"buffer","shape":[64]
# CHECK-DAG: "instance":"scale_kernel(tensor[1024]) [block=256]","name":"tile","kind":"buffer","shape":[256]
# CHECK-DAG: "instance":"lazy_copy(1024)","name":"tile","kind":"buffer","shape":[32],"dtype":"float32"
# CHECK-DAG: "instance":"lazy_copy(1024) [dtype=float16, block=128]","name":"tile","kind":"buffer","shape":[128],"dtype":"float16"
# CHECK-DAG: "instance":"lazy_copy(1024) [dtype=float16, block=32]","name":"tile","kind":"buffer","shape":[32],"dtype":"float16"
# CHECK-DAG: "instance":"plain(512)","name":"tile","kind":"buffer","shape":[16]
# CHECK-DAG: "instance":"plain(512) [width=8]","name":"tile","kind":"buffer","shape":[8]
# RUN: tlc-build --emit=hints %s | grep -c '"name":"tile"' | FileCheck %s --check-prefix=COUNT
# COUNT: 7
import torch
import tilelang
import tilelang.language as T


def make_eager(block):

    @tilelang.jit
    def scale_kernel(A):
        N = T.const("N")
        A: T.Tensor[[N], T.float32]
        B = T.empty((N,), T.float32)
        with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
            tile = T.alloc_shared((block,), T.float32)
            T.copy(A[bx * block], tile)
            T.copy(tile, B[bx * block])
        return B

    return scale_kernel


def make_lazy(block, dtype=T.float32):

    @tilelang.jit
    def lazy_copy(N):

        @T.prim_func
        def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
            with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
                tile = T.alloc_shared((block,), dtype)
                T.copy(A[bx * block], tile)
                T.copy(tile, B[bx * block])

        return main

    return lazy_copy


def make_plain(width):

    def plain(N):

        @T.prim_func
        def main(A: T.Tensor((N,), T.float32)):
            with T.Kernel(T.ceildiv(N, width), threads=32) as bx:
                tile = T.alloc_shared((width,), T.float32)
                T.copy(A[bx * width], tile)
                T.copy(tile, A[bx * width])

        return main

    return plain


a = torch.randn(1024, device="cuda")
make_eager(64)(a)
make_eager(256)(a)
make_eager(64)(a)  # the first instance again
make_lazy(32)(1024)
make_lazy(128, T.float16)(1024)
make_lazy(32, T.float16)(1024)
tilelang.compile(make_plain(16)(512))
tilelang.compile(make_plain(8)(512))
