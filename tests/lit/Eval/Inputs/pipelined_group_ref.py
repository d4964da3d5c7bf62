"""NumPy model of TileLang's warp-specialised pipeline schedules for
pipelined-group-producers.py.

A loop of n iterations whose statements form runs r with stage s_r and
order o_r (group=), some of them producers (-1: a copy from global into
shared memory issued by the producer warps), runs as steps k = 0 ..
n + max(s) - 1: the producers of iteration k first, then the other runs in
ascending order, run r for iteration k - s_r when 0 <= k - s_r < n, its
statements in program order. A buffer written in one stage and read in a
later one holds one copy per iteration in flight (TileLang's versions: the
producer's mbarriers hand each over), so the model gives every iteration
its own copy of such buffers (X_sh, Y_sh, S).

Usage: pipelined_group_ref.py SAVE_DIR (one subdirectory per kernel)."""
import os
import sys

import numpy as np


def run(n, runs, pipelined):
    """runs: (stage, order, [fn(j)]) in program order; stage -1: producer."""
    if not pipelined:
        for j in range(n):
            for _, _, fns in runs:
                for fn in fns:
                    fn(j)
        return
    last = max(s for s, _, _ in runs)
    ordered = [r for r in runs if r[0] < 0] + sorted(
        (r for r in runs if r[0] >= 0), key=lambda r: r[1])
    for k in range(n + last):
        for stage, _, fns in ordered:
            j = k - max(stage, 0)
            if 0 <= j < n:
                for fn in fns:
                    fn(j)


def ws_rotated(d, n, pipelined=True):
    X = np.load(os.path.join(d, "inputs", "X.npy")).astype(np.float64)
    x_sh = [None] * n
    acc = np.ones((32, 32))

    def copy(j):
        x_sh[j] = X[:, 32 * j:32 * (j + 1)].copy()

    def add_x(j):
        acc[:] += x_sh[j]

    def add_one(j):
        acc[:] += 1.0

    def scale(j):
        acc[:] *= 0.5

    run(n, [(-1, -1, [copy]), (3, 0, [add_x, add_one]), (2, 1, [scale])],
        pipelined)
    if pipelined:  # closed form: the adds of tile t meet scalings t+1..n-1
        closed = 0.5 ** n * np.ones((32, 32)) + sum(
            (X[:, 32 * t:32 * (t + 1)] + 1.0) * 0.5 ** (n - 1 - t)
            for t in range(n))
        assert np.allclose(acc, closed, rtol=1e-12, atol=1e-12)
    return acc


def ws_attention(d, n, pipelined=True):
    X = np.load(os.path.join(d, "inputs", "X.npy")).astype(np.float64)
    Y = np.load(os.path.join(d, "inputs", "Y.npy")).astype(np.float64)
    x_sh, y_sh, s = [None] * n, [None] * n, [None] * n
    acc = np.ones((32, 32))

    def copy_x(j):
        x_sh[j] = X[:, 32 * j:32 * (j + 1)].copy()

    def s_init(j):
        s[j] = x_sh[j] * 2.0

    def s_inc(j):
        s[j] = s[j] + 1.0

    def scale(j):
        acc[:] *= 0.5

    def copy_y(j):
        y_sh[j] = Y[:, 32 * j:32 * (j + 1)].copy()

    def accumulate(j):
        acc[:] += s[j] * y_sh[j]

    run(n, [(-1, -1, [copy_x]), (0, 0, [s_init, s_inc]), (0, 2, [scale]),
            (-1, -1, [copy_y]), (1, 1, [accumulate])], pipelined)
    return acc


KERNELS = [("ws_rotated", ws_rotated, 1), ("ws_rotated_1", ws_rotated, 2),
           ("ws_rotated_2", ws_rotated, 5), ("ws_attention", ws_attention, 1),
           ("ws_attention_1", ws_attention, 3),
           ("ws_attention_2", ws_attention, 6)]

root = sys.argv[1]
for name, model, n in KERNELS:
    d = os.path.join(root, name)
    got = np.load(os.path.join(d, "C.npy")).astype(np.float64)
    want = model(d, n)
    differs = not np.allclose(want, model(d, n, pipelined=False), rtol=1e-5,
                              atol=1e-5)
    ok = np.allclose(got, want, rtol=1e-5, atol=1e-5)
    print(f"{name} n={n}: {'ok' if ok else 'WRONG'}"
          f"{' (program order differs)' if differs else ''}"
          f" max_err={np.abs(got - want).max():.3g}")
