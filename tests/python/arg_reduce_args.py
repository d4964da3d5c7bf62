# T.reduce_argmax / T.reduce_argmin called by Python on buffers a script
# declares with tvm.tirx.decl_buffer (TileLang's argument tests): each bad
# argument raises the TypeError / ValueError TileLang raises, with the
# words its tests match; valid arguments (both output forms, shared and
# fragment scopes, negative dims) do not raise. A kernel over the same
# kinds of arguments, built for the CPU target, against NumPy's argmax /
# argmin (first index of the extreme, as torch and TileLang pick).

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tvm import tirx


def _bufs(shape, dtype, out_shape, index, scope="local.fragment"):
    return (tirx.decl_buffer(shape, dtype, scope=scope),
            tirx.decl_buffer(out_shape, index, scope="local.fragment"))


BAD = [
    ((4, 128), "float32", (4,), "int32", 2, "local.fragment", "out of bounds"),
    ((4, 128), "float32", (4,), "int32", -3, "local.fragment", "out of bounds"),
    ((4, 128), "float32", (4,), "float16", 1, "local.fragment", "output dtype"),
    ((4, 128), "float32", (4, 2), "int32", 1, "local.fragment", "output shape"),
    ((4, 128), "float32", (128,), "int32", 1, "local.fragment", "output shape"),
    ((4, 128), "float32", (4,), "int32", 1, "global", "fragment or shared"),
    ((4, 0), "float32", (4,), "int32", 1, "shared", "positive constant"),
    ((4, 2**31), "float32", (4,), "int32", 1, "shared", "cannot be represented"),
    ((4, 128), "bool", (4,), "int32", 1, "shared", "input dtype"),
]


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("shape,dtype,out_shape,index,dim,scope,words", BAD)
def test_bad_arguments(kind, shape, dtype, out_shape, index, dim, scope,
                       words):
    src, dst = _bufs(shape, dtype, out_shape, index, scope)
    with pytest.raises(ValueError, match=words):
        getattr(T, "reduce_arg" + kind)(src, dst, dim)


def test_operand_types():
    src, dst = _bufs((4, 128), "float32", (4,), "int32")
    with pytest.raises(TypeError, match="Buffers"):
        T.reduce_argmax(src[0, 0], dst)
    with pytest.raises(TypeError, match="Buffers"):
        T.reduce_argmin(src, 3)
    with pytest.raises(TypeError, match="dim must be an integer"):
        T.reduce_argmax(src, dst, 1.5)
    with pytest.raises(TypeError, match="dim must be an integer"):
        T.reduce_argmin(src, dst, True)


@pytest.mark.parametrize("shape,out_shape,dim,scope", [
    ((4, 128), (4,), 1, "local.fragment"),
    ((4, 128), (4, 1), -1, "shared"),
    ((4, 128), (128,), 0, "shared.dyn"),
    ((2**31 - 1, 2), (2,), 0, "shared"),
])
def test_good_arguments(shape, out_shape, dim, scope):
    src, dst = _bufs(shape, "float16", out_shape, "int32", scope)
    T.reduce_argmax(src, dst, dim)
    T.reduce_argmin(src, dst, dim)


@tilelang.jit(out_idx=[1], target="cpu")
def argreduce(shape, dim, kind, dtype):
    out_shape = [s for i, s in enumerate(shape) if i != dim]

    @T.prim_func
    def main(A: T.Tensor(shape, dtype), B: T.Tensor(out_shape, "int64")):
        with T.Kernel(1, threads=64):
            src = T.alloc_shared(shape, dtype)
            dst = T.alloc_fragment(out_shape, "int64")
            T.copy(A, src)
            if kind == "max":
                T.reduce_argmax(src, dst, dim)
            else:
                T.reduce_argmin(src, dst, dim)
            T.copy(dst, B)

    return main


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("dim", [0, 1])
def test_kernel_against_numpy(kind, dim):
    rng = np.random.default_rng(5)
    a = rng.integers(-6, 7, size=(8, 96)).astype(np.float32)  # many ties
    got = argreduce((8, 96), dim, kind, "float32")(torch.from_numpy(a))
    want = getattr(np, "arg" + kind)(a, axis=dim)
    np.testing.assert_array_equal(got.numpy(), want)


if __name__ == "__main__":
    tilelang.testing.main()
