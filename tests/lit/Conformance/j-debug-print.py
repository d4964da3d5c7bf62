# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# J: T.print of shared/fragment tiles (warp_group_id/warp_id), guarded scalars, msg-only.
# Shape: plain factory + tilelang.compile(func, target="cuda").
import tilelang
import tilelang.language as T


def debug_gemm(M=64, N=64, K=32, dtype=T.float16, verbose=True):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((M, K), dtype)
            B_s = T.alloc_shared((K, N), dtype)
            acc = T.alloc_fragment((M, N), T.float32)
            T.copy(A, A_s)
            T.copy(B, B_s)
            if verbose:
                T.print(A_s, msg="A tile")
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.print(acc, msg="accumulator", warp_group_id=0, warp_id=1)
            tid = T.get_thread_binding()
            if tid == 0:
                T.print(bx + by, msg="block")
                T.print(msg="gemm done")
            for i, j in T.Parallel(M, N):
                if i == j:
                    T.print(acc[i, j])
            T.copy(acc, C)

    return main


kernel = tilelang.compile(debug_gemm(), target="cuda")

# CHECK: "name":"A","kind":"tensor","shape":[64,32],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"A_s","kind":"buffer","shape":[64,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"B_s","kind":"buffer","shape":[32,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"acc","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 32 regs/thread"
