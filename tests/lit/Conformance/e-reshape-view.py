# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group E: alias views. T.reshape of a flat global tensor and of a flat
# shared tile into 2-D, T.view reinterpreting a uint8 byte buffer as float16
# rows; elementwise product of the two views; module-level factory compiled
# with tilelang.compile.
import tilelang
import tilelang.language as T


def gated_rows(N, D, block_rows=64):
    @T.prim_func
    def main(
        Flat: T.Tensor((N * D,), T.float16),
        Bytes: T.Tensor((N * D * 2,), T.uint8),
        Out: T.Tensor((N, D), T.float32),
    ):
        with T.Kernel(T.ceildiv(N, block_rows), threads=128) as bx:
            X = T.reshape(Flat, [N, D])
            G = T.view(Bytes, [N, D], dtype=T.float16)
            x_flat = T.alloc_shared((block_rows * D,), T.float16)
            x_tile = T.reshape(x_flat, [block_rows, D])
            acc = T.alloc_fragment((block_rows, D), T.float32)

            T.copy(X[bx * block_rows:(bx + 1) * block_rows, :], x_tile)
            for i, j in T.Parallel(block_rows, D):
                acc[i, j] = T.cast(x_tile[i, j], T.float32) * T.cast(G[bx * block_rows + i, j], T.float32)
            T.copy(acc, Out[bx * block_rows, 0])

    return main


program = gated_rows(4096, 128)
kernel = tilelang.compile(program, out_idx=-1)

# CHECK: "name":"Flat","kind":"tensor","shape":[524288],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"Bytes","kind":"tensor","shape":[1048576],"dtype":"uint8","scope":"global"
# CHECK: "name":"bx","kind":"kernel","shape":[64],{{.*}}"detail":"128 threads"
# CHECK: "name":"x_flat","kind":"buffer","shape":[8192],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"acc","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 64 regs/thread"

# The element-wise shared accesses of T.Parallel (one element per lane at the
# loop's thread partition):
# DIAG: 27:29: remark: 2-way bank conflict on a shared buffer (2-byte ld.shared)
