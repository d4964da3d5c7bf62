"""Reads IR with fragment layouts (`layout = #tile.fragment<...>` on
tile.alloc) and, for each allocation in order, enumerates its elements with
Python's own arithmetic: the threads holding elements, registers per thread
(largest index + 1), and whether every element has a slot of its own."""
import itertools
import re
import sys

PATTERN = re.compile(
    r'tile\.alloc \{layout = #tile\.fragment<\[([0-9, ]+)\], '
    r'thread = "([^"]+)", index = \["([^"]+)"\]')

for m in PATTERN.finditer(sys.stdin.read()):
    shape = [int(x) for x in m.group(1).split(",")]
    thread, index = m.group(2), m.group(3)
    names = "ijkl"[:len(shape)]
    slots = set()
    threads = set()
    regs = 0
    for coord in itertools.product(*(range(e) for e in shape)):
        env = dict(zip(names, coord))
        t, r = eval(thread, {}, env), eval(index, {}, env)
        slots.add((t, r))
        threads.add(t)
        regs = max(regs, r + 1)
    total = 1
    for e in shape:
        total *= e
    print("[" + ", ".join(map(str, shape)) + "]", "threads", len(threads),
          "regs", regs, "once", len(slots) == total)
