# A T.Pipelined whose stages do not fit CDNA's 64 KiB of LDS runs with
# fewer: the warning is at that loop's T.Pipelined call and says the
# num_stages it asked for, the stages it runs with and the LDS (it was at
# the T.Kernel, without num_stages). The loop that fits (num_stages=1) is
# not named; CUDA reduces no stages (sm_80 fits both, no warning).
# RUN: tlc-build --check --no-source-lines --target=hip:gfx942 %s 2>&1 | FileCheck %s
# CHECK: pipeline-stages-lds.py:[[# @LINE + 21]]:18: warning: num_stages=4 needs 96 KiB of LDS, more than the 64 KiB of hip:gfx942: this T.Pipelined runs with 2 stages, 48 KiB of LDS
# CHECK-NOT: warning
# RUN: tlc-build --check --target=cuda:sm_80 %s 2>&1 | FileCheck %s --check-prefix=CUDA --allow-empty
# CUDA-NOT: warning
import tilelang
import tilelang.language as T


@tilelang.jit
def two_loops(A: T.Tensor((128, 512), "float16"),
              B: T.Tensor((512, 64), "float16"),
              C: T.Tensor((128, 64), "float32"),
              D: T.Tensor((128, 64), "float32")):
    with T.Kernel(1, threads=256) as bx:
        As = T.alloc_shared((128, 64), "float16")
        Bs = T.alloc_shared((64, 64), "float16")
        Cs = T.alloc_shared((128, 64), "float16")
        Cf = T.alloc_fragment((128, 64), "float32")
        Df = T.alloc_fragment((128, 64), "float32")
        T.clear(Cf)
        T.clear(Df)
        for k in T.Pipelined(8, num_stages=4):
            T.copy(A[0, k * 64], As)
            T.copy(B[k * 64, 0], Bs)
            T.gemm(As, Bs, Cf)
        for k in T.Pipelined(8, num_stages=1):
            T.copy(A[0, k * 64], Cs)
            T.copy(B[k * 64, 0], Bs)
            T.gemm(Cs, Bs, Df)
        T.copy(Cf, C)
        T.copy(Df, D)
