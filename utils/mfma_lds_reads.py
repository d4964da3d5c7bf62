#!/usr/bin/env python3
"""Static LDS cost of reading an MN-contiguous MFMA operand (A stored [K, M],
B stored [K, N]) on CDNA, three ways, from the tile's LDS layout alone:

  element  one ds_read_u16 / _u8 per value (tlc before branch hip34)
  dpp      one ds_read_b64 per lane of an n x 16 block (lane j: k row j % n,
           columns n (j / n) .. + n - 1), then the DPP transpose
           (tlc::hip::readDppTransposed; gfx90a / gfx942 since hip34)
  tr       gfx950's ds_read_b64_tr_b16 / _b8 (lane j of each 16: k row
           j / (16 / n), columns n (j % (16 / n)) .. + n - 1)

for one K step of one T x T MFMA tile (T = 16 or 32) of one wavefront.

The bank model is the one tlc's planner and --check use (Layout/
MfmaSharedLayouts.cpp, written from the CDNA3 ISA's "Data Share
Operations"): 32 banks of 4 bytes; an instruction is served in phases of
128 bytes of lane data (32 lanes of <= 4 bytes, 16 lanes of 8 bytes, 8 of
16); a phase takes as many passes as the most distinct dwords any one bank
holds (lanes reading the same dword share it). No AMD GPU measured any of
this: these are model counts, not times.

Usage: mfma_lds_reads.py ROW_ELEMS VEC PER_PHASE MAX_PHASE ELEM_BYTES T
(the tile's xorSwizzledIndex<RowElems, Vec, PerPhase, MaxPhase> as the
generated HIP names it; VEC 0 for a row-major tile), or
mfma_lds_reads.py NAME.hip (every readDppTransposed read of a kernel built
with tlc-build --emit=hip --target=hip:gfx942: the tables of docs/hip.md)."""
import sys


def index(row, col, row_elems, vec, per_phase, max_phase):
    if not vec:
        return row * row_elems + col
    run, phase = col // vec, (row // per_phase) % max_phase
    return row * row_elems + (run ^ phase) * vec + col % vec


def passes(accesses, width):
    """accesses: per lane (byte address) of one instruction, `width` bytes
    each. Returns the passes the bank model gives it."""
    lanes = 128 // max(width, 4)
    total = 0
    for p in range(0, len(accesses), lanes):
        banks = {}
        for a in accesses[p:p + lanes]:
            for d in range(a // 4, (a + max(width, 4) - 1) // 4 + 1):
                banks.setdefault(d % 32, set()).add(d)
        total += max(len(s) for s in banks.values())
    return total


def step_costs(row_elems, vec, per_phase, max_phase, eb, T):
    n = 8 // eb  # values of one lane per 8 bytes (4 for 16-bit, 8 for 8-bit)
    at = lambda k, c: index(k, c, row_elems, vec, per_phase, max_phase) * eb
    groups = 64 // T  # lane groups along K: lane l holds k = n (l / T) ..
    # element: lane l reads (n (l / T) + r, l % T) for r < n.
    element = [passes([at(n * (l // T) + r, l % T) for l in range(64)], eb)
               for r in range(n)]
    # dpp: lane l of group g = l / T, within-tile lane q = l % T: the block of
    # columns 16 (q / 16) .. + 15, k rows n g .. + n - 1; row q % n, columns
    # 16 (q / 16) + n ((q % 16) / n).
    dpp = passes([at(n * (l // T) + (l % T) % n,
                     16 * ((l % T) // 16) + n * ((l % 16) // n))
                  for l in range(64)], 8)
    tr = passes([at(n * (l // T) + (l % 16) // (16 // n),
                    16 * ((l % T) // 16) + n * (l % (16 // n)))
                 for l in range(64)], 8)
    return element, dpp, tr, groups


def report(args):
    row_elems, vec, per_phase, max_phase, eb, T = args
    element, dpp, tr, _ = step_costs(row_elems, vec, per_phase, max_phase,
                                     eb, T)
    name = ("xor<%d,%d,%d,%d>" % (row_elems, vec, per_phase, max_phase)
            if vec else "row-major, rows of %d" % row_elems)
    n = 8 // eb
    print("%-26s %d-bit T=%-2d  element: %d x ds_read_u%d, %2d passes"
          "  (%s)  dpp: 1 ds_read_b64, %d passes  tr: %d passes"
          % (name, 8 * eb, T, n, 8 * eb, sum(element),
             "/".join(map(str, element)), dpp, tr))


def from_source(path):
    """One line per readDppTransposed call of a generated NAME.hip (built
    for gfx90a / gfx942): its kernel, tile layout, element width, T."""
    import re
    kernel, eb = "?", 2
    for line in open(path):
        if "__global__" in line:
            kernel = re.search(r"(\w+)\((const )?[\w:]+ \*", line).group(1)
            first = line.split("(", 2)[-1]
            eb = 1 if "int8_t" in first.split(",")[0] else 2
        elif "readDppTransposed(" in line:
            m = re.search(r"xorSwizzledIndex<(\d+), (\d+), (\d+), (\d+)>",
                          line)
            T = 32 if "lane % 32 / 16" in line else 16
            if m:
                print(kernel + ":", end=" ")
                report([int(g) for g in m.groups()] + [eb, T])


if __name__ == "__main__":
    if len(sys.argv) == 7:
        report([int(a) for a in sys.argv[1:]])
    elif len(sys.argv) == 2:
        from_source(sys.argv[1])
    else:
        print(__doc__)
