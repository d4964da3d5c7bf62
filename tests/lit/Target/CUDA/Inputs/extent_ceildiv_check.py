"""Python oracle of extent-ceildiv-symbol.py: sums[r, b] is the sum of
x[r, 32 b : 32 b + 32] (the part inside N). Reads the .npy files tlc-run
saved under argv[1] without NumPy."""
import os
import struct
import sys


def load(path):
    data = open(path, "rb").read()
    hlen = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hlen].decode("latin1")
    assert "'<f4'" in header, path
    body = data[10 + hlen:]
    return list(struct.unpack("<%df" % (len(body) // 4), body))


d = sys.argv[1]
x = load(os.path.join(d, "inputs", "x.npy"))
sums = load(os.path.join(d, "sums.npy"))
M, N, B = 48, 80, 32
nb = (N + B - 1) // B
ok = len(sums) == M * nb and all(
    abs(sums[r * nb + b] - sum(x[r * N + c] for c in range(b * B, min(N, b * B + B))))
    <= 1e-4 * (1 + abs(sums[r * nb + b]))
    for r in range(M) for b in range(nb))
print("block row sums", ok)
