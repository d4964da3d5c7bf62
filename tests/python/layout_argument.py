"""A ``T.Fragment`` / ``T.Layout`` made in Python (outside kernels) passed
to a kernel factory, as TileLang's test_tilelang_annotate_loop_layout.py
passes ``loop_layout=T.Fragment((M, N), forward_fn=f)`` to a jit kernel:
the package replays the layout's construction in the copy of the script
tlc builds. Checked on the CPU target: the copies against NumPy, the
loop's layout in the Tile IR written from the forward functions'
definitions, tlc's shape refusal for a fragment over other extents (so the
layout is not dropped), distinct instances for layouts that differ only in
a captured value, and a TypeError for a forward function the package
cannot represent."""

import numpy as np
import torch

import tilelang
import tilelang.language as T
from tilelang.layout import Fragment


@tilelang.jit(target="cpu")
def copy_with_loop_layout(A, B, loop_layout):
    M, N = T.const("M, N")
    A: T.Tensor[(M, N), T.float32]
    B: T.Tensor[(M, N), T.float32]
    with T.Kernel(1, threads=64):
        for i, j in T.Parallel(M, N, loop_layout=loop_layout):
            B[i, j] = A[i, j] * 2.0 + j


@tilelang.jit(target="cpu", out_idx=[-1])
def shared_with_layout(M, N, layout):

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=32):
            S = T.alloc_shared((M, N), T.float32)
            T.annotate_layout({S: layout})
            T.copy(A, S)
            for i, j in T.Parallel(M, N):
                B[i, j] = S[i, N - 1 - j] + 1.0

    return main


def expect_raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        return e
    raise AssertionError(f"no {exc.__name__}")


def loop_layout_line(kernel):
    lines = [line for line in kernel.script().splitlines()
             if "tile.parallel" in line and "loop_layout" in line]
    assert len(lines) == 1, lines
    return lines[0]


def main():
    M, N = 32, 16
    rng = np.random.default_rng(7)
    a = rng.standard_normal((M, N)).astype(np.float32)
    want = a * np.float32(2) + np.arange(N, dtype=np.float32)

    # Rows on threads in reverse: thread 31 - i, local index j.
    def rows_reversed(i, j):
        return M - 1 - i, j

    frag = T.Fragment((M, N), forward_fn=rows_reversed)
    b = torch.zeros(M, N)
    copy_with_loop_layout(torch.from_numpy(a), b, frag)
    assert np.array_equal(b.numpy(), want)
    kernel = copy_with_loop_layout.compile(M=M, N=N, loop_layout=frag)
    line = loop_layout_line(kernel)
    assert 'loop_layout = #tile.fragment<[32, 16], thread = "-i + 31", ' \
        'index = ["j"]>' in line and "tile.loop_layout_given" in line, line

    # TileLang's vec4 layout with two replicas: (thread, local) =
    # ((e // 4) % 32 + rep * 32, e % 4 + (e // 128) * 4), e = i * 16 + j.
    def vec4(i, j, rep):
        e = i * N + j
        return (e // 4) % 32 + rep * 32, e % 4 + (e // 128) * 4

    frag2 = Fragment((M, N), forward_fn=vec4, replicate=2)
    b2 = torch.zeros(M, N)
    copy_with_loop_layout(torch.from_numpy(a), b2, frag2)
    assert np.array_equal(b2.numpy(), want)

    # The same function over a captured value: each value its own instance.
    def make(shift):
        return T.Fragment((M, N), forward_fn=lambda i, j: ((i + shift) % M,
                                                           j))
    k0 = copy_with_loop_layout.compile(M=M, N=N, loop_layout=make(0))
    k5 = copy_with_loop_layout.compile(M=M, N=N, loop_layout=make(5))
    assert k0 is not k5
    assert 'thread = "i", index = ["j"]' in loop_layout_line(k0)
    assert 'thread = "(i + 5) % 32", index = ["j"]' in loop_layout_line(k5)

    # A fragment over other extents than the loop's: tlc's refusal, so the
    # layout reached the kernel.
    other = T.Fragment((M, 2 * N), forward_fn=lambda i, j: (i, j))
    e = expect_raises(Exception, copy_with_loop_layout, torch.from_numpy(a),
                      torch.zeros(M, N), other)
    assert "the loop_layout fragment is over [32, 32] but the T.Parallel " \
        "iterates over [32, 16]" in str(e), e

    # A T.Layout made in Python for a shared buffer (a swizzle-like
    # permutation of columns): B[i, j] = A[i, N - 1 - j] + 1.
    perm = T.Layout((M, N), lambda i, j: [i, (j + i) % N])
    kern = shared_with_layout(M, N, perm)
    out = kern(torch.from_numpy(a))
    assert np.array_equal(out.numpy(), a[:, ::-1] + np.float32(1))
    assert "annotate_layout" in kern.script()
    # A layout derived in Python (TileLang's Layout.repeat): replayed as the
    # same call; L'(i, j) = [i // 16] + L(i % 16, j).
    half = T.Layout((M // 2, N), lambda i, j: i * N + (j + i) % N)
    kern = shared_with_layout(M, N, half.repeat(dim=0, factor=2))
    out = kern(torch.from_numpy(a))
    assert np.array_equal(out.numpy(), a[:, ::-1] + np.float32(1))
    assert 'map = ["i // 16", "16 * (i % 16) + (i % 16 + j) % 16"]' in \
        kern.script(), kern.script()

    # A forward function the package cannot represent (not Python source
    # of the script): a TypeError naming the argument, never a kernel built
    # without the layout.
    bad = T.Fragment((M, N), forward_fn=np.divmod)
    e = expect_raises(TypeError, copy_with_loop_layout.compile, M=M, N=N,
                      loop_layout=bad)
    assert "loop_layout=" in str(e) and "not a Python function" in str(e), e
    print("layout_argument: ok")


if __name__ == "__main__":
    main()
