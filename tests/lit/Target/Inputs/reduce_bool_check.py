"""Runs the reduce-bool.py artifact with tlc-run on a bool [32, 32] input
(row 0 all true, row 1 all false, row 2 one true, row 3 one false, the rest
random) and checks each reduction against NumPy's any/all.

Usage: reduce_bool_check.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]"""

import glob
import os
import subprocess
import sys

import numpy as np


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    meta = glob.glob(os.path.join(art, "*.json"))[0]
    rng = np.random.default_rng(2568)
    a = rng.random((32, 32)) < 0.5
    a[0], a[1] = True, False
    a[2], a[3] = False, True
    a[2, 17], a[3, 5] = True, False
    ind, out = os.path.join(work, "in"), os.path.join(work, "out")
    os.makedirs(ind, exist_ok=True)
    np.save(os.path.join(ind, "A.npy"), a)
    subprocess.run([tlc_run, meta, "--inputs", ind, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)
    want = {"Max": a.any(1), "Min": a.all(1), "And": a.all(1),
            "Or": a.any(1)}
    for name, key in (("max", "Max"), ("min", "Min"), ("bitand", "And"),
                      ("bitor", "Or")):
        got = np.load(os.path.join(out, key + ".npy"))
        bad = int(np.count_nonzero(got.astype(bool) != want[key]))
        print("%s: %s, %d of 32 differ" % (name, "ok" if bad == 0 else "WRONG",
                                          bad))


if __name__ == "__main__":
    main()
