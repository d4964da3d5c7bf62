# A block's partial sums published with HIP's (and CUDA's) memory fences
# called by name (T.call_extern), raw-TIR style as in the conformance
# program l-raw-tir-launch: each thread stages 4 values in LDS, sums the
# positive parts of the block's reversed stage, and stores them after
# __threadfence_block / __threadfence / __threadfence_system.
import tilelang
import tilelang.language as T

N = 1000
THREADS = 64
PER_BLOCK = THREADS * 4
BLOCKS = (N + PER_BLOCK - 1) // PER_BLOCK


@T.prim_func
def extern_fence(A: T.Tensor((BLOCKS * PER_BLOCK,), T.float32),
                 B: T.Tensor((BLOCKS * PER_BLOCK,), T.float32),
                 Pos: T.Tensor((BLOCKS * THREADS, 3), T.float32)):
    bx = T.launch_thread("blockIdx.x", BLOCKS)
    tx = T.launch_thread("threadIdx.x", THREADS)
    stage = T.alloc_buffer((PER_BLOCK,), T.float32, scope="shared")
    acc = T.decl_buffer((1,), T.float32, scope="local")
    for v in T.vectorized(4):
        stage[tx * 4 + v] = A[bx * PER_BLOCK + tx * 4 + v]
    T.tvm_storage_sync("shared")
    acc[0] = T.float32(0)
    for v in T.serial(4):
        x = stage[PER_BLOCK - 1 - (tx * 4 + v)]
        acc[0] = acc[0] + T.Select(x > T.float32(0), x, T.float32(0))
        B[bx * PER_BLOCK + tx * 4 + v] = x
    T.evaluate(T.call_extern("void", "__threadfence_block"))
    Pos[bx * THREADS + tx, 0] = acc[0]
    T.evaluate(T.call_extern("void", "__threadfence"))
    Pos[bx * THREADS + tx, 1] = acc[0] * T.float32(2)
    T.evaluate(T.call_extern("void", "__threadfence_system"))
    Pos[bx * THREADS + tx, 2] = acc[0] * T.float32(3)


kernel = tilelang.compile(extern_fence, out_idx=[1, 2], target="cuda")
