"""Runs fp8-fnuz.py's kernels and checks them: the CPU target against a
NumPy model of the FNUZ formats written here (every finite encoding
enumerated: nearest, ties to the even encoding, saturation to the largest
finite value, NaN to 0x80, -0 and underflow to +0), and another device's
run (sim) against the CPU target's bytes. Inputs: normal values at several
scales plus the edges (zeros, the largest finite value and the ties just
above it, halfway points between subnormals, infinities, NaN).

Usage: fnuz_check.py TLC_RUN CPU_DIR WORK [DEVICE_DIR tlc-run options...]
"""

import glob
import json
import os
import subprocess
import sys

import numpy as np

FORMATS = {"float8_e4m3fnuz": (3, 8), "float8_e5m2fnuz": (2, 16)}


def table(man, bias):
    """Value of each encoding 0..255 (NaN for 0x80)."""
    vals = np.zeros(256)
    for b in range(256):
        e, m = (b & 0x7F) >> man, b & ((1 << man) - 1)
        v = m * 2.0 ** (1 - bias - man) if e == 0 else (1 + m / 2 ** man) * 2.0 ** (e - bias)
        vals[b] = -v if b & 0x80 else v
    vals[0x80] = np.nan
    return vals


def model(x, man, bias):
    vals = table(man, bias)
    pos = vals[:128]  # 0x00 .. 0x7f, increasing
    out = np.zeros(x.shape, np.uint8)
    for idx, v in np.ndenumerate(x.astype(np.float64)):
        if np.isnan(v):
            out[idx] = 0x80
            continue
        a = min(abs(v), np.inf)
        if a >= pos[-1]:
            code = 0x7F
        else:
            hi = int(np.searchsorted(pos, a))
            lo = hi - 1 if pos[hi] != a else hi
            if lo == hi:
                code = hi
            else:
                dl, dh = a - pos[lo], pos[hi] - a
                code = lo if dl < dh else hi if dh < dl else (lo if lo % 2 == 0 else hi)
        out[idx] = 0 if code == 0 else (code | (0x80 if v < 0 else 0))
    return out


def inputs(shape, rng, man, bias):
    x = rng.standard_normal(shape) * rng.choice([1e-3, 0.1, 1.0, 30.0, 300.0], size=shape)
    vals = table(man, bias)
    edges = [0.0, -0.0, vals[0x7F], vals[0x7F] * 1.03, np.inf, -np.inf, np.nan,
             vals[1] / 2, vals[1] * 1.5, vals[1] * 2.5, -vals[1] / 3, 1e30, -1e30]
    flat = x.reshape(-1)
    flat[:len(edges)] = edges
    return flat.reshape(shape).astype(np.float32)


SCALES = {"fnuz_cast": 1.0, "fnuz_cast_1": 0.125, "fnuz_cast_2": 1000.0,
          "fnuz_cast_3": 1e-4}


def run(tlc_run, meta, inp, out, extra):
    """Q (decoded to float32 by tlc-run) and R of one run."""
    subprocess.run([tlc_run, meta, "--inputs", inp, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)
    return np.load(os.path.join(out, "Q.npy")), np.load(os.path.join(out, "R.npy"))


def differ(a, b):
    return int(np.count_nonzero(~((a == b) | (np.isnan(a) & np.isnan(b)))))


def main():
    tlc_run, cpu, work = sys.argv[1:4]
    dev = sys.argv[4] if len(sys.argv) > 4 else None
    extra = sys.argv[5:]
    rng = np.random.default_rng(3)
    for meta_path in sorted(glob.glob(os.path.join(cpu, "*.json"))):
        meta = json.load(open(meta_path))
        params = {p["name"]: p for p in meta["params"]}
        man, bias = FORMATS[params["Q"]["dtype"]]
        name = meta["name"]
        inp = os.path.join(work, name, "in")
        os.makedirs(inp, exist_ok=True)
        x = inputs(params["X"]["shape"], rng, man, bias)
        np.save(os.path.join(inp, "X.npy"), x)
        q, r = run(tlc_run, meta_path, inp, os.path.join(work, name, "cpu"), [])
        if dev is None:
            # The kernel rounds x * scale in float32, as the model does.
            scaled = (x * np.float32(SCALES[name])).astype(np.float32)
            want = table(man, bias)[model(scaled, man, bias)].astype(np.float32)
            print("%s: CPU vs NumPy: %d of %d values differ (Q), %d (R)" %
                  (name, differ(q, want), want.size, differ(r, want)))
        else:
            qd, rd = run(tlc_run, os.path.join(dev, name + ".json"), inp,
                         os.path.join(work, name, "dev"), extra)
            print("%s: device vs CPU: %d of %d values differ (Q), %d (R)" %
                  (name, differ(qd, q), q.size, differ(rd, r)))


main()
