# The argparse names scripts pass to their parser (BooleanOptionalAction,
# SUPPRESS, help formatters) are known: no false error, and the options'
# defaults flow into the instance as with store_true (Eval/instances.py).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECKED --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# CHECKED-NOT: {{.}}
# CHECK: "kernel":"scale","instance":"scale(256, True)","name":"A","kind":"tensor","shape":[256]

import argparse

import tilelang
import tilelang.language as T


@tilelang.jit
def scale(N, double):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(N):
                B[i] = A[i] * (2.0 if double else 1.0)

    return main


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--n", type=int, default=256)
    parser.add_argument("--double", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    scale(args.n, args.double)
