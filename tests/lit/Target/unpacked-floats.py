# The unpacked 4/6-bit float dtypes (float4_e2m1_unpacked,
# float6_e2m3fn_unpacked, float6_e3m2fn_unpacked: one OCP MX code per byte,
# in its low bits) end to end: a kernel per dtype rounds float32 values
# into a shared tile of the dtype (T.Cast), copies it to another (T.copy),
# writes the codes out as bytes (T.reinterpret as uint8) and the values
# back as float32 (T.Cast), and decodes every byte value read as the dtype
# (T.reinterpret from uint8). Built for the CPU target (the reference),
# cuda:sm_90a and hip:gfx942 (both run on the sim device), each run
# checked against NumPy tables of the spec's values (nearest value, ties
# to the even code, saturation to the largest finite value, NaN to the
# positive largest).
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/unpacked_floats_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/unpacked_floats_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/unpacked_floats_check.py tlc-run %t/hip %t/whip --device=sim | FileCheck %s %}
# CHECK: e2m1 decode: ok
# CHECK: e2m1 round: ok
# CHECK: e2m3 decode: ok
# CHECK: e2m3 round: ok
# CHECK: e3m2 decode: ok
# CHECK: e3m2 round: ok
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T


def make(dtype, N=1024, block=256):

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Bytes: T.Tensor((N,), T.uint8),
             Codes: T.Tensor((N,), T.uint8), Y: T.Tensor((N,), T.float32),
             D: T.Tensor((N,), T.float32)):
        with T.Kernel(N // block, threads=128) as bx:
            q = T.alloc_shared((block,), dtype)
            r = T.alloc_shared((block,), dtype)
            for i in T.Parallel(block):
                q[i] = T.Cast(dtype, X[bx * block + i])
            T.copy(q, r)
            for i in T.Parallel(block):
                Codes[bx * block + i] = T.reinterpret(T.uint8, r[i])
                Y[bx * block + i] = T.Cast(T.float32, r[i])
            for i in T.Parallel(block):
                D[bx * block + i] = T.Cast(
                    T.float32, T.reinterpret(dtype, Bytes[bx * block + i]))

    return main


@tilelang.jit
def e2m1():
    return make(T.float4_e2m1_unpacked)


@tilelang.jit
def e2m3():
    return make(T.float6_e2m3fn_unpacked)


@tilelang.jit
def e3m2():
    return make("float6_e3m2fn_unpacked")


e2m1()
e2m3()
e3m2()
