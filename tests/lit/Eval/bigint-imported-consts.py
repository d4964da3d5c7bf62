# uint64 constants (beyond the signed 64-bit range) made by a module that a
# helper module imports reach the script's kernel with their bit patterns;
# the helper's own kernel factory, called from here, checks clean too.
# RUN: rm -rf %t && mkdir -p %t && cp -r %S/Inputs/bigint_modules/. %t/
# RUN: cp %s %t/main.py
# RUN: tlc-build --check %t/main.py 2>&1 | count 0
# RUN: tlc-build --emit=tile %t/main.py | FileCheck %s
import tilelang.language as T
import hashing
from masks import GOLDEN

kernel = hashing.mix(256)
assert hashing.SHIFTED == (GOLDEN * 2) % 2**64


@T.prim_func
def main(A: T.Tensor((4,), T.uint64)):
    with T.Kernel(1, threads=1):
        A[0] = A[1] ^ hashing.SHIFTED
        A[2] = T.uint64(GOLDEN)


# 0x9E3779B97F4A7C15 * 2 mod 2**64 and 0x9E3779B97F4A7C15, as signed i64.
# CHECK-LABEL: tile.func @main
# CHECK: arith.constant 4354685564936845354 : i64
# CHECK: arith.xori
# CHECK: arith.constant -7046029254386353131 : i64
