# A shared T.gemm operand region must start on a 16-byte boundary on CUDA:
# ldmatrix takes 16-byte aligned row addresses and a wgmma descriptor holds
# the start address in 16-byte units. A K offset of 4 f16 elements (8 bytes)
# built before and trapped on the sim device ("ldmatrix row address is not
# 16-byte aligned"), a misaligned-address fault on a GPU; it is now an
# error at the gemm when building for CUDA with TileLang's words ("which is
# never a multiple of 16", a ValueError when TileLang lowers it: its
# testing/python/kernel operand-alignment test matches them). --check says nothing: the program is valid TileLang, and the
# CPU target builds it. Offsets of 8 elements build and agree with NumPy.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --allow-empty --check-prefix=VALID
# VALID-NOT: error
# RUN: not tlc-build --kernel=sliced --target=cuda:sm_80 --cuda-compiler=none -D a_off=4 -o %t/a4 %s 2>&1 | FileCheck %s --check-prefix=A4
# A4: gemm-operand-alignment.py:[[# @LINE + 62]]:13: error: T.gemm() operand A region of 'A_shared' starts at byte offset 8 of its shared tile, which is never a multiple of 16; ldmatrix needs 16-byte aligned rows (start the region at a multiple of 8 elements)
# A4: note: TileLang raises this as ValueError when it lowers the kernel
# RUN: not tlc-build --kernel=sliced --target=cuda:sm_90a --cuda-compiler=none -D b_off=4 -o %t/b4 %s 2>&1 | FileCheck %s --check-prefix=B4
# B4: error: T.gemm() operand B region of 'B_shared' starts at byte offset 8 of its shared tile, which is never a multiple of 16; ldmatrix
# RUN: tlc-build --kernel=sliced --target=cpu -D a_off=4 -o %t/cpu4 %s > /dev/null
# RUN: tlc-run %t/cpu4 --save %t/cpu4-out > /dev/null
# RUN: %python %S/Inputs/gemm_operand_alignment_check.py %t/cpu4-out 4 0 | FileCheck %s --check-prefix=CPU4
# CPU4: gemm region 4 0 ok
# RUN: %if sim-compiler %{ tlc-build --kernel=sliced --target=cuda:sm_80 --cuda-compiler=none -D a_off=8 -D b_off=8 -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --save %t/sm80-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/gemm_operand_alignment_check.py %t/sm80-out 8 8 | FileCheck %s --check-prefix=SIM8 %}
# SIM8: gemm region 8 8 ok
#
# Dynamic offsets (issue 13/17): `A_shared[:, ko * step:...]` in a loop is
# accepted when the offset's divisors prove it a multiple of 8 f16 (step
# 32) and refused otherwise (step 4: ko odd starts 8 bytes off; TileLang
# builds it, and ko = 1 faults or, through a wgmma descriptor, reads the
# wrong slice), at the gemm, without TileLang's ValueError note. An offset
# of a scalar parameter that is never aligned (`(sel % 2) * 2 + 2`: 4 or 8
# bytes; Python's % is a floor modulo in [0, 2)) is TileLang's refusal. HIP reads such an operand element by element
# (its ds_read_b64/_b128 are only for operands spanning whole rows) and
# agrees with NumPy either way.
# RUN: not tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel=dynamic_k -D step=4 -o %t/d4 %s 2>&1 | FileCheck %s --check-prefix=D4
# D4: gemm-operand-alignment.py:[[# @LINE + 62]]:17: error: T.gemm() operand A region of 'A_shared' starts at byte offsets in [0, 24] of its shared tile, which is not always a multiple of 16; ldmatrix needs 16-byte aligned rows (start the region at a multiple of 8 elements)
# D4-NOT: note: TileLang raises
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel=dynamic_k -D step=4 -o %t/d4h %s 2>&1 | FileCheck %s --check-prefix=D4H
# D4H: error: T.gemm() operand A region of 'A_shared' starts at byte offsets in [0, 24] of its shared tile, which is not always a multiple of 16
# RUN: not tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel=selected -o %t/sel %s 2>&1 | FileCheck %s --check-prefix=SEL
# SEL: error: T.gemm() operand A region of 'A_shared' starts at byte offsets in [4, 8] of its shared tile, which is never a multiple of 16
# SEL: note: TileLang raises this as ValueError when it lowers the kernel
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --allow-empty --check-prefix=VALID
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel=dynamic_k -D step=32 -o %t/d32 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/d32 --device sim --save %t/d32-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/gemm_operand_alignment_check.py %t/d32-out dynamic 32 | FileCheck %s --check-prefix=DYN32 %}
# DYN32: gemm dynamic 32 ok
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 --kernel=dynamic_k -D step=4 -o %t/hip4 %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip4 --device sim --save %t/hip4-out > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/gemm_operand_alignment_check.py %t/hip4-out dynamic 4 | FileCheck %s --check-prefix=DYN4 %}
# DYN4: gemm dynamic 4 ok
import tilelang
import tilelang.language as T

M, N, K = 64, 32, 32
KS = K // 2


@tilelang.jit
def sliced(a_off=0, b_off=0):

    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((KS, 2 * N), T.float16),
        C: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, K), T.float16)
            B_shared = T.alloc_shared((KS, 2 * N), T.float16)
            C_local = T.alloc_fragment((M, N), T.float32)
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.clear(C_local)
            T.gemm(A_shared[:, a_off:a_off + KS], B_shared[:, b_off:b_off + N], C_local)
            T.copy(C_local, C)

    return main


@tilelang.jit
def dynamic_k(step=32):

    @T.prim_func
    def main(
        A: T.Tensor((M, 4 * K), T.float16),
        B: T.Tensor((4 * K, N), T.float16),
        C: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, 4 * K), T.float16)
            B_shared = T.alloc_shared((4 * K, N), T.float16)
            C_local = T.alloc_fragment((M, N), T.float32)
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.clear(C_local)
            for ko in T.serial(4):
                T.gemm(A_shared[:, ko * step:ko * step + K],
                       B_shared[ko * K:ko * K + K, :], C_local)
            T.copy(C_local, C)

    return main


@tilelang.jit
def selected():

    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((KS, N), T.float16),
        C: T.Tensor((M, N), T.float32),
        sel: T.int32,
    ):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, K), T.float16)
            B_shared = T.alloc_shared((KS, N), T.float16)
            C_local = T.alloc_fragment((M, N), T.float32)
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            off = (sel % 2) * 2 + 2
            T.gemm(A_shared[:, off:off + KS], B_shared, C_local, clear_accum=True)
            T.copy(C_local, C)

    return main
