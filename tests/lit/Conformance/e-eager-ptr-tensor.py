# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group E (+A): eager @tilelang.jit with raw `X: T.ptr` parameters and
# runtime scalar sizes; T.make_tensor builds typed (rows, cols) views before
# the kernel; copies through shared with explicit eviction and TMA controls.
import tilelang
import tilelang.language as T


@tilelang.jit
def scale_copy(X, Y, rows, cols, factor, block_R: int = 64, block_C: int = 128):
    X: T.ptr
    Y: T.ptr
    rows: T.int32
    cols: T.int32
    factor: T.float32
    src = T.make_tensor(X, (rows, cols), T.float32)
    dst = T.make_tensor(Y, (rows, cols), T.float32)

    with T.Kernel(T.ceildiv(cols, block_C), T.ceildiv(rows, block_R), threads=128) as (bx, by):
        tile = T.alloc_shared((block_R, block_C), T.float32)
        frag = T.alloc_fragment((block_R, block_C), T.float32)
        T.copy(src[by * block_R, bx * block_C], tile, eviction_policy="evict_first", disable_tma=True)
        T.copy(tile, frag)
        for i, j in T.Parallel(block_R, block_C):
            frag[i, j] = frag[i, j] * factor
        T.copy(frag, dst[by * block_R, bx * block_C])


kernel = scale_copy.compile(block_R=32)

# CHECK: "name":"(bx, by)","kind":"kernel","shape":["ceildiv(cols, 128)","ceildiv(rows, 32)"],{{.*}}"detail":"128 threads"
# CHECK: "name":"tile","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"frag","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
