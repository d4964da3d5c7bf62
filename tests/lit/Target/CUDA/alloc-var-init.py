# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# RUN: tlc-build --emit=hip --target=hip:gfx942 %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --verify --reference %t/cpu | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# A T.alloc_var with an initial value is a one-element array the value is
# stored into (`tmp[0] = 5;`, TileLang's form, which its
# test_tilelang_language_alloc.py looks for); a T.alloc_local array with
# one starts as {value, 0, ...}. The sim runs the CUDA code against the
# CPU target's (B = A + 3, then B[0] = 1 per block).
import tilelang
import tilelang.language as T


@tilelang.jit
def init_vars(N=256, block_N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "int32"), B: T.Tensor((N,), "int32")):
        with T.Kernel(T.ceildiv(N, block_N), threads=block_N) as bx:
            # CHECK: int32_t [[T0:tmp0[_0-9]*]][1];
            # CHECK-NEXT: [[T0]][0] = 1;
            tmp0 = T.alloc_var("int32", 1)
            # CHECK: int32_t [[T1:tmp1[_0-9]*]][1];
            # CHECK-NEXT: [[T1]][0] = 2;
            tmp1 = T.alloc_var("int32", 2)
            # CHECK: int32_t [[T2:tmp2[_0-9]*]][1];
            # CHECK-NOT: [[T2]][0] =
            # CHECK: T.Parallel
            tmp2 = T.alloc_var("int32")
            for i in T.Parallel(block_N):
                B[bx * block_N + i] = A[bx * block_N + i] + tmp0 + tmp1
            tmp2 = tmp0
            B[bx * block_N] = tmp2

    return main


init_vars()
