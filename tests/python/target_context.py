"""``tvm.target.Target`` objects (``target=Target("c")``, ``with
Target(...):`` around ``tilelang.lower`` / ``tilelang.compile`` without a
target) and ``from tilelang.cuda import language as T``, the forms of
TileLang's newer test files. Results against NumPy. CPU target."""

import os

import numpy as np
import torch

import tilelang
import tilelang.language as T
from tilelang import tvm
from tilelang.cuda import language as TC

N = 64


def bitwise_not(n, dtype):
    @TC.prim_func
    def kernel(A: TC.Tensor((n,), dtype), B: TC.Tensor((n,), dtype)):
        with TC.Kernel(1, threads=1):
            for i in TC.serial(n):
                B[i] = ~A[i]
    return kernel


def axpy(n, alpha):
    @T.prim_func
    def kernel(X: T.Tensor((n,), "float32"), Y: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                Y[i] = X[i] * alpha + 1.0
    return kernel


def main():
    from tilelang._jit import resolve_target as resolve
    assert tvm.target.Target.current() is None
    t = tvm.target.Target({"kind": "cuda", "arch": "sm_80"})
    assert (t.kind.name, t.arch) == ("cuda", "sm_80")
    assert resolve(t) == "cuda:sm_80"
    assert resolve(tvm.target.Target("cuda -arch=sm_90")) == "cuda:sm_90a"
    assert resolve(tvm.target.Target("c")) == "cpu"

    rng = np.random.default_rng(0)
    a = torch.from_numpy(rng.integers(-2**31, 2**31 - 1, N, dtype=np.int32))
    # The entered target wins over the default (here CUDA, which this
    # machine could not run).
    os.environ["TILELANG_DEFAULT_TARGET"] = "cuda"
    with tvm.target.Target("c") as target:
        assert tvm.target.Target.current() is target
        kernel = tilelang.compile(bitwise_not(N, "int32"), out_idx=[1])
        mod, _ = tilelang.lower(axpy(N, 2.5))
    assert tvm.target.Target.current() is None
    del os.environ["TILELANG_DEFAULT_TARGET"]
    np.testing.assert_array_equal(kernel(a).numpy(), ~a.numpy())
    x = torch.randn(N)
    y = torch.empty(N)
    mod(x, y)
    np.testing.assert_allclose(y.double().numpy(),
                               x.double().numpy() * 2.5 + 1.0,
                               rtol=1e-6, atol=1e-6)
    k2 = tilelang.compile(bitwise_not(N, "uint8"), out_idx=[1],
                          target=tvm.target.Target({"kind": "c"}))
    u = torch.from_numpy(rng.integers(0, 256, N, dtype=np.uint8))
    np.testing.assert_array_equal(k2(u).numpy(), ~u.numpy())
    print("target_context: OK")


if __name__ == "__main__":
    main()
