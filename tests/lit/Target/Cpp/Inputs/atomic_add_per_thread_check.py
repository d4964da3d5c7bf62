"""NumPy oracle of atomic-add-per-thread.py: every element T.atomic_add
outside T.Parallel adds once per thread of every block (run directory as
argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]
blocks, threads = 3, 64
wrap = lambda a: (np.asarray(a, np.int64) + 2**31) % 2**32 - 2**31


def load(kernel, name, inputs=False):
    parts = [d, kernel] + (["inputs"] if inputs else []) + [name + ".npy"]
    return np.load(os.path.join(*parts)).astype(np.int64)


x = load("counters", "X", True)
c0 = load("counters", "Count", True)
add = np.array([blocks * threads,
                threads * sum(range(blocks)),
                blocks * threads * 2,
                blocks * 8,
                threads * x[0::8].sum()])
ok = np.array_equal(load("counters", "Count"), wrap(c0 + add))
print("counters", "OK" if ok else "FAIL", load("counters", "Count"),
      wrap(c0 + add))

t0 = load("tickets", "Ticket", True)[0]
p0 = load("tickets", "PrevSum", True)[0]
n = blocks * threads
ok = (load("tickets", "Ticket")[0] == wrap(t0 + n) and
      load("tickets", "PrevSum")[0] == wrap(p0 + n * t0 + n * (n - 1) // 2))
print("tickets", "OK" if ok else "FAIL")
