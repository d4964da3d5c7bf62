# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# H + I: T.disable_warp_group_reg_alloc, T.set_max_nreg / dec / inc_max_nreg in T.ws groups,
# mbarrier ring (T.alloc_barrier list, T.tma_copy(barrier=), wait_parity). Shape: lazy.
import tilelang
import tilelang.language as T


@tilelang.jit(
    out_idx=[2],
    pass_configs={
        tilelang.PassConfigKey.TL_DISABLE_WARP_SPECIALIZED: True,
    },
)
def ws_gemm(M, N, K, block_M=128, block_N=128, block_K=64, num_stages=2, use_inc_dec=False):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((K, N), T.float16),
        C: T.Tensor((M, N), T.float16),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_shared = T.alloc_shared((num_stages, block_M, block_K), T.float16)
            B_shared = T.alloc_shared((num_stages, block_K, block_N), T.float16)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            full = T.alloc_barrier([128] * num_stages)
            empty = T.alloc_barrier([128] * num_stages)
            T.disable_warp_group_reg_alloc()
            k_iters = T.ceildiv(K, block_K)

            with T.ws(1):
                if use_inc_dec:
                    T.dec_max_nreg(40)
                else:
                    T.set_max_nreg(40, 0)
                for ko in T.serial(k_iters):
                    s = ko % num_stages
                    T.mbarrier_wait_parity(empty[s], ((ko // num_stages) & 1) ^ 1)
                    T.tma_copy(A[by * block_M, ko * block_K], A_shared[s, :, :], barrier=full[s])
                    T.tma_copy(B[ko * block_K, bx * block_N], B_shared[s, :, :], barrier=full[s])
                    T.mbarrier_arrive(full[s])
            with T.ws(0):
                if use_inc_dec:
                    T.inc_max_nreg(232)
                else:
                    T.set_max_nreg(232, 1)
                T.clear(C_local)
                for ko in T.serial(k_iters):
                    s = ko % num_stages
                    T.mbarrier_wait_parity(full[s], (ko // num_stages) & 1)
                    T.gemm(A_shared[s, :, :], B_shared[s, :, :], C_local)
                    T.mbarrier_arrive(empty[s])
                T.copy(C_local, C[by * block_M, bx * block_N])

    return main


kernel = ws_gemm(4096, 4096, 4096)
kernel_incdec = ws_gemm(2048, 2048, 1024, num_stages=3, use_inc_dec=True)

# The consumer T.gemm runs inside T.ws(0), i.e. under `tx < 128`: TileLang's
# layout inference bounds the thread var there (IRVisitorWithAnalyzer), so the
# accumulator is laid out for one warp group of 128 threads. Its operands
# are stages of a ring (A_shared[s, :, :]), which tile-plan-wgmma reads
# through descriptors started at the stage: wgmma on sm_90a, accumulating in
# wgmma.C · 4×1 warps as TileLang does (B as two 64-column panels).
# CHECK: "instance":"ws_gemm(4096, 4096, 4096)","name":"A","kind":"tensor","shape":[4096,4096],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"A_shared","kind":"buffer","shape":[2,128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[2,64,128],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 2 panels"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"full","kind":"buffer","shape":[2],"dtype":"uint64","scope":"shared.barrier","layout":null
# CHECK: "name":"empty","kind":"buffer","shape":[2],"dtype":"uint64","scope":"shared.barrier","layout":null
# CHECK: "instance":"ws_gemm(2048, 2048, 1024, num_stages=3, use_inc_dec=True)","name":"A"
# CHECK: "name":"A_shared","kind":"buffer","shape":[3,128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"full","kind":"buffer","shape":[3],"dtype":"uint64","scope":"shared.barrier","layout":null
