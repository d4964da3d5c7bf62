# Python ints are unbounded; tlc holds those beyond 64 signed bits as big
# ints. CPython is the oracle: this script (run by CPython, not tlc) computes
# each expression below and writes a TileLang program asserting tlc's value
# of it equals CPython's, and storing those in the uint64 range as kernel
# constants, whose bit patterns FileCheck compares with CPython's.
# RUN: %python %s %t.py %t.check
# RUN: tlc-build --check %t.py 2>&1 | count 0
# RUN: tlc-build --emit=tile %t.py | FileCheck %t.check
import sys

EXPRS = [
    "(1 << 64) - 1", "1 << 63", "(1 << 63) - 1", "2 ** 64 - 1", "2 ** 64",
    "2 ** 100", "-(2 ** 63)", "-(2 ** 63) - 1", "0xffffffffffffffff",
    "0xFFFF_FFFF_FFFF_FFFF & 0x0F0F_0F0F_0F0F_0F0F_0F", "18446744073709551615",
    "0o1777777777777777777777", "0b1" + "0" * 64, "((1 << 64) - 1) >> 1",
    "((1 << 64) - 1) >> 70", "-(2 ** 70) >> 3", "-(2 ** 70) >> 100",
    "((1 << 64) - 1) ^ (1 << 63)", "(2 ** 64 - 1) | 5", "~(2 ** 64)",
    "-(2 ** 64 - 1)", "(2 ** 64 + 5) // 3", "(2 ** 64 + 5) % 3",
    "-(2 ** 64 + 5) // 3", "-(2 ** 64 + 5) % 3", "(2 ** 64 + 5) % -7",
    "(2 ** 64 + 5) // -7", "(2 ** 64) // -(2 ** 63)", "2 ** 64 * 2 ** 64",
    "(2 ** 128) // (2 ** 64 + 1)", "(2 ** 128) % (2 ** 64 + 1)",
    "abs(-(2 ** 65))", "abs(-(2 ** 63))", "int(2 ** 70)", "3 ** 50",
    "(-3) ** 41", "2 ** 64 - 2 ** 64", "(1 << 64) - 1 - ((1 << 64) - 2)",
    "[(x + 1) % (1 << 64) for x in [0, 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]]",
    "(0x123456789ABCDEF0 * 0x1000 + 0xABC) & ((1 << 64) - 1)",
    "((1 << 64) - 1) * 3 % (1 << 64)", "-9223372036854775807 - 1",
    "-(-9223372036854775807 - 1)", "2 ** 64 > 2 ** 63", "2 ** 64 < -(2 ** 64)",
    "2 ** 64 == 2 ** 64", "2 ** 64 != 2 ** 64 + 1", "2 ** 64 > 1.5",
    "-(2 ** 64) < 3", "float(2 ** 64)", "2 ** 64 / 2", "2 ** 64 + 0.5",
    "str(2 ** 100)", "str(-(2 ** 64))", "f'{(1 << 64) - 1}'",
    "isinstance(1 << 64, int)", "bool(1 << 64)", "not (1 << 64)",
    "max(1 << 64, 5, 1 << 63)", "min(-(1 << 64), 5)", "(1 << 64) in [1 << 64]",
    "{(1 << 64): 'a'}[(1 << 64)]", "sum([1 << 63, 1 << 63])",
    "int('18446744073709551615')", "int(' -1_000_000_000_000_000_000_000 ')",
    "int('+42')", "int(str((1 << 64) - 1)) + 1",
    # Powers of 0, 1 and -1 to huge exponents are immediate (tlc used to
    # multiply 2^62 times), others square their way to overflow.
    "1 ** (1 << 62)", "(-1) ** ((1 << 62) + 1)", "(-1) ** (1 << 62)",
    "0 ** (1 << 62)", "0 ** 0", "1 ** (1 << 70)", "(-1) ** ((1 << 70) + 3)",
    "2 ** 62", "(-2) ** 63", "(-2) ** 64", "3 ** 39", "3 ** 40", "7 ** 22",
    "(-7) ** 23", "(-5) ** 27", "10 ** 18", "10 ** 19", "2 ** -2",
]

out, check = sys.argv[1], sys.argv[2]
lines = ["import tilelang.language as T", ""]
consts = []
for e in EXPRS:
    v = eval(e)
    lines.append(f"assert ({e}) == {v!r}, {e!r}")
    if isinstance(v, int) and not isinstance(v, bool):
        lines.append(f"assert ({e}) != {v + 1!r}, {e!r}")
        if 0 <= v < 2 ** 64:
            consts.append(e)
lines += ["", "", "@T.prim_func",
          f"def consts(B: T.Tensor(({len(consts)},), T.uint64)):",
          "    with T.Kernel(1, threads=1):"]
with open(check, "w") as f:
    f.write("CHECK-LABEL: tile.func @consts\n")
    for k, e in enumerate(consts):
        lines.append(f"        B[{k}] = T.uint64({e})")
        v = eval(e)
        bits = v - 2 ** 64 if v >= 2 ** 63 else v
        f.write(f"CHECK: arith.constant {bits} : i64\n")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
