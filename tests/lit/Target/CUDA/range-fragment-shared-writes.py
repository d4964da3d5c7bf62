# RUN: tlc-build --check %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_80 %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=hip --target=hip:gfx942 %s 2>&1 | FileCheck %s
# RUN: rm -rf %t && not tlc-build --target=cpu -o %t/cpu %s 2>&1 | FileCheck %s
# A fragment two warpgroups each keep a copy of (tile-split-range-fragments:
# each warpgroup's gemm accumulates into it under its own thread range)
# written to memory every thread shares by a block-wide statement other
# than a whole-tile T.copy (which each copy stores its rows of): run once
# per copy, each copy would store the same elements, or add them once per
# copy. Building refuses it at the statement, for every target; the
# program is valid (--check is clean).
import tilelang
import tilelang.language as T


@tilelang.jit
def carry(A: T.Tensor((128, 64), "float16"), B: T.Tensor((64, 64), "float16"),
          C: T.Tensor((128, 64), "float32"), D: T.Tensor((128, 64), "float32")):
    with T.Kernel(1, threads=256) as _:
        tx = T.get_thread_binding()
        a_s = T.alloc_shared((128, 64), "float16")
        b_s = T.alloc_shared((64, 64), "float16")
        acc = T.alloc_fragment((128, 64), "float32")
        out = T.alloc_fragment((128, 64), "float32")
        T.clear(out)
        T.copy(A, a_s)
        T.copy(B, b_s)
        for k in T.serial(2):
            if tx // 128 == 0:
                T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
            if tx // 128 == 1:
                T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
            for i, j in T.Parallel(128, 64):
                out[i, j] += acc[i, j]
        # CHECK: range-fragment-shared-writes.py:[[@LINE+1]]:{{[0-9]+}}: error: this statement runs on every thread of the block and writes global or shared memory from a fragment that 2 thread ranges each hold their own copy of
        for i, j in T.Parallel(128, 64):
            C[i, j] = out[i, j]
        T.atomic_add(D, out)
