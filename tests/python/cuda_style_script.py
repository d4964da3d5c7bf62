"""A TileLang script written for a CUDA GPU, as users write them: tensors
made on "cuda" and with .cuda(), float16 references with `@` and softmax,
torch.cuda.synchronize / Event timing, target="cuda" (also as a dict with
an architecture), a device check and
the SM count (torch.cuda.get_device_properties, carver's driver), an
autograd.Function under @torch.compile. ctest runs it through
cuda_script_on_cpu.py on the CPU target (python-cuda_style_on_cpu); on a
GPU it runs as it is."""

import torch
import torch.nn.functional as F

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="cuda")
def matmul_softmax_scale(M, N, K, block_M=32, block_N=64, block_K=32,
                         dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(block_M, block_N):
                C_local[i, j] = T.exp(C_local[i, j] * 0.125)
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


@torch.compile
class _Double(torch.autograd.Function):
    """An autograd.Function under ``@torch.compile``, as the flash-attention
    backward examples wrap their kernels."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def main():
    # The device checks scripts make before they start (flash_decoding's
    # heuristic configs, persistent kernels sized by the SM count).
    if not torch.cuda.is_available():
        raise RuntimeError("CUDA is not available")
    major, minor = torch.cuda.get_device_capability(torch.cuda.current_device())
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    from tilelang.carver.arch import driver
    assert driver.get_num_sms() == sms > 0 and major >= 8, (sms, major)
    torch.manual_seed(0)
    M, N, K = 96, 128, 64
    kernel = matmul_softmax_scale(M, N, K)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N).cuda().half()
    c = kernel(a, b)
    ref = torch.exp((a @ b) * 0.125)
    torch.testing.assert_close(c, ref, rtol=2e-2, atol=2e-2)
    # A float16 softmax of the result, as reference code often follows.
    probs = F.softmax(c, dim=-1)
    assert probs.dtype == torch.float16 and probs.device == c.device
    torch.testing.assert_close(probs.float().sum(-1),
                               torch.ones(M, device="cuda"),
                               rtol=1e-2, atol=1e-2)
    # The target as a dict with an architecture (TileLang tests compile
    # so): the same kernel, the same values.
    by_dict = tilelang.compile(matmul_softmax_scale.fn(M, N, K), out_idx=[-1],
                               target={"kind": "cuda", "arch": "sm_90"})
    torch.testing.assert_close(by_dict(a, b), c, rtol=0, atol=0)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    kernel(a, b)
    end.record()
    torch.cuda.synchronize()
    assert start.elapsed_time(end) >= 0
    x = c.float().requires_grad_()
    _Double.apply(x).sum().backward()
    assert torch.equal(x.grad, torch.full_like(x, 2.0))
    latency = kernel.get_profiler().do_bench(warmup=1, rep=3)
    assert latency > 0
    print(f"cuda_style_script: OK on {c.device} ({latency:.3f} ms)")


if __name__ == "__main__":
    main()
