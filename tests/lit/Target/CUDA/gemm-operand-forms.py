# The T.gemm operand forms of TileLang's kernel/test_tilelang_kernel_gemm.py
# that the mma.sync printer lacked: B in registers (gemm_sr, B stored
# [N, K] or [K, N]), A in registers stored [K, M] (gemm_rs with
# transpose_A), 8-bit operands stored [K, M] / [K, N], which ldmatrix
# cannot transpose (byte quadruples read element by element), and 8-bit
# register operands. Each kernel runs on the CPU target against NumPy
# (float64) and on the sim device against the CPU target; sm_90a keeps
# these gemms on mma.sync.
#
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=SM90
# CHECK-LABEL: gemm_form_kernel(
# CHECK: bFrag[0][0] = tlc::cuda::packPair(&B_local[
# CHECK: tlc::cuda::mmaM16N8K16<tlc::cuda::half>(
# CHECK-LABEL: gemm_form_1_kernel(
# CHECK: bFrag[0][1] = tlc::cuda::packPair(&B_local[
# CHECK-LABEL: gemm_form_2_kernel(
# CHECK: aFrag[0][0] = tlc::cuda::packPair(&A_local[
# CHECK: tlc::cuda::ldmatrixX4Trans(bFrag[0][0],
# Byte j of register q = 2 of A: (k, m) = (4 t + 16 + j, g), t = lane % 4.
# CHECK-LABEL: gemm_form_3_kernel(
# CHECK-NOT: ldmatrix
# CHECK: aFrag[0][2] = tlc::cuda::packBytes(A_shared[tlc::cuda::swizzledIndex<4, 16>((lane % 4) * 4 + 16, wm * 32 + lane / 4 + 0)], A_shared[{{.*}}((lane % 4) * 4 + 17,
# CHECK: bFrag[0][1] = tlc::cuda::packBytes(B_shared[{{.*}}((lane % 4) * 4 + 16, wn * 32 + lane / 4 + 0)]
# CHECK: tlc::cuda::mmaM16N8K32S8S32(
# CHECK-LABEL: gemm_form_4_kernel(
# CHECK: tlc::cuda::ldmatrixX4(aFrag[0][0],
# CHECK: bFrag[0][0] = tlc::cuda::packBytes(B_shared[
# CHECK-LABEL: gemm_form_5_kernel(
# CHECK: bFrag[0][0] = B_local[
# CHECK: tlc::cuda::mmaM16N8K4F64(
# An int8 register operand: four consecutive registers per mma register.
# CHECK-LABEL: gemm_form_6_kernel(
# CHECK: aFrag[0][0] = tlc::cuda::packBytes(A_local{{\[}}[[R:[0-9 *+]+]]], A_local{{\[}}[[R]] + 1], A_local{{\[}}[[R]] + 2], A_local{{\[}}[[R]] + 3]);
# CHECK-LABEL: gemm_form_7_kernel(
# CHECK: bFrag[0][0] = tlc::cuda::packBytes(B_local[
# SM90-NOT: wgmma
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: for k in gemm_form gemm_form_1 gemm_form_2 gemm_form_3 gemm_form_4 gemm_form_5 gemm_form_6 gemm_form_7; do tlc-run %t/cpu --kernel=$k --save %t/$k > /dev/null; done
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form 0 1 | FileCheck %s --check-prefix=NP1
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_1 0 0 | FileCheck %s --check-prefix=NP2
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_2 1 0 | FileCheck %s --check-prefix=NP3
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_3 1 0 | FileCheck %s --check-prefix=NP4
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_4 0 0 | FileCheck %s --check-prefix=NP5
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_5 0 1 | FileCheck %s --check-prefix=NP6
# NP1: gemm_form: ok
# NP2: gemm_form_1: ok
# NP3: gemm_form_2: ok
# NP4: gemm_form_3: ok
# NP5: gemm_form_4: ok
# NP6: gemm_form_5: ok
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_6 0 1 | FileCheck %s --check-prefix=NP7
# RUN: %python %S/Inputs/gemm_forms_check.py %t/gemm_form_7 1 0 | FileCheck %s --check-prefix=NP8
# NP7: gemm_form_6: ok
# NP8: gemm_form_7: ok
#
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ for k in gemm_form gemm_form_1 gemm_form_2 gemm_form_3 gemm_form_4 gemm_form_5 gemm_form_6 gemm_form_7; do tlc-run %t/sm80 --device sim --kernel=$k --verify --reference %t/cpu; done | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ for k in gemm_form gemm_form_2 gemm_form_3 gemm_form_6; do tlc-run %t/sm90 --device sim --kernel=$k --verify --reference %t/cpu; done | FileCheck %s --check-prefix=SIM90 %}
# SIM-COUNT-8: verify C: PASS
# SIM-NOT: FAIL
# SIM90-COUNT-4: verify C: PASS
# SIM90-NOT: FAIL
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


# gemm_form: gemm_sr, B [N, K] (test_gemm_f16f16f16_sr's form).
gemm_form(128, 64, 64, False, True, b_regs=True)
# gemm_form_1: gemm_sr, B [K, N].
gemm_form(64, 128, 64, False, False, b_regs=True)
# gemm_form_2: gemm_rs, A [K, M] (test_gemm_f16f16f16_rs's form).
gemm_form(128, 64, 64, True, False, a_regs=True)
# gemm_form_3: int8, A [K, M], B [K, N] (test_gemm_i8i8i32_tn's form).
gemm_form(64, 128, 128, True, False, T.int8, T.int32, block_K=64)
# gemm_form_4: int8, A [M, K], B [K, N].
gemm_form(128, 64, 128, False, False, T.int8, T.int32, block_K=64)
# gemm_form_5: float64 gemm_sr, B [N, K].
gemm_form(64, 64, 32, False, True, T.float64, T.float64, b_regs=True, block_K=16)
# gemm_form_6: int8 gemm_rs, A [M, K], B [N, K].
gemm_form(128, 64, 128, False, True, T.int8, T.int32, a_regs=True, block_K=64)
# gemm_form_7: int8 gemm_sr, A [K, M], B [K, N] in registers.
gemm_form(64, 64, 128, True, False, T.int8, T.int32, b_regs=True, block_K=64)
