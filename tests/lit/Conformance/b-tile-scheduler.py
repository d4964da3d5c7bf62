# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group B (+D): eager @tilelang.jit persistent GEMM driven by
# T.PersistentTileScheduler (L2 swizzle panels) in a `while sched.valid():`
# loop over an SM-count grid from driver.get_num_sms().
import tilelang
import tilelang.language as T
from tilelang.carver.arch import driver


@tilelang.jit
def sched_matmul(A, B, block_M: int = 128, block_N: int = 128, block_K: int = 64,
                 num_stages: int = 3, threads: int = 256):
    M, N, K = T.const("M, N, K")
    dtype = T.bfloat16
    accum_dtype = T.float32

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((N, K), dtype)
    C = T.empty((M, N), dtype)

    sm_num = driver.get_num_sms()
    m_blocks = T.ceildiv(M, block_M)
    n_blocks = T.ceildiv(N, block_N)

    with T.Kernel(sm_num, threads=threads) as block_id:
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_N, block_K), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

        sched = T.PersistentTileScheduler(m_blocks, n_blocks, swizzle_size=8)
        sched.init(block_id)
        while sched.valid():
            bm = sched.m_idx
            bn = sched.n_idx
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[bm * block_M, k * block_K], A_shared)
                T.copy(B[bn * block_N, k * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.copy(C_local, C[bm * block_M, bn * block_N])
            sched.next_tile()

    return C


if __name__ == "__main__":
    kernel = sched_matmul.compile(M=4096, N=4096, K=4096)

# CHECK: "name":"A","kind":"tensor","shape":[4096,4096],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "name":"C","kind":"tensor","shape":[4096,4096],"dtype":"bfloat16","scope":"global"
# CHECK: "name":"block_id","kind":"kernel","shape":[132],{{.*}}"detail":"256 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[128,64],"dtype":"bfloat16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×2 warps · 64 regs/thread"
# CHECK: "name":"sched_m_idx","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var","layout":null
# CHECK: "name":"k","kind":"pipeline","shape":[64],{{.*}}"detail":"3 stages"
