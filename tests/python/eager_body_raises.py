# An eager @tilelang.jit kernel whose body raises while tlc builds the
# instance a call asks for (an unknown T.* function, a Python raise under a
# condition of the argument's shape) raises that exception at the call, on
# the CPU target; it used to run a kernel cut off where the body raised (a
# silent wrong answer). A kernel that does not raise is checked against
# NumPy.

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch

N = 16


@tilelang.jit
def copy_through_unknown(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
    with T.Kernel(1, threads=16):
        s = T.alloc_shared((N,), "float32")
        T.copy(A, s)
        t = T.no_such_buffer_helper(s)
        T.copy(t, B)


@tilelang.jit
def scaled(A, B):
    M = T.const("M")
    A: T.Tensor[[M], T.float32]
    B: T.Tensor[[M], T.float32]
    if M % 4 != 0:
        raise ValueError("M must be a multiple of 4")
    with T.Kernel(1, threads=32):
        for i in T.serial(M):
            B[i] = A[i] * 3.0


def test_unknown_t_function():
    a = torch.arange(N, dtype=torch.float32)
    b = torch.zeros(N)
    with pytest.raises(AttributeError, match="no_such_buffer_helper"):
        copy_through_unknown(a, b)


def test_python_raise_in_body():
    a = np.arange(8, dtype=np.float32)
    b = np.zeros(8, dtype=np.float32)
    scaled(a, b)
    np.testing.assert_array_equal(b, a.astype(np.float64) * 3.0)
    with pytest.raises(ValueError, match="multiple of 4"):
        scaled(np.ones(6, dtype=np.float32), np.zeros(6, dtype=np.float32))


if __name__ == "__main__":
    tilelang.testing.main()
