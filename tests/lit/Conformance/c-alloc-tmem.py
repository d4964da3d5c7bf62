# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group C (+B, F, I): Blackwell tensor memory. Eager @tilelang.jit GEMM whose
# accumulator is T.alloc_tmem; warp 0 issues TMA loads into a stage ring,
# warp 1 issues T.tcgen05_gemm signalling per-stage mbarriers, and all
# threads drain TMEM through a fragment after T.tcgen05_mma_arrive.
import tilelang
import tilelang.language as T


@tilelang.jit
def tmem_matmul(A, B, block_M: int = 128, block_N: int = 256, block_K: int = 64, num_stages: int = 4):
    M, N, K = T.const("M, N, K")
    in_dtype = T.bfloat16
    accum_dtype = T.float32
    k_iters = T.ceildiv(K, block_K)

    A: T.Tensor[[M, K], in_dtype]
    B: T.Tensor[[K, N], in_dtype]
    C = T.empty((M, N), in_dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_shared = T.alloc_shared((num_stages, block_M, block_K), in_dtype)
        B_shared = T.alloc_shared((num_stages, block_K, block_N), in_dtype)
        C_tmem = T.alloc_tmem([block_M, block_N], accum_dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        C_shared = T.alloc_shared((block_M, block_N), in_dtype)
        loaded = T.alloc_barrier([32] * num_stages)
        consumed = T.alloc_barrier([1] * num_stages)
        tmem_full = T.alloc_barrier([1])
        tx = T.get_thread_binding()

        if tx < 32:
            for k in T.serial(k_iters):
                T.mbarrier_wait_parity(consumed[k % num_stages], ((k // num_stages) & 1) ^ 1)
                T.tma_copy(A[by * block_M:(by + 1) * block_M, k * block_K:(k + 1) * block_K],
                           A_shared[k % num_stages, :, :], barrier=loaded[k % num_stages])
                T.tma_copy(B[k * block_K:(k + 1) * block_K, bx * block_N:(bx + 1) * block_N],
                           B_shared[k % num_stages, :, :], barrier=loaded[k % num_stages])
                T.mbarrier_arrive(loaded[k % num_stages])
        elif tx < 64:
            for k in T.serial(k_iters):
                T.mbarrier_wait_parity(loaded[k % num_stages], (k // num_stages) & 1)
                T.tcgen05_gemm(A_shared[k % num_stages, :, :], B_shared[k % num_stages, :, :], C_tmem,
                               mbar=consumed[k % num_stages], clear_accum=k == 0)
            T.tcgen05_mma_arrive(tmem_full)

        T.mbarrier_wait_parity(tmem_full, 0)
        T.copy(C_tmem, C_local)
        T.copy(C_local, C_shared)
        T.copy(C_shared, C[by * block_M, bx * block_N])

    return C


kernel = tmem_matmul.compile(M=8192, N=8192, K=8192)

# CHECK: "name":"A","kind":"tensor","shape":[8192,8192],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[32,64],{{.*}}"detail":"128 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[4,128,64],"dtype":"bfloat16","scope":"shared.dyn"
# CHECK: "name":"C_tmem","kind":"buffer","shape":[128,256],"dtype":"float32","scope":"shared.tmem","layout":null
# CHECK: "name":"C_local","kind":"buffer","shape":[128,256],"dtype":"float32","scope":"local.fragment","layout":"parallel · 256 regs/thread"
# CHECK: "name":"C_shared","kind":"buffer","shape":[128,256],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B, 512B rows"
# CHECK: "name":"loaded","kind":"buffer","shape":[4],"dtype":"uint64","scope":"shared.barrier"
