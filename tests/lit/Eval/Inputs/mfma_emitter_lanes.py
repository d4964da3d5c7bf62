"""Checks intrinsics-emitter-mfma-lanes.py's registers against the CDNA3
ISA's operand tables of v_mfma_f32_16x16x16f16, written here:

  A operand (16 x 16, rows i, k): lane l holds row l % 16, k = 4 (l / 16) + v
  B operand (16 x 16, k, columns j): lane l holds column l % 16,
      k = 4 (l / 16) + v
  D (16 x 16): register v of lane l is row 4 (l / 16) + v, column l % 16

TileLang's emitter passes its B tile (N x K) as the A operand and its A
tile (M x K) as the B operand, so the instruction computes B A^T = C^T:
A's register v of lane l is the B operand's entry (k = 4 (l / 16) + v,
j = l % 16), i.e. A[l % 16, 4 (l / 16) + v]; B's is the A operand's,
B[l % 16, 4 (l / 16) + v]; and D register v of lane l is C^T[4 (l / 16) +
v, l % 16] with C = A B^T. Inputs are distinct integers, exact in float16
and in the float32 sums. Usage: mfma_emitter_lanes.py TLC_RUN DIR WORK [opts]
"""

import os
import subprocess
import sys

import numpy as np


def tables(A, B):
    C = A.astype(np.int64) @ B.T.astype(np.int64)
    want_a = np.zeros((64, 4)); want_b = np.zeros((64, 4)); want_c = np.zeros((64, 4))
    for l in range(64):
        for v in range(4):
            k = 4 * (l // 16) + v
            want_a[l, v] = A[l % 16, k]      # ISA B operand: B_op[k][j] = A[j][k]
            want_b[l, v] = B[l % 16, k]      # ISA A operand: A_op[i][k] = B[i][k]
            want_c[l, v] = C.T[4 * (l // 16) + v, l % 16]  # ISA D = C^T
    return want_a, want_b, want_c


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    A = np.arange(256).reshape(16, 16) % 97 - 48
    B = (np.arange(256).reshape(16, 16) * 7) % 89 - 44
    inputs = os.path.join(work, "in")
    out = os.path.join(work, "out")
    os.makedirs(inputs, exist_ok=True)
    np.save(os.path.join(inputs, "A.npy"), A.astype(np.float16))
    np.save(os.path.join(inputs, "B.npy"), B.astype(np.float16))
    subprocess.run([tlc_run, os.path.join(art, "mfma_lanes.json"), "--inputs", inputs,
                    "--save", out] + extra, check=True, stdout=subprocess.DEVNULL)
    got = [np.load(os.path.join(out, n + ".npy")) for n in ("OA", "OB", "OC")]
    want = tables(A, B)
    words = ["%s %s" % (n, "ok" if np.array_equal(g, w) else "WRONG")
             for n, g, w in zip("ABC", got, want)]
    swapped = [w[np.arange(64) ^ 16] for w in want]
    differs = all(not np.array_equal(g, s) for g, s in zip(got, swapped))
    print("mfma_lanes: %s; a table with lanes l and l ^ 16 exchanged %s" %
          (", ".join(words), "differs" if differs else "DOES NOT DIFFER"))


main()
