#!/usr/bin/python3
"""Compares the saved parameters of a GPU run and a sim run, bit for bit.

    compare_saved.py DIR

For every DIR/NAME holding cuda/ and sim/ (written by tlc-run --save, as
tests/bench/Sim/h200_vs_sim.sh does), each parameter the kernel wrote (its
cuda/P.npy differs from cuda/inputs/P.npy, or has no input) is compared
between the two runs: elements whose stored bits are equal, the largest
absolute difference, and that difference over the output's largest
magnitude (bfloat16 and fp8 are stored widened to float32 by tlc-run,
exactly, so equal bits there mean equal values).
Parameters only read are checked to be unchanged on both sides.
Prints one line per output and a summary; exit status 1 when a kernel
differs in shape, in its unwritten inputs, or has no sim output.
"""

import os
import sys

import numpy as np


def compare(name, cuda_dir, sim_dir):
    lines, ok = [], True
    inputs = os.path.join(cuda_dir, "inputs")
    for f in sorted(os.listdir(cuda_dir)):
        if not f.endswith(".npy"):
            continue
        g = np.load(os.path.join(cuda_dir, f))
        sim_path = os.path.join(sim_dir, f)
        if not os.path.exists(sim_path):
            lines.append(f"{name:18} {f[:-4]:10} no sim output")
            ok = False
            continue
        s = np.load(sim_path)
        before = os.path.join(inputs, f)
        written = True
        if os.path.exists(before):
            b = np.load(before)
            written = b.shape != g.shape or b.tobytes() != g.tobytes()
        if g.shape != s.shape or g.dtype != s.dtype:
            lines.append(f"{name:18} {f[:-4]:10} shape/dtype differ: "
                         f"{g.dtype}{g.shape} vs {s.dtype}{s.shape}")
            ok = False
            continue
        gb = g.reshape(-1).view(np.uint8).reshape(g.size, -1)
        sb = s.reshape(-1).view(np.uint8).reshape(s.size, -1)
        same = int(np.all(gb == sb, axis=1).sum()) if g.size else 0
        if not written:
            if same != g.size:
                lines.append(f"{name:18} {f[:-4]:10} input changed by one run")
                ok = False
            continue
        desc = f"{name:18} {f[:-4]:10} {str(g.dtype):8} {same:>8}/{g.size:<8}"
        if g.dtype.kind == "f" and g.size:
            both_nan = np.isnan(g) & np.isnan(s)
            diff = np.where(both_nan, 0.0,
                            np.abs(g.astype(np.float64) - s.astype(np.float64)))
            scale = np.nanmax(np.abs(g.astype(np.float64)))
            desc += (f" max|d|={np.nanmax(diff):.3g}"
                     f" max|d|/max|x|={np.nanmax(diff) / (scale or 1):.2g}")
        elif g.size:
            desc += (" max|d|="
                     f"{int(np.abs(g.astype(np.int64) - s.astype(np.int64)).max())}")
        lines.append(desc)
    return lines, ok


def main():
    root = sys.argv[1]
    total_same = total = 0
    bad = []
    print(f"{'kernel':18} {'output':10} {'dtype':8} bit-identical / elements")
    for name in sorted(os.listdir(root)):
        cuda_dir = os.path.join(root, name, "cuda")
        sim_dir = os.path.join(root, name, "sim")
        if not os.path.isdir(cuda_dir):
            continue
        if not os.path.isdir(sim_dir):
            print(f"{name:18} no sim run")
            bad.append(name)
            continue
        lines, ok = compare(name, cuda_dir, sim_dir)
        for line in lines:
            print(line)
            parts = line.split()
            if len(parts) > 3 and "/" in parts[3]:
                a, b = parts[3].split("/")
                total_same += int(a)
                total += int(b)
        if not ok:
            bad.append(name)
    print(f"summary: {total_same}/{total} output elements bit-identical; "
          f"kernels with problems: {', '.join(bad) or 'none'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
