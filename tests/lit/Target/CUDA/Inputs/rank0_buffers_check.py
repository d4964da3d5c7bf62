"""NumPy reference of rank0-buffers.py: one line per kernel, PASS when the
saved outputs under argv[1] match."""
import numpy as np

from saved_outputs import load, report

a = load("argmax_vec", "A", True)
b = load("argmax_vec", "B")
report("argmax_vec", b.shape == () and int(b) == int(np.argmax(a)))

a = load("sum_vec", "A", True).astype(np.float64)
b = load("sum_vec", "B")
report("sum_vec", b.shape == () and abs(float(b) - a.sum()) < 1e-3)

a = load("local_acc", "A", True).astype(np.float64)
report("local_acc", np.allclose(load("local_acc", "B"), a.sum(1), atol=1e-4))

a = load("shared_scalar", "A", True)
report("shared_scalar", np.array_equal(load("shared_scalar", "B"), a + a[3]))

a = load("max_sum_accumulate", "A", True).astype(np.float64)
report("max_sum_accumulate",
       float(load("max_sum_accumulate", "B")) == a.max() and
       abs(float(load("max_sum_accumulate", "C")) - a.sum()) < 1e-3)

a = load("fragment_scalar_in_parallel", "A", True).astype(np.float64)
report("fragment_scalar_in_parallel",
       np.allclose(load("fragment_scalar_in_parallel", "B"),
                   a - a.sum() / 128, atol=1e-4))
