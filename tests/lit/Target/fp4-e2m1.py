# float4_e2m1fn (OCP MX fp4) end to end: a kernel rounds float32 values to
# fp4 through a fragment and a shared tile (packed two a byte) into global
# memory and reads them back; another decodes all 16 codes from a packed
# input. Built for the CPU target (the reference), cuda:sm_90a and
# hip:gfx942 (both run on the sim device), each run checked against NumPy:
# codes from a table of the spec's 16 values (nearest, ties to the even
# code, saturation to +-6, NaN to +6), bytes packed element 2k in the low
# nibble, as torch.float4_e2m1fn_x2.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/fp4_e2m1_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/fp4_e2m1_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/fp4_e2m1_check.py tlc-run %t/hip %t/whip --device=sim | FileCheck %s %}
# CHECK: decode: ok
# CHECK: quant: ok
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T


@tilelang.jit
def quant(N=1024, block=256):

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Q: T.Tensor((N,), T.float4_e2m1fn),
             Y: T.Tensor((N,), T.float32)):
        with T.Kernel(N // block, threads=128) as bx:
            x = T.alloc_fragment((block,), T.float32)
            q = T.alloc_fragment((block,), T.float4_e2m1fn)
            q_shared = T.alloc_shared((block,), T.float4_e2m1fn)
            y = T.alloc_fragment((block,), T.float32)
            T.copy(X[bx * block], x)
            for i in T.Parallel(block):
                q[i] = T.Cast(T.float4_e2m1fn, x[i])
            T.copy(q, q_shared)
            T.copy(q_shared, Q[bx * block])
            for i in T.Parallel(block):
                y[i] = T.Cast(T.float32, q_shared[i])
            T.copy(y, Y[bx * block])

    return main


@tilelang.jit
def decode(M=4, N=16):

    @T.prim_func
    def main(Q: T.Tensor((M, N), "float4_e2m1fn"),
             F: T.Tensor((M, N), T.float32)):
        with T.Kernel(M, threads=32) as bx:
            for j in T.Parallel(N):
                F[bx, j] = Q[bx, j]

    return main


quant()
decode()
