# T.cast(x, "float16" | "bfloat16", round="rs", rbits=r) is valid TileLang
# (sm_100a's cvt.rs.satfinite.f16x2.f32 / .bf16x2.f32): --check reports
# nothing (it was a false error), the hints keep the tiles' dtypes, the
# CPU target builds it (cast-stochastic-rounding.py checks its values
# against NumPy), sm_100a prints the conversions and sm_90a, which has
# none, refuses it at the cast (it was refused for every target). The
# random bits may be a loop variable's sum (an index value).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# CHECK-DAG: "name":"H_local","kind":"buffer","shape":[128],"dtype":"float16","scope":"local.fragment"
# CHECK-DAG: "name":"G_local","kind":"buffer","shape":[128],"dtype":"bfloat16","scope":"local.fragment"
# RUN: rm -rf %t && tlc-build --target=cpu -o %t %s > /dev/null
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda %s | FileCheck %s --check-prefix=SM100
# SM100: cvt.rs.satfinite.f16x2.f32
# SM100: cvt.rs.satfinite.bf16x2.f32
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=SM90
# SM90: cast-stochastic-rounding-half.py:[[# @LINE + 17]]:{{[0-9]+}}: error: T.cast_rs: stochastic rounding (cvt.rs) needs sm_100a or sm_103a; the CUDA target builds for sm_90
import tilelang
import tilelang.language as T


@tilelang.jit
def rs_half(M=128):

    @T.prim_func
    def main(A: T.Tensor((M,), T.float32), H: T.Tensor((M,), T.float16),
             G: T.Tensor((M,), T.bfloat16)):
        with T.Kernel(1, threads=128):
            A_local = T.alloc_fragment((M,), T.float32)
            H_local = T.alloc_fragment((M,), T.float16)
            G_local = T.alloc_fragment((M,), T.bfloat16)
            T.copy(A, A_local)
            for i in T.Parallel(M):
                H_local[i] = T.cast(A_local[i], T.float16, round="rs", rbits=0x1357 + i)
                G_local[i] = T.cast(A_local[i], T.bfloat16, round="rs", rbits=0x2468 + i)
            T.copy(H_local, H)
            T.copy(G_local, G)

    return main


rs_half()
