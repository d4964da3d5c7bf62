# The mma / MFMA accumulator of a 48 x 48 warp tile (block 96 x 96 over
# 2 x 2 warps: 3 m atoms and 3 n atoms of 16 a warp, neither a power of
# two) was refused on every GPU target ("cannot index fragment layout
# mma.C ... not linear in the bits"). The n atoms' registers are padded to
# a power of two before the m atoms (r = 32 m + 8 n + k: 88 registers, the
# 24..31 of each m atom empty in every thread); FragmentTables records the
# padding digit and every register loop skips it (`(r & 31) >= 24`).
# Second kernel: a row sum of the same accumulator (the reduction's fold
# skips the padding). The CPU target against float64 NumPy, then sm_80,
# sm_90a and gfx942 on the sim device against the CPU target.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s
# CHECK-LABEL: gemm96_kernel(
# CHECK: float Cf[88];
# CHECK: mmaM16N8K16{{.*}}&Cf[mi * 32 + ni * 4]
# CHECK: >> 0) & 31) >= 24) continue;  // empty slot
# CHECK-LABEL: rowsum96_kernel(
# CHECK: float Cf[88];
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s
# RUN: tlc-run %t/cpu --seed 7 --save %t/out
# RUN: %python %S/Inputs/mma_c_padded_atoms_check.py %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-3: ok
# REF-NOT: BAD
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/c80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c80 --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/c90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c90 --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/hip --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-3: PASS
# SIM-NOT: FAIL

import tilelang
import tilelang.language as T


@tilelang.jit
def gemm96(A: T.Tensor((96, 64), "float16"), B: T.Tensor((64, 96), "float16"),
           C: T.Tensor((96, 96), "float32")):
    with T.Kernel(1, threads=128) as _:
        As = T.alloc_shared((96, 32), "float16")
        Bs = T.alloc_shared((32, 96), "float16")
        Cf = T.alloc_fragment((96, 96), "float32")
        T.clear(Cf)
        for k in T.Pipelined(2, num_stages=2):
            T.copy(A[0, k * 32], As)
            T.copy(B[k * 32, 0], Bs)
            T.gemm(As, Bs, Cf)
        T.copy(Cf, C)


@tilelang.jit
def rowsum96(A: T.Tensor((96, 32), "float16"), B: T.Tensor((32, 96), "float16"),
             C: T.Tensor((96, 96), "float32"), R: T.Tensor((96,), "float32")):
    with T.Kernel(1, threads=128) as _:
        As = T.alloc_shared((96, 32), "float16")
        Bs = T.alloc_shared((32, 96), "float16")
        Cf = T.alloc_fragment((96, 96), "float32")
        r = T.alloc_fragment((96,), "float32")
        T.copy(A, As)
        T.copy(B, Bs)
        T.gemm(As, Bs, Cf, clear_accum=True)
        T.reduce_sum(Cf, r, dim=1)
        T.copy(Cf, C)
        T.copy(r, R)
