"""Runs the kernels of rng-philox.py and checks every output against a
Philox4x32-10 generator written here in NumPy from the algorithm's
definition (Salmon et al., SC 2011) and curand's documented state layout:
the 64-bit seed is the key, the subsequence the upper 64 bits of the
128-bit counter, the offset skips values (four per counter step). The NumPy
generator is first checked against Random123's published known-answer
vectors.

Usage: rng_philox_ref.py TLC_RUN ARTIFACTS WORKDIR [tlc-run options...]
"""

import os
import subprocess
import sys

import numpy as np

M0, M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK = 0xFFFFFFFF

# Random123 kat_vectors: counter (4 words), key (2 words) -> output.
KAT = [
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([MASK] * 4, [MASK] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
]


def philox(ctr, key):
    """Philox4x32-10 of counters ctr (n x 4 uint64 holding 32-bit words)
    under keys key (n x 2)."""
    c = ctr.astype(np.uint64).copy()
    k0 = key[:, 0].astype(np.uint64)
    k1 = key[:, 1].astype(np.uint64)
    m = np.uint64(MASK)
    for r in range(10):
        if r:
            k0 = (k0 + np.uint64(W0)) & m
            k1 = (k1 + np.uint64(W1)) & m
        p0 = M0 * c[:, 0]
        p1 = M1 * c[:, 2]
        c = np.stack([(p1 >> np.uint64(32)) ^ c[:, 1] ^ k0, p1 & m,
                      (p0 >> np.uint64(32)) ^ c[:, 3] ^ k1, p0 & m], 1)
    return c


def stream(seed, seq, off, n):
    """The first n uint32 values of curand_init(seed, seq, off) (Python
    ints), as a list."""
    seed %= 2**64
    seq %= 2**64
    off %= 2**64
    first = off // 4
    blocks = (off % 4 + n + 3) // 4
    ctrs = []
    for b in range(blocks):
        c = (seq << 64) + first + b
        ctrs.append([(c >> (32 * w)) & MASK for w in range(4)])
    out = philox(np.array(ctrs, np.uint64),
                 np.array([[seed & MASK, seed >> 32]] * blocks, np.uint64))
    flat = [int(v) for v in out.reshape(-1)]
    return flat[off % 4:off % 4 + n]


class Draws:
    """One thread's generator: uint32 draws and the distributions built
    from them (curand_uniform, _double, curand_normal, _double)."""

    def __init__(self, seed, seq, off, n=300):
        self.vals = stream(seed, seq, off, n)
        self.pos = 0
        self.extra = None
        self.extra_d = None

    def next(self):
        v = self.vals[self.pos]
        self.pos += 1
        return v

    def uniform(self):
        return np.float32(self.next()) * np.float32(2.0**-32) + np.float32(2.0**-33)

    @staticmethod
    def frac53(x, y):
        return (x ^ (y << 21)) % 2**64

    def uniform_d(self):
        # A Philox state's curand_uniform_double: one draw.
        return self.next() * 2.0**-32 + 2.0**-32

    def normal(self):
        if self.extra is not None:
            v, self.extra = self.extra, None
            return v
        u = self.next() * 2.0**-32 + 2.0**-33
        v = (self.next() * 2.0**-32 + 2.0**-33) * 2 * np.pi
        s = np.sqrt(-2.0 * np.log(u))
        self.extra = s * np.cos(v)
        return s * np.sin(v)

    def normal_d(self):
        if self.extra_d is not None:
            v, self.extra_d = self.extra_d, None
            return v
        x0, x1, y0, y1 = (self.next() for _ in range(4))
        u = self.frac53(x0, x1) * 2.0**-53 + 2.0**-54
        v = self.frac53(y0, y1) * 2.0**-52 + 2.0**-53
        s = np.sqrt(-2.0 * np.log(u))
        self.extra_d = s * np.cos(np.pi * v)
        return s * np.sin(np.pi * v)


def check_kat():
    for ctr, key, want in KAT:
        got = philox(np.array([ctr], np.uint64), np.array([key], np.uint64))
        assert [int(v) for v in got[0]] == want, (ctr, key, got)
    return []


def rng_1d(t):
    u, f, d = t["U"], t["F"], t["D"]
    bad = []
    for i in range(64):
        g = Draws(1234, i, 0)  # seq = bx * 32 + tx
        want_u = [g.next(), g.next()]
        want = [("F0", f[0, i], g.uniform(), 0), ("D0", d[0, i], g.uniform_d(), 0),
                ("F1", f[1, i], g.normal(), 2e-6), ("F2", f[2, i], g.normal(), 2e-6),
                ("D1", d[1, i], g.normal_d(), 1e-12), ("D2", d[2, i], g.normal_d(), 1e-12)]
        want_u.append(g.next())
        if [int(v) for v in u[:, i]] != want_u:
            bad.append(("U", i))
        for name, got, w, tol in want:
            if tol == 0 and got != (np.float32(w) if name[0] == "F" else w):
                bad.append((name, i))
            if tol and abs(float(got) - float(w)) > tol * max(1.0, abs(float(w))):
                bad.append((name, i))
    # Uniforms lie in (0, 1]; normals look standard.
    assert (f[0] > 0).all() and (f[0] <= 1).all() and (d[0] > 0).all()
    return bad


def rng_2d(t):
    u = t["U"]
    bad = []
    for bx in range(2):
        for by in range(3):
            for ty in range(2):
                for tx in range(4):
                    seq = ((by * 2 + bx) * 2 + ty) * 4 + tx
                    if int(u[bx, by, ty, tx]) != stream(77, seq, 0, 1)[0]:
                        bad.append((bx, by, ty, tx))
    return bad


def rng_seq_off(t):
    u = t["U"]
    return [tx for tx in range(8)
            if [int(v) for v in u[tx]] != stream(0x299F31D0A4093822,
                                                 tx * 1000003 + 0xFFFFFFFF,
                                                 tx * 4 + tx % 4, 6)]


def rng_parallel(t):
    u, f = t["U"], t["F"]
    bad = []
    for b in range(2):
        g = Draws(42, 0, b * 128)
        if [int(v) for v in u[b * 128:(b + 1) * 128]] != [g.next() for _ in range(128)]:
            bad.append(("U", b))
        if list(f[b * 128:(b + 1) * 128]) != [np.float32(g.uniform()) for _ in range(128)]:
            bad.append(("F", b))
    return bad


def kat(t):
    # curand_init(0, 0, 0): the counter and key of Random123's first vector.
    return [] if [int(v) for v in t["U"]] == KAT[0][2] else ["U"]


CHECKS = [("rng_1d", rng_1d), ("rng_2d", rng_2d), ("rng_seq_off", rng_seq_off),
          ("rng_parallel", rng_parallel), ("kat", kat)]


def main():
    tlc_run, art, work = sys.argv[1:4]
    out = os.path.join(work, "out")
    subprocess.run([tlc_run, art, "--save", out] + sys.argv[4:], check=True,
                   stdout=subprocess.DEVNULL)
    check_kat()
    print("kat", "ok" if not kat(load(out, "kat")) else "MISMATCH")
    for name, fn in CHECKS[:-1]:
        bad = fn(load(out, name))
        print(name, "ok" if not bad else "MISMATCH %d: %s" % (len(bad), bad[:4]))


def load(out, kernel):
    d = os.path.join(out, kernel)
    return {f[:-4]: np.load(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".npy")}


if __name__ == "__main__":
    main()
