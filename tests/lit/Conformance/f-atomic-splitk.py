# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group F (+E): atomics. Eager split-K GEMM that writes in place (no return):
# K slices accumulate with a tile-region T.atomic_add of a fragment into a
# zero-initialised float32 C; a scalar T.atomic_max with memory_order tracks
# the global absmax; T.atomic_add with return_prev claims a ticket.
import tilelang
import tilelang.language as T


@tilelang.jit
def splitk_atomic(A, B, C, AbsMax, Tickets, split_k: int = 4, block_M: int = 128, block_N: int = 128,
                  block_K: int = 32):
    M, N, K = T.const("M, N, K")
    dtype = T.float16
    accum_dtype = T.float32

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C: T.Tensor((M, N), accum_dtype)
    AbsMax: T.Tensor((1,), accum_dtype)
    Tickets: T.Tensor((1,), T.int32)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=128) as (bx, by, bz):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        tile_max = T.alloc_fragment((block_M,), accum_dtype)
        block_max = T.alloc_fragment((1,), accum_dtype)
        ticket = T.alloc_var(T.int32)
        k_split = T.ceildiv(K, split_k)

        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(k_split, block_K), num_stages=3):
            T.copy(A[by * block_M, bz * k_split + ko * block_K], A_shared)
            T.copy(B[bz * k_split + ko * block_K, bx * block_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)
        T.atomic_add(C[by * block_M, bx * block_N], C_local)

        T.reduce_absmax(C_local, tile_max, dim=1)
        T.reduce_max(tile_max, block_max, dim=0)
        tx = T.get_thread_binding()
        if tx == 0:
            T.atomic_max(AbsMax[0], block_max[0], memory_order="relaxed")
            ticket = T.atomic_add(Tickets[0], 1, return_prev=True)


kernel = splitk_atomic.compile(M=1024, N=1024, K=16384, split_k=8)

# CHECK: "name":"A","kind":"tensor","shape":[1024,16384],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"C","kind":"tensor","shape":[1024,1024],"dtype":"float32","scope":"global"
# CHECK: "name":"(bx, by, bz)","kind":"kernel","shape":[8,8,8],{{.*}}"detail":"128 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"tile_max","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C row · 4×1 warps · 4 regs/thread · rep 4"
# CHECK: "name":"ticket","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var"
