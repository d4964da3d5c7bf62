#!/usr/bin/env python3
"""fp8 GEMM and split-K GEMM through the Python package against torch (issue 14).

Run on the GPU machine with python/ on PYTHONPATH and TLC_BUILD /
TLC_CUDA_RUNTIME set. Every kernel is checked first, then timed by
graph_timing.bench (CUDA-graph replays, L2 flushed, median of 30: the
host's launch cost, 40-120 us a call on the H200 host, stays out); the
peer is timed the same way right after it. A call that cannot be captured
is timed directly and marked "(direct)".

* fp8 e4m3 GEMM (examples/fp8_gemm.py's factory, C = A B^T in bfloat16):
  peers torch._scaled_mm with use_fast_accum=False (the default; float32
  accumulation) and True (the tensor cores' own accumulation, which wgmma
  has too: the kernel is checked against this one, 1 - cosine < 1e-5).
* split-K GEMM on the skinny shape (examples/gemm_splitk.py's kernel with a
  pipelined K loop, f16
  in, f32 out by atomic adds into a zeroed C): peer torch.matmul in f16;
  the kernel's time is given alone and with the zeroing of C it needs.
"""

import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "examples"))
sys.path.insert(0, HERE)
import fp8_gemm  # noqa: E402
from graph_timing import DIRECT, bench  # noqa: E402
import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402


@tilelang.jit
def splitk(A, B, C, block_M: int = 64, block_N: int = 128, block_K: int = 64, split_k: int = 4,
           stages: int = 3, threads: int = 128):
    """examples/gemm_splitk.py's kernel with a pipelined K loop."""
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C: T.Tensor((M, N), T.float32)
    per_split = T.ceildiv(T.ceildiv(K, block_K), split_k)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=threads) as (bx, by, bz):
        A_s = T.alloc_shared((block_M, block_K), T.float16)
        B_s = T.alloc_shared((block_K, block_N), T.float16)
        C_l = T.alloc_fragment((block_M, block_N), T.float32)
        T.clear(C_l)
        for ko in T.Pipelined(per_split, num_stages=stages):
            T.copy(A[by * block_M, (bz * per_split + ko) * block_K], A_s)
            T.copy(B[(bz * per_split + ko) * block_K, bx * block_N], B_s)
            T.gemm(A_s, B_s, C_l)
        for i, j in T.Parallel(block_M, block_N):
            T.atomic_add(C[by * block_M + i, bx * block_N + j], C_l[i, j])

def calc_diff(x, y):
    x, y = x.double(), y.double()
    return (1 - 2 * (x * y).sum() / (x * x + y * y).sum()).item()


def fp8_case(m, n, k, **cfg):
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    one = torch.ones((), device="cuda")
    name = "fp8 %dx%dx%d %s" % (m, n, k, " ".join(f"{key}={v}" for key, v in cfg.items()))
    try:
        c = fp8_gemm.fp8_matmul(a, b, **cfg)
    except Exception as e:  # a configuration that does not build
        print(f"{name:60} FAILED {type(e).__name__}: {str(e)[:200]}", flush=True)
        return
    fast = torch._scaled_mm(a, b.T, one, one, out_dtype=torch.bfloat16, use_fast_accum=True)
    diff = calc_diff(c, fast)
    ok = "ok" if diff < 1e-5 else "MISMATCH"
    direct = len(DIRECT)
    t = bench(lambda: fp8_gemm.fp8_matmul(a, b, **cfg))
    how = "(direct) " if len(DIRECT) > direct else ""
    t_slow = bench(lambda: torch._scaled_mm(a, b.T, one, one, out_dtype=torch.bfloat16))
    t_fast = bench(lambda: torch._scaled_mm(a, b.T, one, one, out_dtype=torch.bfloat16,
                                            use_fast_accum=True))
    tflops = 2 * m * n * k / t / 1e9
    print(f"{name:60} {ok} (1-cos {diff:.1e}) tlc {how}{t:.4f} ms {tflops:6.0f} TFLOP/s | "
          f"scaled_mm {t_slow:.4f} ms ratio {t_slow / t:.3f} | fast_accum {t_fast:.4f} ms "
          f"ratio {t_fast / t:.3f}", flush=True)


def splitk_case(m, n, k, **cfg):
    a = torch.randn(m, k, dtype=torch.float16, device="cuda")
    b = torch.randn(k, n, dtype=torch.float16, device="cuda")
    c = torch.zeros(m, n, dtype=torch.float32, device="cuda")
    name = "splitk %dx%dx%d %s" % (m, n, k, " ".join(f"{key}={v}" for key, v in cfg.items()))
    try:
        splitk(a, b, c, **cfg)
    except Exception as e:
        print(f"{name:60} FAILED {type(e).__name__}: {str(e)[:200]}", flush=True)
        return
    ref = a.double() @ b.double()
    err = ((c.double() - ref).abs() / (ref.abs() + 1)).max().item()
    ok = "ok" if err < 1e-3 else "MISMATCH"

    def run():
        c.zero_()
        splitk(a, b, c, **cfg)

    direct = len(DIRECT)
    t_kernel = bench(lambda: splitk(a, b, c, **cfg))
    how = "(direct) " if len(DIRECT) > direct else ""
    t_with_zero = bench(run)
    t_torch = bench(lambda: torch.matmul(a, b))
    print(f"{name:60} {ok} (max rel {err:.1e}) tlc {how}{t_kernel:.4f} ms (+zero {t_with_zero:.4f}) | "
          f"torch.matmul f16 {t_torch:.4f} ms ratio {t_torch / t_kernel:.3f} "
          f"(with zeroing {t_torch / t_with_zero:.3f})", flush=True)


def main():
    # Optional arguments pick the parts: fp8 (both sizes), fp8-8192, splitk.
    parts = sys.argv[1:] or ["fp8", "splitk"]
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    sizes = (4096, 8192) if "fp8" in parts else (8192,) if "fp8-8192" in parts else ()
    for size in sizes:
        fp8_case(size, size, size)
        fp8_case(size, size, size, block_N=256, threads=256)
        fp8_case(size, size, size, block_M=256, threads=256)
        fp8_case(size, size, size, block_N=256, threads=256, num_stages=4)
    for split in ((4, 8, 16) if "splitk" in parts else ()):
        splitk_case(16, 8192, 8192, block_M=64, block_N=128, block_K=64, split_k=split)
        splitk_case(16, 8192, 8192, block_M=64, block_N=64, block_K=64, split_k=split)
        splitk_case(16, 8192, 8192, block_M=64, block_N=128, block_K=64, split_k=split, stages=4)
    for d in DIRECT:
        print("not captured:", d)


if __name__ == "__main__":
    main()
