"""NumPy model of ldmatrix for ptx-ldmatrix.py and ptx-ldmatrix-sub-byte.py.

  ldmatrix_ref.py DIR [sub-byte]

Written from the PTX ISA's description of ldmatrix (warp-level matrix
load): lanes 8i .. 8i + 7 give the addresses of rows 0..7 of matrix i. It
scatters every element of every matrix to the lane and register byte the
ISA's fragment table names (the CPU target gathers instead):

  .m8n8 .b16     element (r, c), 16 bits: lane 4 r + c // 2, register i,
                 half c % 2 (bytes 2 (c % 2), + 1 of the register)
  .m8n8 .trans   element (r, c): lane 4 c + r // 2, half r % 2
  .m8n16 su4/su6 element (r, c) of the 16 unpacked 8-bit elements of a
                 row: lane 4 r + c // 4, byte c % 4 of register i; a row's
                 elements are packed LSB first, 4 (su4) or 6 (su6) bits
                 each, in its first 8 / 12 bytes

Register i of a lane lies at bytes 4 i .. 4 i + 3 of its OUT row. Lane l of
warp w addresses row w * 32 + (5 l + 3) % 32 of the shared copy of SRC
(16 bytes a row), as the kernels do."""
import os
import sys

import numpy as np

d = sys.argv[1]
sub = len(sys.argv) > 2 and sys.argv[2] == "sub-byte"
if sub:
    ORDER = [("su4", 4), ("su6", 4), ("su4", 1), ("su6", 2)]
else:
    ORDER = [(n, t, "float16") for t in (0, 1) for n in (1, 2, 4)]
    ORDER += [(4, 0, "int8"), (4, 1, "int8")]


def row_of(lane):
    return (5 * lane + 3) % 32


def unpack(row, bits):
    """The 16 elements of a packed row (bytes), LSB first."""
    word = int.from_bytes(bytes(row.tolist()), "little")
    return [(word >> (bits * c)) & ((1 << bits) - 1) for c in range(16)]


for index, inst in enumerate(ORDER):
    name = "ldmatrix" + ("_%d" % index if index else "")
    path = os.path.join(d, name)
    src = np.load(os.path.join(path, "inputs", "SRC.npy"))
    out = np.load(os.path.join(path, "OUT.npy"))
    rows = src.view(np.uint8).reshape(-1, 16)
    lanes = out.shape[0]
    got = out.view(np.uint8).reshape(lanes, -1)
    if sub:
        variant, num = inst
        label = "ldmatrix %s num=%d" % (variant, num)
    else:
        num, trans, dtype = inst
        label = "ldmatrix num=%d trans=%d %s" % (num, trans, dtype)
    want = np.zeros((lanes, 4 * num), np.uint8)
    for w in range(lanes // 32):
        for i in range(num):
            for r in range(8):
                row = rows[w * 32 + row_of(8 * i + r)]
                if sub:
                    elems = unpack(row[: 8 if variant == "su4" else 12],
                                   4 if variant == "su4" else 6)
                    for c in range(16):
                        lane = 4 * r + c // 4
                        want[w * 32 + lane, 4 * i + c % 4] = elems[c]
                    continue
                for c in range(8):
                    pair = row[2 * c: 2 * c + 2]
                    if trans:
                        lane, half = 4 * c + r // 2, r % 2
                    else:
                        lane, half = 4 * r + c // 2, c % 2
                    want[w * 32 + lane, 4 * i + 2 * half: 4 * i + 2 * half + 2] = pair
    ok = np.array_equal(got, want)
    print(label, "PASS" if ok else "FAIL")
    if not ok:
        bad = np.argwhere(got != want)[:4]
        for lane, b in bad:
            print("  lane", lane, "byte", b, "got", got[lane, b], "want", want[lane, b])
