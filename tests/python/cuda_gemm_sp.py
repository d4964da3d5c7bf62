# T.gemm_sp on a CUDA GPU through the package: the public
# example_gemm_sp.py's kernel (its file next to this one, or EXAMPLE=path;
# the current device's arch picks its metadata: int16 on sm_8x, uint8 on
# sm_90) and gemm_sp.py's kernels retargeted to "cuda", each compared with
# torch float64 products of the dense matrix. Exit status 77 (skip)
# without a CUDA device.

import importlib.util
import os
import sys

import torch

if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)

import tilelang.language as T  # noqa: E402
from tilelang.contrib import nvcc  # noqa: E402
from tilelang.utils.sparse import (compress, randint_semi_sparse,  # noqa: E402
                                   randn_semi_sparse)

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


failures = 0


def check(what, c, ref, rtol, atol):
    global failures
    err = (c.double() - ref).abs()
    bad = (err > atol + rtol * ref.abs()).sum().item()
    print(f"{what}: max |err| {err.max().item():.3e}, "
          f"{bad} of {ref.numel()} outside rtol={rtol} atol={atol}: "
          f"{'PASS' if bad == 0 else 'FAIL'}")
    failures += bad != 0


arch = nvcc.get_target_compute_version()
example = os.environ.get("EXAMPLE", os.path.join(HERE, "example_gemm_sp.py"))
if os.path.exists(example):
    ex = load(example, "example_gemm_sp")
    for cfg in ("h20", "4090"):
        conf = ex.default_config[cfg]["float"]
        m = n = k = 4096
        kernel = ex.matmul_sp_fp16(m, n, k, "float", **conf)
        a = randn_semi_sparse(m, k, device="cuda", dtype=torch.half)
        b = torch.randn(k, n, device="cuda", dtype=torch.half)
        a_sparse, e = compress(a, transposed=False, block_k=conf["block_K"],
                               arch=arch)
        c = kernel(a_sparse, e, b)
        check(f"example_gemm_sp cfg={cfg} arch={arch} {m}x{n}x{k}", c,
              a.double() @ b.double(), 1e-3, 1e-3)
else:
    print(f"{example} not found: the public example is skipped")

gs = load(os.path.join(HERE, "gemm_sp.py"), "gemm_sp")
gs.matmul_sp.target = "cuda"
gs.matmul_sp._compiler.target_spec = "cuda"
for dtype, accum, e_name, e_factor in [("float16", "float32", "int16", 16),
                                       ("float16", "float32", "uint8", 8),
                                       ("bfloat16", "float32", "int16", 16),
                                       ("int8", "int32", "int32", 32),
                                       ("float32", "float32", "int16", 8)]:
    for trans_B in (False, True):
        M, N, K = 256, 128, 512
        td = getattr(torch, dtype)
        if dtype == "int8":
            a = randint_semi_sparse(M, K, -8, 8, td, "cuda")
            b = torch.randint(-8, 8, (K, N), device="cuda").to(td)
        else:
            a = randn_semi_sparse(M, K, td, "cuda")
            b = torch.randn(K, N, device="cuda").to(td)
        a_sparse, e = compress(a, arch="9.0" if e_name == "uint8" else "8.0",
                               layout=False)
        kernel = gs.matmul_sp(M, N, K, 64, 64, 64, dtype, accum, e_name,
                              e_factor, trans_B)
        c = kernel(a_sparse, e, b.t().contiguous() if trans_B else b)
        tol = {"bfloat16": 1e-2, "float32": 1e-2}.get(dtype, 1e-3)
        check(f"gemm_sp {dtype} E {e_name} transpose_B={trans_B}", c,
              a.double() @ b.double(), 0 if dtype == "int8" else tol,
              0 if dtype == "int8" else (5e-2 if dtype == "float32" else tol))

print("FAILURES:", failures)
sys.exit(1 if failures else 0)
