# Two `T.dynamic("size")` calls are two symbols in TileLang
# (tilelang/language/symbolics.py makes a fresh tirx.Var per call; upstream
# testing/python/jit/test_tilelang_jit_cutedsl_parameter_identity.py asserts
# `a[0] == len(b)` and `b[0] == len(a)`): the package binds each from its
# own parameter's shape, so tensors of unequal lengths are one valid call,
# and an output shaped by the second symbol gets the second length. On the
# CPU target, against NumPy. corpus44 G15.
#
# With one merged symbol every check below fails: the call is refused
# ("argument 'b' ... must have shape (size,)") because both tensors name
# one symbol. tlc names the two apart within the kernel (`size`, `size_1`).

import numpy as np
import tilelang
import tilelang.language as T
import torch

length = T.dynamic("size")
other_length = T.dynamic("size")


@T.prim_func
def swap_lengths(a: T.Tensor((length,), T.int32), b: T.Tensor((other_length,), T.int32)):
    with T.Kernel(1, threads=32):
        if T.get_thread_binding(0) == 0:
            a[0] = other_length
            b[0] = length


def shape_program():
    # Upstream's _shape_program: the symbols of a factory, one launch each.
    first = T.dynamic("size")
    second = T.dynamic("size")

    @T.prim_func
    def main(stream: T.Tensor((first,), T.int32), device_id: T.Tensor((second,), T.int32)):
        with T.Kernel(first, threads=32) as bx:
            if bx == 0 and T.get_thread_binding(0) == 0:
                stream[0] = second
        with T.Kernel(second, threads=32) as bx:
            if bx == 0 and T.get_thread_binding(0) == 0:
                device_id[0] = first

    return main


@tilelang.jit(out_idx=[1], target="cpu")
def shifted(block=16):
    n = T.dynamic("size")
    m = T.dynamic("size")

    @T.prim_func
    def main(x: T.Tensor((n,), T.float32), y: T.Tensor((m,), T.float32)):
        # y (the output, m elements) = the first m of x plus len(x).
        with T.Kernel(T.ceildiv(m, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < m:
                    y[bx * block + i] = x[bx * block + i] + T.cast(n, T.float32)

    return main


def check_lengths(kernel, first, second):
    a = torch.full((first,), -1, dtype=torch.int32)
    b = torch.full((second,), -1, dtype=torch.int32)
    kernel(a, b)
    assert a[0].item() == second and b[0].item() == first, (first, second, a, b)


def main():
    swap = tilelang.compile(swap_lengths, target="cpu")
    factory = tilelang.compile(shape_program(), target="cpu")
    for first, second in ((3, 7), (5, 2), (4, 4)):
        check_lengths(swap, first, second)
        check_lengths(factory, first, second)

    kernel = shifted()
    # The output's length is the second symbol, which no input gives: the
    # package cannot allocate it (with one merged symbol it was len(x)).
    try:
        kernel(torch.zeros(8))
    except ValueError as e:
        assert "symbol" in str(e), e
    else:
        raise AssertionError("an output of an unbound length was allocated")
    # Given by the caller's buffer (the full call), it need not equal the
    # input's length.
    for n, m in ((40, 20), (33, 5), (8, 8)):
        x = np.arange(n, dtype=np.float32) * 0.5
        y = torch.zeros(m)
        kernel(torch.from_numpy(x), y)
        np.testing.assert_array_equal(y.numpy(), x[:m] + np.float32(n))
    print("OK")


if __name__ == "__main__":
    main()
