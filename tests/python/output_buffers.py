# A kernel with out_idx called with its output buffers, TileLang's two
# forms: every parameter positionally (the "full ABI" call: the public
# deepseek_deepgemm example calls its out_idx=[2] GEMM as
# kernel(A, B, C, scales_a, scales_b), which raised "takes 4 argument(s),
# got 5" here) and out= (one buffer, or a sequence of one per output). The
# kernel writes the caller's buffer (it reads it too: an accumulating
# kernel sees the caller's values), which is also what the call returns;
# a buffer of the wrong shape, dtype or device is refused as an input is.
# The differential mode (TLC_VERIFY_CPU) checks such calls too: the CPU
# twin gets host copies of the caller's buffers. Against torch on the CPU
# target.

import tilelang
import tilelang.language as T
import torch
from tilelang import _verify_cpu

N = 64


@tilelang.jit(out_idx=[1, 3], target="cpu")
def scale_shift(n):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32),
             S: T.Tensor((n,), T.float32), C: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                # B accumulates: what the caller put there is read.
                B[i] = B[i] + A[i] * 2
                C[i] = A[i] + S[i]

    return main


def expect(error, text, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except error as e:
        assert text in str(e), str(e)
        return
    raise AssertionError(f"no {error.__name__} ({text})")


def main():
    kernel = scale_shift(N)
    a, s = torch.randn(N), torch.randn(N)
    # The compact call allocates both outputs (B starts as whatever the
    # allocation holds, so only C is compared).
    _, c = kernel(a, s)
    torch.testing.assert_close(c, a + s, rtol=0, atol=0)

    # Every parameter, in order: the caller's B and C are written.
    b0 = torch.full((N,), 10.0)
    b, c = b0.clone(), torch.empty(N)
    got = kernel(a, b, s, c)
    assert got[0] is b and got[1] is c, got
    torch.testing.assert_close(b, b0 + a * 2, rtol=0, atol=0)
    torch.testing.assert_close(c, a + s, rtol=0, atol=0)

    # out=: a sequence in out_idx's order.
    b, c = b0.clone(), torch.empty(N)
    got = kernel(a, s, out=[b, c])
    assert got[0] is b and got[1] is c, got
    torch.testing.assert_close(b, b0 + a * 2, rtol=0, atol=0)
    torch.testing.assert_close(c, a + s, rtol=0, atol=0)

    # A non-contiguous output runs on a dense copy written back.
    wide = torch.zeros(N, 2)
    b = b0.clone()
    kernel(a, b, s, wide[:, 1])
    torch.testing.assert_close(wide[:, 1], a + s, rtol=0, atol=0)
    assert bool((wide[:, 0] == 0).all())

    one_output(a)

    # Wrong buffers are refused before anything runs.
    b = b0.clone()
    expect(ValueError, "argument 'B' of kernel 'scale_shift' must have "
           "shape (64,)", kernel, a, torch.empty(N + 1), s, torch.empty(N))
    expect(TypeError, "argument 'C' of kernel 'scale_shift' must have "
           "dtype float32", kernel, a, b, s, torch.empty(N, dtype=torch.int32))
    expect(TypeError, "argument 'C' of kernel 'scale_shift' must be a tensor",
           kernel, a, b, s, None)
    torch.testing.assert_close(b, b0, rtol=0, atol=0)  # nothing ran
    expect(ValueError, "out= gives 1", kernel, a, s, out=[b])
    expect(ValueError, "out= must be a sequence", kernel, a, s, out=b)
    expect(ValueError, "both positionally and with out=", kernel, a, b, s,
           torch.empty(N), out=[b, b])
    expect(ValueError, "Kernel expected 2 inputs, but 3 are provided. "
           "(kernel 'scale_shift' takes 2 argument(s) (A, S), or all 4 "
           "parameters with the output buffers)", kernel, a, b, s)
    expect(TypeError, "takes 2 argument(s) (A, S), or all 4 parameters with "
           "the output buffers, got 3", kernel, a, b, s, S=s)
    # The differential mode on such calls (kernels built for cpu are
    # checked against a second build, its test mode): strict raises at a
    # difference, so agreeing calls are the assertion.
    _verify_cpu.check_cpu_target(True)
    tilelang.tlc_verify_cpu("strict", calls=10)
    try:
        b, c = b0.clone(), torch.empty(N)
        kernel(a, b, s, c)
        kernel(a, s, out=(b, c))
        torch.testing.assert_close(b, b0 + a * 2 + a * 2, rtol=0, atol=0)
        torch.testing.assert_close(c, a + s, rtol=0, atol=0)
    finally:
        tilelang.tlc_verify_cpu(False)
        _verify_cpu.check_cpu_target(False)
    report = tilelang.tlc_verify_cpu_report()
    assert report["checked"] == 2 and report["agree"] == 2, report
    print("output_buffers: OK")


@tilelang.jit(out_idx=-1, target="cpu")
def add_one(n):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                B[i] = A[i] + 1

    return main


@tilelang.jit(target="cpu")
def add_one_no_outputs(n):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                B[i] = A[i] + 1

    return main


@tilelang.jit(out_idx=[1], target="cpu")
def head_plus_length(block=16):
    n = T.dynamic("n")
    m = T.dynamic("m")

    @T.prim_func
    def main(x: T.Tensor((n,), T.float32), y: T.Tensor((m,), T.float32)):
        with T.Kernel(T.ceildiv(m, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < m:
                    y[bx * block + i] = x[bx * block + i] + T.cast(n, T.float32)

    return main


def output_symbols():
    """A symbol only an output's shape names (m) comes from the caller's
    buffer (it was "cannot bind symbol 'm'"); without the buffer it is
    the error it was."""
    kernel = head_plus_length()
    for n, m in ((40, 20), (33, 5), (8, 8)):
        x = torch.arange(n, dtype=torch.float32) * 0.5
        for call in (lambda y: kernel(x, y), lambda y: kernel(x, out=y)):
            y = torch.zeros(m)
            assert call(y) is y
            expected = (x[:m].double() + n).float()
            torch.testing.assert_close(y, expected, rtol=0, atol=0)
    expect(ValueError, "cannot bind symbol 'm'", kernel, torch.zeros(8))


def one_output(a):
    """A single output: out= takes the buffer itself."""
    kernel = add_one(N)
    b = torch.empty(N)
    assert kernel(a, out=b) is b
    torch.testing.assert_close(b, a + 1, rtol=0, atol=0)
    b = torch.empty(N)
    assert kernel(a, b) is b
    torch.testing.assert_close(b, a + 1, rtol=0, atol=0)
    # Without out_idx there is nothing to give with out=.
    expect(ValueError, "only be given (out=) when out_idx is set",
           add_one_no_outputs(N), a, b, out=b)


if __name__ == "__main__":
    main()
    output_symbols()
