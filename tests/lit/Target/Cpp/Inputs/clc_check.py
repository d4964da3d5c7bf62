"""Runs the clc.py artifacts with tlc-run and checks them against NumPy:
every tile processed exactly once, and the blocks that started.

Usage: clc_check.py TLC_RUN ARTIFACT_DIR WORKDIR"""

import glob
import json
import os
import subprocess
import sys

import numpy as np


def run(tlc_run, meta, work, name, inputs, threads):
    ind = os.path.join(work, name, "in")
    out = os.path.join(work, name, "out%d" % threads)
    os.makedirs(ind, exist_ok=True)
    for k, v in inputs.items():
        np.save(os.path.join(ind, k + ".npy"), v)
    subprocess.run([tlc_run, meta, "--inputs", ind, "--save", out,
                    "--threads", str(threads)],
                   check=True, stdout=subprocess.DEVNULL)
    return lambda k: np.load(os.path.join(out, k + ".npy"))


def report(name, problems):
    print("%s: %s" % (name, "ok" if not problems else
                      "WRONG: " + "; ".join(problems)))


def main():
    tlc_run, art, work = sys.argv[1:4]
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}
    rng = np.random.default_rng(29)

    gx, gy, tile = 6, 4, 32
    x = rng.uniform(-1, 1, (gy, gx * tile)).astype(np.float32)
    want = x * np.float32(2) + np.float32(1)
    zeros = {"Y": np.zeros((gy, gx * tile), np.float32),
             "Count": np.zeros((gy, gx), np.int32),
             "Started": np.zeros((gy, gx), np.int32)}
    for threads in (1, 4):
        got = run(tlc_run, metas["persistent"], work, "persistent",
                  dict(X=x, **zeros), threads)
        problems = []
        if np.count_nonzero(got("Y") != want):
            problems.append("%d elements of Y differ" %
                            np.count_nonzero(got("Y") != want))
        if np.count_nonzero(got("Count") != 1):
            problems.append("tile counts %s" % got("Count").tolist())
        started = got("Started")
        if threads == 1:
            # Block (0, 0) steals every other tile: no other block starts.
            expect = np.zeros((gy, gx), np.int32)
            expect[0, 0] = 1
            if np.count_nonzero(started != expect):
                problems.append("started %s" % started.tolist())
        elif started.sum() < 1 or started.sum() > threads * 2 + gx * gy:
            problems.append("started %s" % started.tolist())
        report("persistent threads=%d" % threads, problems)

    n, tile = 8, 32
    x = rng.uniform(-1, 1, n * tile).astype(np.float32)
    got = run(tlc_run, metas["clusters"], work, "clusters",
              {"X": x, "Y": np.zeros(n * tile, np.float32),
               "Owner": np.zeros(n, np.int32)}, 1)
    problems = []
    if np.count_nonzero(got("Y") != x * np.float32(3)):
        problems.append("Y differs")
    # The first cluster (blocks 0 and 1) takes every other cluster; block
    # r of it processes the tiles of rank r (Owner = the block index + 1).
    if got("Owner").tolist() != [1 + b % 2 for b in range(n)]:
        problems.append("owners %s" % got("Owner").tolist())
    report("clusters threads=1", problems)

    x = rng.uniform(-1, 1, n * tile).astype(np.float32)
    for threads in (1, 4):
        got = run(tlc_run, metas["scheduled"], work, "scheduled",
                  {"X": x, "Y": np.zeros(n * tile, np.float32)}, threads)
        bad = int(np.count_nonzero(got("Y") != x * np.float32(2)))
        report("scheduled threads=%d" % threads,
               ["%d elements of Y differ" % bad] if bad else [])


main()
