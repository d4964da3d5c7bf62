# Autotuning examples/gemm.py's factory on a CUDA GPU over 16
# configurations (block_M, block_N, block_K, num_stages), each checked
# against a float32 torch matmul; prints the build time of the 16
# configurations with the cache directory given in TLC_CACHE_DIR (run it
# twice for cold and warm numbers) and the best configuration. Exit status
# 77 (skip) without a CUDA device.

import importlib.util
import itertools
import os
import sys
import time

import torch

if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)

import tilelang  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gemm_example", os.path.join(HERE, "..", "..", "examples", "gemm.py"))
gemm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gemm)

M = N = K = int(os.environ.get("TLC_TUNE_SIZE", "4096"))
configs = [dict(block_M=bm, block_N=bn, block_K=bk, num_stages=s)
           for bm, bn, bk, s in itertools.product([64, 128], [64, 128], [32, 64], [2, 3])]


def reference(a, b):
    return (a.float() @ b.float()).to(a.dtype)


def main():
    start = time.time()
    kernels = gemm.matmul.par_compile([dict(M=M, N=N, K=K, **c) for c in configs], ignore_error=True)
    built = sum(k is not None for k in kernels)
    print(f"built {built}/{len(configs)} configurations in {time.time() - start:.2f} s "
          f"(cache hits {tilelang.build_stats['cache_hits']}, compiled {tilelang.build_stats['compiled']})")
    tuned = tilelang.autotune(configs=configs, warmup=10, rep=50, ref_prog=reference)(gemm.matmul)
    kernel = tuned(M, N, K)
    print(f"best {kernel.config}: {kernel.latency:.4f} ms, "
          f"{2 * M * N * K / kernel.latency * 1e-9:.1f} TFLOPS; torch reference {kernel.ref_latency:.4f} ms")
    a = torch.randn(M, K, dtype=torch.float16, device="cuda")
    b = torch.randn(K, N, dtype=torch.float16, device="cuda")
    torch.testing.assert_close(kernel(a, b), reference(a, b), rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    main()
