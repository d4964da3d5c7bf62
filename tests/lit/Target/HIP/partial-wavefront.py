# A block of 32 threads on a wavefront of 64 (test_tilelang_issue_1719.py
# on hip:gfx942): the wavefront's EXEC holds lanes 0..31 only. A row
# reduction over the block's threads shuffles among those lanes and runs
# on sim against NumPy (the sim's HIP shuffles waited for all 64 lanes, a
# deadlock); a T.gemm, whose MFMA needs the whole wavefront, is refused
# at the gemm when building for HIP (the CUDA build of it is fine).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=hip:gfx942 --emit=hip --kernel=row_sums %s | FileCheck %s
# CHECK: __launch_bounds__(32)
# CHECK: tlc::hip::shuffleXor(part[k], 16);
# CHECK-NOT: shuffleXor(part[k], 32)
# RUN: not tlc-build --target=hip:gfx942 --kernel=half_wave_gemm -o %t/gemm %s 2>&1 | FileCheck %s --check-prefix=GEMM
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel=half_wave_gemm %s > /dev/null
#
# REQUIRES: sim-compiler
# RUN: tlc-build --target=hip:gfx942 --cuda-compiler=none --kernel=row_sums -o %t/hip %s > /dev/null
# RUN: tlc-run %t/hip --device sim --save %t/out/row_sums > /dev/null
# RUN: %python %S/Inputs/row_sums_check.py %t/out/row_sums | FileCheck %s --check-prefix=OUT
# OUT: True

import tilelang
import tilelang.language as T


@tilelang.jit
def row_sums(M=2, N=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=32):
            a = T.alloc_fragment((M, N), "float32")
            s = T.alloc_fragment((M,), "float32")
            T.copy(A, a)
            T.reduce_sum(a, s, dim=1)
            T.copy(s, B)

    return main


@tilelang.jit
def half_wave_gemm():
    @T.prim_func
    def main(A: T.Tensor((32, 32), "float16"), B: T.Tensor((32, 32), "float16"),
             C: T.Tensor((32, 32), "float32")):
        with T.Kernel(1, threads=32):
            a = T.alloc_shared((32, 32), "float16")
            b = T.alloc_shared((32, 32), "float16")
            acc = T.alloc_fragment((32, 32), "float32")
            T.copy(A, a)
            T.copy(B, b)
            # GEMM: partial-wavefront.py:[[@LINE+1]]:13: error: cannot lay out operand C ('acc') of this gemm: gemm needs a whole number of 64-thread warps, got 32 threads (MFMA runs on whole 64-lane wavefronts)
            T.gemm(a, b, acc, transpose_B=True, clear_accum=True)
            T.copy(acc, C)

    return main


row_sums()
half_wave_gemm()
