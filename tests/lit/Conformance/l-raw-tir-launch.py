# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# L: raw TIR without T.Kernel: T.launch_thread, T.alloc_buffer/T.decl_buffer(data=),
# T.tvm_storage_sync, T.evaluate(T.call_extern), T.Select. Shape: module prim_func + compile.
import tilelang
import tilelang.language as T

N = 1 << 18
THREADS = 256
PER_BLOCK = THREADS * 4


@T.prim_func
def reverse_blocks(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32), Pos: T.Tensor((N // 4,), T.float32)):
    bx = T.launch_thread("blockIdx.x", N // PER_BLOCK)
    tx = T.launch_thread("threadIdx.x", THREADS)
    stage = T.alloc_buffer((PER_BLOCK,), T.float32, scope="shared")
    # the same shared bytes seen as float4-sized rows
    rows = T.decl_buffer((THREADS, 4), T.float32, data=stage.data, scope="shared")
    acc = T.decl_buffer((1,), T.float32, scope="local")
    for v in T.vectorized(4):
        rows[tx, v] = A[bx * PER_BLOCK + tx * 4 + v]
    T.tvm_storage_sync("shared")
    acc[0] = T.float32(0)
    for v in T.serial(4):
        x = stage[PER_BLOCK - 1 - (tx * 4 + v)]
        acc[0] = acc[0] + T.Select(x > T.float32(0), x, T.float32(0))
        B[bx * PER_BLOCK + tx * 4 + v] = x
    T.evaluate(T.call_extern("void", "__threadfence_block"))
    # per-thread sum of the positive parts of its reversed float4
    Pos[bx * THREADS + tx] = acc[0]


kernel = tilelang.compile(reverse_blocks, out_idx=[1, 2], target="cuda")

# CHECK: "name":"A","kind":"tensor","shape":[262144],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"stage","kind":"buffer","shape":[1024],"dtype":"float32","scope":"shared","layout":"linear"
# CHECK: "name":"acc","kind":"buffer","shape":[1],"dtype":"float32","scope":"local","layout":null
