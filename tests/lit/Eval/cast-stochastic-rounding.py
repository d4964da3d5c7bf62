# T.cast(x, dtype, round="rs", rbits=r): stochastic rounding to
# float8_e4m3fn / float8_e5m2 (was: a warning, and rounding to nearest),
# float16, bfloat16 and float4_e2m1fn (issue 13, corpus44 G9 / F4: were
# refused when building). PTX's cvt.rs adds n random bits to the n bits of
# the gap the conversion drops and rounds away from zero on a carry: |x|
# lies between two values lo <= |x| < hi of the format; the gap's
# fraction (|x| - lo) / (hi - lo), truncated to n bits, plus n low bits of
# r rounds up when it carries out of n bits (n = 16 for float8 and
# bfloat16, 13 for float16, 8 for e2m1); |x| beyond the largest finite
# value saturates to it. The CPU target runs the reference of that rule;
# Inputs/cast_stochastic_ref.py checks every element against an
# independent NumPy model (the format's values tabulated from their bit
# fields, in float64), with random bits all over [0, 2^17) and values
# across the formats' ranges, subnormals and saturation included; the
# results must also differ from rounding to nearest somewhere. The CUDA
# target prints sm_100a's `cvt.rs.satfinite.{e4m3,e5m2,e2m1}x4.f32` and
# `cvt.rs.satfinite.{f16,bf16}x2.f32`, the value in the lane the low
# random bits serve (cast-stochastic-rounding-nvcc.test assembles them
# with ptxas); cast-stochastic-rounding-errors.py has the refusals.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --fill 'A=normal(0,40)' --fill 'R=randint(0,131072)' --seed 11 --save %t/out > /dev/null
# RUN: %python %S/Inputs/cast_stochastic_ref.py %t/out | FileCheck %s
# RUN: tlc-run %t/cpu --fill 'A=normal(0,0.01)' --fill 'R=randint(0,131072)' --seed 12 --save %t/small > /dev/null
# RUN: %python %S/Inputs/cast_stochastic_ref.py %t/small | FileCheck %s
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: e4m3 PASS
# CHECK: e5m2 PASS
# CHECK: f16 PASS
# CHECK: bf16 PASS
# CHECK: e2m1 PASS
# CHECK-NOT: FAIL
# CUDA: cvt.rs.satfinite.e4m3x4.f32
# CUDA: cvt.rs.satfinite.e5m2x4.f32
# CUDA: asm("cvt.rs.satfinite.f16x2.f32 %0, %1, %2, %3;" : "=r"([[H:rs[_0-9]*]]) : "f"(0.0f), "f"((float)({{.*}})), "r"((uint32_t)({{.*}}) & 0x1FFFu));
# CUDA: __ushort_as_half((unsigned short)([[H]] & 0xFFFFu))
# CUDA: asm("cvt.rs.satfinite.bf16x2.f32 %0, %1, %2, %3;" : "=r"([[G:rs[_0-9]*]]) : "f"(0.0f), "f"((float)({{.*}})), "r"((uint32_t)({{.*}}) & 0xFFFFu));
# CUDA: __ushort_as_bfloat16((unsigned short)([[G]] & 0xFFFFu))
# CUDA: asm("cvt.rs.satfinite.e2m1x4.f32 %0, {%1, %1, %1, %2}, %3;" : "=h"([[F:rs[_0-9]*]])
# CUDA: (uint8_t)([[F]] & 0xFu)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3, 4, 5, 6])
def stochastic(N=4096, block=256):

    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), R: T.Tensor((N,), T.int32),
             E4: T.Tensor((N,), T.float32), E5: T.Tensor((N,), T.float32),
             H: T.Tensor((N,), T.float32), G: T.Tensor((N,), T.float32),
             F: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
            for i in T.Parallel(block):
                x = A[bx * block + i]
                r = R[bx * block + i]
                E4[bx * block + i] = T.cast(T.cast(x, T.float8_e4m3fn, round="rs", rbits=r), T.float32)
                E5[bx * block + i] = T.cast(T.cast(x, T.float8_e5m2, round="rs", rbits=r), T.float32)
                H[bx * block + i] = T.cast(T.cast(x, T.float16, round="rs", rbits=r), T.float32)
                G[bx * block + i] = T.cast(T.cast(x, T.bfloat16, round="rs", rbits=r), T.float32)
                F[bx * block + i] = T.cast(T.cast(x, T.float4_e2m1fn, round="rs", rbits=r), T.float32)

    return main


stochastic()
