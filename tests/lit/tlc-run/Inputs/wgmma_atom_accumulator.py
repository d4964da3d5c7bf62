# For wgmma-atom-accumulator-sim.test: TileLang's WGMMA atom emitter
# (upstream test_tilelang_language_atom_mma.py's make_wgmma_atom_kernel,
# reduced): the accumulator is annotated with the emitter's
# make_mma_store_layout for its block_row_warps x block_col_warps warps
# (4 x 1: warp w holds rows 16 w .. 16 w + 15, PTX's wgmma D fragment),
# while a T.gemm of the default Square policy lays 4 warps out 2 x 2.
# plain=1: the same accumulator layout written as a T.Fragment by hand
# (PTX ISA, "Matrix fragments for wgmma.mma_async .m64nNk16", register
# layout of D: row = 16 w + lane / 4 + 8 ((r / 2) % 2), column
# = 8 (r / 4) + 2 (lane % 4) + r % 2) under a plain T.gemm.
import tilelang
import tilelang.language as T
from tilelang.intrinsics import WGMMATensorCoreIntrinEmitter
from tilelang.layout import (make_full_bank_swizzled_layout,
                             make_quarter_bank_swizzled_layout)


def wgmma_d_thread(i, j):
    return ((i % 64) // 16) * 32 + 4 * (i % 8) + (j % 8) // 2


def wgmma_d_register(i, j):
    return 4 * (j // 8) + 2 * ((i % 16) // 8) + j % 2


def plain_gemm(M, N, chunk):
    @T.prim_func
    def main(A: T.Tensor((M, chunk), T.float16),
             B: T.Tensor((chunk, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, chunk), T.float16)
            B_shared = T.alloc_shared((chunk, N), T.float16)
            C_local = T.alloc_fragment((M, N), T.float32)
            T.annotate_layout({
                C_local: T.Fragment(C_local.shape,
                                    forward_thread_fn=wgmma_d_thread,
                                    forward_index_fn=wgmma_d_register)
            })
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.gemm(A_shared, B_shared, C_local, clear_accum=True)
            T.copy(C_local, C)

    return main


@tilelang.jit
def wgmma_atom_accumulator(M=64, N=64, chunk=32, plain=0):
    if plain:
        return plain_gemm(M, N, chunk)
    emi = WGMMATensorCoreIntrinEmitter(
        a_dtype=T.float16, b_dtype=T.float16, accum_dtype=T.float32,
        a_transposed=False, b_transposed=False, block_row_warps=4,
        block_col_warps=1, warp_row_tiles=16, warp_col_tiles=N, chunk=chunk)

    @T.prim_func
    def atoms(A: T.Tensor((M, chunk), T.float16),
              B: T.Tensor((chunk, N), T.float16),
              C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, chunk), T.float16)
            B_shared = T.alloc_shared((chunk, N), T.float16)
            C_local = T.alloc_fragment((M, N), T.float32)
            emi._assign_a_shared_layout(
                make_quarter_bank_swizzled_layout(A_shared))
            emi._assign_b_shared_layout(make_full_bank_swizzled_layout(B_shared))
            T.annotate_layout({
                A_shared: make_quarter_bank_swizzled_layout(A_shared),
                B_shared: make_full_bank_swizzled_layout(B_shared),
                C_local: emi.make_mma_store_layout(C_local),
            })
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            a_params = emi.compute_wgmma_a_desc_params(A_shared)
            b_params = emi.compute_wgmma_b_desc_params(B_shared)
            desc_a = T.alloc_wgmma_desc()
            desc_b = T.alloc_wgmma_desc()
            emi.init_wgmma_a_desc(desc_a, A_shared, a_params)
            emi.init_wgmma_b_desc(desc_b, B_shared, b_params)
            emi.wgmma_fence_c(C_local)
            emi.wgmma_arrive()
            for ki in T.unroll(emi.wgmma_num_k_atoms):
                emi.wgmma_ss_atom(desc_a, desc_b, C_local, 0, 0, ki, a_params,
                                  b_params, T.bool(True))
            emi.wgmma_commit()
            emi.wgmma_wait(0)
            emi.wgmma_fence_c(C_local)
            T.copy(C_local, C)

    return atoms
