# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group F (+A): @tilelang.autotune over a jit factory whose tunable
# parameters also have defaults that are NOT in the config space. A call that
# omits the tunables is tuned over `configs` only, so the instance analysed
# must come from the config list (tlc's rule: the first config), never from
# the factory defaults (block_M=256, threads=64 here).
import tilelang
import tilelang.language as T

configs = [
    {"block_M": 64, "threads": 128},
    {"block_M": 128, "threads": 256},
]


@tilelang.autotune(configs=configs)
@tilelang.jit(out_idx=[-1])
def row_sum(M, N, block_M=256, threads=64, dtype=T.float32):
    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), S: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            tile = T.alloc_fragment((block_M, N), dtype)
            acc = T.alloc_fragment((block_M,), dtype)
            T.copy(X[bx * block_M, 0], tile)
            T.reduce_sum(tile, acc, dim=1)
            T.copy(acc, S[bx * block_M])

    return main


kernel = row_sum(8192, 128)

# CHECK: "name":"X","kind":"tensor","shape":[8192,128],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[128],{{.*}}"detail":"128 threads"
# CHECK: "name":"tile","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 64 regs/thread"
# CHECK: "name":"acc","kind":"buffer","shape":[64],"dtype":"float32","scope":"local.fragment"
