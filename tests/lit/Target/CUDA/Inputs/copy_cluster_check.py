"""Runs copy-cluster.py's sm_90a artifacts on the sim device and checks
them against NumPy (TileLang's T.copy_cluster semantics) and against the
CPU target
(tlc-run --verify --reference); then plants faults in the generated source,
which the sim must report.

Usage: copy_cluster_check.py TLC_RUN CUDA_DIR CPU_DIR WORKDIR [DEVICE]
DEVICE is sim (the default) or cuda (the GPU: no planted faults, which
would hang it)."""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np


def metas(art):
    return {json.load(open(p))["name"]: p
            for p in glob.glob(os.path.join(art, "*.json"))}


DEVICE = ["sim"]


def run(tlc_run, meta, work, name, inputs, extra=()):
    ind, out = os.path.join(work, name, "in"), os.path.join(work, name, "out")
    os.makedirs(ind, exist_ok=True)
    for k, v in inputs.items():
        np.save(os.path.join(ind, k + ".npy"), v)
    p = subprocess.run([tlc_run, meta, "--device", DEVICE[0], "--inputs", ind,
                        "--save", out] + list(extra),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p, (lambda k: np.load(os.path.join(out, k + ".npy")))


def report(name, p, got, want):
    if p.returncode != 0:
        print("%s: FAILED (rc %d)\n%s" % (name, p.returncode, p.stdout[-3000:]))
        return
    bad = int(np.count_nonzero(got != want))
    print("%s: %s, %d of %d differ" % (name, "ok" if bad == 0 else "WRONG",
                                       bad, want.size))


def verify(tlc_run, meta, cpu, name):
    p = subprocess.run([tlc_run, meta, "--device", DEVICE[0], "--verify",
                        "--reference", cpu],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print("%s vs cpu: %s" % (name, "PASS" if p.returncode == 0 else
                             "FAIL\n" + p.stdout[-3000:]))


def planted(tlc_run, art, name, work, inputs, edit, label):
    """Copies kernel `name`'s artifact, edits its .cu with `edit` (which
    must change it) and runs it on the sim: the run must fail."""
    dst = os.path.join(work, "fault-" + label)
    shutil.copytree(art, dst)
    meta = metas(dst)[name]
    cu = os.path.join(dst, json.load(open(meta))["generated_source"])
    text = open(cu).read()
    changed = edit(text)
    assert changed != text, "the fault was not planted"
    open(cu, "w").write(changed)
    p, _ = run(tlc_run, meta, work, "fault-" + label, inputs)
    print("fault %s: %s" % (label, "caught" if p.returncode != 0 else
                            "MISSED\n" + p.stdout[-2000:]))
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-1500:])


def main():
    tlc_run, art, cpu, work = sys.argv[1:5]
    if len(sys.argv) > 5:
        DEVICE[0] = sys.argv[5]
    m = metas(art)
    rng = np.random.default_rng(41)

    # shared_tile: block bx of a cluster of C reads the cluster's tile
    # A[by*64 : +64, (bx // C)*64 : +64] and writes it to B's columns of bx.
    for name, c, (rows, cols) in (("shared_tile", 2, (256, 512)),
                                  ("shared_tile4", 4, (128, 256))):
        a = rng.standard_normal((rows, cols)).astype(np.float16)
        p, got = run(tlc_run, m[name], work, name, {"A": a})
        want = np.repeat(a.reshape(rows, cols // 64, 64), c, axis=1)
        report("%s C=%d" % ("shared_tile", c), p, got("B") if p.returncode == 0 else None,
               want.reshape(rows, cols * c))
        verify(tlc_run, m[name], cpu, "shared_tile C=%d" % c)

    # demo: clusters of 4 along x, mask 0b0011: rank 1 gets rank 0's tile.
    a = rng.standard_normal((256, 512)).astype(np.float16)
    p, got = run(tlc_run, m["demo"], work, "demo", {"A": a})
    t = a.reshape(2, 128, 8, 64).copy()  # (by, row, bx, col)
    want = t.copy()
    want[:, :, 1::4, :] = t[:, :, 0::4, :]
    report("demo", p, got("B") if p.returncode == 0 else None, want.reshape(256, 512))
    verify(tlc_run, m["demo"], cpu, "demo")

    # push: block b receives (2 * X + 1) of the rank before it in its cluster.
    for name, c in (("push", 2), ("push4", 4)):
        x = rng.standard_normal((8, 64)).astype(np.float32)
        p, got = run(tlc_run, m[name], work, name, {"X": x})
        b = np.arange(8)
        src = b - b % c + (b % c + c - 1) % c
        report("push C=%d" % c, p, got("Y") if p.returncode == 0 else None,
               x[src] * np.float32(2) + np.float32(1))
        verify(tlc_run, m[name], cpu, "push C=%d" % c)

    x = rng.standard_normal((8, 64)).astype(np.float32)
    p, got = run(tlc_run, m["push_stores"], work, "push_stores", {"X": x})
    b = np.arange(8)
    report("push_stores", p, got("Y") if p.returncode == 0 else None,
           x[b ^ 1] - np.float32(3))
    verify(tlc_run, m["push_stores"], cpu, "push_stores")

    a = np.arange(128, dtype=np.float32)
    p, got = run(tlc_run, m["upstream_dsmem"], work, "upstream_dsmem", {"A": a})
    report("upstream_dsmem", p, got("B") if p.returncode == 0 else None, a)
    verify(tlc_run, m["upstream_dsmem"], cpu, "upstream_dsmem")

    if DEVICE[0] != "sim":
        return
    # Faults: the multicast's cta mask naming the leader only; the push
    # going to block 0 from every rank.
    planted(tlc_run, art, "shared_tile", work,
            {"A": rng.standard_normal((256, 512)).astype(np.float16)},
            lambda s: s.replace("(uint16_t)3,", "(uint16_t)1,"), "mask")
    planted(tlc_run, art, "push", work,
            {"X": rng.standard_normal((8, 64)).astype(np.float32)},
            lambda s: re.sub(r"(bulkCopySharedCluster\(.*, )\(uint32_t\)\(.*\)\);",
                             r"\1(uint32_t)(0));", s), "peer")


main()
