"""Runs the persistent-order.py kernels on the CPU and compares, for every
tile, the worker that visited it and the number of tiles that worker had
visited before with TileLang's persistent order enumerated here: linear
indices count groups of the last dimension (slowest), then the other
dimensions row-major, then the offset in the group, padded tiles included;
worker i takes the indices equal to i modulo the number of workers.

Usage: persistent_order_run.py TLC_RUN ARTIFACTS WORKDIR. Reads the int32
.npy files tlc-run saves without NumPy."""

import itertools
import os
import struct
import subprocess
import sys

KERNELS = {
    # name: (domain, workers, group_size)
    "grouped_3d": ((2, 3, 10), 16, 3),
    "default_group_2d": ((5, 20), 7, 8),
    "clamped_1d": ((11,), 4, 32),
}


def read_i32(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    hlen = struct.unpack("<H", data[8:10])[0]
    assert "'<i4'" in data[10:10 + hlen].decode("latin1"), path
    body = data[10 + hlen:]
    return list(struct.unpack("<%di" % (len(body) // 4), body))


def expected(domain, workers, group_size):
    group = max(1, min(group_size, domain[-1]))
    visits = {}
    seen = [0] * workers
    linear = 0
    for start in range(0, domain[-1], group):
        for outer in itertools.product(*(range(d) for d in domain[:-1])):
            for offset in range(group):
                if start + offset < domain[-1]:
                    w = linear % workers
                    visits[(*outer, start + offset)] = (w, seen[w])
                    seen[w] += 1
                linear += 1
    return visits


def main():
    tlc_run, art, work = sys.argv[1:4]
    for name, (domain, workers, group) in KERNELS.items():
        out = os.path.join(work, name)
        subprocess.run([tlc_run, art, "--kernel", name, "--save", out],
                       check=True, stdout=subprocess.DEVNULL)
        worker = read_i32(os.path.join(out, "Worker.npy"))
        seq = read_i32(os.path.join(out, "Seq.npy"))
        want = expected(domain, workers, group)
        coords = list(itertools.product(*(range(d) for d in domain)))
        assert len(want) == len(coords)
        bad = [c for i, c in enumerate(coords)
               if (worker[i], seq[i]) != want[c]]
        print(name, "ok" if not bad else "MISMATCH at %r of %d" % (bad[0], len(bad)))


main()
