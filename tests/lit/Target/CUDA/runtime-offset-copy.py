# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# RUN: tlc-build --emit=cpp --target=cpu %s > /dev/null
# A copy of K[s : s + 32] whose start s is read from memory (sparse
# attention's selected blocks, paged KV caches): the stop is `s + 32` in the
# IR, so the region is 32 rows, a static tile (it was an unknown extent,
# which neither target could copy).
import tilelang
import tilelang.language as T


@tilelang.jit
def gather_blocks(K, Starts):
    S = T.const("S")
    NB = T.const("NB")
    K: T.Tensor((S, 64), T.float16)
    Starts: T.Tensor((NB,), T.int32)
    Out = T.empty((NB, 32, 64), T.float16)
    with T.Kernel(NB, threads=128) as bx:
        tile = T.alloc_shared((32, 64), T.float16)
        s = Starts[bx]
        # TILE: tile.region %K[{{.*}}] : !tile.buffer<[{{[0-9]+}}, 64], f16, global> to !tile.buffer<[32, 64], f16, global>
        # CHECK: T.copy
        T.copy(K[s:s + 32, :], tile)
        T.copy(tile, Out[bx, :, :])
    return Out


kernel = gather_blocks.compile(S=256, NB=4)
