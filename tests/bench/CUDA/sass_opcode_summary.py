"""Opcode mix of kernels profiled by Nsight Compute's SourceCounters.

Usage: python3 sass_opcode_summary.py DIR NAME...
reads DIR/NAME.src.csv, written by
  ncu --section SourceCounters -o NAME ... ; ncu --import NAME.ncu-rep \
      --page source --print-source sass --csv > NAME.src.csv
and prints, per kernel, the warp instructions executed, the share of each
opcode (the mnemonic before the first dot) and where the warp-stall samples
fall by opcode (docs/perf/hopper-gemm-pingpong.md, run 4).
"""
import collections
import csv
import sys

directory, names = sys.argv[1], sys.argv[2:]
for name in names:
    rows = list(csv.reader(open(f"{directory}/{name}.src.csv")))
    header = rows[1]
    executed = header.index("Instructions Executed")
    source = header.index("Source")
    samples = header.index("Warp Stall Sampling (All Samples)")
    total, count = 0, 0
    ops, stalls = collections.Counter(), collections.Counter()
    for row in rows[2:]:
        if len(row) <= executed:
            continue
        try:
            n = int(row[executed].replace(",", ""))
        except ValueError:
            continue
        words = row[source].split()
        if not words:
            continue
        count += 1
        op = (words[1] if words[0].startswith("@") else words[0]).split(".")[0]
        ops[op] += n
        total += n
        try:
            stalls[op] += int(row[samples])
        except ValueError:
            pass
    sampled = sum(stalls.values()) or 1
    print(f"== {name}: {total:,} warp instructions executed, {count} SASS instructions")
    print("   " + ", ".join(f"{o} {n / total * 100:.1f}%" for o, n in ops.most_common(14)))
    print("   stall samples by opcode: " +
          ", ".join(f"{o} {n / sampled * 100:.0f}%" for o, n in stalls.most_common(6)))
