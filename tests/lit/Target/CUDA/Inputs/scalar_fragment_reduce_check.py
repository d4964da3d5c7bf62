"""NumPy reference of scalar-fragment-reduce.py: one line per kernel, PASS
when the saved outputs under argv[1] match."""
import numpy as np

from saved_outputs import load, report_close as report


a = load("one_element", "A", True).astype(np.float64)
report("one_element", np.full(128, 1.0 + a[2]))
a = load("rows", "A", True).astype(np.float64)
report("rows", np.array([(-a).max(), a.max()]))
