"""Independent oracle for the fragment-exchange bank-conflict hints.

Usage: exchange_banks.py SOURCE.cu|.hip HINTS.json THREADS {cuda,hip}

Runs the printed exchange code itself: each block from `// the exchange area
is free` to the next `// T.` statement comment is turned into Python (for
loops, if guards, `const int` definitions; everything else is skipped) and
executed for every thread id, recording the element of every access of an
exchange tile (`exchanged...[INDEX]`, a store when it is assigned). Accesses
of one source line and loop iteration form one instruction; lanes are
grouped 32 at a time (a warp; on CDNA half a 64-lane wavefront, which is a
phase of LDS for 4-byte accesses). Bank rule, 4-byte elements only: 32
banks of 4 bytes, bank = (byte address / 4) % 32; the degree of an
instruction is the most distinct words one bank holds among its lanes
(NVIDIA's shared memory; AMD's LDS on MI-series is 32 banks of 4 bytes, a
half wavefront per phase for b32). Prints one line per tile and checks the
hint JSON states the same degrees.
"""

import json
import re
import sys
from collections import defaultdict

import numpy as np

src, hints_path, threads, lang = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
lines = open(src).read().split("\n")


def to_python(block):
    """Python source of a block of printed C++ lines (statements one per line)."""
    out, depth, loops = [], 1, []
    for n, raw in block:
        s = raw.strip()
        pad = "    " * depth
        if s.startswith("#pragma") or not s:
            continue
        if s == "}":
            depth -= 1
            while loops and loops[-1][1] > depth:
                loops.pop()
            continue
        m = re.match(r"for \(int (\w+) = (\d+); \1 < (\d+); (?:\+\+\1|\1 \+= (\d+))\) \{$", s)
        if m:
            out.append(f"{pad}for {m[1]} in range({m[2]}, {m[3]}, {m[4] or 1}):")
            depth += 1
            loops.append((m[1], depth))
            continue
        m = re.match(r"if \((.*)\) \{$", s)
        if m:
            cond = m[1].replace("&&", " and ").replace("||", " or ")
            out.append(f"{pad}if {cond}:")
            depth += 1
            continue
        if s == "{":
            out.append(f"{pad}if True:")
            depth += 1
            continue
        m = re.match(r"const int (\w+) = (.*);$", s)
        if m:
            out.append(f"{pad}{m[1]} = {m[2].replace('/', '//')}")
            continue
        for k, tile in enumerate(re.finditer(r"(exchanged\w*)\[(.*?)\](?= = |;)", s)):
            store = s.startswith(tile[0] + " = ")
            idx = tile[2].replace("/", "//")
            iters = "(" + "".join(v + ", " for v, _ in loops) + ")"
            out.append(f"{pad}rec({n}, {k}, {iters}, {tile[1]!r}, {store}, {idx})")
        out.append(f"{pad}pass")
    return "def run(tid):\n" + "\n".join(out) + "\n"


# Each exchange region: declaration offsets and the code up to the next op.
tiles = []
for n, s in enumerate(lines):
    m = re.search(r"(\w+) \*(exchanged\w*) = reinterpret_cast<\w+ \*>\(smem \+ (\d+)\);  // (\w+), row-major", s)
    if m:
        assert m[1] == "float", "the oracle models 4-byte elements"
        tiles.append({"tile": m[2], "offset": int(m[3]), "name": m[4], "start": n})

results = []
for t in tiles:
    tile = t["tile"]
    end = t["start"] + 1
    while end < len(lines) and not re.match(r"\s*// T\.", lines[end]) and lines[end] != "}":
        end += 1
    block = [(n, lines[n]) for n in range(t["start"] + 1, end)]
    code = to_python(block)
    acc = defaultdict(dict)  # (store, instruction key, group) -> lane -> address

    def rec(n, k, iters, name, store, idx):
        if name == tile:
            key = (store, n, k, iters)
            acc[(key, CUR // 32)][CUR % 32] = t["offset"] + 4 * idx

    env = {"rec": rec}
    exec(code, env)
    for CUR in range(threads):
        globals()["CUR"] = CUR
        env["run"](CUR)
    worst = {True: 0, False: 0}
    for (key, _), lanes in acc.items():
        words = np.array(sorted(set(a // 4 for a in lanes.values())))
        banks = words % 32
        degree = int(np.bincount(banks, minlength=32).max())
        worst[key[0]] = max(worst[key[0]], degree)
    results.append((t["name"], worst[True], worst[False]))


def say(n):
    return "conflict-free" if n == 1 else f"{n}-way bank conflict"


hints = [h for h in json.load(open(hints_path)) if h.get("kind") == "fragment-exchange"]
for (name, st, ld), h in zip(results, hints):
    want = f"stores {say(st)}, loads {say(ld)}"
    ok = h["name"] == name and h["detail"].endswith("; " + want + ")")
    print(f"{name}: {want}: {'MATCH' if ok else 'MISMATCH ' + h['detail']}")
if len(results) != len(hints):
    print(f"MISMATCH: {len(results)} exchange tiles in the code, {len(hints)} hints")
