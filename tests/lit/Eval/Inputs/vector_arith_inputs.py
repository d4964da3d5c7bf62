"""Inputs of vector-arith.py (argv[1] is DIR): DIR/<kernel>/<param>.npy,
float16 values with ties, signs and zeros, int32 values of both signs."""
import os
import sys

import numpy as np

root = sys.argv[1]


def save(kernel, name, array):
    os.makedirs(os.path.join(root, kernel), exist_ok=True)
    np.save(os.path.join(root, kernel, name + ".npy"), array)


save("vec_arith", "A", np.array([1.5, -0.3333, 1.5, 3.0], np.float16))
save("vec_mixed", "A", np.array([0.7, -2.25, 0.1, -9.0], np.float16))
save("vec_mixed", "X", np.array([7, -5, 1, -1], np.int32))
save("vec_math", "A", np.array([-0.75, 2.5], np.float32))
