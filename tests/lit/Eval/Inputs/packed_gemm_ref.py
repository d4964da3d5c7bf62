"""Python oracle of parallel-packed-gemm-operand.py (argv[1]: the directory
tlc-run saved): C[n, m] = sum_k B[n, k] * A[m, k], where B[n, k] is the
4-bit value k % 2 of byte Bq[n, k // 2] (low nibble first) minus 8. Reads
the .npy files without NumPy."""

import os
import struct
import sys


def load(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    hlen = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hlen].decode("latin1")
    body = data[10 + hlen:]
    if "'|u1'" in header:
        return list(body)
    if "'<f2'" in header:
        return list(struct.unpack("<%de" % (len(body) // 2), body))
    assert "'<f4'" in header, path
    return list(struct.unpack("<%df" % (len(body) // 4), body))


d = sys.argv[1]
a = load(os.path.join(d, "inputs", "A.npy"))
bq = load(os.path.join(d, "inputs", "Bq.npy"))
c = load(os.path.join(d, "C.npy"))
M = N = K = 64
b = [[((bq[n * (K // 2) + k // 2] >> (4 * (k % 2))) & 15) - 8 for k in range(K)]
     for n in range(N)]
bad = [n * M + m for n in range(N) for m in range(M)
       if abs(c[n * M + m] - sum(b[n][k] * a[m * K + k] for k in range(K)))
       > 1e-3 * (1 + abs(c[n * M + m]))]
print("packed-gemm", "ok" if not bad else "MISMATCH at %d of %d" % (bad[0], len(bad)))
