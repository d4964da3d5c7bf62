"""NumPy reference of fragment-partial-copy.py: prints 'True True' per
kernel when the saved outputs under argv[1] match."""
import sys

import numpy as np

d = sys.argv[1] + "/"


def padded(x, rows):
    """x with zero rows appended up to \\p rows (T.copy reads zeros past the
    end of a tensor)."""
    out = np.zeros((rows,) + x.shape[1:])
    out[:x.shape[0]] = x
    return out


# valid_rows: block bx holds rows bx*10 .. bx*10+15 of A, doubled, plus the
# row's index in the block; rows 0..9 of the block are stored.
a = np.load(d + "valid_rows/inputs/A.npy").astype(np.float64)
m = a.shape[0]
t = padded(a, m + 16) * 2
t[:m] += (np.arange(m) % 10)[:, None]
b = np.load(d + "valid_rows/B.npy").astype(np.float64)
s = np.load(d + "valid_rows/S.npy")
print(np.abs(b - t[:m]).max() <= 2e-3 * np.abs(t).max(),
      np.abs(s - t[:m].sum(1)).max() < 1e-3)

# offset_window: block bx holds rows bx*10 .. bx*10+15 of A2 (tripled) and
# stores its rows 2..11, columns 3..58; the row sums of the same rows.
a2 = np.load(d + "offset_window/inputs/A2.npy").astype(np.float64)
t2 = padded(a2, m + 16) * 3
c = np.load(d + "offset_window/C.npy")
r = np.load(d + "offset_window/R.npy")
want_c = np.zeros_like(c, dtype=np.float64)
want_r = np.zeros(m)
for r0 in range(0, m, 10):
    n = min(10, m - r0)
    want_c[r0:r0 + n] = t2[r0 + 2:r0 + 2 + n, 3:59]
    want_r[r0:r0 + n] = t2[r0 + 2:r0 + 2 + n].sum(1) / 3
print(np.abs(c - want_c).max() < 1e-5, np.abs(r - want_r).max() < 1e-3)
