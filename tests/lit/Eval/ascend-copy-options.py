# T.copy's Ascend keywords and the Ascend helpers around them: a transposed
# GM -> L1 load of packed scale factors, MX scale-factor handles bound to
# their L0A / L0B tiles, scale= on an L1 -> L0 copy, L2 cache policies by
# name, padded GM -> UB copies, sub-core selection and a no-conflict hint.
# --check accepts them; the handles show their own scope; a transposed copy
# writes dst[i, j] from src[j, i]; building is refused at the first
# Ascend-only name of each kernel.
# RUN: tlc-build --check %s 2>&1 | not grep -E "error:|warning:"
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --emit=tile --kernel=transposed %s | FileCheck %s --check-prefix=TILE
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=BUILD
# HINTS: "name":"sfa_l1","kind":"buffer","shape":[64,2],"dtype":"uint16","scope":"shared.l1"
# HINTS: "name":"a_sf","kind":"buffer","shape":[64,2],"dtype":"uint16","scope":"shared.l0a.sf"
# HINTS: "name":"b_sf","kind":"buffer","shape":[32,4],"dtype":"uint8","scope":"shared.l0b.sf"
# TILE: tile.parallel (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]) in [64, 4]
# TILE: %[[A:[0-9]+]] = arith.addi %{{.*}}, %[[I]] : index
# TILE: %[[B:[0-9]+]] = arith.addi %{{.*}}, %[[J]] : index
# TILE: %[[C:[0-9]+]] = arith.addi %{{.*}}, %[[J]] : index
# TILE: %[[D:[0-9]+]] = arith.addi %{{.*}}, %[[I]] : index
# TILE: %[[V:[0-9]+]] = tile.load %S[%[[B]], %[[D]]] : !tile.buffer<[4, 64], ui16, global>
# TILE: tile.store %[[V]], %{{.*}}[%[[A]], %[[C]]] : !tile.buffer<[64, 4], ui16, shared.dyn>
# BUILD: ascend-copy-options.py:[[@LINE+16]]:20: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.alloc_l1,
# BUILD: ascend-copy-options.py:[[@LINE+45]]:29: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.copy(transpose=True),
# BUILD: ascend-copy-options.py:[[@LINE+58]]:13: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.ascend_set_copy_pad_value,
# BUILD-NOT: error
import tilelang
import tilelang.language as T


@tilelang.jit
def mx_gemm(M=64, N=32, K=128):

    @T.prim_func
    def main(X: T.Tensor((M, K), T.float8_e4m3fn), W: T.Tensor((N, K), T.float8_e4m3fn),
             SFX: T.Tensor((K // 64, M), T.uint16), SFW: T.Tensor((N, K // 32), T.uint8),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1) as bx:
            x_l1 = T.alloc_l1((M, K), T.float8_e4m3fn)
            w_l1 = T.alloc_l1((N, K), T.float8_e4m3fn)
            sfa_l1 = T.alloc_l1((M, K // 64), T.uint16)
            sfb_l1 = T.alloc_l1((N, K // 32), T.uint8)
            a = T.alloc_l0a((M, K), T.float8_e4m3fn)
            b = T.alloc_l0b((N, K), T.float8_e4m3fn)
            a_sf = T.alloc_l0a_sf(a)
            b_sf = T.alloc_l0b_sf(b, sf_dtype="uint8")
            acc = T.alloc_l0c((M, N), T.float32)
            T.copy(X, x_l1, l2_cache_ctrl="notalloc_keep")
            T.copy(W, w_l1, l2_cache_ctrl="L2_CACHE_HINT_NORMAL_FV")
            T.copy(SFX, sfa_l1, transpose=True)
            T.copy(SFW, sfb_l1, l2_cache_ctrl=4)
            T.copy(sfa_l1, a_sf)
            T.copy(sfb_l1, b_sf)
            T.copy(x_l1, a)
            T.copy(w_l1, b, scale=sfb_l1)
            T.gemm_blockscaled(a, b, acc, a_sf, b_sf, transpose_B=True, clear_accum=True)
            T.dual_copy(acc, C, l2_cache_ctrl="NOTALLOC_PW")

    return main


@tilelang.jit
def transposed(M=64, G=4):

    @T.prim_func
    def main(S: T.Tensor((G, M), T.uint16), O: T.Tensor((M, G), T.uint16)):
        with T.Kernel(1) as bx:
            s_ub = T.alloc_shared((M, G), T.uint16)
            T.copy(S, s_ub, transpose=True)
            T.copy(s_ub, O)

    return main


@tilelang.jit
def padded(M=4, N=30, N_pad=32):

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((M, N_pad), T.float32)):
        with T.Kernel(1) as bx:
            a_ub = T.alloc_shared((M, N_pad), T.float32)
            b_ub = T.alloc_shared((M, N_pad), T.float32)
            T.ascend_set_copy_pad_value(-1.0, dtype="float32")
            T.copy(A[:, :], a_ub[:, :N], data_select=True, sub_blockid=0)
            T.copy(A[:, :], b_ub[:, :N], pad_value=0.5)
            T.assume_no_conflict(B[0:M, 0:N_pad], cross=True)
            T.assume_no_conflict(a_ub, b_ub, level=-1)
            T.copy(a_ub, B)

    return main


mx_gemm()
transposed()
padded()
