# `lo = A[r, 0:8]` binds the elements of a region as one value (a vector in
# TileLang); `B[r, 8:16] = lo` stores them into a region of as many elements,
# element by element. Run on the CPU target and compared with Python.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py region-value tlc-run %t/art %t | FileCheck %s
# RUN: not tlc-build --check %S/Inputs/region-value-mismatch.py 2>&1 | FileCheck %s --check-prefix=ERR
import tilelang
import tilelang.language as T


@T.prim_func
def swap_halves(A: T.Tensor((8, 16), T.float32), B: T.Tensor((8, 16), T.float32)):
    with T.Kernel(8, threads=1) as r:
        lo = A[r, 0:8]
        hi = A[r, 8:16]
        B[r, 8:16] = lo
        B[r, 0:8] = hi


# CHECK: region-value ok
# ERR: region-value-mismatch.py:9:9: error: the region has 4 elements, the stored region 8
