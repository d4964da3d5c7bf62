#!/usr/bin/python3
"""Hand-written wgmma descriptors on the sim device against NumPy.

tests/lit/Conformance/l-wgmma-descriptors.py fills two matrix descriptors
itself (T.initialize_wgmma_descriptor: 32-byte swizzle, LBO, SBO) and
issues T.ptx_wgmma_ss on them; its output is C = A @ B^T (B is N x K,
K-major). It is built for cuda:sm_90a (--cuda-compiler=none), run on the
sim device (which decodes the descriptor bits as the PTX ISA defines them)
with --save, and C is recomputed here with NumPy in float64.

Descriptor bits that do not describe how the operands are stored must
give a wrong product: the program is copied with a 128-byte swizzle mode
(layout type 1) and with half the stride byte offset, and each copy must
differ from NumPy (or be refused by the simulator).

Usage: wgmma_descriptors.py --bin BUILD/bin
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAM = os.path.join(ROOT, "tests", "lit", "Conformance", "l-wgmma-descriptors.py")
FIELDS = "swizzle_32b, lbo, sbo = 3, 1, (8 * k * 2) // 16"
PLANTED = [("128B swizzle mode", "swizzle_32b, lbo, sbo = 1, 1, (8 * k * 2) // 16"),
           ("half the SBO", "swizzle_32b, lbo, sbo = 3, 1, (8 * k * 2) // 32")]


def load(d):
    return {f[:-4]: np.load(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".npy")}


def build_and_run(bin_dir, path, tmp, label):
    art = os.path.join(tmp, label)
    save = art + "-run"
    p = subprocess.run([os.path.join(bin_dir, "tlc-build"), path, "--target=cuda:sm_90a",
                        "--cuda-compiler=none", "-o", art], capture_output=True, text=True)
    if p.returncode:
        return None, p.stdout + p.stderr
    p = subprocess.run([os.path.join(bin_dir, "tlc-run"), art, "--device", "sim", "--seed", "7",
                        "--threads", "2", "--save", save], capture_output=True, text=True)
    if p.returncode:
        return None, p.stdout + p.stderr
    return save, ""


def error(save):
    ins, outs = load(os.path.join(save, "inputs")), load(save)
    want = ins["A"].astype(np.float64) @ ins["B"].astype(np.float64).T
    return float(np.abs(outs["C"].astype(np.float64) - want).max()), float(np.abs(want).max())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="tlc-sim-wgmma-desc-") as tmp:
        save, log = build_and_run(args.bin, PROGRAM, tmp, "program")
        if not save:
            print("l-wgmma-descriptors sm_90a: FAIL\n" + log)
            return 1
        err, scale = error(save)
        ok = err <= 1e-3 * scale
        print(f"l-wgmma-descriptors sm_90a on sim against NumPy: "
              f"{'PASS' if ok else 'FAIL'} (max |C - A B^T| = {err:.3g}, max |A B^T| = {scale:.3g})")
        failures += not ok
        source = open(PROGRAM).read()
        assert source.count(FIELDS) == 1, FIELDS
        for what, fields in PLANTED:
            path = os.path.join(tmp, "planted.py")
            with open(path, "w") as f:
                f.write(source.replace(FIELDS, fields))
            save, log = build_and_run(args.bin, path, tmp, "planted-" + str(PLANTED.index((what, fields))))
            if not save:
                caught, how = True, "refused: " + log.strip().splitlines()[-1][:120]
            else:
                err, scale = error(save)
                caught, how = err > 1e-3 * scale, f"max error {err:.3g}"
            print(f"planted descriptor fault ({what}): {'PASS' if caught else 'FAIL'} ({how})")
            failures += not caught
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
