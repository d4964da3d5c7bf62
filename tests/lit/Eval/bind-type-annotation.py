# TVMScript names that `from tvm.script.parser.tir import *` makes part of
# tilelang.language: T.bind(expr) binds a value to a new variable (the
# variable is that value; type_annotation= gives its dtype) and
# T.type_annotation(dtype) is a dtype where an expression is expected.
# Checked clean, and run on the CPU against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 4 -D n=5 --save %t/out > /dev/null
# RUN: %python %S/Inputs/bind_type_annotation_ref.py %t/out | FileCheck %s
# CHECK: PASS
# CHECK-NOT: FAIL
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), T.int32), F: T.Tensor((64,), T.float32), n: T.int32):
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        p = T.bind(n * 3 + tx)
        q = T.bind(tx, T.float32)
        assert T.type_annotation(T.uint8) == T.uint8
        A[tx] = p
        F[tx] = q / 2
