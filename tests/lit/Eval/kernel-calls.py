# Calls of compiled kernels from Python, as the tlc package runs them: the
# compact call (inputs only; out_idx's outputs allocated and returned), the
# full-ABI call (every parameter, the caller's outputs returned), out=, and
# the errors of wrong calls, each caught by the script's own guard. --check
# reports nothing: each guard sees the exception it expects (type and
# text), and each correct call raises nothing and returns what its
# assertions compare. Were a wrong call not modelled, the `raise
# AssertionError` after it would be reported.
# RUN: tlc-build --check %s 2>&1 | count 0
import pytest
import tilelang
import tilelang.language as T
import torch

N = 64


@tilelang.jit(out_idx=[1, 3])
def scale_shift(n):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32),
             S: T.Tensor((n,), T.float32), C: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                B[i] = B[i] + A[i] * 2
                C[i] = A[i] + S[i]

    return main


@tilelang.jit(out_idx=-1)
def add_one(n):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                B[i] = A[i] + 1

    return main


@T.prim_func
def no_outputs(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
    with T.Kernel(1, threads=1):
        for i in T.serial(N):
            B[i] = A[i]


def raises(error, text, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except error as e:
        assert text in str(e), str(e)
        return
    raise AssertionError(f"no {error.__name__} ({text})")


kernel = scale_shift(N)
a, s = torch.randn(N), torch.randn(N)
b, c = kernel(a, s)
assert b.shape == (N,) and c.shape == (N,)
b, c = torch.empty(N), torch.empty(N)
got = kernel(a, b, s, c)
assert got[0] is b and got[1] is c
got = kernel(a, s, out=(b, c))
assert got[0] is b and got[1] is c
got = kernel(A=a, S=s)
assert len(got) == 2
# A trailing unit dimension passes for the declared one.
kernel(a.view(N, 1), s)

raises(ValueError, "Kernel expected 2 inputs, but 3 are provided. (kernel "
       "'scale_shift' takes 2 argument(s) (A, S), or all 4 parameters with "
       "the output buffers)", kernel, a, b, s)
raises(ValueError, "Kernel expected 2 inputs, but 1 are provided.", kernel, a)
raises(TypeError, "kernel 'scale_shift' is missing argument(s) S (inputs: "
       "A, S; outputs B, C are allocated by the kernel)", kernel, A=a)
raises(TypeError, "argument 'A' given twice", kernel, a, s, A=a)
raises(ValueError, "has 2 outputs, but out= gives 1", kernel, a, s, out=[b])
raises(ValueError, "out= must be a sequence of them, got int", kernel, a, s,
       out=3)
raises(ValueError, "given both positionally and with out=", kernel, a, b, s,
       c, out=[b, c])
raises(ValueError, "argument 'B' of kernel 'scale_shift' must have shape "
       "(64,), got (65,)", kernel, a, torch.empty(N + 1), s, c)
raises(ValueError, "must have shape (64,), got (64, 2)", kernel,
       torch.randn(N, 2), s)
raises(TypeError, "argument 'C' of kernel 'scale_shift' must have dtype "
       "float32, got torch.int32", kernel, a, b, s,
       torch.empty(N, dtype=torch.int32))
raises(TypeError, "argument 'S' of kernel 'scale_shift' must be a tensor, "
       "got int", kernel, a, 3)
raises(TypeError, "argument 'C' of kernel 'scale_shift' must be a tensor, "
       "got NoneType", kernel, a, b, s, None)
# None for an input is TileLang's null tensor.
kernel(a, None)

one = add_one(N)
b = torch.empty(N)
assert one(a, out=b) is b
assert one(a, b) is b
assert one(a).shape == (N,)
with pytest.raises(ValueError, match="Kernel expected 1 inputs"):
    one(a, b, b)

compiled = tilelang.compile(no_outputs)
compiled(a, b)
raises(ValueError, "only be given (out=) when out_idx is set", compiled, a,
       b, out=b)
raises(ValueError, "takes 2 argument(s) (A, B))", compiled, a, b, b)
