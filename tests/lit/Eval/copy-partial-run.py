# T.copy between regions of one rank and different extents loops over the
# shared buffer (TileLang's loop region) and copies that part of the larger
# global region: rows 0-15 of A into S, S into rows 16-31 of B, rows 32-47 of
# A into S, S into rows 0-15 of B. Run on the CPU target and compared with
# Python.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py partial-copy tlc-run %t/art %t | FileCheck %s
import tilelang
import tilelang.language as T


@T.prim_func
def partial(A: T.Tensor((64, 32), T.float32), B: T.Tensor((32, 32), T.float32)):
    with T.Kernel(1, threads=32):
        S = T.alloc_shared((16, 32), T.float32)
        T.copy(A, S)
        T.copy(S, B[16:32, :])
        T.copy(A[32:64, :], S)
        T.copy(S, B)


# CHECK: partial-copy ok
