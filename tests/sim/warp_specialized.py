#!/usr/bin/python3
"""Warp-specialised programs on the sim device against NumPy.

The programs of tests/lit/Target/CUDA written the way hand-written Hopper
kernels are (thread ranges with T.ws / `if tx < c`, explicit mbarriers,
setmaxnreg) are built for cuda:sm_90a (--cuda-compiler=none), run on
the sim device with --save (racecheck and synccheck on), and every output
is recomputed here with NumPy from the saved inputs. Every program is also
built for the CPU target (whose branches with mbarrier waits run as fibers,
CppEmitterFibers.cpp), its outputs compared with NumPy, and the sim runs
verified against it; ws-range.py is also built for cuda:sm_80.

  ws-gemm.py         producer / consumer GEMM, T.alloc_barrier full/empty
                     rings, T.ws, dec/inc_max_nreg
  ws-gemm-legacy.py  the same with T.create_list_of_mbarrier, mbarrier
                     numbers, `if tx >= 128:` / `else:` in the K loop
  ws-reduce.py       a warp-specialised row sum: copy warps and reduce warps
  ws-range.py        tile operations of two thread ranges, named barriers

and two faults planted in ws-gemm.py's source must be caught: without the
consumer's wait on the full barrier the gemm reads what the producer is
still writing (racecheck, through the mbarriers' release/acquire order),
and without its arrival on the empty barrier the block deadlocks
(synccheck); the CPU target must report the second as a deadlock at the
producer's wait.

Usage: warp_specialized.py --bin BUILD/bin
       warp_specialized.py --check ws-gemm.py SAVED_RUN  (one saved run,
       e.g. of the GPU, against NumPy; tests/bench/CUDA/ws_explicit.sh)
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIT = os.path.join(ROOT, "tests", "lit", "Target", "CUDA")


def gemm_oracle(ins, outs):
    want = ins["A"].astype(np.float64) @ ins["B"].astype(np.float64)
    return [("C", outs["C"].astype(np.float64), want, 1e-2, 1e-2)]


def row_sum_oracle(ins, outs):
    want = ins["X"].astype(np.float64).sum(1) * 0.5
    return [("Y", outs["Y"].astype(np.float64), want, 1e-5, 1e-4)]


def split_oracle(ins, outs):
    return [("D", outs["D"].astype(np.float64), ins["A"].astype(np.float64) * 2, 0, 0),
            ("S", outs["S"].astype(np.float64), ins["B"].astype(np.float64).sum(1), 1e-5, 1e-4)]


# Faults planted in ws-gemm.py: (line replaced, what the sim must report).
PLANTED = [("T.barrier_wait(full[s], (ko // stages) % 2)", "racecheck"),
           ("T.barrier_arrive(empty[s])", "synccheck")]

# name, oracle, architectures, whether the CPU target builds it
PROGRAMS = [("ws-gemm.py", gemm_oracle, ["sm_90a"], True),
            ("ws-gemm-legacy.py", gemm_oracle, ["sm_90a"], True),
            ("ws-reduce.py", row_sum_oracle, ["sm_90a"], True),
            ("ws-range.py", split_oracle, ["sm_80", "sm_90a"], True)]


def compare(oracle, ins, outs):
    bad = []
    for what, got, want, rtol, atol in oracle(ins, outs):
        if got.shape != want.shape:
            bad.append(f"{what}: shape {got.shape}, want {want.shape}")
            continue
        off = np.abs(got - want) > atol + rtol * np.abs(want)
        off |= np.isnan(got)
        if off.any():
            i = np.flatnonzero(off.reshape(-1))
            bad.append(f"{what}: {i.size} of {got.size} elements differ, first at {i[:3]}: "
                       f"got {got.reshape(-1)[i[:3]]}, want {want.reshape(-1)[i[:3]]}")
    return bad


def load(d):
    return {f[:-4]: np.load(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".npy")}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin")
    parser.add_argument("--check", nargs=2, metavar=("PROGRAM", "SAVED_RUN"))
    args = parser.parse_args()
    if args.check:
        name, save = args.check
        oracle = {n: o for n, o, _, _ in PROGRAMS}[name]
        bad = compare(oracle, load(os.path.join(save, "inputs")), load(save))
        print(f"{name} against NumPy: " + ("PASS" if not bad else "FAIL\n  " + "\n  ".join(bad)))
        return 1 if bad else 0
    build = os.path.join(args.bin, "tlc-build")
    tlc_run = os.path.join(args.bin, "tlc-run")
    failures = 0

    def run(label, cmds):
        for cmd in cmds:
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode:
                print(f"{label}: FAIL: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
                return False
        return True

    with tempfile.TemporaryDirectory(prefix="tlc-sim-ws-") as tmp:
        for name, oracle, archs, on_cpu in PROGRAMS:
            path = os.path.join(LIT, name)
            cpu = None
            if on_cpu:
                cpu = os.path.join(tmp, name, "cpu")
                save = cpu + "-run"
                if not run(f"{name} cpu", [[build, path, "--target=cpu", "-o", cpu],
                                           [tlc_run, cpu, "--seed", "7", "--save", save]]):
                    failures += 1
                    continue
                bad = compare(oracle, load(os.path.join(save, "inputs")), load(save))
                print(f"{name} cpu against NumPy: " + ("PASS" if not bad else "FAIL\n  " + "\n  ".join(bad)))
                failures += bool(bad)
            for arch in archs:
                art = os.path.join(tmp, name, arch)
                save = os.path.join(tmp, name, arch + "-run")
                sim = [tlc_run, art, "--device", "sim", "--seed", "7", "--threads", "2", "--save", save]
                if cpu:
                    sim += ["--verify", "--reference", cpu]
                if not run(f"{name} {arch}", [[build, path, f"--target=cuda:{arch}", "--cuda-compiler=none", "-o", art], sim]):
                    failures += 1
                    continue
                bad = compare(oracle, load(os.path.join(save, "inputs")), load(save))
                what = "NumPy" + (" and the CPU target" if cpu else "")
                print(f"{name} {arch} on sim against {what}: " + ("PASS" if not bad else "FAIL\n  " + "\n  ".join(bad)))
                failures += bool(bad)
        source = open(os.path.join(LIT, "ws-gemm.py")).read()
        for line, checker in PLANTED:
            assert source.count(line) == 1, line
            path = os.path.join(tmp, "planted-%s.py" % checker)
            with open(path, "w") as f:
                f.write(source.replace(line, "pass  # planted: " + line))
            art = os.path.join(tmp, "planted-" + checker)
            if not run(f"planted {checker}", [[build, path, "--target=cuda:sm_90a", "--cuda-compiler=none", "-o", art]]):
                failures += 1
                continue
            p = subprocess.run([tlc_run, art, "--device", "sim", "--seed", "7", "--threads", "2"],
                               capture_output=True, text=True)
            caught = p.returncode != 0 and checker + ":" in p.stdout + p.stderr
            print(f"planted fault without `{line}`: " +
                  (f"PASS ({checker} caught it)" if caught else
                   f"FAIL (rc {p.returncode})\n{p.stdout}{p.stderr}"))
            failures += not caught
            if checker != "synccheck":
                continue
            # The CPU target: the producer waits for a free stage forever.
            art = os.path.join(tmp, "planted-cpu")
            if not run("planted cpu", [[build, path, "--target=cpu", "-o", art]]):
                failures += 1
                continue
            p = subprocess.run([tlc_run, art, "--seed", "7"], capture_output=True, text=True)
            caught = p.returncode != 0 and "deadlock: T.barrier_wait" in p.stdout + p.stderr
            print(f"planted fault without `{line}` on the CPU target: " +
                  ("PASS (deadlock reported)" if caught else
                   f"FAIL (rc {p.returncode})\n{p.stdout}{p.stderr}"))
            failures += not caught
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
