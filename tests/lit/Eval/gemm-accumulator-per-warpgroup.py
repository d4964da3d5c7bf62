# Two warpgroups T.gemm into one accumulator, each under its own thread range
# (`if tx // 128 == g:` or `with T.ws(g):`), the register carry of a
# ping-pong pipeline: warpgroup 1's gemm runs a stage ahead and the shared
# T.Parallel sums `acc` one iteration later. Each range's gemm lays `acc`
# out for its own 128 threads; tlc reported "layout conflict on 'acc'"
# between the two equal wgmma.C layouts of threads [0, 128) and [128, 256).
# The accumulator is now one fragment held once per warpgroup (replicated
# twice, the copy of warpgroup g on threads 128 * g + ...); the sum is
# checked on the CPU target against float64 NumPy. Gemms of two ranges that
# lay the accumulator out differently (sm_80: FullRow 4x1 warps, FullCol
# 1x4) are still a conflict.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
# RUN: tlc-build --check -D ws=True %s 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
# QUIET-NOT: error
# QUIET-NOT: warning
# RUN: tlc-build --emit=hints %s | FileCheck %s --check-prefix=HINT
# RUN: tlc-build --emit=hints -D ws=True %s | FileCheck %s --check-prefix=HINT
# HINT: "name":"acc","kind":"buffer","shape":[128,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread · rep 2","layoutDetail":"fragment [128, 64] · 256 threads
# HINT: "name":"csum",{{.*}}"layout":"wgmma.C · 4×1 warps · 64 regs/thread · rep 2"
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/if %s > /dev/null 2>&1
# RUN: tlc-build --target=cpu -D ws=True -o %t/ws %s > /dev/null 2>&1
# RUN: tlc-run %t/if --seed 5 --save %t/out-if > /dev/null
# RUN: tlc-run %t/ws --seed 6 --save %t/out-ws > /dev/null
# RUN: %python -c "import numpy as np, sys; d = sys.argv[1]; a = np.load(d + '/inputs/A.npy').astype(np.float64); b = np.load(d + '/inputs/B.npy').astype(np.float64); print('close', bool(np.allclose(np.load(d + '/C.npy'), a @ b, rtol=1e-4, atol=1e-3)))" %t/out-if | FileCheck %s --check-prefix=SUM
# RUN: %python -c "import numpy as np, sys; d = sys.argv[1]; a = np.load(d + '/inputs/A.npy').astype(np.float64); b = np.load(d + '/inputs/B.npy').astype(np.float64); print('close', bool(np.allclose(np.load(d + '/C.npy'), a @ b, rtol=1e-4, atol=1e-3)))" %t/out-ws | FileCheck %s --check-prefix=SUM
# SUM: close True
# RUN: not tlc-build --check --target=cuda:sm_80 -D policy1=FullCol %s 2>&1 | FileCheck %s --check-prefix=CONFLICT
# CONFLICT: gemm-accumulator-per-warpgroup.py:[[# @LINE + 37]]:25: error: layout conflict on 'acc': 'tile.gemm' needs mma.C · 1×4 warps · 64 regs/thread, but 'tile.gemm' gave it mma.C · 4×1 warps · 64 regs/thread
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def carry(M=128, N=64, K=256, BK=32, ws=False, policy1="FullRow"):
    policies = {"FullRow": T.GemmWarpPolicy.FullRow, "FullCol": T.GemmWarpPolicy.FullCol}

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=256) as _:
            tx = T.get_thread_binding()
            A_sh = T.alloc_shared((M, BK), "float16")
            B_sh = T.alloc_shared((BK, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            csum = T.alloc_fragment((M, N), "float32")
            T.clear(acc)
            T.clear(csum)
            # copy A, copy B, group 0's gemm, the sum, group 1's gemm.
            for ko in T.Pipelined(K // BK, order=[0, 1, 2, 3, 4], stage=[0, 0, 2, 2, 1]):
                T.copy(A[0, ko * BK], A_sh)
                T.copy(B[ko * BK, 0], B_sh)
                if ws:
                    with T.ws(0):
                        T.gemm(A_sh, B_sh, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
                else:
                    if tx // 128 == 0:
                        T.gemm(A_sh, B_sh, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
                for i, j in T.Parallel(M, N):
                    csum[i, j] = csum[i, j] + acc[i, j]
                if ws:
                    with T.ws(1):
                        T.gemm(A_sh, B_sh, acc, policy=policies[policy1], clear_accum=True)
                else:
                    if tx // 128 == 1:
                        T.gemm(A_sh, B_sh, acc, policy=policies[policy1], clear_accum=True)
            T.copy(csum, C)

    return main
