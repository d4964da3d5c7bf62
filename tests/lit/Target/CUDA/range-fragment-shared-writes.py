# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --emit=cuda --target=cuda:sm_80 %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --emit=hip --target=hip:gfx942 %s | FileCheck %s --check-prefix=CUDA
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null 2>&1
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python %S/Inputs/range_fragment_shared_writes_check.py %t/out | FileCheck %s
# A fragment two warpgroups each keep a copy of (tile-split-range-fragments:
# each warpgroup's gemm writes it under its own thread range, warpgroup g
# from its own A_g) written to memory every thread shares by block-wide
# statements other than a whole-tile T.copy: a T.Parallel store to global
# memory (scaled, plus a bias), a transposed one, a T.Parallel store to
# shared memory (then copied out), and a tile-form T.atomic_add. Each runs
# once per copy, and each copy writes only its share of the rows, as the
# whole-tile T.copy does: warpgroup g rows [64 g, 64 g + 64), so no
# element is written twice (an atomic add once). Building refused all four
# ("each copy would write the same elements"). The CPU target against
# float64 NumPy here (C rows [0, 64) from A0 @ B, rows [64, 128) from
# A1 @ B; D += the same); the CUDA builds against the CPU target on sim in
# range-fragment-shared-writes-sim.test. What stays refused:
# range-fragment-shared-writes-errors.py.
# CUDA: // T.Parallel  range-fragment-shared-writes.py:[[#LOOP:@LINE+37]]:21
# CUDA: const bool {{t_[0-9]+}} = ({{i0_[0-9]+}} < 64);
# CUDA: // T.Parallel  range-fragment-shared-writes.py:[[#LOOP]]:21
# CUDA: const bool {{t_[0-9]+}} = ({{i0_[0-9]+}} >= 64);
# CUDA: // T.Parallel  range-fragment-shared-writes.py:[[#LOOP+7]]:9
# CUDA: const bool {{t_[0-9]+}} = ({{i0_[0-9]+}} < 64);
# CUDA: atomicAddTo<float>(&D[
# CUDA: const bool {{t_[0-9]+}} = ({{i0_[0-9]+}} >= 64);
# CUDA: atomicAddTo<float>(&D[
# CUDA-NOT: atomicAddTo
# CHECK: C close True
# CHECK-NEXT: Ct close True
# CHECK-NEXT: E close True
# CHECK-NEXT: D close True
import tilelang
import tilelang.language as T


@tilelang.jit
def shares(A0: T.Tensor((128, 64), "float16"), A1: T.Tensor((128, 64), "float16"),
           B: T.Tensor((64, 64), "float16"), bias: T.Tensor((64,), "float32"),
           C: T.Tensor((128, 64), "float32"), Ct: T.Tensor((64, 128), "float32"),
           D: T.Tensor((128, 64), "float32"), E: T.Tensor((128, 64), "float32")):
    with T.Kernel(1, threads=256) as _:
        tx = T.get_thread_binding()
        a0_s = T.alloc_shared((128, 64), "float16")
        a1_s = T.alloc_shared((128, 64), "float16")
        b_s = T.alloc_shared((64, 64), "float16")
        e_s = T.alloc_shared((128, 64), "float32")
        acc = T.alloc_fragment((128, 64), "float32")
        T.copy(A0, a0_s)
        T.copy(A1, a1_s)
        T.copy(B, b_s)
        if tx // 128 == 0:
            T.gemm(a0_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
        if tx // 128 == 1:
            T.gemm(a1_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
        for i, j in T.Parallel(128, 64):
            C[i, j] = acc[i, j] * 0.5 + bias[j]
        for i, j in T.Parallel(128, 64):
            Ct[j, i] = acc[i, j]
        for i, j in T.Parallel(128, 64):
            e_s[i, j] = acc[i, j]
        T.copy(e_s, E)
        T.atomic_add(D, acc)
