# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# H: T.annotate_producer_reg_dealloc / consumer_reg_alloc, T.no_set_max_nreg, annotate_layout.
# Shape: plain (undecorated) factory + tilelang.compile(func, out_idx=-1).
import tilelang
import tilelang.language as T
from tilelang.layout import make_swizzled_layout


def matmul_ws_hints(M, N, K, block_M=128, block_N=256, block_K=64, num_stages=3, threads=256, manual_regs=True):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.bfloat16),
        B: T.Tensor((N, K), T.bfloat16),
        C: T.Tensor((M, N), T.bfloat16),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), T.bfloat16)
            B_shared = T.alloc_shared((block_N, block_K), T.bfloat16)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            C_shared = T.alloc_shared((block_M, block_N), T.bfloat16)
            if manual_regs:
                T.annotate_producer_reg_dealloc(reg_count=24)
                T.annotate_consumer_reg_alloc(reg_count=240)
            else:
                T.no_set_max_nreg()
            T.annotate_layout({
                A_shared: make_swizzled_layout(A_shared),
                B_shared: make_swizzled_layout(B_shared),
            })
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[bx * block_N, ko * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True, policy=T.GemmWarpPolicy.FullCol)
            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])

    return main


func = matmul_ws_hints(8192, 8192, 8192)
kernel = tilelang.compile(func, out_idx=-1)
kernel_auto = tilelang.compile(matmul_ws_hints(4096, 4096, 4096, block_N=128, threads=128, manual_regs=False), out_idx=-1)

# CHECK: "name":"A","kind":"tensor","shape":[8192,8192],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[256,64],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,256],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×2 warps · 128 regs/thread"
# CHECK: "name":"C_shared","kind":"buffer","shape":[128,256],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B, 512B rows"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[128,64],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"C_shared","kind":"buffer","shape":[128,128],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B, 256B rows"
