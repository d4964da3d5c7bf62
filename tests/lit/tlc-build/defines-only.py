# --defines-only (what the Python package runs) makes exactly the instance
# the -D bindings describe: a plain factory's call sites make none, in
# module-level code or in the test functions of a pytest-named file, so the
# package never gets the instance of some other call (an int32 call built
# as the float32 one a test called first).
# RUN: rm -rf %t && mkdir -p %t && cp %s %t/test_scaled_add.py
# RUN: tlc-build --target=cpu --kernel=scaled_add --defines-only -o %t/o -D M=256 "-D dtype='int32'" %t/test_scaled_add.py
# RUN: ls %t/o | FileCheck %s --check-prefix=FILES
# RUN: cat %t/o/scaled_add.json | FileCheck %s --check-prefix=INT
# Without --defines-only the call sites are instances as before.
# RUN: rm -rf %t/p && tlc-build --target=cpu --kernel=scaled_add -o %t/p %t/test_scaled_add.py
# RUN: ls %t/p | FileCheck %s --check-prefix=CALLS

# FILES: scaled_add.json
# FILES-NOT: scaled_add_1
# INT-NOT: float
# INT: "grid": [
# INT-NEXT: 2
# INT: "dtype": "int32"
# INT: "dtype": "int32"
# CALLS: scaled_add.json
# CALLS: scaled_add_1.json

import tilelang
import tilelang.language as T


def scaled_add(M, dtype):

    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, 128), threads=128) as bx:
            for i in T.Parallel(128):
                B[bx * 128 + i] = A[bx * 128 + i] + A[bx * 128 + i]

    return main


program = scaled_add(512, "float32")


def test_float16():
    kernel = tilelang.compile(scaled_add(1024, "float16"), out_idx=[1])
    assert kernel is not None
