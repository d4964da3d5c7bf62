# T.reduce over rank-3 fragments whose other dimensions are not powers of
# two: a 12 x 24 x 20 summed over its middle dimension (128 threads, from
# T.copy) and over its last (256 threads, from a T.Parallel, so layout
# inference plans it), a max over the last keeping the dimension, a
# 24 x 12 x 20 summed over its first on 64 threads. Every GPU target
# refused them ("thread map '(96 * i + 20 * j + k) % 128' is not a sum of
# its digits"): planReduciblePartition's flat other index (20 i + k) is
# not linear in the bits of the coordinates. The thread groups are now
# split per dimension, each dimension's rounds one register digit padded
# to a power of two (the padding slots guarded).
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s
# CHECK-LABEL: midsum_kernel(
# CHECK: float f[78];
# CHECK: shuffleXor
# CHECK-LABEL: lastsum_kernel(
# CHECK: float f[38];
# CHECK: shuffleXor
# CHECK-LABEL: lastmax_kernel(
# CHECK: float f[76];
# CHECK: shuffleXor
# CHECK-LABEL: firstsum_kernel(
# CHECK: float f[158];
# CHECK: shuffleXor
# The CPU target against float64 NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s
# RUN: tlc-run %t/cpu --seed 7 --save %t/out
# RUN: %python %S/Inputs/reducible_partition_rank3_check.py %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-4: ok
# REF-NOT: BAD
# CUDA (sm_90a, sm_80) and HIP (gfx942) on the sim device against the CPU
# target with the same inputs.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/c90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c90 --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/c80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c80 --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/hip --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-4: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit
def midsum(A: T.Tensor((12, 24, 20), "float32"), S: T.Tensor((12, 20), "float32")):
    with T.Kernel(1, threads=128) as _:
        f = T.alloc_fragment((12, 24, 20), "float32")
        s = T.alloc_fragment((12, 20), "float32")
        T.copy(A, f)
        T.reduce_sum(f, s, dim=1)
        T.copy(s, S)


@tilelang.jit
def lastsum(A: T.Tensor((12, 24, 20), "float32"), S: T.Tensor((12, 24), "float32")):
    with T.Kernel(1, threads=256) as _:
        f = T.alloc_fragment((12, 24, 20), "float32")
        s = T.alloc_fragment((12, 24), "float32")
        for i, j, k in T.Parallel(12, 24, 20):
            f[i, j, k] = A[i, j, k] * 2.0 + 1.0
        T.reduce_sum(f, s, dim=2)
        T.copy(s, S)


@tilelang.jit
def lastmax(A: T.Tensor((12, 24, 20), "float32"), M: T.Tensor((12, 24, 1), "float32")):
    with T.Kernel(1, threads=128) as _:
        f = T.alloc_fragment((12, 24, 20), "float32")
        m = T.alloc_fragment((12, 24, 1), "float32")
        T.copy(A, f)
        T.reduce_max(f, m, dim=2)
        T.copy(m, M)


@tilelang.jit
def firstsum(A: T.Tensor((24, 12, 20), "float32"), S: T.Tensor((12, 20), "float32")):
    with T.Kernel(1, threads=64) as _:
        f = T.alloc_fragment((24, 12, 20), "float32")
        s = T.alloc_fragment((12, 20), "float32")
        T.copy(A, f)
        T.reduce_sum(f, s, dim=0)
        T.copy(s, S)
