# A fragment that scalar code stores into outside every T.Parallel (a
# T.serial loop, TileLang issues 2393/2395/2396, which TileLang refuses:
# "a T.serial loop runs sequentially inside each CUDA thread") is held
# whole by every thread: each thread runs the loop and writes every
# element, the T.copy out stores one replica. Before, the fragment took the
# copy's partitioned layout and the store was refused ("accesses fragments
# only inside a T.Parallel ..."). A running sum along j (each element
# depends on the previous one) shows the loop's order is kept.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s
# CHECK-LABEL: scale_kernel(
# CHECK: float Bf[256];
# CHECK-LABEL: running_kernel(
# CHECK: float S[128];
# The CPU target against float64 NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s
# RUN: tlc-run %t/cpu --seed 5 --save %t/out
# RUN: %python %S/Inputs/serial_fragment_store_check.py %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-2: ok
# REF-NOT: BAD
# CUDA (sm_90a, sm_80) and HIP (gfx942) on the sim device against the CPU
# target with the same inputs.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/c90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c90 --device sim --verify --reference %t/cpu --seed 5 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/c80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c80 --device sim --verify --reference %t/cpu --seed 5 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/hip --device sim --verify --reference %t/cpu --seed 5 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-2: PASS
# SIM-NOT: FAIL

import tilelang
import tilelang.language as T

M = N = 16


@T.prim_func
def scale(A: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32")):
    with T.Kernel(1, 1, threads=128) as (bx, by):
        Af = T.alloc_fragment((M, N), "float32")
        Bf = T.alloc_fragment((M, N), "float32")
        T.copy(A[0, 0], Af)
        for i in T.serial(M):
            for j in T.serial(N):
                Bf[i, j] = Af[i, j] * 2.0
        T.copy(Bf, C[0, 0])


@T.prim_func
def running(A: T.Tensor((8, 16), "float32"), C: T.Tensor((8, 16), "float32")):
    with T.Kernel(1, threads=64) as bx:
        S = T.alloc_fragment((8, 16), "float32")
        for i in T.serial(8):
            S[i, 0] = A[i, 0]
            for j in T.serial(15):
                S[i, j + 1] = S[i, j] + A[i, j + 1]
        T.copy(S, C)
