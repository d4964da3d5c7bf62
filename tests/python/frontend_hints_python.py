# Newer TileLang front-end surface (issue 12/15 survey): what Python sees
# outside kernels, and the kernels behind it on the CPU target.
# * T.cast(value, dtype, round=, sat=, rbits=) checks its rounding options
#   with ValueError (a mode outside tilelang.language.tir.ir's
#   _VALID_CAST_ROUNDING_MODES, a non-bool sat, "rs" without rbits, rbits
#   without "rs"); valid options pass.
# * The fast-math intrinsics T.__exp ... T.__tan on a tvm.tirx expression:
#   a call of the same float dtype (float16, bfloat16, float32, float64),
#   TypeError for booleans, integers and fp8.
# * Kernels: T.__ldg(x[i]) and T.__ldg(buf, i) read the element (NumPy), and
#   T.atomic_add(dst, tile) with a shared or global source tile adds every
#   element once per block (NumPy, float64 sums).
# * tilelang.cpu / rocm / metal / webgpu .language and
#   tilelang.language.common are T; a kernel written with the CPU dialect
#   runs (NumPy).

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tilelang.language.tir.ir import _VALID_CAST_ROUNDING_MODES
from tvm import tirx

FAST = [T.__exp, T.__exp10, T.__log, T.__log2, T.__log10, T.__sin, T.__cos,
        T.__tan]


def test_cast_options():
    assert _VALID_CAST_ROUNDING_MODES == {"", "rn", "rz", "rp", "rm", "rs"}
    x = tirx.Var("x", "float32")
    for mode in ("", "rn", "rz", "rp", "rm"):
        T.cast(x, "float8_e5m2", round=mode, sat=False)
    T.cast(x, "float8_e4m3fn", round="rs", rbits=tirx.Var("r", "int32"))
    with pytest.raises(ValueError, match="Invalid round"):
        T.cast(x, "float8_e4m3fn", round="nearest")
    with pytest.raises(ValueError, match="Invalid round"):
        T.cast(x, "float8_e4m3fn", round=None)
    with pytest.raises(ValueError, match="Invalid sat"):
        T.cast(x, "float8_e4m3fn", sat=1)
    with pytest.raises(ValueError, match="rbits is required"):
        T.cast(x, "float8_e4m3fn", round="rs")
    with pytest.raises(ValueError, match="rbits is only valid"):
        T.cast(x, "float8_e4m3fn", rbits=7)


@pytest.mark.parametrize("fn", FAST, ids=lambda f: f.__name__)
def test_fast_math_dtypes(fn):
    for dt in ("float16", "bfloat16", "float32", "float64", "float32x2"):
        r = fn(tirx.Var("v", dt))
        assert isinstance(r, tirx.Call) and r.dtype == dt
    for dt in ("bool", "int8", "uint32", "int64", "float8_e4m3fn",
               "float8_e5m2"):
        with pytest.raises(TypeError,
                           match=rf"T\.{fn.__name__} only supports"):
            fn(tirx.Var("v", dt))


@tilelang.jit(out_idx=-1, target="cpu")
def read_only_loads(N=96, threads=32):

    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), M: T.Tensor((N // 8, 8), "float32"),
             Y: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, threads), threads=threads) as bx:
            for i in T.Parallel(threads):
                g = bx * threads + i
                Y[g] = T.__ldg(X[g]) * 3.0 + T.__ldg(X, g) + \
                    T.__ldg(M[g // 8, g % 8])

    return main


def test_ldg():
    x = torch.randn(96)
    m = torch.randn(12, 8)
    want = 4.0 * x.numpy().astype(np.float64) + m.numpy().reshape(-1)
    np.testing.assert_allclose(read_only_loads()(x, m).numpy(), want,
                               rtol=1e-6, atol=1e-6)


@tilelang.jit(target="cpu")
def tile_atomic_add(M=32, N=48, bm=16, blocks=3, scope="shared"):

    @T.prim_func
    def main(A: T.Tensor((blocks, M, N), "float32"),
             B: T.Tensor((M, N), "float32")):
        with T.Kernel(M // bm, blocks, threads=64) as (bx, by):
            if scope == "shared":
                S = T.alloc_shared((bm, N), "float32")
                T.copy(A[by, bx * bm:(bx + 1) * bm, :], S)
                T.atomic_add(B[bx * bm:(bx + 1) * bm, :], S)
            else:
                T.atomic_add(B[bx * bm:(bx + 1) * bm, :],
                             A[by, bx * bm:(bx + 1) * bm, :])

    return main


@pytest.mark.parametrize("scope", ["shared", "global"])
def test_tile_atomic_add(scope):
    a = torch.randn(3, 32, 48)
    b = torch.randn(32, 48)
    want = b.numpy().astype(np.float64) + \
        a.numpy().astype(np.float64).sum(axis=0)
    tile_atomic_add(scope=scope)(a, b)
    np.testing.assert_allclose(b.numpy(), want, rtol=1e-5, atol=1e-5)


def test_dialect_language_modules():
    import importlib

    import tilelang.language.common as common
    import tilelang.rocm.language as rocm
    from tilelang.cpu import language as cpu
    from tilelang.cuda import language as cuda
    assert common is T and rocm is T and cpu is T and cuda is T
    for name in ("tilelang.cpu.language", "tilelang.webgpu.language",
                 "tilelang.metal.language", "tilelang.language.common"):
        assert importlib.import_module(name) is T
    # Other names of those packages are placeholders, as elsewhere.
    from tilelang.cpu import toolchain  # noqa: F401


@tilelang.jit(out_idx=-1, target="cpu")
def cpu_dialect_scale(N=64):
    from tilelang.cpu import language as Tcpu

    @Tcpu.prim_func
    def main(A: Tcpu.Tensor((N,), "float32"), B: Tcpu.Tensor((N,), "float32")):
        with Tcpu.Kernel(1):
            for i in Tcpu.serial(N):
                B[i] = A[i] * 3.0 - 1.0

    return main


def test_dialect_kernel():
    a = torch.randn(64)
    want = a.numpy().astype(np.float64) * 3.0 - 1.0
    np.testing.assert_allclose(cpu_dialect_scale()(a).numpy(), want,
                               rtol=1e-6, atol=1e-6)


if __name__ == "__main__":
    tilelang.testing.main()
