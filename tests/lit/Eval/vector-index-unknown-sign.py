# A vector index whose lanes' sign is known only at run time: each lane
# below zero counts from the end of its dimension, as TileLang's
# LegalizeNegativeIndex does since its issue 2554 (upstream
# test_tilelang_issue_2554.py: A[T.Ramp(t - 2, 1, 4)] for t in 0..3 reads
# A[1022], A[1023], A[0], A[1] first; a store through the same index
# writes there). Before, such lanes read and wrote out of bounds. The CPU
# target's outputs are checked against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s > /dev/null
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art/load_unknown_sign.json --seed 1 --save %t/load
# RUN: tlc-run %t/art/store_unknown_sign.json --seed 2 --save %t/store
# RUN: %python %S/Inputs/vector_index_unknown_sign_ref.py %t/load %t/store | FileCheck %s
# CHECK: load_unknown_sign True
# CHECK: store_unknown_sign True
import tilelang
import tilelang.language as T


@tilelang.jit
def load_unknown_sign(n=1024):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((4, 4), T.float32)):
        with T.Kernel(1, threads=1):
            for t in T.serial(4):
                B[t, T.Ramp(0, 1, 4)] = A[T.Ramp(t - 2, 1, 4)]

    return main


@tilelang.jit
def store_unknown_sign(n=1024):

    @T.prim_func
    def main(B: T.Tensor((4, 4), T.float32), A: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                A[i] = T.float32(-1)
            for t in T.serial(4):
                A[T.Ramp(t - 2, 1, 4)] = B[t, T.Ramp(0, 1, 4)]

    return main


load_unknown_sign()
store_unknown_sign()
