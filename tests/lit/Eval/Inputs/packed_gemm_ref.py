"""Python oracle of parallel-packed-gemm-operand.py (argv[1]: the directory
tlc-run saved): C[n, m] = sum_k B[n, k] * A[m, k], where B[n, k] is the
4-bit value k % 2 of byte Bq[n, k // 2] (low nibble first) minus 8. Reads
the .npy files with lang_eval_run's reader (no NumPy)."""

import os
import sys

from lang_eval_run import read_f32 as load


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
