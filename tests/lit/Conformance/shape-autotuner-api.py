# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Shape: imperative AutoTuner.from_kernel(...).set_compile_args/set_profile_args/run and
# @autotune + @jit imported by name over a plain factory. G: T.exp2 GELU helper.
import itertools

import tilelang
import tilelang.language as T
from tilelang import jit
from tilelang.autotuner import AutoTuner, autotune


def get_configs():
    block_M = [64, 128]
    block_N = [64, 128]
    stages = [2, 3]
    return [
        {"block_M": m, "block_N": n, "num_stages": s}
        for m, n, s in itertools.product(block_M, block_N, stages)
    ]


def gelu_tanh(x):
    """Plain helper: tanh(u) = 1 - 2 / (exp2(2u * log2 e) + 1)."""
    u = 0.7978845608 * (x + 0.044715 * x * x * x)
    t = 1.0 - 2.0 / (T.exp2(u * 2.8853900818) + 1.0)
    return 0.5 * x * (1.0 + t)


def matmul_gelu(M, N, K, block_M=128, block_N=128, block_K=32, num_stages=3):
    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16), C: T.Tensor((M, N), T.float16)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), T.float16)
            B_s = T.alloc_shared((block_K, block_N), T.float16)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc)
            for i, j in T.Parallel(block_M, block_N):
                acc[i, j] = gelu_tanh(acc[i, j])
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


def tune_imperative(M, N, K):
    tuner = (
        AutoTuner.from_kernel(kernel=lambda **cfg: matmul_gelu(M, N, K, **cfg), configs=get_configs())
        .set_compile_args(out_idx=[-1], target="auto")
        .set_profile_args(supply_type=tilelang.TensorSupplyType.Normal, skip_check=True)
    )
    return tuner.run(warmup=3, rep=20)


@autotune(configs=get_configs(), warmup=3, rep=20)
@jit(out_idx=[-1])
def matmul_gelu_tuned(M, N, K, block_M=128, block_N=128, block_K=32, num_stages=3):
    return matmul_gelu(M, N, K, block_M, block_N, block_K, num_stages)


if __name__ == "__main__":
    result = tune_imperative(2048, 2048, 2048)
    best = matmul_gelu_tuned(2048, 2048, 2048)
    again = matmul_gelu_tuned(2048, 2048, 2048, block_M=64, block_N=128, block_K=32, num_stages=2)

# Every call site binds M = N = K = 2048; no instance may stay symbolic.
# CHECK-NOT: "shape":["M","K"]
# The imperative tuner and the decorated tuned call are analysed with a
# config of the search space (the first one: block 64x64, 2 stages), like
# @tilelang.autotune on a factory (see g-dequant-gemm-bitops.py).
# CHECK-DAG: "name":"A","kind":"tensor","shape":[2048,2048],"dtype":"float16","scope":"global","layout":null
# CHECK-DAG: "name":"acc","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 32 regs/thread"
# CHECK-DAG: "name":"A_s","kind":"buffer","shape":[64,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# The explicit-config call bypasses tuning.
# CHECK-DAG: "name":"acc","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
# CHECK-NOT: "shape":["M","K"]
