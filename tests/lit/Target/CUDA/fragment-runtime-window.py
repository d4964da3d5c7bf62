# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python %S/Inputs/fragment_runtime_window_check.py %t/out | FileCheck %s --check-prefix=REF
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 3 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --seed 3 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: sed 's/T.serial(8)/T.serial(13)/' %s > %t/past.py
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %t/past.py 2>&1 | FileCheck %s --check-prefix=PAST
#
# A T.copy of part of a fragment at a run-time offset, as the persistent
# Blackwell GEMM (gemm_tcgen5mma_ws_persistent) stores its accumulator in
# column panels, `T.copy(C_local[:, i * 64 : (i + 1) * 64], C_shared)` in
# a T.unroll loop: every thread visits its registers and skips those
# outside the window, whose bounds are the loop's expression; memory is
# indexed relative to it. A window whose offset is a known multiple of the
# vector (i * 16) keeps vector stores; one that is not (s * 5 + 1) goes
# element by element. Both directions (fragment -> shared, global ->
# fragment, fragment -> global). The CPU target against NumPy at ragged
# sizes (100 x 120), the CUDA code (sm_80, sm_90a) against the CPU build on
# the sim device; the HIP code shares the printer and is checked as text.
#
# REF: C ok
# REF-NEXT: D ok
# SIM: verify C: PASS
# SIM: verify D: PASS
# SIM-NOT: FAIL
# A window the loop moves past the fragment (13 strips of 5 in 64 columns):
# PAST: past.py:[[# @LINE + 34]]:13: error: this part of the fragment starts at 1..61 in dimension 1, so it can reach past the fragment's extent 64
#
# CHECK-LABEL: column_panels_kernel(
# CHECK: const int [[OFF:t_[0-9]+]] = ([[I:i]] * 16);
# CHECK: if ([[COL:i1_[0-9]+]] < ([[OFF]]) || [[COL]] >= ([[OFF]]) + 16) continue;  // outside the copied part
# CHECK: copyVector<8>(&C_shared[{{.*}}([[COL]] - ([[OFF]])){{.*}}], packed);
# CHECK: if (([[C2:i1_[0-9]+]] + [[E:e_[0-9]+]]) < ([[OFF2:t_[0-9]+]]) || ([[C2]] + [[E]]) >= ([[OFF2]]) + 5) continue;  // outside the copied part
# CHECK: back[{{.*}}] = {{.*}}(([[C2]] - ([[OFF2]])) + [[E]])
# CHECK: if (([[C3:i1_[0-9]+]] + [[E3:e_[0-9]+]]) < 1 || ([[C3]] + [[E3]]) >= 41) continue;  // outside the copied part

import tilelang
import tilelang.language as T


@tilelang.jit
def column_panels(A, block_M=64, block_N=64, panel=16, threads=128):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), T.float32)
    C = T.empty((M, N), T.float16)
    D = T.empty((M, T.ceildiv(N, block_N) * 40), T.float32)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        acc = T.alloc_fragment((block_M, block_N), T.float32)
        back = T.alloc_fragment((block_M, block_N), T.float32)
        C_shared = T.alloc_shared((block_M, panel), T.float16)
        T.copy(A[by * block_M, bx * block_N], acc)
        for i, j in T.Parallel(block_M, block_N):
            acc[i, j] = acc[i, j] * 2 + j
        # The accumulator in column panels through one shared panel.
        for i in T.unroll(T.ceildiv(block_N, panel)):
            T.copy(acc[:, i * panel:(i + 1) * panel], C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N + i * panel])
        # Five-column strips loaded at an offset no vector divides.
        T.clear(back)
        for s in T.serial(8):
            T.copy(A[by * block_M, bx * block_N + s * 5 + 3], back[:, s * 5 + 1:s * 5 + 6])
        T.copy(back[:, 1:41], D[by * block_M, bx * 40])
    return C, D


def main():
    import torch
    column_panels(torch.randn(100, 120, dtype=torch.float32))


if __name__ == "__main__":
    main()
