# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group A (+E): module-level @T.prim_func whose sizes are module constants,
# compiled with tilelang.compile(func, out_idx=-1, pass_configs=...); a tiled
# transpose staged through a padded static shared tile.
import tilelang
import tilelang.language as T

ROWS = 4096
COLS = 2048
TILE = 64
DTYPE = T.float32


@T.prim_func
def transpose(
    A: T.Tensor((ROWS, COLS), DTYPE),
    B: T.Tensor((COLS, ROWS), DTYPE),
):
    with T.Kernel(COLS // TILE, ROWS // TILE, threads=256) as (bx, by):
        tile = T.alloc_shared((TILE, TILE + 1), DTYPE, scope="shared")
        for i, j in T.Parallel(TILE, TILE):
            tile[i, j] = A[by * TILE + i, bx * TILE + j]
        for j, i in T.Parallel(TILE, TILE):
            B[bx * TILE + j, by * TILE + i] = tile[i, j]


kernel = tilelang.compile(transpose, out_idx=-1, pass_configs={"tl.disable_tma_lower": True})

# CHECK: "name":"A","kind":"tensor","shape":[4096,2048],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"B","kind":"tensor","shape":[2048,4096],"dtype":"float32","scope":"global"
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[32,64],{{.*}}"detail":"256 threads"
# CHECK: "name":"tile","kind":"buffer","shape":[64,65],"dtype":"float32","scope":"shared","layout":"linear"
