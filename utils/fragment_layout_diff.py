#!/usr/bin/env python3
"""Where layout inference and tile-assign-fragment-layouts disagree.

usage: utils/fragment_layout_diff.py TLC_BUILD TARGET FILE...

Runs `TLC_BUILD --emit=lowered --target=TARGET FILE` in FILE's folder and,
for every fragment allocation or view that carries both layout inference's
`layout = #tile.fragment<...>` and tile-assign-fragment-layouts'
`tile.fragment_layout = #tile.fragment<...>`, evaluates both layouts over
every element and replica (the index expressions are Python) and compares
which (thread, register) slots hold each element. Prints one tab-separated
line per fragment that is not identical:

  FILE TARGET FUNC VALUE CLASS INFERRED-ORIGIN ASSIGNED-ORIGIN

CLASS is `threads` (some element lives on other threads), `registers` (the
same threads, other register numbers) or `only-assigned` (no inferred
layout). Threads are compared from each layout's first thread where the
inferred one starts later by whole warps: inference numbers a thread range's
threads in the block, tile-assign-fragment-layouts from the range's start.
A summary line per file goes to stderr.
"""
import os
import re
import subprocess
import sys

MAX_SLOTS = 1 << 20
NAMES = ["i", "j", "k", "l", "m", "n"]


def attr_text(line, key):
    """The `#tile.fragment<...>` text after `key = ` in line, else None."""
    at = line.find(key + " = #tile.fragment<")
    if at < 0 or (at > 0 and line[at - 1] not in " {"):
        return None
    start = line.index("<", at)
    depth, quote = 0, False
    for pos in range(start, len(line)):
        c = line[pos]
        if c == '"':
            quote = not quote
        elif not quote and c == "<":
            depth += 1
        elif not quote and c == ">":
            depth -= 1
            if depth == 0:
                return line[start + 1:pos]
    return None


def parse(text):
    shape = [int(x) for x in re.match(r"\[([^\]]*)\]", text).group(1).split(",")
             if x.strip()]
    thread = re.search(r'thread = "([^"]*)"', text).group(1)
    index = re.findall(r'"([^"]*)"', re.search(r"index = \[([^\]]*)\]",
                                               text).group(1))
    rep = re.search(r"replicate = (\d+)", text)
    origin = re.search(r'origin = "([^"]*)"', text)
    return {
        "shape": shape,
        "thread": compile(thread, "thread", "eval"),
        "index": [compile(e, "index", "eval") for e in index],
        "replicate": int(rep.group(1)) if rep else 1,
        "origin": origin.group(1) if origin else "",
    }


def slots(f):
    """Per element (row-major): the set of (thread, register tuple)."""
    shape, rep = f["shape"], f["replicate"]
    numel = 1
    for e in shape:
        numel *= e
    if numel * rep > MAX_SLOTS:
        return None
    out = []
    for flat in range(numel):
        coord, rest = [], flat
        for e in reversed(shape):
            coord.append(rest % e)
            rest //= e
        coord.reverse()
        env = {NAMES[d] if d < 6 else "d%d" % d: c for d, c in enumerate(coord)}
        held = set()
        for r in range(rep):
            env["rep"] = r
            t = eval(f["thread"], {}, env)
            idx = tuple(eval(e, {}, env) for e in f["index"])
            held.add((t, idx))
        out.append(held)
    return out


def flatten_registers(table):
    """Register tuples as row-major numbers over their extents."""
    ext = None
    for held in table:
        for _, idx in held:
            ext = [max(a, b + 1) for a, b in zip(ext, idx)] if ext else [
                b + 1 for b in idx]
    def num(idx):
        n = 0
        for e, x in zip(ext, idx):
            n = n * e + x
        return n
    return [{(t, num(idx)) for t, idx in held} for held in table]


def rebase(table, offset):
    return [{(t - offset, idx) for t, idx in held} for held in table]


def classify(inferred, assigned):
    a, b = slots(inferred), slots(assigned)
    if a is None or b is None:
        return "too-large"
    # Layout inference numbers the threads of a fragment homed in a thread
    # range (`tx >= 128`, `T.ws(1)`) in the block, the pass from the range's
    # first thread (the printer rebases `tid`): compare from the first.
    lo_a = min(t for held in a for t, _ in held)
    lo_b = min(t for held in b for t, _ in held)
    if lo_a > lo_b and (lo_a - lo_b) % 32 == 0:
        a = rebase(a, lo_a - lo_b)
    a, b = flatten_registers(a), flatten_registers(b)
    if a == b:
        return None
    if all({t for t, _ in x} == {t for t, _ in y} for x, y in zip(a, b)):
        return "registers"
    return "threads"


def main():
    tlc, target, files = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    for path in files:
        try:
            run = subprocess.run(
                [tlc, "--emit=lowered", "--target=" + target,
                 os.path.basename(path)],
                cwd=os.path.dirname(path) or ".", capture_output=True,
                text=True, timeout=300)
        except subprocess.TimeoutExpired:
            print("%s: timeout" % path, file=sys.stderr)
            continue
        func, fragments, differ = "?", 0, 0
        for line in run.stdout.splitlines():
            m = re.search(r"tile\.func @([\w.$-]+)", line)
            if m:
                func = m.group(1)
            if "local.fragment" not in line or not re.search(
                    r"tile\.(alloc|view)", line):
                continue
            assigned = attr_text(line, "tile.fragment_layout")
            if assigned is None:
                continue
            fragments += 1
            value = re.match(r"\s*(%[\w.$-]+)", line)
            value = value.group(1) if value else "?"
            inferred = attr_text(line, "layout")
            g = parse(assigned)
            if inferred is None:
                cls, origin = "only-assigned", ""
            else:
                f = parse(inferred)
                cls, origin = classify(f, g), f["origin"]
            if cls:
                differ += 1
                print("\t".join([path, target, func, value, cls, origin,
                                 g["origin"]]), flush=True)
        print("%s: %d fragments, %d differ (exit %d)" %
              (path, fragments, differ, run.returncode), file=sys.stderr)


if __name__ == "__main__":
    main()
