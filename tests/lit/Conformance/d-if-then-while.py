# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group D (+C): explicit IR control frames. A grid-stride T.While loop over
# row tiles driven by a T.alloc_var cursor, and `with T.If/T.Then/T.Else`
# choosing a full-tile fast path or a guarded tail for a row-scaled copy.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def row_scale(M, N, block_M=32, num_blocks=64, dtype=T.float32):
    num_tiles = T.ceildiv(M, block_M)

    @T.prim_func
    def main(
        X: T.Tensor((M, N), dtype),
        scale: T.Tensor((M,), dtype),
        Y: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(num_blocks, threads=256) as bx:
            tile = T.alloc_shared((block_M, N), dtype)
            out = T.alloc_fragment((block_M, N), dtype)
            cursor = T.alloc_var(T.int32)
            cursor = bx
            with T.While(cursor < num_tiles):
                row0 = cursor * block_M
                with T.If(row0 + block_M <= M):
                    with T.Then():
                        T.copy(X[row0, 0], tile)
                        for i, j in T.Parallel(block_M, N):
                            out[i, j] = tile[i, j] * scale[row0 + i]
                        T.copy(out, Y[row0, 0])
                    with T.Else():
                        for i, j in T.Parallel(block_M, N):
                            if row0 + i < M:
                                Y[row0 + i, j] = X[row0 + i, j] * scale[row0 + i]
                cursor = cursor + num_blocks

    return main


kernel = row_scale(10000, 256)

# CHECK: "name":"X","kind":"tensor","shape":[10000,256],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[64],{{.*}}"detail":"256 threads"
# CHECK: "name":"tile","kind":"buffer","shape":[32,256],"dtype":"float32","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"out","kind":"buffer","shape":[32,256],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
# CHECK: "name":"cursor","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var","layout":null

# The element-wise shared accesses of T.Parallel (one element per lane at the
# loop's thread partition):
# DIAG: 31:41: remark: 4-way bank conflict on tile (4-byte ld.shared)
