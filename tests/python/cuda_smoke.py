# The tests/python kernels on a CUDA GPU: the same factories, retargeted to
# "cuda" (the current device's architecture), called with CUDA tensors on
# the current stream and compared with torch references. Exit status 77
# (skip) without a CUDA device.

import importlib.util
import os
import sys

import torch

if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def on_cuda(jit_fn):
    jit_fn.target = "cuda"
    jit_fn._compiler.target_spec = "cuda"
    return jit_fn


def main():
    import tilelang
    torch.manual_seed(0)
    failures = []

    def check(name, fn):
        try:
            fn()
            print(f"PASS {name}")
        except Exception as e:  # report every kernel, then fail
            failures.append(name)
            print(f"FAIL {name}: {type(e).__name__}: {str(e)[:2000]}")

    q = load("gemm_relu_quickstart")

    def gemm_relu():
        k = on_cuda(q.matmul_relu)(1000, 520, 200)
        a = torch.randn(1000, 200, dtype=torch.float16, device="cuda")
        b = torch.randn(200, 520, dtype=torch.float16, device="cuda")
        torch.testing.assert_close(k(a, b), q.reference(a, b), rtol=1e-2, atol=1e-2)
        assert "__global__" in k.get_kernel_source()
        print("  latency", k.get_profiler().do_bench(), "ms")
        try:
            k(a.cpu(), b.cpu())
        except ValueError as e:
            assert "cuda" in str(e)
        else:
            raise AssertionError("CPU tensors must be refused on a CUDA kernel")
    check("gemm_relu", gemm_relu)

    e = load("elementwise_eager")

    def elementwise():
        a = torch.randn(300, 500, device="cuda")
        b = torch.randn(300, 500, device="cuda")
        torch.testing.assert_close(on_cuda(e.scaled_add)(a, b, 0.5), a * 0.5 + b)
    check("elementwise_eager", elementwise)

    def float_scalars():
        x = torch.randn(3000, device="cuda")
        affine = on_cuda(e.affine)
        for alpha, beta in [(0.5, 0.0), (-1.25, 3.5)]:
            torch.testing.assert_close(affine(x, alpha, beta), x * alpha + beta, rtol=1e-6, atol=1e-6)
        k = on_cuda(e.lerp)(3000)
        a, b = torch.randn(3000, device="cuda"), torch.randn(3000, device="cuda")
        torch.testing.assert_close(k(a, b, 0.25), a + (b - a) * 0.25, rtol=1e-6, atol=1e-6)
        for bad, exc in [(lambda: k(a, b.half(), 0.25), TypeError), (lambda: k(a, b[:-1], 0.25), ValueError),
                         (lambda: k(a, b.cpu(), 0.25), ValueError), (lambda: k(a, b, "x"), TypeError), (lambda: k(a), ValueError)]:
            try:
                bad()
            except exc:
                pass
            else:
                raise AssertionError(f"expected {exc.__name__}")
    check("float_scalars_and_bad_calls", float_scalars)

    s = load("splitk_atomic")

    def splitk():
        a = torch.randn(256, 320, dtype=torch.float16, device="cuda")
        b = torch.randn(320, 192, dtype=torch.float16, device="cuda")
        c = torch.zeros(256, 192, device="cuda")
        on_cuda(s.splitk_gemm)(a, b, c, split=2)
        torch.testing.assert_close(c, a.double().mm(b.double()).float(), rtol=1e-2, atol=1e-2)
    check("splitk_atomic", splitk)

    f = load("flash_attention_factory")

    def attention():
        qq, kk, vv = (torch.randn(2, 200, 4, 64, dtype=torch.float16, device="cuda") for _ in range(3))
        for causal in (False, True):
            k = on_cuda(f.attention)(2, 200, 4, 64, is_causal=causal, block_M=64, block_N=64)
            torch.testing.assert_close(k(qq, kk, vv), f.reference(qq, kk, vv, causal), rtol=1e-2, atol=1e-2)
    check("flash_attention", attention)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
