# Programs for TileLang's Ascend back end (Huawei Ascend NPUs): the cube
# unit's L1 / L0A / L0B / L0C buffers, the unified buffer, SIMT and SIMD
# vector functions, inter-core flags, HF32 and atomic store modes. --check
# analyses them without a diagnostic and the hints show the Ascend scopes;
# building for any tlc target gives one located error per kernel, at its
# first Ascend-only name.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# RUN: not tlc-build --target=cpu -o %t %s 2>&1 | FileCheck %s --check-prefix=BUILD
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=BUILD
# HINTS: "name":"a_l1","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.l1"
# HINTS: "name":"a_l0","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.l0a"
# HINTS: "name":"b_l0","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.l0b"
# HINTS: "name":"acc","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"shared.l0c"
# HINTS: "name":"c_ub","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"shared.ub"
# BUILD: ascend-dialect.py:[[@LINE+15]]:13: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.set_hf32_mode, TileLang's Ascend back end), which tlc does not target
# BUILD: ascend-dialect.py:[[@LINE+42]]:44: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.SimtVF,
# BUILD: ascend-dialect.py:[[@LINE+56]]:13: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.annotate_buffer_versions,
# BUILD-NOT: error
import tilelang
import tilelang.language as T


@tilelang.jit
def cube(M=256, N=256, K=256, tile=64):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(M, tile), T.ceildiv(N, tile)) as (bx, by):
            T.set_hf32_mode(None)
            a_l1 = T.alloc_l1((tile, tile), T.float16)
            b_l1 = T.alloc_l1((tile, tile), T.float16)
            a_l0 = T.alloc_l0a((tile, tile), T.float16)
            b_l0 = T.alloc_l0b((tile, tile), T.float16)
            acc = T.alloc_l0c((tile, tile), T.float32)
            c_ub = T.alloc_ub((tile, tile), T.float32)
            T.set_atomic("add", T.float32)
            for k in T.serial(K // tile):
                T.copy(A[bx * tile, k * tile], a_l1)
                T.copy(B[k * tile, by * tile], b_l1)
                T.copy(a_l1, a_l0)
                T.copy(b_l1, b_l0)
            with T.PerCoreTask():
                T.ascend_sync_inter_arrive("PIPE_FIX", 0)
                T.ascend_sync_inter_wait("PIPE_FIX", 0)
            T.dual_copy(acc, c_ub)
            T.dual_copy(c_ub, C[bx * tile:(bx + 1) * tile, by * tile:(by + 1) * tile])
            T.set_atomic_none()

    return main


@tilelang.jit
def simt_scale(N=4096, threads=256):

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(N // threads) as bx, T.SimtVF(threads=threads):
            tx = T.get_thread_binding()
            Y[bx * threads + tx] = X[bx * threads + tx] * 2.0

    return main


@tilelang.jit
def simd_absmax(M=32, N=128):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), S: T.Tensor((M,), T.float32)):
        with T.Kernel(1) as bx:
            x_ub = T.alloc_shared((M, N), T.float32)
            s_ub = T.alloc_shared((M,), T.float32)
            T.annotate_buffer_versions({x_ub: 2, s_ub: 2})
            T.copy(X, x_ub)
            with T.SimdVF(latency=100):
                eps = T.simd.vdup(0.0001, "float32")
                mask = T.simd.pset(64)
                for i in range(M):
                    x0 = T.simd.vld(x_ub[i, 0])
                    x1 = T.simd.vld(x_ub[i, 64])
                    m = T.simd.vmax(T.simd.vabs(x0), T.simd.vabs(x1))
                    m = T.simd.vmax(T.simd.vcmax(m), eps)
                    h = T.simd.vcvt(T.simd.vdiv(m, T.simd.vdupv(m)), "float16")
                    T.simd.vsts(s_ub[i], T.simd.vadd(m, m, mask), dist="ONEPT_B32")
            T.copy(s_ub, S)

    return main


cube()
simt_scale()
simd_absmax()
