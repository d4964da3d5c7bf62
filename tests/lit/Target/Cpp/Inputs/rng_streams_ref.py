"""curand's XORWOW and MRG32k3a generators written here in NumPy and Python
integers from the algorithms' published definitions, for rng-streams.py.

XORWOW (Marsaglia, "Xorshift RNGs", J. Stat. Software 8(14), 2003, p. 5):
five 32-bit words, t = x ^ (x >> 2), the words shift down and the last
becomes (v ^ (v << 4)) ^ (t ^ (t << 1)); the output adds the Weyl sequence
d += 362437. Skipping uses the xorshift's 160x160 matrix over GF(2), built
here column by column from the step and raised to powers by squaring (tlc's
header uses polynomials mod the characteristic polynomial instead).

MRG32k3a (L'Ecuyer, Operations Research 47(1), 1999): two order-3
recurrences mod m1 = 2^32 - 209 and m2 = 2^32 - 22853, z = x1 - x2 mod m1
in 1..m1; skipping by powers of the 3x3 companion matrices.

Seeding, subsequence spacing (2^67 for XORWOW, 2^76 for MRG32k3a) and the
draws follow curand's device API documentation (curand_init, curand,
curand_uniform[_double], curand_normal[_double]).
"""

import numpy as np

M32 = 0xFFFFFFFF


# ---------------------------------------------------------------- XORWOW --
def xorwow_step(v):
    t = v[0] ^ (v[0] >> 2)
    return v[1:] + [((v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))) & M32]


def _bits(v):
    return np.array([(v[i // 32] >> (i % 32)) & 1 for i in range(160)], np.float64)


def _words(b):
    b = b.astype(np.int64) & 1
    return [int(sum(int(b[32 * k + j]) << j for j in range(32))) for k in range(5)]


def _xorwow_matrix():
    a = np.zeros((160, 160))
    for i in range(160):
        e = [0] * 5
        e[i // 32] = 1 << (i % 32)
        a[:, i] = _bits(xorwow_step(e))
    return a


def _square(m):
    return np.mod(m @ m, 2.0)


_A = _xorwow_matrix()
_POW2 = [_A]  # _POW2[k] = A^(2^k)
for _ in range(67 + 40):
    _POW2.append(_square(_POW2[-1]))


def _xorwow_skip(v, n, shift):
    """A^(n * 2^shift) v for n < 2^40."""
    b = _bits(v)
    k = 0
    while n:
        if n & 1:
            b = np.mod(_POW2[shift + k] @ b, 2.0)
        n >>= 1
        k += 1
    return _words(b)


class Xorwow:
    """One thread's curandStateXORWOW_t."""

    def __init__(self, seed, seq, off):
        s0 = (seed & M32) ^ 0xAAD26B49
        s1 = ((seed >> 32) & M32) ^ 0xF7DCEFDD
        t0 = (1099087573 * s0) & M32
        t1 = (2591861531 * s1) & M32
        self.d = (6615241 + t1 + t0) & M32
        v = [(123456789 + t0) & M32, 362436069 ^ t0, (521288629 + t1) & M32,
             88675123 ^ t1, (5783321 + t0) & M32]
        v = _xorwow_skip(v, seq, 67)
        self.v = _xorwow_skip(v, off, 0)
        self.d = (self.d + 362437 * off) & M32
        self.extra = self.extra_d = None

    def next(self):
        self.v = xorwow_step(self.v)
        self.d = (self.d + 362437) & M32
        return (self.v[4] + self.d) & M32

    def uniform(self):
        return np.float32(self.next()) * np.float32(2.0**-32) + np.float32(2.0**-33)

    def uniform_d(self):
        x, y = self.next(), self.next()
        return ((x ^ (y << 21)) % 2**64) * 2.0**-53 + 2.0**-54

    def normal(self):
        if self.extra is not None:
            v, self.extra = self.extra, None
            return v
        u = self.next() * 2.0**-32 + 2.0**-33
        w = (self.next() * 2.0**-32 + 2.0**-33) * 2 * np.pi
        s = np.sqrt(-2.0 * np.log(u))
        self.extra = s * np.cos(w)
        return s * np.sin(w)

    def normal_d(self):
        if self.extra_d is not None:
            v, self.extra_d = self.extra_d, None
            return v
        x0, x1, y0, y1 = (self.next() for _ in range(4))
        u = ((x0 ^ (x1 << 21)) % 2**64) * 2.0**-53 + 2.0**-54
        w = ((y0 ^ (y1 << 21)) % 2**64) * 2.0**-52 + 2.0**-53
        s = np.sqrt(-2.0 * np.log(u))
        self.extra_d = s * np.cos(np.pi * w)
        return s * np.sin(np.pi * w)


# -------------------------------------------------------------- MRG32k3a --
M1, M2 = 4294967087, 4294944443
A1 = [[0, 1, 0], [0, 0, 1], [(-810728) % M1, 1403580, 0]]
A2 = [[0, 1, 0], [0, 0, 1], [(-1370589) % M2, 0, 527612]]


def _mat_mul(x, y, m):
    return [[sum(x[i][k] * y[k][j] for k in range(3)) % m for j in range(3)]
            for i in range(3)]


def _mat_pow(x, n, m):
    r = [[int(i == j) for j in range(3)] for i in range(3)]
    while n:
        if n & 1:
            r = _mat_mul(r, x, m)
        x = _mat_mul(x, x, m)
        n >>= 1
    return r


def _mat_vec(x, v, m):
    return [sum(x[i][k] * v[k] for k in range(3)) % m for i in range(3)]


class Mrg32k3a:
    """One thread's curandStateMRG32k3a_t."""

    def __init__(self, seed, seq, off):
        s1, s2 = [12345] * 3, [12345] * 3
        if seed:
            x1 = (seed & M32) ^ 0x55555555
            x2 = ((seed >> 32) & M32) ^ 0xAAAAAAAA
            s1 = [x1 * 12345 % M1, x2 * 12345 % M1, x1 * 12345 % M1]
            s2 = [x2 * 12345 % M2, x1 * 12345 % M2, x2 * 12345 % M2]
        n = (seq << 76) + off
        self.s1 = _mat_vec(_mat_pow(A1, n, M1), s1, M1)
        self.s2 = _mat_vec(_mat_pow(A2, n, M2), s2, M2)
        self.extra = self.extra_d = None

    def raw(self):
        s1, s2 = self.s1, self.s2
        p1 = (1403580 * s1[1] - 810728 * s1[0]) % M1
        p2 = (527612 * s2[2] - 1370589 * s2[0]) % M2
        self.s1 = [s1[1], s1[2], p1]
        self.s2 = [s2[1], s2[2], p2]
        return float(p1 - p2 if p1 > p2 else p1 - p2 + M1)

    def next(self):
        return int(self.raw() * 1.000000048662)

    def uniform(self):
        return np.float32(self.raw() * 2.3283065498378288e-10)

    def uniform_d(self):
        return self.raw() * 2.3283065498378288e-10

    def normal(self):
        if self.extra is not None:
            v, self.extra = self.extra, None
            return v
        x = self.uniform()
        y = self.uniform() * np.float32(6.2831855)
        s = np.sqrt(-2.0 * np.log(float(x)))
        self.extra = s * np.cos(float(y))
        return s * np.sin(float(y))

    def normal_d(self):
        if self.extra_d is not None:
            v, self.extra_d = self.extra_d, None
            return v
        x = self.uniform_d()
        y = self.uniform_d() * 2.0
        s = np.sqrt(-2.0 * np.log(x))
        self.extra_d = s * np.cos(np.pi * y)
        return s * np.sin(np.pi * y)


GENERATORS = {"curandStateXORWOW_t": Xorwow, "curandStateMRG32k3a_t": Mrg32k3a}


# ------------------------------------------------------ checking tlc's output --
def _close(got, want, tol):
    return abs(float(got) - float(want)) <= tol * max(1.0, abs(float(want)))


def streams_1d(t, gen):
    u, f, d = t["U"], t["F"], t["D"]
    bad = []
    for i in range(64):
        g = gen(1234, i, 0)  # the default seq: bx * 32 + tx
        want_u = [g.next(), g.next()]
        want = [("F0", f[0, i], np.float32(g.uniform()), 0),
                ("D0", d[0, i], g.uniform_d(), 0),
                ("F1", f[1, i], g.normal(), 2e-6), ("F2", f[2, i], g.normal(), 2e-6),
                ("D1", d[1, i], g.normal_d(), 1e-12), ("D2", d[2, i], g.normal_d(), 1e-12)]
        want_u.append(g.next())
        if [int(v) for v in u[:, i]] != want_u:
            bad.append(("U", i))
        for name, got, w, tol in want:
            if (got != w) if tol == 0 else not _close(got, w, tol):
                bad.append((name, i, float(got), float(w)))
    assert (f[0] > 0).all() and (f[0] <= 1).all() and (d[0] > 0).all() and (d[0] < 1).all()
    return bad


def streams_seq_off(t, gen):
    bad = []
    for tx in range(8):
        g = gen(0x299F31D0A4093822, tx * 1000003 + 0xFFFFFFFF, tx * 977 + tx % 4)
        if [int(v) for v in t["U"][tx]] != [g.next() for _ in range(6)]:
            bad.append(("U", tx))
        g = gen(0, tx, 0)
        if [int(v) for v in t["Z"][tx]] != [g.next() for _ in range(2)]:
            bad.append(("Z", tx))
    return bad


def streams_parallel(t, gen):
    u, f = t["U"], t["F"]
    bad = []
    for b in range(2):
        g = gen(42, 0, b * 128)
        if [int(v) for v in u[b * 128:(b + 1) * 128]] != [g.next() for _ in range(128)]:
            bad.append(("U", b))
        if list(f[b * 128:(b + 1) * 128]) != [np.float32(g.uniform()) for _ in range(128)]:
            bad.append(("F", b))
    return bad


def curand(t, host, kind, period):
    """tlc's draws j of subsequence q (U[j, q]; F[j, q] from offset 2)
    against value j * period + q ((j + 2) * period + q) of curand's host
    generator (default ordering)."""
    import subprocess
    J, Q = t["U"].shape
    n = (J + 1) * period + Q
    out = subprocess.run([host, kind, "42", str(n)], check=True,
                         capture_output=True, text=True).stdout.split()
    hu = [int(v) for v in out[:n]]
    hf = np.array([float(v) for v in out[n:]], np.float32)
    bad = []
    for j in range(J):
        for q in range(Q):
            if int(t["U"][j, q]) != hu[j * period + q]:
                bad.append(("U", j, q))
            if t["F"][j, q] != hf[(j + 2) * period + q]:
                bad.append(("F", j, q))
    return bad


def load(out, kernel):
    import os
    d = os.path.join(out, kernel)
    return {f[:-4]: np.load(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".npy")}


def main():
    import os
    import subprocess
    import sys
    args = sys.argv[1:]
    host = None
    if "--curand" in args:
        i = args.index("--curand")
        host = args[i + 1]
        del args[i:i + 2]
    tlc_run, art, work = args[:3]
    out = os.path.join(work, "out")
    subprocess.run([tlc_run, art, "--save", out] + args[3:], check=True,
                   stdout=subprocess.DEVNULL)
    # The kernels' instances: KERNEL for XORWOW, KERNEL_1 for MRG32k3a.
    tags = (("xorwow", "", Xorwow, 4096), ("mrg", "_1", Mrg32k3a, 81920))
    if host:
        for tag, suffix, _, period in tags:
            bad = curand(load(out, "streams_curand" + suffix), host, tag, period)
            print("curand", tag, "ok" if not bad else "MISMATCH %d: %s" % (len(bad), bad[:4]))
        return
    for name, fn in (("streams_1d", streams_1d), ("streams_seq_off", streams_seq_off),
                     ("streams_parallel", streams_parallel)):
        for tag, suffix, gen, _ in tags:
            bad = fn(load(out, name + suffix), gen)
            print(name + "_" + tag, "ok" if not bad else "MISMATCH %d: %s" % (len(bad), bad[:4]))


if __name__ == "__main__":
    main()
