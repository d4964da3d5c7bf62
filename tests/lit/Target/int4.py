# int4 (two's complement 4-bit integers) end to end: values packed two a
# byte in shared and global memory (element 2k in the low nibble, the
# layout of TileLang's int4 tensors in int8 bytes), one a byte in
# fragments. `arith` adds int8 inputs narrowed to int4 (wrapping modulo
# 16) through a fragment and a shared tile into a packed output and widens
# them again; `decode` reads all 16 codes from a packed input, widens them
# and squares them in int4 (wrapping); `convert` rounds float32 toward zero,
# saturating to [-8, 7]; `udecode` does the same for uint4 (zero
# extension, sums wrapping modulo 16). Built for the CPU target, cuda:sm_90a and
# hip:gfx942 (both on the sim device); every run checked against NumPy.
# nvcc (where installed) compiles the CUDA build.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/int4_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/int4_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nvcc %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/int4_check.py tlc-run %t/hip %t/whip --device=sim | FileCheck %s %}
# CHECK: arith: ok
# CHECK: decode: ok
# CHECK: convert: ok
# CHECK: udecode: ok
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T


@tilelang.jit
def arith(N=256, block=64):

    @T.prim_func
    def main(A: T.Tensor((N,), T.int8), B: T.Tensor((N,), T.int8),
             P: T.Tensor((N,), T.int4), Q: T.Tensor((N,), T.int32)):
        with T.Kernel(N // block, threads=32) as bx:
            a = T.alloc_fragment((block,), T.int4)
            s = T.alloc_shared((block,), T.int4)
            for i in T.Parallel(block):
                a[i] = T.Cast(T.int4, A[bx * block + i]) + T.Cast(
                    T.int4, B[bx * block + i])
            T.copy(a, s)
            T.copy(s, P[bx * block])
            for i in T.Parallel(block):
                Q[bx * block + i] = T.Cast(T.int32, s[i]) * 3

    return main


@tilelang.jit
def decode(M=4, N=16):

    @T.prim_func
    def main(X: T.Tensor((M, N), "int4"), F: T.Tensor((M, N), T.int32),
             S: T.Tensor((M, N), "int4")):
        with T.Kernel(M, threads=32) as bx:
            for j in T.Parallel(N):
                F[bx, j] = X[bx, j]
                S[bx, j] = X[bx, j] * X[bx, j]

    return main


@tilelang.jit
def convert(N=128):

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), C: T.Tensor((N,), T.int4),
             W: T.Tensor((N,), T.float32)):
        with T.Kernel(1, threads=64):
            c = T.alloc_fragment((N,), T.int4)
            for i in T.Parallel(N):
                c[i] = T.Cast(T.int4, X[i])
            T.copy(c, C)
            for i in T.Parallel(N):
                W[i] = T.Cast(T.float32, c[i])

    return main


@tilelang.jit
def udecode(M=4, N=16):

    @T.prim_func
    def main(X: T.Tensor((M, N), "uint4"), F: T.Tensor((M, N), T.int32),
             S: T.Tensor((M, N), "uint4")):
        with T.Kernel(M, threads=32) as bx:
            for j in T.Parallel(N):
                F[bx, j] = X[bx, j]
                S[bx, j] = X[bx, j] + X[bx, j] + X[bx, j]

    return main


arith()
decode()
convert()
udecode()
