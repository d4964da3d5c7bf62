# T.fma(x, y, z) is x * y + z rounded once to nearest and T.fmul(x, y) is
# x * y rounded to nearest, never fused into a later addition (newer
# TileLang's CUDA intrinsics, testing/python/cuda's fma / fmul test). The CPU
# target's results for float32, float64, float16 and bfloat16 are compared
# bit for bit with an exact oracle (Python fractions, rounded to the nearest
# value of the dtype, ties to even); the inputs make single and double
# rounding differ, so the check fails on a product rounded before the add.
# The CUDA code uses the round-to-nearest intrinsics (NVRTC compiles it) and
# gives the CPU target's bits on the sim device; integer or mixed-dtype
# operands are TileLang's TypeError and ValueError.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 5 --save %t/out
# RUN: %python %S/Inputs/fma_fmul_ref.py inputs64 %t/in64
# RUN: tlc-run %t/art --kernel fma_fmul_1 --inputs %t/in64 --save %t/out64
# RUN: %python %S/Inputs/fma_fmul_ref.py check %t/out %t/out64 | FileCheck %s --check-prefix=REF
# REF: fma_fmul float32 fma exact 4096 fused-differs {{[1-9][0-9]*}}
# REF: fma_fmul float32 fmul exact 4096
# REF: fma_fmul float64 fma exact 4096 fused-differs {{[1-9][0-9]*}}
# REF: fma_fmul float64 fmul exact 4096
# REF: fma_fmul float16 fma exact 4096 fused-differs {{[1-9][0-9]*}}
# REF: fma_fmul float16 fmul exact 4096
# REF: fma_fmul bfloat16 fma exact 4096 fused-differs {{[1-9][0-9]*}}
# REF: fma_fmul bfloat16 fmul exact 4096
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA-LABEL: void __launch_bounds__(128) fma_fmul_kernel(
# CUDA: __fmaf_rn(
# CUDA: __fmul_rn(
# CUDA-LABEL: void __launch_bounds__(128) fma_fmul_1_kernel(
# CUDA: __fma_rn(
# CUDA: __dmul_rn(
# CUDA-LABEL: void __launch_bounds__(128) fma_fmul_2_kernel(
# CUDA: __hfma(
# CUDA: __fmul_rn(
# CUDA-LABEL: void __launch_bounds__(128) fma_fmul_3_kernel(
# CUDA: __hfma(
# CUDA: __fmul_rn(
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=nvrtc -o %t/cu %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/art --seed 5 --rtol 0 --atol 0 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-8: PASS
# RUN: not tlc-build --check -D bad=1 --kernel=fma_fmul %s 2>&1 | FileCheck %s --check-prefix=ERR1
# RUN: not tlc-build --check -D bad=2 --kernel=fma_fmul %s 2>&1 | FileCheck %s --check-prefix=ERR2
# RUN: not tlc-build --check -D bad=3 --kernel=fma_fmul %s 2>&1 | FileCheck %s --check-prefix=ERR3
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def fma_fmul(N=4096, dtype="float32", bad=0):

    @T.prim_func
    def main(
        A: T.Tensor((N,), dtype),
        B: T.Tensor((N,), dtype),
        C: T.Tensor((N,), dtype),
        F: T.Tensor((N,), dtype),
        P: T.Tensor((N,), dtype),
    ):
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i in T.Parallel(128):
                g = bx * 128 + i
                if bad == 0:
                    F[g] = T.fma(A[g], B[g], C[g])
                    P[g] = T.fmul(A[g], B[g])
                elif bad == 1:
                    # ERR1: :[[@LINE+1]]:46: error: TypeError: T.fma only supports floating-point inputs, got int32
                    F[g] = T.fma(A[g], B[g], T.int32(g))
                elif bad == 2:
                    # ERR2: :[[@LINE+1]]:41: error: ValueError: T.fmul requires operands of the same dtype, got float32 and float16
                    P[g] = T.fmul(A[g], T.float16(B[g]))
                else:
                    # ERR3: :[[@LINE+1]]:40: error: ValueError: T.fma requires operands of the same dtype, got float32 and float64
                    F[g] = T.fma(A[g], T.float64(B[g]), C[g])

    return main


def main():
    for dtype in ["float32", "float64", "float16", "bfloat16"]:
        fma_fmul(dtype=dtype)


if __name__ == "__main__":
    main()
