# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# RUN: tlc-build --emit=hints --format=json -D M=512 -D block=64 %s | FileCheck %s --check-prefix=BIND
# RUN: tlc-build --emit=hints --format=json --kernel=eager_add %s | FileCheck %s --check-prefix=FILTER
# Instances come from call sites (with argparse defaults flowing through
# main()), .compile(...), tilelang.compile(...), -D bindings, and defaults
# with unbound parameters kept as symbols.
import argparse

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def lazy_copy(M, N, block=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), B: T.Tensor((M, N), T.float16)):
        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
            tile = T.alloc_shared((block, N), T.float16)
            T.copy(A[bx * block, 0], tile)
            T.copy(tile, B[bx * block, 0])

    return main


@tilelang.jit
def eager_add(A, B, block: int = 256):
    N = T.const("N")
    A: T.Tensor((N,), T.float32)
    B: T.Tensor((N,), T.float32)
    C = T.empty((N,), T.float32)
    with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
        for i in T.Parallel(block):
            C[bx * block + i] = A[bx * block + i] + B[bx * block + i]
    return C


@tilelang.jit
def never_called(K, block_K=32):
    @T.prim_func
    def main(A: T.Tensor((K,), T.float32)):
        with T.Kernel(T.ceildiv(K, block_K), threads=32) as bx:
            S = T.alloc_shared((block_K,), T.float32)
            T.copy(A[bx * block_K], S)

    return main


def plain_factory(n):
    @T.prim_func
    def kernel(X: T.Tensor((n, n), T.bfloat16)):
        with T.Kernel(1, threads=128) as bx:
            F = T.alloc_fragment((n, n), T.float32)
            T.copy(X, F)

    return kernel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=1024)
    parser.add_argument("--n", type=int, default=64)
    args = parser.parse_args()
    lazy_copy(args.m, args.n)
    lazy_copy(args.m, args.n)  # the same instance again: analysed once
    eager_add.compile(N=4096)
    tilelang.compile(plain_factory(32), out_idx=-1)


if __name__ == "__main__":
    main()

# CHECK: "kernel":"lazy_copy","instance":"lazy_copy(1024, 64)","name":"A","kind":"tensor","shape":[1024,64],"dtype":"float16","scope":"global"
# CHECK: "kernel":"lazy_copy","instance":"lazy_copy(1024, 64)","name":"tile","kind":"buffer","shape":[128,64]
# CHECK-NOT: "instance":"lazy_copy(1024, 64)","name":"A"
# CHECK: "kernel":"eager_add","instance":"eager_add(N=4096)","name":"A","kind":"tensor","shape":[4096],"dtype":"float32"
# CHECK: "kernel":"eager_add","instance":"eager_add(N=4096)","name":"C","kind":"tensor","shape":[4096]
# CHECK: "kernel":"eager_add","instance":"eager_add(N=4096)",{{.*}}"kind":"kernel","shape":[16],{{.*}}"detail":"256 threads"
# CHECK: "kernel":"plain_factory","instance":"plain_factory(32)","name":"X","kind":"tensor","shape":[32,32],"dtype":"bfloat16"
# Nothing calls never_called: its parameters stay symbols.
# CHECK: "kernel":"never_called","instance":"never_called(K=K)","name":"A","kind":"tensor","shape":["K"]
# CHECK: "kernel":"never_called",{{.*}}"kind":"kernel","shape":["ceildiv(K, 32)"]
# CHECK: "kernel":"never_called",{{.*}}"name":"S","kind":"buffer","shape":[32]

# -D binds factory parameters, argparse destinations and T.const names.
# BIND: "instance":"lazy_copy(512, 64, block=64)","name":"A","kind":"tensor","shape":[512,64]
# BIND: "instance":"lazy_copy(512, 64, block=64)","name":"tile","kind":"buffer","shape":[64,64]
# BIND: "instance":"eager_add(N=4096, block=64)",{{.*}}"kind":"kernel","shape":[64]
# BIND: "instance":"never_called(K=K)"

# FILTER-NOT: "kernel":"lazy_copy"
# FILTER: "kernel":"eager_add"
# FILTER-NOT: "kernel":"never_called"
