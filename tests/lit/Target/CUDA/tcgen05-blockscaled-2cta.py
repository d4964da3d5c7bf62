# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s --environ=MIXED=1 2>&1 | FileCheck %s --check-prefix=MIXED
#
# use_2cta= on T.tcgen05_cp (TileLang's earlier name of
# T.tcgen05_cp_warpx4) and T.tcgen05_gemm_blockscaled, in the style of
# the public gemm_sm100/gemm_mxfp8_blockscaled_1d1d_2cta example: a
# cluster of 2 CTAs, each with its 128 rows of A and half of B's N
# columns, the pair's first CTA issuing the MMAs and scale-factor copies.
# From the PTX ISA: tcgen05.cp.cta_group::2 copies in both CTAs of the
# pair (each from its own shared memory at the same address into its own
# tensor memory); tcgen05.mma.cta_group::2 .kind::mxf8f6f4.block_scale
# has M = 256 (128 rows a CTA), N a multiple of 16 up to 256; its commit
# to mbar is tcgen05.commit.cta_group::2 ... multicast::cluster to both
# CTAs (mask 0b11); the pair allocates its tensor memory together
# (tcgen05.alloc.cta_group::2); and one kernel's tcgen05 instructions all
# take one .cta_group.
#
# nvcc's ptxas assembles both instances for sm_100a (the pair's
# cta_group::2 copy, MMA, commit and allocation):
# RUN: %if nvcc %{ rm -rf %t && tlc-build --no-cache --target=cuda:sm_100a -o %t %s 2>&1 | FileCheck %s --check-prefix=NVCC %}
# NVCC-DAG: wrote {{.*}}mxfp8_pair.cubin
# NVCC-DAG: wrote {{.*}}mxfp8_pair_1.cubin
#
# The instruction descriptor (bits as in tcgen05-blockscaled.py): B
# MN-major 1 << 16, N = 256: (256 >> 3) << 17 = 0x400000, UE8M0 1 << 23,
# M = 256: (256 >> 4) << 24 = 0x10000000; in all 0x10C10000.
#
# CHECK-LABEL: mxfp8_pair_kernel(
# CHECK: tlc::cuda::tmemAlloc2Cta(&{{.*}}, 512);
# CHECK: tlc::cuda::tcgen05CopyWarpx42Cta(SFA_tmem + 0, tlc::cuda::tcgen05SmemDescriptor({{.*}}, 0x0000400800000000ull));
# The second CTA's 128 rows of B's factors: one group, columns 0-3 of the
# [128, 8] tile TileLang sizes for all of N.
# CHECK: tlc::cuda::tcgen05CopyWarpx42Cta(SFB_tmem + 0, tlc::cuda::tcgen05SmemDescriptor(
# CHECK-NOT: tcgen05CopyWarpx4
# CHECK: const uint32_t [[I:idesc[_0-9]*]] = 0x10c10000u | ((uint32_t)({{.*}}) & 3u) << 29
# CHECK: tlc::cuda::tcgen05MmaBlockScaledSS2Cta(C_tmem, {{.*}}, [[I]], SFA_tmem, SFB_tmem, ({{.*}}) ? 0u : 1u);
# CHECK-COUNT-3: tlc::cuda::tcgen05MmaBlockScaledSS2Cta(C_tmem,
# CHECK-NEXT: tlc::cuda::tcgen05Commit2Cta(&consumed[{{.*}}], 3);
# CHECK: tlc::cuda::tcgen05Commit2Cta(
# CHECK: tlc::cuda::tmemDealloc2Cta(
#
# use_2cta=False written out is the absent keyword: one CTA's
# instructions (B all of N, the descriptor's M 128: 0x08C10000).
# CHECK-LABEL: mxfp8_pair_1_kernel(
# CHECK: tlc::cuda::tmemAlloc(&{{.*}}, 512);
# CHECK: tlc::cuda::tcgen05CopyWarpx4(SFA_tmem + 0,
# CHECK: tlc::cuda::tcgen05CopyWarpx4(SFB_tmem + 0,
# CHECK-NEXT: tlc::cuda::tcgen05CopyWarpx4(SFB_tmem + 4,
# CHECK: 0x08c10000u
# CHECK: tlc::cuda::tcgen05MmaBlockScaledSS(C_tmem,
# CHECK: tlc::cuda::tcgen05Commit(&consumed[
# CHECK-NOT: 2Cta
#
# A pair's MMA with a one-CTA copy mixes cta_group::1 and ::2: an error
# at the copy, naming the primitive either way it is spelled.
# MIXED: error: T.tcgen05_cp / T.tcgen05_cp_warpx4 (tcgen05.cp): this kernel's tensor memory is the CTA pair's (use_2cta MMAs) and a kernel's tcgen05 instructions all take one .cta_group: pass use_2cta=True
import os

import tilelang
import tilelang.language as T

mixed = os.environ.get("MIXED") == "1"


@tilelang.jit
def mxfp8_pair(A, B, SFA, SFB, pair, block_M=128, block_N=256, block_K=128):
    M, N, K = T.const("M, N, K")
    k_iters = T.ceildiv(K, block_K)
    cols = block_N // 2 if pair else block_N
    A: T.Tensor[[M, K], T.float8_e4m3fn]
    B: T.Tensor[[K, N], T.float8_e4m3fn]
    SFA: T.Tensor[[M, 4], "uint8"]
    SFB: T.Tensor[[N, 4], "uint8"]
    C = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, block_M), T.ceildiv(N, block_N), threads=128,
                  cluster_dims=2) as (bx, by):
        cta_id = T.block_rank_in_cluster()
        A_shared = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
        B_shared = T.alloc_shared((block_K, cols), T.float8_e4m3fn)
        SFA_shared = T.alloc_shared((block_M, 4), "uint8")
        SFB_shared = T.alloc_shared((cols, 4), "uint8")
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        SFA_tmem = T.alloc_tmem([block_M, 4], "uint8")
        SFB_tmem = T.alloc_tmem([block_M, block_N // 128 * 4], "uint8")
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        consumed = T.alloc_cluster_barrier([1])
        tmem_full = T.alloc_cluster_barrier([1])
        T.annotate_layout({
            SFA_shared: tilelang.layout.make_linear_layout(SFA_shared),
            SFB_shared: tilelang.layout.make_linear_layout(SFB_shared),
        })
        tx = T.get_thread_binding()
        if tx < 32:
            T.copy(SFA[bx * block_M, 0], SFA_shared)
            T.copy(SFB[by * block_N + cta_id * cols, 0], SFB_shared)
            T.tcgen05_sf_warp_transpose(SFA_shared)
            T.tcgen05_sf_warp_transpose(SFB_shared)
        T.cluster_sync()
        if tx // 32 == 1 and cta_id == 0:
            for k in T.serial(k_iters):
                T.copy(A[bx * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, by * block_N + cta_id * cols], B_shared)
                if k == 0:
                    T.tcgen05_cp(SFA_shared, SFA_tmem, use_2cta=pair and not mixed)
                    T.tcgen05_cp(SFB_shared, SFB_tmem, use_2cta=pair and not mixed)
                T.tcgen05_gemm_blockscaled(A_shared, B_shared, C_tmem, SFA_tmem, SFB_tmem,
                                           mbar=consumed[0], clear_accum=k == 0,
                                           sf_a_id=0, sf_b_id=0, use_2cta=pair)
                T.mbarrier_wait_parity(consumed[0], k & 1)
            T.tcgen05_mma_arrive(tmem_full[0], arrive_2cta=pair)
        T.mbarrier_wait_parity(tmem_full[0], 0)
        T.copy(C_tmem, C_local)
        T.copy(C_local, C[bx * block_M, by * block_N])
    return C


def main():
    import torch
    a = torch.randn(256, 512, dtype=torch.float16).to(torch.float8_e4m3fn)
    b = torch.randn(512, 256, dtype=torch.float16).to(torch.float8_e4m3fn)
    sfa = torch.randint(122, 132, (256, 4), dtype=torch.uint8)
    sfb = torch.randint(122, 132, (256, 4), dtype=torch.uint8)
    mxfp8_pair(a, b, sfa, sfb, True)
    if not mixed:
        mxfp8_pair(a, b, sfa, sfb, False)


if __name__ == "__main__":
    main()
