# Blackwell block-scaled MXFP8 GEMM in the DeepGEMM style: one warp loads
# A, B and their E8M0 scale factors, another copies the scale factors from
# shared to tensor memory with T.copy (the tensor-memory tile has another
# shape: TileLang transposes them per warp and issues tcgen05.cp) and issues
# T.blockscaled_gemm. No diagnostic; the copy becomes the transpose and the
# tcgen05.cp intrinsics, the GEMM one intrinsic with its scale-factor ids.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --emit=tile %s | FileCheck %s

import tilelang
import tilelang.language as T


@tilelang.jit
def mx_gemm(A, B, SFA, SFB, block_M=128, block_N=256, block_K=128, stages=2):
    M, N, K = T.const("M, N, K")
    A: T.Tensor[[M, K], T.float8_e4m3fn]
    B: T.Tensor[[K, N], T.float8_e4m3fn]
    SFA: T.Tensor[[M, K // 128], T.uint8]
    SFB: T.Tensor[[N, K // 128], T.uint8]
    C = T.empty((M, N), T.bfloat16)
    period = 128 * 4 // block_K

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_s = T.alloc_shared((stages, block_M, block_K), T.float8_e4m3fn)
        B_s = T.alloc_shared((stages, block_K, block_N), T.float8_e4m3fn)
        SFA_s = T.alloc_shared((stages, block_M, 4), T.uint8)
        SFB_s = T.alloc_shared((stages, block_N, 4), T.uint8)
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        SFA_tmem = T.alloc_tmem([block_M, block_M // 128 * 4], T.uint8)
        SFB_tmem = T.alloc_tmem([block_M, block_N // 128 * 4], T.uint8)
        C_frag = T.alloc_fragment((block_M, block_N), T.float32)
        full = T.alloc_barrier([32] * stages)
        empty = T.alloc_barrier([1] * stages)
        done = T.alloc_barrier([1])
        tx = T.get_thread_binding()

        if tx < 32:
            for k in T.serial(T.ceildiv(K, block_K)):
                T.mbarrier_wait_parity(empty[k % stages], ((k // stages) & 1) ^ 1)
                T.copy(A[by * block_M, k * block_K], A_s[k % stages, :, :])
                T.copy(B[k * block_K, bx * block_N], B_s[k % stages, :, :])
                if k % period == 0:
                    T.copy(SFA[by * block_M, k // period * 4], SFA_s[k % stages, :, :])
                    T.copy(SFB[bx * block_N, k // period * 4], SFB_s[k % stages, :, :])
                T.mbarrier_arrive(full[k % stages])
        elif tx < 64:
            for k in T.serial(T.ceildiv(K, block_K)):
                T.mbarrier_wait_parity(full[k % stages], (k // stages) & 1)
                if k % period == 0:
                    T.copy(SFA_s[k % stages, :, :], SFA_tmem)
                    T.copy(SFB_s[k % stages, :, :], SFB_tmem)
                T.blockscaled_gemm(A_s[k % stages, :, :], B_s[k % stages, :, :], C_tmem,
                                   SFA_tmem, SFB_tmem, mbar=empty[k % stages],
                                   clear_accum=k == 0, sf_a_id=k % period,
                                   sf_b_id=k % period)
            T.tcgen05_mma_arrive(done)
        T.mbarrier_wait_parity(done, 0)
        T.copy(C_tmem, C_frag)
        T.copy(C_frag, C[by * block_M, bx * block_N])
    return C


mx_gemm.compile(M=1024, N=1024, K=1024)

# HINTS: "name":"SFA_tmem","kind":"buffer","shape":[128,4],"dtype":"uint8","scope":"shared.tmem"
# HINTS: "name":"SFB_tmem","kind":"buffer","shape":[128,8],"dtype":"uint8","scope":"shared.tmem"

# SFA's tiles agree in shape: an ordinary copy. SFB's 256 x 4 scale factors
# fill 128 x 8 of tensor memory.
# CHECK: tile.copy %{{.*}} to %{{.*}} : !tile.buffer<[1, 128, 4], ui8, shared.dyn> to !tile.buffer<[128, 4], ui8, shared.tmem>
# CHECK: tile.intrinsic "T.tcgen05_sf_warp_transpose"(%{{.*}}) {params = ["smem_src"]} : (!tile.buffer<[1, 256, 4], ui8, shared.dyn>) -> ()
# CHECK: tile.intrinsic "T.tcgen05_cp_warpx4"(%{{.*}}, %{{.*}}) {params = ["smem_src", "tmem_dst"]} : (!tile.buffer<[1, 256, 4], ui8, shared.dyn>, !tile.buffer<[128, 8], ui8, shared.tmem>) -> ()
# CHECK: tile.intrinsic "T.blockscaled_gemm"({{.*}}) {params = ["A", "B", "C", "SFA_tmem", "SFB_tmem", "clear_accum", "mbar", "sf_a_id", "sf_b_id"]}
