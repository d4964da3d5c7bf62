"""Oracle of fragment-methods.py.

`layouts -`: reads `tlc-build --emit=tile` and checks each fragment that
T.annotate_layout records (in program order) against a model of
TileLang's Fragment methods written from their definitions:
  repeat(repeats, on_thread, lower_dim_first): x_d = x'_d mod extent_d,
    copy number c = mixed radix of x'_d div extent_d (last dimension
    fastest when lower_dim_first); thread += c * thread_extent when
    on_thread, else index += c * index_extent;
  replicate(n): replica r' -> thread(r' mod R) + (r' div R) * thread_extent;
  condense_rep_var(): keeps the part of the replica the thread uses;
  bind_thread_range(b, e): same map, threads counted from block thread b.
Every (element, replica) is compared: thread, register index, and the
bound range.
`outputs DIR`: the CPU target's results against NumPy.
"""
import itertools
import os
import re
import sys

import numpy as np


def frag_8x8(transposed):
    def f(c, r):
        i, j = c
        a, b = (i, j) if transposed else (j, i)
        return b * 4 + a // 2, a % 2
    return ((8, 8), 1, f, 32, 2)


def repeat(fr, reps, on_thread, lower_first):
    shape, nrep, f, threads, regs = fr
    order = list(range(len(shape)))[::-1] if lower_first else list(range(len(shape)))

    def g(c, r):
        copy, stride = 0, 1
        for d in order:
            copy += stride * (c[d] // shape[d])
            stride *= reps[d]
        t, k = f(tuple(x % s for x, s in zip(c, shape)), r)
        return (t + copy * threads, k) if on_thread else (t, k + copy * regs)
    n = int(np.prod(reps))
    return (tuple(s * m for s, m in zip(shape, reps)), nrep, g,
            threads * n if on_thread else threads, regs if on_thread else regs * n)


def replicate(fr, n):
    shape, nrep, f, threads, regs = fr
    return (shape, nrep * n, lambda c, r: (f(c, r % nrep)[0] + (r // nrep) * threads,
                                          f(c, r % nrep)[1]), threads * n, regs)


def user(shape, thread, index, nrep=1):
    """T.Fragment(shape, forward_thread_fn, forward_index_fn): the thread
    and index extents are max + 1 over the tile (TileLang's ThreadExtent)."""
    coords = list(itertools.product(*[range(s) for s in shape]))
    threads = max(thread(*c, r) for c in coords for r in range(nrep)) + 1
    regs = max(index(*c) for c in coords) + 1
    return (shape, nrep, lambda c, r: (thread(*c, r), index(*c)), threads, regs)


def condense(fr):
    shape, nrep, f, _, regs = fr
    coords = list(itertools.product(*[range(s) for s in shape]))
    sig = [tuple(f(c, r) for c in coords) for r in range(nrep)]
    for low in range(1, nrep + 1):
        for ext in range(1, nrep // low + 1):
            if nrep % (low * ext):
                continue
            if all(sig[r] == sig[((r // low) % ext) * low] for r in range(nrep)) and \
               len({sig[a * low] for a in range(ext)}) == ext:
                return (shape, ext, lambda c, r: f(c, r * low), None, regs)
    return fr


rows = user((64, 64), lambda i, j, r: (i // 16) * 32 + (i % 16) * 2 + j // 32,
            lambda i, j: j % 32)
EXPECTED = [
    (rows, (0, 128)),
    (rows, (128, 256)),
    (repeat(frag_8x8(False), (2, 2), False, True), None),
    (repeat(frag_8x8(True), (2, 2), False, False), None),
    (replicate(user((16,), lambda i, r: i, lambda i: 0), 4), None),
    (condense(user((16,), lambda i, r: i + 16 * (r % 2), lambda i: 0, 4)), None),
    (repeat(frag_8x8(False), (2, 1), True, True), None),
]

FRAG = re.compile(r'annotate_layout %\S+ layout\(#tile\.fragment<\[([0-9, ]*)\], '
                  r'thread = "([^"]*)", index = \[([^\]]*)\](?:, replicate = (\d+))?>\)'
                  r'(?: \{thread_range = array<i64: (\d+), (\d+)>\})?')


def check_layouts(text):
    found = FRAG.findall(text)
    ok = len(found) == len(EXPECTED)
    for (shape_s, thread_s, index_s, rep_s, lo, hi), (model, rng) in zip(found, EXPECTED):
        shape = tuple(int(x) for x in shape_s.split(","))
        nrep = int(rep_s or 1)
        index = [s.strip().strip('"') for s in index_s.split(",")]
        names = "ijklmn"[:len(shape)]
        if shape != model[0] or nrep != model[1] or len(index) != 1:
            print("FAIL shape/replicas", shape, nrep, model[0], model[1])
            ok = False
            continue
        for c in itertools.product(*[range(s) for s in shape]):
            for r in range(nrep):
                env = dict(zip(names, c), rep=r)
                got = (eval(thread_s, {}, env), eval(index[0], {}, env))
                if got != model[2](c, r):
                    print("FAIL at", c, r, got, model[2](c, r))
                    ok = False
                    break
        bound = (int(lo), int(hi)) if lo else None
        if bound != rng:
            print("FAIL thread range", bound, rng)
            ok = False
    print(len(found), "layouts", "PASS" if ok else "FAIL")


def check_outputs(root):
    def load(name, sub, inputs=False):
        return np.load(os.path.join(root, sub, "inputs" if inputs else "", name + ".npy"))
    dirs = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    for d in dirs:
        files = os.listdir(os.path.join(root, d))
        if d.startswith("halves"):
            a = load("A", d, True).astype(np.float64)
            want = np.concatenate([a[:64] * 3.0, a[64:] - 1.0])
            ok = np.allclose(load("B", d), want, rtol=1e-6, atol=1e-6)
        elif d.startswith("window"):
            a = load("A", d, True)
            r, c = (8, 16) if d == "window" or d.endswith("_0") else (16, 8)
            ok = np.array_equal(load("C", d), a[r:r + 16, c:c + 16])
        elif d.startswith("replicas"):
            a = load("A", d, True).astype(np.float64)
            ok = np.allclose(load("B", d), a + 1.0) and \
                list(load("S", d)) == [32, 64, 64, 32]
        else:
            continue
        print(d, "PASS" if ok else "FAIL")


if sys.argv[1] == "layouts":
    check_layouts(sys.stdin.read())
else:
    check_outputs(sys.argv[2])
