#!/usr/bin/python3
"""The sim device on every example and conformance program.

For each program, at the small ragged sizes of tests/cpu/run_examples.py
(examples) or the program's own sizes (conformance):

  1. tlc-build FILE --target=cpu -o REF                     (the reference)
  2. tlc-build FILE --target=cuda:ARCH -o ART   for ARCH in sm_80, sm_90a
     (--cuda-compiler=none: the sim device needs NAME.cu and NAME.json,
     not a cubin); with --hip, --target=hip:gfx90a and
     hip:gfx942 instead (real code objects from clang's AMDGPU back end,
     and NAME.hip, which the sim device runs with wavefronts of 64)
  3. tlc-run ART --device sim --verify --reference REF      (every kernel)

--breadth runs the programs of issue 13's breadth items (gemm dtypes,
reductions that keep their dimension, scalar fragment reads), kept as lit
tests under tests/lit/Target/Cpp, at the sizes and -D bindings of BREADTH.

A program passes when every kernel runs on the simulator with no racecheck,
memcheck or synccheck finding and matches the CPU target within the dtype
tolerances. Programs that the CUDA or CPU target cannot build are listed as
not built (with the first error line) and do not fail the run; --strict
makes them fail. Usage:

  run_sim.py --bin BUILD/bin (--examples | --conformance | --breadth)
             [--only NAME]...
             [--arch sm_80 | --arch hip:gfx942 | --hip] [--keep DIR] [-v]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "cpu"))
from run_examples import CASES  # noqa: E402  (the ragged sizes)


# Examples simulated at sizes of their own: layer_norm at n = 128 (n = 100
# does not build for CUDA yet), the others smaller than the CPU test's.
SIM_SIZES = {
    "dequant_gemm": {"m": 100, "n": 200, "k": 256},
    "layer_norm": {"m": 37, "n": 128},  # n=100 does not build for CUDA
    "transpose": {"m": 100, "n": 70},
}

# Conformance programs whose own sizes are GPU-sized (too large for the
# simulator's time limit) run at small ragged sizes instead: -D bindings of
# their factory parameters, T.const names or argparse options, or values of
# module-level constants (CONFORMANCE_CONSTANTS; the program is copied with
# them replaced). Rows stay multiples of 16 bytes (TMA on sm_90a).
CONFORMANCE_SIZES = {
    "a-lazy-factory-gemm": {"m": 200, "n": 136, "k": 128},
    "a-macro-layernorm": {"M": 100, "N": 1024},
    "b-persistent-gemm": {"M": 200, "N": 264, "K": 128},
    "b-tile-scheduler": {"M": 200, "N": 136, "K": 128},
    "b-ws-consumer-thread-bounds": {"M": 200, "N": 136, "K": 128},
    "b-ws-producer-consumer": {"M": 200, "N": 136, "K": 128},
    "c-alloc-global-splitk": {"M": 200, "N": 136, "K": 256},
    "d-if-then-while": {"M": 1000, "N": 256},
    "a-eager-const-empty": {"M": 100, "N": 600},
    "d-pipelined-gemv": {"N": 1000, "K": 1024},
    "e-im2col-conv": {"n": 2, "c": 16, "h": 9, "w": 7, "f": 40, "s": 2},
    "e-annotate-layouts": {"M": 200, "N": 136, "K": 128, "batch": 1, "heads": 2,
                           "num_split": 2, "dim": 64},
    "f-atomic-splitk": {"M": 100, "N": 136, "K": 256},
    "f-flash-attention-autotune": {"batch": 1, "heads": 1, "seq_len": 200, "dim": 128},
    "f-softmax-autotune": {"M": 100},
    "g-dequant-gemm-bitops": {"M": 200, "N": 256, "K": 256},
    "g-packed-ramp": {"N": 1000},
    "h-annotations": {"M": 100, "N": 300},
    "i-cp-async-groups": {"m": 200, "n": 136, "k": 200},
    "i-named-barriers": {"M": 1000},
    "i-wgmma-fence": {"M": 200, "N": 136, "K": 200},
    "k-custom-layouts": {"M": 200, "N": 136},
    "k-layout-builders": {"M": 200, "N": 136, "K": 128},
    "l-fp8-gemm-quant": {"M": 200, "N": 136, "K": 256},
    "shape-autotuner-api": {"M": 200, "N": 136, "K": 128},
    "shape-device-facts": {"N": 100000},
    "shape-nested-factory": {"M": 100},
}
CONFORMANCE_CONSTANTS = {
    "a-module-prim-func": {"ROWS": 192, "COLS": 128},
}
# Programs whose sizes are arguments of a call no -D reaches (a plain
# factory called from main()): the call's text is replaced in the copy.
CONFORMANCE_CALLS = {
    "b-cluster-kernel": ("cluster_matmul(4096, 4096, 2048)",
                         "cluster_matmul(200, 200, 128)"),
    "i-cluster-barrier": ("cluster_colsum(8192, 256, cluster=4)",
                          "cluster_colsum(512, 64, cluster=4)"),
    "e-ptr-table-grouped": ("grouped_matmul([64, 128, 256, 96], 4096, 4096)",
                            "grouped_matmul([64, 128, 256, 96], 128, 256)"),
}

# Inputs the program's contract needs, where tlc-run's random ones break it
# (written as NAME.npy and given to tlc-run with --inputs; the CPU reference
# runs on the same): parameter -> function of a NumPy Generator returning
# the array at the -D sizes of run_bindings (symbols 100).
def _finite_half_bytes(rng, n):
    """n bytes holding n / 2 finite float16 values."""
    return rng.standard_normal(n // 2).astype("float16").view("uint8")


CONFORMANCE_INPUTS = {
    # Row ids are T.device_assert'ed to lie in [0, V): V = 32000, num = 100.
    "j-device-assert": {"Index": lambda rng: rng.integers(0, 32000, 100, dtype="int32")},
    # T.view reads the bytes as float16 rows of N = 4096, D = 128: random
    # bytes include NaN and Inf patterns, which make the CPU reference NaN.
    "e-reshape-view": {"Bytes": lambda rng: _finite_half_bytes(rng, 4096 * 128 * 2)},
    # dS = S * dP is rounded to float16 before the dQ gemm: with integer
    # inputs S and dP are exact on both sides, so that rounding is the same
    # (random normals round S's last bits differently on the GPU and CPU).
    "f-attn-bwd-shared-k-both-majors": {
        name: (lambda rng: rng.integers(-1, 2, (256, 64)).astype("float16"))
        for name in ("Q", "K", "dO", "V")},
}

# Further instances of examples, NAME@VARIANT: the attention examples with
# two warpgroups (256 threads, one m64 wgmma atom each) at D = 128, whose
# P.V takes P from registers with K = 128 on sm_90a.
EXTRA_INSTANCES = {
    "flash_attention_fwd@t256": {"batch": 1, "heads": 1, "seq_len": 200, "dim": 128,
                                 "block_M": 128, "block_N": 128, "threads": 256,
                                 "num_stages": 2},
    "flash_attention_causal@t256": {"batch": 1, "seq_len": 200, "heads": 1, "dim": 128,
                                    "block_M": 128, "block_N": 128, "threads": 256,
                                    "num_stages": 2},
}
# The breadth programs: (name, lit file, -D bindings of the build).
_CPP = os.path.join(ROOT, "tests", "lit", "Target", "Cpp")
_CUDA_LIT = os.path.join(ROOT, "tests", "lit", "Target", "CUDA")
BREADTH = [
    ("gemm-tf32-nt", "gemm-tf32.py", {}),
    ("gemm-tf32-nn", "gemm-tf32.py", {"tA": "False", "tB": "False"}),
    ("gemm-tf32-tn", "gemm-tf32.py", {"tA": "True", "tB": "False"}),
    ("gemm-tf32-tt", "gemm-tf32.py", {"tA": "True", "tB": "True"}),
    ("gemm-f64-nn", "gemm-dtypes.py", {"in_dtype": "float64", "accum_dtype": "float64", "out_dtype": "float64", "tA": "False", "tB": "False"}),
    ("gemm-f64-tt", "gemm-dtypes.py", {"in_dtype": "float64", "accum_dtype": "float64", "out_dtype": "float64", "tA": "True", "tB": "True"}),
    ("gemm-int8", "gemm-dtypes.py", {"in_dtype": "int8", "accum_dtype": "int32", "out_dtype": "int32"}),
    ("gemm-uint8", "gemm-dtypes.py", {"in_dtype": "uint8", "accum_dtype": "int32", "out_dtype": "int32"}),
    ("gemm-f16-f16acc", "gemm-dtypes.py", {"in_dtype": "float16", "accum_dtype": "float16", "out_dtype": "float16"}),
    ("gemm-bf16-f32acc-bf16out", "gemm-dtypes.py", {"in_dtype": "bfloat16", "accum_dtype": "float32", "out_dtype": "bfloat16"}),
    ("reduce-keepdim", "reduce-keepdim.py", {}),
    ("scalar-fragments", "scalar-fragments.py", {}),
    ("fragment-rows", "fragment-rows.py", {}),
    ("fragment-serial-read", "fragment-serial-read.py", {}),
    ("element-e5m2", "element-types.py", {}),
    ("element-f64", "element-types.py", {"in_dtype": "float64", "out_dtype": "float64"}),
    # Copies, views and fragment accesses (tests/lit/Target/CUDA).
    ("fragment-partial-copy", os.path.join(_CUDA_LIT, "fragment-partial-copy.py"), {}),
    ("fragment-cumsum", os.path.join(_CUDA_LIT, "fragment-cumsum.py"), {}),
    ("fragment-composed-index", os.path.join(_CUDA_LIT, "fragment-composed-index.py"), {}),
    ("fragment-reshape", os.path.join(_CUDA_LIT, "fragment-reshape.py"), {}),
    ("fragment-annotated", os.path.join(_CUDA_LIT, "fragment-annotated.py"), {}),
    # Run-time copy extents, pointer parameters, safe values (run -D last).
    ("varlen-copy", "varlen-copy.py", {}, {"total": 300, "N": 100}),
    ("pointer-tensor", "pointer-tensor.py", {}, {"m": 100, "n": 72, "k": 40}),
    ("pointer-table", "pointer-table.py", {"N": 150}),
    ("safe-value", "safe-value.py", {}),
]

# Programs the sim device shows to be wrong on the GPU too: they must fail
# on sim (an unexpected pass fails the run, so the entry gets removed).
KNOWN_FAILURES = {
    # Not bugs of the generated code:
    "f-gemm-transpose-policy": "rounding, not a bug: the f16 intermediate S_cast "
                               "rounds to the other neighbour where the f32 sums "
                               "differ in their last bits (33 of 262,144 outputs, "
                               "at most 4 f16 ulps of D; rel_err 4.8e-5)",
}


def run(cmd, log):
    log.append("$ " + " ".join(cmd))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    log.append((proc.stdout + proc.stderr).rstrip())
    return proc.returncode, proc.stdout + proc.stderr


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    return text.strip().splitlines()[-1] if text.strip() else "?"


def run_bindings(art, run_defs):
    """-D bindings for tlc-run: \p run_defs, then values for the remaining
    scalar parameters (0.5, or 3 for integers) and symbols (100, ragged)."""
    defs = dict(run_defs)
    for f in sorted(os.listdir(art)):
        if not f.endswith(".json"):
            continue
        with open(os.path.join(art, f)) as m:
            manifest = json.load(m)
        for p in manifest.get("params", []):
            if p.get("kind") != "tensor" and p["name"] not in defs:
                defs[p["name"]] = 0.5 if "float" in p.get("dtype", "") else 3
        for s in manifest.get("symbols", []):
            defs.setdefault(s["name"], 100)
    return [f"-D{k}={v}" for k, v in defs.items()]


def write_inputs(makers, workdir):
    """Writes \p makers' arrays as workdir/inputs/NAME.npy; returns the
    tlc-run options that read them (none without makers)."""
    if not makers:
        return []
    import numpy as np
    rng = np.random.default_rng(7)
    inputs = os.path.join(workdir, "inputs")
    os.makedirs(inputs, exist_ok=True)
    for name, make in makers.items():
        np.save(os.path.join(inputs, name + ".npy"), make(rng))
    return ["--inputs", inputs]


def run_program(path, build_defs, run_defs, archs, bindir, workdir, threads,
                inputs=None):
    """Returns (status, log): status is 'pass ...', 'fail' or 'not built: ...'.
    Without a CPU reference the kernels still run on sim (checked by the
    simulator, not compared). \p inputs: CONFORMANCE_INPUTS' makers."""
    log = []
    input_opts = write_inputs(inputs, workdir)
    defs = [f"-D{k}={v}" for k, v in build_defs.items()]
    build = os.path.join(bindir, "tlc-build")
    ref = os.path.join(workdir, "cpu")
    rc, out = run([build, path, "--target=cpu", "-o", ref] + defs, log)
    no_ref = None if rc == 0 else "cpu: " + first_error(out)
    skipped, ran, same, seen_sources = [], 0, [], []
    for arch in archs:
        art = os.path.join(workdir, arch)
        target = arch if ":" in arch else f"cuda:{arch}"
        rc, out = run([build, path, f"--target={target}", "--cuda-compiler=none",
                       "-o", art] + defs, log)
        if rc != 0:
            skipped.append(f"{target}: " + first_error(out))
            continue
        if not os.path.isdir(art):
            # Built with nothing to write: a function with no T.Kernel
            # (raw TIR) makes no device code, only a warning.
            skipped.append(f"{target}: no kernel to run (" +
                           (first_error(out) or "no artifact") + ")")
            continue
        ran += 1
        sources = {f: open(os.path.join(art, f)).read()
                   for f in sorted(os.listdir(art)) if f.endswith((".cu", ".hip"))}
        if sources in seen_sources:
            same.append(arch)
            continue
        seen_sources.append(sources)
        cmd = [os.path.join(bindir, "tlc-run"), art, "--device", "sim", "--seed", "7",
               "--threads", str(threads)] + input_opts
        if not no_ref:
            cmd += ["--verify", "--reference", ref]
        cmd += run_bindings(art, run_defs)
        rc, out = run(cmd, log)
        if rc != 0 and "too large to simulate" in out:
            return "too large: " + next(l.strip() for l in out.splitlines()
                                        if "too large to simulate" in l), log
        if rc != 0:
            return "fail", log
    if not ran:
        return "not built: " + skipped[0], log
    notes = []
    if no_ref:
        notes.append(f"checked only, no CPU reference: {no_ref}")
    if skipped:
        notes.append(f"not built for {'; '.join(skipped)}")
    if same:
        notes.append(f"{', '.join(same)}: the same generated source, run once")
    return "pass" + (f" ({'; '.join(notes)})" if notes else ""), log


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--examples", action="store_true")
    group.add_argument("--conformance", action="store_true")
    group.add_argument("--breadth", action="store_true")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--arch", action="append", default=[],
                        help="sm_80, sm_90a, ... or a whole target (hip:gfx942)")
    parser.add_argument("--hip", action="store_true",
                        help="build for hip:gfx90a and hip:gfx942")
    parser.add_argument("--keep")
    parser.add_argument("--strict", action="store_true",
                        help="programs that do not build fail the run")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    archs = args.arch or (["hip:gfx90a", "hip:gfx942"] if args.hip
                          else ["sm_80", "sm_90a"])
    programs = []
    if args.examples:
        for name, case in CASES.items():
            programs.append((name, os.path.join(ROOT, "examples", name + ".py"),
                             SIM_SIZES.get(name, case.get("build", {})),
                             case.get("run", {})))
        for name, defs in EXTRA_INSTANCES.items():
            programs.append((name, os.path.join(ROOT, "examples",
                                                name.split("@")[0] + ".py"), defs, {}))
    elif args.breadth:
        for name, f, defs, *run_defs in BREADTH:
            programs.append((name, os.path.join(_CPP, f), defs,
                             run_defs[0] if run_defs else {}))
    else:
        conf = os.path.join(ROOT, "tests", "lit", "Conformance")
        for f in sorted(os.listdir(conf)):
            if f.endswith(".py"):
                programs.append((f[:-3], os.path.join(conf, f),
                                 CONFORMANCE_SIZES.get(f[:-3], {}), {}))
    if args.only:
        programs = [p for p in programs
                    if p[0] in args.only or p[0].split("@")[0] in args.only]
    start = time.time()
    counts = {"pass": 0, "fail": 0, "not built": 0, "xfail": 0, "too large": 0}
    failed = []
    for name, path, build_defs, run_defs in programs:
        workdir = (os.path.join(args.keep, name) if args.keep
                   else tempfile.mkdtemp(prefix=f"tlc-sim-{name.replace('@', '-')}-"))
        shutil.rmtree(workdir, ignore_errors=True)
        os.makedirs(workdir)
        t0 = time.time()
        if name in CONFORMANCE_CONSTANTS or name in CONFORMANCE_CALLS:
            text = open(path).read()
            for const, value in CONFORMANCE_CONSTANTS.get(name, {}).items():
                text, n = re.subn(rf"^{const} = \d+$", f"{const} = {value}", text,
                                  count=1, flags=re.M)
                assert n == 1, f"{name}: no module constant {const}"
            if name in CONFORMANCE_CALLS:
                call, smaller = CONFORMANCE_CALLS[name]
                assert call in text, f"{name}: no call {call}"
                text = text.replace(call, smaller)
            path = os.path.join(workdir, os.path.basename(path))
            with open(path, "w") as f:
                f.write(text)
        status, log = run_program(path, build_defs, run_defs, archs, args.bin, workdir,
                                  args.threads, CONFORMANCE_INPUTS.get(name)
                                  if args.conformance else None)
        kind = ("not built" if status.startswith("not built") else
                "too large" if status.startswith("too large") else status.split()[0])
        if name in KNOWN_FAILURES:
            if kind == "fail":
                kind, status = "xfail", "xfail: " + KNOWN_FAILURES[name]
            elif kind == "pass":
                kind, status = "fail", "xpass: passes now; remove it from KNOWN_FAILURES"
        counts[kind] += 1
        label = (kind.upper() + status[len(kind):]) if kind in ("pass", "fail") else status
        print(f"{name}: {label} ({time.time() - t0:.1f} s)", flush=True)
        if kind == "fail" or args.verbose:
            print("\n".join("    " + line for entry in log for line in entry.splitlines()))
        if kind == "fail" or (kind in ("not built", "too large") and args.strict):
            failed.append(name)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['xfail']} known "
          f"failures, {counts['not built']} not built for {'/'.join(archs)}, "
          f"{counts['too large']} too large to simulate "
          f"({time.time() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
