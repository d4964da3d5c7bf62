#!/usr/bin/python3
"""End-to-end CPU-target tests of the programs in examples/.

For each example, at small sizes that are NOT multiples of the tile sizes:

  1. tlc-build examples/NAME.py --target=cpu -o ART -D ...   (C++ + .so + NAME.json)
  2. tlc-run ART --kernel K --seed S --save OUT [-D sym=...]   (random inputs, run)
  3. tests/scripts/ref_NAME.py --inputs OUT/inputs --out REF  (NumPy reference)
  4. compare every REF/X.npy with OUT/X.npy with a dtype-aware tolerance.

The NumPy references are written independently of tlc; the CPU target is
never compared with itself. Usage:

  run_examples.py --bin BUILD/bin [--only NAME]... [--keep DIR] [--list]

Exit status 0 when every selected example matches its reference.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: tlc-build -D bindings (sizes chosen to be ragged w.r.t. the tiles),
# tlc-run -D bindings (run-time symbols), reference -D parameters, and an
# optional (rtol, atol) that replaces the dtype's tolerance.
CASES = {
    "elementwise_add": {"build": {"M": 100, "N": 70}},
    "softmax": {"build": {"M": 37, "N": 300}},
    # Probabilities near 1/N: an absolute tolerance of 1e-2 would accept a
    # dropped column, so this case uses (rtol, atol) = (1e-2, 1e-4).
    "softmax_rows": {"build": {"M": 37, "N": 300, "block_M": 2, "threads": 64}, "tol": (1e-2, 1e-4)},
    "rms_norm": {"build": {"M": 37, "N": 100}},
    "layer_norm": {"build": {"m": 37, "n": 100}},
    "gemm": {"build": {"M": 100, "N": 70, "K": 50}},
    "gemm_eager": {"build": {"M": 100, "N": 70, "K": 50}},
    "gemm_splitk": {"build": {"M": 100, "N": 70, "K": 150}},
    "gemm_dynamic": {"build": {}, "run": {"m": 100, "n": 70, "k": 50}},
    "flash_attention_fwd": {"build": {"batch": 2, "heads": 2, "seq_len": 100, "dim": 64}},
    "flash_attention_causal": {"build": {"batch": 2, "seq_len": 100, "heads": 2, "dim": 64}},
    "gqa_decode": {"build": {"batch": 2, "heads": 8, "groups": 2, "seqlen_kv": 150, "dim": 64}},
    "fp8_gemm": {"build": {"M": 100, "N": 70, "K": 50}},
    "dequant_gemm": {"build": {"m": 100, "n": 70, "k": 160}},
    "cumsum": {"build": {"batch": 2, "seq_len": 100, "heads": 40}},
    "per_token_quant": {"build": {"M": 37, "N": 300}},
    "transpose": {"build": {"m": 100, "n": 70}},
}

# (rtol, atol) by output dtype. f16/bf16: a few ulps of the stored value;
# fp8: one ulp (values on either side of a rounding boundary may round
# differently); f32: accumulation-order differences against float64 NumPy.
TOLERANCES = {
    "float16": (1e-2, 1e-2),
    "bfloat16": (2e-2, 2e-2),
    "float32": (1e-3, 1e-3),
    "float64": (1e-9, 1e-9),
    "float8_e4m3fn": (0.13, 0.02),
    "float8_e5m2": (0.26, 0.02),
}


def run(cmd, log):
    log.append("$ " + " ".join(cmd))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    log.append(proc.stdout + proc.stderr)
    return proc.returncode


def compare(name, dtype, out, ref, tol=None):
    """Returns an error message, or None when `out` matches `ref`; `tol`
    overrides the (rtol, atol) of the dtype."""
    if out.shape != ref.shape:
        return f"{name}: shape {out.shape} != reference {ref.shape}"
    rtol, atol = tol or TOLERANCES.get(dtype, (0, 0))
    o = out.astype(np.float64)
    r = ref.astype(np.float64)
    nan_out = np.isnan(o) & ~np.isnan(r)
    if nan_out.any():
        return f"{name}: {int(nan_out.sum())} NaN elements (unwritten outputs?)"
    bad = ~np.isclose(o, r, rtol=rtol, atol=atol, equal_nan=True)
    denom = np.linalg.norm(r[np.isfinite(r)])
    rel = np.linalg.norm((o - r)[np.isfinite(r)]) / (denom if denom > 0 else 1.0)
    if bad.any():
        idx = np.argwhere(bad)[0]
        return (f"{name}: {int(bad.sum())}/{bad.size} elements out of tolerance "
                f"(rtol={rtol}, atol={atol}, rel_err={rel:.3e}); first at "
                f"{tuple(int(i) for i in idx)}: got {o[tuple(idx)]}, expected {r[tuple(idx)]}")
    return None


def run_case(name, case, bindir, workdir):
    log = []
    art = os.path.join(workdir, "artifacts")
    out = os.path.join(workdir, "run")
    ref = os.path.join(workdir, "ref")
    build = [os.path.join(bindir, "tlc-build"), os.path.join(ROOT, "examples", name + ".py"),
             "--target=cpu", "-o", art]
    build += [f"-D{k}={v}" for k, v in case.get("build", {}).items()]
    if run(build, log) != 0:
        return False, log + ["FAIL: tlc-build"]
    manifests = sorted(f for f in os.listdir(art) if f.endswith(".json"))
    if not manifests:
        return False, log + ["FAIL: tlc-build wrote no manifest"]
    with open(os.path.join(art, manifests[0])) as f:
        manifest = json.load(f)
    runcmd = [os.path.join(bindir, "tlc-run"), art, "--kernel", manifest["name"], "--seed", "7",
              "--save", out]
    runcmd += [f"-D{k}={v}" for k, v in case.get("run", {}).items()]
    if run(runcmd, log) != 0:
        return False, log + ["FAIL: tlc-run"]
    refcmd = ["/usr/bin/python3", os.path.join(ROOT, "tests", "scripts", f"ref_{name}.py"),
              "--inputs", os.path.join(out, "inputs"), "--out", ref]
    refcmd += [f"-D{k}={v}" for k, v in case.get("ref", {}).items()]
    if run(refcmd, log) != 0:
        return False, log + ["FAIL: reference script"]
    dtypes = {p["name"]: p["dtype"] for p in manifest["params"]}
    errors = []
    ref_files = sorted(f for f in os.listdir(ref) if f.endswith(".npy"))
    if not ref_files:
        errors.append("the reference wrote no output")
    for f in ref_files:
        pname = f[:-4]
        got_path = os.path.join(out, f)
        if not os.path.exists(got_path):
            errors.append(f"{pname}: tlc-run saved no parameter of that name "
                          f"(kernel parameters: {', '.join(dtypes)})")
            continue
        err = compare(pname, dtypes.get(pname, ""), np.load(got_path), np.load(os.path.join(ref, f)),
                      case.get("tol"))
        if err:
            errors.append(err)
        else:
            log.append(f"{pname}: matches the NumPy reference ({dtypes.get(pname)})")
    if errors:
        return False, log + ["FAIL: " + e for e in errors]
    return True, log


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="directory with tlc-build and tlc-run")
    parser.add_argument("--only", action="append", default=[], help="run only this example")
    parser.add_argument("--keep", help="keep the work files under this directory")
    parser.add_argument("--list", action="store_true", help="list the examples and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the log of passing cases")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    names = args.only or list(CASES)
    for n in names:
        if n not in CASES:
            sys.exit(f"error: unknown example '{n}' (see --list)")
    failed = []
    for name in names:
        workdir = os.path.join(args.keep, name) if args.keep else tempfile.mkdtemp(prefix=f"tlc-cpu-{name}-")
        if args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
            os.makedirs(workdir)
        ok, log = run_case(name, CASES[name], args.bin, workdir)
        print(f"{'PASS' if ok else 'FAIL'}: {name}")
        if not ok or args.verbose:
            print("\n".join("    " + line for entry in log for line in entry.rstrip().splitlines()))
        if not ok:
            failed.append(name)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"{len(names) - len(failed)}/{len(names)} examples match their NumPy references")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
