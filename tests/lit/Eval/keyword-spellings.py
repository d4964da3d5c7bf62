# Keywords of TileLang releases that tlc's signatures now accept: T.copy's
# cache policies, T.tcgen05_gemm_blockscaled's scale-factor ids (the older
# spelling of its k_start/granularity keywords) and T.Persistent's pipeline
# options. No diagnostic but the one remark of the sm_100a target the file
# asks for (on a store it stages); the ids reach the intrinsic.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
# DIAG: keyword-spellings.py:{{[0-9]+}}:9: remark: 2-way bank conflict on the staging tile of C_frag
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: not tlc-build --check %S/Inputs/keyword-spellings-unknown.py 2>&1 | FileCheck %s --check-prefix=ERR
import tilelang
import tilelang.language as T


@T.prim_func
def cached_copy(A: T.Tensor((5, 130), T.float32), B: T.Tensor((5, 130), T.float32)):
    with T.Kernel(1, threads=32):
        T.copy(A[0, :], B[0, :], coalesced_width=2, load_cache_policy="cg",
               store_cache_policy="wt", prefer_instruction="sync")


@T.prim_func
def persistent_rows(X: T.Tensor((256, 64), T.float32), Y: T.Tensor((256, 64), T.float32)):
    with T.Kernel(4, threads=128) as worker:
        for by, bx in T.Persistent([4, 1], 4, worker, num_stages=2, annotations={"tag": 7}):
            for i, j in T.Parallel(64, 64):
                Y[by * 64 + i, bx * 64 + j] = X[by * 64 + i, bx * 64 + j] * 2


@tilelang.jit(target="cuda:sm_100a")
def mx_gemm(A, B, block_M=128, block_N=128, block_K=128, stages=2):
    M, N, K = T.const("M, N, K")
    A: T.Tensor[[M, K], T.float8_e4m3fn]
    B: T.Tensor[[K, N], T.float8_e4m3fn]
    C = T.empty((M, N), T.bfloat16)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_s = T.alloc_shared((stages, block_M, block_K), T.float8_e4m3fn)
        B_s = T.alloc_shared((stages, block_K, block_N), T.float8_e4m3fn)
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        SFA_tmem = T.alloc_tmem([block_M, 4], T.uint8)
        SFB_tmem = T.alloc_tmem([block_M, 4], T.uint8)
        C_frag = T.alloc_fragment((block_M, block_N), T.float32)
        done = T.alloc_barrier([1])
        for k in T.serial(T.ceildiv(K, block_K)):
            T.copy(A[by * block_M, k * block_K], A_s[k % stages, :, :])
            T.copy(B[k * block_K, bx * block_N], B_s[k % stages, :, :])
            T.tcgen05_gemm_blockscaled(A_s[k % stages, :, :], B_s[k % stages, :, :], C_tmem,
                                       SFA_tmem, SFB_tmem, mbar=done, clear_accum=k == 0,
                                       sf_a_id=k % 4, sf_b_id=k % 4)
        T.mbarrier_wait_parity(done, 0)
        T.copy(C_tmem, C_frag)
        T.copy(C_frag, C[by * block_M, bx * block_N])
    return C


mx_gemm.compile(M=512, N=512, K=512)

# CHECK-LABEL: tile.func @cached_copy
# CHECK-LABEL: tile.func @persistent_rows
# CHECK: tile.intrinsic "T.tcgen05_gemm_blockscaled"({{.*}}) {params = ["A", "B", "C", "SFA_tmem", "SFB_tmem", "clear_accum", "mbar", "sf_a_id", "sf_b_id"]}
# ERR: keyword-spellings-unknown.py:10:22: error: T.copy() got an unexpected keyword argument 'cache_policy'
