"""NumPy check of raw-launch.py's saved runs: one line per kernel."""
import sys

import numpy as np

d = sys.argv[1]


def load(kernel, name):
    return np.load(f"{d}/{kernel}/{name}.npy")


def loadIn(kernel, name):
    return np.load(f"{d}/{kernel}/inputs/{name}.npy")


a = loadIn("negate", "A")
print("negate", bool((load("negate", "B") == -a).all()))
a = loadIn("let_copy", "A")
print("let_copy", bool((load("let_copy", "B") == a[:, 4:8]).all()))
a = loadIn("ranges", "A").astype(np.float64)
ref = a * 2.0 + np.arange(a.shape[0])[:, None]
print("ranges", bool(np.abs(load("ranges", "B") - ref).max() < 1e-5))
a = loadIn("reverse", "A")
print("reverse", bool((load("reverse", "B") == a.reshape(-1, 128)[:, ::-1].reshape(-1)).all()))
