# A T.Parallel dealt out by a gemm accumulator's layout that stores into a
# T.alloc_var: which elements each thread folds into its own copy of `m`
# (and so every D) depends on the GPU target's fragment layout: sm_80's
# mma.sync warps, sm_90a's wgmma warpgroup, gfx942's MFMA wavefronts each
# give other owners. The CPU target follows the layouts of the target it is
# to verify (--layouts-of; sm_80's by default), records them in the
# manifest when its answer depends on them, and tlc-run --verify refuses it
# as the reference of an artifact whose target lays the fragment out
# otherwise. (About 30 s on a loaded 2-core host: three CPU builds and,
# with the sim, three generated-code compilations, one per layout family.)
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu80 %s > /dev/null
# RUN: tlc-build --target=cpu --layouts-of=cuda:sm_90a -o %t/cpu90 %s > /dev/null
# RUN: tlc-build --target=cpu --layouts-of=hip:gfx942 -o %t/cpu942 %s > /dev/null
# RUN: FileCheck %s --check-prefix=M80 < %t/cpu80/owner_max.json
# M80: "layouts_of": "cuda:sm_80"
# RUN: FileCheck %s --check-prefix=M90 < %t/cpu90/owner_max.json
# M90: "layouts_of": "cuda:sm_90a"
#
# sm_90a's owners from the PTX ISA's wgmma accumulator fragment (NumPy);
# sm_80's owners give other D.
# RUN: tlc-run %t/cpu90 --seed 5 --save %t/out90 > /dev/null
# RUN: %python %S/Inputs/parallel_fragment_owner_check.py %t/out90 | FileCheck %s --check-prefix=ISA
# ISA: C ok
# ISA-NEXT: D ok
# RUN: tlc-run %t/cpu80 --seed 5 --save %t/out80 > /dev/null
# RUN: %python %S/Inputs/parallel_fragment_owner_check.py %t/out80 | FileCheck %s --check-prefix=ISA80
# ISA80: C ok
# ISA80-NEXT: D WRONG
# RUN: not tlc-run %t/cpu80 --verify --reference %t/cpu90 --seed 5 | FileCheck %s --check-prefix=DIFF
# RUN: not tlc-run %t/cpu942 --verify --reference %t/cpu80 --seed 5 | FileCheck %s --check-prefix=DIFF
# RUN: not tlc-run %t/cpu942 --verify --reference %t/cpu90 --seed 5 | FileCheck %s --check-prefix=DIFF
# DIFF: verify C: PASS
# DIFF: verify D: FAIL
#
# Each GPU target on the sim agrees with the CPU target on its layouts; a
# reference on other layouts is refused before the run.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --verify --reference %t/cpu90 --seed 5 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ not tlc-run %t/sm90 --device sim --verify --reference %t/cpu80 --seed 5 2>&1 | FileCheck %s --check-prefix=REFUSE %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --verify --reference %t/cpu80 --seed 5 | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/g942 %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/g942 --device sim --verify --reference %t/cpu942 --seed 5 | FileCheck %s --check-prefix=SIM %}
# SIM: verify C: PASS
# SIM: verify D: PASS
# REFUSE-NOT: verify
# REFUSE: error: --reference {{.*}}cpu80: 'owner_max' there follows cuda:sm_80's fragment layouts, and its results depend on them; 'cuda:sm_90a' lays the fragments out otherwise: build the reference with tlc-build --target=cpu --layouts-of=cuda:sm_90a
#
# RUN: not tlc-build --target=cpu --layouts-of=cuda:sm_70 -o %t/bad %s 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: error: --layouts-of='cuda:sm_70' is not a GPU target with fragment layouts
# RUN: not tlc-build --target=cuda:sm_90a --layouts-of=cuda:sm_90a -o %t/bad %s 2>&1 | FileCheck %s --check-prefix=NOTCPU
# NOTCPU: error: --layouts-of applies to --target=cpu only
import tilelang
import tilelang.language as T


@tilelang.jit
def owner_max(A: T.Tensor((64, 32), "float16"), B: T.Tensor((32, 32), "float16"),
              C: T.Tensor((64, 32), "float32"), D: T.Tensor((64, 32), "float32")):
    with T.Kernel(1, threads=128) as _:
        A_s = T.alloc_shared((64, 32), "float16")
        B_s = T.alloc_shared((32, 32), "float16")
        C_l = T.alloc_fragment((64, 32), "float32")
        m = T.alloc_var("float32", init=-1e30)
        T.copy(A, A_s)
        T.copy(B, B_s)
        T.clear(C_l)
        T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C)
        # Each thread's largest element of C.
        for i, j in T.Parallel(64, 32):
            m = T.max(m, C_l[i, j])
        for i, j in T.Parallel(64, 32):
            C_l[i, j] = m
        T.copy(C_l, D)
