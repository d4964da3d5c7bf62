"""Stream-K GEMM (examples/gemm_streamk): are two results that differ both
sums of the same f16 atomic additions in some order?

C (f16, in-out) gets C0 + A @ B^T on its stream-K tiles as ~6 partial sums
(each program's K range, accumulated in f32, rounded to f16) added with
f16 atomics, each addition rounded to f16. This script recomputes every
partial sum in float64 (rounded to f32, then to f16, as both back ends do),
enumerates every order of the additions for each element where the two
results differ, and reports whether each result is one of the reachable
values; it also gives each result's error against the float64 exact sum.

usage: streamk_orders.py INPUTS_DIR OUT_A OUT_B  (tlc-run --save dirs)
"""
import itertools
import math
import sys

import numpy as np

inp, da, db = sys.argv[1:4]
A = np.load(f"{inp}/A.npy").astype(np.float64)
Bm = np.load(f"{inp}/B.npy").astype(np.float64)
C0 = np.load(f"{inp}/C.npy")
ca = np.load(f"{da}/C.npy")
cb = np.load(f"{db}/C.npy")

# The program's constants (examples__gemm_streamk__example_tilelang_gemm_streamk.py).
M, K = A.shape
N = Bm.shape[0]
bm, bn, bk, sms = 16, 128, 32, 108
ipt = math.ceil(K / bk)
tiles = math.ceil(M / bm) * math.ceil(N / bn)
sk_tiles = tiles % sms
if tiles - sk_tiles > sms:
    sk_tiles += sms
full, part = divmod(sk_tiles * ipt, sms)

# Segments: (tile, first k-iteration, last) per program's range.
segs = {}
for pid in range(sms):
    s = pid * full + min(pid, part)
    last = (pid + 1) * full + min(pid + 1, part)
    while s < last:
        e = min(s + (ipt - s % ipt), last)
        segs.setdefault(s // ipt, []).append((s % ipt, (e - 1) % ipt + 1))
        s = e

f16 = np.float16
diff = np.argwhere(ca.astype(np.float64) != cb.astype(np.float64))
print(f"{len(diff)} elements differ; stream-K tiles: {sk_tiles} of {tiles}")
both = only_a = only_b = neither = 0
err_a, err_b, spread = [], [], []
for i, j in diff:
    t = (i // bm) * math.ceil(N / bn) + j // bn
    if t not in segs or any(a == 0 and b == ipt for a, b in segs[t]):
        continue  # a tile written whole by one program: no atomics
    parts = [f16(np.float32(A[i, a * bk:b * bk] @ Bm[j, a * bk:b * bk]))
             for a, b in segs[t]]
    reach = set()
    for order in itertools.permutations(range(len(parts))):
        v = C0[i, j]
        for k in order:
            v = f16(np.float32(v) + np.float32(parts[k]))
        reach.add(float(v))
    ina, inb = float(ca[i, j]) in reach, float(cb[i, j]) in reach
    both += ina and inb
    only_a += ina and not inb
    only_b += inb and not ina
    neither += not ina and not inb
    exact = float(C0[i, j]) + float(A[i] @ Bm[j])
    err_a.append(abs(float(ca[i, j]) - exact))
    err_b.append(abs(float(cb[i, j]) - exact))
    spread.append(max(reach) - min(reach))
print(f"both results reachable by some order: {both}; only A: {only_a}; "
      f"only B: {only_b}; neither: {neither}")
if err_a:
    print(f"|A - exact| mean {np.mean(err_a):.4g} max {np.max(err_a):.4g}; "
          f"|B - exact| mean {np.mean(err_b):.4g} max {np.max(err_b):.4g}; "
          f"spread of the reachable values mean {np.mean(spread):.4g} "
          f"max {np.max(spread):.4g}")
