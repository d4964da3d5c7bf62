# cuda:sm_120a, consumer Blackwell (issue 13, corpus44 "the missing
# cuda:sm_120a target"). Its arch-specific features are not sm_90a's nor
# the sm_100 family's: it has TMA, clusters and mbarrier transaction
# counts, but no wgmma and no tcgen05 / tensor memory, so a gemm takes
# mma.sync (as on sm_80), T.atomic_add(use_tma=True) the bulk reduction,
# and what needs wgmma, tensor memory or cvt.rs is refused naming the
# target; its shared memory per block is compute capability 12.0's 99 KiB
# and it is built alone, as one cubin (sm120a-target-nvcc.test assembles
# it). The checks that read "compute capability >= 90 / >= 100" as "has
# wgmma / tcgen05" now ask for those families.
# RUN: tlc-build --target=cuda:sm_120a --emit=cuda --no-source-lines %s -D kind=gemm 2>&1 | FileCheck %s --check-prefix=GEMM
# GEMM-NOT: error
# GEMM-NOT: wgmma
# GEMM-NOT: tcgen05
# GEMM: tlc::cuda::ldmatrix
# GEMM: tlc::cuda::mmaM16N8K16
# RUN: tlc-build --target=cuda:sm_120a --emit=cuda --no-source-lines %s -D kind=tma_reduce 2>&1 | FileCheck %s --check-prefix=REDUCE
# REDUCE-NOT: remark
# REDUCE: tlc::cuda::bulkReduceAdd(
# RUN: not tlc-build --target=cuda:sm_120a --emit=cuda %s -D kind=wgmma 2>&1 | FileCheck %s --check-prefix=WGMMA
# WGMMA: error: T.wgmma_gemm is Hopper's wgmma.mma_async, which needs sm_90a; building for sm_120
# RUN: not tlc-build --target=cuda:sm_120a --emit=cuda %s -D kind=tmem 2>&1 | FileCheck %s --check-prefix=TMEM
# TMEM: sm120a-target.py:[[# @LINE + 34]]:22: error: shared.tmem is Blackwell's tensor memory (tcgen05), which needs sm_100a; building for sm_120a, which has none (build with --target=cuda:sm_100a)
# RUN: not tlc-build --target=cuda:sm_120a --emit=cuda %s -D kind=rs 2>&1 | FileCheck %s --check-prefix=RS
# RS: error: T.cast_rs: stochastic rounding (cvt.rs) needs sm_100a or sm_103a; the CUDA target builds for sm_120
# RUN: not tlc-build --target=cuda:sm_120a --emit=cuda %s -D kind=big 2>&1 | FileCheck %s --check-prefix=BIG
# BIG: error: shared memory usage 128 KiB exceeds the 99 KiB budget of cuda:sm_120a
# RUN: not tlc-build --target=cuda:sm_120a,sm_80 --cuda-compiler=none -o %t %s -D kind=gemm 2>&1 | FileCheck %s --check-prefix=ALONE
# ALONE: sm_120a is built alone, not in a list with other architectures
import tilelang
import tilelang.language as T


@tilelang.jit
def sm120(kind="gemm"):

    @T.prim_func
    def main(A: T.Tensor((128, 64), T.float16), B: T.Tensor((64, 128), T.float16),
             C: T.Tensor((128, 128), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((128, 64), T.float16)
            B_s = T.alloc_shared((64, 128), T.float16)
            C_l = T.alloc_fragment((128, 128), T.float32)
            if kind == "gemm":
                T.copy(A, A_s)
                T.copy(B, B_s)
                T.clear(C_l)
                T.gemm(A_s, B_s, C_l)
                T.copy(C_l, C)
            elif kind == "wgmma":
                T.copy(A, A_s)
                T.copy(B, B_s)
                T.clear(C_l)
                T.wgmma_gemm(A_s, B_s, C_l)
                T.copy(C_l, C)
            elif kind == "tmem":
                tm = T.alloc_tmem((128, 128), T.float32)
                T.copy(C, C_l)
                T.copy(C_l, tm)
                T.copy(tm, C_l)
                T.copy(C_l, C)
            elif kind == "tma_reduce":
                C_s = T.alloc_shared((128, 128), T.float32)
                T.copy(C, C_s)
                T.atomic_add(C[0:128, 0:128], C_s, use_tma=True)
            elif kind == "rs":
                for i, j in T.Parallel(128, 64):
                    A_s[i, j] = T.cast(T.cast(A[i, j], T.float32) * 2.0, T.float16, round="rs", rbits=i * 64 + j)
                T.copy(A_s, A)
            elif kind == "big":
                Big = T.alloc_shared((128, 256), T.float32)
                T.copy(C, Big[:, 0:128])
                T.copy(Big[:, 0:128], C)

    return main
