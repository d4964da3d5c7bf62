# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group B (+F): layout of a GEMM accumulator that only warp group 0 touches.
# With threads=256 and every use of C_local under T.ws(0) (or `if tx < 128`),
# the accumulator belongs to the 128 consumer threads: one warp group, 4x1
# warps, 128 registers per thread (upstream bounds the thread range from the
# enclosing condition when inferring layouts).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def consumer_only(M, N, K, block_M=128, block_N=128, block_K=64, dtype=T.float16):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            D_local = T.alloc_fragment((block_M, block_N), T.float32)
            ready = T.alloc_barrier(128)
            free = T.alloc_barrier(128)
            tx = T.get_thread_binding()

            with T.ws(0):
                T.clear(C_local)
            for ko in T.serial(T.ceildiv(K, block_K)):
                with T.ws(1):
                    T.mbarrier_wait_parity(free, (ko & 1) ^ 1)
                    T.copy(A[by * block_M, ko * block_K], A_shared)
                    T.copy(B[ko * block_K, bx * block_N], B_shared)
                    T.mbarrier_arrive(ready)
                with T.ws(0):
                    T.mbarrier_wait_parity(ready, ko & 1)
                    T.gemm(A_shared, B_shared, C_local)
                    T.mbarrier_arrive(free)
            with T.ws(0):
                T.copy(C_local, C[by * block_M, bx * block_N])

            if tx < 128:
                T.clear(D_local)
                T.gemm(A_shared, B_shared, D_local)
                T.copy(D_local, C[by * block_M, bx * block_N])

    return main


kernel = consumer_only(4096, 4096, 4096)

# CHECK: "name":"(bx, by)","kind":"kernel","shape":[32,32],{{.*}}"detail":"256 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"D_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"ready","kind":"buffer","shape":[1],"dtype":"uint64","scope":"shared.barrier","layout":null
