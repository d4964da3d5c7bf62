"""``@tilelang.jit(...)`` stacked on a ``@T.prim_func``
(test_tilelang_language_dtype.py's ``test_var_assign``): calling it with
no arguments gives the kernel built with the decorator's options (out_idx,
target), once; before, the decorator failed reading the prim_func's
source. At module level and inside a function, against NumPy; CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], target="cpu")
@T.prim_func
def affine(A: T.Tensor((8,), T.float32), B: T.Tensor((8,), T.float32)):
    with T.Kernel(1, threads=8):
        for i in T.Parallel(8):
            B[i] = A[i] * 2.0 + 1.0


def in_function():
    @tilelang.jit(out_idx=-1, target="cpu")
    @T.prim_func
    def var_assign(A: T.Tensor((2,), T.int32)):
        with T.Kernel(1) as _:
            a: T.int32 = 1
            b: T.int32 = a
            a = 2
            d: T.int32 = a
            A[0] = b
            A[1] = d

    kernel = var_assign()
    assert kernel is var_assign.compile()  # built once
    return kernel()


def main():
    a = np.random.default_rng(1).standard_normal(8).astype(np.float32)
    b = affine()(torch.from_numpy(a)).numpy()
    np.testing.assert_array_equal(b, a * np.float32(2) + np.float32(1))
    # Python's own evaluation of the same assignments.
    a_, b_ = 1, None
    b_ = a_
    a_ = 2
    assert in_function().tolist() == [b_, a_]
    try:
        affine(torch.from_numpy(a))
    except TypeError as e:
        assert "call it with no arguments" in str(e), e
    else:
        raise AssertionError("calling the jit prim_func with arguments "
                             "raised nothing")
    print("jit_prim_func: OK")


main()
