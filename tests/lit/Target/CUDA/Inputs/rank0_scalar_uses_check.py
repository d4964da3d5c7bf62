"""NumPy reference of rank0-scalar-uses.py: one line per kernel, PASS when
the saved outputs under argv[1] match."""
import numpy as np

from saved_outputs import load, report_close as report


a = load("fill_local", "A", True)
report("fill_local", np.float32(1.5) + a)
a = load("fill_shared", "A", True)
report("fill_shared", a + np.float32(3))
a = load("scalar_store", "A", True)
report("scalar_store", a - a[5])
a = load("accumulate", "A", True)
report("accumulate", a + np.float32(2))
a = load("element_of_fragment", "A", True)
report("element_of_fragment", (a + 1) * (a[7] + 1))
a = load("list_shape", "A", True)
report("list_shape", np.array([a.max() * 2], dtype=np.float32))
