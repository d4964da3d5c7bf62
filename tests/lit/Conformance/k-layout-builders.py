# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# K: make_full/half/quarter_bank_swizzled_layout, make_wgmma_swizzled_layout, make_linear_layout.
# Shape: @tilelang.autotune(configs=[...]) + @tilelang.jit, explicit-config call.
import tilelang
import tilelang.language as T
from tilelang.layout import (
    make_full_bank_swizzled_layout,
    make_half_bank_swizzled_layout,
    make_linear_layout,
    make_quarter_bank_swizzled_layout,
    make_wgmma_swizzled_layout,
)

CONFIGS = [
    {"block_M": 128, "block_N": 128, "num_stages": 2},
    {"block_M": 128, "block_N": 128, "num_stages": 3},
    {"block_M": 64, "block_N": 128, "num_stages": 4},
]


@tilelang.autotune(configs=CONFIGS, warmup=10, rep=50, skip_check=True)
@tilelang.jit(out_idx=[-1])
def gemm_bias_rowscale(M, N, K, block_M=128, block_N=128, block_K=64, num_stages=2):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((K, N), T.float16),
        Bias: T.Tensor((N,), T.float16),
        RowScale: T.Tensor((M, 16), T.float32),
        C: T.Tensor((M, N), T.float16),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), T.float16)
            B_s = T.alloc_shared((block_K, block_N), T.float16)
            C_s = T.alloc_shared((block_M, block_N), T.float16)
            bias_s = T.alloc_shared((block_N,), T.float16)
            scale_s = T.alloc_shared((block_M, 16), T.float32)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.annotate_layout({
                A_s: make_full_bank_swizzled_layout(A_s),
                B_s: make_wgmma_swizzled_layout(B_s, k_major=False),
                C_s: make_half_bank_swizzled_layout(C_s),
                scale_s: make_quarter_bank_swizzled_layout(scale_s),
                bias_s: make_linear_layout(bias_s),
            })
            T.copy(Bias[bx * block_N], bias_s)
            T.copy(RowScale[by * block_M, 0], scale_s)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc)
            for i, j in T.Parallel(block_M, block_N):
                C_s[i, j] = T.cast(acc[i, j] * scale_s[i, 0] + T.cast(bias_s[j], T.float32), T.float16)
            T.copy(C_s, C[by * block_M, bx * block_N])

    return main


tuned = gemm_bias_rowscale(4096, 4096, 4096)
fixed = gemm_bias_rowscale(4096, 4096, 4096, block_M=64, block_N=128, num_stages=4)

# Tuned call (analysed with the first config, block 128x128):
# CHECK: "instance":"gemm_bias_rowscale(4096, 4096, 4096, block_M=128, block_N=128, num_stages=2)","name":"A","kind":"tensor","shape":[4096,4096],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"A_s","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_s","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 2 panels"
# CHECK: "name":"C_s","kind":"buffer","shape":[128,128],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"bias_s","kind":"buffer","shape":[128],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"scale_s","kind":"buffer","shape":[128,16],"dtype":"float32","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"acc","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# Explicit config (tuning bypassed):
# CHECK: "instance":"gemm_bias_rowscale(4096, 4096, 4096, block_M=64, block_N=128, num_stages=4)","name":"A"
# CHECK: "name":"A_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_s","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"scale_s","kind":"buffer","shape":[64,16],"dtype":"float32","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"acc","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"

# The element-wise shared accesses of T.Parallel (one element per lane at the
# loop's thread partition):
# DIAG: 55:17: remark: 8-way bank conflict on C_s (2-byte st.shared)
# DIAG: 55:36: remark: 4-way bank conflict on scale_s (4-byte ld.shared)
