#!/usr/bin/python3
"""The skinny-GEMM programs of tests/bench/CUDA/skinny_gemm.py on the sim.

Each program is built for cuda:sm_90a at ragged sizes (no dimension a
multiple of its tile; rows multiples of 16 bytes, so TMA loads them), NN
and TN, f16 and bf16, and run on the sim device (racecheck, memcheck,
synccheck, and ordercheck: the blocks run first to last and last to first
must give the same bytes) against the CPU target:

* splitk_serial: split-K whose last block per tile (an acq_rel counter)
  sums the slices' float32 partials from a workspace and puts the counter
  back to 0 (checked: Lock is 0 again after the run). The split-K kernels
  must be warp-specialised (tile-warp-specialize: the counter is taken in
  a T.Parallel(1), not under a thread index). Cases: 3 slices on 4
  stages; 2 slices of 64-wide tiles, TN bf16; a last slice with no k-step
  in range (K = 200 in 3 slices of 2 k-steps: the last one reads zeros).
* splitk_atomic / streamk_atomic: float32 atomics into a zeroed C
  (--accumulation: the order of the adds is the hardware's).
* A planted fault: the serial split-K without memory_order="acq_rel" on
  its counter must be reported by racecheck (the last block reads the
  other blocks' partials with no fence ordering them).

Usage: skinny_gemm.py --bin BUILD/bin
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROG = os.path.join(ROOT, "tests", "bench", "CUDA", "skinny_gemm.py")

LOCK = ["--fill", "Lock=const(0)"]
# name, kernel, bindings, tlc-run options
CASES = [
    ("serial_nn_f16_s3", "splitk_serial", "-DM=40 -DN=328 -DK=520 -Dsplit_k=3 -Dnum_stages=4",
     LOCK),
    ("serial_tn_bf16_s2_n64", "splitk_serial",
     "-DM=70 -DN=200 -DK=328 -Dsplit_k=2 -Dnum_stages=3 -Dblock_N=64 -Dtrans_B=True "
     "-Ddtype=T.bfloat16", LOCK),
    ("serial_nn_f16_empty_slice", "splitk_serial",
     "-DM=24 -DN=136 -DK=200 -Dsplit_k=3 -Dnum_stages=2", LOCK),
    ("atomic_nn_bf16_s4", "splitk_atomic",
     "-DM=40 -DN=328 -DK=520 -Dsplit_k=4 -Dnum_stages=4 -Ddtype=T.bfloat16",
     ["--fill", "C=const(0)", "--accumulation", "C=4"]),
    ("streamk_tn_f16", "streamk_atomic",
     "-DM=40 -DN=328 -DK=520 -Dprograms=5 -Dnum_stages=3 -Dtrans_B=True",
     ["--fill", "C=const(0)", "--accumulation", "C=5"]),
]


def run(cmd, env):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def build_pair(args, env, prog, kernel, defs, work):
    """Builds the CPU reference and the sm_90a source; (cpu, ws, error)."""
    cpu, ws = os.path.join(work, "cpu"), os.path.join(work, "ws")
    for cmd in ([args.build, prog, "--kernel", kernel, "--target=cpu", "-o", cpu] + defs.split(),
                [args.build, prog, "--kernel", kernel, "--target=cuda:sm_90a",
                 "--cuda-compiler=none", "-o", ws] + defs.split()):
        rc, out = run(cmd, env)
        if rc != 0:
            return cpu, ws, f"build failed:\n{out}"
    return cpu, ws, None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    args.build = os.path.join(args.bin, "tlc-build")
    tlc_run = os.path.join(args.bin, "tlc-run")
    env = dict(os.environ, TLC_SIM_QUIET_INITCHECK="1")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tlc-sim-skinny-") as work:
        for name, kernel, defs, opts in CASES:
            cpu, ws, bad = build_pair(args, env, PROG, kernel, defs, os.path.join(work, name))
            if bad is None and kernel.startswith("splitk"):
                src = open(os.path.join(ws, kernel + ".cu")).read()
                if "mbarrierWait(&empty[" not in src:
                    bad = "the kernel is not warp-specialised"
            if bad is None:
                rc, out = run([tlc_run, ws, "--device", "sim", "--verify", "--reference", cpu,
                               "--seed", "5"] + opts, env)
                want = ["verify C: PASS"] + (["verify Lock: PASS"] if opts == LOCK else [])
                if rc != 0 or not all(w in out for w in want):
                    bad = out
            print(f"PASS: {name}" if bad is None else f"FAIL: {name}: {bad}", flush=True)
            failed += bad is not None
        # Planted fault: the counter without its memory order.
        with open(PROG) as f:
            text = f.read()
        assert ', memory_order="acq_rel"' in text
        fault = os.path.join(work, "nofence.py")
        with open(fault, "w") as f:
            f.write(text.replace(', memory_order="acq_rel"', ""))
        cpu, ws, bad = build_pair(args, env, fault, "splitk_serial",
                                  "-DM=40 -DN=328 -DK=520 -Dsplit_k=3 -Dnum_stages=4",
                                  os.path.join(work, "fault"))
        if bad is None:
            rc, out = run([tlc_run, ws, "--device", "sim", "--verify", "--reference", cpu,
                           "--seed", "5"] + LOCK, env)
            if rc == 0 or "racecheck: read of global memory" not in out \
                    or "parameter W" not in out:
                bad = "racecheck did not report the unfenced partials:\n" + out
        print("PASS: planted fault (no acq_rel) reported" if bad is None
              else f"FAIL: planted fault: {bad}", flush=True)
        failed += bad is not None
    print(f"{len(CASES) + 1 - failed}/{len(CASES) + 1} skinny GEMM checks passed on sim")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
