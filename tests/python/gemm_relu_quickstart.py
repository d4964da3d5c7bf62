# GEMM + ReLU, the TileLang quickstart shape, on tlc's CPU target: a lazy
# factory with out_idx, called with torch tensors and checked against a
# float32 torch reference; then the generated source and a benchmark.

import sys

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1], target="cpu")
def matmul_relu(M, N, K, block_M=64, block_N=64, block_K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def gemm_relu(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(block_M, block_N):
                C_local[i, j] = T.max(C_local[i, j], 0)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return gemm_relu


def reference(a, b):
    return torch.relu(a.float() @ b.float()).to(a.dtype)


def main():
    tilelang.testing.set_random_seed(0)
    # Sizes that are not multiples of the tiles exercise the bounds guards.
    M, N, K = 200, 136, 100
    kernel = matmul_relu(M, N, K)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = kernel(a, b)
    assert c.shape == (M, N) and c.dtype == torch.float16
    torch.testing.assert_close(c, reference(a, b), rtol=1e-2, atol=1e-2)
    # Keywords by parameter name work too, and NumPy arrays on the CPU.
    c2 = kernel(A=a, B=b)
    torch.testing.assert_close(c2, c, rtol=0, atol=0)
    c3 = kernel(a.numpy(), b.numpy())
    torch.testing.assert_close(torch.from_numpy(c3), c, rtol=0, atol=0)
    print("gemm_relu: all checks passed")

    source = kernel.get_kernel_source()
    assert "gemm_relu" in source, source[:200]
    print(f"source: {len(source.splitlines())} lines")

    profiler = kernel.get_profiler(tensor_supply_type=tilelang.TensorSupplyType.Normal)
    profiler.assert_allclose(reference, rtol=1e-2, atol=1e-2)
    # run_once: the kernel once on drawn inputs (its output returned), or
    # another function on the same inputs.
    out = kernel.run_once()
    assert tuple(out.shape) == (M, N) and bool((out >= 0).all()), out
    drawn = profiler.run_once(lambda *xs: xs)
    torch.testing.assert_close(profiler.run_once().float(),
                               reference(*drawn).float(), rtol=1e-2, atol=1e-2)
    latency = profiler.do_bench(warmup=5, rep=20)
    assert latency > 0
    print(f"latency: {latency:.4f} ms")
    # Another instance: block sizes from the call.
    k2 = matmul_relu(M, N, K, block_M=32, block_N=32)
    torch.testing.assert_close(k2(a, b), reference(a, b), rtol=1e-2, atol=1e-2)
    assert k2 is not kernel
    assert matmul_relu(M, N, K) is kernel  # memoized per argument tuple
    print("cache:", "hit" if kernel.cache_hit else "miss")


if __name__ == "__main__":
    main()
    sys.exit(0)
