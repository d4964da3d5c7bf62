#!/usr/bin/python3
"""Cooperative launches (T.sync_grid) on the sim device.

Every block of a cooperative launch is resident at once on the simulator
(a worker per block, the blocks taking turns between grid barriers), the
grid barrier orders global memory for the racecheck, and a grid that the
simulated GPU could not hold at once is refused as the GPU refuses it.
The DSL programs of tests/lit/Target/Cpp are built for cuda:sm_80,
cuda:sm_90a (--cuda-compiler=none) and hip:gfx942, run on `sim` with
--save, and their outputs recomputed here with NumPy from the saved inputs:

  two_phase   (sync-grid.py) one partial sum per block, the grid barrier,
              every block reads every partial and normalises its slice
  mirror_sum  (sync-grid-parallel.py) T.sync_grid inside a T.Parallel body:
              each element adds the mirrored element another block wrote
  rounds      (sync-grid-rounds.py) five grid barriers, two of them in a
              loop: blocks read two other blocks' tiles (one reversed),
              halve them back, and sum their own through shared memory
  tally       (sync-grid-rounds.py) every thread of the grid adds 1 with
              an atomic, then, after the barrier, every block reads the
              total (atomics: the order check runs it first to last and
              last to first)

and each must be caught:

  no-barrier-N   rounds with its N-th grid barrier (N = 1, 2, 3) removed
                 from the generated source: a racecheck report between
                 blocks
  exit-early     (sync-grid-rounds.py exit_early) the last block skips the
                 barrier the others wait at (synccheck)
  too-large      rounds with more blocks than the simulated part holds
                 (2,000 on sm_80's A100, 5,000 on gfx942's MI300X: the
                 cuda and hip devices' occupancy rule), and 1,100 on
                 sm_90a (which the H100 holds but the sim does not)

and hand-written CUDA kernels with a cooperative manifest:

  spin-wait      block 0 spins on a flag the last block sets (the GPU runs
                 that because every block is resident): clean, D against
                 NumPy (a turn ends after a slice of global accesses)
  spin-forever   block 0 spins on a flag no block sets: reported as too
                 large to simulate at the time limit, not a hang
  half-block     half of each block's threads reach the grid barrier, the
                 others exit: a deadlock of the block (synccheck)
  not-cooperative  every thread calls the grid barrier, but the manifest
                 does not ask for a cooperative launch: an error

and, without a grid barrier or a cooperative launch, spin-forever-plain:
block 0 spins on a flag no block sets, stopped at the time limit (the
spinning thread never returns to the block's scheduler; the time limit is
also checked every slice of global accesses).

Every run has a timeout. Usage: cooperative.py --bin BUILD/bin [--only NAME]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import probe_artifact

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CPP = os.path.join(ROOT, "tests", "lit", "Target", "Cpp")
TARGETS = ["cuda:sm_80", "cuda:sm_90a", "hip:gfx942"]
TIMEOUT = 300


def load(out, name, inputs=False):
    return np.load(os.path.join(out, "inputs" if inputs else "", name + ".npy"))


def two_phase_ok(out):
    x = load(out, "X", True).astype(np.float64)
    part = load(out, "Part")
    want = [x[b * 125:(b + 1) * 125].sum() for b in range(8)]
    return (np.abs(part - want).max() < 1e-3 and
            np.abs(load(out, "Y") - x / x.sum()).max() < 1e-5)


def mirror_sum_ok(out):
    a = load(out, "A")
    return a.shape == (1000,) and bool((a == 999).all())


def rounds_ok(out):
    x = load(out, "X", True).astype(np.float64)
    n = x.shape[0]
    a = 2 * x
    for _ in range(2):
        nxt = a[(np.arange(n) + 1) % n][:, ::-1]
        prev = a[(np.arange(n) - 1) % n]
        a = 0.5 * (nxt + prev)
    return (np.abs(load(out, "Y") - a).max() < 1e-5 and
            np.abs(load(out, "S") - a.sum(1)).max() < 1e-3)


def tally_ok(out):
    c0 = int(load(out, "C", True)[0])
    return bool((load(out, "Y") == c0 + 6 * 64).all()) and int(load(out, "C")[0]) == c0 + 6 * 64


PROGRAMS = {
    "two_phase": ("sync-grid.py", two_phase_ok),
    "mirror_sum": ("sync-grid-parallel.py", mirror_sum_ok),
    "rounds": ("sync-grid-rounds.py", rounds_ok),
    "tally": ("sync-grid-rounds.py", tally_ok),
}

SPIN = r"""
#include "tlc_device/cuda.h"
#include "tlc_device/cuda/grid.h"
extern "C" __global__ void __launch_bounds__(32) init_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  if (threadIdx.x == 0)
    reinterpret_cast<unsigned *>(D)[32] = 0u;
}
extern "C" __global__ void __launch_bounds__(32) probe_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  unsigned *flag = reinterpret_cast<unsigned *>(D) + 32;
  const int lane = threadIdx.x;
  if (blockIdx.x == SETTER) {
    if (lane < 16)
      D[lane] = A[lane] * 2.0f;
    __syncthreads();
    if (lane == 0) {
      __threadfence();
      atomicExch(flag, 1u);
    }
  } else if (blockIdx.x == 0) {
    if (lane == 0)
      while (atomicAdd(flag, 0u) == 0u) {
      }
    __syncthreads();
    if (lane < 16)
      D[16 + lane] = D[lane] + 1.0f;
  }
  tlc::cuda::syncGrid();
  if (blockIdx.x == 1 && lane < 16)
    D[48 + lane] = D[16 + lane] * 3.0f;
}
"""


HALF = r"""
#include "tlc_device/cuda.h"
#include "tlc_device/cuda/grid.h"
extern "C" __global__ void __launch_bounds__(32) init_kernel(
    const float *__restrict__ A, float *__restrict__ D) {}
extern "C" __global__ void __launch_bounds__(32) probe_kernel(
    const float *__restrict__ A, float *__restrict__ D) {
  if (threadIdx.x < 16) {
    D[threadIdx.x] = A[threadIdx.x];
    tlc::cuda::syncGrid();
  }
}
"""


def run(cmd, env=None):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT,
                              env=dict(os.environ, **(env or {})))
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        return -1, f"TIMEOUT after {TIMEOUT} s: {' '.join(cmd)}"


def build(bin_dir, work, program, kernel, target, defines=()):
    name = f"{kernel}-{target.replace(':', '_')}-{len(os.listdir(work))}"
    art = os.path.join(work, name)
    cmd = [os.path.join(bin_dir, "tlc-build"), os.path.join(CPP, program), "--kernel", kernel,
           f"--target={target}", "-o", art]
    if target.startswith("cuda"):
        cmd.append("--cuda-compiler=none")
    for d in defines:
        cmd += ["-D", d]
    rc, text = run(cmd)
    return (art if rc == 0 else None), text


def sim(bin_dir, art, out=None, env=None):
    cmd = [os.path.join(bin_dir, "tlc-run"), art, "--device", "sim", "--seed", "3"]
    if out:
        cmd += ["--save", out]
    return run(cmd, env)


def drop_barrier(art, n):
    """Removes the n-th grid barrier call from the artifact's source."""
    src = next(f for f in os.listdir(art) if f.endswith((".cu", ".hip")))
    path = os.path.join(art, src)
    lines = open(path).read().split("\n")
    calls = [i for i, l in enumerate(lines) if "syncGrid();" in l]
    lines[calls[n - 1]] = "  // grid barrier removed"
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return len(calls)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--only", action="append", default=[], help="run only these cases")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tlc-sim-cooperative-")
    results = []

    def report(name, ok, detail, text=""):
        if not ok and text:
            print(text)
        print(f"{'PASS' if ok else 'FAIL'}: {name}: {detail}")
        results.append(ok)

    def wanted(name):
        return not args.only or any(o in name for o in args.only)

    race = r"racecheck: (read|write) of global memory .* of block \(\d+,0,0\) .* of block \(\d+,0,0\) .*blocks of a cooperative launch are ordered only by a grid barrier"
    for target in TARGETS:
        for kernel, (program, check) in PROGRAMS.items():
            name = f"{kernel} {target}"
            if not wanted(name):
                continue
            art, text = build(args.bin, work, program, kernel, target)
            if not art:
                report(name, False, "does not build", text)
                continue
            out = art + "-out"
            rc, text = sim(args.bin, art, out)
            ok = rc == 0 and check(out)
            report(name, ok, "runs clean and matches NumPy" if ok
                   else f"exit {rc}" + ("" if rc else ", differs from NumPy"), text)
        for n in (1, 2, 3):
            name = f"no-barrier-{n} {target}"
            if not wanted(name):
                continue
            art, text = build(args.bin, work, "sync-grid-rounds.py", "rounds", target)
            if not art:
                report(name, False, "does not build", text)
                continue
            drop_barrier(art, n)
            rc, text = sim(args.bin, art)
            line = next((l.strip() for l in text.splitlines() if re.search(race, l)), "")
            report(name, rc != 0 and bool(line),
                   f"caught: {line[:200]}" if line else f"not caught (exit {rc})", text)
        name = f"exit-early {target}"
        if wanted(name):
            art, text = build(args.bin, work, "sync-grid-rounds.py", "exit_early", target)
            rc, text = sim(args.bin, art) if art else (0, text)
            want = (r"synccheck: block \(3,0,0\) exited without reaching T.sync_grid, where "
                    r"block \(0,0,0\) and 2 more wait at exit_early\.(cu|hip):\d+ "
                    r"\(.*sync-grid-rounds\.py:\d+:\d+\)")
            line = next((l.strip() for l in text.splitlines() if re.search(want, l)), "")
            report(name, rc != 0 and bool(line),
                   f"caught: {line[:200]}" if line else f"not caught (exit {rc})", text)

    too_large = [
        ("cuda:sm_80", 2000, r"so all 2000 blocks must be resident at once; the simulated "
         r"NVIDIA A100-SXM4-80GB \(cuda:sm_80\) holds 1728 \(16 per multiprocessor x 108 "
         r"multiprocessors, bounded by threads"),
        ("hip:gfx942", 5000, r"so all 5000 blocks must be resident at once; the simulated "
         r"AMD Instinct MI300X \(hip:gfx942\) holds 4864 \(16 per compute unit x 304 compute "
         r"units"),
        ("cuda:sm_90a", 1100, r"so all 1100 blocks must be resident at once; the sim device "
         r"holds at most 1024 blocks and 24576 threads at once"),
    ]
    for target, blocks, want in too_large:
        name = f"too-large {target}"
        if not wanted(name):
            continue
        art, text = build(args.bin, work, "sync-grid-rounds.py", "rounds", target,
                          [f"blocks={blocks}", "per=4"])
        rc, text = sim(args.bin, art) if art else (0, text)
        line = next((l.strip() for l in text.splitlines() if re.search(want, l)), "")
        report(name, rc != 0 and bool(line),
               f"refused: {line[:220]}" if line else f"not refused (exit {rc})", text)

    spin_wait = SPIN.replace("SETTER", "gridDim.x - 1")
    hand_written = [
        ("spin-wait", spin_wait, True, {}, None),
        ("spin-forever", SPIN.replace("SETTER", "gridDim.x"), True, {"TLC_SIM_TIME_LIMIT": "3"},
         r"too large to simulate in reasonable time: the cooperative launch has not finished "
         r"after \d+ s"),
        ("half-block", HALF, True, {},
         r"synccheck: the threads of block \(0,0,0\) cannot all continue .*: 16 threads "
         r"\(linear 0\.\.15\) wait at T.sync_grid at probe\.cu:\d+; 16 threads "
         r"\(linear 16\.\.31\) exited"),
        ("not-cooperative", HALF.replace("< 16", "< 32"), False, {},
         r"synccheck: T.sync_grid \(a grid-wide barrier\) by thread \(\d+,0,0\) of block "
         r"\(\d+,0,0\) at probe\.cu:\d+ in a launch that is not cooperative"),
        ("spin-forever-plain",
         SPIN.replace("SETTER", "gridDim.x").replace("tlc::cuda::syncGrid();", ""), False,
         {"TLC_SIM_TIME_LIMIT": "3"},
         r"too large to simulate in reasonable time: block \(0,0,0\) has not finished after "
         r"\d+ s"),
    ]
    for name, source, cooperative, env, want in hand_written:
        if not wanted(name):
            continue
        art = os.path.join(work, name)
        probe_artifact.write(art, source, probe_artifact.manifest(
            "cooperative.py", 4, init=True, cooperative=cooperative))
        out = art + "-out"
        rc, text = sim(args.bin, art, out, env)
        if want is None:
            ok = rc == 0
            if ok:
                a = load(out, "A", True).astype(np.float32)
                d = load(out, "D")
                first = a[:16] * np.float32(2) + np.float32(1)
                ok = np.array_equal(d[16:32], first) and np.array_equal(d[48:64], first * np.float32(3))
            report(name, ok, "runs clean, D matches NumPy" if ok else f"exit {rc}", text)
        else:
            line = next((l.strip() for l in text.splitlines() if re.search(want, l)), "")
            report(name, rc > 0 and bool(line),
                   f"caught: {line[:200]}" if line else f"not caught (exit {rc})", text)

    shutil.rmtree(work, ignore_errors=True)
    failed = results.count(False)
    print(f"{len(results) - failed}/{len(results)} cooperative cases as expected")
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
