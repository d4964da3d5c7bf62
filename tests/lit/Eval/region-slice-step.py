# A slice with a step, `A[r, 1:16:2]`, names every second element (TVM's
# T.Ramp index): stored into a region of as many elements and bound to a
# vector let, element by element. Built for the CPU target and compared with
# a reference computed in Python.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py slice-step tlc-run %t/art %t | FileCheck %s
# RUN: tlc-build --verify-diagnostics %S/Inputs/region-slice-step-errors.py
import tilelang
import tilelang.language as T


@T.prim_func
def deinterleave(A: T.Tensor((8, 16), T.float32), B: T.Tensor((8, 16), T.float32)):
    with T.Kernel(8, threads=1) as r:
        B[r, 0:8] = A[r, 0:16:2]
        odd: T.float32x4 = A[r, 1:9:2]
        B[r, 8:12] = odd
        B[r, 12:16] = A[r, 9:16:2]


# CHECK: slice-step ok
