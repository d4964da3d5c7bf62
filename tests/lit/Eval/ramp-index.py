# T.Ramp(base, stride, lanes) as a buffer index (TVM's vector load and
# store, as testing/python/language/test_tilelang_language_parallel.py
# writes it): B[i, T.Ramp(j * 4, 1, 4)] = A[i, T.Ramp(j * 4, 1, 4)] copies 4
# consecutive elements; C[i, T.Ramp(j, 32, 2)] = A[i, T.Ramp(j * 2, 1, 2)]
# de-interleaves pairs (stride 32 on the stored side). The CPU target's
# outputs are checked against NumPy; no T.Ramp is left in the IR or the
# CUDA code (element loads and stores).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel=ramp_copy %s | FileCheck %s --check-prefix=TILE
# TILE-NOT: T.Ramp
# TILE-COUNT-4: tile.store
# TILE-NOT: tile.store
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA-NOT: Ramp
# CUDA: void __launch_bounds__
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 2 --save %t/out
# RUN: %python %S/Inputs/ramp_index_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: ramp_copy (8, 128) True
# REF: ramp_deinterleave (8, 64) True
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def ramp_copy(rows=8, cols=32, lanes=4, dtype=T.int8):

    @T.prim_func
    def main(A: T.Tensor((rows, cols * lanes), dtype), B: T.Tensor((rows, cols * lanes), dtype)):
        with T.Kernel(1, threads=128):
            for i, j in T.Parallel(rows, cols):
                B[i, T.Ramp(j * lanes, 1, lanes)] = A[i, T.Ramp(j * lanes, 1, lanes)]

    return main


@tilelang.jit(out_idx=[1])
def ramp_deinterleave(rows=8, cols=32, dtype=T.float32):

    @T.prim_func
    def main(A: T.Tensor((rows, cols * 2), dtype), C: T.Tensor((rows, cols * 2), dtype)):
        with T.Kernel(1, threads=128):
            for i, j in T.Parallel(rows, cols):
                C[i, T.Ramp(j, cols, 2)] = A[i, T.Ramp(j * 2, 1, 2)]

    return main


ramp_copy()
ramp_deinterleave()
