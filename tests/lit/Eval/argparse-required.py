# An argparse option with required=True has no value when tlc runs the
# script (it gives no command line): it is analysed with its first choice,
# or as an unknown value when it has no choices, and a remark at the
# add_argument call says which; a -D binding of its name gives another.
# Before, it was None, and the upstream gemm_sp example's
# `configs[args.cfg]` warned "KeyError: None".
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not="warning:" --implicit-check-not="error:"
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# RUN: tlc-build --emit=tile -Dcfg=h20 %s | FileCheck %s --check-prefix=H20
# CHECK: argparse-required.py:{{[0-9]+}}:1: remark: the required option 'cfg' has no value when tlc runs the script: analysed with its first choice, '4090' (-Dcfg=VALUE picks another)
# CHECK: argparse-required.py:{{[0-9]+}}:1: remark: the required option 'seed' has no value when tlc runs the script: analysed as an unknown value (-Dseed=VALUE gives one)
# TILE: tile.func @copy(%A: !tile.buffer<[4096], f32, global>, %B: !tile.buffer<[4096], f32, global>)
# TILE: tile.kernel (%bx) grid [32] threads [128]
# H20: tile.kernel (%bx) grid [16] threads [256]

import argparse
import tilelang
import tilelang.language as T

configs = {"4090": {"threads": 128}, "h20": {"threads": 256}}


@tilelang.jit
def copy(N, threads=128):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, threads), threads=threads) as bx:
            for i in T.Parallel(threads):
                B[bx * threads + i] = A[bx * threads + i]

    return main


parser = argparse.ArgumentParser()
parser.add_argument("--n", type=int, default=4096)
parser.add_argument("--cfg", type=str, choices=["4090", "h20"], required=True)
parser.add_argument("--seed", type=int, required=True)
args = parser.parse_args()
copy(args.n, **configs[args.cfg])
