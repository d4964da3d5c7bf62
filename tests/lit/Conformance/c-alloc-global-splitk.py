# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group C (+B, F): one prim_func with two T.Kernel launches and a
# T.alloc_global float32 workspace between them: split-K partial GEMMs write
# their slices, a second kernel reduces the splits and casts to float16.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def splitk_matmul(M, N, K, split_k=4, block_M=128, block_N=128, block_K=32,
                  dtype=T.float16, accum_dtype=T.float32):
    k_per_split = K // split_k

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        partial = T.alloc_global((split_k, M, N), accum_dtype)
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=128) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for ko in T.Pipelined(k_per_split // block_K, num_stages=3):
                k0 = bz * k_per_split + ko * block_K
                T.copy(A[by * block_M, k0], A_shared)
                T.copy(B[k0, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, partial[bz, by * block_M, bx * block_N])

        with T.Kernel(T.ceildiv(N, 64), T.ceildiv(M, 64), threads=128) as (rx, ry):
            acc = T.alloc_fragment((64, 64), accum_dtype)
            part = T.alloc_fragment((64, 64), accum_dtype)
            T.clear(acc)
            for s in T.serial(split_k):
                T.copy(partial[s, ry * 64, rx * 64], part)
                for i, j in T.Parallel(64, 64):
                    acc[i, j] += part[i, j]
            T.copy(acc, C[ry * 64, rx * 64])

    return main


kernel = splitk_matmul(1024, 1024, 8192)

# CHECK: "name":"A","kind":"tensor","shape":[1024,8192],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"partial","kind":"buffer","shape":[4,1024,1024],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"(bx, by, bz)","kind":"kernel","shape":[8,8,4],{{.*}}"detail":"128 threads + a 128-thread TMA producer warpgroup (warp-specialised)"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"(rx, ry)","kind":"kernel","shape":[16,16],{{.*}}"detail":"128 threads"
# CHECK: "name":"acc","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
