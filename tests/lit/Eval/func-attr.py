# T.func_attr (TVMScript's, re-exported by tilelang.language) sets attributes
# of the traced function: `{"tir.noalias": True}` in TIR-style kernels, the
# `{"clusterIdx.y": 2}` TileLang's cluster planning writes (the public
# test_tilelang_transform_cluster_planning.py spells it by hand). tlc said
# "module 'tilelang.language' has no attribute 'func_attr'". It is an
# annotation: a dict with string keys, no code depends on it.
#
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=error:
import tilelang
import tilelang.language as T

N = 128


@T.prim_func
def planned(A: T.Tensor((N, 32), "float16"), C: T.Tensor((N, 32), "float16")):
    T.func_attr({"clusterIdx.y": 2, "tir.noalias": True})
    with T.Kernel(1, threads=128) as bx:
        for i, j in T.Parallel(N, 32):
            C[i, j] = A[i, j]


@T.prim_func
def not_a_dict(A: T.Tensor((N,), "float16")):
    # CHECK: func-attr.py:[[# @LINE + 1]]:17: error: T.func_attr expects a dict of attributes, got ['tir.noalias']
    T.func_attr(["tir.noalias"])
    with T.Kernel(1, threads=128) as bx:
        A[0] = 1


@T.prim_func
def key_not_a_string(A: T.Tensor((N,), "float16")):
    # CHECK: func-attr.py:[[# @LINE + 1]]:17: error: T.func_attr: attribute names are strings, got 3
    T.func_attr({3: True})
    with T.Kernel(1, threads=128) as bx:
        A[0] = 1
