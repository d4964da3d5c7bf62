# A fragment two warpgroups use, each under its own thread range, is one
# copy per warpgroup on the GPU targets too (tile-split-range-fragments in
# the GPU lowering): the register carry of a ping-pong pipeline, where
# warpgroup 1's gemm runs a stage ahead of warpgroup 0's and a block-wide
# T.Parallel adds `acc` into `out` one iteration later, then scales it and
# adds a bias, and a block-wide T.copy stores `out`. The CUDA target
# refused it ("lays out a fragment for the threads of one range"); now each
# warpgroup sums, scales and stores its own copy, the store split by rows
# (warpgroup g stores rows [64 g, 64 g + 64), so no element is stored
# twice). The CPU target against float64 NumPy here; the CUDA builds
# against the CPU target on sim in range-fragment-carry-sim.test.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda -D ws=True %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=CUDA
# CUDA: float acc[{{[0-9]+}}];
# CUDA: float acc_1[{{[0-9]+}}];
# CUDA: float out[{{[0-9]+}}];
# CUDA: float out_1[{{[0-9]+}}];
# CUDA: // T.copy  range-fragment-carry.py:[[# @LINE + 53]]:13
# CUDA: if ([[R0:i0_[0-9]+]] >= 64) continue;  // outside the copied part
# CUDA-NEXT: copyVector<{{[0-9]+}}>(&C[([[R0]]) * 64 + {{.*}}], &out[
# CUDA: // threads [128, 256) (128): tile operations are partitioned over them
# CUDA: // T.copy  range-fragment-carry.py:[[# @LINE + 49]]:13
# CUDA: if ([[R1:i0_[0-9]+]] < 64) continue;  // outside the copied part
# CUDA-NEXT: copyVector<{{[0-9]+}}>(&C[((64 + ([[R1]] - 64))) * 64 + {{.*}}], &out_1[
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/if %s > /dev/null 2>&1
# RUN: tlc-build --target=cpu -D ws=True -o %t/ws %s > /dev/null 2>&1
# RUN: tlc-run %t/if --seed 11 --save %t/out-if > /dev/null
# RUN: tlc-run %t/ws --seed 12 --save %t/out-ws > /dev/null
# RUN: %python %S/Inputs/range_fragment_carry_check.py %t/out-if %t/out-ws | FileCheck %s
# CHECK: if close True
# CHECK: ws close True
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3])
def carry(M=128, N=64, K=192, BK=32, scale=0.5, ws=False):

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
             bias: T.Tensor((N,), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=256) as _:
            tx = T.get_thread_binding()
            a_s = T.alloc_shared((M, BK), "float16")
            b_s = T.alloc_shared((BK, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            out = T.alloc_fragment((M, N), "float32")
            T.clear(acc)
            T.clear(out)
            # Statements: the two loads, warpgroup 0's gemm (stage 2), the
            # carry (stage 2), warpgroup 1's gemm (stage 1, a tile ahead).
            for k in T.Pipelined(K // BK, order=[0, 1, 2, 3, 4], stage=[0, 0, 2, 2, 1]):
                T.copy(A[0, k * BK], a_s)
                T.copy(B[k * BK, 0], b_s)
                if ws:
                    with T.ws(0):
                        T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
                else:
                    if tx // 128 == 0:
                        T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
                for i, j in T.Parallel(M, N):
                    out[i, j] += acc[i, j]
                if ws:
                    with T.ws(1):
                        T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
                else:
                    if tx // 128 == 1:
                        T.gemm(a_s, b_s, acc, policy=T.GemmWarpPolicy.FullRow, clear_accum=True)
            for i, j in T.Parallel(M, N):
                out[i, j] = out[i, j] * scale + bias[j]
            T.copy(out, C)

    return main
