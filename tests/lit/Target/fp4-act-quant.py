# Block-wise fp4 activation quantisation in the style of DeepSeek-V4's
# act_quant: bf16 rows, the absolute maximum of each 32-wide group, a
# power-of-two scale (2^ceil(log2(amax / 6))) and x / scale rounded to
# float4_e2m1fn through a fragment and a shared tile into global memory.
# The CPU build is checked against NumPy (fp4_act_quant_ref.py); the
# cuda:sm_90a build runs on the sim device and must give the same bits.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/fp4_act_quant_ref.py tlc-run %t/cpu/act_quant.json %t/w | FileCheck %s --check-prefix=REF
# REF: act_quant: ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify quant: PASS rel_err=0.000e+00 max_abs_err=0.000e+00
# SIM: verify scale: PASS rel_err=0.000e+00 max_abs_err=0.000e+00
# SIM-NOT: FAIL

import tilelang
import tilelang.language as T


def pow2_ceil_scale(amax, inv_max):
    bits = T.reinterpret(amax * inv_max, "uint32")
    exp = T.Cast("int32", ((bits >> 23) & 0xFF) - 127 +
                 T.if_then_else((bits & ((1 << 23) - 1)) != 0, 1, 0))
    return T.reinterpret((exp + 127) << 23, "float32")


@tilelang.jit
def act_quant(M=128, N=256, group=32, blk_m=32):

    @T.prim_func
    def main(x: T.Tensor((M, N), T.bfloat16),
             quant: T.Tensor((M, N), T.float4_e2m1fn),
             scale: T.Tensor((M, N // group), T.float32)):
        with T.Kernel(T.ceildiv(M, blk_m), N // group, threads=128) as (bx, by):
            x_shared = T.alloc_shared((blk_m, group), T.bfloat16)
            x_local = T.alloc_fragment((blk_m, group), T.bfloat16)
            amax = T.alloc_fragment((blk_m,), T.float32)
            s = T.alloc_fragment((blk_m,), T.float32)
            y_local = T.alloc_fragment((blk_m, group), T.float4_e2m1fn)
            y_shared = T.alloc_shared((blk_m, group), T.float4_e2m1fn)
            T.copy(x[bx * blk_m, by * group], x_shared)
            T.copy(x_shared, x_local)
            T.reduce_absmax(x_local, amax, dim=1)
            for i in T.Parallel(blk_m):
                amax[i] = T.max(amax[i], 6 * (2**-126))
                s[i] = pow2_ceil_scale(amax[i], 1.0 / 6.0)
            for i, j in T.Parallel(blk_m, group):
                y_local[i, j] = T.clamp(x_local[i, j] / s[i], -6.0, 6.0)
            for i in T.Parallel(blk_m):
                scale[bx * blk_m + i, by] = s[i]
            T.copy(y_local, y_shared)
            T.copy(y_shared, quant[bx * blk_m, by * group])

    return main


act_quant()
