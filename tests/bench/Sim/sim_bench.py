#!/usr/bin/python3
"""The sim device's cost on representative kernels (a benchmark, not a test).

For each case the artifact is built once (tlc-build --target=cuda:ARCH
--cuda-compiler=none), then for each tlc-run given (name=PATH) and each
environment setting (TLC_SIM_INITCHECK, TLC_SIM_ORDERCHECK):

  compile  the CPU time (user + sys of tlc-run and its clang) of a run with
           an empty sim cache: NAME.cu compiled for the host, then run;
  run      the CPU time of a run with that cache warm (the simulation,
           plus loading), the minimum of --repeat runs.

CPU time, not wall time: the machines this runs on are shared and loaded.
Every run is also checked to succeed (exit status 0). Usage:

  sim_bench.py --build BUILD/bin/tlc-build --run cur=BUILD/bin/tlc-run
               [--run base=OLD/bin/tlc-run] [--env initcheck=off ...]
               [--only CASE] [--repeat N]
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

# (name, program, arch, -D build bindings, -D run bindings)
CASES = [
    ("gemm-sm80", "examples/gemm.py", "sm_80", {"M": 100, "N": 70, "K": 50}, {}),
    ("gemm-sm90a-tma", "examples/gemm.py", "sm_90a",
     {"M": 200, "N": 136, "K": 128}, {}),
    ("fa-fwd-sm80", "examples/flash_attention_fwd.py", "sm_80",
     {"batch": 2, "heads": 2, "seq_len": 100, "dim": 64}, {}),
    ("softmax-sm80", "examples/softmax.py", "sm_80", {"M": 100, "N": 70}, {}),
    ("elementwise-sm80", "examples/elementwise_add.py", "sm_80",
     {"M": 1000, "N": 1000}, {}),
    ("ws-gemm-sm90a", "tests/lit/Target/CUDA/ws-gemm.py", "sm_90a", {}, {}),
]

ENVS = {
    "initcheck=on": {},
    "initcheck=off": {"TLC_SIM_INITCHECK": "off"},
    "ordercheck=1": {"TLC_SIM_ORDERCHECK": "1"},
}


def cpu_of(cmd, env):
    """Runs \p cmd; returns (exit status, CPU seconds of it and its children,
    output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc.returncode, cpu, proc.stdout + proc.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="tlc-build")
    ap.add_argument("--run", action="append", required=True,
                    help="NAME=PATH of a tlc-run to measure")
    ap.add_argument("--env", action="append", default=None,
                    help="settings to measure: " + ", ".join(ENVS))
    ap.add_argument("--only", action="append", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    envs = args.env or ["initcheck=on", "initcheck=off"]
    runs = [r.split("=", 1) for r in args.run]
    work = tempfile.mkdtemp(prefix="sim-bench-")
    try:
        print(f"{'case':18} {'tlc-run':8} {'setting':14} {'compile s':>10} "
              f"{'run s':>8}")
        for name, prog, arch, bdefs, rdefs in CASES:
            if args.only and name not in args.only:
                continue
            art = os.path.join(work, name)
            cmd = [args.build, os.path.join(ROOT, prog),
                   f"--target=cuda:{arch}", "--cuda-compiler=none", "-o", art]
            cmd += [f"-D{k}={v}" for k, v in bdefs.items()]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"{name}: not built: {proc.stderr.strip()[:200]}")
                continue
            for rname, rpath in runs:
                for e in envs:
                    env = dict(os.environ)
                    env.pop("TLC_SIM_INITCHECK", None)
                    env.pop("TLC_SIM_ORDERCHECK", None)
                    env.update(ENVS[e])
                    cache = os.path.join(work, "cache", rname, e, name)
                    env["TLC_CACHE_DIR"] = cache
                    run = [rpath, art, "--device", "sim", "--threads", "1",
                           "--seed", "1"]
                    run += [f"-D{k}={v}" for k, v in rdefs.items()]
                    rc, compile_s, out = cpu_of(run, env)
                    if rc != 0:
                        print(f"{name:18} {rname:8} {e:14} failed: "
                              f"{out.strip()[-300:]}")
                        continue
                    best = min(cpu_of(run, env)[1] for _ in range(args.repeat))
                    print(f"{name:18} {rname:8} {e:14} {compile_s:10.2f} "
                          f"{best:8.2f}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
