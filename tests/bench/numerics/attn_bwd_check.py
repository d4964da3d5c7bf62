"""The CPU target's flash-attention backward on corpus_inputs.py's attn_bwd
inputs against float64 NumPy gradients (softmax attention, non-causal):
checks that the generator's lse / Delta are the ones the kernel expects (a
kernel run on them computes the true dQ, dK, dV).

  attn_bwd_check.py TLC_RUN CPU_ARTIFACT_DIR CORPUS_NAME

CPU_ARTIFACT_DIR: tlc-build --target=cpu of the corpus program at a reduced
size (e.g. example_gqa_bwd -Dbatch=1 -Dh=16 -Dn_ctx=256). Prints the
relative error of each gradient (float16 outputs: rounding only); exit 1
when one exceeds 1e-2.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_inputs as ci  # noqa: E402


def main(argv):
    tlc_run, art, name = argv[:3]
    p = ci.manifests(art)
    files, _ = ci.GENERATORS[name](p, np.random.default_rng(0), 1.0)
    (kernel, inputs), = files.items()
    layout = "bhsd" if "bhsd" in name else "bshd"
    tmp = tempfile.mkdtemp(prefix="attn-bwd-")
    for n, a in inputs.items():
        np.save(os.path.join(tmp, n + ".npy"), a)
    r = subprocess.run([tlc_run, "--device", "cpu", "--kernel", kernel, "--inputs",
                        tmp, "--save", tmp + "/out", art], capture_output=True, text=True)
    if r.returncode:
        sys.exit(r.stdout + r.stderr)

    def bshd(x):
        return x if layout == "bshd" else x.transpose(0, 2, 1, 3)

    q, k, v, do = (bshd(inputs[n].astype(np.float64)) for n in ("Q", "K", "V", "dO"))
    b, s, h, d = q.shape
    groups = h // k.shape[2]
    dq, dk, dv = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
    for bi in range(b):
        for hi in range(h):
            g = hi // groups
            qs, ks, vs, dos = q[bi, :, hi], k[bi, :, g], v[bi, :, g], do[bi, :, hi]
            t = qs @ ks.T / np.sqrt(d)
            P = np.exp(t - t.max(axis=1, keepdims=True))
            P /= P.sum(axis=1, keepdims=True)
            o = P @ vs
            dP = dos @ vs.T
            dS = P * (dP - (o * dos).sum(axis=1, keepdims=True))
            dq[bi, :, hi] = dS @ ks / np.sqrt(d)
            dk[bi, :, g] += dS.T @ qs / np.sqrt(d)
            dv[bi, :, g] += P.T @ dos
    bad = 0
    for n, ref in (("dQ", dq), ("dK", dk), ("dV", dv)):
        got = bshd(np.load(f"{tmp}/out/{n}.npy").astype(np.float64))
        err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
        print(f"{n}: relative error {err:.2e} against float64 NumPy")
        bad += not err < 1e-2
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
