"""NumPy model of TileLang's software pipeline for pipelined_rotated.py.

A loop of n iterations whose statements have stages s_i and orders o_i runs
as steps k = 0 .. n + max(s) - 1; in each step the statements run in
ascending order, statement i for iteration k - s_i when 0 <= k - s_i < n.
A buffer the loop writes has (use - def + 1) versions (def: lowest stage
writing it, use: highest stage reading it), one fewer when no writer ordered
before a reader has a lower stage; iteration j uses version j mod versions.
Usage: pipelined_rotated_oracle.py SAVE_DIR (one subdirectory per kernel,
as tlc-run --save writes it)."""

import os
import sys

import numpy as np


def run(n, stmts, pipelined):
    """stmts: (stage, order, fn(j)) in program order."""
    if not pipelined:
        for j in range(n):
            for _, _, fn in stmts:
                fn(j)
        return
    last = max(s for s, _, _ in stmts)
    for k in range(n + last):
        for stage, _, fn in sorted(stmts, key=lambda s: s[1]):
            if 0 <= k - stage < n:
                fn(k - stage)


def rotated_acc(d, n, pipelined=True):
    A = np.load(os.path.join(d, "inputs", "A.npy")).astype(np.float64)
    B = np.load(os.path.join(d, "inputs", "B.npy")).astype(np.float64)
    a_sh = [np.zeros((64, 32)) for _ in range(4)]  # def 0, use 3, copy first
    acc = np.zeros((64, 64))

    def copy(j):
        a_sh[j % 4][:] = A[:, 32 * j:32 * (j + 1)]

    def gemm(j):
        acc[:] += a_sh[j % 4] @ B

    def scale(j):
        acc[:] *= 0.5

    run(n, [(0, 0, copy), (3, 1, gemm), (2, 2, scale)], pipelined)
    if pipelined:  # the closed form: gemm(t) meets the scalings t+1 .. n-1
        closed = sum((A[:, 32 * t:32 * (t + 1)] @ B) * 0.5 ** (n - 1 - t)
                     for t in range(n))
        assert np.allclose(acc, closed, rtol=1e-12, atol=1e-9)
    return acc


def carried_tile(d, n, pipelined=True):
    A = np.load(os.path.join(d, "inputs", "A.npy")).astype(np.float64)
    x_sh = [np.zeros((32, 32)) for _ in range(3)]  # def 0, use 2, copy first
    y_sh = np.full((32, 32), 3.0)  # def 2, use 1: one version
    acc = np.ones((32, 32))

    def copy(j):
        x_sh[j % 3][:] = A[:, 32 * j:32 * (j + 1)]

    def accumulate(j):
        acc[:] = acc * 0.5 + y_sh

    def make_y(j):
        y_sh[:] = x_sh[j % 3] * 2.0 + 1.0

    run(n, [(0, 1, copy), (1, 0, accumulate), (2, 2, make_y)], pipelined)
    return acc


KERNELS = {
    "rotated_acc": (rotated_acc, 1), "rotated_acc_1": (rotated_acc, 2),
    "rotated_acc_2": (rotated_acc, 4), "rotated_acc_3": (rotated_acc, 7),
    "carried_tile": (carried_tile, 1), "carried_tile_1": (carried_tile, 2),
    "carried_tile_2": (carried_tile, 5),
}

root = sys.argv[1]
for name, (model, n) in KERNELS.items():
    d = os.path.join(root, name)
    got = np.load(os.path.join(d, "C.npy")).astype(np.float64)
    want = model(d, n)
    program_order = model(d, n, pipelined=False)
    ok = np.allclose(got, want, rtol=1e-5, atol=1e-5)
    # Whether the schedule changes the result at all for this n.
    differs = not np.allclose(want, program_order, rtol=1e-5, atol=1e-5)
    print(f"{name} n={n}: {'ok' if ok else 'WRONG'}"
          f"{' (program order differs)' if differs else ''}"
          f" max_err={np.abs(got - want).max():.3g}")
