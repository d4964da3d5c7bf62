# A hand-synchronised Ascend mixed kernel: the cube core (T.Cube) multiplies
# double-buffered L1 tiles into L0C under pipe flags, the vector cores
# (T.Vector, `as sid` their index) write their halves back after a
# cross-core flag; a block-scaled gemm takes its scales from the copies into
# L0A / L0B, another from SFA / SFB; stage and memory hints. --check accepts
# it; building refuses it at its first Ascend-only name.
# RUN: tlc-build --check %s 2>&1 | not grep -E "error:|warning:"
# RUN: tlc-build --emit=tile --kernel=mixed %s | FileCheck %s --check-prefix=TILE
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=BUILD
# TILE: tile.intrinsic "T.ascend_cross_core_set_flag"
# TILE: %[[SID:.*]] = tile.intrinsic "T.Vector"() {options = {vector = 2 : i64}} : () -> i32
# TILE: arith.muli %[[SID]], %c64_i32 : i32
# BUILD: ascend-mixed-kernel.py:[[@LINE+14]]:19: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.alloc_l0c,
# BUILD: ascend-mixed-kernel.py:[[@LINE+50]]:20: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.alloc_l1,
# BUILD-NOT: error
import tilelang
import tilelang.language as T


@tilelang.jit
def mixed(M=256, N=128, K=512, TM=128, TN=128, TK=128, STAGES=2):

    @T.prim_func
    def main(X: T.Tensor((M, K), T.bfloat16), W: T.Tensor((N, K), T.bfloat16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(M // TM) as bx:
            res = T.alloc_l0c((TM, TN), T.float32)
            x_l1 = T.alloc_l1((STAGES, TM, TK), T.bfloat16)
            w_l1 = T.alloc_l1((STAGES, TN, TK), T.bfloat16)
            half = T.alloc_shared((TM // 2, TN), T.float32)
            T.annotate_manual_multi_buffer(x_l1, {w_l1: STAGES})
            T.annotate_unlimit_memory("shared.l1", "shared.l0c")
            with T.Cube():
                for f in T.Serial(STAGES):
                    T.ascend_set_flag("MTE1_MTE2", f)
                for kt in T.Serial(K // TK):
                    f = kt % STAGES
                    T.ascend_wait_flag("MTE1_MTE2", f)
                    T.copy(X[bx * TM:(bx + 1) * TM, kt * TK:(kt + 1) * TK], x_l1[f, :, :])
                    T.copy(W[0:TN, kt * TK:(kt + 1) * TK], w_l1[f, :, :])
                    T.ascend_set_flag("MTE2_MTE1", f)
                    T.ascend_wait_flag("MTE2_MTE1", f)
                    T.gemm(x_l1[f, :, :], w_l1[f, :, :], res, transpose_B=True, clear_accum=(kt == 0))
                    T.ascend_set_flag("MTE1_MTE2", f)
                T.ascend_pipe_barrier("PIPE_ALL")
                T.dual_copy(res, half)
                T.ascend_cross_core_set_flag(4, "PIPE_FIX", 6)
            with T.Vector() as sid:
                T.ascend_cross_core_wait_flag(4, "PIPE_MTE3", 6)
                T.copy(half, C[bx * TM + sid * (TM // 2), 0])
                T.ascend_threadfence()

    return main


@tilelang.jit
def mx(M=64, N=64, K=128, STAGES=2):

    @T.prim_func
    def main(X: T.Tensor((M, K), T.float8_e4m3fn), W: T.Tensor((N, K), T.float8_e4m3fn),
             SFX: T.Tensor((M, K // 64), T.uint16), SFW: T.Tensor((N, K // 64), T.uint16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1) as bx:
            x_l1 = T.alloc_l1((M, K), T.float8_e4m3fn)
            w_l1 = T.alloc_l1((N, K), T.float8_e4m3fn)
            sfx_l1 = T.alloc_l1((M, K // 64), T.uint16)
            sfw_l1 = T.alloc_l1((N, K // 64), T.uint16)
            x_l0 = T.alloc_l0a((M, K), T.float8_e4m3fn)
            w_l0 = T.alloc_l0b((N, K), T.float8_e4m3fn)
            acc = T.alloc_l0c((M, N), T.float32)
            T.copy(X, x_l1)
            T.copy(W, w_l1)
            T.copy(SFX, sfx_l1)
            T.copy(SFW, sfw_l1)
            for k in T.Pipelined(1, num_stages=STAGES):
                with T.Stage(0):
                    T.copy(x_l1, x_l0, scale=sfx_l1)
                    T.copy(w_l1, w_l0, scale=sfw_l1)
                with T.Stage(1):
                    T.blockscaled_gemm(x_l0, w_l0, acc, transpose_B=True, clear_accum=True,
                                       unit_flag_ctrl=T.Select(k == 0, 3, 2))
            T.blockscaled_gemm(x_l1, w_l1, acc, sfx_l1, sfw_l1, transpose_B=True)
            T.copy(acc, C)

    return main


mixed()
mx()
