# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: curand RNG (T.rng_init seq/offset, T.rng_rand, T.rng_rand_float uniform/normal).
# Shape: lazy factory + @T.macro helpers with T.FragmentBuffer/T.LocalBuffer params.
import argparse

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def noisy_dropout(M, N, p=0.1, sigma=0.02, seed=2024, block_M=32, block_N=128):
    keep = 1.0 - p
    scale = 1.0 / keep

    @T.macro
    def drop(tile: T.FragmentBuffer((block_M, block_N), T.float32)):
        for i, j in T.Parallel(block_M, block_N):
            u = T.rng_rand_float()
            tile[i, j] = T.if_then_else(u < keep, tile[i, j] * scale, 0.0)

    @T.macro
    def jitter(tile: T.FragmentBuffer((block_M, block_N), T.float32)):
        for i, j in T.Parallel(block_M, block_N):
            tile[i, j] = tile[i, j] + sigma * T.rng_rand_float(dist="normal")

    @T.macro
    def draw_bits(bits: T.LocalBuffer((4,), T.uint32)):
        for k in T.serial(4):
            bits[k] = T.rng_rand()

    @T.prim_func
    def main(
        X: T.Tensor((M, N), T.float16),
        Y: T.Tensor((M, N), T.float16),
        Bits: T.Tensor((T.ceildiv(M, block_M) * T.ceildiv(N, block_N), 128, 4), T.uint32),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            tx = T.get_thread_binding()
            block_id = by * T.ceildiv(N, block_N) + bx
            T.rng_init(seed, block_id * 128 + tx, 0)
            tile = T.alloc_fragment((block_M, block_N), T.float32)
            bits = T.alloc_local((4,), T.uint32)
            T.copy(X[by * block_M, bx * block_N], tile)
            drop(tile)
            jitter(tile)
            draw_bits(bits)
            for k in T.serial(4):
                Bits[block_id, tx, k] = bits[k]
            T.copy(tile, Y[by * block_M, bx * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=1024)
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--p", type=float, default=0.2)
    args = parser.parse_args()
    kernel = noisy_dropout(args.m, args.n, p=args.p)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"X","kind":"tensor","shape":[1024,2048],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"Bits","kind":"tensor","shape":[512,128,4],"dtype":"uint32","scope":"global","layout":null
# CHECK: "name":"tile","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
# CHECK: "name":"bits","kind":"buffer","shape":[4],"dtype":"uint32","scope":"local","layout":null
