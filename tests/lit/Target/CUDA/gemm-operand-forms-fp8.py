# 8-bit float T.gemm operands stored K-outer (A [K, M], B [K, N]) on
# mma.sync.m16n8k32 (sm_89+): read byte by byte from the swizzled shared
# tiles (gemm-operand-forms.py has the int8 forms). CPU target against NumPy
# (float64, on the decoded inputs tlc-run saves), sim device against the CPU
# target; sm_80 refuses the fp8 gemm at -o, located at the T.gemm.
#
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=SM80
# SM80: gemm-operand-forms-fp8.py:[[# @LINE + 58]]:21: error: T.gemm() with fp8 operands requires a CUDA target with fp8 mma.sync atoms (SM89+): float8_e4m3fn multiplies with mma.sync.m16n8k32, which the target's sm_80 lacks
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK-LABEL: gemm_form_kernel(
# CHECK: aFrag[0][0] = tlc::cuda::packBytes(A_shared[
# CHECK: tlc::cuda::mmaM16N8K32E4M3F32(
# CHECK-LABEL: gemm_form_1_kernel(
# CHECK: tlc::cuda::ldmatrixX4(aFrag[0][0],
# CHECK: bFrag[0][0] = tlc::cuda::packBytes(B_shared[
# CHECK: tlc::cuda::mmaM16N8K32E5M2F32(
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: for k in gemm_form gemm_form_1; do tlc-run %t/cpu --kernel=$k --save %t/$k > /dev/null; done
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form 1 0 | FileCheck %s --check-prefix=NP1
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_1 0 0 | FileCheck %s --check-prefix=NP2
# NP1: gemm_form: ok
# NP2: gemm_form_1: ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ for k in gemm_form gemm_form_1; do tlc-run %t/sm90 --device sim --kernel=$k --verify --reference %t/cpu; done | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-2: verify C: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def gemm_form(M, N, K, trans_A, trans_B, in_dtype=T.float16, accum_dtype=T.float32, a_regs=False, b_regs=False,
              block_M=64, block_N=64, block_K=32):
    A_shape = (K, M) if trans_A else (M, K)
    B_shape = (N, K) if trans_B else (K, N)
    A_shared_shape = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shared_shape = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared(A_shared_shape, in_dtype)
            B_shared = T.alloc_shared(B_shared_shape, in_dtype)
            A_local = T.alloc_fragment(A_shared_shape, in_dtype)
            B_local = T.alloc_fragment(B_shared_shape, in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
                if trans_A:
                    T.copy(A[k * block_K, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                if a_regs:
                    T.copy(A_shared, A_local)
                    T.gemm(A_local, B_shared, C_local, trans_A, trans_B)
                elif b_regs:
                    T.copy(B_shared, B_local)
                    T.gemm(A_shared, B_local, C_local, trans_A, trans_B)
                else:
                    T.gemm(A_shared, B_shared, C_local, trans_A, trans_B)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


# gemm_form: e4m3, A [K, M], B [K, N].
gemm_form(64, 128, 128, True, False, T.float8_e4m3fn, T.float32, block_K=64)
# gemm_form_1: e5m2, A [M, K], B [K, N].
gemm_form(128, 64, 128, False, False, T.float8_e5m2, T.float32, block_K=64)
