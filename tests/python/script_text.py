# .tile_ir() / .script() and PrimFunc.with_attr on the CPU target: a
# prim_func defined inside a test function (its closure values are the
# instance's bindings) and a built kernel give their Tile IR as text;
# with_attr records attributes on a copy, which builds the same kernel
# (checked against NumPy in float64).

import numpy as np
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


def test_script_of_nested_prim_func():
    n, fill = 8, 123

    @T.prim_func
    def kernel(A: T.Tensor((n,), "int32"), B: T.Tensor((n,), "int32")):
        with T.Kernel(1, threads=1):
            if A[0] == 0:
                B[0] = fill
            else:
                B[0] = A[0] + 7

    text = kernel.tile_ir()
    assert "tile.func @" in text, text
    assert "arith.constant 123" in text, text
    assert "tile.if" in text and "tile.store" in text, text
    assert "!tile.buffer<[8], i32, global>" in text, text


def test_with_attr_and_kernel_script():
    @T.prim_func
    def double(A: T.Tensor((16,), "float64"), B: T.Tensor((16,), "float64")):
        with T.Kernel(1, threads=16) as _:
            tx = T.get_thread_binding(0)
            B[tx] = A[tx] * 2.0

    named = double.with_attr("global_symbol", "main")
    # TileLang's prim_func has its name as global_symbol.
    assert named.attrs == {"global_symbol": "main"}
    assert double.attrs == {"global_symbol": "double"}
    named = named.with_attr({"tir.noalias": True})
    assert named.attrs == {"global_symbol": "main", "tir.noalias": True}
    kernel = tilelang.compile(named, out_idx=[1], target="cpu")
    a = np.random.default_rng(3).standard_normal(16)
    b = kernel(torch.from_numpy(a))
    np.testing.assert_allclose(b.numpy(), a * 2.0, rtol=0, atol=0)
    text = kernel.script()
    assert "tile.func @" in text and "arith.mulf" in text, text


if __name__ == "__main__":
    tilelang.testing.main()
