# An autotuned @tilelang.jit function defined inside another function that
# returns a call of a factory it finds outside its own body -- the enclosing
# function's variable (example_dequant_gemm_w4a8.py: `return
# kernel_func(...).prim_func`), a plain helper of the enclosing function, or
# a parameter's default value -- is a lazy factory, as TileLang finds when it
# calls it. The package looked such names up only among the module's
# globals, took the function for an eager kernel and refused its out_idx
# ("declare outputs with T.empty()"); a lifted factory without a prim_func of
# its own also lost the @tilelang.jit by which tlc knows it as a kernel.
# Every configuration is checked against torch here (CPU target).

import tilelang
import tilelang.language as T
import torch
from tilelang.autotuner import autotune

CONFIGS = [{"block": 32}, {"block": 64}]


def scaled(N, scale, form):

    @tilelang.jit(out_idx=[1], target="cpu")
    def kernel_func(block):

        @T.prim_func
        def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
            with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
                for i in T.Parallel(block):
                    B[bx * block + i] = A[bx * block + i] * scale

        return main

    def helper(block):
        return kernel_func(block)

    if form == "call":
        @autotune(configs=CONFIGS, warmup=1, rep=2)
        @tilelang.jit(out_idx=[1], target="cpu")
        def kernel(block=None):
            return kernel_func(block)
    elif form == "prim_func":
        @autotune(configs=CONFIGS, warmup=1, rep=2)
        @tilelang.jit(out_idx=[1], target="cpu")
        def kernel(block=None):
            return kernel_func(block).prim_func
    elif form == "helper":
        @autotune(configs=CONFIGS, warmup=1, rep=2)
        @tilelang.jit(out_idx=[1], target="cpu")
        def kernel(block=None):
            return helper(block)
    else:
        @autotune(configs=CONFIGS, warmup=1, rep=2)
        @tilelang.jit(out_idx=[1], target="cpu")
        def kernel(block=None, factory=kernel_func):
            return factory(block)
    assert kernel.jit_fn.is_lazy, form
    return kernel()


def test_closure_factories():
    torch.manual_seed(0)
    a = torch.randn(256)
    for form, scale in (("call", 2.0), ("prim_func", 3.0), ("helper", -1.5),
                        ("default", 0.5)):
        k = scaled(256, scale, form)
        assert type(k).__name__ == "JITKernel", (form, type(k))
        assert k.config in CONFIGS, (form, k.config)
        torch.testing.assert_close(k(a), a * scale, rtol=0, atol=0)


if __name__ == "__main__":
    test_closure_factories()
    print("ok")
