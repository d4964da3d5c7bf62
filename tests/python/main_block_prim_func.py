"""A ``@T.prim_func`` defined at module level inside ``if __name__ ==
"__main__":`` (TileLang's issue-2528 test defines ``kernel_3d`` there),
which tlc-build's run of the module does not reach: the package builds it
as TileLang traces it, where it is defined, with the globals it reads as
they are there (the main block's own included; rebinding them later does
not change the kernel). Against NumPy on the CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T

dtype = T.float32


def run(kernel, n):
    a = np.random.default_rng(3).standard_normal(n).astype(np.float32)
    b = torch.zeros(n)
    kernel(torch.from_numpy(a), b)
    return a, b.numpy()


if __name__ == "__main__":
    N = 64
    scale = 3.0

    @T.prim_func
    def scaled(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(N):
                B[i] = A[i] * scale + i

    # TileLang traced `scaled` above: these do not change it.
    N = 128
    scale = 5.0
    kernel = tilelang.compile(scaled, target="cpu")
    a, b = run(kernel, 64)
    assert np.array_equal(b, a * np.float32(3) + np.arange(64,
                                                         dtype=np.float32))
    # A wrong extent is the kernel's shape error (the instance is N = 64).
    try:
        run(kernel, 128)
    except ValueError as e:
        assert "64" in str(e), e
    else:
        raise AssertionError("no shape error")

    # out_idx on a second one, in a nested block of the main block.
    for rows in (4,):
        @T.prim_func
        def summed(A: T.Tensor((rows, 8), dtype), S: T.Tensor((rows,), dtype)):
            with T.Kernel(1, threads=32):
                acc = T.alloc_fragment((rows, 8), dtype)
                red = T.alloc_fragment((rows,), dtype)
                T.copy(A, acc)
                T.reduce_sum(acc, red, dim=1)
                T.copy(red, S)
        k2 = tilelang.compile(summed, out_idx=[-1], target="cpu")
        x = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8)
        s = k2(torch.from_numpy(x)).numpy()
        assert np.array_equal(s, x.sum(axis=1)), s
    print("main_block_prim_func: ok")
