# @tilelang.autotune over a GEMM factory on the CPU target: every
# configuration is built in parallel by tlc-build, checked against the
# reference program, timed; the best kernel comes back with .config and
# .latency. A second tuning run in a new process reads the best
# configuration from the cache ("autotune cache hit"). Also the imperative
# AutoTuner with set_autotune_inputs.

import itertools

import tilelang
import tilelang.language as T
from tilelang.autotuner import AutoTuner, set_autotune_inputs
import torch

M = N = K = 128


def configs():
    blocks = [32, 64]
    return [dict(block_M=bm, block_N=bn, block_K=bk) for bm, bn, bk in itertools.product(blocks, blocks, [32])]


def reference(a, b):
    return (a.float() @ b.float()).to(a.dtype)


@tilelang.autotune(configs=configs(), warmup=5, rep=10, ref_prog=reference)
@tilelang.jit(out_idx=[-1], target="cpu")
def gemm(M, N, K, block_M=64, block_N=64, block_K=32, dtype=T.float16):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            a_s = T.alloc_shared((block_M, block_K), dtype)
            b_s = T.alloc_shared((block_K, block_N), dtype)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], a_s)
                T.copy(B[ko * block_K, bx * block_N], b_s)
                T.gemm(a_s, b_s, acc)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


def main():
    torch.manual_seed(3)
    kernel = gemm(M, N, K)
    assert kernel.config in configs(), kernel.config
    assert kernel.latency is not None and kernel.latency > 0
    print(f"best config {kernel.config}: {kernel.latency:.4f} ms")
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    torch.testing.assert_close(kernel(a, b), reference(a, b), rtol=1e-2, atol=1e-2)
    # Explicit tunables bypass tuning.
    fixed = gemm(M, N, K, block_M=32, block_N=32, block_K=32)
    torch.testing.assert_close(fixed(a, b), reference(a, b), rtol=1e-2, atol=1e-2)

    # Imperative API on given inputs; a broken configuration is skipped.
    with set_autotune_inputs(a, b):
        tuner = AutoTuner.from_kernel(kernel=gemm.jit_fn, configs=[dict(block_M=32), dict(block_M=64), dict(block_M=32, dtype="no_such_dtype")])
        result = tuner.set_kernel_parameters(M, N, K).set_profile_args(ref_prog=reference).run(warmup=2, rep=5)
    assert result.config in (dict(block_M=32), dict(block_M=64)), result.config
    assert any(lat is None for _, lat, _ in result.results)  # the broken one
    torch.testing.assert_close(result.kernel(a, b), reference(a, b), rtol=1e-2, atol=1e-2)
    print("autotune: all checks passed")


if __name__ == "__main__":
    main()
