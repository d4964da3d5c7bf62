# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# I: cp.async double buffering (T.attr async_scope, T.async_copy, T.ptx_commit_group,
# T.ptx_wait_group(n), T.sync_threads). Shape: lazy factory, argparse call site.
import argparse

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm_cp_async(M, N, K, block_M=64, block_N=64, block_K=32, threads=128):
    k_iters = T.ceildiv(K, block_K)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((K, N), T.float16),
        C: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((2, block_M, block_K), T.float16)
            B_s = T.alloc_shared((2, block_K, block_N), T.float16)
            C_l = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(C_l)
            # prologue: stage 0 as one committed group
            with T.attr("default", "async_scope", 1):
                T.copy(A[by * block_M, 0], A_s[0, :, :])
                T.copy(B[0, bx * block_N], B_s[0, :, :])
            T.ptx_commit_group()
            for ko in T.serial(k_iters):
                cur = ko % 2
                nxt = (ko + 1) % 2
                if ko + 1 < k_iters:
                    T.async_copy(A[by * block_M, (ko + 1) * block_K], A_s[nxt, :, :])
                    T.async_copy(B[(ko + 1) * block_K, bx * block_N], B_s[nxt, :, :])
                    T.ptx_wait_group(2)
                else:
                    T.ptx_wait_group(0)
                T.sync_threads()
                T.gemm(A_s[cur, :, :], B_s[cur, :, :], C_l)
                T.sync_threads()
            T.copy(C_l, C[by * block_M, bx * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=2048)
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--k", type=int, default=1024)
    args = parser.parse_args()
    kernel = gemm_cp_async(args.m, args.n, args.k)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"A","kind":"tensor","shape":[2048,1024],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"A_s","kind":"buffer","shape":[2,64,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"B_s","kind":"buffer","shape":[2,32,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# The stage slices A_s[cur, :, :] are read through wgmma descriptors on sm_90a.
# CHECK: "name":"C_l","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 32 regs/thread"
