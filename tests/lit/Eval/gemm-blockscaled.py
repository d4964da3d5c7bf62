# T.gemm_blockscaled and T.mma_gemm_blockscaled, C (+)= (A * SFA) @ (B * SFB),
# in the forms upstream's SM120 NVFP4 programs use: E2M1 A and B in shared
# memory, UE4M3 scales packed four to a uint32 word (one per 16 K elements),
# A as a register fragment of packed words (a_packed_words=True), B's scale
# rows in the lane-swizzled order (sf_b_swizzled=True), and the
# target-neutral T.gemm_blockscaled over a pipelined K loop (k_start moves
# with the tile). --check accepts them; each is one tile.intrinsic that
# keeps every argument; building refuses the call (no tlc target generates
# block-scaled MMA from it yet), at the call.
# RUN: tlc-build --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda --kernel nvfp4_swizzled_b_scales %s 2>&1 | FileCheck %s --check-prefix=CUDA
# RUN: not tlc-build --target=cuda:sm_100a --cuda-compiler=none -o %t/cuda100 --kernel nvfp4_k_loop %s 2>&1 | FileCheck %s --check-prefix=CUDA100
# RUN: not tlc-build --target=cpu -o %t/cpu --kernel nvfp4_k_loop %s 2>&1 | FileCheck %s --check-prefix=CPU
# RUN: not tlc-build --target=hip:gfx942 -o %t/hip --kernel nvfp4_k_loop %s 2>&1 | FileCheck %s --check-prefix=HIP
import tilelang
import tilelang.language as T

fp4 = T.float4_e2m1fn


@tilelang.jit(out_idx=[4, 5])
def nvfp4_rs_vs_ss(M=128, N=128, K=128, threads=256):
    # The same tile twice: A from shared memory, and A as a fragment of
    # uint32 words (eight E2M1 codes each) filled from a view of that tile.
    @T.prim_func
    def main(
        A: T.Tensor((M, K), fp4),
        B: T.Tensor((N, K), fp4),
        SFA: T.Tensor((M, K // 64), T.uint32),
        SFB: T.Tensor((N, K // 64), T.uint32),
        C_ss: T.Tensor((M, N), T.float32),
        C_rs: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(1, threads=threads) as _:
            A_sh = T.alloc_shared((M, K), fp4)
            B_sh = T.alloc_shared((N, K), fp4)
            SFA_sh = T.alloc_shared((M, K // 64), T.uint32)
            SFB_sh = T.alloc_shared((N, K // 64), T.uint32)
            A_words = T.view(A_sh, (M, K // 8), dtype=T.uint32)
            Aw = T.alloc_fragment((M, K // 8), T.uint32)
            acc_ss = T.alloc_fragment((M, N), T.float32)
            acc_rs = T.alloc_fragment((M, N), T.float32)
            T.copy(A, A_sh)
            T.copy(B, B_sh)
            T.copy(SFA, SFA_sh)
            T.copy(SFB, SFB_sh)
            T.clear(acc_ss)
            T.mma_gemm_blockscaled(A_sh, B_sh, acc_ss, SFA_sh, SFB_sh, transpose_B=True,
                                   policy=T.GemmWarpPolicy.FullRow, k_start=0,
                                   sf_a_granularity_k=16, sf_b_granularity_k=16,
                                   sf_layout="rowmajor")
            for i, w in T.Parallel(M, K // 8):
                Aw[i, w] = A_words[i, w]
            T.clear(acc_rs)
            T.mma_gemm_blockscaled(Aw, B_sh, acc_rs, SFA_sh, SFB_sh, transpose_B=True,
                                   policy=T.GemmWarpPolicy.FullRow, k_start=0,
                                   sf_a_granularity_k=16, sf_b_granularity_k=16,
                                   sf_layout="rowmajor", scale_dtype="ue4m3",
                                   a_packed_words=True)
            T.copy(acc_ss, C_ss)
            T.copy(acc_rs, C_rs)

    return main


@tilelang.jit(out_idx=[4])
def nvfp4_swizzled_b_scales(M=128, N=128, K=128, threads=256):
    words = K // 64
    rows = N // 2  # four words (two rows of B's scales) per row
    padded = rows + rows // 8  # one pad row per eight

    @T.prim_func
    def main(
        A: T.Tensor((M, K), fp4),
        B: T.Tensor((N, K), fp4),
        SFA: T.Tensor((M, words), T.uint32),
        SFB: T.Tensor((N, words), T.uint32),
        C: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(1, threads=threads) as _:
            A_sh = T.alloc_shared((M, K), fp4)
            B_sh = T.alloc_shared((N, K), fp4)
            SFA_sh = T.alloc_shared((M, words), T.uint32)
            SFB_sw = T.alloc_shared((padded, 2 * words), T.uint32)
            acc = T.alloc_fragment((M, N), T.float32)
            T.copy(A, A_sh)
            T.copy(B, B_sh)
            T.copy(SFA, SFA_sh)
            for r, w in T.Parallel(rows, 2 * words):
                SFB_sw[(r // 8) * 9 + r % 8, w] = SFB[2 * r + w // words, w % words]
            # CUDA: gemm-blockscaled.py:[[# @LINE + 1]]:13: error: T.mma_gemm_blockscaled is a block-scaled GEMM, which the CUDA target does not generate yet
            T.mma_gemm_blockscaled(A_sh, B_sh, acc, SFA_sh, SFB_sw, transpose_B=True,
                                   policy=T.GemmWarpPolicy.FullRow, clear_accum=True,
                                   k_start=0, sf_a_granularity_k=16,
                                   sf_b_granularity_k=16, sf_layout="rowmajor",
                                   scale_dtype="ue4m3", sf_b_swizzled=True)
            T.copy(acc, C)

    return main


@tilelang.jit(out_idx=[4])
def nvfp4_k_loop(M=256, N=256, K=512, block_M=128, block_N=128, block_K=128):
    # Scales of the whole K range stay in shared memory; each tile's gemm
    # names its logical K start, from which the scale index is derived.
    @T.prim_func
    def main(
        A: T.Tensor((M, K), fp4),
        B: T.Tensor((N, K), fp4),
        SFA: T.Tensor((M, K // 16), T.uint8),
        SFB: T.Tensor((N, K // 16), T.uint8),
        C: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), fp4)
            B_s = T.alloc_shared((block_N, block_K), fp4)
            SFA_s = T.alloc_shared((block_M, K // 16), T.uint8)
            SFB_s = T.alloc_shared((block_N, K // 16), T.uint8)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.copy(SFA[by * block_M, 0], SFA_s)
            T.copy(SFB[bx * block_N, 0], SFB_s)
            T.clear(acc)
            for ko in T.Pipelined(K // block_K, num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[bx * block_N, ko * block_K], B_s)
                # CPU: gemm-blockscaled.py:[[# @LINE + 3]]:17: error: the CPU target cannot emit T.gemm_blockscaled yet
                # HIP: gemm-blockscaled.py:[[# @LINE + 2]]:17: error: 'T.gemm_blockscaled' needs block-scaled MMA {{.*}} the HIP target cannot generate it
                # CUDA100: gemm-blockscaled.py:[[# @LINE + 1]]:17: error: T.gemm_blockscaled is a block-scaled GEMM, which the CUDA target does not generate yet
                T.gemm_blockscaled(A_s, B_s, acc, SFA_s, SFB_s, transpose_B=True,
                                   k_start=ko * block_K, sf_a_granularity_k=16,
                                   sf_b_granularity_k=16)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


nvfp4_rs_vs_ss()
nvfp4_swizzled_b_scales()
nvfp4_k_loop()

# CHECK-LABEL: tile.func @nvfp4_rs_vs_ss
# CHECK: tile.intrinsic "T.mma_gemm_blockscaled"({{.*}}) {options = {policy = "FullRow", sf_a_granularity_k = 16 : i64, sf_b_granularity_k = 16 : i64, sf_layout = "rowmajor", transpose_B = true}, params = ["A", "B", "C", "SFA", "SFB", "k_start"]}
# CHECK-SAME: !tile.buffer<[128, 128], f4E2M1FN, shared.dyn>, !tile.buffer<[128, 128], f4E2M1FN, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>, !tile.buffer<[128, 2], ui32, shared.dyn>, !tile.buffer<[128, 2], ui32, shared.dyn>, i32
# CHECK: tile.intrinsic "T.mma_gemm_blockscaled"({{.*}}) {options = {a_packed_words = true, policy = "FullRow", scale_dtype = "ue4m3", sf_a_granularity_k = 16 : i64, sf_b_granularity_k = 16 : i64, sf_layout = "rowmajor", transpose_B = true}
# CHECK-SAME: !tile.buffer<[128, 16], ui32, local.fragment>, !tile.buffer<[128, 128], f4E2M1FN, shared.dyn>
# CHECK-LABEL: tile.func @nvfp4_swizzled_b_scales
# CHECK: tile.intrinsic "T.mma_gemm_blockscaled"({{.*}}) {options = {clear_accum = true, policy = "FullRow", scale_dtype = "ue4m3", sf_a_granularity_k = 16 : i64, sf_b_granularity_k = 16 : i64, sf_b_swizzled = true, sf_layout = "rowmajor", transpose_B = true}
# CHECK-SAME: !tile.buffer<[72, 4], ui32, shared.dyn>
# CHECK-LABEL: tile.func @nvfp4_k_loop
# CHECK: tile.pipelined
# CHECK: tile.intrinsic "T.gemm_blockscaled"({{.*}}) {options = {sf_a_granularity_k = 16 : i64, sf_b_granularity_k = 16 : i64, transpose_B = true}, params = ["A", "B", "C", "SFA", "SFB", "k_start"]}
# CHECK-SAME: !tile.buffer<[128, 32], ui8, shared.dyn>, !tile.buffer<[128, 32], ui8, shared.dyn>, index) -> ()
