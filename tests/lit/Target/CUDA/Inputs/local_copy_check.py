"""NumPy reference of local-copy.py: one line per kernel, PASS when the
saved outputs under argv[1] match."""
import numpy as np

from saved_outputs import load, report_close as report


a = load("scalar_local", "A", True)
report("scalar_local", a * np.float16(2))
a = load("row_local", "A", True)
report("row_local", a * np.arange(8, dtype=np.float32))
a = load("converting_local", "A", True)
report("converting_local", a.astype(np.float16).astype(np.float32))
a = load("shared_to_local", "A", True)
report("shared_to_local", a[::-1].sum(1), atol=1e-4)
