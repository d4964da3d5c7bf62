# Fragments whose elements the block's threads do not divide (64 x 64 on
# 384 threads, 48 x 40 on 256, 100 on 96) are partitioned by the default
# layout like a T.Parallel of their shape: chunks of the widest vector the
# innermost extent allows, dealt out round-robin, the last round guarded
# (each thread holds ceil(elements / (threads x width)) chunks). They were
# held whole by every thread (4096 registers a thread for the 64 x 64).
# Every path over the registers skips the last round's empty slots: copies
# from and to global and shared memory, T.Parallel, T.fill / T.clear,
# row reductions (to a fragment and to shared), T.atomic_add. A fragment
# whose reduction the guarded layout cannot serve with shuffles (a column
# sum of the 48 x 40, its threads `(10 i + j / 4) % 256`) is partitioned
# for the reduction instead (reducible-partition.py).
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s
# CHECK-LABEL: rows_kernel(
# CHECK: float f[12];
# CHECK: empty slot
# CHECK-LABEL: cols_kernel(
# CHECK: float f[8];
# CHECK: empty slot
# CHECK-LABEL: flat_kernel(
# CHECK: float f[4];
# The CPU target against float64 NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s
# RUN: tlc-run %t/cpu --seed 3 --save %t/out
# RUN: %python %S/Inputs/guarded_fragment_default_check.py %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-9: ok
# REF-NOT: BAD
# CUDA (sm_90a, sm_80) and HIP (gfx942) on the sim device against the CPU
# target with the same inputs.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/c90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c90 --device sim --verify --reference %t/cpu --seed 3 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/c80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c80 --device sim --verify --reference %t/cpu --seed 3 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/hip --device sim --verify --reference %t/cpu --seed 3 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-9: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit
def rows(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32"),
         R: T.Tensor((64,), "float32"), S: T.Tensor((64, 64), "float32"),
         M: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=384) as _:
        f = T.alloc_fragment((64, 64), "float32")
        row = T.alloc_fragment((64,), "float32")
        s = T.alloc_shared((64, 64), "float32")
        mx = T.alloc_shared((64,), "float32")
        T.copy(A, f)
        T.reduce_max(f, mx, dim=1)
        for i, j in T.Parallel(64, 64):
            f[i, j] = f[i, j] * 2.0 + 1.0
        T.reduce_sum(f, row, dim=1)
        T.copy(f, B)
        T.copy(row, R)
        T.copy(f, s)
        T.copy(s, S)
        T.copy(mx, M)


@tilelang.jit
def cols(A: T.Tensor((48, 40), "float32"), B: T.Tensor((48, 40), "float32"),
         D: T.Tensor((48, 40), "float32")):
    with T.Kernel(1, threads=256) as _:
        f = T.alloc_fragment((48, 40), "float32")
        T.fill(f, 1.5)
        for i, j in T.Parallel(48, 40):
            f[i, j] += A[i, j]
        T.copy(f, B)
        T.atomic_add(D, f)


@tilelang.jit
def flat(A: T.Tensor((100,), "float32"), B: T.Tensor((100,), "float32"),
         T1: T.Tensor((1,), "float32"), Z: T.Tensor((100,), "float32")):
    with T.Kernel(1, threads=96) as _:
        f = T.alloc_fragment((100,), "float32")
        z = T.alloc_fragment((100,), "float32")
        tot = T.alloc_fragment((1,), "float32")
        T.clear(z)
        T.copy(z, Z)
        T.copy(A, f)
        for i in T.Parallel(100):
            f[i] = f[i] - 0.25
        T.reduce_sum(f, tot, dim=0)
        T.copy(f, B)
        T.copy(tot, T1)
