# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Trace-time Python: autotune configs from itertools.product, helper
# functions, closures, dtype comparisons, ternaries on Python values, argparse
# store_true, module constants defined after use, and unknown libraries as
# opaque values.
import argparse
import itertools

import tilelang
import tilelang.language as T
import torch
from tilelang.autotuner import autotune


def get_configs():
    block_M = [64, 128]
    stages = [2, 3]
    return [dict(zip(("block_M", "num_stages"), v)) for v in itertools.product(block_M, stages)]


def tile_k(dtype):
    return 32 if dtype == T.float16 else 64


@autotune(configs=get_configs())
@tilelang.jit(out_idx=[-1])
def tuned(M, K, block_M, num_stages, dtype=T.float16):
    block_K = tile_k(dtype)
    elems = block_M * block_K * (2 if dtype.bits == 16 else 4)

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((M, K), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=THREADS) as bx:
            S = T.alloc_shared((block_M, block_K), dtype)
            W = T.alloc_shared((elems // 1024,), T.uint8)
            for k in T.Pipelined(K // block_K, num_stages=num_stages):
                T.copy(A[bx * block_M, k * block_K], S)
                T.copy(S, B[bx * block_M, k * block_K])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=2048)
    parser.add_argument("--bf16", action="store_true")
    args = parser.parse_args()
    dtype = T.bfloat16 if args.bf16 else T.float16
    device_sms = torch.cuda.get_device_properties(0).multi_processor_count
    tuned(args.m, 1024, dtype=dtype)
    tuned(args.m, 1024, block_M=128, num_stages=2, dtype=T.float32)


THREADS = 128

if __name__ == "__main__":
    main()

# Without tunable arguments the first config is used.
# CHECK: "instance":"tuned(2048, 1024, dtype=float16, block_M=64, num_stages=2)","name":"S","kind":"buffer","shape":[64,32],"dtype":"float16"
# CHECK: "name":"W","kind":"buffer","shape":[4],"dtype":"uint8"
# CHECK: "name":"k","kind":"pipeline","shape":[32],{{.*}}"detail":"2 stages"
# CHECK: "instance":"tuned(2048, 1024, block_M=128, num_stages=2, dtype=float32)","name":"S","kind":"buffer","shape":[128,64],"dtype":"float32"
# CHECK: "name":"W","kind":"buffer","shape":[32],"dtype":"uint8"
