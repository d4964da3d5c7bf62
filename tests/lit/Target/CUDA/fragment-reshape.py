# T.reshape of fragments and local buffers: a reshape keeps every element
# in the same registers of the same threads, so the view's layout is the
# source's re-indexed by the new shape and the view is another name of the
# source's register array. The fp8 lightning indexer's pattern (the gemm
# accumulator reshaped to [block_N, block_Q, heads], scaled, summed over the
# heads, and stored transposed from a T.Parallel over [block_Q, block_N]),
# a rank-3 fragment flattened, a local array viewed as a matrix. The CPU
# target against NumPy at ragged sizes; the CUDA and HIP targets against the
# CPU target on sim (tests/sim/run_sim.py --breadth).
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python %S/Inputs/fragment_reshape_check.py %t/out | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=SM80
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=HIP
# CHECK: indexer True
# CHECK-NEXT: flatten True
# CHECK-NEXT: local True
#
# CUDA-LABEL: indexer_kernel(
# CUDA: alignas(16) float [[S:s]][16];  // wgmma.C · 4×1 warps · 16 regs/thread
# CUDA-NEXT: // T.view [64, 4, 8] of a fragment: wgmma.C · 4×1 warps · 16 regs/thread
# CUDA: // T.Parallel  fragment-reshape.py:[[# @LINE + 47]]:{{[0-9]+}}
# CUDA: const float x = [[S]][r_2];
# CUDA: [[S]][r_2] = t_{{[0-9]+}};
# CUDA: // T.reduce_sum
# CUDA: part[((r_3 >> 1) & 7)] = part[((r_3 >> 1) & 7)] + [[S]][r_3];
# CUDA: shuffleXor(part[k], 1);
# CUDA: shuffleXor(part[k], 2);
# CUDA-NOT: shuffleXor
# CUDA: // T.Parallel  fragment-reshape.py:[[# @LINE + 42]]:{{[0-9]+}}
# CUDA: Logits[(t_{{[0-9]+}}) * 150 + t_{{[0-9]+}}] = x_{{[0-9]+}};
# CUDA-LABEL: flatten_kernel(
# CUDA: // T.view [64, 32] of a fragment: parallel · 16 regs/thread
# CUDA: // T.view [2, 4] of a local buffer
# CUDA: const float x_{{[0-9]+}} = loc[(a) * 4 + b];
#
# SM80-LABEL: indexer_kernel(
# SM80: // T.view [64, 4, 8] of a fragment: mma.C
# HIP-LABEL: indexer_kernel(
# HIP: // T.view [64, 4, 8] of a fragment:
import tilelang
import tilelang.language as T


@tilelang.jit
def indexer(S, N, heads=8, D=64, block_N=64, block_Q=4, threads=128):
    # The fp8 lightning indexer's pattern: the gemm accumulator [block_N,
    # block_Q * heads] reshaped to [block_N, block_Q, heads], scaled
    # element-wise and summed over the heads.
    @T.prim_func
    def main(Q: T.Tensor((S * heads, D), "float16"), K: T.Tensor((N, D), "float16"),
             KScale: T.Tensor((N,), "float32"), W: T.Tensor((S, heads), "float32"),
             Logits: T.Tensor((S, N), "float32")):
        with T.Kernel(T.ceildiv(S, block_Q), threads=threads) as bx:
            q_shared = T.alloc_shared((block_Q * heads, D), "float16")
            k_shared = T.alloc_shared((block_N, D), "float16")
            scale = T.alloc_fragment((block_N,), "float32")
            s = T.alloc_fragment((block_N, block_Q * heads), "float32")
            s3 = T.reshape(s, (block_N, block_Q, heads))
            logits = T.alloc_fragment((block_N, block_Q), "float32")
            w = T.alloc_fragment((block_Q, heads), "float32")
            T.copy(Q[bx * block_Q * heads, 0], q_shared)
            T.copy(W[bx * block_Q, 0], w)
            for nb in T.Pipelined(T.ceildiv(N, block_N), num_stages=1):
                T.copy(K[nb * block_N, 0], k_shared)
                T.copy(KScale[nb * block_N], scale)
                T.gemm(k_shared, q_shared, s, transpose_B=True, clear_accum=True,
                       policy=T.GemmWarpPolicy.FullCol)
                for bn, bq, h in T.Parallel(block_N, block_Q, heads):
                    s3[bn, bq, h] = T.max(s3[bn, bq, h], 0) * w[bq, h] * scale[bn]
                T.reduce_sum(s3, logits, dim=-1, clear=True)
                for bq, bn in T.Parallel(block_Q, block_N):
                    Logits[bx * block_Q + bq, nb * block_N + bn] = logits[bn, bq]

    return main


@tilelang.jit
def flatten(M, G=4, H=8, threads=128):
    # A rank-3 fragment flattened to rank 2 and written through the view;
    # a thread's local array viewed as a matrix.
    @T.prim_func
    def main(A: T.Tensor((M, G, H), "float32"), B: T.Tensor((M, G * H), "float32"),
             C: T.Tensor((threads, 2, 4), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            f = T.alloc_fragment((M, G, H), "float32")
            f2 = T.reshape(f, (M, G * H))
            T.copy(A, f)
            for i, j in T.Parallel(M, G * H):
                f2[i, j] = f2[i, j] * (j + 1)
            T.copy(f2, B)
            tx = T.get_thread_binding()
            loc = T.alloc_local((8,), "float32")
            loc2 = T.reshape(loc, (2, 4))
            for k in T.serial(8):
                loc[k] = k * tx
            for a in T.serial(2):
                for b in T.serial(4):
                    C[tx, a, b] = loc2[a, b] + a
    return main


indexer(202, 150)
flatten(64)
