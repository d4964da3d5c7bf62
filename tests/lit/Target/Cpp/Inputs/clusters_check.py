"""Runs the clusters.py artifacts with tlc-run and checks them against
NumPy: ranks in x-fastest order, and values read across the cluster
barrier.

Usage: clusters_check.py TLC_RUN ARTIFACT_DIR WORKDIR"""

import glob
import json
import os
import subprocess
import sys

import numpy as np


def run(tlc_run, meta, work, name, inputs):
    ind, out = os.path.join(work, name, "in"), os.path.join(work, name, "out")
    os.makedirs(ind, exist_ok=True)
    for k, v in inputs.items():
        np.save(os.path.join(ind, k + ".npy"), v)
    subprocess.run([tlc_run, meta, "--inputs", ind, "--save", out],
                   check=True, stdout=subprocess.DEVNULL)
    return lambda k: np.load(os.path.join(out, k + ".npy"))


def report(name, bad, total):
    print("%s: %s, %d of %d differ" % (name, "ok" if bad == 0 else "WRONG",
                                       bad, total))


def main():
    tlc_run, art, work = sys.argv[1:4]
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}
    got = run(tlc_run, metas["rank"], work, "rank", {})
    report("rank", int(np.count_nonzero(got("A") != np.arange(32) % 4)), 32)

    got = run(tlc_run, metas["rank2d"], work, "rank2d", {})
    by, bx = np.meshgrid(np.arange(4), np.arange(6), indexing="ij")
    want = bx % 2 + 2 * (by % 2)
    report("rank2d", int(np.count_nonzero(got("A") != want)), 24)

    rng = np.random.default_rng(4)
    x = rng.uniform(1, 2, 16).astype(np.float32)
    got = run(tlc_run, metas["rotate"], work, "rotate",
              {"X": x, "G": np.zeros(16, np.float32)})
    b = np.arange(16)
    want = 2 * x[b - b % 4 + (b % 4 + 1) % 4]
    report("rotate", int(np.count_nonzero(got("Y") != want)), 16)

    x = rng.uniform(1, 2, 8).astype(np.float32)
    got = run(tlc_run, metas["split"], work, "split",
              {"X": x, "G": np.zeros(8, np.float32)})
    b = np.arange(8)
    want = (x[b ^ 1] + np.float32(1)) + x * np.float32(3)
    report("split", int(np.count_nonzero(got("Y") != want)), 8)


main()
