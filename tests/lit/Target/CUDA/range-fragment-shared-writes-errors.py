# RUN: tlc-build --check %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_80 %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=hip --target=hip:gfx942 %s 2>&1 | FileCheck %s
# RUN: rm -rf %t && not tlc-build --target=cpu -o %t/cpu %s 2>&1 | FileCheck %s
# A fragment two warpgroups each keep a copy of (tile-split-range-fragments)
# written to memory every thread shares by a block-wide statement that no
# split by rows fits (range-fragment-shared-writes.py has those that do):
# a T.Parallel that reads the copy's rows at an index other than one loop
# variable, and one that also writes the copy. Run once per copy, each copy
# would store the same elements: building refuses the statement, for every
# target; the programs are valid (--check is clean).
import tilelang
import tilelang.language as T


def gemms(tx, a_s, b_s, acc):
    if tx // 128 == 0:
        T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
    if tx // 128 == 1:
        T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)


@tilelang.jit
def reversed_rows(A: T.Tensor((128, 64), "float16"), B: T.Tensor((64, 64), "float16"),
                  C: T.Tensor((128, 64), "float32")):
    with T.Kernel(1, threads=256) as _:
        tx = T.get_thread_binding()
        a_s = T.alloc_shared((128, 64), "float16")
        b_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((128, 64), "float32")
        T.copy(A, a_s)
        T.copy(B, b_s)
        gemms(tx, a_s, b_s, acc)
        # CHECK-DAG: range-fragment-shared-writes-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: this statement runs on every thread of the block and writes global or shared memory from a fragment that 2 thread ranges each hold their own copy of
        for i, j in T.Parallel(128, 64):
            C[i, j] = acc[127 - i, j]


@tilelang.jit
def writes_copy(A: T.Tensor((128, 64), "float16"), B: T.Tensor((64, 64), "float16"),
                C: T.Tensor((128, 64), "float32")):
    with T.Kernel(1, threads=256) as _:
        tx = T.get_thread_binding()
        a_s = T.alloc_shared((128, 64), "float16")
        b_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((128, 64), "float32")
        T.copy(A, a_s)
        T.copy(B, b_s)
        gemms(tx, a_s, b_s, acc)
        # CHECK-DAG: range-fragment-shared-writes-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: this statement runs on every thread of the block
        for i, j in T.Parallel(128, 64):
            acc[i, j] = acc[i, j] * 2.0
            C[i, j] = acc[i, j]
