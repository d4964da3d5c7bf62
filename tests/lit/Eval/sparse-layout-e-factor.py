# `tilelang.cuda.intrinsics.sparse_layout.get_e_factor(a_dtype, meta_dtype)`:
# how many K elements one metadata element describes (4 metadata bits per
# group of 4 elements, per group of 2 for float32), and
# `get_e_replicate_factor(a_dtype)` (1 for 8-bit operands, 2 above); a
# program that sizes its metadata tensor with them analyses to that shape
# (it was an unknown call result, "cannot build this kernel"). The package
# module of the same name computes the same numbers for Python
# (tests/python/sparse_layout.py). A dtype the sparse instructions do not
# take is the KeyError TileLang's table lookup raises.
# RUN: tlc-build --check %s --kernel=meta 2>&1 | count 0
# RUN: tlc-build --emit=tile --target=cuda:sm_90a --kernel=meta %s | FileCheck %s
# RUN: not tlc-build --emit=tile --target=cuda:sm_90a --kernel=bad %s 2>&1 | FileCheck %s --check-prefix=BAD

import tilelang
import tilelang.language as T
from tilelang.cuda.intrinsics.sparse_layout import get_e_factor, get_e_replicate_factor
from tilelang.cuda.intrinsics import sparse_layout


@tilelang.jit
def meta(K=256):
    a = K // get_e_factor(T.int8, T.dtype("int16"))  # factor 16
    b = K // get_e_factor("float16", "uint8")  # factor 8
    c = K // sparse_layout.get_e_factor(T.float32, T.int32)  # factor 16
    d = K // get_e_factor(T.bfloat16, T.int32)  # factor 32
    r = get_e_replicate_factor(T.int8) * 10 + get_e_replicate_factor(T.float16)

    @T.prim_func
    def main(A: T.Tensor((a, b), "int16"), C: T.Tensor((c, d), "int32"),
             R: T.Tensor((r,), "int32")):
        with T.Kernel(1, threads=32):
            A[0, 0] = 1
            C[0, 0] = 1
            R[0] = 1

    return main


# CHECK: tile.func @meta(%A: !tile.buffer<[16, 32], i16, global>, %C: !tile.buffer<[16, 8], i32, global>, %R: !tile.buffer<[12], i32, global>


@tilelang.jit
def bad(K=256):
    # BAD: error: KeyError: structured sparsity is not defined for float64
    e = K // get_e_factor(T.float64, T.int16)

    @T.prim_func
    def main(A: T.Tensor((e,), "int16")):
        with T.Kernel(1, threads=32):
            A[0] = 1

    return main


meta()
bad()
