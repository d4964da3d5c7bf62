# T.reduce_max / reduce_min / reduce_bitand / reduce_bitor of bool tiles
# (TileLang issue 2568: max is any, min and bitand are all, bitor is any;
# TileLang refused the first three before its fix, and tlc did too) along
# dimension 1 of a [32, 32] bool fragment, checked against NumPy's any/all
# on the CPU target, cuda:sm_90a and sm_80 and hip:gfx942 on the sim
# device (the identity of max is false, of min and bitand true: an
# all-true and an all-false row tell a wrong identity apart).
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/reduce_bool_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/reduce_bool_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda80 %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/reduce_bool_check.py tlc-run %t/cuda80 %t/wcuda80 --device=sim | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nvcc %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/reduce_bool_check.py tlc-run %t/hip %t/whip --device=sim | FileCheck %s %}
# CHECK: max: ok
# CHECK: min: ok
# CHECK: bitand: ok
# CHECK: bitor: ok
# CHECK-NOT: WRONG
import tilelang
import tilelang.language as T


@tilelang.jit
def reduce_bool(M=32, N=32):

    @T.prim_func
    def main(A: T.Tensor((M, N), "bool"), Max: T.Tensor((M,), "bool"),
             Min: T.Tensor((M,), "bool"), And: T.Tensor((M,), "bool"),
             Or: T.Tensor((M,), "bool")):
        with T.Kernel(1, threads=128) as bx:
            A_fr = T.alloc_fragment((M, N), "bool")
            B_fr = T.alloc_fragment((M,), "bool")
            T.copy(A, A_fr)
            T.reduce_max(A_fr, B_fr, dim=1)
            T.copy(B_fr, Max)
            T.reduce_min(A_fr, B_fr, dim=1)
            T.copy(B_fr, Min)
            T.reduce_bitand(A_fr, B_fr, dim=1)
            T.copy(B_fr, And)
            T.reduce_bitor(A_fr, B_fr, dim=1)
            T.copy(B_fr, Or)

    return main


reduce_bool()
