# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: warp reductions with T.shfl_xor / T.shfl_down / T.shfl_sync on T.alloc_var scalars.
# Shape: lazy @tilelang.jit factory, argparse call site.
import argparse

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def row_l2_norm(M, N, warps_per_block=4, dtype=T.float32):
    warp_size = 32
    threads = warps_per_block * warp_size
    per_lane = N // warp_size
    assert N % warp_size == 0

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, warps_per_block), threads=threads) as bx:
            tx = T.get_thread_binding()
            lane = tx % warp_size
            row = bx * warps_per_block + tx // warp_size
            vals = T.alloc_local((per_lane,), dtype)
            sq = T.alloc_var(dtype, 0)
            peak = T.alloc_var(dtype, init=0)
            if row < M:
                for k in T.serial(per_lane):
                    vals[k] = X[row, k * warp_size + lane]
                for k in T.serial(per_lane):
                    sq += vals[k] * vals[k]
                    peak = T.max(peak, T.abs(vals[k]))
                # butterfly all-reduce: every lane ends with the full sum
                for s in T.unroll(5):
                    sq += T.shfl_xor(sq, 16 >> s)
                # tree reduction towards lane 0, then broadcast lane 0
                for s in T.unroll(5):
                    peak = T.max(peak, T.shfl_down(peak, 16 >> s))
                peak = T.shfl_sync(peak, 0)
                if lane == 0:
                    Y[row] = T.sqrt(sq) / T.max(peak, 1e-6)

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=4096)
    parser.add_argument("--n", type=int, default=256)
    args = parser.parse_args()
    kernel = row_l2_norm(args.m, args.n)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"X","kind":"tensor","shape":[4096,256],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"vals","kind":"buffer","shape":[8],"dtype":"float32","scope":"local","layout":null
# CHECK: "name":"sq","kind":"buffer","shape":[1],"dtype":"float32","scope":"local.var","layout":null
# CHECK: "name":"peak","kind":"buffer","shape":[1],"dtype":"float32","scope":"local.var","layout":null
