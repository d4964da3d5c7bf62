"""NumPy reference of vector-arith.py: argv[1] holds the inputs
(vector_arith_inputs.py), argv[2] the saved outputs; one line per check."""
import os
import sys

import numpy as np

inputs, outputs = sys.argv[1], sys.argv[2]


def arg(kernel, name):
    return np.load(os.path.join(inputs, kernel, name + ".npy"))


def out(kernel, name):
    return np.load(os.path.join(outputs, kernel, name + ".npy"))


a = arg("vec_arith", "A")
v, w = a[0:2], a[2:4]
print("arith", np.array_equal(out("vec_arith", "B"),
                              np.concatenate([v + w, v - w, v * w, v / w])))
print("cast", np.array_equal(out("vec_arith", "C"), v.astype(np.float32)))
print("compare", np.array_equal(out("vec_arith", "D"),
                                (v < w).astype(np.int32)))

a, x = arg("vec_mixed", "A"), arg("vec_mixed", "X")
b = out("vec_mixed", "B")
v = -(a[0:2] * np.float16(2) + a[2])
print("scalar-lanes",
      np.array_equal(b[0:2], v.astype(np.float32) * np.float32(0.5)))
print("max", np.array_equal(b[2:4], np.maximum(v.astype(np.float32),
                                               a[2:4].astype(np.float32))))
print("compare-cast",
      np.array_equal(b[4:6], (a[0:2] >= 0).astype(np.float32)))
m = (x * 3) // 2 - x % 3
print("int", np.array_equal(out("vec_mixed", "E"), np.where(x > 1, m, x)))

a = arg("vec_math", "A").astype(np.float64)
print("exp", np.allclose(out("vec_math", "B"), np.exp(a), rtol=1e-6, atol=0))
