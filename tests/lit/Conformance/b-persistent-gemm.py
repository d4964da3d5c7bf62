# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group B (+D): persistent GEMM, one CTA per SM from
# tilelang.carver.arch.driver.get_num_sms(), T.Persistent over the 2-D tile
# domain, a pipelined K loop and a shared-memory epilogue.
import argparse

import tilelang
import tilelang.language as T
from tilelang.carver.arch import driver


@tilelang.jit(out_idx=[-1])
def persistent_matmul(M, N, K, block_M, block_N, block_K, threads=256, num_stages=3,
                      dtype=T.float16, accum_dtype=T.float32):
    sm_num = driver.get_num_sms()
    m_blocks = T.ceildiv(M, block_M)
    n_blocks = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(sm_num, threads=threads) as (block_id):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)

            for bx, by in T.Persistent([m_blocks, n_blocks], sm_num, block_id):
                T.clear(C_local)
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                    T.copy(A[bx * block_M, k * block_K], A_shared)
                    T.copy(B[k * block_K, by * block_N], B_shared)
                    T.gemm(A_shared, B_shared, C_local)
                T.copy(C_local, C_shared)
                T.copy(C_shared, C[bx * block_M, by * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--M", type=int, default=8192)
    parser.add_argument("--N", type=int, default=8192)
    parser.add_argument("--K", type=int, default=4096)
    args = parser.parse_args()
    kernel = persistent_matmul(args.M, args.N, args.K, 128, 256, 64)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"A","kind":"tensor","shape":[8192,4096],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"block_id","kind":"kernel","shape":[132],{{.*}}"detail":"256 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[64,256],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 4 panels"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,256],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×2 warps · 128 regs/thread"
# CHECK: "name":"C_shared","kind":"buffer","shape":[128,256],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 512B rows"
# CHECK: "name":"k","kind":"pipeline","shape":[64],{{.*}}"detail":"3 stages"
