# `for i in T.Parallel(M): for j in T.Parallel(N):` is one parallel loop
# nest over [M, N], as in TileLang (its ParallelOp takes every T.Parallel
# directly nested in the first): the enclosing tile.parallel grows by the
# inner loop's dimensions. tlc ran the inner loop serially in each outer
# iteration, so layout inference saw a loop over rows only: acc_o got a
# row-partitioned layout, both fragments went through shared memory at
# the loop (a fragment exchange), and HIP refused the kernel for its LDS
# (issue 12, G10: amd example_amd_flash_attn_fwd_k_block). Extents from
# kernel parameters join the nest; an extent that depends on the enclosing
# loop's variable keeps the inner loop serial.
# RUN: tlc-build --emit=tile --kernel=main %s | FileCheck %s
# CHECK: tile.func @main
# CHECK: tile.parallel (%i, %j) in [128, 128]
# CHECK-NOT: tile.for
# CHECK: tile.copy
# RUN: tlc-build --emit=hints --kernel=main %s | FileCheck %s --check-prefix=HINTS
# HINTS: "name":"acc_o","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×2 warps · 64 regs/thread"
# HINTS-NOT: fragment-exchange
# RUN: tlc-build --emit=hip --target=hip:gfx942 --kernel=main %s | FileCheck %s --check-prefix=HIP
# HIP: __global__ void __launch_bounds__(256) main_kernel(
# HIP-NOT: __syncthreads
# HIP: }
# RUN: tlc-build --emit=tile --kernel=symbolic %s | FileCheck %s --check-prefix=SYM
# SYM: tile.func @symbolic
# SYM: tile.parallel (%i, %j, %k) in [4, %{{[0-9]+}}, 2]
# SYM-NOT: tile.for
# RUN: tlc-build --emit=tile --kernel=triangular %s | FileCheck %s --check-prefix=TRI
# TRI: tile.func @triangular
# TRI: tile.parallel (%i) in [16]
# TRI: tile.for
import tilelang.language as T

block_M, block_N, dim = 128, 32, 128


@T.prim_func
def main(P: T.Tensor((block_M, block_N), "float16"), V: T.Tensor((block_N, dim), "float16"),
         O: T.Tensor((block_M, dim), "float32")):
    with T.Kernel(1, threads=256):
        P_shared = T.alloc_shared([block_M, block_N], "float16")
        V_shared = T.alloc_shared([block_N, dim], "float16")
        acc_o = T.alloc_fragment([block_M, dim], "float32")
        acc_v = T.alloc_fragment([block_M, dim], "float32")
        T.fill(acc_o, 0)
        T.copy(P, P_shared)
        T.copy(V, V_shared)
        T.clear(acc_v)
        T.gemm(P_shared, V_shared, acc_v)
        for i in T.Parallel(block_M):
            for j in T.Parallel(dim):
                acc_o[i, j] += acc_v[i, j]
        T.copy(acc_o, O)


n = T.dynamic("n")


@T.prim_func
def symbolic(A: T.Tensor((4, n, 2), "float32"), B: T.Tensor((4, n, 2), "float32")):
    with T.Kernel(1, threads=128):
        for i in T.Parallel(4):
            for j in T.Parallel(A.shape[1] // 2):
                for k in T.Parallel(2):
                    B[i, j, k] = A[i, j, k] * 2.0


@T.prim_func
def triangular(A: T.Tensor((16, 16), "float32"), B: T.Tensor((16, 16), "float32")):
    with T.Kernel(1, threads=128):
        for i in T.Parallel(16):
            for j in T.Parallel(i + 1):
                B[i, j] = A[i, j]
