"""float64 model of example_linear_attn_fwd (linear_attention), for the
corpus runs' 7,374 O elements out of tolerance between the H100 and the CPU
target (corpus-h200.md, runs 9-16): which side is off, and by how much the
program's own float16 roundings let any two correct back ends differ.

  linear_attn_fwd_model.py SAVE_DIR [SAVE_DIR...]

SAVE_DIR: `tlc-run ARTIFACT --save SAVE_DIR` of the program built with
-DB=1 -DH=1 (the instance's per-block work unchanged: S 4096, D 256, 64
chunks of 64), on any device. The model follows the kernel's rounding
points, with exact sums: q = f16(Q * scale), s_shared = f16(tril(q k^T)),
h_shared = f16(h) with h the exact running sum of k^T v, O = f16(s_shared v
+ q h_shared). Printed per SAVE_DIR: elements outside tlc-run's float16
tolerance (rtol = atol = 1e-2) against the model, and how many of them lie
within the reach of one-ulp changes of f16(h) (sum_j |q_j| ulp(h_j)), the
rounding an accumulation order moves; and, for the reference, that reach.
"""
import sys

import numpy as np


def model(d):
    Q = np.load(f"{d}/inputs/Q.npy").astype(np.float64)
    K = np.load(f"{d}/inputs/K.npy").astype(np.float64)
    V = np.load(f"{d}/inputs/V.npy").astype(np.float64)
    B, S, H, D = Q.shape
    assert B == 1 and H == 1, "build with -DB=1 -DH=1"
    C, BK = 64, 64
    scale = D ** -0.5

    def f16(x):
        return x.astype(np.float16).astype(np.float64)

    ref = np.zeros((D // BK, 1, S, 1, D))
    reach = np.zeros_like(ref)
    for ik in range(D // BK):
        kc = slice(ik * BK, (ik + 1) * BK)
        for iv in range(D // BK):
            vc = slice(iv * BK, (iv + 1) * BK)
            h = np.zeros((BK, BK))
            for i in range(S // C):
                r = slice(i * C, (i + 1) * C)
                q = f16(Q[0, r, 0, kc] * scale)
                k, v = K[0, r, 0, kc], V[0, r, 0, vc]
                hs = f16(h)
                o = f16(np.tril(q @ k.T)) @ v + q @ hs
                h = h + k.T @ v
                ref[ik, 0, r, 0, vc] = f16(o)
                reach[ik, 0, r, 0, vc] = np.abs(q) @ (np.abs(hs) * 2.0**-10)
    return ref, reach


def main(dirs):
    ref, reach = model(dirs[0])
    print(f"one-ulp reach of f16(h) over O: median {np.median(reach):.3g}, "
          f"max {reach.max():.3g} (tlc-run's atol 1e-2)")
    for d in dirs:
        O = np.load(f"{d}/O.npy").astype(np.float64)
        dd = np.abs(O - ref)
        bad = dd > 0.01 + 0.01 * np.abs(ref)
        near = bad & (dd <= reach + np.abs(ref) * 2.0**-10 + 1e-3)
        print(f"{d}: {int(bad.sum())} of {O.size} outside tolerance against "
              f"the model (rate {bad.mean():.2e}), max abs {dd.max():.3g}; "
              f"{int(near.sum())} of them within the reach of f16(h) flips")


if __name__ == "__main__":
    main(sys.argv[1:])
