"""Runs the cluster-dsmem.py artifacts with tlc-run and checks them against
NumPy.

Usage: cluster_dsmem_check.py TLC_RUN ARTIFACT_DIR WORKDIR [--device DEV]
With --device, the kernels the artifact directory holds are run on that
device (the sim runs the CUDA build of remote_arrive)."""

import glob
import json
import os
import subprocess
import sys

import numpy as np


DEVICE = []


def run(tlc_run, meta, work, name, inputs):
    ind, out = os.path.join(work, name, "in"), os.path.join(work, name, "out")
    os.makedirs(ind, exist_ok=True)
    for k, v in inputs.items():
        np.save(os.path.join(ind, k + ".npy"), v)
    subprocess.run([tlc_run, meta, "--inputs", ind, "--save", out] + DEVICE,
                   check=True, stdout=subprocess.DEVNULL)
    return lambda k: np.load(os.path.join(out, k + ".npy"))


def report(name, got, want):
    bad = int(np.count_nonzero(got != want))
    print("%s: %s, %d of %d differ" % (name, "ok" if bad == 0 else "WRONG",
                                       bad, want.size))


def main():
    tlc_run, art, work = sys.argv[1:4]
    DEVICE.extend(sys.argv[4:])
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}
    rng = np.random.default_rng(13)

    x = rng.uniform(-1, 1, (8, 64)).astype(np.float32)
    got = run(tlc_run, metas["remote_arrive"], work, "remote_arrive",
              {"X": x, "G": np.zeros((8, 64), np.float32),
               "S": np.zeros((2, 64), np.float32)})
    g = x * np.float32(2)
    want = np.stack([((g[4 * c] + g[4 * c + 1]) + g[4 * c + 2]) + g[4 * c + 3]
                     for c in range(2)])
    report("remote_arrive", got("S"), want)

    if "ring" not in metas:
        return
    x = rng.uniform(-1, 1, (8, 64)).astype(np.float32)
    got = run(tlc_run, metas["ring"], work, "ring", {"X": x})
    b = np.arange(8)
    src = b - b % 4 + (b % 4 + 3) % 4  # the block before, in the cluster
    report("ring", got("Y"), (x[src] + np.float32(1)) * np.float32(3))

    x = rng.uniform(-1, 1, (4, 32)).astype(np.float32)
    got = run(tlc_run, metas["neighbour_arrive"], work, "neighbour_arrive",
              {"X": x})
    report("neighbour_arrive", got("Y"), np.cumsum(x, axis=0, dtype=np.float32))

    a = rng.uniform(-1, 1, (128,)).astype(np.float32)
    got = run(tlc_run, metas["store_cluster"], work, "store_cluster",
              {"A": a, "B": np.zeros(128, np.float32)})
    report("store_cluster", got("B"), a)

    x = rng.uniform(-1, 1, (8, 64)).astype(np.float32)
    got = run(tlc_run, metas["gather"], work, "gather",
              {"X": x, "S": np.zeros((2, 64), np.float32)})
    h = x * np.float32(0.5)
    want = np.stack([((h[4 * c] + h[4 * c + 1]) + h[4 * c + 2]) + h[4 * c + 3]
                     for c in range(2)])
    report("gather", got("S"), want)


main()
