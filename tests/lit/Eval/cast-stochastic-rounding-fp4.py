# T.cast(x, "float4_e2m1fn", round="rs", rbits=r) is valid TileLang
# (sm_100a's cvt.rs.satfinite.e2m1x4.f32): --check reports nothing and
# the hints keep the fp4 tile; the CPU target builds it
# (cast-stochastic-rounding.py checks its values against NumPy), sm_100a
# prints the conversion with the value in the lowest lane, sm_80 refuses
# it at the cast. It was a --check error, a false one on a valid program,
# then refused for every target. (cast-stochastic-rounding-errors.py: the
# formats that stay errors, such as float32.)
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# CHECK: "name":"B_local","kind":"buffer","shape":[256],"dtype":"float4_e2m1fn","scope":"local.fragment"
# RUN: rm -rf %t && tlc-build --target=cpu -o %t %s > /dev/null
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda %s | FileCheck %s --check-prefix=SM100
# SM100: asm("cvt.rs.satfinite.e2m1x4.f32 %0, {%1, %1, %1, %2}, %3;"
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=SM80
# SM80: cast-stochastic-rounding-fp4.py:[[# @LINE + 17]]:{{[0-9]+}}: error: T.cast_rs: stochastic rounding (cvt.rs) needs sm_100a or sm_103a; the CUDA target builds for sm_80
import tilelang
import tilelang.language as T


@tilelang.jit
def rs_fp4(M=256):

    @T.prim_func
    def main(A: T.Tensor((M,), T.float32), B: T.Tensor((M,), T.float4_e2m1fn)):
        with T.Kernel(1, threads=128):
            A_local = T.alloc_fragment((M,), T.float32)
            B_local = T.alloc_fragment((M,), T.float4_e2m1fn)
            seed = T.alloc_fragment((1,), T.int32)
            T.copy(A, A_local)
            seed[0] = T.int32(0x2468ACE)
            for i in T.Parallel(M):
                B_local[i] = T.cast(A_local[i], T.float4_e2m1fn, round="rs", rbits=seed[0] + i)
            T.copy(B_local, B)

    return main


rs_fp4()
